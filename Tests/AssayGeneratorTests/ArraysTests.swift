import AssayCodable
import AssayGenerator
import AssayJSON
import AssaySchema
import Foundation
import Testing

/// `Arrays.swift` is the generator's output for `Golden/arrays.schema.json`: arrays read by position
/// (draft 7's `items` as a list and `additionalItems`) are tuples, structs of their items (more in
/// `TupleTests`); an array with `contains` is a typed array whose counts, uniqueness and items are
/// typed rules, `contains` checked on the array against the schema; and `allOf` items that each read values of the same types — a `$ref` to
/// `{"type": ["boolean", "object", "array"], …}` beside an item of tuple and object keywords, as
/// tslint writes every rule — are one schema of all their keywords, each read where it is written.
@Suite("Arrays read by position, and allOf items merged across several types")
struct ArraysTests {
    static func schemaText() throws -> String { try SwiftGeneratorTests.read("arrays.schema.json") }

    static let valid: JSONValue = [
        "name": "n", "pair": [true, "abc", 1, 2], "marks": ["a", "x"], "quotes": [true, "single"], "strict": true,
        "code": "AB", "tags": ["t"],
    ]

    static func changed(_ changes: [String: JSONValue?]) -> JSONValue { valid.changing(changes) }

    static let instances: [(name: String, instance: JSONValue)] = [
        ("valid", valid),
        ("valid with objects", changed(["quotes": ["severity": "error", "options": "ab"], "strict": [:]])),
        ("valid with flags", changed(["quotes": false, "strict": [false], "pair": [false]])),
        ("valid with the least", ["name": "m"]),
        ("a pair whose flag is a string", changed(["pair": ["a", "abc"]])),
        ("a pair with a long label and a negative number", changed(["pair": [true, "abcd", -1]])),
        ("a pair too long and repeating", changed(["pair": [true, "a", 1, 1, 2]])),
        ("a pair that is not an array", changed(["pair": "x"])),
        ("marks with no x", changed(["marks": ["a"]])),
        ("marks with an empty one and no x", changed(["marks": [""]])),
        // An element that does not decode: the array's `contains` is checked on the input.
        ("marks with a number and no x", changed(["marks": [1, "a"]])),
        ("marks with a number beside an x", changed(["marks": [1, "x"]])),
        ("too many marks", changed(["marks": ["x", "a", "b", "c"]])),
        ("quotes of an unknown severity", changed(["quotes": ["severity": "fatal"]])),
        ("quotes with a member no item declares", changed(["quotes": ["level": 1]])),
        ("quotes with options too short", changed(["quotes": ["options": "a"]])),
        ("quotes as an empty array", changed(["quotes": []])),
        ("quotes with an unknown style", changed(["quotes": [true, "triple"]])),
        ("quotes whose flag is a style", changed(["quotes": ["single"]])),
        ("quotes too long and repeating", changed(["quotes": [true, "single", "single", "double"]])),
        ("quotes as a string", changed(["quotes": "on"])),
        ("quotes as null", changed(["quotes": .some(nil)])),
        ("strict with a severity (its item declares no member)", changed(["strict": ["severity": "error"]])),
        ("strict with options", changed(["strict": [true, false]])),
        ("strict as an empty array", changed(["strict": []])),
        ("strict as a number", changed(["strict": 1])),
        ("a code of lower case", changed(["code": "ab"])),
        ("a code too long", changed(["code": "Abcdef"])),
        ("no tags", changed(["tags": []])),
        ("an empty tag", changed(["tags": [""]])),
        ("several at once", changed(["name": 1, "pair": [1], "quotes": ["x": 1], "strict": [], "code": "a"])),
    ]

    private static func decodingPlaces(_ instance: JSONValue) -> Set<String> {
        SwiftGeneratorTests.decodingPlaces(LintSettings.self, instance)
    }

    @Test("the generated type refuses exactly where the schema does", arguments: instances.map(\.name))
    func agreement(_ name: String) throws {
        let instance = try #require(Self.instances.first { $0.name == name }?.instance)
        let schema = try JSONSchema(parsing: Self.schemaText(), options: JSONSchema.Options(assertFormats: true))
        let expected = Set(schema.validate(instance).issues.map(\.path.jsonPointer))
        let found = Self.decodingPlaces(instance)
        #expect(found == expected, "\(name)")
        #expect(found.isEmpty == name.hasPrefix("valid"), "\(name)")
    }

