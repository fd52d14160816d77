import Foundation
import Testing

/// The build plugin's reading of `assay-generator.json` (GeneratorPlan.swift is the plugin's own
/// file, linked here): what it asks `assay generate swift` to do, and each configuration it refuses.
/// The plugin's use in a build is tested by the Integrations package's `GeneratedModels` target.
@Suite("AssayGeneratorPlugin's configuration")
final class GeneratorPlanTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appending(path: "assay-plugin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["client.schema.json", "shop.openapi.yaml", "nested/client.json"] {
            let file = folder.appending(path: name)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: file)
        }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func plan(_ config: String?) throws -> [GeneratorPlan.Generation] {
        var files = [folder.appending(path: "client.schema.json"), folder.appending(path: "Other.swift")]
        if let config {
            let file = folder.appending(path: GeneratorPlan.configName)
            try Data(config.utf8).write(to: file)
            files.append(file)
        }
        return try GeneratorPlan(
            targetName: "Models", directory: folder, files: files, workDirectory: URL(fileURLWithPath: "/work")
        ).generations()
    }

    func refusal(_ config: String?) -> String? {
        do {
            _ = try plan(config)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("a document per entry, named as the command names it, with the options of its entry or the top")
    func generations() throws {
        let generations = try plan(
            #"""
            {"schemas": ["client.schema.json", {"path": "shop.openapi.yaml", "typePrefix": "Shop", "access": "public"}],
             "access": "internal", "rootName": "Root"}
            """#)
        let config = folder.appending(path: GeneratorPlan.configName)
        #expect(
            generations == [
                GeneratorPlan.Generation(
                    schemaPath: "client.schema.json",
                    arguments: [
                        "generate", "swift", folder.appending(path: "client.schema.json").path, "--output",
                        "/work/Client.swift", "--access", "internal", "--root-name", "Root",
                    ],
                    inputs: [folder.appending(path: "client.schema.json"), config],
                    output: URL(fileURLWithPath: "/work/Client.swift")),
                GeneratorPlan.Generation(
                    schemaPath: "shop.openapi.yaml",
                    arguments: [
                        "generate", "swift", folder.appending(path: "shop.openapi.yaml").path, "--output",
                        "/work/Shop.swift", "--access", "public", "--type-prefix", "Shop", "--root-name", "Root",
                    ],
                    inputs: [folder.appending(path: "shop.openapi.yaml"), config],
                    output: URL(fileURLWithPath: "/work/Shop.swift")),
            ])
        // No option: the command's defaults.
        #expect(try plan(#"{"schemas": ["nested/client.json"]}"#).map(\.arguments.count) == [5])
    }

    @Test("each configuration the plugin cannot use is one line naming what is wrong")
    func refusals() {
        #expect(refusal(nil)?.contains("has no assay-generator.json") == true)
        #expect(refusal("{").map { $0.contains("is not a configuration of the generator") } == true)
        #expect(refusal(#"{"schemas": []}"#)?.contains("names no schema") == true)
        #expect(refusal(#"{"schemas": ["missing.json"]}"#)?.contains("no schema missing.json in target Models") == true)
        #expect(
            refusal(#"{"schemas": ["client.schema.json"], "typeprefix": "A"}"#)?.contains(#"unknown key "typeprefix""#)
                == true)
        #expect(
            refusal(#"{"schemas": [{"path": "client.schema.json", "root": "A"}]}"#)?.contains(#"unknown key "root""#)
                == true)
        #expect(
            refusal(#"{"schemas": ["client.schema.json"], "access": "private"}"#)?.contains(
                "public or internal, not private") == true)
        #expect(
            refusal(#"{"schemas": ["client.schema.json", "nested/client.json"]}"#)?
                .contains("client.schema.json and nested/client.json would both be generated as Client.swift") == true)
    }
}
