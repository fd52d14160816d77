import AssayCodable
import AssaySchema

@testable import AssayCLI
@testable import AssayCore
@testable import AssayJSON
@testable import AssayRegex

#if canImport(Glibc)
import Glibc
#endif

/// One libFuzzer binary for every target; `ASSAY_FUZZ_TARGET` names the one to run (each has its
/// own corpus under `Fuzz/Corpus/TARGET`). Every target also checks an oracle where one exists (two
/// ways of computing the same answer must agree), so a wrong answer is a crash, not only a crash.
enum Target: String, CaseIterable {
    case json, ndjson, yaml, schemaCompile = "schema-compile", schemaValidate = "schema-validate", regex, email
    case decode, report
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
    case .yaml: fuzzYAML(bytes)
    case .schemaCompile: fuzzSchemaCompile(bytes)
    case .schemaValidate: fuzzSchemaValidate(bytes)
    case .regex: fuzzRegex(bytes)
    case .email: fuzzEmail(bytes)
    case .decode: fuzzDecode(bytes)
    case .report: fuzzReport(bytes)
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
    checkIndexedWalk(bytes)
    for policy in [DuplicateKeyPolicy.reject, .firstWins, .lastWins] {
        guard let document = try? JSONDocument(parsing: bytes, options: .init(duplicateKeys: policy)) else { continue }
        let value = document.value
        // What is written parses back to the same value.
        let again = try? JSONValue(parsing: value.jsonBytes(), options: .init(maximumDepth: 1_000))
        check(again == value, "JSON round trip")
    }
}

/// The walk over the structural index (with the best index and with SSSE3's) parses what the main
/// loop parses, into the same tape and strings, and gives up on everything the main loop rejects.
private func checkIndexedWalk(_ bytes: [UInt8]) {
    guard TapeParser.indexAvailable else { return }
    for policy in [DuplicateKeyPolicy.reject, .lastWins] {
        let options = JSONParserOptions(duplicateKeys: policy)
        bytes.withUnsafeBufferPointer { input in
            var reference = TapeParser(input: input, options: options)
            let parsed: Bool
            do throws(JSONParseError) {
                try reference.parse(MainLoopOnly.self)
                parsed = true
            } catch { parsed = false }
            let entries = (0..<reference.entries.count).map { reference.entries[$0] }
            reference.entries.discard()
            for level: Int32 in [0, 1] {
                var walker = TapeParser(input: input, options: options)
                let accepted = walker.parseIndexed(level: level)
                let walked = (0..<walker.entries.count).map { walker.entries[$0] }
                let same = walked == entries && walker.strings == reference.strings
                walker.entries.discard()
                walker.scratch.free()
                let byteOrderMark = bytes.starts(with: [0xEF, 0xBB, 0xBF])
                check(accepted ? parsed && same : !parsed || byteOrderMark, "indexed walk, level \(level)")
            }
        }
    }
}

/// A reader of `bytes` through a pipe (closed for writing, so reads see its end).
/// A reader of `bytes` through a pipe. Its reads are small (16 to 1,036 bytes, chosen by the input's
/// last byte), so lines span reads within a short input — and each reader allocates little, which
/// kept the target at a few hundred inputs a second with the default 256 KiB reads.
private func pipeReader(_ bytes: [UInt8], maximumLineBytes: Int? = nil) -> NDJSONReader? {
    var descriptors: [Int32] = [0, 0]
    guard pipe(&descriptors) == 0 else { return nil }
    _ = bytes.withUnsafeBytes { write(descriptors[1], $0.baseAddress, $0.count) }
    close(descriptors[1])
    let readSize = 16 + 4 * Int(bytes.last ?? 0)
    var reader = NDJSONReader(fileDescriptor: descriptors[0], closeWhenDone: true, readSize: readSize)
    if let maximumLineBytes { reader.maximumLineBytes = maximumLineBytes }
    return reader
}

