import AssayJSON
import AssayTestSupport
import Foundation
import Testing

@testable import AssayCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The documents of `stream` read a piece at a time, as `assay validate` reads a YAML input.
private func piecewise(_ stream: String, maximumBytes: Int = 1 << 20) throws -> [YAMLDocument] {
    let folder = try TemporaryFolder()
    let path = try folder.file("stream.yaml", stream)
    var reader = YAMLStreamReader(
        descriptor: open(path, O_RDONLY), closesDescriptor: true, path: path, maximumBytes: maximumBytes)
    var documents: [YAMLDocument] = []
    while let piece = try reader.next(beforeWaiting: {}) {
        switch piece {
        case .text(let bytes, let offset): documents += YAMLInput.documents(bytes, lineOffset: offset)
        case .overLimit(let line, let length):
            documents.append(
                YAMLDocument(
                    value: .failure(YAMLProblem(line: line, message: "over \(length)", isLimit: true)), node: nil))
        }
    }
    return documents
}

/// Every path to a value in `value`, the root included.
private func paths(_ value: JSONValue, _ prefix: [JSONPathComponent] = []) -> [[JSONPathComponent]] {
    switch value {
    case .object(let object):
        return [prefix] + object.flatMap { key, member in paths(member, prefix + [.key(key)]) }
    case .array(let items):
        return [prefix] + items.enumerated().flatMap { index, item in paths(item, prefix + [.index(index)]) }
    default:
        return [prefix]
    }
}

/// Issue 27: YAML is read document by document, with the same documents and the same lines as
/// reading the whole stream at once.
@Suite("YAML streams, a document at a time")
struct YAMLStreamTests {
    /// Pieces of documents that put the splitting to the test.
    static let fragments: [String] = [
        "a: 1\nb: [1, 2,\n  3]\n",
        "--- |\n  literal\n  ---not a marker\n   --- neither\n",
        "--- >\n folded\n text\n",
        "# a comment\nkey: value # trailing\n",
        "--- !!str tagged on the marker line\n",
        "&anchor {x: 1}\n",
        "list:\n- &a one\n- *a\n- {b: *a}\n",
        "\"quoted\n  across lines\"\n",
        "...\n",
        "\n\n",
        "- 1\n- - 2\n  - 3\n",
        "name: \"---\"\nother: '...'\n",
        "bad: [unclosed\n",
        "a: 1\na: 2\n",
        "empty:\n",
        "---\n",
        "--- 42\n",
        "%YAML 1.1\n---\nversion: directive\n",
        "x: \"é ü 日本\"\n",
    ]

