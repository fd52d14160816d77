import AssayCodable
import AssaySchema
import Foundation
import Testing

@Suite struct ModelTests {
    // Seed 000, word for word in three languages, with rules declared as attributes.
    @Test func playerRulesRunOnInsertAndUpdate() throws {
        let player = Player(name: "   ", age: 12)
        #expect(player.isValid, "the rules are declared for insert and update only")
        #expect(player.issues(for: .delete).isEmpty)
        do {
            try player.validate(for: .insert)
            Issue.record("an invalid player was accepted")
        } catch {
            #expect(error.issues.map(\.path.jsonPointer) == ["/name", "/age"])
            #expect(
                error.text(in: .english)
                    == "/name: Player's name should not be empty.\n/age: Player's age should be in [16, 50].")
            #expect(
                error.text(in: .russian)
                    == "/name: Имя игрока не должно быть пустым.\n/age: Возраст игрока должен быть в пределах [16, 50]."
            )
            #expect(error.text(in: .simplifiedChinese) == "/name: 球员姓名不能为空。\n/age: 球员年龄应在 [16, 50] 之间。")
        }
        #expect(try Player(name: "  Yao Ming ", age: 22).validated(for: .update).name == "Yao Ming")
    }

    // Seed 001: a cross-property check with operation context, run only when the properties are valid.
    @Test func personUnder16CannotHoldADrivingLicence() throws {
        let young = Person(
            name: "Tim", birthday: Date.now.addingTimeInterval(-10 * 365 * 86_400), hasDrivingLicense: true)
        #expect(young.issues().isEmpty, "the check is declared for insert and update")
        let issues = young.issues(for: .insert)
        #expect(issues.map(\.path.jsonPointer) == ["/hasDrivingLicense"])
        let error = ValidationError(issues)
        #expect(error.text(in: .english) == "/hasDrivingLicense: Person is too young to have a driving license.")
        #expect(
            error.text(in: .russian) == "/hasDrivingLicense: Человек слишком молод, чтобы иметь водительские права.")
        #expect(error.text(in: .simplifiedChinese) == "/hasDrivingLicense: 此人年龄太小，不能持有驾驶执照。")

        var invalid = young
        invalid.name = ""
        #expect(
            invalid.issues(for: .insert).map(\.path.jsonPointer) == ["/name"],
            "with an invalid property the check (when: .propertiesValid) does not run")
        let adult = Person(name: "Ann", birthday: Date(timeIntervalSince1970: 0), hasDrivingLicense: true)
        #expect(adult.issues(for: .insert).isEmpty)
    }

    @Test func validatingAfterEditsAndOneFieldAtATime() throws {
        var client = Client(name: "John Doe", age: 35, email: "john@doe.test")
        #expect(client.isValid)
        client.age = 150_000
        client.email = "Hello"
        #expect(client.issues().map(\.path.jsonPointer) == ["/age", "/email"])

        // A form field, before assignment, without building a Client.
        #expect(try Client.validate("  Zoë ", for: \.name) == "Zoë")
        #expect(throws: ValidationError.self) { try Client.validate(0, for: \.age) }
        #expect(throws: ValidationError.self) { try Client.validate("x@", forKey: "email") }
    }

    /// A proposed value for a property that holds models is checked with the models' own rules (it
    /// was passed unchecked).
    @Test func oneNestedFieldAtATime() throws {
        let bad = Address(street: " ", zip: "1")
        let byKey = #expect(throws: ValidationError.self) { try Customer.validate(bad, forKey: "address") }
        #expect(byKey?.issues.map(\.path.jsonPointer) == ["/address/street", "/address/zip"])
        let byKeyPath = #expect(throws: ValidationError.self) { try Customer.validate(bad, for: \.address) }
        #expect(byKeyPath?.issues.map(\.path.jsonPointer) == ["/address/street", "/address/zip"])
        let list = #expect(throws: ValidationError.self) {
            try Customer.validate([Address(street: "a", zip: "12345"), bad], forKey: "previous")
        }
        #expect(list?.issues.map(\.path.jsonPointer) == ["/previous/1/street", "/previous/1/zip"])
        #expect(try Customer.validate(Address(street: "a", zip: "12345"), forKey: "address") as? Address != nil)
        let optional = #expect(throws: ValidationError.self) { try Customer.validate(bad, forKey: "billing") }
        #expect(optional?.issues.count == 2)
        #expect(throws: ValidationError.self) { try Customer.validate("not an address", forKey: "address") }
    }

    @Test func nestedModelsAreValidatedOnDemand() throws {
        let customer = Customer(
            fullName: "Ada Lovelace", address: Address(street: "", zip: "12345"),
            previous: [Address(street: "x", zip: "1")], billing: Address(street: "y", zip: "abc"), nickname: nil,
            referrer: nil)
        #expect(customer.issues().map(\.path.jsonPointer) == ["/address/street", "/previous/0/zip", "/billing/zip"])
        #expect(customer.issues().map(\.code) == [.blank, .patternMismatch, .patternMismatch])
    }

    @Test func additionalRulesJoinTheAttributes() throws {
        #expect(Booking(guests: 2, nights: 3).isValid)
        #expect(Booking(guests: 11, nights: 3).issues().map(\.path.jsonPointer) == ["/guests"])
        #expect(Booking(guests: 1, nights: 90).issues().map(\.code) == [.custom("tooLong")])
        let error = try #require(
            decodingError {
                try JSONValueDecoder().decodeValidated(Booking.self, from: Array(#"{"guests": 1, "nights": 90}"#.utf8))
            })
        #expect(error.issues.map(\.path.jsonPointer) == ["/nights"])
    }

    @Test func invalidPatternFailsLoudlyInsteadOfTrapping() {
        let rule = Rule<String>.matches("([a-z]")
        let issues = rule.issues(for: "abc")
        #expect(issues.map(\.code) == [.custom("invalidPattern")])
        #expect(issues[0].message(in: .english).contains("is not a regular expression"))
    }
}

