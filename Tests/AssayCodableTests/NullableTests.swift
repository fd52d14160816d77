import AssayCodable
import Foundation
import Testing

@Validatable
struct Manager: Codable, Equatable {
    @Validate(.range(1...)) var id: Int
}

/// A model whose members may be missing, `null` or hold a value, the three told apart.
@Validatable
struct Contact: Codable, Equatable {
    @Validate(.length(1...3)) var nickname: Nullable<String> = .absent
    var manager: Nullable<Manager> = .absent
    @Validate(Rule<[Int]>.count(...2)) var scores: Nullable<[Int]> = .absent
    @Lossy var tags: Nullable<[String]> = .absent
    var labels: Nullable<[String: String]> = .absent
    var note: String?
}

/// The same with the members it does not declare kept (its `encode(to:)` written by the macro).
@Validatable
struct Settings: Codable, Equatable {
    var theme: Nullable<String> = .absent
    @AdditionalProperties var others: [String: Int] = [:]
}

/// A member that must be present and may be `null`, as a `Nullable` (JSON Schema's `required` of a
/// nullable member).
@Validatable
struct Flag: Codable, Equatable {
    var value: Nullable<Bool> = .absent

    static let additionalRules: Validation<Flag> = [.required(\.value, "value")]
}

/// A plain `Codable` type: Swift's synthesised code reads and writes the member.
struct ProfilePatch: Codable, Equatable {
    var nickname: Nullable<String> = .absent
}

/// Hand-written rules of members that may be `null`: `null` is present.
struct VatInvoice: Validatable {
    var vat: Nullable<String> = .absent
    var country: Nullable<String> = .absent

    static let validation: Validation<VatInvoice> = [
        .required(\.vat, "vat"),
        .dependentRequired(.field(\.vat, "vat"), requires: .field(\.country, "country")),
        .property(\.country, "country", .length(2...2)),
    ]
}

/// A condition on a member that may be `null`: missing and `null` alike hold with `orAbsent`.
struct Shipping: Validatable {
    var method: Nullable<String> = .absent
    var address: String?

    static let validation: Validation<Shipping> = [
        .when(\.method, "method", in: ["post"], orAbsent: true, then: [.required(\.address, "address")])
    ]
}

@Suite("Nullable: a member missing, null or holding a value, told apart")
struct NullableTests {
    static func decoders() -> [(String) throws -> Contact] {
        [
            { try JSONValueDecoder().decodeValidated(Contact.self, from: Array($0.utf8)).value },
            { try JSONDecoder().decodeValidated(Contact.self, from: Data($0.utf8)).value },
        ]
    }

