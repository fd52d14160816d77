import Foundation
import PackagePlugin

/// Generates a target's `@Validatable` types from its JSON Schema or OpenAPI documents at build time,
/// with `assay generate swift` — the command and the plugin share one generator.
///
/// The target holds the documents and `assay-generator.json`, which names them:
///
/// ```json
/// {"schemas": ["client.schema.json", {"path": "api/openapi.yaml", "typePrefix": "API"}],
///  "access": "internal"}
/// ```
///
/// Each document gives one Swift file, `Name.swift` (`Name` from the document's file name, as
/// `assay generate swift -o FOLDER` names it), compiled with the target's own sources. Options
/// (`access`, `typePrefix`, `rootName`) are given for every document at the top level, and for one
/// document in its entry. Paths are relative to the target's folder.
@main
struct AssayGeneratorPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let plan = GeneratorPlan(
            targetName: target.name, directory: target.directoryURL, files: target.sourceFiles.map(\.url),
            workDirectory: context.pluginWorkDirectoryURL)
        return try plan.commands(tool: context.tool(named: "assay").url)
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension AssayGeneratorPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        let files = target.inputFiles.map(\.url)
        guard let config = files.first(where: { $0.lastPathComponent == GeneratorPlan.configName }) else {
            throw PluginError("target \(target.displayName) has no \(GeneratorPlan.configName)")
        }
        let plan = GeneratorPlan(
            targetName: target.displayName, directory: config.deletingLastPathComponent(), files: files,
            workDirectory: context.pluginWorkDirectoryURL)
        return try plan.commands(tool: context.tool(named: "assay").url)
    }
}
#endif

extension GeneratorPlan {
    /// A build command per document: `assay generate swift`, its inputs and the one file it writes.
    func commands(tool: URL) throws -> [Command] {
        try generations().map { generation in
            .buildCommand(
                displayName: "Generating \(generation.output.lastPathComponent) from \(generation.schemaPath)",
                executable: tool, arguments: generation.arguments, inputFiles: generation.inputs,
                outputFiles: [generation.output])
        }
    }
}
