import ArgumentParser
import AssayJSON

/// `assay report`: draws run summaries, or merges them.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Draw a run summary (assay validate --summary) as an HTML page, or merge summaries.",
        subcommands: [ReportRenderCommand.self, ReportMergeCommand.self],
        defaultSubcommand: ReportRenderCommand.self)

    /// The largest summary file read, in bytes.
    static let maximumSummaryBytes = 256 << 20

    /// Reads and checks the summary at `path`.
    static func read(_ path: String) throws(CLIError) -> RunSummary {
        try FileReading.checkReadable(path)
        if let size = FileReading.size(ofFile: path), size > maximumSummaryBytes {
            throw CLIError.io("\(path): \(size) bytes, larger than a run summary can be (\(maximumSummaryBytes))")
        }
        let bytes = try FileReading.readFile(path)
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            throw CLIError.io(
                "\(path): not a run summary: not valid JSON: line \(error.line), column \(error.column): \(error.detail)"
            )
        }
        return try RunSummary(json: value, file: path)
    }

    /// The summaries at `paths` merged, read one at a time (a Spark job's thousands of partitions
    /// never held at once); one summary alone is returned as it is unless `normalizing`.
    static func merged(_ paths: [String], normalizing: Bool) throws(CLIError) -> RunSummary {
        guard let first = paths.first else { throw CLIError.usage("report: no summary given") }
        var merged = try read(first)
        if paths.count == 1 {
            return normalizing ? try RunSummary.merged([(first, merged)]) : merged
        }
        for path in paths.dropFirst() {
            merged = try RunSummary.merged([(first, merged), (path, try read(path))])
        }
        return merged
    }

    /// Writes `bytes` to `path` (whole, or not at all) or to standard output.
    static func write(_ bytes: [UInt8], to path: String?, context: CommandContext) throws(CLIError) {
        guard let path, !ValidationRun.isStandardOutput(path) else {
            context.standardOutput.write(bytes)
            context.standardOutput.flush()
            if let failure = context.standardOutput.failure {
                throw CLIError.io("standard output cannot be written: \(failure)")
            }
            return
        }
        let file = try OutputFile(path: path)
        file.sink.write(bytes)
        do throws(CLIError) {
            if let failure = file.sink.failure { throw CLIError.io("\(path): cannot be written: \(failure)") }
            try file.prepare()
            try file.publish()
        } catch {
            file.discard()
            throw error
        }
    }
}

/// `assay report SUMMARY… [-o PAGE]`.
struct ReportRenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw one or more run summaries (merged first) as one self-contained HTML page.",
        discussion: """
            The page needs nothing but itself: no network, no scripts or fonts from elsewhere. It shows \
            the totals, the most failing paths and keywords, the errors per document, a sortable table of \
            the failing paths (at most 500 rows, the rest counted in one row) and example documents with \
            their failing values marked, in the language of the run's messages.

            Exit status: 0 written; 2 a summary that cannot be read, is not one, or is of another version, \
            or a page that cannot be written.
            """)

    @Argument(help: ArgumentHelp("Run summaries written by assay validate --summary.", valueName: "SUMMARY"))
    var summaries: [String] = []

    @Option(name: [.short, .customLong("output")], help: "The HTML file to write; standard output when omitted.")
    var output: String?

    func execute(_ context: CommandContext) -> Int32 {
        do throws(CLIError) {
            guard !summaries.isEmpty else { throw CLIError.usage("report: no SUMMARY given") }
            let summary = try ReportCommand.merged(summaries, normalizing: false)
            try ReportCommand.write(Array(HTMLReport(summary).render().utf8), to: output, context: context)
            return ExitStatus.success
        } catch {
            context.fail(error)
            return ExitStatus.failure
        }
    }
}

/// `assay report merge PART… [-o SUMMARY]`.
struct ReportMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the run summaries of shards (a Spark job's partitions) into one summary.",
        discussion: """
            Totals, keywords, codes and the errors-per-document histogram add up exactly. The paths keep \
            the summaries' bound: the most failing are listed, and a count that a path left out of one \
            part makes uncertain is marked approximate, with its margin (see docs/report.md).

            Exit status: 0 written; 2 a part that cannot be read, is not a summary, is of another version \
            or in another language, or an output that cannot be written.
            """)

    @Argument(help: ArgumentHelp("Run summaries to merge.", valueName: "PART"))
    var parts: [String] = []

    @Option(name: [.short, .customLong("output")], help: "The summary to write; standard output when omitted.")
    var output: String?

    func execute(_ context: CommandContext) -> Int32 {
        do throws(CLIError) {
            guard !parts.isEmpty else { throw CLIError.usage("report merge: no PART given") }
            let merged = try ReportCommand.merged(parts, normalizing: true)
            try ReportCommand.write(merged.json.jsonBytes(.prettyPrinted) + [0x0A], to: output, context: context)
            return ExitStatus.success
        } catch {
            context.fail(error)
            return ExitStatus.failure
        }
    }
}
