import AssayCodable
import AssayJSON
import AssaySchema
import Foundation
import Testing

@testable import AssayGenerator

/// `Tuple.swift` is the generator's output for `Golden/tuple.schema.json`: arrays whose first items
/// each have a schema of their own (draft 7's `items` array beside `additionalItems`, 2020-12's
/// `prefixItems` beside `items`) are structs of their items, `item0`, `item1` … and `rest`, read in
/// order with `TupleDecoding`: an item below `minItems` is not optional, one past `maxItems` is not
/// declared, `additionalItems: false` refuses each item after them at its index, a tuple that holds
/// itself holds it in a box.
@Suite("Tuples: arrays whose items each have a schema")
struct TupleTests {
    static func schemaText() throws -> String { try SwiftGeneratorTests.read("tuple.schema.json") }

    static let valid: JSONValue = [
        "align": [true, "parameters", "arguments"], "semicolon": [true, "always", "ok"], "pair": [1, ["x": 1]],
        "range": [1, 100], "unknown": [.null, ["ignore": ["a"]]], "path": ["a", ["b", ["c"]]],
        "spans": [[1, 2], [3, 4, "abc"]],
    ]

    static func changed(_ changes: [String: JSONValue?]) -> JSONValue { valid.changing(changes) }

    static let instances: [(name: String, instance: JSONValue)] = [
        ("valid", valid),
        ("valid: flags", changed(["align": true, "semicolon": false, "unknown": true, "pair": []])),
        ("valid: an object rule", changed(["align": ["severity": "error", "options": ["parameters"]]])),
        ("valid: short tuples", changed(["semicolon": [false], "pair": [0], "unknown": [true], "path": ["a"]])),
        ("valid: a null flag and no options", changed(["unknown": [.null], "spans": [[1, 2, "a", "b"]]])),
        ("an option that is not listed", changed(["align": [true, "x"]])),
        ("too many options", changed(["align": [true, "parameters", "arguments", "statements"]])),
        ("an option repeated", changed(["align": [true, "parameters", "parameters"]])),
        ("an empty rule", changed(["align": []])),
        ("a rule whose flag is a string", changed(["align": ["x"]])),
        ("an object rule with an unknown member", changed(["align": ["severity": "error", "extra": 1]])),
        ("a comment too short", changed(["semicolon": [true, "always", "x"]])),
        ("a semicolon of four items", changed(["semicolon": [true, "always", "ok", "more"]])),
        ("a bad flag and a bad option", changed(["semicolon": [1, "sometimes"]])),
        ("a semicolon that is a string", changed(["semicolon": "always"])),
        ("a pair with a third item", changed(["pair": [1, ["x": 1], 3, 4]])),
        ("a negative pair with no x", changed(["pair": [-1, ["y": 1]]])),
        ("a range of one item", changed(["range": [1]])),
        ("a range past its maximum", changed(["range": [1, 101]])),
        ("a range of three items", changed(["range": [1, 2, "a"]])),
        ("an unknown flag false", changed(["unknown": false])),
        ("an unknown rule whose flag is false", changed(["unknown": [false]])),
        ("ignored names that are not strings", changed(["unknown": [true, ["ignore": [1, "a", 2]]]])),
        ("a path with an empty step and an extra item", changed(["path": ["a", ["", ["c"], "d"]]])),
        ("a path that is not an array", changed(["path": "a"])),
        ("an empty path deep down", changed(["path": ["a", ["b", []]]])),
        ("spans too short and too long", changed(["spans": [[1], [1, 2, "abcd", 3], "x"]])),
        (
            "valid: counts, nothing, a triple",
            changed(["counts": [0, 1, 2], "nothing": [], "triple": ["a", 1, 2, 3]])
        ),
        ("a negative count, and too many", changed(["counts": [0, -1, 2, 3]])),
        ("nothing that holds an item", changed(["nothing": ["a"]])),
        ("a triple of two items, the second a string", changed(["triple": ["a", "b"]])),
        (
            "every rule wrong at once",
            changed([
                "align": [1, "y"], "semicolon": [true, "never", "."], "pair": [-1, 2, 3], "range": [.null, .null],
                "unknown": [1, 2, 3], "path": [1], "spans": [[.null, .null]],
            ])
        ),
    ]

    @Test("the generated tuples refuse exactly where the schema does", arguments: instances.map(\.name))
    func agreement(_ name: String) throws {
        let instance = try #require(Self.instances.first { $0.name == name }?.instance)
        try UnionTests.expectAgreement(Linting.self, schemaText: Self.schemaText(), name: name, instance: instance)
    }

