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

@Suite("Rule.schema from text, as generated code holds it")
struct RuleSchemaTextTests {
    static let document = #"""
        {"$defs": {"small": {"type": "integer", "maximum": 9}},
         "properties": {"size": {"$ref": "#/$defs/small"}, "odd key/~": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                        "when": {"format": "date"}}}
        """#

    @Test("a fragment named by its pointer, its $refs into the document resolved; formats asserted")
    func fragment() {
        let size = Rule<Int>.schema(Self.document, at: "/properties/size")
        #expect(size.isValid(9) && !size.isValid(10))
        let odd = Rule<JSONValue>.schema(Self.document, at: "/properties/odd key~1~0")
        #expect(odd.isValid("a") && odd.isValid(.null) && !odd.isValid(3))
        #expect(!Rule<String>.schema(Self.document, at: "/properties/when").isValid("2024-02-30"))
        #expect(Rule<String>.schema(Self.document, at: "/properties/when", assertingFormats: false).isValid("x"))
        #expect(Rule<JSONValue>.schema(Self.document).isValid(["size": 3]))
    }

    @Test("a document that is not JSON, or a pointer that leads nowhere, fails every value")
    func brokenDocuments() {
        for rule in [Rule<Int>.schema("{not json"), Rule<Int>.schema(Self.document, at: "/properties/nothing")] {
            let issues = rule.issues(for: 1)
            #expect(issues.map(\.code) == [.custom("invalidSchema")])
        }
    }
}

@Suite("Rule.schema of some keywords of a subschema, as generated types check them")
struct RuleSchemaKeywordsTests {
    @Test("additionalProperties alone still leaves the members properties and patternProperties name")
    func additionalPropertiesKnowsItsSiblings() {
        let document = EmbeddedSchema(
            #"{"properties": {"a": {"type": "string"}}, "patternProperties": {"^x-": {"type": "integer"}}, "additionalProperties": false}"#
        )
        let rest = Rule<JSONValue>.schema(document, keywords: ["additionalProperties"])
        // `a` and `x-1` are not additional (and their own schemas are not checked here).
        #expect(rest.isValid(["a": 1, "x-1": "not checked here"]))
        #expect(rest.issues(for: ["a": "s", "b": 1]).map(\.path.jsonPointer) == ["/b"])
        let patterns = Rule<JSONValue>.schema(document, keywords: ["patternProperties", "additionalProperties"])
        #expect(patterns.isValid(["a": 1, "x-1": 2]))
        #expect(Set(patterns.issues(for: ["x-1": "s", "b": 1]).map(\.path.jsonPointer)) == ["/x-1", "/b"])
    }
}
