// Every Swift snippet in the DocC articles (Sources/*/Documentation.docc/*.md) is copied from this
// file, which the build compiles, with the same markers as ReadmeExamples.swift; `ReadmeTests` fails
// when an article's snippet is not found here word for word. `swift run assay-examples --readme`
// runs them too: what they print is checked against their comments.

import AssayCLI
import AssayCodable
import AssayCore
import AssayGRDB
import AssayGenerator
import AssayHTTP
import AssayJSON
import AssayRegex
import AssaySchema
import Foundation
import GRDB

enum DocCExamples {
    static func runAll() throws {
        try cli()
        CodableArticle.run()
        core()
        try languages()
        try valueType()
        try json()
        try schema()
        try registry()
        try verboseOutput()
        try StoreArticle.run()
        try generator()
        try valueEncoder()
        try schemaRule()
    }

    static func valueEncoder() throws {
        // README: doc-json-value-encoder
        struct Point: Codable { var x: Int; var label: String? }
        let value = try JSONValueEncoder().encode([Point(x: 1, label: "a"), Point(x: 2, label: nil)])
        print(value.jsonString())  // [{"x":1,"label":"a"},{"x":2}]
        // README: end
    }

    static func schemaRule() throws {
        // README: doc-schema-rule
        let either = try JSONSchema(parsing: #"{"anyOf": [{"maxLength": 3}, {"pattern": "^[0-9]+$"}]}"#)
        let code = Rule<String>.schema(either)
        print(code.isValid("abc"), code.isValid("12345"), code.isValid("abcd"))  // true true false
        // README: end
    }

    static func generator() throws {
        // README: doc-swift-generator
        let schema = try JSONValue(
            parsing: Array(
                #"""
                {"title": "Client", "type": "object", "required": ["name", "age"],
                 "properties": {"name": {"type": "string", "minLength": 2},
                                "age": {"type": "integer", "minimum": 1, "maximum": 150}}}
                """#.utf8))
        let generated = try SwiftGenerator.generate(schema, options: SwiftGeneratorOptions(sourceName: "client.json"))
        print(generated.source.contains("@Validate(.range(1...150))"))  // true
        // README: end
    }

    static func cli() throws {
        // README: docc-cli
        let output = ByteSink()
        var context = CommandContext.process()
        context.standardOutput = output
        context.standardError = ByteSink()  // the summary line, kept out of this example's output
        let status = AssayTool.main(
            [
                "validate", "--schema", "Examples/clients/client.schema.json", "--format", "json",
                "Examples/clients/clients.ndjson",
            ],
            context: context)
        // status: 0 all valid, 1 something invalid, 2 usage error, unreadable input or bad schema
        print(status)  // 1
        print(output.text.split(separator: "\n").count)  // 1000: one JSON object per record
        // README: end
    }

    static func core() {
        // README: docc-core
        struct Client: Validatable {
            var name: String
            var age: Int
            var email: String

            static let validation: Validation<Client> = [
                .normalize(\.name, "name") { $0.trimmingCharacters(in: .whitespaces) },
                .property(\.name, "name", .length(2...100), .charset(.letters + .marks + .spaces)),
                .property(\.age, "age", .range(1...150)),
                .property(\.email, "email", .email()),
            ]
        }

        do {
            try Client(name: "J", age: 150_000, email: "Hello").validate()
        } catch {
            print(error.text(in: .english))
            // /name: Name must be between 2 and 100 characters long
            // /age: Age must be between 1 and 150
            // /email: Email must be a valid email address: it has no @ sign
        }
        // README: end
    }

    static func languages() throws {
        let issue = Rule<Int>.range(16...50).issues(for: 12, label: "Age")[0]
        let german = Language("de") ?? .english
        let appCatalog = MessageCatalog.current.merging(
            MessageCatalog([german: ["tooSmall": "{subject} muss mindestens {minimum} sein"]]))
        // README: docc-language-source
        let source = LanguageSource.preferredLanguages(["de-CH", "ru-RU", "en"])
        print(source.language())  // ru
        print(source.language(in: appCatalog))  // de: the app's catalog has German
        print(Language.withSource(source) { issue.message })  // Значение поля «Age» должно быть от 16 до 50
        // README: end

        // README: docc-rule-message
        let age = Rule<Int>.range(16...50).message([
            .english: "Player's age should be in [{minimum}, {maximum}].",
            .russian: "Возраст игрока должен быть в пределах [{minimum}, {maximum}].",
        ])
        print(age.issues(for: 12)[0].message(in: .russian))  // Возраст игрока должен быть в пределах [16, 50].
        // README: end
    }

    static func valueType() throws {
        // README: docc-value-type
        struct Age {
            let value: Int
            static let rule = Rule<Int>.range(1...150)
            init(_ value: Int) throws(ValidationError) { self.value = try Age.rule.evaluate(value) }
        }
        print(try Age(35).value)  // 35
        print((try? Age(200)) == nil)  // true
        // README: end
    }

    static func json() throws {
        // README: docc-json
        let document = try JSONDocument(parsing: Array(#"{"name":"Анна","age":"35","tags":["a",1]}"#.utf8))
        print(document.root["name"]?.string ?? "-")  // Анна
        print(document.root["age"]?.int as Any)  // nil: a string, and access is strict
        print(document.value["age"]?.int(.lax) as Any)  // Optional(35): converted from "35"
        print(document.value["tags"]?.strings ?? [])  // ["a"]: elements of other types are skipped

        do {
            _ = try JSONDocument(parsing: Array("[1, 2,]".utf8))
        } catch {
            print(error)
            // line 1, column 6: trailing comma before "]"
            // [1, 2,]
            //      ^
        }
        // README: end
    }

    static func schema() throws {
        // README: docc-schema
        let schema = try JSONSchema(
            parsing: """
                {"type": "object", "required": ["name", "age"],
                 "properties": {"name": {"type": "string", "minLength": 2},
                                "age": {"type": "integer", "minimum": 1, "maximum": 150}}}
                """)
        let result = schema.validate(try JSONValue(parsing: #"{"name": "A", "age": 200}"#))
        for error in result.errors {
            print(error.instanceLocation, error.keywordLocation, error.message)
        }
        // /name /properties/name/minLength Name must be at least 2 characters long
        // /age /properties/age/maximum Age must be at most 150
        // README: end

        // README: docc-schema-tape
        let document = try JSONDocument(parsing: #"{"name": "Ada", "age": 36}"#)
        print(schema.isValid(document))  // true: without building a tree
        // README: end
    }

    static func registry() throws {
        let addressSchema = #"{"type": "object", "required": ["city"]}"#
        let text = #"{"$ref": "https://schemas.example.com/address.json"}"#
        // README: docc-registry
        var registry = SchemaRegistry()
        // 1. Documents registered in advance.
        registry.register(try JSONValue(parsing: addressSchema), as: "https://schemas.example.com/address.json")
        // 2. A folder mapped to a URI prefix: https://schemas.example.com/v2/a/b.json → schemas/v2/a/b.json
        registry.map(prefix: "https://schemas.example.com/v2/", toDirectory: "schemas/v2")
        // 3. A loader of your own, for anything else (a cache, or the network if you choose).
        registry.setLoader { uri in nil }
        let schema = try JSONSchema(parsing: text, options: .init(registry: registry))
        print(schema.isValid(try JSONValue(parsing: #"{"city": "Oslo"}"#)))  // true
        // README: end
    }

    static func verboseOutput() throws {
        // README: docc-verbose-output
        let schema = try JSONSchema(
            parsing: #"""
                {"$id": "https://example.com/polygon", "type": "object",
                 "properties": {"validProp": true}, "additionalProperties": false}
                """#)
        let instance = try JSONValue(parsing: #"{"validProp": 5, "disallowedProp": "value"}"#)
        let verbose = schema.verboseOutput(for: instance)
        print(verbose.jsonString())
        // {"valid": false, "keywordLocation": "", "instanceLocation": "", …, "errors": [
        //   {"valid": true, "keywordLocation": "/type", …},
        //   {"valid": true, "keywordLocation": "/properties", …, "annotations": [
        //     {"valid": true, "keywordLocation": "/properties/validProp", "instanceLocation": "/validProp", …}]},
        //   {"valid": false, "keywordLocation": "/additionalProperties", …, "errors": [
        //     {"valid": false, "instanceLocation": "/disallowedProp", "code": "unknownKey",
        //      "error": "“disallowedProp” is not an allowed key", …}]}]}
        // README: end
    }
}

/// The AssayCodable article's snippets.
enum CodableArticle {
    // README: docc-codable-model
    @Validatable
    struct Client: Codable {
        @Normalize(.trimmed) @Validate(.length(2...100), .charset(.letters + .marks + .spaces))
        var name: String
        @Validate(.range(1...150)) var age: Int
        @Normalize(.trimmed) @Validate(.email()) var email: String
    }
    // README: end

    static func run() {
        let bytes = Array(
            #"""
            [{"name": "Ann Lee", "age": 35, "email": "ann@example.test"},
             {"name": "J", "age": 150000, "email": "j@example.test"},
             {"name": "Bo Li", "age": "35", "email": "bo@example.test"},
             {"age": 20, "email": "x@example.test"}]
            """#.utf8)
        // README: docc-codable
        do {
            let clients = try JSONValueDecoder().decodeValidated([Client].self, from: bytes).value
            print(clients.count)
        } catch {
            // Every bad field of every record, each with its path:
            print(error.text(in: .english))
            // /1/name: Name must be between 2 and 100 characters long
            // /1/age: Age must be between 1 and 150
            // /2/age: Age must be of type Int
            // /3/name: Name is required
        }
        // README: end
    }
}

/// The AssayGRDB article's snippets, on a database of their own.
enum StoreArticle {
    // README: docc-grdb-types
    struct Team: Codable, FetchableRecord, MutablePersistableRecord, ValidatedRecord {
        var id: Int64?
        var name: String

        static let validation: Validation<Team> = [
            .normalize(\.name, "name", .trimmed),
            .property(\.name, "name", .length(2...40)),
        ]
        static let storeRules: StoreRules<Team> = [
            .unique("name"),
            .hasMany(Player.self, column: "teamId", as: "players", maximum: 15, onDelete: .deny),
        ]
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct Player: Codable, FetchableRecord, MutablePersistableRecord, ValidatedRecord {
        var id: Int64?
        var name: String
        var age: Int
        var teamId: Int64

        static let validation: Validation<Player> = [
            .normalize(\.name, "name", .trimmed),
            .property(\.name, "name", .length(2...50)),
            .property(\.age, "age", .range(16...50)),
        ]
        static let storeRules: StoreRules<Player> = [.belongsTo(Team.self, column: "teamId")]
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }
    // README: end

    /// The tables of the article's two records.
    static func createTables(_ db: Database) throws {
        try db.create(table: "team") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
        }
        try db.create(table: "player") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
            t.column("age", .integer).notNull()
            t.column("teamId", .integer).notNull().references("team")
        }
    }

    static func run() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try createTables(db)
            // README: docc-grdb-migration
            // In a migration: the unique index that backs `.unique("name")`, and an index on player.teamId.
            try Team.createStoreIndexes(db)
            // README: end
        }

        // README: docc-grdb-insert
        do {
            try dbQueue.write { db in
                var player = Player(id: nil, name: "  Ann ", age: 12, teamId: 99)
                try player.insert(db)
            }
        } catch let error as ValidationError {
            print(error.text(in: .english))
            // /age: Age must be between 16 and 50
            // /teamId: TeamId refers to a team that does not exist
        }
        // README: end

        let imported = [Team(name: " Rockets "), Team(name: "Bulls")]
        // README: docc-grdb-change-set
        var changes = ChangeSet()
        for (index, team) in imported.enumerated() {
            changes.insert(team, label: "teams[\(index)]")  // names the record in issues until it has an id
        }
        let saved = try changes.save(to: dbQueue)  // all or nothing
        print(try saved.inserted(Team.self).map(\.name))  // ["Rockets", "Bulls"]
        // README: end

        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (name, age, teamId) VALUES ('Old', 70, 1), ('Ann', 30, 1)")
        }
        try dbQueue.read { db in
            // README: docc-grdb-fetch
            let fetched = try Player.fetchAllValidated(db, Player.order(Column("name")), policy: .skip)
            print(fetched.records.map(\.name))  // ["Ann"]
            for issue in fetched.issues {
                print(issue.object?.description ?? "", issue.message)  // player#1 Age must be between 16 and 50
            }
            // README: end
        }
    }
}

/// The doc comments' examples (a `/// <!-- snippet: NAME -->` line above the block), compiled here.
enum DocCommentExamples {
    static func runAll() throws {
        rule()
        core()
        try jsonAndSchemas()
        try codableAndTool()
        HandDecodedPlayer.run()
        try decoding()
        try store()
        http()
    }

    static func http() {
        // README: doc-accept-language
        let header = AcceptLanguage("de-CH, ru-RU;q=0.8, en;q=0.5")
        print(header.language())  // ru: Assay has no German messages
        print(AcceptLanguage("zh-CN,zh;q=0.9").language())  // zh-Hans
        print(AcceptLanguage(nil).language(default: .russian))  // ru
        // README: end

        // README: doc-problem-details
        var error = ValidationError()
        error.append(
            ValidationIssue(
                code: .tooShort, path: IssuePath.root.appending(key: "name"),
                parameters: ["minimum": 2], value: "A"))
        let problem = ProblemDetails(validation: error, language: AcceptLanguage("ru").language())
        print(problem.status)  // 422
        print(problem.errors[0].pointer)  // /name
        print(String(decoding: problem.body(), as: UTF8.self).contains("\"code\":\"tooShort\""))  // true
        // README: end

        typealias Client = CodableArticle.Client
        // README: doc-request-content
        let body = RequestContent(
            Array(#"{"name": "A", "age": 200, "email": "ann@example.com"}"#.utf8),
            contentType: "application/json", acceptLanguage: "ru", instance: "/clients")
        do {
            _ = try body.decode(Client.self, for: .insert)
        } catch let problem {
            print(problem.status, problem.errors.map(\.pointer))  // 422 ["/name", "/age"]
        }
        // README: end
    }

    static func rule() {
        // README: doc-rule
        let age = Rule<Int>.range(1...150)
        print((try? age.evaluate(35)) ?? 0)  // 35
        do {
            try age.evaluate(150_000)
        } catch {
            print(error.text(in: .english))  // Value must be between 1 and 150
        }
        // README: end

        // README: doc-rule-custom
        let even = Rule<Int>(.custom("even")) { value, context in
            if value % 2 != 0 { context.report(.custom("even"), value: value, message: "{subject} must be even") }
        }
        print(even.issues(for: 3, label: "Count")[0].message(in: .english))  // Count must be even
        // README: end
    }

    static func core() {
        let issue = Rule<String>.length(...5).issues(for: "abcdefg", label: "Code")[0]
        // README: doc-issue-code
        switch issue.code {
        case .tooLong, .tooShort: print("length")  // length
        case _ where issue.code.identifier == "invalidFormat": print("format")
        default: break
        }
        // README: end

        struct Player: Validatable {
            var age: Int
            static let validation: Validation<Player> = [.property(\.age, "age", .range(16...50))]
        }
        let player = Player(age: 12)
        // README: doc-validation-error
        do {
            try player.validate(for: .insert)
        } catch {
            for issue in error.issues {
                print(issue.path.jsonPointer, issue.message)  // /age Age must be between 16 and 50
            }
            print(error.json())  // {"valid":false,"errors":[{"instanceLocation":"/age"
        }
        // README: end

        // README: doc-validation-issue
        do {
            try Rule<Int>.range(16...50).evaluate(12)
        } catch {
            let issue = error.issues[0]
            print(issue.code)  // tooSmall
            print(issue.message(in: .russian))  // Значение должно быть от 16 до 50
        }
        // README: end

        // README: doc-message-catalog
        let german = Language("de") ?? .english
        let catalog = MessageCatalog.builtIn.merging(
            MessageCatalog([
                .english: ["tooLong": "{subject} is too long"],
                german: ["tooLong": "{subject} ist zu lang"],
            ]))
        print(issue.message(in: german, catalog: catalog))  // Code ist zu lang
        MessageCatalog.withCurrent(catalog) {
            print(issue.message(in: .english))  // Code is too long: every message rendered inside uses it
        }
        // README: end

        // README: doc-message-template
        let rule = Rule<Int>.range(16...50)
            .message([
                .english: "Player's age should be in [16, 50].",
                .russian: "Возраст игрока должен быть от 16 до 50.",
            ])
        print(rule.issues(for: 12)[0].message(in: .english))  // Player's age should be in [16, 50].
        // README: end

        // README: doc-issue-path
        let path: IssuePath = ["clients", 1, "age"]
        print(path.jsonPointer)  // /clients/1/age
        print(path.codingPath)  // clients[1].age
        // README: end

        // README: doc-character-class
        // Seed 002's names: letters from every alphabet (with their combining marks) and spaces.
        let nameCharacters: CharacterClass = .letters + .marks + .spaces
        print(Rule<String>.charset(nameCharacters).isValid("Zoë Ångström"))  // true
        // README: end

        // README: doc-format-rule
        let signup = Rule<String>.format(.dateTime)
        print(signup.isValid("2026-11-26T08:00:00Z"))  // true
        // README: end

        // README: doc-custom-rule
        let even = Rule<Int>.custom("even", message: "{subject} must be even") { $0 % 2 == 0 }
        print(even.isValid(4), even.isValid(3))  // true false
        // README: end

        // README: doc-rule-exactly-one
        let code = Rule<String>.exactlyOne(.matches("^[A-Z]+$"), .length(...3))
        print(code.isValid("ABCD"), code.isValid("ab"), code.isValid("ABC"))  // true true false
        // README: end

        // README: doc-language-source
        // What an app on Apple platforms gets by default, written out:
        let source = LanguageSource.preferredLanguages(["de-CH", "ru-RU", "en"])
        print(source.language())  // ru: Assay has no German messages, unless a catalog adds them
        // README: end

        // README: doc-text-format
        print(TextFormat.dateTime.isValid("2026-11-26T08:00:00Z"))  // true
        print(TextFormat.ipv4.isValid("256.0.0.1"))  // false
        // README: end

        // README: doc-email
        let validator = EmailAddressValidator()
        print(validator.rejection(for: "john@doe.test") as Any)  // nil: valid
        print(validator.rejection(for: "john..doe@doe.test") as Any)  // Optional(consecutiveDots)
        print(validator.rejection(for: "почта@пример.рф") as Any)  // nil: valid (RFC 6531)
        let ascii = EmailAddressValidator(options: .ascii)
        print(ascii.rejection(for: "почта@пример.рф") as Any)  // Optional(nonASCIINotAllowed)
        // README: end
    }

    static func jsonAndSchemas() throws {
        // README: doc-json-decoder
        struct Client: Decodable { var name: String; var age: Int; var managerId: String? }
        var decoder = JSONValueDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let client = try decoder.decode(Client.self, from: Array(#"{"name":"Ann","age":35,"manager_id":null}"#.utf8))
        print(client.name, client.age)  // Ann 35
        // README: end

        // README: doc-json-document
        let document = try JSONDocument(parsing: Array(#"{"name":"John","age":35}"#.utf8))
        print(document.root["age"]?.int ?? 0)  // 35
        print(document.root["name"]?.string ?? "")  // John
        // README: end

        // README: doc-ndjson-reader
        var reader = try NDJSONReader(path: "Examples/seeds/clients.ndjson")
        while let record = try reader.next() {
            do {
                let document = try record.parse()
                _ = document
            } catch {
                print("line \(record.line): \(error.detail)")
            }
        }
        // README: end

        // README: doc-json-value
        let value: JSONValue = ["name": "John Doe", "age": 35, "tags": ["a", "b"]]
        print(value["age"]?.int ?? 0)  // 35
        print(value["missing"]?.string as Any)  // nil: never a trap
        print(value.jsonString(.sortedKeys))  // {"age":35,"name":"John Doe","tags":["a","b"]}
        // README: end

        // README: doc-linear-regex
        let regex = try LinearRegex("^(a+)+$")
        print(regex.firstMatchExists(in: String(repeating: "a", count: 100_000) + "!"))  // false: at once
        // README: end

        // README: doc-regex-options
        let code = try LinearRegex("^[a-z]{2}-\\d+$", options: [.ignoreCase])
        print(code.firstMatchExists(in: "AB-12"))  // true
        // README: end

        // README: doc-regex-match
        let digits = try LinearRegex("\\d+")
        let text = "order 66, item 7"
        if let match = digits.firstMatch(in: text) { print(text[match]) }  // 66
        // README: end

        let addressSchema = #"{"type": "object", "required": ["city"]}"#
        // README: doc-schema-registry
        var registry = SchemaRegistry()
        registry.register(try JSONValue(parsing: addressSchema), as: "https://example.com/address.json")
        registry.map(prefix: "http://localhost:1234/", toDirectory: "Tests/remotes")
        // README: end
        _ = registry

        // README: doc-json-schema
        let schema = try JSONSchema(parsing: #"{"type": "object", "required": ["name"]}"#)
        let result = schema.validate(try JSONValue(parsing: #"{"age": 3}"#))
        print(result.isValid)  // false
        print(result.errors[0].message)  // Name is required
        // README: end
    }

    static func codableAndTool() throws {
        var context = CommandContext.process()
        context.standardOutput = ByteSink()
        context.standardError = ByteSink()
        // README: doc-assay-tool
        let status = AssayTool.main(
            ["validate", "--schema", "Examples/clients/client.schema.json", "Examples/clients/clients.ndjson"],
            context: context)
        print(status)  // 1: some records are invalid
        // README: end

        typealias Client = CodableArticle.Client
        // README: doc-schema-export
        let schema = JSONSchemaExporter.document(for: Client.self)
        print(schema.jsonString(.prettyPrinted))
        // README: end

        try decodeQuantities()

        decodeCodecs()
        decodeMarks()

        checkPayments()

        checkShipping()

        try decodeSteps()

        try decodeLabels()

        decodeSettings()

        try readPatches()

        // README: doc-validated-value
        struct Age: ValidatedValue {
            static let rule = Rule<Int>.range(1...150)
            let rawValue: Int
            init(checked: Checked<Int>) { rawValue = checked.rawValue }
        }

        print(try Age.evaluated(35))  // 35
        do {
            _ = try Age(151)
        } catch {
            print(error.text(in: .english))  // Value must be between 1 and 150
        }
        // README: end

        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "note") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("text", .text).notNull()
                t.column("createdAt", .datetime).notNull()
            }
            var note = Note(text: "  Buy milk ")
            try note.insert(db)
            print(note.text)  // Buy milk
        }
    }

    static func decoding() throws {
        typealias Client = CodableArticle.Client
        let bytes = Array(
            #"""
            [{"name": "Ann Lee", "age": 35, "email": "ann@example.test"},
             {"name": "Bo Li", "age": 200, "email": "bo@example.test"}]
            """#.utf8)
        // README: doc-decode-validated
        do {
            let clients = try JSONValueDecoder().decodeValidated([Client].self, from: bytes).value
            print(clients.count)
        } catch {
            for issue in error.issues {
                print(issue.path.jsonPointer, issue.message)  // /1/age Age must be between 1 and 150
            }
        }
        // README: end

        // README: doc-decode-elements
        let outcomes = try JSONValueDecoder().decodeValidatedElements(Client.self, from: bytes)
        for case .failure(let error) in outcomes {
            print(error.text(in: .english))  // /1/age: Age must be between 1 and 150
        }
        let clients = outcomes.compactMap { try? $0.get() }
        print(clients.map(\.name))  // ["Ann Lee"]
        // README: end
    }

    static func store() throws {
        typealias Team = StoreArticle.Team
        typealias Player = StoreArticle.Player
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try StoreArticle.createTables(db)
            try Team.createStoreIndexes(db)
            _ = try Team(name: "Lakers").inserted(db)
            _ = try Team(name: "Celtics").inserted(db)
        }
        let oldTeam = Team(id: 1, name: "Lakers")
        let roster = [Player(name: "Ann Lee", age: 30, teamId: 2)]
        // README: doc-change-set
        var changes = ChangeSet()
        changes.insert(Team(name: "Rockets"))
        for player in roster { changes.insert(player) }
        changes.delete(oldTeam)

        let issues = try dbQueue.read { db in try changes.issues(db) }  // on demand, writes nothing
        print(issues.isEmpty)  // true
        let saved = try changes.save(to: dbQueue)  // validates everything, then writes it in one transaction
        print(try saved.inserted(Team.self).map(\.id))  // [Optional(3)]: with their ids
        changes.discard()
        // README: end

        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name, age, teamId) VALUES ('Kid', 12, 2)") }
        try dbQueue.read { db in
            // README: doc-fetch-cursor
            let rows = try Player.fetchCursorValidated(db, Player.all())
            while let row = try rows.next() {
                if let player = row.record, row.isValid {
                    print(player.name)  // Ann Lee
                } else {
                    print(row.issues.map(\.message))  // ["Age must be between 16 and 50"]
                }
            }
            // README: end

            // README: doc-fetch-all
            let fetched = try Player.fetchAllValidated(db, policy: .skip)
            for issue in fetched.issues {
                print(issue.object?.description ?? "", issue.message)  // player#2 Age must be between 16 and 50
            }
            print(fetched.records.map(\.name))  // ["Ann Lee"]
            // README: end
        }
    }
}

/// A record with a `willInsert` of its own (the example of `Validation.normalized(_:)`).
struct Note: Codable, FetchableRecord, MutablePersistableRecord, ValidatedRecord {
    var id: Int64?
    var text: String
    var createdAt: Date?

    static let validation: Validation<Note> = [
        .normalize(\.text, "text", .trimmed), .property(\.text, "text", .notBlank),
    ]

    // README: doc-normalized
    mutating func willInsert(_ db: Database) throws {
        createdAt = createdAt ?? Date()
        self = Self.validation.normalized(self)  // what the default callback does
    }
    // README: end

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

// README: doc-union-decoding
enum Quantity: Codable, Sendable, Hashable {
    case integer(Int)
    case string(String)

    init(from decoder: any Decoder) throws {
        switch try UnionDecoding.kind(of: decoder, among: [.integer, .string]) {
        case .integer: self = .integer(try UnionDecoding.decode(Int.self, from: decoder, rule: .range(0...)))
        default: self = .string(try UnionDecoding.decode(String.self, from: decoder, rule: .length(1...3)))
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .integer(let value): try value.encode(to: encoder)
        case .string(let value): try value.encode(to: encoder)
        }
    }
}

// The same rules on demand (and on save): the case's value, checked at the enum's place.
extension Quantity: Validatable {
    static let validation: Validation<Quantity> = [
        .payload { quantity in
            switch quantity {
            case .integer(let value): .value(value, rule: .range(0...))
            case .string(let value): .value(value, rule: .length(1...3))
            }
        }
    ]
}

func decodeQuantities() throws {
    let decoder = JSONValueDecoder()
    let decoded = try decoder.decodeValidated([Quantity].self, from: Array(#"[2, "abc"]"#.utf8)).value
    print(decoded == [.integer(2), .string("abc")])  // true
    do {
        _ = try decoder.decodeValidated([Quantity].self, from: Array(#"[-1, "abcd", true]"#.utf8))
    } catch {
        print(error.issues.map(\.path.jsonPointer))  // ["/0", "/1", "/2"]
    }
    print(Quantity.string("abcd").issues().map(\.code))  // [tooLong]
}
// README: end

// README: doc-union-closed
@Validatable(unknownKeys: .reject)
struct BytesCodec: Codable, Sendable, Hashable {
    @Validate(.const("bytes")) var codec: String
}

@Validatable(unknownKeys: .reject)
struct TextCodec: Codable, Sendable, Hashable {
    @Validate(.const("text")) var codec: String
    @Validate(.length(1...)) var charset: String
}

// `{"oneOf": [bytes, text], "unevaluatedProperties": false}`
enum Codec: Codable, Sendable, Hashable {
    case bytes(BytesCodec)
    case text(TextCodec)

    init(from decoder: any Decoder) throws {
        self = try UnionDecoding.closed(decoder) { () throws(ValidationError) -> Self in
            switch try UnionDecoding.tag(of: decoder, key: "codec", among: ["bytes", "text"]) {
            case "bytes": .bytes(try UnionDecoding.decode(BytesCodec.self, from: decoder))
            default: .text(try UnionDecoding.decode(TextCodec.self, from: decoder))
            }
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .bytes(let value): try value.encode(to: encoder)
        case .text(let value): try value.encode(to: encoder)
        }
    }
}

func decodeCodecs() {
    func places(_ json: String) -> [String] {
        do {
            _ = try JSONValueDecoder().decodeValidated(Codec.self, from: Array(json.utf8))
            return []
        } catch {
            return error.issues.map { "\($0.code) \($0.path.jsonPointer)" }
        }
    }
    // A member the alternative does not declare: reported alone.
    print(places(#"{"codec": "bytes", "charset": "utf-8"}"#))  // ["unknownKey /charset"]
    // The alternative failed (an empty charset): each member is reported as not evaluated too.
    let failed = places(#"{"codec": "text", "charset": ""}"#)
    print(failed)  // ["tooShort /charset", "unknownKey /codec", "unknownKey /charset"]
}
// README: end

// README: doc-union-one-of
@Validatable
struct Circle: Codable, Sendable, Hashable {
    @Validate(.range(0...)) var radius: Double
}

@Validatable
struct Labelled: Codable, Sendable, Hashable {
    @Validate(.length(1...)) var label: String
}

// `{"oneOf": [circle, labelled]}`: an object may be either, or both.
enum Mark: Codable, Sendable, Hashable {
    case circle(Circle)
    case labelled(Labelled)

    init(from decoder: any Decoder) throws {
        self = try UnionDecoding.exactlyOne(
            of: decoder,
            [
                { Mark.circle(try UnionDecoding.decode(Circle.self, from: $0)) },
                { Mark.labelled(try UnionDecoding.decode(Labelled.self, from: $0)) },
            ])
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .circle(let value): try value.encode(to: encoder)
        case .labelled(let value): try value.encode(to: encoder)
        }
    }
}

func decodeMarks() {
    func outcome(_ json: String) -> String {
        do {
            switch try JSONValueDecoder().decodeValidated(Mark.self, from: Array(json.utf8)).value {
            case .circle: return "circle"
            case .labelled: return "labelled"
            }
        } catch {
            return "\(error.issues.map(\.code))"
        }
    }
    print(outcome(#"{"radius": 2}"#))  // circle
    print(outcome(#"{"radius": 2, "label": "a"}"#))  // [noMatch]: both take it
    print(outcome(#"{"radius": -1}"#))  // [noMatch]: neither takes it
}
// README: end

// README: doc-model-rule-when
struct CardPayment: Validatable {
    var kind: String
    var cardNumber: String?
    var iban: String?

    static let validation: Validation<CardPayment> = [
        .when(
            \.kind, "kind", in: ["card"],
            then: [
                .required(\.cardNumber, "cardNumber"),
                .property(\.cardNumber, "cardNumber", .length(16...16), .charset(.digits)),
            ],
            else: [.required(\.iban, "iban")])
    ]
}

func checkPayments() {
    print(CardPayment(kind: "card", cardNumber: "4111").issues().map(\.path.jsonPointer))  // ["/cardNumber"]
    print(CardPayment(kind: "transfer").issues().map(\.path.jsonPointer))  // ["/iban"]
    print(CardPayment(kind: "transfer", iban: "DE00").issues().isEmpty)  // true
}
// README: end

// README: doc-model-rule-exactly-one
struct Shipping: Validatable {
    var address: String?
    var pickupPoint: String?

    static let validation: Validation<Shipping> = [
        .exactlyOne(of: [
            [.required(\.address, "address")],
            [.required(\.pickupPoint, "pickupPoint"), .property(\.pickupPoint, "pickupPoint", .length(4...8))],
        ])
    ]
}

func checkShipping() {
    print(Shipping(address: "1 Main St").issues().isEmpty)  // true
    print(Shipping(address: "1 Main St", pickupPoint: "PP-1234").issues().map(\.code))  // [noMatch]
    print(Shipping(pickupPoint: "P1").issues().map(\.path.jsonPointer))  // [""]
}
// README: end

// `Indirect`'s example: a model that holds itself.
// README: doc-indirect
@Validatable
struct Step: Codable, Sendable, Hashable {
    @Validate(.length(1...)) var name: String
    var next: Indirect<Step>?
}

func decodeSteps() throws {
    let decoder = JSONValueDecoder()
    let steps = try decoder.decodeValidated(
        Step.self, from: Array(#"{"name": "mix", "next": {"name": "bake"}}"#.utf8)
    ).value
    print(steps.next?.value.name ?? "")  // bake
    let broken = Step(name: "mix", next: Indirect(Step(name: "")))
    print(broken.issues().map(\.path.jsonPointer))  // ["/next/name"]
}
// README: end

// `@AdditionalProperties`'s example: a model that keeps the members it does not declare.
// README: doc-additional-properties
@Validatable
struct Labels: Codable {
    var name: String
    @AdditionalProperties @Validate(Rule<[String: String]>.values(.length(...20)))
    var others: [String: String] = [:]
}
// README: end

func decodeLabels() throws {
    let decoder = JSONValueDecoder()
    let labels = try decoder.decodeValidated(
        Labels.self, from: Array(#"{"name": "box", "colour": "red"}"#.utf8)
    ).value
    print(labels.others)  // ["colour": "red"]
    do {
        _ = try decoder.decodeValidated(Labels.self, from: Array(#"{"name": "box", "size": 3}"#.utf8))
    } catch {
        print(error.issues.map(\.path.jsonPointer))  // ["/size"]
    }
}

/// A model decoded by hand the way `@Validatable` decodes (the example of `FieldDecoder`).
struct HandDecodedPlayer: Decodable, Validatable {
    var name: String
    var age: Int

    enum CodingKeys: String, CodingKey { case name, age }

    static let validation: Validation<HandDecodedPlayer> = [.property(\.age, "age", .range(16...50))]

    // README: doc-field-decoder
    init(from decoder: any Decoder) throws {
        var fields = try FieldDecoder<Self, CodingKeys>(decoder)
        let name = fields.decode(String.self, forKey: .name)
        let age = fields.decode(Int.self, forKey: .age)
        guard let name, let age, fields.isComplete else {
            throw fields.failure(checking: [DecodedField("name", name), DecodedField("age", age)])
        }
        self.name = name
        self.age = age
        try fields.validate(&self)
    }
    // README: end

    /// Every failure of a payload at once, as `@Validatable` types report them.
    static func run() {
        let payload = Array(#"[{"name": "Ann", "age": 30}, {"name": 5, "age": 12}]"#.utf8)
        do {
            _ = try JSONValueDecoder().decodeValidated([HandDecodedPlayer].self, from: payload)
        } catch {
            print(error.text(in: .english))  // /1/name: Name must be of type String
        }
    }
}

// README: doc-tuple-decoding
// `{"prefixItems": [{"type": "boolean"}, {"type": "string", "minLength": 1}], "minItems": 1,
//   "items": {"type": "integer", "minimum": 0}}`
struct Setting: Codable, Sendable, Hashable {
    var item0: Bool
    var item1: String?
    var rest: [Int] = []

    init(item0: Bool, item1: String? = nil, rest: [Int] = []) {
        self.item0 = item0
        self.item1 = item1
        self.rest = rest
    }

    init(from decoder: any Decoder) throws {
        var items = try TupleDecoding(decoder, minimumCount: 1)
        let item0 = items.item(Bool.self)
        let item1 = items.item(String.self, rule: .length(1...))
        let rest = items.rest(Int.self, rule: .range(0...))
        try items.finish()
        self.init(item0: try items.present(item0), item1: item1, rest: rest)
    }

    func encode(to encoder: any Encoder) throws {
        try TupleDecoding.encode([item0], then: [item1], rest: rest, to: encoder)
    }
}

func decodeSettings() {
    let decoder = JSONValueDecoder()
    let setting = try? decoder.decodeValidated(Setting.self, from: Array(#"[true, "on", 3]"#.utf8)).value
    print(setting == Setting(item0: true, item1: "on", rest: [3]))  // true
    do {
        _ = try decoder.decodeValidated(Setting.self, from: Array(#"[1, "", -1]"#.utf8))
    } catch {
        print(error.issues.map(\.path.jsonPointer))  // ["/0", "/1", "/2"]
    }
}
// README: end

// README: doc-nullable
struct ProfilePatch: Codable {
    var nickname: Nullable<String> = .absent
}

func readPatches() throws {
    for body in [#"{}"#, #"{"nickname": null}"#, #"{"nickname": "Ann"}"#] {
        let patch = try JSONDecoder().decode(ProfilePatch.self, from: Data(body.utf8))
        print(patch.nickname, String(decoding: try JSONEncoder().encode(patch), as: UTF8.self))
    }
    // absent {}
    // null {"nickname":null}
    // some("Ann") {"nickname":"Ann"}
}
// README: end
