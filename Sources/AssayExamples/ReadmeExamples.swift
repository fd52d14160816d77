// Every Swift snippet in README.md is copied from this file, which the build compiles;
// `ReadmeTests` fails when a README snippet is not found here word for word.

import AssayCodable
import AssayCore
import AssayGRDB
import AssayJSON
import AssayRegex
import AssaySchema
import Foundation
import GRDB
import RosterKit

enum ReadmeExamples {
    static func ruleAlone() throws {
        // README: rule-alone
        let age = Rule<Int>.range(1...150)
        try age.evaluate(35)  // returns 35

        do {
            try age.evaluate(150_000)
        } catch {
            print(error.issues[0].code)  // tooLarge
            print(error.text(in: .english))  // Value must be between 1 and 150
            print(error.text(in: .russian))  // Значение должно быть от 1 до 150
        }
        // README: end
    }

    static func combinedRules() {
        // README: combined-rules
        let name = Rule<String>.and(
            .notBlank,
            .length(2...100),
            .charset(.letters + .marks + .spaces)
        )
        for issue in name.issues(for: "R2-D2", label: "Name") {
            print(issue.code, issue.message(in: .simplifiedChinese))
            // invalidCharacters Name包含不允许的字符“2”
        }
        // README: end
    }

    static func model() {
        // README: model
        struct Player: Validatable {
            var name: String
            var age: Int

            static let validation: Validation<Player> = [
                .normalize(\.name, "name") { $0.trimmingCharacters(in: .whitespaces) },
                .property(\.name, "name", .notBlank, .length(2...50)),
                .property(\.age, "age", on: [.insert, .update], .range(16...50)),
            ]
        }

        let player = Player(name: "   ", age: 12)
        do {
            try player.validate(for: .insert)
        } catch {
            print(error.text(in: .english))
            // /name: Name must not be blank
            // /name: Name must be between 2 and 50 characters long
            // /age: Age must be between 16 and 50
        }

        // A form field, before the value is assigned: the normalised value or its issues.
        let typed = try? Player.validate("  Yao Ming ", for: \.name)  // "Yao Ming"
        // README: end
        _ = typed
    }

    static func crossProperty() {
        // README: cross-property
        struct Person: Validatable {
            var age: Int
            var hasDrivingLicense: Bool

            static let validation: Validation<Person> = [
                .property(\.age, "age", .range(0...150)),
                .check("licenceAge", when: .propertiesValid) { person, context in
                    if person.hasDrivingLicense && person.age < 16 {
                        context.report(
                            .custom("tooYoungToDrive"), at: "hasDrivingLicense",
                            message: [
                                .english: "Person is too young to have a driving license.",
                                .russian: "Человек слишком молод, чтобы иметь водительские права.",
                            ])
                    }
                },
            ]
        }
        print(Person(age: 12, hasDrivingLicense: true).issues()[0].message(in: .russian))
        // Человек слишком молод, чтобы иметь водительские права.
        // README: end
    }

    static func reporting(error: ValidationError) {
        // README: reporting
        for group in error.groupedByPath {  // one entry per form field
            print(group.path.jsonPointer, group.issues.map(\.message))
        }
        print(error.json())  // {"valid":false,"errors":[{"instanceLocation":"/age",…}]}
        let nsError = error.nsError  // NSCocoaErrorDomain 1560 with NSDetailedErrors, as Core Data
        print(nsError.code)
        // README: end
    }

    static func catalogs() {
        // README: catalogs
        let german = Language("de")!
        let catalog = MessageCatalog.builtIn.merging(
            MessageCatalog([
                german: ["subject.none": "Wert", "range": "{subject} muss zwischen {minimum} und {maximum} liegen"],
                .russian: ["label.age": "возраст"],
            ]))
        let issue = Rule<Int>.range(16...50).issues(for: 12, at: ["age"])[0]
        print(issue.message(in: .russian, catalog: catalog))  // Значение поля «возраст» должно быть от 16 до 50
        MessageCatalog.withCurrent(catalog) {
            print(Rule<Int>.range(1...2).issues(for: 3)[0].message(in: german))  // Wert muss zwischen 1 und 2 liegen
        }
        // README: end
    }