/// A YAML stream read a document at a time (as `assay validate` reads it) gives the documents of
/// the whole stream read at once, with the same values and lines, up to the whole stream's first
/// error (after which only the pieces go on).
private func fuzzYAML(_ bytes: [UInt8]) {
    let prefix = Array(bytes.prefix(32_768))  // what a pipe holds without a reader
    let whole = YAMLInput.documents(prefix)
    var descriptors: [Int32] = [0, 0]
    guard pipe(&descriptors) == 0 else { return }
    _ = prefix.withUnsafeBytes { write(descriptors[1], $0.baseAddress, $0.count) }
    close(descriptors[1])
    var reader = YAMLStreamReader(
        descriptor: descriptors[0], closesDescriptor: true, path: "-", maximumBytes: 1 << 20)
    var pieces: [YAMLDocument] = []
    while let piece = try? reader.next(beforeWaiting: {}) {
        guard case .text(let text, let offset) = piece else { continue }
        pieces += YAMLInput.documents(text, lineOffset: offset)
    }
    let firstFailure = whole.firstIndex { if case .failure = $0.value { true } else { false } }
    var compared = firstFailure.map { $0 + 1 } ?? whole.count
    if let firstFailure, case .failure(let problem) = whole[firstFailure].value,
        problem.message.contains("error: reader:") || problem.message == "not valid UTF-8"
    {
        // The whole stream is refused for a byte anywhere in it (invalid UTF-8, a control character
        // libyaml's reader does not allow, in a document or in a comment between documents), before
        // its first document: nothing to compare. Read a piece at a time, only a document that
        // holds such a byte fails; a comment between documents is not read.
        compared = 0
    }
    for (index, expected) in whole.prefix(compared).enumerated() {
        guard index < pieces.count else {
            check(false, "YAML pieces: \(pieces.count) documents, the whole stream \(compared)")
            return
        }
        switch (expected.value, pieces[index].value) {
        case (.success(let left), .success(let right)):
            check(left == right, "YAML pieces: a document's value")
            check(expected.firstLine == pieces[index].firstLine, "YAML pieces: a document's line")
        case (.failure, .failure): break
        case (.success, .failure(let problem)) where problem.message.contains("undefined alias"):
            // An alias to an anchor of an earlier document: YAML's anchors are per document, and a
            // piece has only its own; Yams reading the whole stream resolves it anyway. The piece's
            // error ends it, so what follows is not compared.
            return
        default: check(false, "YAML pieces: a document read in one and not in the other")
        }
    }
    if firstFailure == nil { check(pieces.count == whole.count, "YAML pieces: the number of documents") }
}

