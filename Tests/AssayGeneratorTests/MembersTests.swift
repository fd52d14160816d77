import AssayCodable
import AssayGenerator
import AssayJSON
import AssaySchema
import Foundation
import Testing

/// `Members.swift` is the generator's output for `Golden/members.schema.json`: objects whose members
/// are not all named. A struct keeps the others (`@AdditionalProperties`), typed by
/// `additionalProperties` (or `unevaluatedProperties` with no subschema beside it); a dictionary's
/// counts, keys and values are typed rules (`propertyNames` of text rules, one pattern beside
/// `additionalProperties: false`); what reads the members otherwise (`patternProperties` beside
/// properties, an `allOf` of a `$ref`) is checked against those keywords on the value kept whole.
@Suite("Members no property names, kept and checked")
struct MembersTests {
    static func schemaText() throws -> String { try SwiftGeneratorTests.read("members.schema.json") }

    static let valid: JSONValue = [
        "id": "i1", "extras": ["note": "n", "count": 2], "meta": ["v": 1, "x-a": "b"],
        "notes": ["by": "me", "tag": "abc"], "sizes": ["s": 0.5], "names": ["ab": 1, "cd": [true]],
        "env": ["HOME": "/root"],
        "contact": ["name": "Ann", "phone": "1", "address": ["city": "Oslo", "zip": 1234]],
        "pet": ["name": "Rex", "age": 3], "owner": ["name": "Ann", "since": "2020-01-31"],
    ]

    static func changed(_ changes: [String: JSONValue?]) -> JSONValue { valid.changing(changes) }

    static let instances: [(name: String, instance: JSONValue)] = [
        ("valid", valid),
        ("valid with no optional property", ["id": "i2"]),
        ("valid with empty objects", changed(["extras": [:], "meta": [:], "notes": [:], "names": [:], "env": [:]])),
        ("valid reachable by email alone", changed(["contact": ["email": "a@b"]])),
        ("an extra member below its minimum", changed(["extras": ["note": "n", "count": -1]])),
        ("an extra member of the wrong type", changed(["extras": ["count": "two"]])),
        ("two bad extra members and a bad note", changed(["extras": ["note": 1, "a": -1, "b": 1.5]])),
        ("a meta member no pattern allows", changed(["meta": ["v": 1, "y": "b"]])),
        ("a meta member of the pattern's wrong type", changed(["meta": ["x-a": 1]])),
        ("a meta property of the wrong type", changed(["meta": ["v": "one"]])),
        ("an unevaluated note too long", changed(["notes": ["by": "me", "tag": "abcd"]])),
        ("an unevaluated note of the wrong type", changed(["notes": ["tag": 1]])),
        ("no sizes", changed(["sizes": [:]])),
        ("a size not above zero", changed(["sizes": ["s": 0, "m": 1]])),
        ("a name against propertyNames", changed(["names": ["Ab": 1]])),
        ("too many names", changed(["names": ["a": 1, "b": 2, "c": 3]])),
        (
            "valid: vars and codes of names the rules allow",
            changed(["vars": ["HOME": "/", "PATH": "/bin"], "codes": ["ab": 1, "cd": "x"]])
        ),
        (
            "a var's key in lower case, another too long",
            changed(["vars": ["path": "/bin", "LD_LIBRARY_PATH": "/lib"]])
        ),
        ("a var of the wrong type beside a bad key", changed(["vars": ["HOME": 1, "x": "y"]])),
        ("a code whose key is too short", changed(["codes": ["ab": 1, "c": 2]])),
        ("a code property of the wrong type and a short key", changed(["codes": ["ab": "one", "c": 2]])),
        ("an env key the pattern refuses", changed(["env": ["HOME": "/", "path": "/bin"]])),
        ("two env values too short", changed(["env": ["HOME": "", "USER": ""]])),
        ("an env value of the wrong type", changed(["env": ["HOME": "/", "USER": 1]])),
        ("env not an object", changed(["env": ["HOME"]])),
        ("a contact reachable no way", changed(["contact": ["name": "Ann"]])),
        ("a contact's city too short, kept whole", changed(["contact": ["phone": "1", "address": ["city": "O"]]])),
        ("a pet with no age (allOf merged)", changed(["pet": ["name": "Rex"]])),
        ("a pet with an empty name and a negative age", changed(["pet": ["name": "", "age": -1]])),
        ("a pet with a member nothing evaluates", changed(["pet": ["name": "Rex", "age": 1, "x": 1]])),
        ("an owner that is not an object", changed(["owner": "Ann"])),
        ("an owner with a bad date", changed(["owner": ["name": "Ann", "since": "2020-02-30"]])),
        ("valid: a keeper of both items' properties", changed(["keeper": ["since": "2020", "shift": 2, "x": 1]])),
        ("a keeper's properties each against its item", changed(["keeper": ["since": "20", "shift": 0]])),
        ("valid: a path of both patterns", changed(["path": "./a.json"])),
        ("a path against the first pattern", changed(["path": "a.json"])),
        ("a path against the second pattern and too long", changed(["path": "./a/b/c/d/e/f.txt"])),
        ("a keeper that is null", changed(["keeper": .some(nil)])),
        ("several at once", changed(["id": 1, "sizes": [:], "meta": ["q": 1], "contact": [:]])),
    ]

