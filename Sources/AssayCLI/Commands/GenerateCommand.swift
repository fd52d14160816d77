import ArgumentParser
import AssayGenerator
import AssayJSON
import AssaySchema

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `assay generate`: code from a schema.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate code from a JSON Schema or an OpenAPI document.",
        subcommands: [GenerateSwiftCommand.self])
}

/// `assay generate swift SCHEMA [-o PATH]`.
struct GenerateSwiftCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swift",
        abstract: "Generate @Validatable Swift types whose rules are the schema's constraints.",
        discussion: """
            SCHEMA is a JSON Schema (draft 7 or 2020-12; JSON, or YAML by extension) or an OpenAPI 3.0 or \
            3.1 document, whose components.schemas are generated. The root (when it is an object), each of \
            $defs and definitions, and each inline object or string enum become a type. A keyword with no \
            Swift form yet is refused with its place; a constraint enforced only in part is printed as a \
            note on standard error. A $ref to another document is read from --registry's folders (offline) \
            and the documents it reaches are embedded in the file.

            The file is written whole or not at all: a schema that cannot be generated leaves -o's file as \
            it was.

            Exit status: 0 generated; 1 the schema cannot be generated (the reason and its place on \
            standard error); 2 a usage error, a file that cannot be read or written.
            """)

    @Argument(help: ArgumentHelp("The schema or OpenAPI document.", valueName: "SCHEMA"))
    var schema: String

    @Option(
        name: [.short, .customLong("output")],
        help: ArgumentHelp(
            "The Swift file to write, or a folder to write NAME.swift in (NAME from SCHEMA's file name); standard output when omitted.",
            valueName: "PATH"))
    var output: String?

    @Option(help: "The access level of the declarations: public or internal.")
    var access = SwiftGeneratorOptions.AccessLevel.public

    @Option(help: ArgumentHelp("Put before every type's name.", valueName: "PREFIX"))
    var typePrefix = ""

    @Option(help: ArgumentHelp("The root's type name when it has no title (default Root).", valueName: "NAME"))
    var rootName: String?

    @Option(
        name: .customLong("registry"),
        help: ArgumentHelp(
            "Resolve $ref URIs under PREFIX from files in DIR, never from the network (repeatable); the documents reached are embedded in the generated file.",
            valueName: "PREFIX=DIR"))
    var registries: [String] = []

    func execute(_ context: CommandContext) -> Int32 {
        let document: JSONValue
        do throws(CLIError) {
            document = try SchemaLoader.readDocument(schema)
        } catch {
            context.fail(error)
            return error.kind == .schema ? ExitStatus.invalid : ExitStatus.failure
        }
        let name = OutputFile.split(schema).name
        var registry = SchemaRegistry()
        for entry in registries {
            guard let equals = entry.firstIndex(of: "="), equals != entry.startIndex,
                entry.index(after: equals) != entry.endIndex
            else {
                context.fail(CLIError.usage("--registry \(entry): expected PREFIX=DIR"))
                return ExitStatus.failure
            }
            registry.map(prefix: String(entry[..<equals]), toDirectory: String(entry[entry.index(after: equals)...]))
        }
        let options = SwiftGeneratorOptions(
            access: access, typePrefix: typePrefix, rootName: rootName, sourceName: name, registry: registry)
        let generated: GeneratedSwift
        do throws(SwiftGenerationError) {
            generated = try SwiftGenerator.generate(document, options: options)
        } catch {
            context.fail(CLIError.schema("\(schema): \(error)"))
            return ExitStatus.invalid
        }
        for note in generated.notes {
            context.standardError.write("note: \(TerminalText.printable(note))\n")
        }
        guard let output else {
            context.standardOutput.write(generated.source)
            return ExitStatus.success
        }
        do throws(CLIError) {
            let file = try OutputFile(path: destination(output, schemaName: name))
            file.sink.write(generated.source)
            try file.prepare()
            try file.publish()
        } catch {
            context.fail(error)
            return ExitStatus.failure
        }
        return ExitStatus.success
    }

    /// `PATH` itself, or `PATH/Name.swift` when `PATH` is a folder.
    private func destination(_ path: String, schemaName: String) -> String {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return path }
        let base = schemaName.split(separator: ".").first.map(String.init) ?? schemaName
        let file = (base.first?.uppercased() ?? "") + base.dropFirst() + ".swift"
        return path.hasSuffix("/") ? path + file : path + "/" + file
    }
}

extension SwiftGeneratorOptions.AccessLevel: EnumeratedArgument {}