private func fuzzNDJSON(_ bytes: [UInt8]) {
    let prefix = Array(bytes.prefix(32_768))  // what a pipe holds without a reader
    guard var reader = pipeReader(prefix) else { return }
    var byLine: [Int: [UInt8]] = [:]
    while let record = try? reader.next() {
        byLine[record.line] = record.bytes
        _ = try? record.parse()
    }
    // Blocks give the same records as lines.
    let block = NDJSONBlock(firstLine: 1, bytes: prefix, startsStream: true)
    var byBlock: [Int: [UInt8]] = [:]
    block.forEachRecord { line, record, _ in byBlock[line] = Array(prefix[record]) }
    check(byBlock == byLine, "NDJSON blocks and lines")
    // Each record parsed into the memory of the one before (as `assay validate` parses lines) is
    // the document, or the error, that a fresh parse gives.
    var spare: JSONDocument?
    block.forEachRecord { _, record, _ in
        let line = prefix[record]
        let fresh = Result { () throws(JSONParseError) in try JSONDocument(parsing: line) }
        let recycled = Result { () throws(JSONParseError) in
            try JSONDocument(parsing: line, options: .default, recycling: &spare)
        }
        switch (fresh, recycled) {
        case (.success(let expected), .success(let document)):
            check(Array(document.tape.entries) == Array(expected.tape.entries), "recycled tape entries")
            check(document.tape.strings == expected.tape.strings, "recycled tape strings")
            spare = document
        case (.failure(let expected), .failure(let error)):
            check(error == expected, "recycled parse error")
        default:
            check(false, "recycled parse verdict")
        }
    }
    // With a small line limit, lines over it come in pieces (blocks) or are skipped (lines); put
    // together, a piece's line is the record (plus a final \r), or a blank line the reader skips.
    let limit = 16
    guard var pieces = pipeReader(prefix, maximumLineBytes: limit),
        var skips = pipeReader(prefix, maximumLineBytes: limit)
    else { return }
    var seen: [Int: [UInt8]] = [:]
    var long: [UInt8] = []
    while let block = try? pieces.nextBlock() {
        if let part = block.longLine {
            check(part.isFirst == long.isEmpty, "first piece")
            long += block.bytes
            guard part.isLast else { continue }
            let record = long.last == 0x0D ? Array(long.dropLast()) : long
            check(part.length == record.count, "long line length")
            if let expected = byLine[part.line] {
                check(record == expected, "long line bytes")
            } else {
                check(record.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }, "long blank line")
            }
            seen[part.line] = record
            long = []
        } else {
            block.forEachRecord { line, record, _ in seen[line] = Array(block.bytes[record]) }
        }
    }
    check(byLine.keys.allSatisfy { seen[$0] == byLine[$0] }, "small-limit blocks and lines")
    // Skipped lines: whether a line just over the limit is whole or skipped depends on where reads
    // end, so a skipped line is compared by length with the line read whole (or is blank).
    var lineNumbers: Set<Int> = []
    while let record = try? skips.next() {
        lineNumbers.insert(record.line)
        if record.isOverLimit {
            check(byLine[record.line].map { $0.count == record.length } ?? true, "small-limit skipped line")
        } else {
            check(byLine[record.line] == record.bytes, "small-limit lines")
        }
    }
    check(byLine.keys.allSatisfy { lineNumbers.contains($0) }, "small-limit lines all there")
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
    var (patternBytes, subjectBytes) = split(bytes)
    // A first byte of 0xF8 or above (never in UTF-8) gives flags in its low bits: `i`, `m`, `s`.
    var options: LinearRegex.Options = []
    if let first = patternBytes.first, first >= 0xF8 {
        options = LinearRegex.Options(rawValue: Int(first & 7))
        patternBytes.removeFirst()
    }
    let pattern = String(decoding: patternBytes, as: UTF8.self)
    // Automata of up to 2,000 instructions on subjects of up to 1,024 bytes: every engine runs the
    // same code on larger ones, and the Pike VM's cost (program × subject) kept the target at a few
    // hundred executions a second. Larger patterns still exercise the size limit's error.
    guard let regex = try? LinearRegex(pattern, options: options, maximumProgramSize: 2_000) else { return }
    let subject = String(decoding: subjectBytes.prefix(1_024), as: UTF8.self)
    // Every automaton that applies agrees with the Pike VM: the lazy DFA (through the string's
    // UTF-8 and through its scalars, the second time from a warm cache) and the bit-parallel runner.
    let scalars = subject.unicodeScalars
    let verdict = regex.firstMatchExistsWithPikeVM(in: scalars)
    check(regex.firstMatchExists(in: subject) == verdict, "automatic engine and Pike VM")
    for engine in [LinearRegex.Engine.lazyDFA, .bitParallel, .lazyDFA] {
        check(regex.firstMatchExists(in: scalars, engine: engine) == verdict, "\(engine) and Pike VM")
    }
    // The lazy DFA's caches alone, and automata frozen with small budgets (most transitions left
    // to the caches), wherever they answer.
    if let dfa = regex.lazyDFA {
        var text = subject
        text.withUTF8 { bytes in
            check((dfa.runOnCache(bytes: bytes, latin1: false) ?? verdict) == verdict, "lazy DFA caches and Pike VM")
            // The automaton frozen as the pattern compiled, as validation asks it: on UTF-8 as it is.
            check((regex.frozenMatchExists(utf8: bytes) ?? verdict) == verdict, "frozen automaton on UTF-8 and Pike VM")
            for budget in [3, 40] {
                if let frozen = DFACache().frozen(dfa.shape, budget: budget, maximumEntries: 64),
                    let answer = frozen.run(bytes: bytes)
                {
                    check(answer == verdict, "frozen automaton (budget \(budget)) and Pike VM")
                }
            }
        }
    }
    // The first match exists exactly where a match does, within the subject.
    let first = regex.firstMatchOffsets(in: scalars)
    check((first != nil) == verdict, "first match and verdict")
    check(first.map { $0.upperBound <= scalars.count } ?? true, "first match within the subject")
    // And a backtracking matcher over the same syntax tree agrees on both (lookarounds included),
    // when it finishes within its budget on short subjects and patterns (with no limit it took most
    // of the target's time: 200 executions a second in CI's smoke).
    guard subject.unicodeScalars.count <= 32, patternBytes.count <= 256,
        var parser = Optional(RegexParser(pattern, options: options)), let tree = try? parser.parse()
    else { return }
    let reference = ReferenceMatcher(Array(subject.unicodeScalars), budget: 20_000)
    if let expected = reference.firstMatch(tree) {
        check(verdict == (expected != nil), "linear engine and backtracking reference")
        check(first == expected, "first match and backtracking reference")
    }
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

