import AssayCodable
import AssayCore
import AssayJSON
import AssaySchema
import Foundation

// Usage: AssayBench VARIANT NDJSON_FILE [SCHEMA]  (SCHEMA for the schema-* variants)
// Times one variant end to end, from reading the file to the last record, on one thread, and prints
// one line: variant=… seconds=… records=… MB_per_s=… records_per_s=… checksum=…
let variants = [
    "split",  // read the file and find the lines with memchr: the floor under every other variant
    "parse-tape",  // JSONDocument per line: the parse, navigable in place
    "parse-tree",  // JSONValue per line: the parse plus an owned tree
    "reader-tape",  // NDJSONReader streaming the file (constant memory) + JSONDocument per line
    "decode",  // JSONValueDecoder into the Client struct
    "foundation-decode",  // Foundation JSONDecoder into the same struct
    "decode-validated",  // JSONValueDecoder into @Validatable ValidatedClient (the schema's rules), all errors
    "foundation-decode-validated",  // Foundation JSONDecoder into the same validated type
    "decode-validated-bare",  // decodeValidated into @Validatable BareClient: Client's fields, no rules (the machinery)
    "schema-validate",  // AssaySchema on pre-parsed JSONValues: all errors, formats asserted
    "schema-is-valid",  // the same, stopping at the first error (a yes/no answer)
    "schema-validate-document",  // AssaySchema in place on pre-parsed JSONDocuments: all errors, formats asserted
    "schema-is-valid-document",  // the same, stopping at the first error
    "parse-schema-validate",  // per line: JSONDocument, then AssaySchema in place (all errors of invalid records)
    "parse-schema-is-valid",  // the same, stopping at the first error
    // Validation alone timed as Blaze's `validate --benchmark --loop N` times it: per record, the line
    // parsed (untimed), then validated N times in a row (ASSAY_BENCH_LOOP, 3 by default) and the mean
    // of the N counted; loop_seconds is the sum of the means.
    "schema-is-valid-each",  // the verdict alone, stopping at the first error (as Blaze's --fast)
    "schema-validate-each",  // all errors
]
let arguments = CommandLine.arguments
guard arguments.count == 3 || arguments.count == 4, variants.contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: AssayBench {\(variants.joined(separator: "|"))} FILE [SCHEMA]\n".utf8))
    exit(2)
}
let variant = arguments[1]
let path = arguments[2]

/// The variants timed per line, resolved once so the loop does not compare strings per record.
enum LineVariant: String {
    case split, parseTape = "parse-tape", parseTree = "parse-tree", decode, foundationDecode = "foundation-decode"
    case decodeValidated = "decode-validated", foundationDecodeValidated = "foundation-decode-validated"
    case decodeValidatedBare = "decode-validated-bare"
    case parseSchemaValidate = "parse-schema-validate", parseSchemaIsValid = "parse-schema-is-valid"
}
let lineVariant = LineVariant(rawValue: variant)

struct Address: Decodable {
    let street: String
    let city: String
    let postcode: String
    let country: String
}

/// The same shape as ../shared/bench/swift-foundation-baseline's Client.
struct Client: Decodable {
    let id: String
    let name: String
    let age: Int
    let email: String
    let signup: String
    let address: Address
    let tags: [String]
    let score: Double
    let active: Bool
    let manager_id: String?
}

/// The benchmark schema's rules, declared on the type (../shared/bench/client.schema.json).
@Validatable
struct ValidatedAddress: Decodable {
    @Validate(.length(1...200)) var street: String
    @Validate(.length(1...100)) var city: String
    @Validate(.matches("^[A-Z0-9][A-Z0-9 -]{1,8}[A-Z0-9]$")) var postcode: String
    @Validate(.oneOf(countries)) var country: String
}

let countries = [
    "US", "CA", "MX", "BR", "AR", "CL", "CO", "PE", "GB", "IE", "FR", "DE", "NL", "BE", "LU", "CH", "AT", "IT", "ES",
    "PT", "DK", "NO", "SE", "FI", "IS", "PL", "CZ", "SK", "HU", "RO", "BG", "GR", "TR", "UA", "IL", "EG", "ZA", "NG",
    "KE", "MA", "SA", "AE", "IN", "PK", "CN", "JP", "KR", "TW", "TH", "VN", "ID", "PH", "AU", "NZ", "SG",
]

