import Foundation

/// What the plugin generates for one target: a command per document named in its configuration.
struct GeneratorPlan {
    static let configName = "assay-generator.json"

    var targetName: String
    var directory: URL
    var files: [URL]
    var workDirectory: URL

    /// One run of `assay generate swift`: what it reads and the file it writes.
    struct Generation: Equatable {
        /// The document as the configuration names it.
        var schemaPath: String
        var arguments: [String]
        var inputs: [URL]
        var output: URL
    }

    /// A generation per document the configuration names, in its order.
    ///
    /// - Throws: ``PluginError`` when the target has no configuration, it cannot be read or names
    ///   nothing, an option is unknown or misspelt, a document is missing, or two documents would
    ///   write one file.
    func generations() throws -> [Generation] {
        guard let configURL = files.first(where: { $0.lastPathComponent == Self.configName }) else {
            throw PluginError(
                "target \(targetName) uses AssayGeneratorPlugin but has no \(Self.configName) naming its schemas")
        }
        let config: GeneratorConfig
        do {
            config = try JSONDecoder().decode(GeneratorConfig.self, from: Data(contentsOf: configURL))
        } catch let error as PluginError {
            throw PluginError("\(configURL.path): \(error.description)")
        } catch {
            throw PluginError("\(configURL.path) is not a configuration of the generator: \(error)")
        }
        guard !config.schemas.isEmpty else {
            throw PluginError("\(configURL.path) names no schema (\"schemas\": [\"client.schema.json\"])")
        }
        var outputs: [String: String] = [:]
        return try config.schemas.map { entry in
            let schema = directory.appending(path: entry.path)
            guard FileManager.default.fileExists(atPath: schema.path) else {
                throw PluginError(
                    "\(configURL.path): no schema \(entry.path) in target \(targetName)'s folder (\(directory.path))")
            }
            let name = Self.swiftFileName(of: schema)
            // Compared without case: Apple's file systems would write one file for both.
            if let other = outputs.updateValue(entry.path, forKey: name.lowercased()) {
                throw PluginError(
                    "\(configURL.path): \(other) and \(entry.path) would both be generated as \(name); rename one")
            }
            let output = workDirectory.appending(path: name)
            var arguments = ["generate", "swift", schema.path, "--output", output.path]
            if let access = entry.access ?? config.access { arguments += ["--access", access] }
            if let prefix = entry.typePrefix ?? config.typePrefix { arguments += ["--type-prefix", prefix] }
            if let root = entry.rootName ?? config.rootName { arguments += ["--root-name", root] }
            return Generation(
                schemaPath: entry.path, arguments: arguments, inputs: [schema, configURL], output: output)
        }
    }

    /// `Client.swift` for `client.schema.json`: what `assay generate swift -o FOLDER` writes.
    static func swiftFileName(of schema: URL) -> String {
        let file = schema.lastPathComponent
        let base = file.split(separator: ".").first.map(String.init) ?? file
        return (base.first?.uppercased() ?? "") + base.dropFirst() + ".swift"
    }
}

/// `assay-generator.json`.
struct GeneratorConfig: Decodable {
    /// One document to generate, and its own options.
    struct Entry: Decodable {
        var path: String
        var access: String?
        var typePrefix: String?
        var rootName: String?

        private enum CodingKeys: String, CodingKey { case path, access, typePrefix, rootName }

        init(from decoder: any Decoder) throws {
            if let path = try? decoder.singleValueContainer().decode(String.self) {
                self.path = path
                return
            }
            try GeneratorConfig.refuseUnknownKeys(in: decoder, known: ["path", "access", "typePrefix", "rootName"])
            let container = try decoder.container(keyedBy: CodingKeys.self)
            path = try container.decode(String.self, forKey: .path)
            access = try container.decodeIfPresent(String.self, forKey: .access)
            typePrefix = try container.decodeIfPresent(String.self, forKey: .typePrefix)
            rootName = try container.decodeIfPresent(String.self, forKey: .rootName)
            try GeneratorConfig.checkAccess(access)
        }
    }

    var schemas: [Entry]
    var access: String?
    var typePrefix: String?
    var rootName: String?

    private enum CodingKeys: String, CodingKey { case schemas, access, typePrefix, rootName }

    init(from decoder: any Decoder) throws {
        try Self.refuseUnknownKeys(in: decoder, known: ["schemas", "access", "typePrefix", "rootName"])
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schemas = try container.decode([Entry].self, forKey: .schemas)
        access = try container.decodeIfPresent(String.self, forKey: .access)
        typePrefix = try container.decodeIfPresent(String.self, forKey: .typePrefix)
        rootName = try container.decodeIfPresent(String.self, forKey: .rootName)
        try Self.checkAccess(access)
    }

    /// A misspelt option is an error, not an option silently left at its default.
    static func refuseUnknownKeys(in decoder: any Decoder, known: Set<String>) throws {
        let keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
        if let unknown = keys.sorted().first(where: { !known.contains($0) }) {
            throw PluginError("unknown key \"\(unknown)\" (known: \(known.sorted().joined(separator: ", ")))")
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    static func checkAccess(_ access: String?) throws {
        guard let access, access != "public", access != "internal" else { return }
        throw PluginError("\"access\" is public or internal, not \(access)")
    }
}

/// A configuration the plugin cannot use, said in one line.
struct PluginError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