    static func email() {
        // README: email
        let validator = EmailAddressValidator()  // RFC 6531 on; quoted local parts and literals off
        print(validator.rejection(for: "john..doe@example.com") as Any)  // Optional(consecutiveDots)
        print(validator.isValid("почта@пример.рф"))  // true
        print(EmailAddressValidator(options: .ascii).isValid("почта@пример.рф"))  // false
        print(EmailAddressValidator(options: .rfc).isValid("\"john doe\"@[192.0.2.1]"))  // true
        // README: end
    }

    static func patterns() throws {
        // README: patterns
        let regex = try LinearRegex("^(a+)+$")  // ECMA-262 syntax
        print(regex.firstMatchExists(in: String(repeating: "a", count: 100_000) + "!"))  // false, in linear time
        let code = try LinearRegex("(?<=#)[a-z]+\\d*", options: [.ignoreCase])  // the i, m and s flags
        let text = "Order #AB12, shipped"
        print(code.firstMatch(in: text).map { text[$0] } ?? "none")  // AB12: the match RegExp.exec finds
        do {
            _ = try LinearRegex("(a)\\1")
        } catch {
            print(error)  // … backreferences are not supported by the linear-time engine
        }
        // README: end
    }

    static func jsonParsing() throws {
        // README: json-parsing
        let text = #"{"name": "Анна", "age": "35", "tags": ["a", 1, "b"], "score": 0.1}"#
        let document = try JSONDocument(parsing: Array(text.utf8))  // strict RFC 8259, read in place
        print(document.root["name"]?.string ?? "")  // Анна
        print(document.root["age"]?.int as Any)  // nil: "35" is a string
        print(document.root["missing"]?.string as Any)  // nil, never a trap

        let value = document.value  // an owned JSONValue tree
        print(value["age"]?.int(.lax) as Any)  // Optional(35): the lax table converts "35"
        print(value["tags"]?.strings ?? [])  // ["a", "b"]
        print(value[pointer: "/tags/2"] as Any)  // Optional("b")
        print(value == (try JSONValue(parsing: #"{"score":1e-1,"tags":["a",1.0,"b"],"age":"35","name":"Анна"}"#)))
        // true: numbers by value, objects in any order

        do {
            _ = try JSONDocument(parsing: Array("{\"a\": [1, 2,]}".utf8))
        } catch {
            print(error.reason, error.line, error.column)  // trailingComma 1 12
            print(error.excerpt)  // {"a": [1, 2,]}
            //           ^
        }
        // README: end
    }

    static func jsonLines(path: String) throws {
        // README: json-lines
        var reader = try NDJSONReader(path: path)  // constant memory; CRLF, BOM, blank lines handled
        while let record = try reader.next() {
            do {
                let document = try record.parse()
                print(record.line, document.root["name"]?.string ?? "")
            } catch {
                // Reported, and the stream goes on:
                print("line \(error.line), column \(error.column): \(error.detail)")
            }
        }
        // README: end
    }

    static func jsonDecoding() {
        // README: json-decoding
        struct Client: Decodable {
            var name: String
            var age: Int
            var managerId: String?
        }
        var decoder = JSONValueDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let input =
            "[\n  {\"name\": \"Ann\", \"age\": 35},\n  {\"name\": \"Bob\", \"age\": \"40\", \"manager_id\": null}\n]"
        do {
            _ = try decoder.decode([Client].self, from: Array(input.utf8))
        } catch {
            print(error)  // /1/age ([1].age), line 3, column 26: expected Int, found string "40"
        }
        decoder.mode = .lax
        if let (clients, coercions) = try? decoder.decodeReportingCoercions([Client].self, from: Array(input.utf8)) {
            print(clients[1].age)  // 40
            print(coercions[0].path.jsonPointer, coercions[0].message(in: .english))
            // /1/age Age was converted from string to integer
        }
        // README: end
    }

    static func jsonSchema() throws {
        // README: json-schema
        let schema = try JSONSchema(
            parsing: """
                {"type": "object", "required": ["name", "email"],
                 "properties": {"name": {"type": "string", "minLength": 2},
                                "email": {"type": "string", "format": "email"},
                                "age": {"$ref": "#/$defs/age"}},
                 "$defs": {"age": {"type": "integer", "minimum": 1, "maximum": 150}}}
                """,
            options: .init(assertFormats: true))  // formats are annotations unless asserted
        let result = schema.validate(try JSONValue(parsing: #"{"name": "A", "age": 200}"#))
        for error in result.errors {
            print(error.instanceLocation, error.keywordLocation, error.message(in: .english))
        }
        // /email /required Email is required
        // /name /properties/name/minLength Name must be at least 2 characters long
        // /age /properties/age/$ref/maximum Age must be at most 150
        print(result.output(.basic)["errors"]?[2]?["absoluteKeywordLocation"] ?? "")
        // "urn:assay:schema#/$defs/age/maximum"
        // README: end
    }

    static func codable() throws {
        // README: codable-decode
        let payload = """
            [{"name": " Ann Lee ", "age": 35, "email": " Ann@Example.test "},
             {"name": "J", "age": 150000, "email": "Hello", "tags": ["a", ""]},
             {"age": "35", "email": null}]
            """
        do {
            _ = try JSONValueDecoder().decodeValidated([Member].self, from: Array(payload.utf8))
        } catch {
            print(error.text(in: .english))
        }
        let valid = #"{"name": " Ann Lee ", "age": 35, "email": " Ann@Example.test "}"#
        var member = try JSONDecoder().decodeValidated(Member.self, from: Data(valid.utf8)).value
        print(member.name, member.email)  // Ann Lee ann@example.test
        member.age = 0
        print(member.issues().map(\.path.jsonPointer))  // ["/age"]
        print((try? Member.validate("  Zoë  ", for: \.name)) ?? "")  // Zoë

        print(JSONSchemaExporter.document(for: Member.self).jsonString(.prettyPrinted))
        // README: end
    }
}

// README: codable-model
@Validatable
struct Member: Codable {
    @Normalize(.trimmed) @Validate(.length(2...100), .charset(.letters + .marks + .spaces))
    var name: String
    @Validate(.range(1...150)) var age: Int
    @Normalize(.trimmed, .lowercased) @Validate(.email()) var email: String
    @Validate(.count(...5), .each(.length(1...20))) var tags: [String] = []
}
// README: end

/// The README's AssayGRDB snippet, on a database of its own.
enum StoreExample {
    // README: grdb
    @Validatable
    struct Team: Codable, FetchableRecord, MutablePersistableRecord, ValidatedRecord {
        var id: Int64?
        @Normalize(.trimmed) @Validate(.length(2...40)) var name: String

        static let storeRules: StoreRules<Team> = [
            .unique("name"),  // backed by a unique index: Team.createStoreIndexes(db)
            .hasMany(Player.self, column: "team", key: "name", as: "players", maximum: 15, onDelete: .deny),
        ]
    }

    @Validatable
    struct Player: Codable, FetchableRecord, MutablePersistableRecord, ValidatedRecord {
        var id: Int64?
        @Normalize(.trimmed) @Validate(.length(2...50)) var name: String
        @Validate(.range(16...50)) var age: Int
        var team: String

        static let storeRules: StoreRules<Player> = [.belongsTo(Team.self, column: "team", key: "name")]
    }

    static func save(_ imported: [Player], to dbQueue: DatabaseQueue) throws {
        do {
            try dbQueue.write { db in
                var player = Player(name: "B", age: 12, team: "Knicks")
                try player.insert(db)  // throws every issue; the transaction rolls back
            }
        } catch {
            print(error)  // /name: …, /age: …, /team: Team refers to a team that does not exist
        }

        var changes = ChangeSet()  // the scratch pad: staged records may be invalid
        for (index, player) in imported.enumerated() { changes.insert(player, label: "players[\(index)]") }
        let issues = try dbQueue.read { db in try changes.issues(db) }  // on demand; writes nothing
        print(issues.count)
        try changes.save(to: dbQueue)  // validates everything, then writes all or nothing

        let fetched = try dbQueue.read { db in try Player.fetchAllValidated(db, policy: .skip) }
        // The rows read back from disk, checked again:
        print(fetched.records.count, fetched.issues)
    }
    // README: end

    /// Runs the snippet on a database in memory, with the roster example's tables (the same as these
    /// types').
    static func run() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try RosterKit.Roster.createTables(db)
            var lakers = Team(name: "Lakers")
            try lakers.insert(db)
        }
        try save([Player(name: " LeBron James ", age: 39, team: "Lakers")], to: dbQueue)
    }
}