@Validatable
struct ValidatedClient: Decodable {
    @Validate(.uuid) var id: String
    @Validate(.length(2...100)) var name: String
    @Validate(.range(0...130)) var age: Int
    @Validate(.email(), .length(...254)) var email: String
    var signup: Date
    var address: ValidatedAddress
    @Validate(.count(...8), .unique, .each(.length(1...32))) var tags: [String]
    @Validate(.range(0...100)) var score: Double
    var active: Bool
    @Required @Validate(.uuid) var manager_id: String?
}

/// `Client` as a `@Validatable` type without a rule (and unknown keys ignored): what validated
/// decoding costs before any rule is checked.
@Validatable
struct BareClient: Decodable {
    var id: String
    var name: String
    var age: Int
    var email: String
    var signup: String
    var address: BareAddress
    var tags: [String]
    var score: Double
    var active: Bool
    var manager_id: String?
}

@Validatable
struct BareAddress: Decodable {
    var street: String
    var city: String
    var postcode: String
    var country: String
}

func lineRanges(_ bytes: UnsafeRawBufferPointer) -> [Range<Int>] {
    guard let base = bytes.baseAddress else { return [] }
    var ranges: [Range<Int>] = []
    var position = 0
    while position < bytes.count {
        let end =
            memchr(base + position, 0x0A, bytes.count - position).map { base.distance(to: UnsafeRawPointer($0)) }
            ?? bytes.count
        if end > position { ranges.append(position..<end) }
        position = end + 1
    }
    return ranges
}

let clock = ContinuousClock()
let start = clock.now
var records = 0
var checksum = 0
var failures = 0
var failedLines: [Int] = []
var totalBytes = 0
/// When the per-line loop starts: the Python harness times only this part (lines already in memory).
var loopStart = start