/// `report`: run summaries. An input that starts with `{` is a summary file (hostile): read, and
/// when it is one, drawn and merged with itself — the totals add up (saturating), the page has the
/// one script it brings, and the merged summary reads back. Any other input is a schema line and
/// NDJSON: validated and aggregated with tiny limits (3 paths, 1 example of 64 bytes), and held to
/// exact counts kept beside it: each listed path's true count within `[errors - overcount,
/// errors]`, each unlisted one at most `unlistedAtMost`, the histogram, keywords and codes add up; the summary's JSON reads
/// back as the same summary.
private func fuzzReport(_ bytes: [UInt8]) {
    if bytes.first == UInt8(ascii: "{") {
        guard let value = try? JSONValue(parsing: bytes), let summary = try? RunSummary(json: value, file: "fuzz")
        else { return }
        let page = HTMLReport(summary).render()
        check(page.components(separatedBy: "<script").count == 2, "the page has one script element")
        guard let merged = try? RunSummary.merged([("a", summary), ("b", summary)]) else {
            report("a summary did not merge with itself")
            abort()
        }
        check(merged.documents == summary.documents.adding(summary.documents), "merged documents")
        check(merged.paths.count <= max(summary.limits.paths, 1), "merged paths within the limit")
        _ = HTMLReport(merged).render()
        _ = TerminalSummary.render(merged, color: true)
        check((try? RunSummary(json: merged.json, file: "merged")) != nil, "the merged summary reads back")
        return
    }
    let (schemaBytes, rest) = split(bytes)
    guard let schemaValue = try? JSONValue(parsing: schemaBytes),
        let schema = try? JSONSchema(schemaValue, options: .init(assertFormats: true))
    else { return }
    let limits = RunSummary.Limits(paths: 3, examples: 1, exampleBytes: 64)
    let collector = SummaryCollector(limits: limits, language: .english, keepsExamples: true, redaction: Redaction())
    var exact: [String: Int] = [:]
    var (documents, invalid, errors) = (0, 0, 0)
    for (number, line) in rest.split(separator: 0x0A).enumerated() {
        guard let document = try? JSONDocument(parsing: line) else { continue }
        let result = schema.validate(document, limit: .first(8))
        documents += 1
        collector.count(bytes: line.count)
        guard !result.isValid else { continue }
        invalid += 1
        errors += result.errors.count
        let failures = FailedDocument.failures(result.errors)
        for failure in failures { exact[SummaryCollector.fold(failure.location), default: 0] += 1 }
        collector.add(
            FailedDocument(position: .line(number + 1), failures: failures, value: document.value), file: "fuzz",
            text: line)
    }
    var summary = collector.finish(schema: "s", inputs: ["fuzz"], seconds: 0)
    // The run's totals are the caller's; what the collector counted must add up to them.
    summary.documents = documents
    summary.invalid = invalid
    summary.errors = errors
    check(summary.errorsPerDocument.reduce(0, +) == invalid, "the histogram counts every invalid document")
    check(summary.keywords.values.reduce(0, +) == errors, "every error is counted under its keyword")
    check(summary.codes.values.reduce(0, +) == errors, "every error is counted under its code")
    check(summary.paths.count <= limits.paths, "paths within the limit")
    let listed = Dictionary(summary.paths.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    check(listed.count == summary.paths.count, "each path listed once")
    for (path, count) in exact {
        if let tally = listed[path] {
            check(tally.errors - tally.overcount <= count && count <= tally.errors, "the bounds of \(path)")
            check(tally.keywords.allSatisfy { $0.examples.count <= limits.examples }, "examples within the limit")
        } else {
            check(count <= summary.unlistedAtMost, "an unlisted path's bound")
        }
    }
    check(summary.isApproximate == (exact.count > limits.paths), "approximate exactly when paths were left out")
    // Through its bytes, as `assay report` reads it (the parser's default limits).
    guard let text = try? JSONValue(parsing: summary.json.jsonBytes(.prettyPrinted)),
        let back = try? RunSummary(json: text, file: "fuzz")
    else {
        report("a run's summary does not read back")
        abort()
    }
    check(back.paths == summary.paths && back.keywords == summary.keywords, "the summary reads back the same")
    _ = HTMLReport(summary).render()
}
