import ArgumentParser
import AssayCore
import AssayJSON
import AssayRegex
import AssaySchema

/// The `assay` command line: `assay validate`, `assay check-schema`, `assay generate swift` and
/// `assay report`.
///
/// <!-- snippet: doc-assay-tool -->
/// ```swift
/// let status = AssayTool.main(
///     ["validate", "--schema", "Examples/clients/client.schema.json", "Examples/clients/clients.ndjson"],
///     context: context)
/// print(status)  // 1: some records are invalid
/// ```
public enum AssayTool {
    /// The version `assay --version` prints.
    public static let version = "0.1.0"

    /// Runs the command line `arguments` (without the program name) and returns the exit status:
    /// 0 all valid, 1 something invalid, 2 a usage error, an unreadable input or a bad schema.
    public static func main(_ arguments: [String], context: CommandContext = .process()) -> Int32 {
        let status: Int32
        do {
            var command = try parse(arguments)
            switch command {
            case let validate as ValidateCommand:
                status = validate.execute(context)
            case let check as CheckSchemaCommand:
                status = check.execute(context)
            case let generate as GenerateSwiftCommand:
                status = generate.execute(context)
            case let render as ReportRenderCommand:
                status = render.execute(context)
            case let merge as ReportMergeCommand:
                status = merge.execute(context)
            case is GenerateCommand:
                context.standardError.write(GenerateCommand.helpMessage() + "\n")
                status = ExitStatus.failure
            case is AssayCommand:
                context.standardError.write(AssayCommand.helpMessage() + "\n")
                status = ExitStatus.failure
            default:
                // `assay help validate`: ArgumentParser's help command reports help as an error.
                try command.run()
                status = ExitStatus.failure
            }
        } catch {
            let message = AssayCommand.fullMessage(for: error)
            if AssayCommand.exitCode(for: error) == .success {
                context.standardOutput.write(message + "\n")
                status = ExitStatus.success
            } else {
                context.standardError.write(message + "\n")
                status = ExitStatus.failure
            }
        }
        context.standardOutput.flush()
        context.standardError.flush()
        return status
    }
}

extension AssayTool {
    /// The subcommands without subcommands of their own that a command line may start with.
    private static let leafCommands: [(name: String, type: any ParsableCommand.Type)] = [
        ("validate", ValidateCommand.self), ("check-schema", CheckSchemaCommand.self),
    ]

    /// The command `arguments` name.
    ///
    /// A command line that starts with `validate` or `check-schema` is first parsed as that
    /// subcommand's own arguments. Parsed from the root, the subcommand's options are built twice
    /// more (ArgumentParser asks whether the subcommand takes all remaining arguments once for each
    /// branch of a condition): 2.8 million instructions, a tenth of a run's start. The subcommand
    /// names `assay` its super-command, so that parse does not first try the arguments as a request
    /// for a completion script either (0.9 million more). Whatever that parse does not accept as the
    /// subcommand — help, `--version`, a completion request, any usage error — is parsed again from
    /// the root, so help, usage, completion scripts and error messages read as before.
    static func parse(_ arguments: [String]) throws -> any ParsableCommand {
        if let first = arguments.first, let leaf = leafCommands.first(where: { $0.name == first }),
            let command = try? leaf.type.parseAsRoot(Array(arguments.dropFirst())),
            type(of: command) == leaf.type
        {
            return command
        }
        return try AssayCommand.parseAsRoot(arguments)
    }
}

struct AssayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assay",
        abstract: "Validate JSON, NDJSON and YAML against a JSON Schema.",
        discussion: """
            Exit status: 0 every document is valid; 1 at least one document is invalid (a line that is not \
            JSON counts as an invalid document); 2 a usage error, an input that cannot be read, an output \
            that cannot be written, or a schema that does not compile.
            """,
        version: AssayTool.version,
        subcommands: [ValidateCommand.self, CheckSchemaCommand.self, GenerateCommand.self, ReportCommand.self])
}

