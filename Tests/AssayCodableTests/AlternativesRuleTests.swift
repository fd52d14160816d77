import AssayCodable
import AssayCore
import AssayJSON
import AssaySchema
import Foundation
import Testing

/// A delivery that goes to an address or to a pickup point, never both (JSON Schema's `oneOf` over
/// members, as the generator writes it), and that names a contact one way or another (`anyOf`).
@Validatable
struct Delivery: Codable, Equatable {
    @NotNull var address: String?
    @NotNull var pickupPoint: String?
    @NotNull var email: String?
    @NotNull var phone: String?
    @Validate(.length(...12)) var name: String

    static let additionalRules: Validation<Delivery> = [
        .exactlyOne(of: [
            [.required(\.address, "address")],
            [.required(\.pickupPoint, "pickupPoint"), .property(\.pickupPoint, "pickupPoint", .length(4...8))],
        ]),
        .atLeastOne(of: [
            [.required(\.email, "email"), .property(\.email, "email", .matches("^[^@]+@[^@]+$"))],
            [.required(\.phone, "phone")],
            [.property(\.name, "name", .length(...3))],
        ]),
    ]
}

@Suite struct AlternativesRuleTests {
    private func places(_ json: String, decoder: DecoderKind) -> [String] {
        do {
            _ = try decoder.decode(Delivery.self, json)
            return []
        } catch {
            return error.issues.map(\.path.jsonPointer).sorted()
        }
    }

    @Test(arguments: DecoderKind.allCases)
    func exactlyOneGroupMustHold(decoder: DecoderKind) {
        let contact = #""name": "Ann""#
        #expect(places(#"{"address": "1 Main St", \#(contact)}"#, decoder: decoder) == [])
        #expect(places(#"{"pickupPoint": "PP-1", \#(contact)}"#, decoder: decoder) == [])
        // Both, neither, or a pickup point its own rule refuses: one issue, at the object.
        #expect(places(#"{"address": "1 Main St", "pickupPoint": "PP-1", \#(contact)}"#, decoder: decoder) == [""])
        #expect(places(#"{\#(contact)}"#, decoder: decoder) == [""])
        #expect(places(#"{"pickupPoint": "P1", \#(contact)}"#, decoder: decoder) == [""])
        // An address beside a pickup point that its rule refuses: only the address's group holds.
        #expect(places(#"{"address": "1 Main St", "pickupPoint": "P1", \#(contact)}"#, decoder: decoder) == [])
    }

    @Test(arguments: DecoderKind.allCases)
    func atLeastOneGroupMustHold(decoder: DecoderKind) {
        let address = #""address": "1 Main St""#
        #expect(places(#"{\#(address), "name": "Ann"}"#, decoder: decoder) == [])
        #expect(places(#"{\#(address), "name": "Annabel", "phone": "555"}"#, decoder: decoder) == [])
        let both = #""email": "ann@example.com", "phone": "5""#
        #expect(places(#"{\#(address), "name": "Annabel", \#(both)}"#, decoder: decoder) == [])
        #expect(places(#"{\#(address), "name": "Annabel"}"#, decoder: decoder) == [""])
        #expect(places(#"{\#(address), "name": "Annabel", "email": "not an address"}"#, decoder: decoder) == [""])
    }

    @Test(arguments: DecoderKind.allCases)
    func aMemberThatFailsLeavesTheGroupsItReadsUndecided(decoder: DecoderKind) {
        // The name is not text: the contact groups read it, so they are not decided (the name's
        // failure is reported); the address groups do not, and are.
        #expect(places(#"{"address": "1 Main St", "name": 5}"#, decoder: decoder) == ["/name"])
        #expect(places(#"{"address": "1", "pickupPoint": "PP-1", "name": 5}"#, decoder: decoder) == ["", "/name"])
        // A name that decodes but fails its own rule is read by the groups: none holds.
        #expect(places(#"{"address": "1", "name": "far longer than twelve"}"#, decoder: decoder) == ["", "/name"])
    }

    @Test func onDemandTheSameRulesRun() {
        #expect(Delivery(address: "1 Main St", name: "Ann").issues().isEmpty)
        let both = Delivery(address: "1 Main St", pickupPoint: "PP-1", name: "Annabel").issues()
        #expect(both.map(\.path.jsonPointer) == ["", ""])
        #expect(both.map(\.code) == [.noMatch, .noMatch])
        #expect(both.map(\.messageKey) == ["schema.oneOf.many", "noMatch"])
        #expect(both[0].parameters["count"] == .integer(2))
        #expect(both[1].parameters["count"] == .integer(3))
        let message = ValidationError(both).issues[0].message(in: .english)
        #expect(message.contains("exactly one"), "\(message)")
    }

    @Test func theRoleDescribesTheGroups() throws {
        let entries = Delivery.additionalRules.rules
        guard case .alternatives(let first) = entries[0].role, case .alternatives(let second) = entries[1].role else {
            Issue.record("not alternatives: \(entries.map(\.role))")
            return
        }
        #expect(first.exactlyOne && !second.exactlyOne)
        #expect(first.alternatives.map { $0.map(\.key) } == [["address"], ["pickupPoint", "pickupPoint"]])
        #expect(second.alternatives.count == 3)
    }

    /// The exported schema states the groups exactly: on every combination of members, it and the
    /// decoder give one verdict.
    @Test func theExportedSchemaAgreesWithTheDecoderOnEveryCombination() throws {
        let document = JSONSchemaExporter.document(for: Delivery.self)
        let text = document.jsonString()
        #expect(text.contains(#""oneOf""#) && text.contains(#""anyOf""#), "\(text)")
        #expect(!text.contains("x-assay-unchecked"), "\(text)")
        let schema = try JSONSchema(document, options: .init(assertFormats: true))
        var members: [[String]] = [[]]
        let choices: [[String?]] = [
            [nil, #""address": "1 Main St""#],
            [nil, #""pickupPoint": "PP-1""#, #""pickupPoint": "P1""#],
            [nil, #""email": "ann@example.com""#, #""email": "ann""#],
            [nil, #""phone": "555""#],
            [#""name": "Ann""#, #""name": "Annabel""#, #""name": "Annabel the Great""#],
        ]
        for options in choices {
            members = members.flatMap { prefix in options.map { prefix + ($0.map { [$0] } ?? []) } }
        }
        #expect(members.count == 2 * 3 * 3 * 2 * 3)
        var valid = 0
        for member in members {
            let json = "{" + member.joined(separator: ", ") + "}"
            let decodes = (try? DecoderKind.assay.decode(Delivery.self, json)) != nil
            #expect(schema.isValid(try JSONValue(parsing: Array(json.utf8))) == decodes, "\(json)")
            if decodes { valid += 1 }
        }
        // Both verdicts are among the combinations, in numbers.
        #expect(valid > 10 && valid < members.count - 10, "\(valid) valid")
    }
}
