import AssayCLI
import Foundation
import Testing

@Suite("assay generate swift")
struct GenerateTests {
    static let schema = #"""
        {"title": "Client", "type": "object", "required": ["name"], "additionalProperties": false,
         "properties": {"name": {"type": "string", "minLength": 2}, "age": {"type": "integer", "maximum": 150}}}
        """#

    @Test("to standard output, with notes on standard error; to a file; to a folder, named after the schema")
    func destinations() throws {
        let folder = try TemporaryFolder()
        let path = try folder.file("client.schema.json", Self.schema)
        let printed = try CLIRun(["generate", "swift", path])
        #expect(printed.status == 0)
        #expect(printed.standardOutput.contains("@Validate(.length(2...))\n    public var name: String\n"))
        #expect(printed.standardError.isEmpty, "\(printed.standardError)")
        #expect(printed.standardOutput.contains("    @NotNull @Validate(.range(...150))\n    public var age: Int?\n"))
        #expect(printed.standardOutput.contains("@Validatable(unknownKeys: .reject)\npublic struct Client"))
        let file = folder.path + "/Models.swift"
        let written = try CLIRun([
            "generate", "swift", path, "-o", file, "--access", "internal", "--type-prefix", "API",
        ])
        #expect(written.status == 0)
        #expect(written.standardOutput.isEmpty)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("struct APIClient: Codable, Sendable, Hashable {"))
        #expect(!text.contains("public"))
        let intoFolder = try CLIRun(["generate", "swift", path, "-o", folder.path])
        #expect(intoFolder.status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.path + "/Client.swift"))
    }

    @Test("a YAML schema, as the other commands read one")
    func yaml() throws {
        let folder = try TemporaryFolder()
        let path = try folder.file(
            "pet.yaml",
            "openapi: 3.1.0\ncomponents:\n  schemas:\n    Pet:\n      type: object\n      required: [name]\n"
                + "      properties:\n        name: {type: string, maxLength: 20}\n")
        let run = try CLIRun(["generate", "swift", path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("public struct Pet: Codable, Sendable, Hashable {"))
        #expect(run.standardOutput.contains("@Validate(.length(...20))\n    public var name: String\n"))
    }

    @Test("a schema that cannot be generated: exit 1, its reason and place, the output file left as it was")
    func refusedLeavesTheFile() throws {
        let folder = try TemporaryFolder()
        let path = try folder.file(
            "bad.json", ##"{"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}}"##)
        let output = try folder.file("Out.swift", "// kept\n")
        let run = try CLIRun(["generate", "swift", path, "-o", output])
        #expect(run.status == 1)
        #expect(run.standardError.contains(##"#/properties/a/$ref: $ref "#/$defs/missing" does not resolve"##))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "// kept\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["Out.swift", "bad.json"])
    }

    @Test("--registry reads another document's $refs offline and embeds that document; without it, exit 1")
    func registry() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path + "/remote", withIntermediateDirectories: true)
        _ = try folder.file(
            "remote/name.json", #"{"$id": "https://example.com/name.json", "type": "string", "minLength": 2}"#)
        let path = try folder.file(
            "person.json",
            #"{"$id": "https://example.com/person.json", "type": "object", "properties": {"name": {"$ref": "name.json"}}}"#
        )
        let run = try CLIRun(["generate", "swift", path, "--registry", "https://example.com/=\(folder.path)/remote"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains(#"        resources: ["#))
        #expect(run.standardOutput.contains(#""https://example.com/name.json": #"""#))
        let without = try CLIRun(["generate", "swift", path])
        #expect(without.status == 1)
        #expect(without.standardError.contains("name.json"))
        let malformed = try CLIRun(["generate", "swift", path, "--registry", "https://example.com/"])
        #expect(malformed.status == 2)
        #expect(malformed.standardError.contains("--registry https://example.com/: expected PREFIX=DIR"))
    }

    @Test("a file that is not there or not JSON; an output that cannot be written")
    func unusableFiles() throws {
        let folder = try TemporaryFolder()
        let missing = try CLIRun(["generate", "swift", folder.path + "/nothing.json"])
        #expect(missing.status == 2)
        #expect(missing.standardError.hasPrefix("assay: "))
        let garbage = try CLIRun(["generate", "swift", try folder.file("garbage.json", "{not json")])
        #expect(garbage.status == 1)
        let path = try folder.file("client.json", Self.schema)
        let unwritable = try CLIRun(["generate", "swift", path, "-o", folder.path + "/no/such/folder/Out.swift"])
        #expect(unwritable.status == 2)
        #expect(unwritable.standardError.contains("cannot be written"))
        let bare = try CLIRun(["generate"])
        #expect(bare.status == 2)
        #expect(bare.standardError.contains("swift"))
    }
}
