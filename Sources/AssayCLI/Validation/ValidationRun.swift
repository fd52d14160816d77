import AssayCore
import AssayJSON
import AssaySchema

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The kinds of input `assay validate` reads.
enum InputFormat: String, CaseIterable, Sendable {
    /// One JSON document per file.
    case json
    /// One JSON document per line.
    case ndjson
    /// Every document of a YAML stream.
    case yaml

    /// The format a file name implies: `.json`; `.ndjson`, `.jsonl`; `.yaml`, `.yml`. `nil` otherwise.
    init?(path: String) {
        let lowered = path.lowercased()
        if lowered.hasSuffix(".json") {
            self = .json
        } else if lowered.hasSuffix(".ndjson") || lowered.hasSuffix(".jsonl") {
            self = .ndjson
        } else if lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml") {
            self = .yaml
        } else {
            return nil
        }
    }
}

/// Everything `assay validate` was asked to do.
struct ValidateSettings: Sendable {
    var schemaPath: String
    var inputs: [String]
    var inputFormat: InputFormat?
    var outputFormat: OutputFormat = .text
    /// `--output`: a 2020-12 output format instead of ``outputFormat``.
    var specOutput: SchemaOutputFormat?
    var schema = SchemaSettings()
    var language: Language = .english
    var jobs = 1
    var maxErrors = 100
    /// `--valid-out` and `--quarantine`: a path, or `-` for standard output.
    var validOut: String?
    var quarantine: String?
    /// `--results`: a path, `-` for standard output, or `nil` for standard output unless an output
    /// claims it (then the per-document results are not written).
    var results: String?
    /// `--summary`: the run's summary as JSON (``RunSummary``).
    var summary: String?
    /// `--report`: the run's summary as an HTML page (``HTMLReport``).
    var report: String?
    /// `--redact`: places whose values the summary and the report do not show (the schema's
    /// `writeOnly` members are added).
    var redact: [String] = []
    /// `--report-paths`, `--report-examples`: how much the summary keeps.
    var summaryLimits = RunSummary.Limits()
    /// `--color`.
    var color = ColorChoice.auto
    var quiet = false
    /// `--max-document-bytes` and `--max-depth`.
    var parserOptions = JSONParserOptions(maximumDepth: 1_000)
}

/// `--color auto|always|never`.
enum ColorChoice: String, CaseIterable, Sendable {
    /// Colour on a terminal, unless `NO_COLOR` is set or `TERM` is `dumb`.
    case auto
    case always
    case never

    /// Whether text written to a stream that `isTerminal` gets colour, in `environment`.
    func applies(isTerminal: Bool, environment: [String: String]) -> Bool {
        switch self {
        case .always: true
        case .never: false
        case .auto: isTerminal && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
        }
    }
}

/// One run of `assay validate`: the schema compiled once, one pool of worker threads, then every
/// input in order.
///
/// Results are handed on in input order. Output goes out in blocks while input keeps coming; when
/// a read would wait (a producer that paused), everything checked so far is written and flushed
/// first, so `tail -f log | assay validate …` shows each line's result as it comes.
final class ValidationRun {
    private let settings: ValidateSettings
    private let context: CommandContext
    private var documents = 0
    private var invalid = 0
    private var errors = 0
    /// Documents that crossed a limit and so were not validated: exit status 2.
    private var overLimit = 0
    private var validOut: OutputFile?
    private var quarantine: OutputFile?
    /// Where the per-document results go: standard output, a file, or nowhere.
    private var report: ByteSink?
    private var resultsFile: OutputFile?
    /// `--summary` and `--report`.
    private var summaryFile: OutputFile?
    private var htmlFile: OutputFile?
    /// The run's failures aggregated, for `--summary`, `--report` and the table `--format text`
    /// ends with.
    private var collector: SummaryCollector?
    /// The files written at the end, in this order.
    private var outputFiles: [OutputFile] {
        [validOut, quarantine, resultsFile, summaryFile, htmlFile].compactMap { $0 }
    }
    /// The worker threads (with `--jobs` above 1), started for the first NDJSON input and kept for
    /// the others.
    private var pool: OrderedWorkPool?
    /// The number of the next block handed to the pool, across inputs.
    private var sequence = 0
    /// Set when a write failed: the run stops at the next block.
    private var writeFailure: CLIError?
    private var progress: ProgressBar?
    /// The NDJSON bytes written out so far (for the progress bar).
    private var bytesDelivered = 0
    /// The schema as read, compiled again for each worker thread.
    private var schemaDocument: JSONValue = .null