    @Test("a value decoded encodes back as it was read")
    func roundTrip() throws {
        for instance in Self.instances.filter({ $0.name.hasPrefix("valid") }).map(\.instance) {
            let decoded = try JSONValueDecoder().decodeValidated(LintSettings.self, from: instance.jsonBytes()).value
            #expect(try JSONValue(parsing: Array(JSONEncoder().encode(decoded))) == instance)
        }
    }

    @Test("on demand, a tuple's positions and a merged union's cases are checked as decoding checks them")
    func onDemand() {
        var settings = LintSettings(
            name: "n", pair: LintSettingsPair(item0: true, item1: "abcd", rest: [1, -1]),
            quotes: .array(LintSettingsQuotesArray(item0: true, rest: [.single, .double, .single])))
        #expect(Set(settings.issues().map(\.path.jsonPointer)) == ["/pair/1", "/pair/3", "/quotes"])
        settings.pair = LintSettingsPair(item0: false)
        settings.quotes = .object(LintSettingsQuotesObject(options: "a"))
        #expect(settings.issues().map(\.path.jsonPointer) == ["/quotes/options"])
    }

    @Test("the golden file is the generator's output; only the positions' keywords are noted")
    func golden() throws {
        let options = SwiftGeneratorOptions(sourceName: "arrays.schema.json")
        let generated = try SwiftGenerator.generate(JSONValue(parsing: Array(Self.schemaText().utf8)), options: options)
        #expect(generated.source == (try SwiftGeneratorTests.read("Arrays.swift")))
        #expect(
            generated.notes.sorted()
                == [
                    "#/properties/marks: contains", "#/properties/pair: uniqueItems",
                    "#/properties/quotes/allOf/1: uniqueItems",
                ].map {
                    $0 + " — no typed rule: the value is checked against these keywords with AssaySchema when decoded"
                })
        // The merged union: a case per type of the `$ref`'s `type`, each with the keywords of every item.
        #expect(
            generated.source.contains(
                "case boolean(Bool)\n    case object(LintSettingsQuotesObject)\n    case array(LintSettingsQuotesArray)"
            ))
        // Its tuple: the flag, then the options, typed; `additionalItems: false` refuses more.
        #expect(
            generated.source.contains(
                "public var item0: Bool\n    /// The items after index 0.\n    public var rest: [LintSettingsQuotesArrayItem]"
            ))
        #expect(generated.source.contains("try items.finish(refusingMore: true)"))
        #expect(generated.source.contains("public var severity: LintSettingsQuotesObjectSeverity?"))
        // `additionalProperties: false` of an item with no properties refuses the other item's.
        #expect(!generated.source.contains("LintSettingsStrictObjectSeverity"))
        // One type merged: the rules of both items.
        #expect(generated.source.contains("@NotNull @Validate(.length(...5), .matches(\"^[A-Z]\"))"))
        #expect(generated.source.contains("@NotNull @Validate(.count(1...), .each(.length(1...)))"))
    }

    @Test(
        "a member another item's additionalProperties: false refuses is left out only when its schema reports at its place"
    )
    func refusedMembers() throws {
        // `sub`'s own schema reports below it (`/sub/a`); the struct, refusing the key, would not.
        let schema = ##"""
            {"type": "object", "properties": {"x": {"allOf": [
              {"$ref": "#/$defs/base"}, {"additionalProperties": false}]}},
             "$defs": {"base": {"type": ["object", "boolean"], "properties": {
               "sub": {"type": "object", "properties": {"a": {"type": "integer"}}}}}}}
            """##
        let generated = try SwiftGeneratorTests.generate(schema)
        #expect(generated.notes.contains { $0.hasPrefix("#/properties/x: ") }, "\(generated.notes)")
        // A member whose schema reports at its own place is left out (tslint's `severity`).
        let scalar = schema.replacingOccurrences(
            of: #"{"type": "object", "properties": {"a": {"type": "integer"}}}"#, with: #"{"enum": ["a", "b"]}"#)
        let merged = try SwiftGeneratorTests.generate(scalar)
        #expect(!merged.notes.contains { $0.hasPrefix("#/properties/x: ") }, "\(merged.notes)")
        #expect(merged.source.contains("case boolean(Bool)"))
    }
}
