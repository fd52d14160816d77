import AssayCore
public import AssayJSON
import AssayRegex
import AssaySchema

import Foundation

/// How a schema file is read and compiled for the command line.
struct SchemaSettings: Sendable {
    var defaultDialect: SchemaDialect = .draft2020_12
    var assertFormats = true
    /// `--unknown-formats`: what an asserted format Assay does not know means.
    var unknownFormats = UnknownFormatPolicy.reject
    /// `--max-pattern-size`.
    var maximumPatternSize = LinearRegex.defaultMaximumProgramSize
    /// `PREFIX=DIR` pairs from `--registry`.
    var registries: [(prefix: String, directory: String)] = []
}

/// Reading schema files (JSON, or YAML by extension), checking them against their metaschema and
/// compiling them.
enum SchemaLoader {
    /// The schema document in a file: JSON, or YAML when the name ends in `.yaml` or `.yml`.
    static func readDocument(_ path: String) throws(CLIError) -> JSONValue {
        let bytes = try FileReading.readFile(path)
        if InputFormat(path: path) == .yaml {
            let documents = YAMLInput.documents(bytes)
            guard documents.count == 1, let document = documents.first else {
                throw CLIError.schema("\(path): a schema file holds one YAML document, not \(documents.count)")
            }
            switch document.value {
            case .success(let value): return value
            case .failure(let problem): throw CLIError.schema("\(path): \(problem.message)")
            }
        }
        do {
            return try JSONValue(parsing: bytes, options: JSONParserOptions(maximumDepth: 1_000))
        } catch {
            if error.reason == .empty { throw CLIError.schema("\(path): the schema file is empty") }
            throw CLIError.schema(
                "\(path): not valid JSON: line \(error.line), column \(error.column): \(error.detail)")
        }
    }

    /// The dialect a schema document declares with `$schema`, if it names a known one.
    static func declaredDialect(of document: JSONValue) -> SchemaDialect? {
        guard case .object(let object) = document, case .string(let uri)? = object["$schema"] else { return nil }
        return SchemaDialect(uri)
    }

    /// The places where `document` breaks its dialect's metaschema, as `pointer: message` lines.
    static func metaschemaProblems(of document: JSONValue, settings: SchemaSettings) -> [String] {
        let dialect = declaredDialect(of: document) ?? settings.defaultDialect
        guard let metaschema = metaschemas.metaschema(for: dialect) else { return [] }
        let result = Language.withCurrent(.english) { metaschema.validate(document, limit: .first(20)) }
        return result.errors.map { error in
            let pointer = error.instanceLocation.jsonPointer
            return "\(pointer.isEmpty ? "(root)" : pointer): \(error.message(in: .english))"
        }
    }

    /// The compiled metaschemas, each made once a process: `check-schema` checks every schema it is
    /// given against its dialect's (2020-12's is 74 nodes, 6M instructions to compile), and none is
    /// freed at exit.
    private static let metaschemas = MetaschemaCache()

    /// Reads, checks and compiles the schema at `path`. Relative `$ref`s resolve to files beside it.
    static func load(_ path: String, settings: SchemaSettings) throws(CLIError) -> JSONSchema {
        try compile(checkedDocument(path, settings: settings), path: path, settings: settings)
    }

    /// Reads the schema document at `path` and checks it against its dialect's metaschema.
    static func checkedDocument(_ path: String, settings: SchemaSettings) throws(CLIError) -> JSONValue {
        let document = try readDocument(path)
        let problems = metaschemaProblems(of: document, settings: settings)
        guard problems.isEmpty else {
            throw CLIError.schema("\(path): not a valid schema: \(problems.joined(separator: "; "))")
        }
        return document
    }

    /// A compilation of `document` that shares no storage with any other: worker threads each get
    /// one, so they never contend for the same reference counts.
    static func independentCopy(of document: JSONValue, path: String, settings: SchemaSettings) -> JSONSchema? {
        guard let fresh = try? JSONValue(parsing: document.jsonBytes(), options: JSONParserOptions(maximumDepth: 1_000))
        else { return nil }
        return try? compile(fresh, path: path, settings: settings)
    }

    /// Compiles a schema document read from `path`.
    static func compile(_ document: JSONValue, path: String, settings: SchemaSettings) throws(CLIError)
        -> JSONSchema
    {
        switch compileResult(document, path: path, settings: settings) {
        case .success(let schema): return schema
        case .failure(let problems):
            throw CLIError.schema("\(path): the schema does not compile: \(problems.lines.joined(separator: "; "))")
        }
    }

    /// Compiles a schema document read from `path`, or lists why it does not compile.
    static func compileResult(_ document: JSONValue, path: String, settings: SchemaSettings)
        -> Result<JSONSchema, SchemaProblems>
    {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL
        let folder = absolute.deletingLastPathComponent()
        var registry = SchemaRegistry()
        registry.map(prefix: folder.absoluteString, toDirectory: folder.path)
        for (prefix, directory) in settings.registries {
            registry.map(prefix: prefix, toDirectory: directory)
        }
        let options = JSONSchema.Options(
            defaultDialect: settings.defaultDialect, assertFormats: settings.assertFormats, registry: registry,
            unknownFormats: settings.unknownFormats, maximumPatternSize: settings.maximumPatternSize)
        do {
            return .success(try JSONSchema(document, uri: absolute.absoluteString, options: options))
        } catch {
            return .failure(
                SchemaProblems(
                    lines: error.problems.map { problem in
                        problem.location.hasPrefix(absolute.absoluteString)
                            ? "\(problem.location.dropFirst(absolute.absoluteString.count)): \(problem.message)"
                            : problem.description
                    }))
        }
    }
}

/// Why a schema cannot be used, one line each.
struct SchemaProblems: Error {
    let lines: [String]
}

/// Schema and OpenAPI documents read as `assay` reads them, for the tools built on Assay (the
/// OpenAPI middleware reads the document the generator reads).
public enum SchemaFile {
    /// The document in a file: JSON, or YAML when the name ends in `.yaml` or `.yml` (one YAML
    /// document, its merge keys and anchors resolved, within the command's limits).
    ///
    /// - Throws: ``CLIError`` naming the file: `io` when it cannot be read, `schema` when it is not
    ///   JSON or YAML.
    public static func read(_ path: String) throws(CLIError) -> JSONValue {
        try SchemaLoader.readDocument(path)
    }
}

/// Each dialect's metaschema, compiled on first use and kept (at most one a dialect).
private final class MetaschemaCache: @unchecked Sendable {
    private let lock = NSLock()
    private var compiled: [SchemaDialect: JSONSchema] = [:]

    /// The metaschema of `dialect`, compiled; `nil` if it does not compile (never, for the bundled ones).
    func metaschema(for dialect: SchemaDialect) -> JSONSchema? {
        lock.lock()
        defer { lock.unlock() }
        if let known = compiled[dialect] { return known }
        guard
            let made = try? JSONSchema(
                BundledMetaschemas.metaschema(for: dialect), uri: dialect.uri,
                options: JSONSchema.Options(defaultDialect: dialect))
        else { return nil }
        compiled[dialect] = made
        return made
    }
}