    init(settings: ValidateSettings, context: CommandContext) {
        self.settings = settings
        self.context = context
    }

    /// Runs and returns the exit status.
    func run() -> Int32 {
        let started = context.clock()
        do throws(CLIError) {
            let schemaDocument = try SchemaLoader.checkedDocument(settings.schemaPath, settings: settings.schema)
            let schema = try SchemaLoader.compile(schemaDocument, path: settings.schemaPath, settings: settings.schema)
            self.schemaDocument = schemaDocument
            for input in settings.inputs where input != "-" {
                try FileReading.checkReadable(input)
            }
            let formats = try settings.inputs.map { input throws(CLIError) in try format(of: input) }
            try openOutputs()
            var redaction = try Redaction(pointers: settings.redact)
            let keepsExamples = settings.summary != nil || settings.report != nil
            if keepsExamples { redaction.add(Redaction.writeOnly(in: schemaDocument)) }
            if keepsExamples || (settings.outputFormat == .text && settings.specOutput == nil && !settings.quiet) {
                collector = SummaryCollector(
                    limits: settings.summaryLimits, language: settings.language, keepsExamples: keepsExamples,
                    redaction: redaction)
                collector?.parserOptions = settings.parserOptions
            }
            let color = settings.color.applies(
                isTerminal: report === context.standardOutput && context.outputIsTerminal,
                environment: context.environment)
            for (input, format) in zip(settings.inputs, formats) {
                var reporter = Reporter(
                    format: settings.outputFormat, language: settings.language, color: color, file: input)
                reporter.errorLimit = settings.maxErrors
                reporter.specOutput = settings.specOutput
                var checker = DocumentChecker(
                    schema: schema, limit: settings.maxErrors > 0 ? .first(settings.maxErrors) : .all,
                    reporter: reporter)
                checker.parserOptions = settings.parserOptions
                checker.collectsFailures = collector != nil
                checker.collectsValues = keepsExamples
                if format != .ndjson { try handOnEverything() }
                switch format {
                case .ndjson: try validateNDJSON(input, checker: checker)
                case .json: try validateJSON(input, checker: checker)
                case .yaml: try validateYAML(input, checker: checker)
                }
            }
            pool?.finish(deliver: deliver)
            pool = nil
            if let writeFailure { throw writeFailure }
            progress?.clear()
            context.standardOutput.flush()
            if let failure = context.standardOutput.failure {
                throw CLIError.io("standard output cannot be written: \(failure)")
            }
            if let collector, summaryFile != nil || htmlFile != nil {
                let summary = self.summary(of: collector, seconds: context.clock() - started)
                summaryFile?.sink.write(summary.json.jsonBytes(.prettyPrinted) + [0x0A])
                htmlFile?.sink.write(Array(HTMLReport(summary).render().utf8))
                if let failure = failedWrite() { throw failure }
            }
            // Every file is complete on disk before any replaces its destination.
            for file in outputFiles { try file.prepare() }
            for file in outputFiles { try file.publish() }
        } catch {
            pool?.finish { _ in }
            pool = nil
            progress?.clear()
            for file in outputFiles { file.discard() }
            context.standardOutput.flush()
            context.fail(error)
            return ExitStatus.failure
        }
        if !settings.quiet { writeSummary(seconds: context.clock() - started) }
        if overLimit > 0 { return ExitStatus.failure }
        return invalid > 0 ? ExitStatus.invalid : ExitStatus.success
    }

