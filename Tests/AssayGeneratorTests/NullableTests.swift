import AssayCodable
import AssayJSON
import AssaySchema
import Foundation
import Testing

@testable import AssayGenerator

/// `Nullable.swift` is the generator's output for `Golden/nullable.schema.json`: a member that is
/// not required and may be `null` (`{"type": ["string", "null"]}`, OpenAPI 3.0's `nullable`) is a
/// `Nullable<T>` — `.absent`, `.null` or `.some(…)` — so that `null` and a missing member are told
/// apart where the schema tells them apart (`dependentRequired`, a branch's `required`) and each
/// is encoded back as it was read.
@Suite("Nullable members: missing and null told apart")
struct NullableMembersTests {
    static func schemaText() throws -> String { try SwiftGeneratorTests.read("nullable.schema.json") }

    static let valid: JSONValue = [
        "id": 1, "nickname": "Ann", "manager": ["name": "Bo", "manager": .null], "tags": ["a", "b"],
        "email": "ann@example.com", "contact": "email", "deleted": false,
    ]

    static func changed(_ changes: [String: JSONValue?]) -> JSONValue { valid.changing(changes) }

    static let instances: [(name: String, instance: JSONValue)] = [
        ("valid", valid),
        ("valid: the id alone", ["id": 1]),
        (
            "valid: every member that may be null is",
            [
                "id": 1, "nickname": .null, "manager": .null, "tags": .null, "email": .null, "phone": .null,
                "contact": .null,
            ]
        ),
        ("valid: a null contact", ["id": 1, "contact": .null]),
        ("valid: contact by phone", changed(["contact": "phone", "phone": "+4930"])),
        ("contact by phone, a null phone", changed(["contact": "phone", "phone": .null])),
        ("contact by phone, no phone", changed(["contact": "phone"])),
        ("contact by phone, a phone of letters", changed(["contact": "phone", "phone": "call me"])),
        // `dependentRequired`: a `null` email is present, and wants a contact.
        ("a null email and no contact", ["id": 1, "email": .null]),
        ("an email and no contact", changed(["contact": nil])),
        ("valid: a null email and a null contact", ["id": 1, "email": .null, "contact": .null]),
        ("an email that is not one", changed(["email": "ann"])),
        ("an empty nickname", changed(["nickname": ""])),
        ("a nickname that is a number", changed(["nickname": 5])),
        ("no id, and a null nickname", ["nickname": .null]),
        ("a null id", changed(["id": .null])),
        ("repeated tags", changed(["tags": ["a", "a"]])),
        ("an empty tag", changed(["tags": ["", "b"]])),
        ("four tags", changed(["tags": ["a", "b", "c", "d"]])),
        ("a manager with no name", changed(["manager": ["manager": .null]])),
        ("a manager's manager with an empty name", changed(["manager": ["name": "Bo", "manager": ["name": ""]]])),
        ("a contact not listed", changed(["contact": "fax"])),
        ("a null deleted flag", changed(["deleted": .null])),
        ("an unknown member", changed(["nick": "A"])),
        (
            "everything wrong at once",
            changed(["id": 0, "nickname": "", "tags": ["a", "a"], "contact": "phone", "phone": .null, "x": 1])
        ),
    ]

    @Test("the generated struct refuses exactly where the schema does", arguments: instances.map(\.name))
    func agreement(_ name: String) throws {
        let instance = try #require(Self.instances.first { $0.name == name }?.instance)
        try UnionTests.expectAgreement(ProfilePatch.self, schemaText: Self.schemaText(), name: name, instance: instance)
    }

    @Test("a missing member is .absent, null is .null, a value .some; each encoded back as it was read")
    func roundTrip() throws {
        for (name, instance) in Self.instances where name.hasPrefix("valid") {
            let decoded = try JSONValueDecoder().decodeValidated(ProfilePatch.self, from: instance.jsonBytes()).value
            #expect(try JSONValue(parsing: Array(JSONEncoder().encode(decoded))) == instance, "\(name)")
        }
        let nulls = try JSONValueDecoder().decodeValidated(
            ProfilePatch.self, from: Self.instances[2].instance.jsonBytes()
        ).value
        #expect(nulls.nickname == .null && nulls.contact == .null && nulls.tags == .null)
        #expect(nulls.deleted == nil)
        let alone = try JSONValueDecoder().decodeValidated(ProfilePatch.self, from: Array(#"{"id": 1}"#.utf8)).value
        #expect(alone == ProfilePatch(id: 1))
        #expect(alone.nickname == .absent && !alone.nickname.isPresent)
        let full = try JSONValueDecoder().decodeValidated(ProfilePatch.self, from: Self.valid.jsonBytes()).value
        #expect(full.manager.value?.manager == .null)
        #expect(full.tags == .some(["a", "b"]))
    }

    @Test("on demand, the same places: null meets required and dependentRequired, a branch may refuse it")
    func onDemand() throws {
        #expect(ProfilePatch(id: 1, email: .null, contact: .null).issues().isEmpty)
        #expect(ProfilePatch(id: 1, email: .null).issues().map(\.path.jsonPointer) == ["/contact"])
        #expect(
            ProfilePatch(id: 1, phone: .null, contact: .some(.phone)).issues().map(\.path.jsonPointer) == ["/phone"])
        #expect(ProfilePatch(id: 1, contact: .some(.phone)).issues().map(\.code) == [.missing])
        #expect(
            ProfilePatch(
                id: 1, nickname: "", manager: .some(Colleague(name: "", manager: .some(Indirect(Colleague(name: "")))))
            )
            .issues().map(\.path.jsonPointer) == ["/nickname", "/manager/name", "/manager/manager/name"])
        #expect(throws: ValidationError.self) { try ProfilePatch.validate(Nullable<String>.some(""), for: \.nickname) }
        #expect(try ProfilePatch.validate(Nullable<String>.null, for: \.nickname) == .null)
    }

    @Test("the exported schema accepts null where the source does, and requires what it requires")
    func export() throws {
        let document = JSONSchemaExporter.document(for: ProfilePatch.self)
        #expect(document[pointer: "/properties/nickname/type"] == ["string", "null"])
        #expect(document[pointer: "/required"] == ["id"])
        let exported = try JSONSchema(document)
        let source = try JSONSchema(parsing: Self.schemaText())
        for (name, instance) in Self.instances {
            #expect(exported.isValid(instance) == source.isValid(instance), "\(name)")
        }
    }

    @Test("the golden file is the generator's output; every keyword is a typed rule")
    func golden() throws {
        let options = SwiftGeneratorOptions(sourceName: "nullable.schema.json")
        let generated = try SwiftGenerator.generate(JSONValue(parsing: Array(Self.schemaText().utf8)), options: options)
        #expect(generated.source == (try SwiftGeneratorTests.read("Nullable.swift")))
        #expect(!generated.source.contains("SchemaDocument"))
        #expect(generated.source.contains("public var nickname: Nullable<String> = .absent"))
        #expect(generated.source.contains(#".required(\.phone, "phone", allowingNull: false)"#))
    }

    @Test("a type that holds itself through a member that may be null is boxed inside the Nullable, whatever its name")
    func boxedInsideNullable() throws {
        // `Null` is inside the text `Nullable<Null>`: the box is the member's wrapper, not a text edit.
        let generated = try SwiftGeneratorTests.generate(
            ##"{"title": "Null", "type": "object", "properties": {"next": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}}}"##
        )
        #expect(generated.source.contains("public var next: Nullable<Indirect<Null>> = .absent"))
    }
}
