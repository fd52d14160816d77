import AssayCodable
import AssayGenerator
import AssayJSON
import AssaySchema
import Foundation
import Testing

/// The golden files are the generator's output, compiled in this test target: `BenchClient.swift` for
/// `Golden/client.schema.json` (the benchmark's client schema, with the type prefix `Bench`),
/// `Sample.swift` for `Golden/sample.schema.json` (every shape the generator writes) and
/// `Client.swift` for `Examples/generate/client.schema.json` (the README's example). The tests hold
/// the generator to them byte for byte, and decode instances with them.
@Suite("Swift types generated from a schema")
struct SwiftGeneratorTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func read(_ name: String) throws -> String {
        try String(contentsOf: golden.appendingPathComponent(name), encoding: .utf8)
    }

    static func clientSchema() throws -> JSONValue {
        try JSONValue(parsing: Array(read("client.schema.json").utf8))
    }

    /// The places of the errors decoding `instance` as `type` reports; empty when it decodes.
    static func decodingPlaces<T: Decodable>(_ type: T.Type, _ instance: JSONValue) -> Set<String> {
        do {
            _ = try JSONValueDecoder().decodeValidated(type, from: instance.jsonBytes())
            return []
        } catch {
            return Set(error.issues.filter { $0.severity == .error }.map(\.path.jsonPointer))
        }
    }

    static func generate(_ text: String, options: SwiftGeneratorOptions = SwiftGeneratorOptions()) throws
        -> GeneratedSwift
    {
        try SwiftGenerator.generate(JSONValue(parsing: Array(text.utf8)), options: options)
    }

    /// The error generating `text` throws.
    static func refusal(_ text: String) throws -> SwiftGenerationError? {
        do {
            _ = try generate(text)
            return nil
        } catch let error as SwiftGenerationError {
            return error
        }
    }

    @Test("the golden file is the generator's output, byte for byte, and again on a second run")
    func golden() throws {
        let options = SwiftGeneratorOptions(typePrefix: "Bench", sourceName: "client.schema.json")
        let first = try SwiftGenerator.generate(Self.clientSchema(), options: options)
        #expect(first.source == (try Self.read("BenchClient.swift")))
        #expect(try SwiftGenerator.generate(Self.clientSchema(), options: options) == first)
        #expect(first.typeNames == ["BenchClient", "BenchAddress", "BenchAddressCountry"])
        // additionalProperties: false, on the root and the address, is each type's own refusal of
        // unknown keys, whatever the decoding policy says.
        #expect(first.notes.isEmpty)
        #expect(first.source.components(separatedBy: "@Validatable(unknownKeys: .reject)\n").count == 3)
    }

    @Test("additionalProperties: false refuses unknown keys, at every level, under the default policy")
    func unknownKeys() throws {
        guard case .object(var members) = Self.valid, case .object(var address)? = members["address"] else { return }
        members["nickname"] = "Jo"
        address["floor"] = 3
        members["address"] = .object(address)
        do {
            _ = try JSONValueDecoder().decodeValidated(BenchClient.self, from: JSONValue.object(members).jsonBytes())
            Issue.record("unknown keys were accepted")
        } catch {
            #expect(Set(error.issues.map(\.path.jsonPointer)) == ["/nickname", "/address/floor"])
            #expect(error.issues.allSatisfy { $0.code == .unknownKey && $0.severity == .error })
        }
        // The exported schema says so too.
        let exported = JSONSchemaExporter.document(for: BenchClient.self)
        #expect(exported[pointer: "/additionalProperties"] == false)
        #expect(exported[pointer: "/$defs/BenchAddress/additionalProperties"] == false)
    }

    @Test("the README's generated example is the generator's output for its schema")
    func readme() throws {
        let root = Self.golden.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let marker = "<!-- generated: Examples/generate/client.schema.json -->\n```swift\n"
        let start = try #require(readme.range(of: marker))
        let end = try #require(readme.range(of: "```\n", range: start.upperBound..<readme.endIndex))
        let shown = String(readme[start.upperBound..<end.lowerBound])
        let schema = try String(
            contentsOf: root.appendingPathComponent("Examples/generate/client.schema.json"), encoding: .utf8)
        let generated = try Self.generate(schema, options: SwiftGeneratorOptions(sourceName: "client.schema.json"))
        #expect(shown == generated.source)
        #expect(shown == (try Self.read("Client.swift")))  // compiled here
        #expect(generated.notes.isEmpty)
        // Seed 002's bad client: every failure, where the schema finds it.
        let bad: JSONValue = ["name": " Ann", "age": 150_000, "email": "Hello", "referrer_id": "x"]
        let compiled = try JSONSchema(
            JSONValue(parsing: Array(schema.utf8)), options: JSONSchema.Options(assertFormats: true))
        let expected = Set(compiled.validate(bad).issues.map(\.path.jsonPointer))
        #expect(expected == ["/name", "/age", "/email", "/referrer_id"])
        do {
            _ = try JSONValueDecoder().decodeValidated(Client.self, from: bad.jsonBytes())
            Issue.record("seed 002's bad client decoded")
        } catch {
            #expect(Set(error.issues.map(\.path.jsonPointer)) == expected)
        }
    }

    @Test("the sample's golden file holds every shape the generator writes, and decodes as its schema says")
    func sample() throws {
        let schema = try JSONValue(parsing: Array(Self.read("sample.schema.json").utf8))
        let generated = try SwiftGenerator.generate(
            schema, options: SwiftGeneratorOptions(sourceName: "sample.schema.json"))
        #expect(generated.source == (try Self.read("Sample.swift")))
        #expect(generated.typeNames == ["Sample", "SampleStatus", "SamplePoint", "Person"])
        let good: JSONValue = [
            "even": 4, "default": .null, "owner": ["name": "Ann"], "home_page_url": "https://example.com/",
            "status": "in-progress", "grid": [[0, 1.5]], "steps": [5, 10], "size": 1, "kind": "fixed",
            "billing": "Main St", "billing_name": "Ann", "init": true,
        ]
        let sample = try JSONValueDecoder().decodeValidated(Sample.self, from: good.jsonBytes()).value
        #expect(sample.default == nil && sample.homePageURL == "https://example.com/" && sample.status == .inProgress)
        #expect(sample.`init` == true)
        let bad: JSONValue = [
            "even": 3, "owner": ["name": #"a"b"#], "cents": 0.015, "ratio": 0, "ids": [1, 1], "steps": [7],
            "grid": [[-1]], "kind": "other", "flag": false, "size": 0, "levels": [1, 2, 3, 4], "billing": "x",
        ]
        let compiled = try JSONSchema(schema, options: JSONSchema.Options(assertFormats: true))
        let expected = Set(compiled.validate(bad).issues.map(\.path.jsonPointer))
        #expect(expected.count >= 10)
        do {
            _ = try JSONValueDecoder().decodeValidated(Sample.self, from: bad.jsonBytes())
            Issue.record("the bad sample decoded")
        } catch {
            #expect(Set(error.issues.filter { $0.severity == .error }.map(\.path.jsonPointer)) == expected)
        }
    }

    static let valid: JSONValue = [
        "id": "0b7e6a4e-5a7b-4f1c-9d8e-2f3a4b5c6d7e", "name": "Ann Lee", "age": 30, "email": "ann@example.com",
        "signup": "2024-05-01T10:00:00Z",
        "address": ["street": "1 Main St", "city": "Oslo", "postcode": "0150", "country": "NO"],
        "tags": ["a", "b"], "score": 99.5, "active": true, "manager_id": .null,
    ]

    static func changed(_ edits: [String: JSONValue], address: [String: JSONValue] = [:]) -> JSONValue {
        guard case .object(var members) = valid, case .object(var place)? = members["address"] else { return valid }
        for (key, value) in address { place[key] = value }
        members["address"] = .object(place)
        for (key, value) in edits { members[key] = value }
        return .object(members)
    }

    /// Instances and the places the schema finds errors at.
    static let instances: [(name: String, instance: JSONValue)] = [
        ("valid", valid),
        ("valid, a manager", changed(["manager_id": "1b7e6a4e-5a7b-4f1c-9d8e-2f3a4b5c6d7e"])),
        ("age over the maximum", changed(["age": 131])),
        ("age below the minimum", changed(["age": -1])),
        ("name too short, email not one", changed(["name": "A", "email": "not-an-email"])),
        ("id not a UUID, signup not a date-time", changed(["id": "42", "signup": "yesterday"])),
        ("tags repeated and too many", changed(["tags": ["a", "a", "b", "c", "d", "e", "f", "g", "h"]])),
        ("an empty tag", changed(["tags": [""]])),
        ("score over 100", changed(["score": 100.5])),
        ("postcode and country wrong", changed([:], address: ["postcode": "x", "country": "XX"])),
        ("a nested field of the wrong type", changed([:], address: ["city": 7])),
        ("a manager id that is not a UUID", changed(["manager_id": "boss"])),
    ]

    @Test("the generated type refuses exactly where the schema does", arguments: instances.map(\.name))
    func agreement(_ name: String) throws {
        let instance = try #require(Self.instances.first { $0.name == name }?.instance)
        let schema = try JSONSchema(Self.clientSchema(), options: JSONSchema.Options(assertFormats: true))
        let expected = Set(schema.validate(instance).issues.map(\.path.jsonPointer))
        var found: Set<String> = []
        do {
            _ = try JSONValueDecoder().decodeValidated(BenchClient.self, from: instance.jsonBytes())
        } catch {
            found = Set(error.issues.filter { $0.severity == .error }.map(\.path.jsonPointer))
        }
        #expect(found == expected, "\(name)")
        #expect(found.isEmpty == name.hasPrefix("valid"), "\(name)")
    }

    @Test("a required property that may be null must be present; an optional one may be left out")
    func presence() throws {
        guard case .object(var members) = Self.valid else { return }
        members["manager_id"] = nil
        #expect(throws: ValidationError.self) {
            _ = try JSONValueDecoder().decodeValidated(BenchClient.self, from: JSONValue.object(members).jsonBytes())
        }
        let pet = try Self.generate(
            #"{"openapi": "3.0.3", "components": {"schemas": {"Pet": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string", "maxLength": 10}, "tag": {"type": "string", "nullable": true}}}}}}"#
        )
        #expect(pet.typeNames == ["Pet"])
        #expect(pet.source.contains("    public var tag: Nullable<String> = .absent\n"))
        #expect(!pet.source.contains("@Required"))
        #expect(pet.source.contains("@Validate(.length(...10))\n    public var name: String\n"))
    }

    @Test("constraints become rules: bounds, exclusive bounds, multiples, patterns, formats, enums, const")
    func rules() throws {
        let generated = try Self.generate(
            #"""
            {"title": "Sample", "type": "object", "properties": {
              "count": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10, "multipleOf": 2},
              "ratio": {"type": "number", "exclusiveMinimum": 0, "maximum": 1, "multipleOf": 0.01},
              "level": {"type": "integer", "enum": [1, 2, 3]},
              "kind": {"const": "fixed"},
              "code": {"type": "string", "pattern": "^\\d+\"$", "format": "ipv4"},
              "status": {"enum": ["in-progress", "done", "default"]},
              "items": {"type": "array", "minItems": 1, "items": {"type": "integer", "minimum": 1}},
              "extra": {"type": "object", "additionalProperties": {"type": "string"}},
              "anything": {}
            }}
            """#, options: SwiftGeneratorOptions(access: .internal))
        let source = generated.source
        #expect(source.contains("@Validate(.range(1...9), .multipleOf(2))\n    var count: Int?"))
        #expect(
            source.contains(#"@Validate(.range(minimum: 0, maximum: 1, exclusiveMinimum: true), .multipleOf("0.01"))"#))
        #expect(source.contains("@Validate(.oneOf([1, 2, 3]))\n    var level: Int?"))
        #expect(source.contains(#"@Validate(.const("fixed"))"#))
        #expect(source.contains(##"@Validate(.matches(#"^\d+"$"#), .format(.ipv4))"##))
        #expect(source.contains("var status: SampleStatus?"))
        #expect(source.contains("    case inProgress = \"in-progress\"\n    case done\n    case `default`\n"))
        #expect(source.contains("@Validate(.count(1...), .each(.range(1...)))\n    var items: [Int]?"))
        #expect(source.contains("var extra: [String: String]?"))
        #expect(source.contains("var anything: JSONValue?"))
        #expect(!source.contains("public"))
    }

    @Test("recursion through an array is a type holding an array of itself")
    func recursion() throws {
        let tree = try Self.generate(
            ##"{"title": "Node", "type": "object", "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#"}}}}"##
        )
        #expect(tree.source.contains("public var children: [Node]?"))
    }

    @Test("what has no typed form is checked against its schema, never dropped: roots, unions, false, if")
    func fallbacks() throws {
        let cases: [(schema: String, says: String)] = [
            (
                #"{"type": "string", "maxLength": 3}"#,
                "public struct Root: ValidatedValue, Hashable {\n    /// The rule every value meets.\n    public static let rule: Rule<String> = .length(...3)"
            ),
            (#"{"type": "string"}"#, "public typealias Root = String\n"),
            (#"{"title": "Anything"}"#, "public typealias Anything = JSONValue\n"),
            (#"{"minimum": 2}"#, #"public static let rule: Rule<JSONValue> = .schema(SchemaDocument.schema, at: "")"#),
            (#"true"#, "public typealias Root = JSONValue\n"),
            (#"false"#, #"public static let rule: Rule<JSONValue> = .schema(SchemaDocument.schema, at: "")"#),
            // A root enum of several types and `null` (no case holds `null`): a wrapper checked whole.
            (
                #"{"type": ["array", "object", "null"]}"#,
                #"public static let rule: Rule<JSONValue> = .schema(SchemaDocument.schema, at: "")"#
            ),
            (
                #"{"type": "object", "properties": {"a": {"type": ["string", "integer"], "not": {"const": 1}}}}"#,
                #"@Validate(Rule<JSONValue>.schema(SchemaDocument.schema, at: "/properties/a"))"#
            ),
            (
                #"{"type": "object", "properties": {"a": false}}"#,
                #"@Validate(Rule<JSONValue>.schema(SchemaDocument.schema, at: "/properties/a"))"#
            ),
            (
                #"{"type": "object", "properties": {"a": {"type": "string", "maxLength": 9, "if": {"minLength": 3}, "then": {"pattern": "^a"}}}}"#,
                #"@Validate(.length(...9), .schema(SchemaDocument.schema, at: "/properties/a", keywords: ["if", "then"]))"#
            ),
            (
                // Whole bounds are read exactly, JavaScript's largest safe integers too.
                #"{"type": "object", "properties": {"n": {"type": "integer", "minimum": -9007199254740991, "exclusiveMaximum": 9007199254740992}}}"#,
                "@NotNull @Validate(.range(-9007199254740991...9007199254740991))"
            ),
            (
                #"{"type": "object", "properties": {"a": {"type": "array", "items": {"type": "integer"}}}, "x-vendor": 1, "example": {}}"#,
                "public var a: [Int]?"
            ),
        ]
        for item in cases {
            let generated = try Self.generate(item.schema)
            #expect(generated.source.contains(item.says), "\(item.schema):\n\(generated.source)")
            let checked = generated.source.contains("SchemaDocument.schema")
            #expect(generated.source.contains("private enum SchemaDocument {") == checked, "\(item.schema)")
            #expect(generated.source.contains("import AssaySchema") == checked, "\(item.schema)")
            #expect(generated.notes.contains { $0.contains("AssaySchema") } == checked, "\(item.schema)")
        }
    }

    @Test("what has no Swift form is refused with its place, never dropped")
    func refusals() throws {
        let cases: [(schema: String, pointer: String, says: String)] = [
            (#"[1, 2]"#, "", "not a JSON Schema object"),
            (
                #"{"type": "object", "properties": {"a": {"not": {"pattern": "(unclosed"}}}}"#, "",
                "not a schema AssaySchema compiles"
            ),
            (
                #"{"openapi": "3.1.0", "components": {"schemas": {"A": {"type": "object", "properties": {"a": {"not": {"pattern": "(unclosed"}}}}}}}"#,
                "/components/schemas/A/properties/a", "does not compile"
            ),
            (
                ##"{"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}}"##, "/properties/a/$ref",
                "does not resolve"
            ),
            (##"{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}}"##, "/$defs/a/$ref", "cycle"),
            (##"{"$ref": "#"}"##, "", "refers to itself"),
            (#"{"openapi": "3.1.0"}"#, "/components", "no components.schemas"),
        ]
        for item in cases {
            let error = try #require(try Self.refusal(item.schema), "\(item.schema) was generated")
            #expect(error.pointer == item.pointer, "\(item.schema): \(error)")
            #expect(error.message.contains(item.says), "\(item.schema): \(error)")
        }
    }

    @Test("two keys or schemas of one Swift name: the later one numbered, its key kept")
    func keysOfOneName() throws {
        let generated = try Self.generate(
            #"{"type": "object", "properties": {"a_b": {"type": "string"}, "aB": {"type": "integer"}, "aB2": {}}}"#)
        #expect(generated.source.contains("public var aB: String?"))
        #expect(generated.source.contains("@Key(\"aB\") @NotNull\n    public var aB3: Int?"), "\(generated.source)")
        #expect(generated.source.contains("public var aB2: JSONValue?"))
        #expect(generated.notes.contains { $0.hasPrefix("#/properties/aB: the keys \"a_b\" and \"aB\"") })
        // Types too: the later schema's name numbered.
        let types = try Self.generate(#"{"$defs": {"a-b": {"type": "object"}, "a_b": {"type": "object"}}}"#)
        #expect(types.typeNames == ["AB", "AB2"])
        #expect(types.notes.contains { $0.hasSuffix("#/$defs/a_b is AB2") }, "\(types.notes)")
    }

    @Test("a place reached from several places is noted once")
    func notesOnce() throws {
        let generated = try Self.generate(
            ##"{"type": "object", "properties": {"a": {"$ref": "#/$defs/opt"}, "b": {"$ref": "#/$defs/opt"}}, "$defs": {"tls": {"type": "object", "properties": {"x": {"type": "string"}}}, "opt": {"oneOf": [{"type": "null"}, {"$ref": "#/$defs/tls"}], "unevaluatedProperties": false}}}"##
        )
        #expect(generated.notes.count == 1, "\(generated.notes)")
        #expect(generated.notes.first?.hasPrefix("#/$defs/opt/oneOf: ") == true)
    }

    @Test("a $ref to the document itself by its $id is followed as a pointer into it")
    func referencesToItself() throws {
        // catalog-info.json's form: a relative reference by the document's own name, beside draft
        // 7's anchors (`"$id": "#relation"`), which leave the base as it is.
        let schema = ##"""
            {"$schema": "http://json-schema.org/draft-07/schema#", "$id": "https://example.com/schemas/entity.json",
             "type": "object",
             "properties": {
               "relation": {"$ref": "entity.json#/definitions/relation"},
               "owner": {"$ref": "https://example.com/schemas/entity.json#/definitions/owner"},
               "note": {"type": "string", "examples": [{"$ref": "entity.json#/definitions/owner"}]}
             },
             "definitions": {
               "relation": {"$id": "#relation", "type": "object", "required": ["target"],
                            "properties": {"target": {"type": "string", "minLength": 1}}},
               "owner": {"type": "string", "pattern": "^[a-z]+$", "not": {"allOf": [{"const": "root"}]}}
             }}
            """##
        let generated = try Self.generate(schema)
        #expect(generated.source.contains("public var relation: Relation?"), "\(generated.source)")
        #expect(
            generated.notes.allSatisfy { !$0.contains("is not a JSON Pointer into the document") }, "\(generated.notes)"
        )
        // The data in `examples` is left as it was; the embedded document holds the rewritten `$ref`s.
        #expect(generated.source.contains(##""$ref": "entity.json#/definitions/owner""##))
        #expect(generated.source.contains(##""$ref": "#/definitions/relation""##))
        // Below an `$id` that is a base of its own, a `$ref` is read against it: left alone.
        let embedded = try Self.generate(
            #"{"$id": "https://example.com/a.json", "type": "object", "properties": {"x": {"$ref": "a.json#/$defs/x"}}, "$defs": {"x": {"type": "string"}, "y": {"$id": "https://example.com/other/y.json"}}}"#
        )
        #expect(
            embedded.notes.contains { $0.contains(#"$ref "a.json#/$defs/x" is not a JSON Pointer into the document"#) })
    }

    @Test(
        "draft 7's dependencies with a schema: typed entries when present, else checked as a keyword, its arrays not twice"
    )
    func dependenciesWithSchemas() throws {
        let generated = try Self.generate(
            #"{"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "dependencies": {"a": {"required": ["b"]}, "b": ["a"]}}"#
        )
        #expect(generated.source.contains(#".whenPresent(\.a, "a", then: [.required(\.b, "b")])"#))
        #expect(generated.source.components(separatedBy: ".dependentRequired(").count == 2)
        #expect(generated.source.contains(#".dependentRequired(.field(\.b, "b"), requires: .field(\.a, "a"))"#))
        #expect(generated.notes.isEmpty)
        // A schema that reads more than the members' rules: the keyword whole, checked against the schema.
        let checked = try Self.generate(
            #"{"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "dependencies": {"a": {"not": {"required": ["b"]}}, "b": ["a"]}}"#
        )
        #expect(checked.source.contains(#".schema(SchemaDocument.schema, at: "", keywords: ["dependencies"])"#))
        #expect(!checked.source.contains(".dependentRequired("))
        #expect(!checked.source.contains(".whenPresent("))
        #expect(
            checked.notes == [
                "#: dependencies — no typed rule: each value of Root is checked against these keywords with AssaySchema when decoded"
            ])
    }

    @Test("unions: OpenAPI's discriminator first, overlapping alternatives each tried")
    func unions() throws {
        // Both alternatives have two constant members; the discriminator names the one to read.
        let openAPI = ##"""
            {"openapi": "3.1.0", "components": {"schemas": {
              "Pet": {"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}],
                      "discriminator": {"propertyName": "petType"}},
              "Cat": {"type": "object", "required": ["kind", "petType"],
                      "properties": {"kind": {"const": "feline"}, "petType": {"const": "cat"}}},
              "Dog": {"type": "object", "required": ["kind", "petType"],
                      "properties": {"kind": {"const": "canine"}, "petType": {"enum": ["dog"]}}}}}}
            """##
        let pets = try Self.generate(openAPI)
        #expect(
            pets.source.contains(
                "public enum Pet: Codable, Sendable, Hashable {\n    case cat(Cat)\n    case dog(Dog)\n"))
        #expect(pets.source.contains(#"UnionDecoding.tag(of: decoder, key: "petType", among: ["cat", "dog"])"#))
        #expect(pets.notes.isEmpty, "\(pets.notes)")
        // Alternatives that may take one value: each tried (`OverlapTests` decodes such enums).
        let tried: [(schema: String, call: String)] = [
            // A discriminator the alternatives do not pin: a value could match both.
            (
                ##"{"openapi": "3.1.0", "components": {"schemas": {"Pet": {"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}], "discriminator": {"propertyName": "petType"}}, "Cat": {"type": "object", "properties": {"petType": {"type": "string"}}}, "Dog": {"type": "object", "properties": {"petType": {"type": "string"}}}}}}"##,
                "UnionDecoding.exactlyOne("
            ),
            (
                #"{"type": "object", "properties": {"a": {"anyOf": [{"type": "string", "maxLength": 2}, {"type": "string", "pattern": "^x"}, {"type": "boolean"}]}}}"#,
                "UnionDecoding.firstMatching("
            ),
            (
                #"{"type": "object", "properties": {"a": {"oneOf": [{"type": "integer"}, {"type": "number", "maximum": 1}]}}}"#,
                "UnionDecoding.exactlyOne("
            ),
            (
                #"{"type": "object", "properties": {"a": {"oneOf": [{"type": "string"}, {"minimum": 1}]}}}"#,
                "UnionDecoding.exactlyOne("
            ),
        ]
        for item in tried {
            let generated = try Self.generate(item.schema)
            #expect(generated.source.contains(item.call), "\(item.schema)")
            #expect(!generated.notes.contains { $0.contains("no Swift enum") }, "\(item.schema): \(generated.notes)")
        }
        // `null` and a case that may be `null`: a value of the two, which the enum cannot tell apart.
        let nulls = try Self.generate(
            #"{"type": "object", "properties": {"a": {"oneOf": [{"type": "null"}, {"type": "string"}, {}]}}}"#)
        #expect(!nulls.source.contains("UnionDecoding"))
        #expect(nulls.notes.contains { $0.contains("oneOf whose alternative 2") })
        // A schema reached from two places is declared once, named after its definition.
        let twice = try Self.generate(
            ##"{"type": "object", "properties": {"a": {"$ref": "#/$defs/list"}, "b": {"$ref": "#/$defs/list"}, "c": {"$ref": "#/$defs/shape"}, "d": {"$ref": "#/$defs/shape"}}, "$defs": {"list": {"type": "array", "items": {"enum": ["x", "y"]}}, "shape": {"oneOf": [{"type": "string"}, {"type": "object", "properties": {"e": {"enum": ["p"]}}}]}}}"##
        )
        #expect(twice.typeNames == ["Root", "ListItem", "Shape", "ShapeObject", "ShapeObjectE"], "\(twice.typeNames)")
        // One alternative beside null is that alternative, optional; allOf of one schema is that schema.
        let optional = try Self.generate(
            ##"{"type": "object", "required": ["a", "b"], "properties": {"a": {"anyOf": [{"$ref": "#/$defs/x"}, {"type": "null"}]}, "b": {"allOf": [{"type": "string", "minLength": 2}]}}, "$defs": {"x": {"type": "object", "properties": {"y": {"type": "integer"}}}}}"##
        )
        #expect(optional.source.contains("    @Required\n    public var a: X?\n"), "\(optional.source)")
        #expect(
            optional.source.contains("    @Validate(.length(2...))\n    public var b: String\n"), "\(optional.source)")
        #expect(optional.notes.isEmpty)
    }

    @Test(
        "a schema of no type is an object when no other value passes it, and only then",
        arguments: [
            (#"{"properties": {"a": {"type": "string"}}, "oneOf": [{"required": ["a"]}, {"required": ["b"]}]}"#, true),
            (#"{"properties": {"a": {"type": "string"}}, "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}"#, false),
            (#"{"properties": {"a": {"type": "string"}}, "not": {"required": ["a"]}}"#, true),
            (
                #"{"properties": {"a": {"type": "string"}}, "allOf": [{"type": "object"}, {"not": {"required": ["b"]}}]}"#,
                true
            ),
            (#"{"properties": {"a": {"type": "string"}}, "anyOf": [{"type": "object"}, {"minLength": 2}]}"#, false),
            (#"{"properties": {"a": {"type": "string"}}, "if": {"minLength": 1}, "then": {"type": "object"}}"#, false),
            (
                #"{"properties": {"a": {"type": "string"}}, "if": {"required": ["a"]}, "then": {"type": "object"}}"#,
                true
            ),
            (#"{"properties": {"a": {"type": "string"}}, "not": {"type": ["string", "number"]}}"#, false),
            (#"{"properties": {"a": {"type": "string"}}, "enum": [{"a": "x"}]}"#, false),
        ])
    func onlyObjectsPass(_ text: String, _ isObject: Bool) throws {
        let schema =
            #"{"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Root", "#
            + text.dropFirst()
        let generated = try Self.generate(String(schema))
        #expect(generated.source.contains("public struct Root: Codable") == isObject, "\(generated.source)")
        // A struct only where the schema refuses every value that is not an object.
        let validator = try JSONSchema(parsing: String(schema))
        let others: [JSONValue] = ["x", "", 1, 2.5, true, nil, [], ["a"]]
        if isObject { #expect(others.allSatisfy { !validator.isValid($0) }) }
        if !isObject { #expect(others.contains { validator.isValid($0) } || text.contains("enum")) }
    }

    @Test("keywords are read as the document's dialect has them")
    func dialects() throws {
        // Draft 4 has no `const`: `{"const": "a"}` validates nothing, and a `oneOf` of two such
        // accepts no value (every value matches both): two cases of any value, each tried.
        let draft4 = try Self.generate(
            #"{"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "properties": {"o": {"oneOf": [{"const": "a"}, {"const": "b"}]}, "c": {"type": "string", "const": "x"}}}"#
        )
        #expect(draft4.source.contains("    case value(JSONValue)\n    case value2(JSONValue)\n"), "\(draft4.source)")
        #expect(draft4.source.contains("    @NotNull\n    public var c: String?\n"), "\(draft4.source)")
        #expect(!draft4.source.contains(#"Rule<String>.const("#))
        let draft7 = try Self.generate(
            #"{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"c": {"type": "string", "const": "x"}}}"#
        )
        #expect(draft7.source.contains(#"@NotNull @Validate(.const("x"))"#), "\(draft7.source)")
        // Draft 7 asserts `contentMediaType: application/json` and `contentEncoding: base64`; later
        // dialects (and draft 7's other media types) only annotate.
        let content =
            #""properties": {"j": {"type": "string", "contentMediaType": "application/json"}, "#
            + #""t": {"type": "string", "contentMediaType": "text/plain"}}"#
        let asserted = try Self.generate(
            #"{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", \#(content)}"#)
        #expect(asserted.source.contains(#"Rule<String>.schema(SchemaDocument.schema, at: "/properties/j")"#))
        #expect(asserted.source.contains("    @NotNull\n    public var t: String?\n"), "\(asserted.source)")
        let annotated = try Self.generate(
            #"{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", \#(content)}"#)
        #expect(!annotated.source.contains("SchemaDocument"), "\(annotated.source)")
    }

    @Test("keywords of a type no value can have are left out; working that out costs a bounded amount")
    func vacuousKeywords() throws {
        // `minLength` beside an integer, `maxItems` beside a reference to a string, `minProperties`
        // beside a union of a string and null: every value they read is refused where they are.
        let generated = try Self.generate(
            ##"{"type": "object", "properties": {"a": {"type": "integer", "minLength": 3, "maximum": 9}, "b": {"$ref": "#/$defs/s", "maxItems": 2}, "c": {"oneOf": [{"type": "null"}, {"$ref": "#/$defs/s"}], "minProperties": 1, "maxItems": 2}}, "$defs": {"s": {"type": "string", "maxLength": 4}}}"##
        )
        #expect(!generated.source.contains("SchemaDocument"), "\(generated.source)")
        #expect(generated.source.contains("@NotNull @Validate(.range(...9))\n    public var a: Int?"))
        #expect(generated.source.contains("public var b: String?"))
        #expect(generated.source.contains("public var c: Nullable<String> = .absent"))
        // 200 schemas, each a `oneOf` of 20 references to the next: 20^200 paths. The types are
        // worked out within a budget; past it nothing is left out (`minItems` is checked).
        var definitions = JSONObject()
        definitions["d200"] = ["type": "string"]
        for index in 0..<200 {
            let next: JSONValue = ["$ref": .string("#/$defs/d\(index + 1)")]
            definitions["d\(index)"] = ["oneOf": .array(Array(repeating: next, count: 20))]
        }
        let wide: JSONValue = [
            "type": "object", "properties": ["x": ["$ref": "#/$defs/d0", "minItems": 1]], "$defs": .object(definitions),
        ]
        let notes = try SwiftGenerator.generate(wide).notes
        // (The `$ref` is an item of an `allOf` beside `minItems`, 2020-12's reading.)
        #expect(notes.contains { $0.hasPrefix("#/properties/x: ") && $0.contains("minItems, allOf") }, "\(notes)")
        // The same chain as `allOf`s, an alternative of a union: whether it takes objects alone is
        // read within a budget too (past it, the union is checked against the schema).
        var chain = JSONObject()
        chain["d200"] = ["type": "string"]
        for index in 0..<200 {
            let next: JSONValue = ["$ref": .string("#/$defs/d\(index + 1)")]
            chain["d\(index)"] = ["allOf": .array(Array(repeating: next, count: 20))]
        }
        let union: JSONValue = [
            "type": "object", "properties": ["u": ["oneOf": [["$ref": "#/$defs/d0"], ["type": "integer"]]]],
            "$defs": .object(chain),
        ]
        let unionNotes = try SwiftGenerator.generate(union).notes
        #expect(unionNotes.contains { $0.hasPrefix("#/properties/u/oneOf: ") }, "\(unionNotes)")
    }

    @Test("a description's line breaks, \\r and \\r\\n among them, end its comment's lines")
    func lineBreaksInDocumentation() throws {
        let generated = try Self.generate(
            #"{"type": "object", "properties": {"a": {"type": "string", "description": "One\r\nTwo\rThree\nFour"}}}"#)
        let lines = "    /// One\n    /// Two\n    /// Three\n    /// Four\n"
        #expect(generated.source.contains(lines), "\(generated.source)")
    }

    @Test("schemas nested 10,000 deep are refused, not a stack overflow")
    func deepNesting() throws {
        var schema: JSONValue = ["type": "string"]
        for _ in 0..<10_000 { schema = ["type": "object", "properties": ["inner": schema]] }
        do {
            _ = try SwiftGenerator.generate(schema)
            Issue.record("generated")
        } catch {
            #expect(error.message.contains("nested deeper than 200"))
            #expect(error.pointer.hasPrefix("/properties/inner/properties/inner"))
        }
    }

    @Test("a chain of 5,000 types, each holding the next, and one that closes the loop")
    func longChains() throws {
        func chain(closed: Bool) -> JSONValue {
            var definitions: [(String, JSONValue)] = []
            for index in 0..<5_000 {
                let next = index == 4_999 ? (closed ? "#/$defs/t0" : nil) : "#/$defs/t\(index + 1)"
                var properties: [(String, JSONValue)] = [("value", ["type": "integer"])]
                if let next { properties.append(("next", ["$ref": .string(next)])) }
                definitions.append(("t\(index)", ["type": "object", "properties": .object(JSONObject(properties))]))
            }
            return ["$defs": .object(JSONObject(definitions))]
        }
        let open = try SwiftGenerator.generate(chain(closed: false))
        #expect(open.typeNames.count == 5_000)
        #expect(!open.source.contains("Indirect<"))
        // The loop is closed by one field, which holds its value in a box.
        let closed = try SwiftGenerator.generate(chain(closed: true))
        #expect(closed.typeNames.count == 5_000)
        #expect(closed.source.components(separatedBy: "Indirect<").count == 3, "the field and its initialiser")
        #expect(closed.source.contains("    public var next: Indirect<T0>?\n"))
        #expect(
            closed.notes == ["#/$defs/t4999: T4999.next is an Indirect<T0>, a box: a T4999 holds itself through it"])
    }

    @Test("a struct that holds itself holds it in a box, checked on decode and on demand")
    func boxedRecursion() throws {
        let schema = try JSONValue(
            parsing: Array(
                ##"{"title": "Node", "type": "object", "properties": {"next": {"$ref": "#"}, "tag": {"type": "string"}}}"##
                    .utf8))
        let generated = try SwiftGenerator.generate(schema)
        #expect(
            generated.source.contains("    @NotNull\n    public var next: Indirect<Node>?\n"), "\(generated.source)")
        // The golden union schema's `Step` is one, compiled and checked in UnionTests.
    }

    @Test("a document of 20,000 properties is generated, its cost linear in its size")
    func largeDocument() throws {
        let count = 20_000
        let properties = (0..<count).map { #""field\#($0)": {"type": "string", "maxLength": \#($0 + 1)}"# }
        let required = (0..<count).map { #""field\#($0)""# }
        let text =
            #"{"title": "Wide", "type": "object", "required": [\#(required.joined(separator: ", "))], "properties": {\#(properties.joined(separator: ", "))}}"#
        let generated = try Self.generate(text)
        #expect(generated.source.contains("@Validate(.length(...20000))\n    public var field19999: String\n"))
    }

    /// Each schema checked with AssaySchema was once compiled on its own, the whole document indexed
    /// each time: SchemaStore's 1.5 MB `vector.json` took minutes. The document is compiled once
    /// now, each part adding only its own nodes.
    @Test("a document of 2,000 properties, each checked in part against the schema, is generated")
    func manyChecks() throws {
        let count = 1_000
        let properties = (0..<count).map {
            #""field\#($0)": {"type": "integer", "not": {"allOf": [{"const": \#($0)}]}}, "any\#($0)": {"anyOf": [{"type": "string"}, {"minimum": \#($0)}]}"#
        }
        let text = #"{"title": "Wide", "type": "object", "properties": {\#(properties.joined(separator: ", "))}}"#
        let generated = try Self.generate(text)
        #expect(generated.notes.filter { $0.contains("AssaySchema") }.count == 2 * count)
        #expect(
            generated.source.contains(
                #"@Validate(Rule<Int>.schema(SchemaDocument.schema, at: "/properties/field999", keywords: ["not"]))"#))
        // The same document's rules, made from one embedded schema, check as the schema does.
        let embedded = EmbeddedSchema(text)
        let rules = (0..<count).map { Rule<Int>.schema(embedded, at: "/properties/field\($0)", keywords: ["not"]) }
        #expect(rules.indices.allSatisfy { !rules[$0].isValid($0) && rules[$0].isValid($0 + 1) })
        let anything = Rule<JSONValue>.schema(embedded, at: "/properties/any999")
        #expect(anything.isValid("text") && anything.isValid(1_000) && !anything.isValid(998))
    }
}

extension JSONValue {
    /// The object with the members of `changes` set (`nil` removes one, `.some(nil)` sets `null`):
    /// the test instances of the golden schemas, each a change of a valid one.
    func changing(_ changes: [String: JSONValue?]) -> JSONValue {
        guard case .object(var members) = self else { return self }
        for (key, value) in changes { members[key] = value ?? nil }
        return .object(members)
    }
}
