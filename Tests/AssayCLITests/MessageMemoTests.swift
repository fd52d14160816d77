import AssayCore
import AssaySchema
import Testing

@testable import AssayCLI
@testable import AssayJSON

/// A worker renders a message once for the whole run, not once per block of lines: its memo is
/// handed from batch to batch, and made again only when a block reports in another language.
@Suite struct MessageMemoTests {
    static let schema = try! JSONSchema(
        parsing: #"{"type":"object","required":["name"],"properties":{"age":{"minimum":0}}}"#)

    static func batch(_ sequence: Int, language: Language) -> LineBatch {
        let lines = (0..<20).map { $0 % 2 == 0 ? #"{"age":-1}"# : #"{"name":"a","age":3}"# }
        let block = NDJSONBlock(
            firstLine: 1 + sequence * 20, bytes: Array((lines.joined(separator: "\n") + "\n").utf8),
            startsStream: sequence == 0)
        return LineBatch(
            sequence: sequence, block: block,
            reporter: Reporter(format: .json, language: language, color: false, file: "records.ndjson"))
    }

    @Test func oneMemoServesEveryBatchOfAWorker() throws {
        let checker = DocumentChecker(
            schema: Self.schema, limit: .all,
            reporter: Reporter(format: .json, language: .english, color: false, file: "records.ndjson"))
        var messages: SchemaMessageMemo?
        let first = Self.batch(0, language: .english)
        first.process(with: checker, messages: &messages)
        let memo = try #require(messages)
        // Two messages ("required", "minimum"), each rendered once for the ten failing records.
        #expect(first.invalid == 10)
        #expect(memo.count == 2)
        let second = Self.batch(1, language: .english)
        second.process(with: checker, messages: &messages)
        #expect(messages === memo, "the next batch kept the memo")
        #expect(memo.count == 2, "and rendered nothing again")
        // The same errors, reported from the same messages (the line numbers aside).
        let firstText = String(decoding: first.output, as: UTF8.self)
        let secondText = String(decoding: second.output, as: UTF8.self)
        #expect(firstText.contains("Name is required") && firstText.contains("must be at least 0"))
        #expect(
            firstText.replacing(/"line":\d+/, with: "")
                == secondText.replacing(/"line":\d+/, with: ""))
        let russian = Self.batch(2, language: .russian)
        russian.process(with: checker, messages: &messages)
        #expect(messages !== memo, "a block in another language gets a memo of its own")
        #expect(messages?.language == .russian)
    }
}