if variant == "reader-tape" {
    var reader = try NDJSONReader(path: path)
    while let record = try reader.next() {
        records += 1
        totalBytes += record.bytes.count + 1
        do { checksum &+= try record.parse().root.count ?? 0 } catch { failures += 1 }
    }
} else {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    totalBytes = data.count
    // One buffer for the file; each line is a slice of it (no copy), as the Foundation baseline
    // slices `Data`.
    let buffer = [UInt8](data)
    let lines: [ArraySlice<UInt8>] = buffer.withUnsafeBytes { raw in lineRanges(raw).map { buffer[$0] } }
    records = lines.count
    // The schema variants time validation alone, as the Python harness's "validate only
    // (pre-parsed)" cases do: the records are parsed before the clock starts.
    var parsed: [JSONValue] = []
    var documents: [JSONDocument] = []
    var schema: JSONSchema?
    var inPlaceSchema: JSONSchema?
    if variant.contains("schema-") {
        let schemaText = try String(contentsOfFile: arguments.count == 4 ? arguments[3] : "", encoding: .utf8)
        // ASSAY_BENCH_FORMATS=annotate: formats as annotations (Benchmarks/workloads.py --jsb).
        let assertFormats = ProcessInfo.processInfo.environment["ASSAY_BENCH_FORMATS"] != "annotate"
        let compiled = try JSONSchema(parsing: schemaText, options: .init(assertFormats: assertFormats))
        if variant.hasSuffix("-each") {
            inPlaceSchema = compiled
        } else if variant.hasSuffix("-document") {
            // Pre-parsed as the fast path's parsed form: the tape of each line, validated in place.
            let null = try JSONDocument(parsing: "null")
            documents = lines.map { (try? JSONDocument(parsing: $0)) ?? null }
            schema = compiled
        } else if variant.hasPrefix("schema-") {
            parsed = lines.map { (try? JSONValue(parsing: [UInt8]($0))) ?? .null }
            schema = compiled
        } else {
            inPlaceSchema = compiled
        }
    }
    loopStart = clock.now
    if variant.hasSuffix("-each"), let compiled = inPlaceSchema {
        let repeats = max(1, Int(ProcessInfo.processInfo.environment["ASSAY_BENCH_LOOP"] ?? "") ?? 3)
        let collects = variant == "schema-validate-each"
        var timed = Duration.zero
        for line in lines {
            guard let document = try? JSONDocument(parsing: line) else {
                failures += 1
                continue
            }
            var valid = true
            var errors = 0
            let before = clock.now
            for _ in 0..<repeats {
                if collects {
                    let result = compiled.validate(document)
                    valid = result.isValid
                    errors = result.errors.count
                } else {
                    valid = compiled.isValid(document)
                }
            }
            timed += (clock.now - before) / repeats
            if !valid { failures += 1 }
            checksum &+= errors
        }
        // Only the validations are counted: the loop's time is their sum.
        loopStart = clock.now - timed
        inPlaceSchema = nil
    }
    let collectsErrors = variant == "schema-validate" || variant == "schema-validate-document"
    /// Counts one record's verdict: all its errors, or only whether it is valid.
    func record(_ validate: () -> SchemaValidationResult, _ isValid: () -> Bool) {
        if collectsErrors {
            let result = validate()
            if !result.isValid { failures += 1 }
            checksum &+= result.errors.count
        } else if !isValid() {
            failures += 1
        }
    }
    if let schema {
        for document in documents { record({ schema.validate(document) }, { schema.isValid(document) }) }
        for value in parsed { record({ schema.validate(value) }, { schema.isValid(value) }) }
    }
    let decoder = JSONValueDecoder()
    let foundation = JSONDecoder()
    foundation.dateDecodingStrategy = .iso8601
    // The schema forbids other keys (additionalProperties: false).
    let policy = ValidatedDecodingPolicy(unknownKeys: .reject)
    // With ASSAY_BENCH_FAILURES=PATH, the 0-based indices of the records that failed go to PATH
    // (untimed use: checking agreement with the ground truth).
    let listFailures = ProcessInfo.processInfo.environment["ASSAY_BENCH_FAILURES"]
    for (index, line) in lines.enumerated() where schema == nil && lineVariant != nil {
        let failuresBefore = failures
        defer { if listFailures != nil, failures > failuresBefore { failedLines.append(index) } }
        switch lineVariant {
        case .split:
            checksum &+= line.count
        case .parseTape:
            do { checksum &+= try JSONDocument(parsing: line).root.count ?? 0 } catch { failures += 1 }
        case .parseTree:
            do { checksum &+= try JSONDocument(parsing: line).value.object?.count ?? 0 } catch { failures += 1 }
        case .decode:
            do { checksum &+= try decoder.decode(Client.self, from: JSONDocument(parsing: line)).age } catch {
                failures += 1
            }
        case .foundationDecode:
            do { checksum &+= try foundation.decode(Client.self, from: Data(line)).age } catch { failures += 1 }
        case .decodeValidated:
            do {
                checksum &+= try decoder.decodeValidated(ValidatedClient.self, from: Array(line), policy: policy).value
                    .age
            } catch { failures += 1; checksum &+= error.issues.count }
        case .decodeValidatedBare:
            do { checksum &+= try decoder.decodeValidated(BareClient.self, from: Array(line)).value.age } catch {
                failures += 1
                checksum &+= error.issues.count
            }
        case .foundationDecodeValidated:
            do {
                checksum &+= try foundation.decodeValidated(ValidatedClient.self, from: Data(line), policy: policy)
                    .value.age
            } catch { failures += 1; checksum &+= error.issues.count }
        case .parseSchemaValidate:
            do {
                let result = inPlaceSchema!.validate(try JSONDocument(parsing: line))
                if !result.isValid { failures += 1 }
                checksum &+= result.errors.count
            } catch { failures += 1 }
        case .parseSchemaIsValid:
            do {
                if !inPlaceSchema!.isValid(try JSONDocument(parsing: line)) { failures += 1 }
            } catch { failures += 1 }
        case nil:
            break
        }
    }
}
let end = clock.now
if let target = ProcessInfo.processInfo.environment["ASSAY_BENCH_FAILURES"] {
    try failedLines.map(String.init).joined(separator: "\n").write(toFile: target, atomically: true, encoding: .utf8)
}
func toSeconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
let seconds = toSeconds(end - start)
let loopSeconds = toSeconds(end - loopStart)
print(
    "variant=\(variant) seconds=\(String(format: "%.4f", seconds)) loop_seconds=\(String(format: "%.4f", loopSeconds)) "
        + "records=\(records) MB_per_s=\(String(format: "%.1f", Double(totalBytes) / seconds / 1e6)) "
        + "records_per_s=\(Int(Double(records) / seconds)) failures=\(failures) checksum=\(checksum)")