    private func format(of input: String) throws(CLIError) -> InputFormat {
        if let format = settings.inputFormat { return format }
        if input == "-" { return .ndjson }
        if let format = InputFormat(path: input) { return format }
        throw CLIError.usage(
            "\(input): cannot tell the format from the name; use .json, .ndjson, .jsonl, .yaml or .yml, or --input-format"
        )
    }

    /// Opens `--valid-out`, `--quarantine`, `--results`, `--summary` and `--report`; `-` (or a name
    /// of descriptor 1, such as `/dev/stdout`) is standard output, which one of them at most may
    /// claim.
    private func openOutputs() throws(CLIError) {
        func open(_ path: String) throws(CLIError) -> OutputFile {
            Self.isStandardOutput(path)
                ? OutputFile(standardOutput: context.standardOutput) : try OutputFile(path: path)
        }
        if let path = settings.validOut { validOut = try open(path) }
        if let path = settings.quarantine { quarantine = try open(path) }
        if let path = settings.summary { summaryFile = try open(path) }
        if let path = settings.report { htmlFile = try open(path) }
        if let path = settings.results {
            resultsFile = try open(path)
            report = resultsFile?.sink
        } else if !outputFiles.contains(where: \.isStandardOutput) {
            report = context.standardOutput
        }
    }

    /// Whether an output path names standard output.
    static func isStandardOutput(_ path: String) -> Bool {
        path == "-" || OutputFile.descriptorNamed(path) == 1
    }

    private func writeSummary(seconds: Double) {
        let color = settings.color.applies(isTerminal: context.errorIsTerminal, environment: context.environment)
        let rate = seconds > 0 ? Int((Double(documents) / seconds).rounded()) : documents
        var text = "\(documents) document\(documents == 1 ? "" : "s"), \(invalid) invalid, "
        text += "\(errors) error\(errors == 1 ? "" : "s") in \(Self.seconds(seconds)) s (\(rate) documents/s)"
        if overLimit > 0 {
            text += "; \(overLimit) document\(overLimit == 1 ? "" : "s") not validated: over a limit (see --help)"
        }
        if color { text = (invalid > 0 ? ANSI.red : ANSI.green) + text + ANSI.reset }
        if settings.outputFormat == .text, settings.specOutput == nil, let collector {
            context.standardError.write(TerminalSummary.render(summary(of: collector, seconds: seconds), color: color))
        }
        context.standardError.write(text + "\n")
        context.standardError.flush()
    }

    /// What `collector` found, with the run's own totals.
    private func summary(of collector: SummaryCollector, seconds: Double) -> RunSummary {
        var summary = collector.finish(schema: settings.schemaPath, inputs: settings.inputs, seconds: seconds)
        (summary.documents, summary.invalid, summary.errors, summary.notValidated) = (
            documents, invalid, errors, overLimit
        )
        return summary
    }

    static func seconds(_ value: Double) -> String {
        let milliseconds = Int((value * 1000).rounded())
        return "\(milliseconds / 1000).\(String(milliseconds % 1000).leftPadded(to: 3))"
    }

    /// Counts a JSON or YAML document of `bytes` bytes with `found` errors, and hands it to the
    /// summary when it failed.
    private func count(
        errors found: Int, bytes: Int, failed: FailedDocument?, file: String,
        text: ArraySlice<UInt8>?
    ) {
        documents += 1
        if found > 0 {
            invalid += 1
            errors += found
        }
        collector?.count(bytes: bytes)
        if let failed { collector?.add(failed, file: file, text: text) }
    }

    // MARK: NDJSON

