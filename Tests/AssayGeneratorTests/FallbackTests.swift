import AssayCodable
import AssayGenerator
import AssayJSON
import AssaySchema
import Foundation
import Testing

/// `Shipment.swift` is the generator's output for `Golden/fallback.schema.json`: constraints with no
/// typed rule (`not`, `patternProperties`, nullable items with rules) are checked against the
/// embedded schema (its `prefixItems` tuple and `dependentSchemas` are typed, as in `TupleTests`
/// and `DependenciesTests`), typed rules kept beside them; its `if`/`then` on
/// one member is a typed `.when` entry (more of those in `ConditionalTests`), and its `anyOf` of two
/// strings an enum that tries each alternative (more of those in `OverlapTests`).
@Suite("Constraints with no typed rule, checked against the embedded schema")
struct FallbackTests {
    static func schemaText() throws -> String { try SwiftGeneratorTests.read("fallback.schema.json") }

    static let valid: JSONValue = [
        "id": "S12", "weight": 2.5, "reference": "R-1", "labels": ["glass", nil], "point": [1.5, 2],
        "parcels": [["size": "M", "tags": ["color": "red"]]], "carrier": "acme", "express": true,
        "window": ["from": "2026-11-01", "to": "2026-11-03"],
    ]

    static func changed(_ changes: [String: JSONValue?]) -> JSONValue { valid.changing(changes) }

    static let instances: [(name: String, instance: JSONValue)] = [
        ("valid", valid),
        ("valid without the optional properties", ["id": "S1", "weight": 1, "parcels": [["size": "S"]]]),
        ("weight excluded by not", changed(["weight": 13])),
        ("weight not above zero", changed(["weight": 0])),
        ("reference matching no branch of anyOf", changed(["reference": "a reference too long"])),
        ("reference of a type no branch takes", changed(["reference": true])),
        ("valid: a reference that is a number", changed(["reference": 12])),
        ("a label too long, beside a null one", changed(["labels": ["glass", nil, "much too long"]])),
        ("a point with a third number", changed(["point": [1, 2, 3]])),
        ("a point with a string", changed(["point": ["x", 2]])),
        ("a carrier excluded by not", changed(["carrier": "testing"])),
        ("a carrier too short", changed(["carrier": "a"])),
        ("express without a carrier (if/then)", changed(["carrier": .some(nil)])),
        ("a window ending with no start (dependentSchemas)", changed(["window": ["to": "2026-11-03"]])),
        ("a window with a bad date", changed(["window": ["from": "2026-13-01"]])),
        // The window does not decode (its end is a number): its dependentSchemas entry still holds
        // (the end is in the input), and the missing start is reported beside the member.
        ("a window with an end of the wrong type and no start", changed(["window": ["to": 5]])),
        ("a tag named against patternProperties", changed(["parcels": [["size": "L", "tags": ["Color": "red"]]]])),
        ("a tag of the wrong type", changed(["parcels": [["size": "L", "tags": ["color": 1]]]])),
        ("a parcel of an unknown size", changed(["parcels": [["size": "XL"]]])),
        ("no parcels", changed(["parcels": []])),
        ("several at once", changed(["weight": 13, "carrier": "t", "point": [1], "id": "X"])),
    ]

    @Test("the generated type refuses exactly where the schema does", arguments: instances.map(\.name))
    func agreement(_ name: String) throws {
        let instance = try #require(Self.instances.first { $0.name == name }?.instance)
        let schema = try JSONSchema(parsing: Self.schemaText(), options: JSONSchema.Options(assertFormats: true))
        let expected = Set(schema.validate(instance).issues.map(\.path.jsonPointer))
        var found: Set<String> = []
        do {
            _ = try JSONValueDecoder().decodeValidated(Shipment.self, from: instance.jsonBytes())
        } catch {
            found = Set(error.issues.filter { $0.severity == .error }.map(\.path.jsonPointer))
        }
        #expect(found == expected, "\(name)")
        #expect(found.isEmpty == name.hasPrefix("valid"), "\(name)")
    }

    @Test("the golden file is the generator's output; each place without a typed rule is noted")
    func golden() throws {
        let options = SwiftGeneratorOptions(sourceName: "fallback.schema.json")
        let generated = try SwiftGenerator.generate(JSONValue(parsing: Array(Self.schemaText().utf8)), options: options)
        #expect(generated.source == (try SwiftGeneratorTests.read("Shipment.swift")))
        #expect(generated.rootTypeName == "Shipment")
        #expect(
            generated.typeNames == [
                "Shipment", "ShipmentReference", "ShipmentPoint", "ShipmentWindow", "Parcel", "ParcelSize",
            ])
        // The point's `prefixItems` beside `items: false`: a tuple, typed.
        #expect(!generated.notes.contains { $0.hasPrefix("#/properties/point") })
        #expect(generated.source.contains("self = try UnionDecoding.firstMatching("))
        #expect(!generated.notes.contains { $0.hasPrefix("#/properties/reference") })
        for place in [
            "#/properties/weight: not", "#/properties/labels/items",
            "#/$defs/carrier: not",
            "#/$defs/parcel/properties/tags: patternProperties, additionalProperties",
        ] {
            #expect(generated.notes.contains { $0.hasPrefix(place) }, "\(place)")
        }
        // The typed rules stay beside the keywords checked by the schema; no keyword is checked twice.
        #expect(
            generated.source.contains(
                #".length(2...), .schema(SchemaDocument.schema, at: "/$defs/carrier", keywords: ["not"])"#))
        #expect(!generated.source.contains(#"at: "/$defs/carrier")"#))
        #expect(
            generated.source.contains(
                #".when(\.express, "express", in: [true], then: [.required(\.carrier, "carrier")])"#))
        #expect(!generated.notes.contains { $0.hasPrefix("#: ") })
    }

    @Test("a keyword is checked once: by its typed rule or by the schema, never both")
    func noDuplicates() throws {
        for (carrier, code) in [("a", IssueCode.tooShort), ("testing", nil)] {
            do {
                _ = try JSONValueDecoder().decodeValidated(
                    Shipment.self, from: Self.changed(["carrier": .string(carrier)]).jsonBytes())
                Issue.record("the carrier \(carrier) was accepted")
            } catch {
                let found = error.issues.filter { $0.path.jsonPointer == "/carrier" }.map(\.code)
                #expect(found.count == 1, "\(carrier): \(found)")
                if let code { #expect(found == [code]) }
            }
        }
    }
}