    static func encoded(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test("a missing key is .absent, null is .null, a value is .some, with either decoder; each written back as read")
    func decodesAndEncodes() throws {
        for decode in Self.decoders() {
            let empty = try decode("{}")
            #expect(empty == Contact())
            #expect(try Self.encoded(empty) == "{}")
            let nulls = try decode(
                #"{"nickname": null, "manager": null, "scores": null, "tags": null, "labels": null, "note": null}"#)
            #expect(nulls == Contact(nickname: .null, manager: .null, scores: .null, tags: .null, labels: .null))
            #expect(
                try Self.encoded(nulls)
                    == #"{"labels":null,"manager":null,"nickname":null,"scores":null,"tags":null}"#)
            let values = try decode(
                #"{"nickname": "Ann", "manager": {"id": 2}, "scores": [1], "tags": ["a"], "labels": {"a": "b"}}"#)
            #expect(
                values
                    == Contact(
                        nickname: "Ann", manager: .some(Manager(id: 2)), scores: .some([1]), tags: .some(["a"]),
                        labels: .some(["a": "b"])))
            #expect(values.nickname.value == "Ann" && values.nickname.isPresent && !values.nickname.isNull)
            #expect(try decode(try Self.encoded(values)) == values)
        }
    }

    @Test("the rules check a value alone, every failure reported in one error, at its place")
    func rules() throws {
        for decode in Self.decoders() {
            do {
                _ = try decode(
                    #"{"nickname": "Annabel", "manager": {"id": 0}, "scores": [1, "x"], "labels": {"a": 1}}"#)
                Issue.record("a nickname of 7 characters was accepted")
            } catch let error as ValidationError {
                #expect(
                    error.issues.map(\.path.jsonPointer).sorted() == [
                        "/labels/a", "/manager/id", "/nickname", "/scores/1",
                    ])
            }
            do {
                _ = try decode(#"{"nickname": 5, "scores": [1, 2, 3]}"#)
                Issue.record("a number was accepted as a nickname")
            } catch let error as ValidationError {
                #expect(error.issues.map(\.path.jsonPointer).sorted() == ["/nickname", "/scores"])
                #expect(error.issues.first { $0.path.jsonPointer == "/nickname" }?.code == .typeMismatch)
            }
        }
        // A lossy array that may be null drops its bad elements, as warnings.
        let lossy = try JSONValueDecoder().decodeValidated(Contact.self, from: Array(#"{"tags": ["a", 1]}"#.utf8))
        #expect(lossy.value.tags == .some(["a"]))
        #expect(lossy.warnings.map(\.path.jsonPointer) == ["/tags/1"])
    }

    @Test("checked on demand: an instance, a value by key path and by key; null and absent pass the rules")
    func onDemand() throws {
        #expect(
            Contact(nickname: "Annabel", manager: .some(Manager(id: 0))).issues().map(\.path.jsonPointer) == [
                "/nickname", "/manager/id",
            ])
        #expect(Contact(nickname: .null, manager: .null, scores: .null).issues().isEmpty)
        #expect(throws: ValidationError.self) {
            try Contact.validate(Nullable<String>.some("Annabel"), for: \.nickname)
        }
        #expect(try Contact.validate(Nullable<String>.null, for: \.nickname) == .null)
        #expect(throws: ValidationError.self) {
            try Contact.validate(Nullable<[Int]>.some([1, 2, 3]), forKey: "scores")
        }
        #expect((try Contact.validate(Nullable<[Int]>.absent, forKey: "scores")) as? Nullable<[Int]> == .absent)
    }

    @Test("exported: null allowed, the member not required")
    func export() {
        let schema = JSONSchemaExporter.document(for: Contact.self)
        #expect(schema[pointer: "/properties/nickname/type"] == ["string", "null"])
        #expect(schema[pointer: "/properties/nickname/maxLength"] == 3)
        #expect(schema[pointer: "/properties/scores/type"] == ["array", "null"])
        #expect(schema[pointer: "/properties/manager/anyOf/1"] == ["type": "null"])
        #expect(schema[pointer: "/required"] == nil)
    }

    @Test("a model that keeps its other members writes a .absent member out and a .null one as null")
    func additionalProperties() throws {
        for body in [#"{"x": 1}"#, #"{"theme": null, "x": 1}"#, #"{"theme": "dark", "x": 1}"#] {
            let settings = try JSONValueDecoder().decodeValidated(Settings.self, from: Array(body.utf8)).value
            #expect(try Self.encoded(settings) == body.replacingOccurrences(of: " ", with: ""))
        }
    }

    @Test("Swift's synthesised Codable reads a missing key as .absent and leaves it out when writing")
    func synthesised() throws {
        for (body, expected) in [
            ("{}", ProfilePatch()), (#"{"nickname":null}"#, ProfilePatch(nickname: .null)),
            (#"{"nickname":"Ann"}"#, ProfilePatch(nickname: "Ann")),
        ] {
            let patch = try JSONDecoder().decode(ProfilePatch.self, from: Data(body.utf8))
            #expect(patch == expected)
            #expect(try Self.encoded(patch) == body)
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ProfilePatch.self, from: Data(#"{"nickname": 1}"#.utf8))
        }
    }

    @Test("required and dependentRequired count null as present, as JSON Schema does")
    func presence() {
        #expect(VatInvoice().issues().map(\.path.jsonPointer) == ["/vat"])
        #expect(VatInvoice().issues().map(\.code) == [.missing])
        #expect(VatInvoice(vat: .null).issues().map(\.path.jsonPointer) == ["/country"])
        #expect(VatInvoice(vat: .null, country: .null).issues().isEmpty)
        #expect(VatInvoice(vat: "DE1", country: "DEU").issues().map(\.path.jsonPointer) == ["/country"])
    }

    @Test("a condition reads a value; missing and null hold with orAbsent")
    func condition() {
        #expect(Shipping().issues().map(\.path.jsonPointer) == ["/address"])
        #expect(Shipping(method: .null).issues().map(\.path.jsonPointer) == ["/address"])
        #expect(Shipping(method: "post").issues().map(\.path.jsonPointer) == ["/address"])
        #expect(Shipping(method: "pickup").issues().isEmpty)
        #expect(Shipping(method: "post", address: "1 Main St").issues().isEmpty)
    }

    @Test("required of a Nullable: null is present, and the exported schema says so")
    func requiredMember() throws {
        let decoder = JSONValueDecoder()
        #expect(try decoder.decodeValidated(Flag.self, from: Array(#"{"value": null}"#.utf8)).value.value == .null)
        do {
            _ = try decoder.decodeValidated(Flag.self, from: Array("{}".utf8))
            Issue.record("a missing value was accepted")
        } catch {
            #expect(error.issues.map(\.code) == [.missing])
            #expect(error.issues.map(\.path.jsonPointer) == ["/value"])
        }
        let schema = JSONSchemaExporter.document(for: Flag.self)
        #expect(schema[pointer: "/required"] == ["value"])
        #expect(schema[pointer: "/properties/value/type"] == ["boolean", "null"])
    }
}
