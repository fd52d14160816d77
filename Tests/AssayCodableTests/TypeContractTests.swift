import AssayCodable
import Foundation
import Testing

/// A model with no properties: an object, any members ignored.
@Validatable
struct Marker: Codable, Equatable {}

/// A model that refuses keys it does not declare, whatever the policy says.
@Validatable(unknownKeys: .reject)
struct ClosedPoint: Codable {
    @Validate(.range(0...10)) var x: Int
}

/// A model that only warns about unknown keys, even under a policy that refuses them.
@Validatable(unknownKeys: .warn)
struct LenientPoint: Codable {
    var x: Int
}

/// A model with a key that may be missing but is never null.
@Validatable
struct Profile: Codable {
    @NotNull @Validate(.length(...10)) var nickname: String?
    var note: String?
}

@Suite("A model's own contract: no properties, unknown keys, null")
struct TypeContractTests {
    @Test("a model with no properties decodes any object and nothing else")
    func noProperties() throws {
        #expect(try JSONValueDecoder().decodeValidated(Marker.self, from: Array(#"{"a": 1}"#.utf8)).value == Marker())
        #expect(throws: ValidationError.self) {
            try JSONValueDecoder().decodeValidated(Marker.self, from: Array("[]".utf8))
        }
    }

    @Test("unknownKeys: .reject refuses unknown keys under the default policy, with the rules' issues")
    func rejects() throws {
        do {
            _ = try JSONValueDecoder().decodeValidated(ClosedPoint.self, from: Array(#"{"x": 11, "y": 2}"#.utf8))
            Issue.record("an unknown key was accepted")
        } catch {
            #expect(error.issues.map(\.path.jsonPointer).sorted() == ["/x", "/y"])
            #expect(error.issues.first { $0.path.jsonPointer == "/y" }?.code == .unknownKey)
        }
        let exported = JSONSchemaExporter.document(for: ClosedPoint.self)
        #expect(exported[pointer: "/additionalProperties"] == false)
    }

    @Test("unknownKeys: .warn keeps the value under a policy that refuses unknown keys")
    func warns() throws {
        let decoded = try JSONValueDecoder().decodeValidated(
            LenientPoint.self, from: Array(#"{"x": 1, "y": 2}"#.utf8), policy: .init(unknownKeys: .reject))
        #expect(decoded.value.x == 1)
        #expect(decoded.warnings.map(\.code) == [.unknownKey])
        #expect(JSONSchemaExporter.document(for: LenientPoint.self)[pointer: "/additionalProperties"] == nil)
    }

    @Test("@NotNull: a missing key is nil, null is refused with the other issues; the schema allows no null")
    func notNull() throws {
        #expect(try JSONValueDecoder().decodeValidated(Profile.self, from: Array("{}".utf8)).value.nickname == nil)
        let note = try JSONValueDecoder().decodeValidated(Profile.self, from: Array(#"{"note": null}"#.utf8))
        #expect(note.value.note == nil)
        for decode in [
            { try JSONValueDecoder().decodeValidated(Profile.self, from: Array($0.utf8)).value },
            { try JSONDecoder().decodeValidated(Profile.self, from: Data($0.utf8)).value },
        ] as [(String) throws -> Profile] {
            do {
                _ = try decode(#"{"nickname": null, "note": 5}"#)
                Issue.record("null was accepted")
            } catch let error as ValidationError {
                #expect(error.issues.map(\.path.jsonPointer).sorted() == ["/nickname", "/note"])
                #expect(error.issues.allSatisfy { $0.code == .typeMismatch })
            }
        }
        let exported = JSONSchemaExporter.document(for: Profile.self)
        #expect(exported[pointer: "/properties/nickname/type"] == "string")
        #expect(exported[pointer: "/properties/note/type"] == ["string", "null"])
        #expect(exported[pointer: "/required"] == nil)
    }
}