/// An option's value that is one of an enumeration's cases, spelled as its raw value. The values
/// are listed for help and completion from the cases directly: ArgumentParser's own listing reads
/// them through a key path it instantiates for each type, at every start of the tool (about 4
/// million instructions, a tenth of a start).
protocol EnumeratedArgument: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {}

extension EnumeratedArgument {
    // Public: they are the witnesses of public types' conformances (SchemaOutputFormat's).
    /// The raw values of all cases, in their order.
    public static var allValueStrings: [String] { allCases.map { $0.rawValue } }
    /// No case has a description besides its name.
    public static var allValueDescriptions: [String: String] { [:] }
    /// The raw value.
    public var defaultValueDescription: String { rawValue }
}

extension InputFormat: EnumeratedArgument {}
extension ColorChoice: EnumeratedArgument {}

/// `--duplicate-keys reject|last|first`.
enum DuplicateKeysArgument: String, CaseIterable, EnumeratedArgument {
    case reject
    case last
    case first

    var policy: DuplicateKeyPolicy {
        switch self {
        case .reject: .reject
        case .last: .lastWins
        case .first: .firstWins
        }
    }
}
extension OutputFormat: EnumeratedArgument {}
extension SchemaOutputFormat: EnumeratedArgument {}

/// `--formats assert|annotate`.
enum FormatMode: String, CaseIterable, EnumeratedArgument {
    case assert
    case annotate
}

/// `--unknown-formats reject|ignore`.
enum UnknownFormatMode: String, CaseIterable, EnumeratedArgument {
    case reject
    case ignore
}

/// `--default-dialect 4|6|7|2019-09|2020-12`.
struct DialectArgument: ExpressibleByArgument {
    let dialect: SchemaDialect

    init?(argument: String) {
        guard ["4", "6", "7", "2019-09", "2020-12"].contains(argument), let dialect = SchemaDialect(argument) else {
            return nil
        }
        self.dialect = dialect
    }

    init(_ dialect: SchemaDialect) { self.dialect = dialect }

    var defaultValueDescription: String { dialect.description }
    static var allValueStrings: [String] { ["4", "6", "7", "2019-09", "2020-12"] }
}

/// The options of schema loading shared by both subcommands.
///
/// Here and in ``ValidateCommand`` the long names are written out, not derived from the property
/// names: ArgumentParser converts each property name to kebab case every time it builds the
/// options (three times a run), 1.5M instructions of every start.
struct SchemaOptions: ParsableArguments {
    @Option(
        name: .customLong("default-dialect"),
        help: "The dialect of schemas without $schema: 4, 6, 7, 2019-09 or 2020-12.")
    var defaultDialect = DialectArgument(.draft2020_12)

    @Option(
        name: .customLong("formats"), help: "Check formats (email, date-time, uuid…) or treat them as annotations only."
    )
    var formats = FormatMode.assert

    @Option(
        name: .customLong("unknown-formats"),
        help: """
            With --formats assert, what a format Assay does not know means: reject (the schema does not \
            compile; the error names the format and the nearest known one) or ignore (it is an annotation).
            """)
    var unknownFormats = UnknownFormatMode.reject

    @Option(
        name: .customLong("max-pattern-size"),
        help: """
            The largest automaton a pattern may compile to, in instructions (a match costs at most this \
            much per character); a larger pattern is a schema error.
            """)
    var maxPatternSize = LinearRegex.defaultMaximumProgramSize

    @Option(
        name: .customLong("registry"),
        help: ArgumentHelp(
            "Resolve $ref URIs under PREFIX from files in DIR, never from the network (repeatable).",
            valueName: "PREFIX=DIR"))
    var registries: [String] = []