    @Test("generated streams: the same documents, values and lines as the whole stream")
    func agreesWithTheWholeStream() throws {
        var numbers = SeededNumbers(seed: 27)
        var compared = 0
        for round in 0..<400 {
            var stream = ""
            let count = 1 + numbers.next(6)
            for index in 0..<count {
                let fragment = Self.fragments[numbers.next(Self.fragments.count)]
                // Documents after the first need a marker unless the fragment brings one; a directive
                // needs the document before it ended with `...`.
                if index > 0, !fragment.hasPrefix("---"), !fragment.hasPrefix("...") {
                    if fragment.hasPrefix("%") { stream += "...\n" } else { stream += "---\n" }
                } else if index > 0, fragment.hasPrefix("%") {
                    stream += "...\n"
                }
                stream += fragment
            }
            if round % 5 == 0 { stream = stream.replacingOccurrences(of: "\n", with: "\r\n") }
            if round % 7 == 0 { stream = "\u{FEFF}" + stream }
            let whole = YAMLInput.documents(Array(stream.utf8))
            let pieces = try piecewise(stream)
            // Reading the whole stream stops at its first syntax error; pieces go on after it. (The
            // fragments hold no alias to an earlier document's anchor: the pieces refuse it, as
            // YAML says, where Yams reading the whole stream resolves it.)
            let firstFailure = whole.firstIndex { if case .failure = $0.value { true } else { false } }
            let compare = firstFailure.map { $0 + 1 } ?? whole.count
            #expect(pieces.count >= compare, "round \(round): \(stream.debugDescription)")
            for (index, (expected, actual)) in zip(whole.prefix(compare), pieces).enumerated() {
                switch (expected.value, actual.value) {
                case (.success(let left), .success(let right)):
                    #expect(left == right, "round \(round), document \(index + 1): \(stream.debugDescription)")
                    #expect(expected.firstLine == actual.firstLine, "round \(round), document \(index + 1)")
                    for path in paths(left) {
                        #expect(
                            expected.line(of: path) == actual.line(of: path),
                            "round \(round), document \(index + 1), \(path): \(stream.debugDescription)")
                    }
                    compared += 1
                case (.failure(let left), .failure(let right)):
                    if index + 1 < compare || left.line != nil {
                        #expect(left.line == right.line, "round \(round): \(left.message) / \(right.message)")
                    }
                default:
                    Issue.record("round \(round), document \(index + 1) read differently: \(stream.debugDescription)")
                }
            }
            if firstFailure == nil {
                #expect(pieces.count == whole.count, "round \(round): \(stream.debugDescription)")
            }
        }
        #expect(compared > 800, "enough documents compared value by value")
    }

    @Test("an alias to an anchor of an earlier document is an error: anchors are per document")
    func anchorsArePerDocument() throws {
        // Found by the yaml fuzz target: Yams composing the whole stream resolved it.
        let documents = try piecewise("&b\n--- *b\n")
        #expect(documents.count == 2)
        #expect(try documents.first?.value.get() == .null)
        if case .failure(let problem) = documents.last?.value {
            #expect(problem.message.contains("undefined alias"))
            #expect(problem.line == 2)
        } else {
            Issue.record("the alias was resolved across documents")
        }
    }

    @Test("a document over --max-document-bytes is skipped to its end, not held, and the next one is read")
    func documentOverTheLimit() throws {
        let big = "big: \"" + String(repeating: "x", count: 5_000) + "\"\n"
        let documents = try piecewise("a: 1\n---\n" + big + "---\nb: 2\n", maximumBytes: 1_000)
        #expect(documents.count == 3)
        guard documents.count == 3 else { return }
        #expect(try documents[0].value.get() == ["a": 1])
        if case .failure(let problem) = documents[1].value {
            #expect(problem.isLimit)
            #expect(problem.line == 2)
        } else {
            Issue.record("the big document was read")
        }
        #expect(documents[2].firstLine == 5)
        #expect(try documents[2].value.get() == ["b": 2])
    }

    @Test("assay validate: errors after a syntax error are still reported, on the stream's lines")
    func errorsAfterASyntaxError() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("s.json", #"{"properties": {"port": {"type": "integer"}}}"#)
        let data = try folder.file("d.yaml", "port: 1\n---\nport: [unclosed\n---\n# note\nport: x\n")
        let run = try CLIRun(["validate", "-s", schema, "--quiet", data])
        #expect(run.status == 1)
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        // libyaml notices the unclosed sequence at the next marker, line 4, as when reading the whole stream.
        #expect(lines.first?.hasPrefix("\(data):4: not valid YAML: line 4, column 1: ") == true)
        #expect(lines.last == "\(data):6: /port: Port must be of type integer")
    }
}

/// Issue 27: a YAML stream on standard input gets each document's result as the document ends.
@Suite("YAML from a slow producer", .serialized)
struct YAMLLatencyTests {
    @Test("each document's result comes once `...` ends it, before the next is written")
    func eachDocumentAsItComes() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("s.json", #"{"properties": {"n": {"maximum": 5}}}"#)
        let assay = try LiveAssay([
            "validate", "-s", schema, "--quiet", "--format", "json", "--input-format", "yaml", "-",
        ])
        var answered = 0
        for number in 1...10 {
            assay.input.fileHandleForWriting.write(Data("---\nn: \(number)\n...\n".utf8))
            guard assay.read(until: { $0.contains("\"document\":\(number),") }) else { break }
            answered = number
        }
        try assay.input.fileHandleForWriting.close()
        let status = assay.finish()
        #expect(!assay.watchdog.fired, "assay held a document's result back")
        #expect(answered == 10)
        #expect(status == 1)
        #expect(assay.received.components(separatedBy: "\"valid\":false").count - 1 == 5)
    }
}
