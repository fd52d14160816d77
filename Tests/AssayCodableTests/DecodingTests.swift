import AssayCodable
import Foundation
import Testing

let threeBadClients = """
    [
      {"name": "John Doe", "age": 35, "email": "john@doe.test"},
      {"name": "J", "age": 150000, "email": "Hello"},
      {"name": "Ann", "age": "35", "email": "ann@example.test"},
      {"age": null, "email": 7},
      {"name": "  Zoë Kravitz  ", "age": 35, "email": " zoe@example.test "}
    ]
    """

/// Decodes with AssayJSON's decoder or Foundation's, the same way.
enum DecoderKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case assay, foundation

    var testDescription: String { rawValue }

    func decode<T: Decodable>(_ type: T.Type, _ json: String, policy: ValidatedDecodingPolicy = .default)
        throws(ValidationError) -> Decoded<T>
    {
        switch self {
        case .assay: return try JSONValueDecoder().decodeValidated(type, from: Array(json.utf8), policy: policy)
        case .foundation: return try JSONDecoder().decodeValidated(type, from: Data(json.utf8), policy: policy)
        }
    }

    func decodeArray<T: Decodable>(_ type: [T].Type, _ json: String, policy: ValidatedDecodingPolicy = .default)
        throws(ValidationError) -> Decoded<[T]>
    {
        switch self {
        case .assay: return try JSONValueDecoder().decodeValidated(type, from: Array(json.utf8), policy: policy)
        case .foundation: return try JSONDecoder().decodeValidated(type, from: Data(json.utf8), policy: policy)
        }
    }
}

/// The error a decode throws, or a recorded test failure.
func decodingError<T>(_ body: () throws -> T) -> ValidationError? {
    do {
        _ = try body()
        Issue.record("the payload decoded, but it is invalid")
        return nil
    } catch let error as ValidationError {
        return error
    } catch {
        Issue.record("expected a ValidationError, got \(error)")
        return nil
    }
}

/// A `Validatable` type with Swift's own `Decodable`: its decoding does not check it.
private struct PlainMember: Decodable, Validatable, Equatable {
    var name: String
    var age: Int

    static let validation: Validation<PlainMember> = [
        .normalize(\.name, "name") { $0.trimmingCharacters(in: .whitespaces) },
        .property(\.name, "name", .length(2...)),
        .property(\.age, "age", .range(0...150)),
        .property(\.age, "age", on: [.insert], .range(18...)),
    ]
}

/// `PlainMember`s inside a `@Validatable` model: decoding them does not check them, the model's
/// decoding does.
@Validatable
private struct PlainTeam: Decodable {
    var lead: PlainMember
    var deputy: PlainMember?
    var members: [PlainMember]
    @Lossy var reserves: [PlainMember] = []
}

@Suite struct DecodingTests {
    @Test(arguments: DecoderKind.allCases)
    func aHandWrittenValidatableInsideAModelIsCheckedWhereItIs(decoder: DecoderKind) throws {
        let team = """
            {"lead": {"name": "A", "age": 30}, "deputy": {"name": "Bo", "age": 200},
             "members": [{"name": " Cy ", "age": 20}, {"name": "Di", "age": -1}],
             "reserves": [{"name": "E", "age": 20}, {"name": " Flo ", "age": 20}]}
            """
        let error = try #require(decodingError { try decoder.decode(PlainTeam.self, team) })
        #expect(error.errors.map(\.path.jsonPointer) == ["/lead/name", "/deputy/age", "/members/1/age"])
        // A bad reserve is dropped, with a warning at its place in the input; the rest normalised.
        let fine = """
            {"lead": {"name": " Al ", "age": 30}, "members": [{"name": " Cy ", "age": 20}],
             "reserves": [{"name": "E", "age": 20}, {"name": " Flo ", "age": 20}]}
            """
        let decoded = try decoder.decode(PlainTeam.self, fine)
        #expect(decoded.value.lead.name == "Al")
        #expect(decoded.value.deputy == nil)
        #expect(decoded.value.members.map(\.name) == ["Cy"])
        #expect(decoded.value.reserves.map(\.name) == ["Flo"])
        #expect(decoded.warnings.map(\.path.jsonPointer) == ["/reserves/0/name"])
        // Checked for the policy's operation.
        let insert = ValidatedDecodingPolicy(operation: .insert)
        let minor = #"{"lead": {"name": "Al", "age": 16}, "members": []}"#
        #expect(try decoder.decode(PlainTeam.self, minor).value.lead.age == 16)
        let failure = try #require(decodingError { try decoder.decode(PlainTeam.self, minor, policy: insert) })
        #expect(failure.issues.map(\.path.jsonPointer) == ["/lead/age"])
        #expect(failure.issues.map(\.code) == [.tooSmall])
    }

