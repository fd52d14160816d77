import AssayCodable
import AssayJSON
import AssaySchema
import Foundation
import Testing

@testable import AssayGenerator

/// `Dependencies.swift` is the generator's output for `Golden/dependencies.schema.json`: draft 7's
/// `dependencies` with schemas (2019-09's `dependentSchemas`) are typed entries that apply when
/// their member is present — `.whenPresent(\.analyzer, "analyzer", then: […])` of a branch's
/// `required` and `properties`, or of an `anyOf` / `oneOf` of such groups — beside its arrays of
/// keys as `.dependentRequired`; a member always present has its entries apply always.
@Suite("Dependencies: entries that apply when a member is present")
struct DependenciesTests {
    static func schemaText() throws -> String { try SwiftGeneratorTests.read("dependencies.schema.json") }

    static let valid: JSONValue = [
        "name": "n", "label": "l", "type": "autocomplete", "analyzer": "a", "minGrams": 2, "kind": "local",
    ]

    static func changed(_ changes: [String: JSONValue?]) -> JSONValue { valid.changing(changes) }

    static let sha = JSONValue.string(String(repeating: "a", count: 64))

    static let instances: [(name: String, instance: JSONValue)] = [
        ("valid", valid),
        ("valid: nothing that depends", ["name": "n", "label": "l", "kind": "remote"]),
        ("valid: an md5 and no kind", changed(["kind": nil, "md5": "m"])),
        ("neither a kind nor an md5", changed(["kind": nil])),
        // The kind does not decode: the group that requires it as its own schema fails (it would
        // have decoded), and so does the other (no md5): the anyOf is reported at the object too.
        ("a kind not listed, and no md5", changed(["kind": "cloud"])),
        ("a kind not listed beside an md5: the kind's failure alone", changed(["kind": "cloud", "md5": "m"])),
        ("valid: a string analyzer", changed(["type": "string", "minGrams": nil])),
        ("valid: an analyzer with no type", changed(["type": nil, "minGrams": nil])),
        ("valid: begin and end", changed(["begin": "b", "end": "e"])),
        ("valid: begin and while", changed(["begin": "b", "while": "w"])),
        ("valid: a url and its sha256", changed(["url": "u", "sha256": sha])),
        ("valid: a url and its md5", changed(["url": "u", "md5": "m"])),
        ("valid: a sha256 with no url", changed(["sha256": sha, "md5": "m"])),
        ("an analyzer of a geo field", changed(["type": "geo", "minGrams": nil])),
        ("min grams of a string field", changed(["type": "string"])),
        ("min grams with no type", changed(["type": nil])),
        ("begin alone", changed(["begin": "b"])),
        ("end alone", changed(["end": "e"])),
        ("a url with no hash", changed(["url": "u"])),
        ("a url with both hashes", changed(["url": "u", "sha256": sha, "md5": "m"])),
        ("a url whose md5 is too long", changed(["url": "u", "md5": .string(String(repeating: "m", count: 33))])),
        ("no label", changed(["label": nil])),
        ("valid: a fast mode", changed(["mode": "fast"])),
        ("valid: a slow mode with a url", changed(["mode": "slow", "url": "u", "md5": "m"])),
        ("a slow mode with no url", changed(["mode": "slow"])),
        // The mode does not decode: the group that reads it fails (it would have decoded as
        // "fast"), and the other, a url, is missing.
        ("a mode not listed, with no url", changed(["mode": "turbo"])),
        ("valid: a timeout, and a null one", changed(["timeout": "10s"])),
        ("valid: a null timeout", changed(["timeout": .null])),
        ("a timeout in minutes", changed(["timeout": "10m"])),
        (
            "everything wrong at once",
            changed(["type": "geo", "begin": "b", "end": nil, "url": "u", "label": nil, "minGrams": 0])
        ),
    ]

    @Test("the generated struct refuses exactly where the schema does", arguments: instances.map(\.name))
    func agreement(_ name: String) throws {
        let instance = try #require(Self.instances.first { $0.name == name }?.instance)
        try UnionTests.expectAgreement(SearchField.self, schemaText: Self.schemaText(), name: name, instance: instance)
    }

    @Test("on demand, the entries apply when their member is present")
    func onDemand() {
        #expect(SearchField(type: .geo, name: "n", label: "l", kind: .local).issues().isEmpty)
        #expect(SearchField(type: .geo, name: "n", label: "l").issues().map(\.code) == [.noMatch])
        #expect(
            SearchField(type: .geo, analyzer: "a", name: "n", label: "l", kind: .local).issues().map(\.path.jsonPointer)
                == ["/type"])
        #expect(
            SearchField(minGrams: 2, name: "n", label: "l", kind: .local).issues().map(\.path.jsonPointer) == ["/type"])
        #expect(SearchField(begin: "b", name: "n", label: "l", kind: .local).issues().map(\.code) == [.noMatch])
        #expect(SearchField(name: "n", kind: .local).issues().map(\.path.jsonPointer) == ["/label"])
        #expect(SearchField(name: "n", label: "l", mode: .exact, kind: .local).issues().map(\.path.jsonPointer) == [""])
    }

    @Test("the exported schema states the dependencies as the source does")
    func export() throws {
        let exported = try JSONSchema(JSONSchemaExporter.document(for: SearchField.self))
        let source = try JSONSchema(parsing: Self.schemaText())
        for (name, instance) in Self.instances {
            #expect(exported.isValid(instance) == source.isValid(instance), "\(name)")
        }
    }

    @Test("a named schema that may be null, with rules null passes, is a wrapper of an optional")
    func nullableWrapper() throws {
        let decoder = JSONValueDecoder()
        #expect(try decoder.decodeValidated(Timeout.self, from: Array("null".utf8)).value.rawValue == nil)
        #expect(try decoder.decodeValidated(Timeout.self, from: Array(#""10s""#.utf8)).value.rawValue == "10s")
        #expect(throws: ValidationError.self) {
            try decoder.decodeValidated(Timeout.self, from: Array(#""10 minutes""#.utf8))
        }
        #expect(throws: ValidationError.self) { try decoder.decodeValidated(Timeout.self, from: Array("5".utf8)) }
        // Exported as the source states it: `null`, or a string of the pattern and length.
        let exported = try JSONSchema(JSONSchemaExporter.document(for: Timeout.self))
        let source = try JSONSchema(parsing: Self.schemaText())
        for value: JSONValue in [.null, "10s", "10 minutes", "12345s", 5, ["10s"]] {
            #expect(
                exported.isValid(value)
                    == source.isValid(["name": "n", "label": "l", "kind": "local", "timeout": value]),
                "\(value)")
        }
    }

    @Test("the golden file is the generator's output; every dependency is a typed entry")
    func golden() throws {
        let options = SwiftGeneratorOptions(sourceName: "dependencies.schema.json")
        let generated = try SwiftGenerator.generate(JSONValue(parsing: Array(Self.schemaText().utf8)), options: options)
        #expect(generated.source == (try SwiftGeneratorTests.read("Dependencies.swift")))
        #expect(generated.notes.isEmpty)
        #expect(!generated.source.contains("SchemaDocument"))
        #expect(generated.source.contains(".whenPresent("))
    }
}
