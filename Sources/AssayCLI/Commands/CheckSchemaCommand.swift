import ArgumentParser
import AssayJSON

struct CheckSchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-schema",
        // Parsed as the root (``AssayTool/parse(_:)``), it is `assay check-schema` in help, and the
        // parse does not first try the arguments as a request for a completion script (which
        // the parse from the root answers).
        _superCommandName: "assay",
        abstract: "Check schemas against their dialect's metaschema and compile them.",
        discussion: """
            Each SCHEMA (JSON, or YAML by extension) is validated against the metaschema of the dialect \
            its $schema names (or --default-dialect), then compiled: every $ref must resolve (to files \
            beside it or through --registry), every pattern must be supported.

            Exit status: 0 every schema is valid; 1 at least one is not (not JSON counts); 2 a usage error \
            or a file that cannot be read.
            """)

    @OptionGroup var schemaOptions: SchemaOptions

    @Option(help: "Output: text, or json for one JSON object per schema.")
    var format = OutputFormat.text

    @Argument(help: ArgumentHelp("Schema files.", valueName: "SCHEMA"))
    var schemas: [String] = []

    func execute(_ context: CommandContext) -> Int32 {
        let settings: SchemaSettings
        do throws(CLIError) {
            guard !schemas.isEmpty else { throw CLIError.usage("check-schema: no SCHEMA given") }
            settings = try schemaOptions.settings()
        } catch {
            context.fail(error)
            return ExitStatus.failure
        }
        var status = ExitStatus.success
        for path in schemas {
            let problems: [String]
            do throws(CLIError) {
                let document = try SchemaLoader.readDocument(path)
                problems = check(document, path: path, settings: settings)
            } catch  where error.kind == .io {
                context.fail(error)
                status = ExitStatus.failure
                continue
            } catch {
                let prefix = "\(path): "
                problems = [
                    error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
                ]
            }
            if !problems.isEmpty, status == ExitStatus.success { status = ExitStatus.invalid }
            report(path: path, problems: problems, context: context)
        }
        return status
    }

    private func check(_ document: JSONValue, path: String, settings: SchemaSettings) -> [String] {
        let problems = SchemaLoader.metaschemaProblems(of: document, settings: settings)
        guard problems.isEmpty else { return problems }
        switch SchemaLoader.compileResult(document, path: path, settings: settings) {
        case .success: return []
        case .failure(let failure): return failure.lines
        }
    }

    private func report(path: String, problems: [String], context: CommandContext) {
        switch format {
        case .text:
            if problems.isEmpty {
                context.standardOutput.write("\(TerminalText.printable(path)): valid schema\n")
            }
            for problem in problems {
                context.standardOutput.write("\(TerminalText.printable(path)): \(TerminalText.printable(problem))\n")
            }
        case .json:
            let line: JSONValue = [
                "file": .string(path), "valid": .bool(problems.isEmpty),
                "errors": .array(problems.map(JSONValue.string)),
            ]
            context.standardOutput.write(line.jsonBytes() + [0x0A])
        }
    }
}
