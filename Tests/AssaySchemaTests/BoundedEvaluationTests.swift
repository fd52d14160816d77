import AssayCore
import AssayTestSupport
import Foundation
import Testing

@testable import AssayJSON
@testable import AssaySchema

/// Evaluation is bounded whatever the schema: a schema that reaches the same subschema on the same
/// value along exponentially many paths costs polynomial time, a step budget stops what is left,
/// errors (nested causes included) stop at the limit, and what an error shows of a value is an
/// excerpt. Names are compared code point for code point by every keyword that reads them.
@Suite("Bounded evaluation")
struct BoundedEvaluationTests {
    /// `[[[…[1]…]]]`, `depth` arrays around `innermost`.
    static func nested(_ depth: Int, _ innermost: String = "1") -> String {
        String(repeating: "[", count: depth) + innermost + String(repeating: "]", count: depth)
    }

    /// Both alternatives reach the schema again on each element, and at the bottom both fail, so a
    /// plain walk tries 2^depth paths.
    static let doubling = ##"""
        {"anyOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/a"}],
         "$defs": {"a": {"type": "array", "items": {"$ref": "#"}}}}
        """##

    @Test func schemasThatDoubleTheirWorkPerLevelStayPolynomial() throws {
        // 2^40 paths without remembering verdicts; within a budget of 200,000 steps with it.
        let schema = try JSONSchema(parsing: Self.doubling, options: .init(maximumEvaluationSteps: 200_000))
        let bad = try JSONDocument(parsing: Self.nested(40))
        #expect(!schema.isValid(bad))
        let result = schema.validate(bad, limit: .first(50))
        #expect(!result.isValid)
        #expect(!result.errors.contains { $0.code == .malformed }, "the budget was reached: \(result.errors.first!)")
        #expect(result.isTruncated)
        let good = try JSONDocument(parsing: Self.nested(40, "[]"))
        #expect(schema.isValid(good))
        #expect(schema.validate(good).isValid)
        // The same through a JSONValue.
        #expect(!schema.isValid(bad.value))
        #expect(schema.isValid(good.value))
    }

    @Test func theStepBudgetStopsEvaluationWithAClearError() throws {
        let schema = try JSONSchema(
            parsing: #"{"items": {"type": "integer", "minimum": 0}}"#, options: .init(maximumEvaluationSteps: 100))
        let long = try JSONDocument(parsing: "[" + Array(repeating: "1", count: 500).joined(separator: ",") + "]")
        // Valid data, but more than 100 schemas to apply: not validated, never "valid".
        #expect(!schema.isValid(long))
        let result = schema.validate(long)
        #expect(!result.isValid)
        #expect(result.errors.map(\.code) == [.malformed])
        #expect(result.errors[0].message(in: .english).contains("maximumEvaluationSteps"))
        let short = try JSONDocument(parsing: "[1, 2, 3]")
        #expect(schema.isValid(short))
        // The default budget scales with the document: 1,000 steps a value, at least 10 million.
        let plain = try JSONSchema(parsing: #"{"items": {"type": "integer", "minimum": 0}}"#)
        #expect(plain.isValid(long))
    }

    @Test func aLimitCrossedUnderNotIsNeverValid() throws {
        // The chain of references overflows inside `not`: the verdict of the inner schema is void,
        // so the document is not validated, rather than valid because `not` turned a failure over.
        let schema = try JSONSchema(
            parsing: ##"{"not": {"$ref": "#/$defs/loop"}, "$defs": {"loop": {"$ref": "#/$defs/loop"}}}"##)
        for document in [try JSONDocument(parsing: "1"), try JSONDocument(parsing: #"{"a": [1]}"#)] {
            #expect(!schema.isValid(document))
            let result = schema.validate(document)
            #expect(!result.isValid)
            #expect(result.errors.map(\.code) == [.malformed])
        }
        // Errors full, evaluation stops before the loop (the result says it was cut short); with
        // room, the loop's error comes after the type's.
        let full = try JSONSchema(
            parsing: ##"""
                {"properties": {"a": {"type": "string"}, "b": {"$ref": "#/$defs/loop"}},
                 "$defs": {"loop": {"$ref": "#/$defs/loop"}}}
                """##)
        let both = try JSONDocument(parsing: #"{"a": 1, "b": 1}"#)
        let limited = full.validate(both, limit: .first(1))
        #expect(!limited.isValid)
        #expect(limited.errors.map(\.code) == [.typeMismatch] && limited.isTruncated)
        #expect(full.validate(both).errors.map(\.code) == [.typeMismatch, .malformed])
        // Too deep inside `anyOf` likewise.
        let deep = try JSONSchema(
            parsing: ##"{"anyOf": [{"not": {"items": {"$ref": "#"}}}, true]}"##,
            options: .init(maximumInstanceDepth: 5))
        let document = try JSONDocument(parsing: Self.nested(10))
        #expect(!deep.isValid(document))
        #expect(deep.validate(document).errors.map(\.code) == [.malformed])
    }

    /// Collecting the errors of a deep document that fails at the bottom asks, on the way down, the
    /// verdict of each value below every level: remembered for large values, the steps stay linear
    /// in the depth (300 levels: within a budget of ten steps a tape entry; without remembering,
    /// about 45,000 steps).
    @Test func errorsFoundDeepDownCostStepsLinearInTheDepth() throws {
        let chain = ##"""
            {"$ref": "#/$defs/node",
             "$defs": {"node": {"type": "object",
                                "properties": {"child": {"$ref": "#/$defs/node"}, "value": {"type": "integer"}}}}}
            """##
        let depth = 300
        let text =
            String(repeating: #"{"child":"#, count: depth) + #"{"value":"x"}"# + String(repeating: "}", count: depth)
        let document = try JSONDocument(parsing: text)
        let entries = document.root.tapeView.next(after: document.root.tapeIndex)
        let schema = try JSONSchema(parsing: chain, options: .init(maximumEvaluationSteps: 10 * entries))
        #expect(!schema.isValid(document))
        let result = schema.validate(document)
        #expect(!result.isValid)
        #expect(result.errors.map(\.code) == [.typeMismatch], "\(result.errors.map(\.code))")
        let bottom = String(repeating: "/child", count: depth) + "/value"
        #expect(result.errors.first?.instanceLocation.jsonPointer == bottom)
    }

    /// All errors, nested causes included, as one list.
    static func allUnits(_ errors: [SchemaError]) -> [SchemaError] {
        errors.flatMap { [$0] + allUnits($0.causes) }
    }

    @Test func nestedCausesCountTowardTheLimit() throws {
        // Each level's `anyOf` fails with the causes of both alternatives, one level down: without a
        // bound on nested causes, a document 1,000 arrays deep makes an error of megabytes.
        let schema = try JSONSchema(
            parsing: ##"{"anyOf": [{"type": "integer"}, {"type": "array", "items": {"$ref": "#"}}]}"##)
        try onThread(stackSize: 64 << 20) {
            let document = try JSONDocument(
                parsing: Self.nested(999, #""x""#), options: JSONParserOptions(maximumDepth: 1_000))
            for limit in [1, 2, 10, 100] {
                let result = schema.validate(document, limit: .first(limit))
                #expect(!result.isValid)
                #expect(!result.errors.isEmpty)
                #expect(Self.allUnits(result.errors).count <= limit, "\(limit)")
                #expect(result.isTruncated)
                let output = result.output(.basic, language: .english)
                #expect(output["truncated"] == true)
                #expect(output.jsonBytes().count < 300_000, "\(limit)")
            }
            // A shallow document's errors all fit: not truncated.
            let shallow = schema.validate(try JSONDocument(parsing: Self.nested(2, #""x""#)))
            #expect(!shallow.isValid)
            #expect(!shallow.isTruncated)
            #expect(shallow.output(.basic)["truncated"] == nil)
            #expect(Self.allUnits(shallow.errors).count == 7)
        }
    }

    @Test func failingValuesAreExcerpted() throws {
        let schema = try JSONSchema(parsing: #"{"type": "integer"}"#)
        let long = String(repeating: "é", count: 100_000)
        let text = try schema.validate(JSONDocument(parsing: "\"\(long)\"")).errors[0]
        guard case .string(let shown) = text.value else {
            Issue.record("not a string: \(text.value)")
            return
        }
        #expect(shown.utf8.count <= 512 + 3)
        #expect(shown.hasSuffix("…"))
        #expect(shown.dropLast().allSatisfy { $0 == "é" })
        #expect(text.message(in: .english).utf8.count < 2_000)

        let array = try schema.validate(
            JSONDocument(parsing: "[" + (0..<1_000).map(String.init).joined(separator: ",") + "]")
        )
        .errors[0].value
        #expect(array.array?.count == 33)
        #expect(array.array?.last == "… 968 more")
        let members = (0..<100).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        let object = try schema.validate(JSONDocument(parsing: "{\(members)}")).errors[0].value
        #expect(object.object?.count == 33)
        #expect(object.object?["…"] == "68 more")
        let deep = try schema.validate(JSONDocument(parsing: Self.nested(20))).errors[0].value
        var level = deep
        var depth = 0
        while case .array(let elements) = level, let first = elements.first {
            level = first
            depth += 1
        }
        #expect(depth == 8)
        #expect(level == "[…]")
        // Small values are shown whole.
        let small = try schema.validate(JSONDocument(parsing: #"{"a": [1, "x"]}"#)).errors[0].value
        #expect(small == ["a": [1, "x"]])
    }

    /// A value that is not on a tape (one nested too deep to be written to one) is excerpted as a
    /// document's value is.
    @Test func aValueIsExcerptedAsADocumentsValueIs() throws {
        let texts = [
            "\"" + String(repeating: "é", count: 1_000) + "\"",
            "[" + (0..<1_000).map(String.init).joined(separator: ",") + "]",
            "{" + (0..<100).map { "\"k\($0)\": \($0)" }.joined(separator: ",") + "}", Self.nested(20),
            #"{"a": [1, "x", {"b": null}], "c": "short"}"#, "1.5", "true", #""""#,
        ]
        for text in texts {
            let document = try JSONDocument(parsing: text)
            #expect(document.value.excerpt() == document.root.excerpt(), "\(text.prefix(30))")
        }
        #expect(
            JSONValue.string(String(repeating: "a", count: 600)).excerpt()
                != .string(String(repeating: "a", count: 600)))
    }

    /// An error's value is excerpted when read, from the document the error holds: a document
    /// parsed next into the memory of the one before (as `assay validate` does line by line) does
    /// not write over one an error still holds, and the value read later is the one found.
    @Test func aFailingValueIsReadFromTheDocumentTheErrorHolds() throws {
        let schema = try JSONSchema(parsing: #"{"properties": {"tags": {"maxItems": 1}}}"#)
        var spare: JSONDocument? = try JSONDocument(parsing: Array(#"{"tags": ["a", "b", "c"]}"#.utf8)[...])
        let errors = schema.validate(spare!).errors
        #expect(errors.count == 1)
        weak let heldTape = spare!.tape
        let next = try JSONDocument(
            parsing: Array(#"{"tags": ["x"], "other": [1, 2, 3, 4, 5, 6]}"#.utf8)[...], options: .default,
            recycling: &spare)
        #expect(heldTape != nil, "the error holds the document")
        #expect(heldTape !== next.tape, "a document an error holds is not parsed into")
        #expect(schema.isValid(next))
        #expect(errors[0].value == ["a", "b", "c"])
        #expect(errors[0].issue.value == .other(#"["a","b","c"]"#))
        #expect(errors[0].issue.valueType == "array")
        // Once the errors are gone, so is the document.
        _ = consume errors
        #expect(heldTape == nil)
    }

    @Test func everyKeywordThatReadsNamesComparesCodePoints() throws {
        let composed = "\u{E9}"  // é
        let decomposed = "e\u{301}"  // é as e and a combining acute accent: canonically equal
        #expect(composed == decomposed)  // for Swift's String, not for JSON Schema
        let cases: [(schema: String, valid: String, invalid: String)] = [
            (
                #"{"properties": {"\#(composed)": {"type": "integer"}}}"#, #"{"\#(decomposed)": "x"}"#,
                #"{"\#(composed)": "x"}"#
            ),
            (#"{"required": ["\#(composed)"]}"#, #"{"\#(composed)": 1}"#, #"{"\#(decomposed)": 1}"#),
            (
                #"{"properties": {"\#(composed)": true}, "additionalProperties": false}"#, #"{"\#(composed)": 1}"#,
                #"{"\#(decomposed)": 1}"#
            ),
            (
                #"{"patternProperties": {"^\#(composed)$": {"type": "integer"}}}"#, #"{"\#(decomposed)": "x"}"#,
                #"{"\#(composed)": "x"}"#
            ),
            (
                #"{"patternProperties": {"^\#(composed)$": true}, "additionalProperties": false}"#,
                #"{"\#(composed)": 1}"#, #"{"\#(decomposed)": 1}"#
            ),
            (#"{"dependentRequired": {"\#(composed)": ["b"]}}"#, #"{"\#(decomposed)": 1}"#, #"{"\#(composed)": 1}"#),
            (
                #"{"dependentRequired": {"a": ["\#(composed)"]}}"#, #"{"a": 1, "\#(composed)": 1}"#,
                #"{"a": 1, "\#(decomposed)": 1}"#
            ),
            // Lists long enough to be compared with the object's keys gathered once.
            (
                #"{"required": ["a", "b", "c", "d", "e", "\#(composed)"]}"#,
                #"{"e": 1, "\#(composed)": 1, "d": 1, "c": 1, "b": 1, "a": 1}"#,
                #"{"e": 1, "\#(decomposed)": 1, "d": 1, "c": 1, "b": 1, "a": 1}"#
            ),
            (
                #"{"dependentRequired": {"a": ["b", "c", "d", "e", "f", "g", "h", "\#(composed)"]}}"#,
                #"{"h": 1, "g": 1, "f": 1, "e": 1, "d": 1, "c": 1, "b": 1, "a": 1, "\#(composed)": 1}"#,
                #"{"h": 1, "g": 1, "f": 1, "e": 1, "d": 1, "c": 1, "b": 1, "a": 1, "\#(decomposed)": 1}"#
            ),
            (
                #"{"dependentRequired": {"\#(composed)": ["b", "c", "d", "e", "f", "g", "h", "i"]}}"#,
                #"{"\#(decomposed)": 1}"#, #"{"\#(composed)": 1}"#
            ),
            (#"{"dependentSchemas": {"\#(composed)": false}}"#, #"{"\#(decomposed)": 1}"#, #"{"\#(composed)": 1}"#),
            (
                #"{"properties": {"\#(composed)": true}, "unevaluatedProperties": false}"#, #"{"\#(composed)": 1}"#,
                #"{"\#(decomposed)": 1}"#
            ),
            (
                #"{"allOf": [{"properties": {"\#(composed)": true}}], "unevaluatedProperties": false}"#,
                #"{"\#(composed)": 1}"#, #"{"\#(decomposed)": 1}"#
            ),
            (#"{"propertyNames": {"const": "\#(composed)"}}"#, #"{"\#(composed)": 1}"#, #"{"\#(decomposed)": 1}"#),
            (#"{"propertyNames": {"maxLength": 1}}"#, #"{"\#(composed)": 1}"#, #"{"\#(decomposed)": 1}"#),
            (#"{"const": {"\#(composed)": 1}}"#, #"{"\#(composed)": 1}"#, #"{"\#(decomposed)": 1}"#),
            (#"{"enum": [{"\#(composed)": 1}, 2]}"#, #"{"\#(composed)": 1}"#, #"{"\#(decomposed)": 1}"#),
            (#"{"const": "\#(composed)"}"#, #""\#(composed)""#, #""\#(decomposed)""#),
            (#"{"uniqueItems": true}"#, #"["\#(composed)", "\#(decomposed)"]"#, #"["\#(composed)", "\#(composed)"]"#),
            (
                #"{"uniqueItems": true}"#, #"[{"\#(composed)": 1}, {"\#(decomposed)": 1}]"#,
                #"[{"\#(composed)": 1}, {"\#(composed)": 1}]"#
            ),
        ]
        for (text, valid, invalid) in cases {
            let schema = try JSONSchema(parsing: text)
            for (instance, expected) in [(valid, true), (invalid, false)] {
                let document = try JSONDocument(parsing: instance)
                #expect(schema.isValid(document) == expected, "\(text) on \(instance)")
                #expect(schema.isValid(document.value) == expected, "\(text) on \(instance) as a JSONValue")
                #expect(schema.validate(document).isValid == expected, "\(text) on \(instance)")
                #expect(schema.validate(document).errors == schema.validate(document.value).errors, "\(text)")
            }
        }
    }
}

extension BoundedEvaluationTests {
    /// `required` and `dependentRequired` with long lists: each missing name reported once, in the
    /// list's order, whatever the order of the object's members, as short lists report them.
    @Test func missingNamesOfLongListsAreEachReported() throws {
        let names = (0..<30).map { "n\($0)" }
        let required = try JSONSchema(parsing: "{\"required\": [\(names.map { "\"\($0)\"" }.joined(separator: ","))]}")
        let dependent = try JSONSchema(
            parsing:
                "{\"dependentRequired\": {\"n0\": [\(names.dropFirst().map { "\"\($0)\"" }.joined(separator: ","))]}}")
        var random = SeededNumbers(seed: 7)
        for _ in 0..<40 {
            let present = ["n0"] + names.dropFirst().filter { _ in random.next(3) > 0 }
            var order = present
            for index in order.indices.reversed() { order.swapAt(index, random.next(index + 1)) }
            let document = try JSONDocument(parsing: "{" + order.map { "\"\($0)\": 1" }.joined(separator: ",") + "}")
            let missing = names.filter { !present.contains($0) }
            for schema in [required, dependent] {
                let result = schema.validate(document)
                #expect(result.isValid == missing.isEmpty)
                #expect(schema.isValid(document) == missing.isEmpty)
                #expect(result.errors.map(\.instanceLocation.description) == missing.map { "/\($0)" }, "\(order)")
                #expect(result.errors == schema.validate(document.value).errors)
            }
        }
    }
}

@Suite("Alternatives skipped by type")
struct TypeSkippingTests {
    @Test func alternativesThatCannotAcceptTheTypeFailUntriedWithTheirErrorsKept() throws {
        let schema = try JSONSchema(
            parsing: ##"""
                {"oneOf": [{"type": "string", "minLength": 2}, {"type": "integer", "minimum": 0},
                           {"$ref": "#/$defs/o"}, {"const": 1.5}, {"enum": [null, true]}],
                 "$defs": {"o": {"type": "object", "required": ["a"]}}}
                """##)
        let masks = TapeProgram.acceptedTypes(schema.nodes)
        let union = try #require(schema.nodes[schema.root].keywords.first?.kind)
        guard case .oneOf(let branches) = union else {
            Issue.record("not a oneOf")
            return
        }
        let bits = { (names: [JSONTypeName]) in names.reduce(UInt8(0)) { $0 | $1.bit } }
        #expect(
            branches.map { masks[$0] } == [
                bits([.string]), bits([.integer]), bits([.object]), bits([.number]),
                bits([.null, .boolean]),
            ])
        let cases: [(String, Bool, Int)] = [
            (#""ab""#, true, 0), ("5", true, 0), (#"{"a": 1}"#, true, 0), ("1.5", true, 0), ("null", true, 0),
            ("true", true, 0), (#""a""#, false, 5), ("-1", false, 5), ("{}", false, 5), ("false", false, 5),
            ("2.5", false, 5), ("[]", false, 5),
        ]
        for (text, valid, causes) in cases {
            let document = try JSONDocument(parsing: text)
            #expect(schema.isValid(document) == valid, "\(text)")
            let result = schema.validate(document)
            #expect(result.isValid == valid, "\(text)")
            #expect(result.errors.first?.causes.count ?? 0 == causes, "\(text): every alternative's errors")
        }
    }
}

@Suite("Sorted indices")
struct SortedIndicesTests {
    @Test func behavesAsASet() {
        var numbers = SeededNumbers(seed: 7)
        func next(_ bound: Int) -> Int { numbers.next(bound) }
        for _ in 0..<200 {
            var sorted = SortedIndices()
            var set = Set<Int>()
            var other = SortedIndices()
            var otherSet = Set<Int>()
            for _ in 0..<next(40) {
                // Below 64 as bits, above in the array: both, and unions across them.
                let value = next(130)
                sorted.insert(value)
                set.insert(value)
                let extra = next(130)
                other.insert(extra)
                otherSet.insert(extra)
            }
            #expect(sorted.elements == set.sorted())
            sorted.formUnion(other)
            set.formUnion(otherSet)
            #expect(sorted.elements == set.sorted())
            for probe in 0..<140 { #expect(sorted.contains(probe) == set.contains(probe)) }
        }
    }

    @Test func unevaluatedPropertiesPastSixtyFourMembers() throws {
        // Members 0–63 are kept as bits, the rest in the array: an object of 100 members whose
        // properties are evaluated by `properties`, `patternProperties` and an `allOf`, on both sides.
        let named = (0..<100).filter { $0 % 3 == 0 }.map { "\"k\($0)\": {\"type\": \"integer\"}" }
        let schema = try JSONSchema(
            parsing: """
                {"properties": {\(named.joined(separator: ", "))}, "patternProperties": {"^p": true},
                 "allOf": [{"properties": {"k98": true, "k1": true}}], "unevaluatedProperties": false}
                """)
        func object(_ names: [String]) throws -> JSONDocument {
            try JSONDocument(parsing: "{" + names.map { "\"\($0)\": 1" }.joined(separator: ", ") + "}")
        }
        let allowed = (0..<100).map { $0 % 3 == 0 ? "k\($0)" : "p\($0)" } + ["k98", "k1"]
        #expect(schema.isValid(try object(allowed)))
        #expect(schema.validate(try object(allowed)).isValid)
        for stray in ["k2", "k97", "x"] {
            let result = schema.validate(try object(allowed + [stray]))
            #expect(!schema.isValid(try object(allowed + [stray])))
            #expect(result.errors.map(\.instanceLocation.jsonPointer) == ["/\(stray)"])
        }
    }
}