@Suite struct SchemaExportTests {
    @Test func clientExportsAsJSONSchema() throws {
        let schema = JSONSchemaExporter.document(for: Client.self)
        let unchecked = [
            "Client.name: normalised before its rules are checked (the schema sees the value as sent)",
            "Client.email: normalised before its rules are checked (the schema sees the value as sent)",
            "Client.email: email(international), stricter than format idn-email",
        ]
        let expected: JSONValue = [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": [
                "name": [
                    "type": "string", "minLength": 2, "maxLength": 100, "pattern": "^[\\p{L}\\p{M}\\p{Zs}]*$",
                ],
                "age": ["type": "integer", "minimum": 1, "maximum": 150],
                // Addresses may be international by default (RFC 6531), so the format is `idn-email`.
                "email": ["type": "string", "format": "idn-email"],
            ],
            "required": ["name", "age", "email"],
            // What the schema leaves out is named, not silently dropped.
            "$comment": .string("Not checked by this schema: " + unchecked.joined(separator: "; ")),
            "x-assay-unchecked": .array(unchecked.map { .string($0) }),
        ]
        #expect(schema == expected, "\(schema.jsonString(.prettyPrinted))")
        #expect(throws: SchemaExportError.self) { try JSONSchemaExporter.strictDocument(for: Client.self) }
    }

    @Test func nestedModelsGoToDefsAndOptionalsAllowNull() throws {
        let schema = JSONSchemaExporter.document(for: Customer.self)
        guard case .object(let root) = schema, case .object(let properties)? = root["properties"],
            case .object(let definitions)? = root["$defs"]
        else {
            Issue.record("not an object schema: \(schema.jsonString())")
            return
        }
        #expect(properties["address"] == ["$ref": "#/$defs/Address"])
        #expect(properties["previous"] == ["type": "array", "items": ["$ref": "#/$defs/Address"]])
        #expect(properties["billing"] == ["anyOf": [["$ref": "#/$defs/Address"], ["type": "null"]]])
        #expect(properties["nickname"] == ["type": ["string", "null"], "minLength": 1, "maxLength": 20])
        #expect(properties["role"] == ["type": "string", "enum": ["user", "admin"]])
        #expect(
            properties["tags"] == [
                "type": "array", "items": ["type": "string", "minLength": 1, "maxLength": 10], "maxItems": 5,
            ])
        #expect(properties["referrer"] == ["type": ["string", "null"]])
        #expect(root["required"] == ["full_name", "address", "previous", "referrer"])
        #expect(definitions.keys == ["Address"])
    }

    @Test func checksJSONSchemaCannotStateAreNamed() throws {
        let schema = JSONSchemaExporter.document(for: Person.self)
        guard case .object(let root) = schema, case .string(let comment)? = root["$comment"] else {
            Issue.record("no $comment: \(schema.jsonString())")
            return
        }
        #expect(comment.contains("drivingLicenceAge"))
    }

    /// One declaration, two paths: decoding the type and validating with its exported schema give the
    /// same verdict on every sample.
    @Test func exportedSchemaAndDecodingAgree() throws {
        let schema = try JSONSchema(JSONSchemaExporter.document(for: Client.self), options: .init(assertFormats: true))
        let samples = [
            #"{"name": "John Doe", "age": 35, "email": "john@doe.test"}"#,
            #"{"name": "J", "age": 35, "email": "john@doe.test"}"#,
            #"{"name": "John Doe", "age": 151, "email": "john@doe.test"}"#,
            #"{"name": "John Doe", "age": 0, "email": "john@doe.test"}"#,
            #"{"name": "John Doe", "age": 35, "email": "Hello"}"#,
            #"{"name": "John Doe", "age": "35", "email": "john@doe.test"}"#,
            #"{"name": "J@hn", "age": 35, "email": "john@doe.test"}"#,
            #"{"name": "Zoë Kravitz", "age": 150, "email": "zoe@example.test"}"#,
            #"{"age": 35, "email": "john@doe.test"}"#,
            #"{"name": null, "age": 35, "email": "john@doe.test"}"#,
            #"{"name": "Ann", "age": 1.5, "email": "ann@example.test"}"#,
            #"{"name": "Ann", "age": 1.0, "email": "ann@example.test"}"#,
            #"{"name": "Ann", "age": 20, "email": "ann@example.test", "extra": true}"#,
            #"[]"#,
        ]
        for sample in samples {
            let decodes = (try? JSONValueDecoder().decodeValidated(Client.self, from: Array(sample.utf8))) != nil
            let value = try JSONValue(parsing: sample)
            #expect(schema.isValid(value) == decodes, "\(sample)")
        }
    }

    @Test func validatedValuesExportTheirRule() {
        #expect(
            JSONSchemaExporter.document(for: Age.self) == [
                "$schema": "https://json-schema.org/draft/2020-12/schema", "type": "integer", "minimum": 1,
                "maximum": 150,
            ])
    }
}

/// A `@Validatable` type nested in another: the generated extension names it `Self`.
enum Outer {
    @Validatable
    struct Inner: Codable {
        @Validate(.range(1...3)) var level: Int
    }
}

@Suite struct NestedDeclarationTests {
    @Test func aTypeNestedInAnotherDecodesAndValidates() throws {
        let inner = try JSONDecoder().decode(Outer.Inner.self, from: Data(#"{"level": 2}"#.utf8))
        #expect(inner.level == 2)
        let error = #expect(throws: ValidationError.self) {
            try JSONDecoder().decode(Outer.Inner.self, from: Data(#"{"level": 9}"#.utf8))
        }
        #expect(error?.issues.map(\.code) == [.tooLarge])
    }
}
