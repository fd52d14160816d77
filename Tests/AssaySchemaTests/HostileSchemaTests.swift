import AssayCore
import AssayJSON
import AssaySchema
import Foundation
import Testing

private func compile(_ text: String, options: JSONSchema.Options = .init()) throws -> JSONSchema {
    try JSONSchema(parsing: text, options: options)
}

/// Issue 23's findings in schemas: dishonest or unbounded answers from schemas nobody tuned for.
@Suite struct HostileSchemaTests {
    @Test func twoResourcesWithOneIdAreASchemaError() throws {
        let error = try #require(throws: SchemaCompilationError.self) {
            try compile(
                #"""
                {"$defs": {"a": {"$id": "https://example.com/x", "type": "string"},
                           "b": {"$id": "https://example.com/x", "type": "integer"}},
                 "$ref": "https://example.com/x"}
                """#)
        }
        #expect(error.problems.contains { $0.message.contains(#""https://example.com/x" is also the URI of"#) })
        // An `$id` inside `enum` or `const` is data, not a resource.
        let data = try compile(
            #"""
            {"$id": "https://example.com/root", "enum": [{"$id": "https://example.com/root"}],
             "properties": {"c": {"const": {"$id": "https://example.com/root"}}}}
            """#)
        #expect(data.isValid(try JSONValue(parsing: #"{"$id": "https://example.com/root"}"#)))
    }

    @Test func twoAnchorsWithOneNameInOneResourceAreASchemaError() throws {
        let error = try #require(throws: SchemaCompilationError.self) {
            try compile(##"{"$defs": {"a": {"$anchor": "x"}, "b": {"$anchor": "x"}}, "$ref": "#x"}"##)
        }
        #expect(error.problems.contains { $0.message.contains("anchors must be unique in a resource") })
        // The same name in two resources is fine.
        _ = try compile(
            #"""
            {"$defs": {"a": {"$id": "https://example.com/a", "$anchor": "x"},
                       "b": {"$id": "https://example.com/b", "$anchor": "x"}}}
            """#)
        // Draft 7's `$id: "#x"` anchors likewise.
        #expect(throws: SchemaCompilationError.self) {
            try compile(
                ##"""
                {"$schema": "http://json-schema.org/draft-07/schema#",
                 "definitions": {"a": {"$id": "#x"}, "b": {"$id": "#x"}}}
                """##)
        }
    }

    @Test func unknownFormatsAreRejectedWhenAskedWithTheNearestSuggested() throws {
        let text = #"{"format": "date_time"}"#
        // The specification's default: an unknown format is an annotation, asserted or not.
        #expect(try compile(text, options: .init(assertFormats: true)).isValid(try JSONValue(parsing: #""soon""#)))
        let error = try #require(throws: SchemaCompilationError.self) {
            try compile(text, options: .init(assertFormats: true, unknownFormats: .reject))
        }
        #expect(error.problems[0].message.hasPrefix(#"unknown format "date_time"; did you mean "date-time"?"#))
        // Only asserted formats are checked for being known.
        _ = try compile(text, options: .init(assertFormats: false, unknownFormats: .reject))
        #expect(TextFormat.nearest(to: "e-mail") == .email)
        #expect(TextFormat.nearest(to: "UUID") == .uuid)
        #expect(TextFormat.nearest(to: "ipv-4") == .ipv4)
        #expect(TextFormat.nearest(to: "phone-number") == nil)
    }

    @Test func multipleOfIsExactAtExtremeExponents() throws {
        let seven = try compile(#"{"multipleOf": 7}"#)
        #expect(!seven.isValid(try JSONValue(parsing: "1e-10000")))
        #expect(seven.isValid(try JSONValue(parsing: "7e10000")))
        let tiny = try compile(#"{"multipleOf": 1e-10000}"#)
        #expect(tiny.isValid(try JSONValue(parsing: "3")))
        #expect(!tiny.isValid(try JSONValue(parsing: "3e-10001")))
    }

    @Test func patternSizeIsAnOption() throws {
        #expect(throws: SchemaCompilationError.self) { try compile(#"{"pattern": "[^x]{0,99999}y"}"#) }
        let roomy = try compile(#"{"pattern": "[^x]{0,99999}y"}"#, options: .init(maximumPatternSize: 300_000))
        #expect(roomy.isValid(try JSONValue(parsing: #""aay""#)))
    }

    /// Found under ThreadSanitizer: evaluation recursed about 2 KB of stack per level of the document
    /// (release build), so a document 300 deep — under the parser's limit of 1,000 — overflowed a
    /// 512 KB stack and crashed the process; building the tree and writing it recursed too. The tree
    /// is built and written without recursion now, and evaluation stops with an error (not a
    /// verdict) when the thread's stack runs short.
    @Test func deepDocumentsOnSmallStacksAreErrorsNotCrashes() throws {
        let recursive = try JSONSchema(
            JSONValue(parsing: ##"{"type": ["array", "integer"], "items": {"$ref": "#"}}"##))
        let text = String(repeating: "[", count: 999) + "1" + String(repeating: "]", count: 999)
        let bad = String(repeating: "[", count: 999) + "\"x\"" + String(repeating: "]", count: 999)
        for size in [256 << 10, 512 << 10] {
            try onThread(stackSize: size) {
                let options = JSONParserOptions(maximumDepth: JSONParserOptions.maximumAllowedDepth)
                guard let document = try? JSONDocument(parsing: text, options: options),
                    let wrong = try? JSONDocument(parsing: bad, options: options)
                else {
                    Issue.record("not parsed")
                    return
                }
                let value = document.value
                #expect(value.jsonBytes().count == text.utf8.count)
                let result = recursive.validate(document)
                // Either the whole depth fitted (valid) or evaluation stopped short (an error saying so).
                #expect(result.isValid || result.errors.contains { $0.code == .malformed })
                let treeResult = recursive.validate(value)
                #expect(treeResult.isValid || treeResult.errors.contains { $0.code == .malformed })
                let invalid = recursive.validate(wrong)
                #expect(!invalid.isValid)
                #expect(!recursive.isValid(wrong.value))
            }
        }
    }

    /// Found by the generator's tests: a schema nested past the depth limit was indexed again from
    /// depth 0 wherever the walk had stopped, and compiled level by level, each looked up from the
    /// root: a value 4,000 deep took a minute (the square of the depth), 10,000 deep far longer.
    /// The walk now stops at the limit for good: one problem, and no level below it compiled.
    @Test func schemasNestedPastTheLimitStopThere() throws {
        for depth in [1_000, 10_000] {
            var schema: JSONValue = ["type": "string"]
            for _ in 0..<depth { schema = ["type": "object", "properties": ["inner": schema]] }
            do {
                _ = try JSONSchema(schema)
                Issue.record("a schema \(depth) deep compiled")
            } catch {
                #expect(error.problems.count == 1, "\(error.problems.count) problems")
                #expect(error.problems.first?.message.contains("nested more than 512 levels deep") == true)
            }
        }
    }
}
