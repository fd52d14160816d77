import AssayCodable
import AssayJSON
import AssaySchema
import Foundation
import Testing

@testable import AssayGenerator

/// `Siblings.swift` is the generator's output for `Golden/siblings.schema.json` (2020-12, after
/// yamllint's configuration): a `$ref` beside other keywords applies with them, as an item of
/// their `allOf`, so the root and each rule are one struct of the members of both, closed by
/// `unevaluatedProperties: false`; a referenced schema's `not` (it evaluates no member) is checked
/// at its own place where no `unevaluatedProperties` reads what the schema evaluated.
@Suite("A $ref beside other keywords")
struct SiblingsTests {
    static func schemaText() throws -> String { try SwiftGeneratorTests.read("siblings.schema.json") }

    static let valid: JSONValue = [
        "extends": "default", "ignore": "*.tmp",
        "rules": ["anchors": ["forbid-unused": true, "level": "warning", "ignore-from-file": ".gitignore"]],
    ]

    static func changed(_ changes: [String: JSONValue?]) -> JSONValue { valid.changing(changes) }

    static func anchors(_ value: JSONValue) -> JSONValue { changed(["rules": ["anchors": value]]) }

    static let instances: [(name: String, instance: JSONValue)] = [
        ("valid", valid),
        ("valid: nothing", [:]),
        ("valid: anchors enabled, indent off", changed(["rules": ["anchors": "enable", "indent": false]])),
        ("valid: an indent rule", changed(["rules": ["indent": ["spaces": 2, "level": "error"]]])),
        ("valid: separators and strictness", changed(["separator": "foo_bar", "strict": true])),
        ("valid: the separator whose name is another's numbered", changed(["separator": "fooBar2"])),
        ("a separator of another spelling", changed(["separator": "foo bar"])),
        ("valid: widths", changed(["width": 2])),
        ("valid: a null width", changed(["width": .null])),
        ("valid: a width of two numbers", changed(["width": [1, 2]])),
        ("a width of zero", changed(["width": 0])),
        ("a width of three numbers", changed(["width": [1, 2, 3]])),
        ("a width that is a string", changed(["width": "2"])),
        ("valid: a tally", changed(["tally": ["a": 1, "b": 2]])),
        ("an empty tally", changed(["tally": [:]])),
        ("a tally of three", changed(["tally": ["a": 1, "b": 2, "c": 3]])),
        ("a tally of a string", changed(["tally": ["a": "1"]])),
        ("a tally of one string", changed(["tally": ["a": "1", "b": 2]])),
        ("strictness false", changed(["strict": false])),
        ("strictness that is an empty array", changed(["strict": []])),
        ("a member neither schema names", changed(["extra": 1])),
        ("valid: both ways of ignoring at the root, which has no not", changed(["ignore-from-file": "x"])),
        ("valid: files", changed(["rules": ["files": ["ignore": "a", "recursive": true, "other": 1]]])),
        ("valid: closed files", changed(["rules": ["closedFiles": ["ignore-from-file": "f"]]])),
        ("files ignoring both ways", changed(["rules": ["files": ["ignore": "a", "ignore-from-file": "b"]]])),
        ("files whose recursive is a string", changed(["rules": ["files": ["recursive": "yes"]]])),
        ("files that are a string", changed(["rules": ["files": "a"]])),
        (
            "closed files ignoring both ways",
            changed(["rules": ["closedFiles": ["ignore": "a", "ignore-from-file": "b"]]])
        ),
        ("closed files with another member", changed(["rules": ["closedFiles": ["ignore": "a", "other": 1]]])),
        ("an empty extends", changed(["extends": ""])),
        ("an empty ignore file", changed(["ignore": .some(nil), "ignore-from-file": ""])),
        ("an ignore that is a number", changed(["ignore": 1])),
        ("anchors of an unknown word", anchors("on")),
        ("anchors that are a number", anchors(5)),
        ("an anchors rule of an unknown level", anchors(["level": "info"])),
        ("an anchors rule over its maximum", anchors(["max": 10])),
        ("an anchors rule with a member it does not name", anchors(["spaces": 2])),
        (
            "valid: an anchors rule ignoring both ways (no not there)",
            anchors(["ignore": "a", "ignore-from-file": "b"])
        ),
        ("an indent rule with no spaces", changed(["rules": ["indent": ["level": "error"]]])),
        ("an indent rule of zero spaces", changed(["rules": ["indent": ["spaces": 0]]])),
        ("a rule the rules do not name", changed(["rules": ["colons": "enable"]])),
        ("a root that is an array", [1]),
    ]

