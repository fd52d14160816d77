import AssayCLI
import Foundation
import Testing

/// Runs `assay` in-process against memory sinks and compares what it printed with snapshot files.
///
/// Snapshots live in `Tests/AssayCLITests/Snapshots/NAME.txt`. A missing or different snapshot fails
/// the test; run with `ASSAY_RECORD_SNAPSHOTS=1` to write them, then read the diff before committing.
struct CLIRun {
    let status: Int32
    let standardOutput: String
    let standardError: String

    /// The repository's root folder.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// A path under `Examples/`.
    static func example(_ path: String) -> String { repository + "/Examples/" + path }

    /// Runs the arguments; `input` becomes standard input.
    init(
        _ arguments: [String], input: [UInt8] = [], environment: [String: String] = [:], outputIsTerminal: Bool = false,
        errorIsTerminal: Bool = false, progressMinimumBytes: Int = 8 << 20, standardOutput: ByteSink = ByteSink()
    ) throws {
        let folder = try TemporaryFolder()
        let descriptor = open(try folder.file("stdin", contents: input), O_RDONLY)
        withExtendedLifetime(folder) {}
        defer { close(descriptor) }
        let errors = ByteSink()
        var context = CommandContext(
            standardInput: descriptor, standardOutput: standardOutput, standardError: errors,
            environment: environment, outputIsTerminal: outputIsTerminal, errorIsTerminal: errorIsTerminal,
            processorCount: 2)
        context.progressMinimumBytes = progressMinimumBytes
        status = AssayTool.main(arguments, context: context)
        self.standardOutput = standardOutput.failure == nil ? standardOutput.text : ""
        standardError = errors.text
    }

    /// The run as snapshot text, with machine-specific parts replaced: the repository and temporary
    /// folders, the seconds and rate in the summary.
    func normalized(replacing folders: [String: String] = [:]) -> String {
        var text = "exit: \(status)\n--- stdout\n\(standardOutput)--- stderr\n\(standardError)"
        for (folder, name) in folders { text = text.replacing(folder, with: name) }
        text = text.replacing(Self.repository, with: "<repo>")
        return text.replacing(
            /in [0-9]+\.[0-9]{3} s \([0-9]+ documents\/s\)/, with: "in <seconds> s (<rate> documents/s)")
    }

    /// Compares the normalized run with the snapshot `name`.
    func assertSnapshot(
        _ name: String, replacing folders: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let actual = normalized(replacing: folders)
        let path = Self.repository + "/Tests/AssayCLITests/Snapshots/\(name).txt"
        if ProcessInfo.processInfo.environment["ASSAY_RECORD_SNAPSHOTS"] == "1" {
            _ = FileManager.default.createFile(atPath: path, contents: Data(actual.utf8))
            return
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            Issue.record(
                "no snapshot \(name).txt; run with ASSAY_RECORD_SNAPSHOTS=1 to record it. Output:\n\(actual)",
                sourceLocation: sourceLocation)
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        if expected != actual {
            let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let first =
                zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(expectedLines.count, actualLines.count)
            let expectedLine = first < expectedLines.count ? String(expectedLines[first]) : "<end>"
            let actualLine = first < actualLines.count ? String(actualLines[first]) : "<end>"
            Issue.record(
                "snapshot \(name).txt differs at line \(first + 1):\n  expected: \(expectedLine)\n  actual:   \(actualLine)",
                sourceLocation: sourceLocation)
        }
    }
}

/// A fresh temporary folder, removed when the value goes away.
final class TemporaryFolder {
    let path: String

    init() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("assay-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    /// Writes a file and returns its path.
    @discardableResult
    func file(_ name: String, contents: [UInt8]) throws -> String {
        let file = path + "/" + name
        try Data(contents).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// Writes a text file and returns its path.
    @discardableResult
    func file(_ name: String, _ text: String) throws -> String { try file(name, contents: Array(text.utf8)) }

    /// The names of the files in the folder.
    var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
