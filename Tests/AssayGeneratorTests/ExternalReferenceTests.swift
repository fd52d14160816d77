import AssayCodable
import AssayGenerator
import AssayJSON
import AssaySchema
import Foundation
import Testing

/// `External.swift` is the generator's output for `Golden/external.schema.json` with a registry
/// mapping `https://example.com/schemas/` to `Golden/remote`: its `$ref`s to `address.json` reach
/// another document, which the generated file embeds beside its own, so that the values checked
/// against those schemas are checked with no file and no network at run time.
@Suite("References to other documents, read from a registry")
struct ExternalReferenceTests {
    static func schemaText() throws -> String { try SwiftGeneratorTests.read("external.schema.json") }

    static var options: SwiftGeneratorOptions {
        var registry = SchemaRegistry()
        registry.map(
            prefix: "https://example.com/schemas/",
            toDirectory: SwiftGeneratorTests.golden.appendingPathComponent("remote").path)
        return SwiftGeneratorOptions(sourceName: "external.schema.json", registry: registry)
    }

    @Test("the golden file is the generator's output, the other document embedded")
    func golden() throws {
        let generated = try SwiftGenerator.generate(
            JSONValue(parsing: Array(Self.schemaText().utf8)), options: Self.options)
        #expect(generated.source == (try SwiftGeneratorTests.read("External.swift")))
        #expect(generated.source.contains(#""https://example.com/schemas/address.json": #"""#))
    }

    @Test("with no registry, a reference to another document is an error naming it")
    func withoutARegistry() throws {
        let document = try JSONValue(parsing: Array(Self.schemaText().utf8))
        #expect {
            _ = try SwiftGenerator.generate(document, options: SwiftGeneratorOptions())
        } throws: { error in
            "\(error)".contains("address.json")
        }
    }

    @Test("a dialect of its own is refused, naming it: its metaschema may leave vocabularies out")
    func customDialect() throws {
        let document: JSONValue = [
            "$schema": "https://example.com/no-validation.json", "type": "object",
            "properties": ["n": ["type": "integer", "minimum": 10]],
        ]
        #expect(throws: SwiftGenerationError.self) {
            _ = try SwiftGenerator.generate(document, options: Self.options)
        }
        do {
            _ = try SwiftGenerator.generate(document, options: Self.options)
        } catch {
            #expect(error.pointer == "/$schema")
            #expect(error.message.contains("https://example.com/no-validation.json"))
        }
        for dialect in ["http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2020-12/schema"] {
            let standard = document.changing(["$schema": .string(dialect)])
            #expect(try SwiftGenerator.generate(standard).source.contains("@Validate(.range(10...))"))
        }
    }

    static let address: JSONValue = ["street": "Main St 1", "zip": "12345"]

    static let cases: [(instance: JSONValue, places: [String])] = [
        (["id": "o1", "shipTo": address], []),
        (["id": "o1", "shipTo": address, "billTo": address, "zips": ["54321"]], []),
        (["id": "o1", "shipTo": ["street": "", "zip": "1234"]], ["/shipTo/street", "/shipTo/zip"]),
        (
            ["id": "o1", "shipTo": address, "billTo": ["street": "x"], "zips": ["1", "12345", "x"]],
            ["/billTo/zip", "/zips/0", "/zips/2"]
        ),
    ]

    @Test("decoding checks the values against the other document's schemas, located", arguments: cases.indices)
    func decoding(_ index: Int) throws {
        let (instance, places) = Self.cases[index]
        let schema = try Self.sourceSchema()
        let expected = Set(schema.validate(instance).issues.map(\.path.jsonPointer))
        #expect(expected == Set(places))
        do {
            _ = try JSONValueDecoder().decodeValidated(Order.self, from: instance.jsonBytes())
            #expect(places.isEmpty)
        } catch {
            #expect(Set(error.issues.map(\.path.jsonPointer)) == Set(places))
        }
    }

    /// The source schema compiled with the same registry, as AssaySchema reads it.
    static func sourceSchema() throws -> JSONSchema {
        var options = JSONSchema.Options(assertFormats: true)
        options.registry.map(
            prefix: "https://example.com/schemas/",
            toDirectory: SwiftGeneratorTests.golden.appendingPathComponent("remote").path)
        return try JSONSchema(parsing: schemaText(), options: options)
    }
}