    @Test(arguments: DecoderKind.allCases)
    func aValidatableTypeThatDecodesWithoutItsRulesIsCheckedAfterwards(decoder: DecoderKind) throws {
        // Never handed back as valid unchecked: the root, and each element.
        let root = try #require(decodingError { try decoder.decode(PlainMember.self, #"{"name": "A", "age": 200}"#) })
        #expect(root.issues.map(\.path.jsonPointer) == ["/name", "/age"])
        let list = #"[{"name": " Ann ", "age": 30}, {"name": "Bo", "age": -1}]"#
        let elements = try #require(decodingError { try decoder.decodeArray([PlainMember].self, list) })
        #expect(elements.issues.map(\.path.jsonPointer) == ["/1/age"])
        // Normalised, and checked for the policy's operation.
        #expect(try decoder.decode(PlainMember.self, #"{"name": " Ann ", "age": 16}"#).value.name == "Ann")
        let insert = ValidatedDecodingPolicy(operation: .insert)
        let minor = try #require(
            decodingError { try decoder.decode(PlainMember.self, #"{"name": "Ann", "age": 16}"#, policy: insert) })
        #expect(minor.issues.map(\.code) == [.tooSmall])
    }

    @Test(arguments: DecoderKind.allCases)
    func anOperationsRulesRunWhileDecodingWithTheOthers(decoder: DecoderKind) throws {
        // A blank name and an age out of range: the player's rules are for inserts and updates only.
        let json = #"[{"name": "  ", "age": 70}, {"name": "Ann", "age": 20}]"#
        #expect(try decoder.decodeArray([Player].self, json).value.count == 2)
        let insert = ValidatedDecodingPolicy(operation: .insert)
        let error = try #require(decodingError { try decoder.decodeArray([Player].self, json, policy: insert) })
        #expect(error.issues.map(\.path.jsonPointer) == ["/0/name", "/0/age"])
        #expect(error.issues.first?.message(in: .english) == "Player's name should not be empty.")
        // A check of the operation, as well.
        let person = #"{"name": "Kid", "birthday": "2020-01-01T00:00:00Z", "hasDrivingLicense": true}"#
        if decoder == .assay {
            let failure = try #require(
                decodingError {
                    try decoder.decode(Person.self, person, policy: ValidatedDecodingPolicy(operation: .update))
                })
            #expect(failure.issues.map(\.code) == [.custom("tooYoungToDrive")])
        }
    }

    @Test(arguments: DecoderKind.allCases)
    func everyBadFieldOfEveryRecordIsReportedAtOnce(decoder: DecoderKind) throws {
        let error = try #require(decodingError { try decoder.decodeArray([Client].self, threeBadClients) })
        #expect(
            error.issues.map(\.path.jsonPointer) == [
                "/1/name", "/1/age", "/1/email", "/2/age", "/3/name", "/3/age", "/3/email",
            ])
        #expect(
            error.issues.map(\.path.codingPath) == [
                "[1].name", "[1].age", "[1].email", "[2].age", "[3].name", "[3].age", "[3].email",
            ])
        #expect(
            error.issues.map(\.code) == [
                .tooShort, .tooLarge, .invalidFormat("email"), .typeMismatch, .missing, .missing, .typeMismatch,
            ])
        #expect(error.issues[3].phase == .decode)
        #expect(error.issues[0].phase == .property)
        #expect(
            error.text(in: .english) == """
                /1/name: Name must be between 2 and 100 characters long
                /1/age: Age must be between 1 and 150
                /1/email: Email must be a valid email address: it has no @ sign
                /2/age: Age must be of type Int
                /3/name: Name is required
                /3/age: Age is required
                /3/email: Email must be of type String
                """)
        #expect(!error.isTruncated)
    }

    @Test func elementsAreDecodedOneByOneWithTheirOwnOutcome() throws {
        let json = """
            [{"name": " Ann Lee ", "age": 35, "email": "ann@example.test"},
             {"name": "J", "age": 200, "email": "j@example.test"},
             5,
             {"name": "Bo Li", "age": 20, "email": "bo@example.test"}]
            """
        let outcomes = try JSONValueDecoder().decodeValidatedElements(Client.self, from: Array(json.utf8))
        #expect(outcomes.count == 4)
        #expect(try outcomes[0].get().name == "Ann Lee", "normalised")
        #expect(try outcomes[3].get().name == "Bo Li")
        guard case .failure(let second) = outcomes[1], case .failure(let third) = outcomes[2] else {
            Issue.record("elements 1 and 2 are invalid")
            return
        }
        #expect(second.issues.map(\.path.jsonPointer) == ["/1/name", "/1/age"])
        #expect(second.issues[1].parameters["line"] == .integer(2), "located in the whole document")
        #expect(third.issues.map(\.code) == [.typeMismatch])
        // Input that is not an array of elements is refused whole.
        #expect(throws: ValidationError.self) {
            try JSONValueDecoder().decodeValidatedElements(Client.self, from: Array(#"{"name": "x"}"#.utf8))
        }
    }

    @Test func assayDecoderLocatesEveryIssueInTheInput() throws {
        let error = try #require(decodingError { try DecoderKind.assay.decodeArray([Client].self, threeBadClients) })
        #expect(error.issues[0].parameters["line"] == .integer(3))
        #expect(error.issues[3].parameters["line"] == .integer(4))
        #expect(error.issues[3].parameters["column"] == .integer(26))
    }

    @Test(arguments: DecoderKind.allCases)
    func validPayloadDecodesNormalised(decoder: DecoderKind) throws {
        let json = #"[{"name": "  Zoë Kravitz  ", "age": 35, "email": " zoe@example.test "}]"#
        let decoded = try decoder.decodeArray([Client].self, json)
        #expect(decoded.value == [Client(name: "Zoë Kravitz", age: 35, email: "zoe@example.test")])
        #expect(decoded.warnings.isEmpty)
    }

    @Test(arguments: DecoderKind.allCases)
    func plainDecodeThrowsTheAggregateToo(decoder: DecoderKind) throws {
        // Without the entry point, a single model still reports all its fields.
        let json = #"{"name": "J", "age": 0, "email": "x"}"#
        do {
            switch decoder {
            case .assay: _ = try JSONValueDecoder().decode(Client.self, from: Array(json.utf8))
            case .foundation: _ = try JSONDecoder().decode(Client.self, from: Data(json.utf8))
            }
            Issue.record("decoded an invalid client")
        } catch let error as ValidationError {
            #expect(error.issues.map(\.path.jsonPointer) == ["/name", "/age", "/email"])
        } catch let error as JSONDecodingError {
            // AssayJSON's plain `decode` wraps errors of `init(from:)`; the aggregate is its message.
            #expect(decoder == .assay)
            #expect(error.detail.contains("/name") && error.detail.contains("/email"))
        }
    }

    @Test(arguments: DecoderKind.allCases)
    func nestedOptionalDefaultAndCustomKeys(decoder: DecoderKind) throws {
        let json = """
            {"full_name": "Ada Lovelace", "address": {"street": "1 Main St", "zip": "12345"},
             "previous": [{"street": "", "zip": "1"}, {"street": "2 Side St", "zip": "54321"}, 5],
             "billing": {"street": " ", "zip": "99999"}, "nickname": null, "referrer": null, "tags": ["a"]}
            """
        let error = try #require(decodingError { try decoder.decode(Customer.self, json) })
        #expect(
            error.issues.map(\.path.jsonPointer) == [
                "/previous/0/street", "/previous/0/zip", "/previous/2", "/billing/street",
            ])
        #expect(error.issues.map(\.code) == [.blank, .patternMismatch, .typeMismatch, .blank])

        let valid = """
            {"full_name": "Ada Lovelace", "address": {"street": "1 Main St", "zip": "12345"}, "previous": [],
             "referrer": "Ann"}
            """
        let customer = try decoder.decode(Customer.self, valid).value
        #expect(customer.fullName == "Ada Lovelace")
        #expect(customer.role == "user", "a missing key takes the property's initial value")
        #expect(customer.tags == [])
        #expect(customer.nickname == nil && customer.billing == nil)
        #expect(customer.kind == "customer")
        #expect(customer.referrer == "Ann")
    }

    @Test(arguments: DecoderKind.allCases)
    func missingKeysAndNullsEverywhere(decoder: DecoderKind) throws {
        let error = try #require(
            decodingError { try decoder.decode(Customer.self, #"{"full_name": null, "address": null}"#) })
        #expect(error.issues.map(\.path.jsonPointer) == ["/full_name", "/address", "/previous", "/referrer"])
        #expect(error.issues.allSatisfy { $0.code == .missing }, "@Required: the key must be there, even as null")
    }

    @Test(arguments: DecoderKind.allCases)
    func wrongTypesAtEveryLevel(decoder: DecoderKind) throws {
        for json in ["7", "null", #""text""#, "[]", "true"] {
            let error = try #require(decodingError { try decoder.decode(Customer.self, json) })
            #expect(error.issues.count == 1)
            #expect(error.issues[0].path == .root)
        }
        let error = try #require(
            decodingError {
                try decoder.decode(
                    Customer.self,
                    #"{"full_name": 1, "address": [], "previous": {}, "tags": "x", "role": false, "referrer": 5}"#)
            })
        #expect(
            error.issues.map(\.path.jsonPointer) == [
                "/full_name", "/address", "/previous", "/referrer", "/role", "/tags",
            ])
        #expect(error.issues.allSatisfy { $0.code == .typeMismatch })
    }

    @Test(arguments: DecoderKind.allCases)
    func lossyArrayDropsBadElementsAsWarnings(decoder: DecoderKind) throws {
        let json = """
            {"full_name": "Ada", "address": {"street": "1", "zip": "12345"}, "previous": [], "referrer": null,
             "tags": ["ok", 5, null, "fine"]}
            """
        let decoded = try decoder.decode(Customer.self, json)
        #expect(decoded.value.tags == ["ok", "fine"])
        #expect(decoded.warnings.map(\.path.jsonPointer) == ["/tags/1", "/tags/2"])
        #expect(decoded.warnings.allSatisfy { $0.severity == .warning })

        // Rules on the array itself still hold: an element that decodes but breaks `.each` is an error.
        let tooLong = json.replacingOccurrences(of: "\"fine\"", with: "\"much too long a tag\"")
        let error = try #require(decodingError { try decoder.decode(Customer.self, tooLong) })
        #expect(error.errors.map(\.path.jsonPointer) == ["/tags/3"], "the index is the element's in the input")
    }

    @Test(arguments: DecoderKind.allCases)
    func policyMakesWholeCollectionsLossy(decoder: DecoderKind) throws {
        let policy = ValidatedDecodingPolicy(lossyCollections: true)
        let decoded = try decoder.decodeArray([Client].self, threeBadClients, policy: policy)
        #expect(decoded.value.map(\.name) == ["John Doe", "Zoë Kravitz"])
        #expect(decoded.warnings.count == 7)
        #expect(decoded.warnings.allSatisfy { $0.severity == .warning })
    }

    @Test(arguments: DecoderKind.allCases)
    func unknownKeysAreIgnoredReportedOrRejected(decoder: DecoderKind) throws {
        let json = #"{"name": "Ann Lee", "age": 30, "email": "ann@example.test", "extra": 1, "more": [2]}"#
        #expect(try decoder.decode(Client.self, json).warnings.isEmpty)

        let warned = try decoder.decode(Client.self, json, policy: ValidatedDecodingPolicy(unknownKeys: .warn))
        // Foundation lists an object's keys in no particular order.
        #expect(warned.warnings.map(\.path.jsonPointer).sorted() == ["/extra", "/more"])
        #expect(warned.warnings.allSatisfy { $0.code == .unknownKey && $0.severity == .warning })

        let error = try #require(
            decodingError {
                try decoder.decode(Client.self, json, policy: ValidatedDecodingPolicy(unknownKeys: .reject))
            })
        #expect(error.issues.map(\.code) == [.unknownKey, .unknownKey])
    }

    /// AssayJSON's decoder checks only the members no field read (it marks those it looks up); the
    /// answers are the ones of a check of every key: a known key whose value is wrong or null, or
    /// that an optional field reads, is never unknown; nested objects and array elements are
    /// checked each; unknown keys come first in each object's issues; a snake_case decode (which
    /// converts names) checks every key.
    @Test(arguments: DecoderKind.allCases)
    func unknownKeysAmongBadAndNestedValues(decoder: DecoderKind) throws {
        let json = #"""
            {"full_name": 5, "address": {"street": "Main St", "zip": "1234", "floor": 3},
             "previous": [{"street": "A", "zip": "12345"}, {"street": "B", "zip": "12345", "gate": "x"}],
             "billing": null, "nickname": null, "referrer": null, "x-trace": "abc"}
            """#
        let error = try #require(
            decodingError {
                try decoder.decode(Customer.self, json, policy: ValidatedDecodingPolicy(unknownKeys: .reject))
            })
        let unknown = error.issues.filter { $0.code == .unknownKey }.map(\.path.jsonPointer)
        #expect(unknown.sorted() == ["/address/floor", "/previous/1/gate", "/x-trace"])
        let others = error.issues.filter { $0.code != .unknownKey }.map(\.path.jsonPointer)
        #expect(others.sorted() == ["/address/zip", "/full_name"])
        if decoder == .assay {
            // In each object, its unknown keys before its fields' issues.
            let paths = error.issues.map(\.path.jsonPointer)
            let address = paths.filter { $0.hasPrefix("/address") }
            #expect(address == ["/address/floor", "/address/zip"])
        }
        // Every key known: nothing reported, the value decodes.
        let clean =
            #"{"full_name": "Ann Lee", "address": {"street": "Main St", "zip": "12345"}, "previous": [], "referrer": null}"#
        let decoded = try decoder.decode(Customer.self, clean, policy: ValidatedDecodingPolicy(unknownKeys: .reject))
        #expect(decoded.value.fullName == "Ann Lee")
        #expect(decoded.warnings.isEmpty)
    }

    /// Arrays of scalars decode whole where they can; a bad element is still reported at its index,
    /// beside every other bad element and the element rules' failures of the elements that decoded.
    @Test(arguments: DecoderKind.allCases)
    func scalarArraysWholeOrElementByElement(decoder: DecoderKind) throws {
        let valid = try decoder.decode(Survey.self, #"{"scores": [1, 5], "labels": ["a", "b"], "weights": [0.5]}"#)
        #expect(valid.value == Survey(scores: [1, 5], labels: ["a", "b"], weights: [0.5]))
        let badElements = try #require(
            decodingError {
                try decoder.decode(
                    Survey.self, #"{"scores": [1, "x", 9, null], "labels": ["a", 3], "weights": [1, "y"]}"#)
            })
        // The 9 that decoded breaks the elements' rule: reported too, after the elements that failed.
        #expect(
            badElements.issues.map(\.path.jsonPointer) == [
                "/scores/1", "/scores/3", "/scores/2", "/labels/1", "/weights/1",
            ])
        let ruleFailure = try #require(
            decodingError { try decoder.decode(Survey.self, #"{"scores": [1, 9, 0], "labels": []}"#) })
        #expect(ruleFailure.issues.map(\.path.jsonPointer) == ["/scores/1", "/scores/2"])
        #expect(ruleFailure.issues.map(\.code) == [.tooLarge, .tooSmall])
        // An array with an element that does not decode still has its count checked, on the
        // input's elements (as `maxItems` is): reported at the array, beside the element.
        let countFailure = try #require(
            decodingError { try decoder.decode(Survey.self, #"{"scores": [], "labels": [], "weights": [1, "y", 2]}"#) })
        #expect(countFailure.issues.map(\.path.jsonPointer) == ["/weights/1", "/weights"])
        #expect(countFailure.issues.map(\.code) == [.typeMismatch, .tooMany])
        let inBounds = try #require(
            decodingError { try decoder.decode(Survey.self, #"{"scores": [], "labels": [], "weights": ["y", 2]}"#) })
        #expect(inBounds.issues.map(\.path.jsonPointer) == ["/weights/0"])
        // So is its uniqueness, on the input's elements as JSON compares them (1 and 1.0 are equal;
        // two strings that are not integers are equal too), as `uniqueItems` is.
        for (codes, places) in [
            (#"[1, "x", 1.0]"#, ["/codes/1", "/codes"]), (#"["x", "x"]"#, ["/codes/0", "/codes/1", "/codes"]),
            (#"[1, "x", 2]"#, ["/codes/1"]),
        ] {
            let failure = try #require(
                decodingError { try decoder.decode(Survey.self, #"{"scores": [], "labels": [], "codes": \#(codes)}"#) })
            #expect(failure.issues.map(\.path.jsonPointer) == places, "\(codes)")
            let repeated = places.last == "/codes"
            #expect(failure.issues.last?.code == (repeated ? .notUnique : .typeMismatch))
        }
    }

    @Test func unknownKeysWithSnakeCaseKeys() throws {
        var decoder = JSONValueDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let json = #"{"guests": 2, "nights": 3, "late_checkout": true}"#
        let error = try #require(
            decodingError {
                try decoder.decodeValidated(
                    Booking.self, from: Array(json.utf8), policy: ValidatedDecodingPolicy(unknownKeys: .reject))
            })
        #expect(error.issues.map(\.path.jsonPointer) == ["/late_checkout"])
        #expect(error.issues.map(\.code) == [.unknownKey])
    }

    @Test(arguments: DecoderKind.allCases)
    func hugeArrayOfInvalidElementsIsCapped(decoder: DecoderKind) throws {
        let element = #"{"name": "", "age": -1, "email": "x"}"#
        let json = "[" + Array(repeating: element, count: 100_000).joined(separator: ",") + "]"
        let policy = ValidatedDecodingPolicy(maximumIssues: 500)
        let error = try #require(decodingError { try decoder.decodeArray([Client].self, json, policy: policy) })
        #expect(error.issues.count == 500)
        #expect(error.isTruncated)
        #expect(error.issues.last!.path.components.first == .index(166), "decoding stopped at the cap")
    }

    @Test(arguments: DecoderKind.allCases)
    func malformedJSONIsOneIssue(decoder: DecoderKind) throws {
        // Foundation's parser accepts a trailing comma (`{"a": 1,}`), so only AssayJSON's rejects it.
        let inputs = ["[{\"name\": ", "nul", "[1 2]"] + (decoder == .assay ? ["{\"a\": 1,}"] : [])
        for json in inputs {
            let error = try #require(decodingError { try decoder.decodeArray([Client].self, json) })
            let expected: IssueCode = .malformed
            #expect(error.issues.map(\.code) == [expected], "\(json)")
        }
    }

    @Test func invalidUTF8IsMalformed() throws {
        let bytes: [UInt8] =
            Array(#"[{"name": ""#.utf8) + [0xFF, 0xFE] + Array(#"", "age": 3, "email": "a@b.test"}]"#.utf8)
        let error = try #require(decodingError { try JSONValueDecoder().decodeValidated([Client].self, from: bytes) })
        #expect(error.issues.map(\.code) == [.malformed])
        #expect(error.issues[0].parameters["line"] == .integer(1))
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        let json = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = try #require(decodingError { try DecoderKind.assay.decodeArray([Client].self, json) })
        #expect(error.issues.map(\.code) == [.malformed])
    }

    @Test func laxModeReportsEachCoercionAsAWarning() throws {
        var decoder = JSONValueDecoder()
        decoder.mode = .lax
        let json = #"[{"name": "Ann Lee", "age": "35", "email": "ann@example.test"}]"#
        let decoded = try decoder.decodeValidated([Client].self, from: Array(json.utf8))
        #expect(decoded.value[0].age == 35)
        #expect(decoded.warnings.map(\.code) == [.coerced])
        #expect(decoded.warnings.map(\.path.jsonPointer) == ["/0/age"])
        #expect(decoded.warnings[0].parameters["line"] == .integer(1))
    }

    @Test(arguments: DecoderKind.allCases)
    func seedValueTypesValidateWhileDecoding(decoder: DecoderKind) throws {
        let decoded = try decoder.decodeArray(
            [SecureClient].self, #"[{"name": " John Doe ", "age": 35, "email": "john@doe.test"}]"#)
        #expect(decoded.value[0].name.rawValue == "John Doe")
        #expect(decoded.value[0].age == (try Age(35)))

        let error = try #require(
            decodingError {
                try decoder.decodeArray([SecureClient].self, #"[{"name": "J@ne", "age": 150000, "email": "Hello"}]"#)
            })
        #expect(error.issues.map(\.path.jsonPointer) == ["/0/name", "/0/age", "/0/email"])
        #expect(error.issues.map(\.code) == [.invalidCharacters, .tooLarge, .invalidFormat("email")])
    }

    @Test func seedValueTypesHaveReusableEvaluatedChecks() throws {
        #expect(try Age.evaluated(35) == 35)
        #expect(try Name.evaluated("  Zoë  ") == "Zoë")
        #expect(try Email.evaluated(" john@doe.test ") == "john@doe.test")
        #expect(throws: ValidationError.self) { try Age.evaluated(150_000) }
        #expect(throws: ValidationError.self) { try Name(#"back\slash"#) }
        do {
            _ = try Age(0)
            Issue.record("age 0 was accepted")
        } catch {
            #expect(error.text(in: .english) == "Value must be between 1 and 150")
            #expect(error.text(in: .russian) == "Значение должно быть от 1 до 150")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let encoded = try encoder.encode(try SecureClient(name: Name("Ann"), age: Age(3), email: Email("a@b.test")))
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"age":3,"email":"a@b.test","name":"Ann"}"#)
    }
}

@Suite struct HandWrittenDecodingTests {
    @Test(arguments: DecoderKind.allCases, [true, false])
    func aHandWrittenInitNormalisesAndReportsEveryIssue(decoder: DecoderKind, inPlace: Bool) throws {
        let valid = #"{"name": "  Ann Lee  ", "age": 35, "inPlace": \#(inPlace)}"#
        #expect(try decoder.decode(HandDecodedMember.self, valid).value == HandDecodedMember(name: "Ann Lee", age: 35))
        let invalid = #"[{"name": " A ", "age": 200, "inPlace": \#(inPlace)}, {"name": 7, "inPlace": \#(inPlace)}]"#
        let error = try #require(decodingError { try decoder.decodeArray([HandDecodedMember].self, invalid) })
        #expect(error.issues.map(\.path.jsonPointer) == ["/0/name", "/0/age", "/1/name", "/1/age"])
        #expect(error.issues.map(\.code) == [.tooShort, .tooLarge, .typeMismatch, .missing])
        // The rules saw the normalised name: " A " trimmed is one character long.
        #expect(error.issues[0].value == .string("A"))
    }
}