    private func validateNDJSON(_ input: String, checker: DocumentChecker) throws(CLIError) {
        var reader: NDJSONReader
        let size: Int?
        if input == "-" {
            reader = NDJSONReader(fileDescriptor: context.standardInput, path: "standard input")
            size = FileReading.size(of: context.standardInput)
        } else {
            do throws(NDJSONReadError) {
                reader = try NDJSONReader(path: input)
            } catch {
                throw CLIError.io("\(input): cannot be read: \(error.reason)")
            }
            size = FileReading.size(ofFile: input)
        }
        if context.errorIsTerminal, !settings.quiet, size.map({ $0 >= context.progressMinimumBytes }) ?? (input == "-")
        {
            progress = ProgressBar(sink: context.standardError, total: size, clock: context.clock)
        }
        reader.maximumLineBytes = settings.parserOptions.maximumBytes
        bytesDelivered = 0
        func nextBatch() throws(CLIError) -> LineBatch? {
            do throws(NDJSONReadError) {
                guard let block = try reader.nextBlock(whileWaiting: handOnWhileWaiting(round:)) else { return nil }
                sequence += 1
                return LineBatch(sequence: sequence - 1, block: block, reporter: checker.reporter)
            } catch {
                throw CLIError.io("\(input == "-" ? "standard input" : input): cannot be read: \(error.reason)")
            }
        }
        if settings.jobs <= 1 {
            var messages: SchemaMessageMemo?
            while let batch = try nextBatch() {
                batch.process(with: checker, messages: &messages)
                deliver(batch)
                if let writeFailure { throw writeFailure }
            }
        } else {
            let pool = workPool(like: checker)
            while let batch = try nextBatch() {
                pool.submit(batch, deliver: deliver)
                if let writeFailure { throw writeFailure }
            }
        }
        try handOnEverything()
        progress?.clear()
        progress = nil
    }

    /// The run's worker threads, started on first use: each compiles its own copy of the schema
    /// and checks with `checker`'s limits, reporting as each block's input asks.
    private func workPool(like checker: DocumentChecker) -> OrderedWorkPool {
        if let pool { return pool }
        let (document, path, schemaSettings) = (schemaDocument, settings.schemaPath, settings.schema)
        let pool = OrderedWorkPool(workers: settings.jobs) {
            SchemaLoader.independentCopy(of: document, path: path, settings: schemaSettings).map {
                var copy = checker
                copy.schema = $0
                return copy
            } ?? checker
        }
        self.pool = pool
        return pool
    }

    /// While a read would wait: hands on the blocks checked so far, in order; from the first
    /// millisecond of waiting on, also flushes the outputs that are streams (a fast producer's pipe
    /// that is empty for a moment costs no small writes). Returns whether blocks are still being
    /// checked: then it is called again each millisecond until input comes, so that the last
    /// line's result goes out while the producer waits.
    private func handOnWhileWaiting(round: Int) -> Bool {
        let busy = pool?.handOutFinished(deliver: deliver) ?? false
        guard round > 0 else { return true }
        flushStreams()
        return busy
    }

    /// Hands on every block checked or being checked, in order, and flushes the outputs that are
    /// streams; then throws the first write failure.
    private func handOnEverything() throws(CLIError) {
        pool?.drain(deliver: deliver)
        flushStreams()
        if let writeFailure { throw writeFailure }
    }

    private func flushStreams() {
        report?.flush()
        for file in [validOut, quarantine] where file?.isStream == true { file?.sink.flush() }
    }

    private func deliver(_ batch: LineBatch) {
        progress?.clear()
        report?.write(batch.output)
        if progress != nil { report?.flush() }
        documents += batch.documents
        invalid += batch.invalid
        errors += batch.errors
        overLimit += batch.overLimit
        if let collector {
            collector.count(bytes: batch.bytes.count)
            for failed in batch.failed {
                collector.add(failed, file: batch.reporter.file, text: failed.record.map { batch.bytes[$0] })
            }
        }
        bytesDelivered += batch.bytes.count
        if let part = batch.block.longLine {
            // A line over the limit goes to the quarantine piece by piece, never held whole.
            if let sink = quarantine?.sink {
                sink.write(batch.bytes)
                if part.isLast { sink.write(CollectionOfOne(0x0A)) }
            }
        } else if validOut != nil || quarantine != nil {
            for (range, valid) in batch.lines {
                guard let sink = (valid ? validOut : quarantine)?.sink else { continue }
                sink.write(batch.bytes[range])
                sink.write(CollectionOfOne(0x0A))
            }
        }
        progress?.update(bytes: bytesDelivered, documents: documents)
        if writeFailure == nil { writeFailure = failedWrite() }
    }

