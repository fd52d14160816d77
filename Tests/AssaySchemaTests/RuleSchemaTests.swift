import AssayCore
import AssayJSON
import AssaySchema
import Testing

@Suite("Rule.schema: a value checked against a JSON Schema")
struct RuleSchemaTests {
    @Test("the schema's verdict, its issues under the value's path")
    func issuesAreLocated() throws {
        let either = try JSONSchema(parsing: #"{"anyOf": [{"maxLength": 3}, {"pattern": "^[0-9]+$"}]}"#)
        let code = Rule<String>.schema(either)
        #expect(code.isValid("abc") && code.isValid("12345") && !code.isValid("abcd"))
        let small = try JSONSchema(parsing: #"{"items": {"maximum": 10}, "maxItems": 3}"#)
        let issues = Rule<[Int]>.schema(small).issues(for: [1, 20, 3, 40], at: IssuePath.root.appending(key: "sizes"))
        #expect(issues.map(\.path.jsonPointer).sorted() == ["/sizes", "/sizes/1", "/sizes/3"])
        #expect(issues.allSatisfy { $0.severity == .error })
    }

    @Test("a Swift value is encoded as JSON first: structs as objects, an optional's nil left out")
    func encodedValues() throws {
        struct Span: Encodable, Sendable {
            var low: Int
            var high: Int?
        }
        let ordered = try JSONSchema(
            parsing: #"{"required": ["high"], "properties": {"high": {"type": "integer"}, "low": {"maximum": 5}}}"#)
        let rule = Rule<Span>.schema(ordered)
        #expect(rule.isValid(Span(low: 1, high: 2)))
        #expect(rule.issues(for: Span(low: 9, high: nil)).map(\.path.jsonPointer).sorted() == ["/high", "/low"])
    }

    @Test("a value with no JSON form fails, it is not passed")
    func notEncodable() throws {
        let any = try JSONSchema(parsing: "true")
        let issues = Rule<Double>.schema(any).issues(for: .nan)
        #expect(issues.map(\.code) == [.custom("notEncodable")])
    }
}
