import AssayCore
import AssayJSON
import AssaySchema
import Testing

@testable import AssayCLI

/// An invalid NDJSON line's JSON report is written from the schema errors directly
/// (``Reporter/appendInvalidLine(_:errors:messages:truncated:to:)``): byte for byte what the
/// general path writes through ``ReportedError``, for keys that need escaping in a pointer, in JSON,
/// or both, nested causes, every error limit and with and without a message memo.
@Suite struct InvalidLineReportTests {
    static let schema = try! JSONSchema(
        parsing: #"""
            {"type": "object",
             "properties": {
               "shape": {"oneOf": [
                 {"type": "object", "required": ["kind"], "properties": {"kind": {"const": "a"}, "n": {"type": "integer"}}},
                 {"type": "object", "properties": {"items": {"type": "array", "items": {"type": "string", "maxLength": 2}}}},
                 {"type": "array", "prefixItems": [{"type": "number"}], "items": {"type": "boolean"}}]},
               "any": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"$ref": "#"}}]}},
             "additionalProperties": {"type": "integer", "minimum": 0}}
            """#)

    static let documents = [
        #"{"a~b": -1, "c/d": "x", "q\"uote": -2, "back\\slash": -3, "new\nline": -4, "ctl\u0001": -5}"#,
        #"{"é/ü~": -1, "日本": "no", "": -6, "~0~1": -7, "/": -8, "~": -9}"#,
        #"{"shape": {"kind": "b", "n": 1.5, "items": ["abc", 3, "x\"y"]}}"#,
        #"{"shape": [1, true, "t/~\"", false, 7], "any": [[[1, {"x\ty": -1}]]]}"#,
        #"{"shape": {"items": [["~"], {"a/b": "c~d"}]}, "any": 3, "k\\\"": {"d": 1}}"#,
    ]

    @Test func theDirectReportIsTheGeneralOne() throws {
        for language in [Language.english, .russian] {
            let reporter = Reporter(format: .json, language: language, color: false, file: "a \"b\".ndjson")
            for limit in [ErrorLimit.all, .first(1), .first(3)] {
                for useMemo in [false, true] {
                    let memo = useMemo ? SchemaMessageMemo(language: language) : nil
                    for (offset, text) in Self.documents.enumerated() {
                        let document = try JSONDocument(parsing: Array(text.utf8))
                        let result = Self.schema.validate(document, limit: limit)
                        try #require(!result.isValid, "\(text)")
                        let line = 1 + offset * 97
                        var general: [UInt8] = []
                        reporter.append(
                            position: .line(line),
                            errors: reporter.errors(result.errors, messages: memo, sourceLine: { _ in line }),
                            truncated: result.isTruncated, to: &general)
                        var direct: [UInt8] = []
                        reporter.appendInvalidLine(
                            line, errors: result.errors, messages: memo, truncated: result.isTruncated, to: &direct)
                        #expect(
                            String(decoding: direct, as: UTF8.self) == String(decoding: general, as: UTF8.self),
                            "\(text), \(limit), memo \(useMemo)")
                        // The report is JSON, and a document with causes reports them.
                        let parsed = try JSONValue(parsing: direct)
                        if offset >= 2, limit == .all, case .object(let object) = parsed {
                            #expect(String(decoding: direct, as: UTF8.self).contains(#""causes":["#), "\(text)")
                            #expect(object["valid"] == .bool(false))
                        }
                    }
                }
            }
        }
    }
}