    /// The first output that could not be written (standard output, `--valid-out`, `--quarantine`).
    private func failedWrite() -> CLIError? {
        if let failure = context.standardOutput.failure {
            return CLIError.io("standard output cannot be written: \(failure)")
        }
        for file in outputFiles {
            if let failure = file.sink.failure { return CLIError.io("\(file.path): cannot be written: \(failure)") }
        }
        return nil
    }

    // MARK: JSON and YAML

    private func readWhole(_ input: String) throws(CLIError) -> [UInt8] {
        if input == "-" { return try FileReading.readAll(context.standardInput, path: "standard input") }
        return try FileReading.readFile(input)
    }

    private func validateJSON(_ input: String, checker: DocumentChecker) throws(CLIError) {
        let bytes = try readWhole(input)
        var out: [UInt8] = []
        var failed: FailedDocument?
        let (found, document) = checker.checkJSONFile(bytes, into: &out, overLimit: &overLimit, failed: &failed)
        report?.write(out)
        count(
            errors: found, bytes: bytes.count, failed: failed, file: input,
            text: failed?.record.map { bytes[$0] })
        if let document { keep(document.value, valid: found == 0 && overLimit == 0) }
        if let failure = failedWrite() { throw failure }
    }

    /// Validates a YAML stream document by document, as it is read (``YAMLStreamReader``).
    private func validateYAML(_ input: String, checker: DocumentChecker) throws(CLIError) {
        let name = input == "-" ? "standard input" : input
        var reader =
            input == "-"
            ? YAMLStreamReader(
                descriptor: context.standardInput, closesDescriptor: false, path: name,
                maximumBytes: settings.parserOptions.maximumBytes)
            : YAMLStreamReader(
                descriptor: try FileReading.open(input), closesDescriptor: true, path: name,
                maximumBytes: settings.parserOptions.maximumBytes)
        var index = 0
        while let piece = try reader.next(beforeWaiting: flushStreams) {
            let documents: [YAMLDocument]
            var size = 0
            switch piece {
            case .text(let bytes, let lineOffset):
                documents = YAMLInput.documents(bytes, lineOffset: lineOffset)
                size = bytes.count
            case .overLimit(let line, let length):
                size = length
                let message =
                    "not valid YAML: the document is \(length) bytes long, over the limit of "
                    + "\(settings.parserOptions.maximumBytes) (--max-document-bytes)"
                documents = [
                    YAMLDocument(value: .failure(YAMLProblem(line: line, message: message, isLimit: true)), node: nil)
                ]
            }
            for document in documents {
                index += 1
                var out: [UInt8] = []
                var failed: FailedDocument?
                let found = checker.checkYAMLDocument(
                    document, index: index, into: &out, overLimit: &overLimit, failed: &failed)
                report?.write(out)
                count(
                    errors: found, bytes: size, failed: failed, file: input, text: nil
                )
                size = 0
                if case .success(let value) = document.value { keep(value, valid: found == 0) }
                if let failure = failedWrite() { throw failure }
            }
        }
    }

    /// Writes a JSON or YAML document to `--valid-out` or `--quarantine` as one compact JSON line.
    private func keep(_ value: @autoclosure () -> JSONValue, valid: Bool) {
        guard let sink = (valid ? validOut : quarantine)?.sink else { return }
        sink.write(value().jsonBytes())
        sink.write(CollectionOfOne(0x0A))
    }
}