    @Test("a tuple reads each item into its property and writes the array back as it was")
    func roundTrip() throws {
        for instance in Self.instances.map(\.instance).prefix(5) {
            let decoded = try JSONValueDecoder().decodeValidated(Linting.self, from: instance.jsonBytes()).value
            #expect(try JSONValue(parsing: Array(JSONEncoder().encode(decoded))) == instance)
        }
        let decoded = try JSONValueDecoder().decodeValidated(Linting.self, from: Self.valid.jsonBytes()).value
        #expect(decoded.align == .array(LintingAlignArray(item0: true, rest: [.parameters, .arguments])))
        #expect(decoded.semicolon == .array(LintingSemicolonArray(item0: true, item1: .always, item2: "ok")))
        #expect(decoded.pair == LintingPair(item0: 1, item1: Spot(x: 1)))
        #expect(decoded.unknown == .some(.array(LintingUnknownArrayType(item0: nil, item1: .init(ignore: ["a"])))))
        #expect(
            decoded.path == Steps(item0: "a", item1: Indirect(Steps(item0: "b", item1: Indirect(Steps(item0: "c"))))))
        #expect(decoded.spans?.last == LintingSpansItem(item0: 3, item1: 4, rest: ["abc"]))
    }

    @Test("on demand, each item's rules are checked at its index, the count at the tuple, a gap before an item")
    func onDemand() {
        #expect(Linting(pair: LintingPair(item0: -1)).issues().map(\.path.jsonPointer) == ["/pair/0"])
        #expect(
            Linting(path: Steps(item0: "a", item1: Indirect(Steps(item0: "")))).issues().map(\.path.jsonPointer) == [
                "/path/1/0"
            ])
        let options: [RuleOptionsItem] = [.parameters, .arguments, .statements]
        let tooMany = Linting(align: .array(LintingAlignArray(item0: true, rest: options)))
        #expect(tooMany.issues().map(\.code) == [.tooMany])
        #expect(tooMany.issues().map(\.path.jsonPointer) == ["/align"])
        #expect(
            Linting(spans: [LintingSpansItem(item0: 1, item1: 2, rest: ["abcd"])]).issues().map(\.path.jsonPointer) == [
                "/spans/0/2"
            ])
        // An item missing before one that is present would be written `null`: reported.
        let gap = Linting(semicolon: .array(LintingSemicolonArray(item0: true, item2: "ok")))
        #expect(gap.issues().map(\.path.jsonPointer) == ["/semicolon/1"])
        #expect(gap.issues().map(\.code) == [.missing])
        #expect(Linting(semicolon: .array(LintingSemicolonArray(item0: true, item1: .never))).issues().isEmpty)
        #expect(
            Linting(unknown: .some(.array(LintingUnknownArrayType(item0: false)))).issues().map(\.path.jsonPointer) == [
                "/unknown/0"
            ])
    }

    @Test("the exported schema of the tuples agrees with the source schema")
    func export() throws {
        let exported = try JSONSchema(JSONSchemaExporter.document(for: Linting.self))
        let source = try JSONSchema(parsing: Self.schemaText())
        for (name, instance) in Self.instances where name != "an option repeated" {
            // `uniqueItems` is checked against the schema on decode: the export names it unchecked.
            #expect(exported.isValid(instance) == source.isValid(instance), "\(name)")
        }
    }

    @Test("a value that is not an array, and items the tuple refuses, are reported where they are")
    func decodingErrors() throws {
        func issues(_ json: String) -> [String] {
            do {
                _ = try JSONValueDecoder().decodeValidated(LintingPair.self, from: Array(json.utf8))
                return []
            } catch {
                return error.issues.map { "\($0.code) \($0.path.jsonPointer)" }
            }
        }
        #expect(issues(#"{"a": 1}"#) == ["typeMismatch "])
        #expect(issues(#"[1, {"x": 1}, 2, 3]"#) == ["notAllowed /2", "notAllowed /3"])
        #expect(issues(#"[-1, {}]"#) == ["tooSmall /0", "missing /1/x"])
        #expect(issues(#"[]"#) == [])
    }

    @Test("the golden file is the generator's output; every item is typed")
    func golden() throws {
        let options = SwiftGeneratorOptions(sourceName: "tuple.schema.json")
        let generated = try SwiftGenerator.generate(JSONValue(parsing: Array(Self.schemaText().utf8)), options: options)
        #expect(generated.source == (try SwiftGeneratorTests.read("Tuple.swift")))
        // The one keyword checked against the schema is `uniqueItems` (of items of several types);
        // the other note is the box of the path that holds itself.
        #expect(generated.notes.count == 2)
        #expect(generated.notes.first?.contains("uniqueItems — no typed rule") == true)
        #expect(generated.notes.last?.contains("Steps.item1 is an Indirect<Steps>") == true)
        #expect(generated.source.components(separatedBy: "SchemaDocument.schema, at:").count - 1 == 3)
        // Past `maxItems` no item is declared; a tuple of no `additionalItems` keeps what follows.
        #expect(!generated.source.contains("LintingRange(item0: Double, item1: Double, item2"))
        #expect(generated.source.contains("try items.finish(refusingMore: true)"))
    }
}
