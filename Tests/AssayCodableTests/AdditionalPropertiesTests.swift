import AssayCodable
import AssayCore
import AssayJSON
import AssaySchema
import Foundation
import Testing

/// A model that keeps the members it does not declare, each checked.
@Validatable
struct Labelled: Codable, Equatable {
    @Validate(.length(1...)) var name: String
    @NotNull var size: Int?
    @AdditionalProperties @Validate(Rule<[String: String]>.values(.length(...5)))
    var labels: [String: String] = [:]
}

/// A model whose other members' keys have a rule (a lone `patternProperties` beside
/// `additionalProperties: false`, as the generator writes it).
@Validatable(unknownKeys: .reject)
struct Environment: Codable, Equatable {
    var name: String
    @AdditionalProperties @Validate(Rule<[String: String]>.keys(.matches("^[A-Z_]+$")), .values(.length(1...)))
    var variables: [String: String] = [:]
}

/// A model whose keys need escapes in Swift (`@Key("a\tb")`), as the generator writes them for
/// JSON Schema's keys with control characters, quotes and backslashes.
@Validatable(unknownKeys: .reject)
struct Escaped: Codable, Equatable {
    @Key("foo\nbar") var newline: Int
    @Key("foo\tbar") var tab: Int
    @Key(#"foo"bar"#) var quote: Int
    @Key(#"foo\bar"#) var backslash: Int
    @Key("foo\u{c}bar") var formFeed: Int
}

/// A model whose other members are models.
@Validatable
struct Registry: Codable, Equatable {
    var owner: String
    @AdditionalProperties var entries: [String: Client] = [:]
}

@Suite struct AdditionalPropertiesTests {
    private func places(_ error: ValidationError) -> [String] { error.issues.map(\.path.jsonPointer) }

    @Test(arguments: DecoderKind.allCases)
    func membersNoPropertyNamesAreKept(decoder: DecoderKind) throws {
        let decoded = try decoder.decode(Labelled.self, #"{"name": "a", "colour": "red", "size": 2, "kind": "b"}"#)
        #expect(decoded.value == Labelled(name: "a", size: 2, labels: ["colour": "red", "kind": "b"]))
    }

    @Test(arguments: DecoderKind.allCases)
    func eachBadMemberIsReportedAtItsKey(decoder: DecoderKind) {
        #expect(throws: ValidationError.self) {
            try decoder.decode(Labelled.self, #"{"name": "a", "colour": 7, "kind": "toolong"}"#)
        }
        do {
            _ = try decoder.decode(Labelled.self, #"{"name": "", "colour": 7, "kind": "toolong", "z": "ok"}"#)
        } catch {
            // The type mismatch of a member, the rule of the name and the rule of the members that
            // decoded, all at once (checked though a member did not decode).
            #expect(Set(places(error)) == ["/colour", "/kind", "/name"], "\(error.issues)")
            #expect(error.issues.contains { $0.path.jsonPointer == "/colour" && $0.code == .typeMismatch })
        }
        do {
            _ = try decoder.decode(Labelled.self, #"{"name": "", "kind": "toolong", "z": "ok"}"#)
        } catch {
            #expect(Set(places(error)) == ["/kind", "/name"], "\(error.issues)")
        }
    }

    @Test func unknownKeysAreNotReportedWhenKept() throws {
        let policy = ValidatedDecodingPolicy(unknownKeys: .reject)
        let decoded = try DecoderKind.assay.decode(Labelled.self, #"{"name": "a", "x": "y"}"#, policy: policy)
        #expect(decoded.value.labels == ["x": "y"])
    }

    @Test func encodingWritesTheMembersBack() throws {
        let value = Labelled(name: "a", size: nil, labels: ["b": "1", "a": "2", "name": "hidden"])
        let text = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        let json = try JSONValue(parsing: Array(text.utf8))
        // The property wins over a member of its key; `nil` is left out, as synthesised encoding does.
        #expect(json == ["name": "a", "a": "2", "b": "1"])
        let again = try DecoderKind.foundation.decode(Labelled.self, text).value
        #expect(again == Labelled(name: "a", size: nil, labels: ["a": "2", "b": "1"]))
    }

    @Test func nestedModelsAreCheckedAtTheirKeys() throws {
        do {
            _ = try DecoderKind.assay.decode(
                Registry.self, #"{"owner": "o", "ann": {"name": "Ann", "age": 0, "email": "ann@example.test"}}"#)
            Issue.record("an invalid member decoded")
        } catch {
            #expect(places(error) == ["/ann/age"])
        }
        let registry = Registry(owner: "o", entries: ["bob": Client(name: "B", age: 30, email: "b@example.test")])
        #expect(registry.issues().map(\.path.jsonPointer) == ["/bob/name"])
    }

    @Test func onDemandChecksFindWhatDecodingFinds() {
        let value = Labelled(name: "a", size: 1, labels: ["long": "123456", "ok": "1"])
        #expect(value.issues().map(\.path.jsonPointer) == ["/long"])
        #expect(Labelled(name: "a", size: 1, labels: ["ok": "1"]).isValid)
    }

    @Test func theExportedSchemaStatesTheMembers() throws {
        let document = JSONSchemaExporter.document(for: Labelled.self)
        guard case .object(let root) = document else {
            Issue.record("not an object: \(document.jsonString())")
            return
        }
        #expect(root["additionalProperties"] == ["type": "string", "maxLength": 5])
        let schema = try JSONSchema(document)
        for (text, valid) in [
            (#"{"name": "a", "x": "12345"}"#, true), (#"{"name": "a", "x": "123456"}"#, false),
            (#"{"name": "a", "x": 1}"#, false), (#"{"name": "a"}"#, true),
        ] {
            let json = try JSONValue(parsing: Array(text.utf8))
            #expect(schema.isValid(json) == valid, "\(text)")
            let decodes = (try? DecoderKind.assay.decode(Labelled.self, text)) != nil
            #expect(decodes == valid, "\(text)")
        }
    }
}

@Suite struct EscapedKeyTests {
    @Test(arguments: DecoderKind.allCases)
    func keysWithEscapesAreTheirValues(decoder: DecoderKind) throws {
        let json = #"{"foo\nbar": 1, "foo\tbar": 2, "foo\"bar": 3, "foo\\bar": 4, "foo\fbar": 5}"#
        let decoded = try decoder.decode(Escaped.self, json).value
        #expect(decoded == Escaped(newline: 1, tab: 2, quote: 3, backslash: 4, formFeed: 5))
        let encoded = try JSONValue(parsing: Array(JSONEncoder().encode(decoded)))
        #expect(encoded == (try JSONValue(parsing: Array(json.utf8))))
        // The literal text of an escape is another key, unknown here.
        #expect(throws: ValidationError.self) {
            try decoder.decode(
                Escaped.self, #"{"foo\\nbar": 1, "foo\tbar": 2, "foo\"bar": 3, "foo\\bar": 4, "foo\fbar": 5}"#)
        }
    }
}

@Suite struct KeyRuleTests {
    private func places(_ error: any Error) -> [String] {
        (error as? ValidationError)?.issues.map(\.path.jsonPointer) ?? ["not a ValidationError: \(error)"]
    }

    @Test func keysAreReportedAtThemselvesInCodePointOrder() {
        let rule = Rule<[String: Int]>.keys(.matches("^[a-z]+$"))
        let issues = rule.issues(for: ["ok": 1, "Z": 2, "b1": 3, "É": 4], at: .root)
        #expect(issues.map(\.path.jsonPointer) == ["/Z", "/b1", "/É"])
        #expect(issues.allSatisfy { $0.code == .patternMismatch })
        #expect(rule.isValid(["ok": 1, "yes": 2]))
        #expect(RuleKind.keys(.pattern("^[a-z]+$")).description == "keys(pattern(^[a-z]+$))")
    }

    @Test(arguments: DecoderKind.allCases)
    func membersKeysAreCheckedWhenDecoded(decoder: DecoderKind) throws {
        let decoded = try decoder.decode(Environment.self, #"{"name": "a", "HOME": "/root", "PATH_X": "/bin"}"#)
        #expect(decoded.value.variables == ["HOME": "/root", "PATH_X": "/bin"])
        #expect(throws: ValidationError.self) {
            try decoder.decode(Environment.self, #"{"name": "a", "home": "/root", "EMPTY": ""}"#)
        }
        do {
            _ = try decoder.decode(Environment.self, #"{"name": "a", "home": "/root", "EMPTY": ""}"#)
        } catch {
            #expect(Set(places(error)) == ["/home", "/EMPTY"])
        }
        #expect(Environment(name: "a", variables: ["bad key": "x"]).issues().map(\.path.jsonPointer) == ["/bad key"])
    }

    @Test func theExportedSchemaNamesPropertiesOrKeysTheRuleAccepts() throws {
        let document = JSONSchemaExporter.document(for: Environment.self)
        guard case .object(let root) = document else {
            Issue.record("not an object: \(document.jsonString())")
            return
        }
        #expect(root["propertyNames"] == ["anyOf": [["enum": ["name"]], ["pattern": "^[A-Z_]+$"]]])
        let schema = try JSONSchema(document)
        for (text, valid) in [
            (#"{"name": "a", "HOME": "x"}"#, true), (#"{"name": "a", "home": "x"}"#, false),
            (#"{"name": "a", "HOME": ""}"#, false), (#"{"name": "a"}"#, true), (#"{"HOME": "x"}"#, false),
        ] {
            let json = try JSONValue(parsing: Array(text.utf8))
            #expect(schema.isValid(json) == valid, "\(text)")
            let decodes = (try? DecoderKind.assay.decode(Environment.self, text)) != nil
            #expect(decodes == valid, "\(text)")
        }
    }
}

@Suite struct NestedArrayTests {
    @Test(arguments: DecoderKind.allCases)
    func everyBadElementOfAnInnerArrayIsReported(decoder: DecoderKind) {
        do {
            _ = try decoder.decodeArray([[Int]].self, #"[[1, "x", 2, "y"], 3, [4, [5]], []]"#)
            Issue.record("decoded")
        } catch {
            #expect(error.issues.map(\.path.jsonPointer) == ["/0/1", "/0/3", "/1", "/2/1"])
        }
        let three = try? decoder.decodeArray([[[Double]]].self, "[[[1, 2], [3]], [[], [4.5]]]")
        #expect(three?.value == [[[1, 2], [3]], [[], [4.5]]])
    }
}

extension NestedArrayTests {
    /// What generated code names through a type alias reaches the generic decode.
    private func places<T: Decodable>(_ type: T.Type, _ json: String) -> [String] {
        do {
            _ = try JSONValueDecoder().decodeValidated(T.self, from: Array(json.utf8))
            return []
        } catch {
            return error.issues.map(\.path.jsonPointer)
        }
    }

    @Test func anArrayDecodedThroughAGenericTypeReportsEveryElement() {
        #expect(places([[Int]].self, #"[[1, "x"], ["y"]]"#) == ["/0/1", "/1/0"])
        #expect(places([[Int]].self, #"{"a": 1}"#) == [""])
        #expect(places([[Int]].self, "[[1], [2]]").isEmpty)
    }
}

/// A model with a property named `from` and the memberwise initialiser generated code writes for it:
/// `init(from: String)` is not a decoding initialiser.
@Validatable(unknownKeys: .reject)
struct Sender: Codable, Equatable {
    @Validate(.email()) var from: String

    init(from: String) { self.from = from }
}

@Suite struct MemberwiseFromTests {
    @Test func aPropertyNamedFromKeepsDecodingValidated() {
        // The macro's own `init(from decoder:)` runs: it refuses the unknown key (a synthesised one would not).
        do {
            _ = try JSONValueDecoder().decodeValidated(
                Sender.self, from: Array(#"{"from": "a@example.com", "x": 1}"#.utf8))
            Issue.record("the unknown key was accepted")
        } catch {
            #expect(error.issues.map(\.code) == [.unknownKey])
        }
        #expect(
            (try? JSONValueDecoder().decodeValidated(Sender.self, from: Array(#"{"from": "a@example.com"}"#.utf8)))?
                .value == Sender(from: "a@example.com"))
    }
}