    private static func decodingPlaces(_ instance: JSONValue) -> Set<String> {
        SwiftGeneratorTests.decodingPlaces(Inventory.self, instance)
    }

    @Test("the generated type refuses exactly where the schema does", arguments: instances.map(\.name))
    func agreement(_ name: String) throws {
        let instance = try #require(Self.instances.first { $0.name == name }?.instance)
        let schema = try JSONSchema(parsing: Self.schemaText(), options: JSONSchema.Options(assertFormats: true))
        let result = schema.validate(instance)
        // A keyword's error at a member, or at the object holding the members it reads.
        let expected = Set(result.issues.map(\.path.jsonPointer))
        let found = Self.decodingPlaces(instance)
        #expect(found == expected, "\(name)")
        #expect(found.isEmpty == name.hasPrefix("valid"), "\(name)")
    }

    @Test("a value decoded keeps every member the schema speaks of, and encodes back as it was read")
    func roundTrip() throws {
        // (A struct whose schema says nothing of other members drops them, as `Decodable` does:
        // `owner` here.)
        let decoded = try JSONValueDecoder().decodeValidated(Inventory.self, from: Self.valid.jsonBytes()).value
        #expect(decoded.extras?.additionalProperties == ["count": 2])
        #expect(decoded.contact?.address?.additionalProperties == ["zip": 1234])
        let encoded = try JSONValue(parsing: Array(JSONEncoder().encode(decoded)))
        #expect(encoded == Self.valid)
    }

    @Test("on demand, the kept members are checked as decoding checks them")
    func onDemand() {
        var inventory = Inventory(id: "i", extras: InventoryExtras(additionalProperties: ["a": -1]))
        #expect(inventory.issues().map(\.path.jsonPointer) == ["/extras/a"])
        inventory.extras = InventoryExtras(additionalProperties: ["a": 1])
        inventory.meta = InventoryMeta(additionalProperties: ["y": "b"])
        #expect(inventory.issues().map(\.path.jsonPointer) == ["/meta/y"])
    }

    @Test("the golden file is the generator's output; each keyword checked by the schema is noted")
    func golden() throws {
        let options = SwiftGeneratorOptions(sourceName: "members.schema.json")
        let generated = try SwiftGenerator.generate(JSONValue(parsing: Array(Self.schemaText().utf8)), options: options)
        #expect(generated.source == (try SwiftGeneratorTests.read("Members.swift")))
        #expect(generated.notes.contains { $0.hasPrefix("#/properties/contact: allOf") })
        // Typed: the members of extras and notes, the counts and values of sizes and names.
        #expect(generated.source.contains("@AdditionalProperties @Validate(Rule<[String: Int]>.values(.range(0...)))"))
        #expect(
            generated.source.contains("@AdditionalProperties @Validate(Rule<[String: String]>.values(.length(...3)))"))
        #expect(generated.source.contains("Rule<[String: Double]>.count(1...), .values("))
        #expect(!generated.notes.contains { $0.contains("unevaluatedProperties") || $0.contains("/sizes") })
        // Keys typed: `propertyNames` of text rules, a lone pattern beside `additionalProperties: false`.
        #expect(generated.source.contains(#"Rule<[String: JSONValue]>.count(...2), .keys(.matches("^[a-z]+$"))"#))
        #expect(
            generated.source.contains(#"Rule<[String: String]>.keys(.matches("^[A-Z_]+$")), .values(.length(1...))"#))
        #expect(!generated.notes.contains { $0.contains("/names") || $0.contains("/env") || $0.contains("/meta") })
        // Beside properties whose names meet it, `propertyNames` types the other members' keys
        // (kept for them when the schema keeps none).
        #expect(
            generated.source.contains(
                #"@AdditionalProperties @Validate(Rule<[String: String]>.keys(.and(.length(...8), .matches("^[A-Z_]+$"))))"#
            ))
        #expect(
            generated.source.contains(
                #"@AdditionalProperties @Validate(Rule<[String: JSONValue]>.keys(.length(2...)))"#))
        #expect(!generated.notes.contains { $0.contains("/vars") || $0.contains("/codes") })
        // Beside properties, the other members of a lone pattern are kept, keys and values typed.
        #expect(
            generated.source.contains(
                #"@AdditionalProperties @Validate(Rule<[String: String]>.keys(.matches("^x-")))"#))
        // `allOf` merged: one struct of the properties of every item, typed; none of it noted.
        #expect(generated.source.contains("@Validatable(unknownKeys: .reject)\npublic struct InventoryPet"))
        #expect(generated.typeNames.contains("InventoryOwner"))
        #expect(!generated.notes.contains { $0.contains("/pet") || $0.contains("/owner") || $0.contains("named") })
    }
}