    @Test("the generated type refuses exactly where the schema does", arguments: instances.map(\.name))
    func agreement(_ name: String) throws {
        let instance = try #require(Self.instances.first { $0.name == name }?.instance)
        try UnionTests.expectAgreement(Lint.self, schemaText: Self.schemaText(), name: name, instance: instance)
    }

    @Test("the members of the schema a $ref names are the struct's, and its not is checked on demand")
    func members() throws {
        let decoded = try JSONValueDecoder().decodeValidated(Lint.self, from: Self.valid.jsonBytes()).value
        #expect(decoded.ignore == "*.tmp")
        #expect(try JSONValue(parsing: Array(JSONEncoder().encode(decoded))) == Self.valid)
        let separated = try JSONValueDecoder().decodeValidated(
            Lint.self, from: Self.changed(["separator": "foo_bar"]).jsonBytes()
        ).value
        #expect(separated.separator == .fooBar3)
        let both = Lint(rules: LintRules(files: LintRulesFiles(ignore: "a", ignoreFromFile: "b")))
        #expect(both.issues().map(\.path.jsonPointer) == ["/rules/files"])
        #expect(Lint(rules: LintRules(files: LintRulesFiles(ignore: "a"))).issues().isEmpty)
    }

    @Test("the golden file is the generator's output; a referenced schema's not is checked where it is")
    func golden() throws {
        let options = SwiftGeneratorOptions(sourceName: "siblings.schema.json")
        let generated = try SwiftGenerator.generate(JSONValue(parsing: Array(Self.schemaText().utf8)), options: options)
        #expect(generated.source == (try SwiftGeneratorTests.read("Siblings.swift")))
        // The `not` beside no `unevaluatedProperties` checked where it is; beside one, the schema
        // checked whole; the tally's counts (below).
        #expect(generated.notes.count == 3, "\(generated.notes)")
        #expect(generated.notes.filter { $0.hasPrefix("#/$defs/exclusive: not — no typed rule") }.count == 1)
        #expect(
            generated.notes.contains {
                $0.hasPrefix(
                    "#/properties/rules/properties/closedFiles/unevaluatedProperties: the keyword unevaluatedProperties beside subschemas"
                )
            })
        #expect(generated.source.contains("@Validatable(unknownKeys: .reject)\npublic struct Lint:"))
        #expect(generated.source.contains("case rule(LintRulesAnchorsRuleType)"))
        #expect(generated.source.contains("public enum LintWidth: Codable"))
        // The counts of a struct's members are checked against the schema, on the members given
        // (a count of those that decoded would misjudge it).
        #expect(generated.source.contains(#"at: "/$defs/tally", keywords: ["minProperties", "maxProperties"])"#))
        // Enum values numbered where their names meet; a value `type` refuses left out.
        #expect(
            generated.source.contains(
                "case fooBar = \"foo-bar\"\n    case fooBar3 = \"foo_bar\"\n    case fooBar2\n"))
        #expect(generated.source.contains("@NotNull @Validate(.oneOf([true]))\n    public var strict: Bool?"))
        // In draft 7 the keywords beside a `$ref` are ignored: the `$ref` is read alone.
        let draft7 = try Self.schemaText().replacingOccurrences(
            of: "https://json-schema.org/draft/2020-12/schema", with: "http://json-schema.org/draft-07/schema#")
        let older = try SwiftGeneratorTests.generate(draft7)
        #expect(older.source.contains("public typealias Lint = Ignorable\n"), "\(older.source)")
        #expect(!older.notes.contains { $0.contains("$ref beside") }, "\(older.notes)")
        // Its assertions beside a `$ref` are left out (ignored there); a subschema beside one
        // stays in the document, read where a `$ref` elsewhere may point, not beside the `$ref`.
        let ignored = try SwiftGeneratorTests.generate(
            ##"{"$schema": "http://json-schema.org/draft-07/schema#", "$ref": "#/definitions/a", "type": "string", "oneOf": [{"const": 0}], "properties": {"x": {"$ref": "#/oneOf/0"}}, "definitions": {"a": {"type": "integer", "minimum": 1}}}"##
        )
        #expect(ignored.notes.isEmpty, "\(ignored.notes)")
        #expect(ignored.source.contains("public static let rule: Rule<Int> = .range(1...)"), "\(ignored.source)")
    }
}
