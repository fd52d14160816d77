import AssayCodable
import AssaySchema

@testable import AssayCLI
@testable import AssayCore
@testable import AssayJSON

#if canImport(Glibc)
import Glibc
#endif

/// One libFuzzer binary for every target; `ASSAY_FUZZ_TARGET` names the one to run (each has its
/// own corpus under `Fuzz/Corpus/TARGET`). Every target also checks an oracle where one exists (two
/// ways of computing the same answer must agree), so a wrong answer is a crash, not only a crash.
enum Target: String, CaseIterable {
    case json, ndjson, yaml, schemaCompile = "schema-compile", schemaValidate = "schema-validate", regex, email
    case decode
}

nonisolated(unsafe) private let target: Target = {
    let name = getenv("ASSAY_FUZZ_TARGET").map { String(cString: $0) } ?? "json"
    guard let found = Target(rawValue: name) else {
        let names = Target.allCases.map(\.rawValue).joined(separator: ", ")
        report("ASSAY_FUZZ_TARGET=\(name): unknown; use one of \(names)")
        exit(2)
    }
    return found
}()

/// libFuzzer's entry point: one input for the target `ASSAY_FUZZ_TARGET` names.
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    switch target {
    case .json: fuzzJSON(bytes)
    case .ndjson: fuzzNDJSON(bytes)
    case .yaml: _ = YAMLInput.documents(bytes)
    case .schemaCompile: fuzzSchemaCompile(bytes)
    case .schemaValidate: fuzzSchemaValidate(bytes)
    case .regex: fuzzRegex(bytes)
    case .email: fuzzEmail(bytes)
    case .decode: fuzzDecode(bytes)
    }
    return 0
}

/// The first line and the rest.
private func split(_ bytes: [UInt8]) -> ([UInt8], [UInt8]) {
    guard let newline = bytes.firstIndex(of: 0x0A) else { return (bytes, []) }
    return (Array(bytes[..<newline]), Array(bytes[(newline + 1)...]))
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        report("oracle failed: \(message())")
        abort()
    }
}

/// A line on standard error.
private func report(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

private func fuzzJSON(_ bytes: [UInt8]) {
    for policy in [DuplicateKeyPolicy.reject, .firstWins, .lastWins] {
        guard let document = try? JSONDocument(parsing: bytes, options: .init(duplicateKeys: policy)) else { continue }
        let value = document.value
        // What is written parses back to the same value.
        let again = try? JSONValue(parsing: value.jsonBytes(), options: .init(maximumDepth: 1_000))
        check(again == value, "JSON round trip")
    }
}

private func fuzzNDJSON(_ bytes: [UInt8]) {
    var descriptors: [Int32] = [0, 0]
    guard pipe(&descriptors) == 0 else { return }
    let prefix = Array(bytes.prefix(32_768))  // what a pipe holds without a reader
    _ = prefix.withUnsafeBytes { write(descriptors[1], $0.baseAddress, $0.count) }
    close(descriptors[1])
    var reader = NDJSONReader(fileDescriptor: descriptors[0], closeWhenDone: true)
    var byLine: [[UInt8]] = []
    while let record = try? reader.next() {
        byLine.append(record.bytes)
        _ = try? record.parse()
    }
    // Blocks give the same records as lines.
    let block = NDJSONBlock(firstLine: 1, bytes: prefix, startsStream: true)
    var byBlock: [[UInt8]] = []
    block.forEachRecord { _, record, _ in byBlock.append(Array(prefix[record])) }
    check(byBlock == byLine, "NDJSON blocks and lines")
}

private func fuzzSchemaCompile(_ bytes: [UInt8]) {
    guard let value = try? JSONValue(parsing: bytes) else { return }
    for assert in [false, true] {
        _ = try? JSONSchema(value, options: .init(assertFormats: assert, unknownFormats: assert ? .reject : .ignore))
    }
}

private func fuzzSchemaValidate(_ bytes: [UInt8]) {
    let (schemaBytes, instanceBytes) = split(bytes)
    guard let schemaValue = try? JSONValue(parsing: schemaBytes),
        let schema = try? JSONSchema(schemaValue, options: .init(assertFormats: true)),
        let document = try? JSONDocument(parsing: instanceBytes)
    else { return }
    let tree = schema.validate(document.value)
    let inPlace = schema.validate(document)
    // The tree and the tape give the same verdict and the same errors; a quick check agrees.
    check(tree.isValid == inPlace.isValid, "tree and tape verdicts")
    check(tree.isValid == schema.isValid(document.value), "isValid and validate")
    check(tree.errors.map(\.keywordLocation) == inPlace.errors.map(\.keywordLocation), "tree and tape errors")
}

private func fuzzRegex(_ bytes: [UInt8]) {
    let (patternBytes, subjectBytes) = split(bytes)
    let pattern = String(decoding: patternBytes, as: UTF8.self)
    guard let regex = try? LinearRegex(pattern) else { return }
    let subject = String(decoding: subjectBytes, as: UTF8.self)
    // The bit-parallel runner (when it applies) and the Pike VM agree.
    check(
        regex.firstMatchExists(in: subject) == regex.firstMatchExistsWithPikeVM(in: subject.unicodeScalars),
        "bit-parallel and Pike VM")
}

private func fuzzEmail(_ bytes: [UInt8]) {
    let address = String(decoding: bytes, as: UTF8.self)
    for options in [EmailAddressValidator.Options.default, .ascii, .rfc] {
        let validator = EmailAddressValidator(options: options)
        // The plain-ASCII fast path agrees with the full rules.
        check(
            (validator.rejection(for: address) == nil) == (validator.fullRejection(for: address) == nil),
            "email fast path")
    }
}

/// A model with rules of every kind, nested and lossy, decoded with all its failures collected.
@Validatable
struct FuzzAddress: Codable, Sendable {
    @Validate(.length(1...40)) var street: String
    @Validate(.length(5...5), .charset(.digits)) var zip: String?
}

@Validatable
struct FuzzClient: Codable, Sendable {
    @Normalize(.trimmed) @Validate(.length(2...100), .charset(.letters + .marks + .spaces)) var name: String
    @Validate(.range(1...150)) var age: Int
    @Validate(.email()) var email: String?
    @Lossy @Validate(.count(...5), .each(.length(1...20))) var tags: [String] = []
    var address: FuzzAddress?
    var friends: [FuzzClient] = []
}

private func fuzzDecode(_ bytes: [UInt8]) {
    for policy in [ValidatedDecodingPolicy.default, .init(unknownKeys: .reject, maximumIssues: 3)] {
        do {
            let decoded = try JSONValueDecoder().decodeValidated(FuzzClient.self, from: bytes, policy: policy)
            // A value that decoded is valid on demand too.
            check(decoded.value.issues().allSatisfy { $0.severity == .warning }, "decoded value valid")
        } catch {
            check(error.hasErrors, "a thrown aggregate holds an error")
        }
    }
}
