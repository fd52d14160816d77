import AssayCodable
import AssayCore
import AssayJSON
import AssaySchema
import Foundation
import Testing

/// A payment whose rules depend on its kind (JSON Schema's `if` / `then` / `else` on a member, as
/// the generator writes it), and on an optional channel that holds when it is missing.
@Validatable
struct Payment: Codable, Equatable {
    var kind: String
    @NotNull var cardNumber: String?
    @NotNull var iban: String?
    @NotNull var channel: String?
    @NotNull var note: String?

    static let additionalRules: Validation<Payment> = [
        .when(
            \.kind, "kind", in: ["card", "café"],
            then: [
                .required(\.cardNumber, "cardNumber"),
                .property(\.cardNumber, "cardNumber", .length(16...16), .charset(.digits)),
            ],
            else: [.required(\.iban, "iban")]),
        .when(
            \.channel, "channel", in: ["web", "app"], orAbsent: true, then: [.property(\.note, "note", .length(...5))]),
    ]
}

@Suite struct ConditionalRuleTests {
    private func places(_ json: String, decoder: DecoderKind) -> [String] {
        do {
            _ = try decoder.decode(Payment.self, json)
            return []
        } catch {
            return error.issues.map(\.path.jsonPointer).sorted()
        }
    }

    @Test(arguments: DecoderKind.allCases)
    func theBranchTheConditionPicksIsChecked(decoder: DecoderKind) {
        #expect(places(#"{"kind": "card", "cardNumber": "4111111111111111"}"#, decoder: decoder) == [])
        #expect(places(#"{"kind": "card", "cardNumber": "4111"}"#, decoder: decoder) == ["/cardNumber"])
        #expect(places(#"{"kind": "card", "iban": "DE00"}"#, decoder: decoder) == ["/cardNumber"])
        #expect(places(#"{"kind": "bank", "iban": "DE00"}"#, decoder: decoder) == [])
        // The other branch's rules do not apply: a short card number on a bank payment passes.
        #expect(places(#"{"kind": "bank", "iban": "DE00", "cardNumber": "1"}"#, decoder: decoder) == [])
        #expect(places(#"{"kind": "bank"}"#, decoder: decoder) == ["/iban"])
        // A missing channel holds (`orAbsent`), as a listed one does; another value does not.
        let long = #""note": "longer than five""#
        #expect(places(#"{"kind": "bank", "iban": "x", \#(long)}"#, decoder: decoder) == ["/note"])
        #expect(places(#"{"kind": "bank", "iban": "x", "channel": "app", \#(long)}"#, decoder: decoder) == ["/note"])
        #expect(places(#"{"kind": "bank", "iban": "x", "channel": "mail", \#(long)}"#, decoder: decoder) == [])
        // Both conditions' failures are reported together.
        #expect(places(#"{"kind": "card", \#(long)}"#, decoder: decoder) == ["/cardNumber", "/note"])
    }

    @Test func stringsAreComparedByCodePoints() {
        // "café" decomposed is canonically equivalent to the listed "café", but not the same code points.
        let decomposed = "cafe\u{301}"
        #expect(decomposed == "café")
        #expect(Payment(kind: decomposed, iban: "x").issues().isEmpty)
        #expect(Payment(kind: "café", iban: "x").issues().map(\.path.jsonPointer) == ["/cardNumber"])
    }

    @Test func onDemandTheSameRulesRun() {
        let issues = Payment(kind: "card", cardNumber: "12ab", note: "far too long").issues()
        #expect(issues.map(\.path.jsonPointer).sorted() == ["/cardNumber", "/cardNumber", "/note"])
        #expect(Set(issues.map(\.code)) == [.tooShort, .invalidCharacters, .tooLong])
        #expect(Payment(kind: "bank", iban: "DE00").issues().isEmpty)
    }

    @Test func theRoleDescribesTheConditionAndItsBranches() throws {
        let entry = try #require(Payment.additionalRules.rules.first)
        guard case .when(let conditional) = entry.role else {
            Issue.record("not a when entry: \(entry.role)")
            return
        }
        #expect(conditional.key == "kind")
        #expect(conditional.values == [.string("card"), .string("café")])
        #expect(!conditional.holdsWhenAbsent)
        #expect(conditional.then.map(\.key) == ["cardNumber", "cardNumber"])
        #expect(conditional.otherwise.map(\.key) == ["iban"])
    }

    /// The exported schema states the conditions exactly: on every combination of members, it and the
    /// decoder give one verdict.
    @Test func theExportedSchemaAgreesWithTheDecoderOnEveryCombination() throws {
        let document = JSONSchemaExporter.document(for: Payment.self)
        let text = document.jsonString()
        #expect(text.contains(#""if""#) && text.contains(#""then""#) && text.contains(#""else""#), "\(text)")
        #expect(!text.contains("x-assay-unchecked"), "\(text)")
        let schema = try JSONSchema(document)
        var members: [[String]] = [[]]
        let choices: [[String?]] = [
            [#""kind": "card""#, #""kind": "bank""#, #""kind": "cafe\#u{301}""#, #""kind": "café""#],
            [nil, #""cardNumber": "4111111111111111""#, #""cardNumber": "41""#, #""cardNumber": "411111111111111x""#],
            [nil, #""iban": "DE00""#],
            [nil, #""channel": "web""#, #""channel": "mail""#],
            [nil, #""note": "short""#, #""note": "much too long""#],
        ]
        for options in choices {
            members = members.flatMap { prefix in options.map { prefix + ($0.map { [$0] } ?? []) } }
        }
        #expect(members.count == 4 * 4 * 2 * 3 * 3)
        var valid = 0
        for member in members {
            let json = "{" + member.joined(separator: ", ") + "}"
            let decodes = (try? DecoderKind.assay.decode(Payment.self, json)) != nil
            #expect(schema.isValid(try JSONValue(parsing: Array(json.utf8))) == decodes, "\(json)")
            if decodes { valid += 1 }
        }
        // Both verdicts are among the combinations, in numbers.
        #expect(valid > 20 && valid < members.count - 20, "\(valid) valid")
    }
}