    func settings() throws(CLIError) -> SchemaSettings {
        var settings = SchemaSettings(defaultDialect: defaultDialect.dialect, assertFormats: formats == .assert)
        settings.unknownFormats = unknownFormats == .reject ? .reject : .ignore
        guard maxPatternSize >= 1, maxPatternSize <= LinearRegex.maximumAllowedProgramSize else {
            throw CLIError.usage(
                "--max-pattern-size \(maxPatternSize): needs 1 to \(LinearRegex.maximumAllowedProgramSize)")
        }
        settings.maximumPatternSize = maxPatternSize
        for entry in registries {
            guard let equals = entry.firstIndex(of: "="), equals != entry.startIndex,
                entry.index(after: equals) != entry.endIndex
            else { throw CLIError.usage("--registry \(entry): expected PREFIX=DIR") }
            settings.registries.append((String(entry[..<equals]), String(entry[entry.index(after: equals)...])))
        }
        return settings
    }
}

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        // Parsed as the root (``AssayTool/parse(_:)``), it is `assay validate` in help, and the
        // parse does not first try the arguments as a request for a completion script (which
        // the parse from the root answers).
        _superCommandName: "assay",
        abstract: "Validate documents against a JSON Schema.",
        discussion: """
            INPUT is a .json file (one document), .ndjson or .jsonl (one document per line; blank lines \
            are skipped), .yaml or .yml (every document of the stream, read a document at a time), or - for standard input (NDJSON \
            unless --input-format says otherwise).

            --format text prints FILE:LINE: /pointer: message for each error (the line of the value in \
            JSON and YAML files); --format json prints exactly one JSON object per document, in input \
            order: {"file":…,"line":N (NDJSON) or "document":N (JSON, YAML),"valid":…,"errors":[{\
            "instanceLocation","keywordLocation","absoluteKeywordLocation","code","error"}]}; an anyOf or \
            oneOf error adds "causes", the errors of each alternative in the same form. A summary \
            line (documents, invalid documents, errors, seconds, documents per second) goes to standard \
            error unless --quiet; so does a progress bar when standard error is a terminal and the input \
            is large.

            --valid-out and --quarantine receive the valid and the invalid NDJSON lines verbatim, in input \
            order, so that together they hold every non-blank input line exactly once; JSON and YAML \
            documents are written as one compact JSON line each. A regular file (or a symbolic link to \
            one: the target is replaced, the link stays) is written to a temporary file beside it and \
            renamed into place only when the run succeeds; a new file gets the umask's mode, a replaced \
            one keeps its own. /dev/stdout, /dev/fd/N, a FIFO or a terminal is written in place, as a \
            stream. A write error stops the run (status 2); so does a closed standard output. SIGINT, \
            SIGTERM and SIGHUP stop it with status 130, 143 and 129: temporary files are removed and \
            every destination is left as it was.

            --summary writes what the run found as one JSON object (docs/report.md): the totals, the \
            failing paths with array indices folded (/items/*/price), per keyword and code, a few example \
            documents of each, bounded whatever the input; assay report merge combines shards' summaries. \
            --report draws it as a self-contained HTML page. Values at --redact places and at members the \
            schema marks writeOnly are not shown in either. With --format text, a short table of the \
            most failing paths and keywords goes to standard error before the summary line.

            As a filter in a pipeline, - is standard input as an INPUT and standard output for \
            --valid-out, --quarantine, --results, --summary or --report (one of them at most; when another \
            takes it, the per-document results are not written unless --results names a file): zcat in.ndjson.gz | assay \
            validate -s s.json --valid-out - --quarantine bad.ndjson - | jq … Results and lines go out in \
            input order, in large blocks while input keeps coming; when it stops (a producer that paused, \
            as tail -f), everything checked so far is written and flushed before assay waits, so each \
            line's result shows as it comes. Every INPUT is checked by one pool of --jobs threads with \
            the schema compiled once.

            Limits bound the cost of hostile input: --max-document-bytes (1 GiB) and --max-depth (1,000) \
            for each document, --max-pattern-size (10,000) for each pattern of the schema. A document over \
            a limit is reported with the limit it crossed and is not validated: it goes to --quarantine, \
            never to --valid-out, and the run exits with status 2.

            Exit status: 0 every document is valid; 1 at least one document is invalid (a line that is \
            not JSON counts as an invalid document); 2 a usage error, an input that cannot be read, an \
            output that cannot be written, a schema that is not valid or does not compile, or a document \
            not validated because it crossed a limit.
            """)

    @Option(
        name: [.short, .long],
        help: "The JSON Schema (JSON, or YAML by extension). Relative $refs resolve to files beside it.")
    var schema: String

    @OptionGroup var schemaOptions: SchemaOptions

    @Option(
        name: .customLong("input-format"),
        help: "Read every input as json, ndjson or yaml instead of telling by the file name.")
    var inputFormat: InputFormat?

    @Option(
        name: .customLong("format"), help: "Output: text for people, json for JSON Lines (one object per document).")
    var format = OutputFormat.text

    @Option(
        name: .customLong("output"),
        help: """
            Instead of --format, each document's result in a JSON Schema 2020-12 output format, one JSON \
            object per line: flag, basic, detailed or verbose (a valid document's annotations and the \
            verbose units come from evaluating every keyword: slower).
            """)
    var output: SchemaOutputFormat?

    @Option(
        name: .customLong("lang"),
        help: "Language of messages: en, ru or zh-Hans (default: from LC_ALL, LC_MESSAGES or LANG, else en).")
    var lang: String?

    @Option(name: .customLong("jobs"), help: "Worker threads for NDJSON (default: the number of cores).")
    var jobs: Int?

    @Option(
        name: .customLong("max-errors"),
        help: "Errors kept per document, causes under anyOf and oneOf included; 0 keeps all.")
    var maxErrors = 100

    @Option(
        name: .customLong("max-document-bytes"),
        help: "The largest document (a JSON file, or one NDJSON line) read, in bytes.")
    var maxDocumentBytes = JSONParserOptions.defaultMaximumBytes

    @Option(name: .customLong("max-depth"), help: "The deepest nesting of arrays and objects read.")
    var maxDepth = 1_000

    @Option(
        name: .customLong("duplicate-keys"),
        help: """
            What an object with the same key twice means (RFC 8259 allows it): reject (the document is not \
            valid JSON), last (the last member counts, as most parsers do) or first.
            """)
    var duplicateKeys = DuplicateKeysArgument.reject

    @Option(
        name: .customLong("valid-out"), help: "Write the valid lines here (NDJSON), atomically; - for standard output.")
    var validOut: String?

    @Option(
        name: .customLong("quarantine"),
        help: "Write the invalid lines here (NDJSON), atomically; - for standard output.")
    var quarantine: String?

    @Option(
        name: .customLong("results"),
        help: """
            Write the per-document results here instead of standard output; - for standard output. \
            When another output takes standard output, they are not written unless this names a file \
            (the summary line still goes to standard error).
            """)
    var results: String?

    @Option(
        name: .customLong("summary"),
        help: "Write the run's summary here as JSON (failing paths, keywords, examples), atomically.")
    var summary: String?

    @Option(
        name: .customLong("report"), help: "Write the run's summary here as a self-contained HTML page, atomically.")
    var report: String?

    @Option(
        name: .customLong("redact"),
        help: ArgumentHelp(
            "Do not show the values at this JSON Pointer (* matches any key or index) in --summary and --report; repeatable.",
            valueName: "POINTER"))
    var redact: [String] = []

    @Option(
        name: .customLong("report-paths"),
        help: "Failing paths --summary and --report keep (the most failing; the rest are counted).")
    var reportPaths = RunSummary.Limits().paths

    @Option(
        name: .customLong("report-examples"),
        help: "Example documents --summary and --report keep per failing path and keyword.")
    var reportExamples = RunSummary.Limits().examples

    @Option(
        name: .customLong("color"),
        help: """
            Colour the report and the summary: auto (on a terminal, unless NO_COLOR is set or TERM is \
            dumb), always or never.
            """)
    var color = ColorChoice.auto

    @Flag(name: .customLong("quiet"), help: "No progress bar and no summary.")
    var quiet = false

    @Argument(help: ArgumentHelp("Files to validate, or - for standard input.", valueName: "INPUT"))
    var inputs: [String] = []

    func execute(_ context: CommandContext) -> Int32 {
        do throws(CLIError) {
            let settings = try makeSettings(context)
            return ValidationRun(settings: settings, context: context).run()
        } catch {
            context.fail(error)
            return ExitStatus.failure
        }
    }

    func makeSettings(_ context: CommandContext) throws(CLIError) -> ValidateSettings {
        guard !inputs.isEmpty else {
            throw CLIError.usage("validate: no INPUT given (a file, or - for standard input)")
        }
        guard inputs.filter({ $0 == "-" }).count <= 1 else { throw CLIError.usage("validate: - given more than once") }
        var settings = ValidateSettings(schemaPath: schema, inputs: inputs)
        settings.schema = try schemaOptions.settings()
        settings.inputFormat = inputFormat
        settings.outputFormat = format
        settings.specOutput = output
        settings.language = try language(context)
        if let jobs, jobs < 1 { throw CLIError.usage("--jobs \(jobs): needs at least 1") }
        settings.jobs = min(jobs ?? context.processorCount, 256)
        guard maxErrors >= 0 else { throw CLIError.usage("--max-errors \(maxErrors): needs 0 or more") }
        settings.maxErrors = maxErrors
        guard maxDocumentBytes >= 1, maxDocumentBytes <= JSONParserOptions.maximumAllowedBytes else {
            throw CLIError.usage(
                "--max-document-bytes \(maxDocumentBytes): needs 1 to \(JSONParserOptions.maximumAllowedBytes)")
        }
        guard maxDepth >= 1, maxDepth <= JSONParserOptions.maximumAllowedDepth else {
            throw CLIError.usage("--max-depth \(maxDepth): needs 1 to \(JSONParserOptions.maximumAllowedDepth)")
        }
        settings.parserOptions = JSONParserOptions(maximumDepth: maxDepth, maximumBytes: maxDocumentBytes)
        settings.parserOptions.duplicateKeys = duplicateKeys.policy
        settings.validOut = validOut
        settings.quarantine = quarantine
        settings.results = results
        settings.summary = summary
        settings.report = report
        settings.redact = redact
        _ = try Redaction(pointers: redact)
        guard (1...100_000).contains(reportPaths) else {
            throw CLIError.usage("--report-paths \(reportPaths): needs 1 to 100000")
        }
        guard (0...100).contains(reportExamples) else {
            throw CLIError.usage("--report-examples \(reportExamples): needs 0 to 100")
        }
        settings.summaryLimits.paths = reportPaths
        settings.summaryLimits.examples = reportExamples
        settings.color = color
        let outputs = [
            ("--valid-out", validOut), ("--quarantine", quarantine), ("--results", results), ("--summary", summary),
            ("--report", report),
        ].compactMap { name, path in path.map { (name, $0) } }
        let standard = outputs.filter { ValidationRun.isStandardOutput($0.1) }
        if standard.count > 1 {
            throw CLIError.usage(
                "\(standard.map(\.0).joined(separator: " and ")) both claim standard output; give one of them a file")
        }
        for (index, (name, path)) in outputs.enumerated() where !ValidationRun.isStandardOutput(path) {
            if let other = outputs[..<index].first(where: { $0.1 == path }) {
                throw CLIError.usage("\(other.0) and \(name) name the same file: \(path)")
            }
            if inputs.contains(path) { throw CLIError.usage("\(path): is both an input and an output") }
        }
        settings.quiet = quiet
        return settings
    }

    private func language(_ context: CommandContext) throws(CLIError) -> Language {
        guard let lang else { return context.environmentLanguage }
        guard let language = Language(lang), Language.builtIn.contains(language) else {
            throw CLIError.usage("--lang \(lang): unknown language; use en, ru or zh-Hans")
        }
        return language
    }
}
