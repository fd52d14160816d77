import AssayCLI
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private let schema = CLIRun.example("clients/client.schema.json")
private let clients = CLIRun.example("clients/clients.ndjson")

/// The `assay` executable the README's first command builds (`swift test` builds it too).
var assayBinary: String {
    get throws {
        let path = CLIRun.repository + "/.build/debug/assay"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BinaryMissing(path: path)
        }
        return path
    }
}

private struct BinaryMissing: Error, CustomStringConvertible {
    let path: String
    var description: String { "\(path) is not built: run `swift build` first" }
}

private func mode(_ path: String) throws -> Int {
    try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
}

private func isSymbolicLink(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
}

/// Issue 23: output files are replaced only when they are regular files; streams are written in
/// place; modes follow the umask or the file replaced; a signal or a write error leaves every
/// destination as it was.
@Suite("assay validate: output files", .serialized)
struct OutputFileTests {
    @Test("a symbolic link to a file: the target is replaced, the link stays")
    func symbolicLinks() throws {
        let folder = try TemporaryFolder()
        let target = try folder.file("target.ndjson", "old\n")
        let link = folder.path + "/link.ndjson"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.ndjson")
        let run = try CLIRun(["validate", "--schema", schema, "--quiet", "--quarantine", link, clients])
        #expect(run.status == 1)
        #expect(isSymbolicLink(link))
        let written = try String(contentsOfFile: target, encoding: .utf8)
        #expect(written.split(separator: "\n").count == 39)
        #expect(folder.names == ["link.ndjson", "target.ndjson"], "no temporary file left")
    }

    @Test("a descriptor by name (/dev/fd/N) and a FIFO are written in place, as streams")
    func streams() throws {
        let folder = try TemporaryFolder()
        let sinkPath = try folder.file("sink.ndjson", "")
        let descriptor = open(sinkPath, O_WRONLY)
        defer { close(descriptor) }
        let run = try CLIRun([
            "validate", "--schema", schema, "--quiet", "--quarantine", "/dev/fd/\(descriptor)", clients,
        ])
        #expect(run.status == 1)
        #expect(try String(contentsOfFile: sinkPath, encoding: .utf8).split(separator: "\n").count == 39)

        let fifo = folder.path + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = folder.path + "/from-fifo"
        let reader = Thread {
            let handle = FileHandle(forReadingAtPath: fifo)
            let data = handle?.readDataToEndOfFile() ?? Data()
            // Atomically: the test waits for the file to exist, and must not read it half written.
            try? data.write(to: URL(fileURLWithPath: received), options: .atomic)
        }
        reader.start()
        let throughFIFO = try CLIRun(["validate", "--schema", schema, "--quiet", "--valid-out", fifo, clients])
        #expect(throughFIFO.status == 1)
        while !FileManager.default.fileExists(atPath: received) { usleep(10_000) }
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO is still a FIFO")
        #expect(try String(contentsOfFile: received, encoding: .utf8).split(separator: "\n").count == 961)
    }

    @Test("a replaced file keeps its mode; a new one follows the umask")
    func modes() throws {
        let folder = try TemporaryFolder()
        let existing = try folder.file("kept.ndjson", "old\n")
        chmod(existing, 0o600)
        #expect(try CLIRun(["validate", "--schema", schema, "--quiet", "--quarantine", existing, clients]).status == 1)
        #expect(try mode(existing) == 0o600)
        // The umask is the process's: set it in a child shell, around the real binary.
        for (mask, expected) in [("077", 0o600), ("022", 0o644)] {
            let fresh = folder.path + "/fresh-\(mask).ndjson"
            let status = try run(
                "/bin/sh",
                [
                    "-c", "umask \(mask) && exec \"$0\" validate --schema \"$1\" --quiet --quarantine \"$2\" \"$3\"",
                    try assayBinary, schema, fresh, clients,
                ])
            #expect(status.code == 1)
            #expect(try mode(fresh) == expected, "umask \(mask)")
        }
    }

    @Test("SIGINT and SIGTERM: temporary files removed, destinations (lines, summary, page) unchanged, exit 128 + N")
    func signals() throws {
        for (signalNumber, expected, word) in [(SIGINT, Int32(130), "interrupted"), (SIGTERM, 143, "terminated")] {
            let folder = try TemporaryFolder()
            let valid = try folder.file("valid.ndjson", "old valid\n")
            let quarantine = try folder.file("bad.ndjson", "old bad\n")
            let summary = try folder.file("summary.json", "old summary\n")
            let report = try folder.file("report.html", "old report\n")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try assayBinary)
            process.arguments = [
                "validate", "--schema", schema, "--valid-out", valid, "--quarantine", quarantine, "--summary", summary,
                "--report", report, "-",
            ]
            let input = Pipe()
            let errors = Pipe()
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try process.run()
            // Some lines, then wait until both temporary files exist and the lines were checked.
            let lines = try String(contentsOfFile: clients, encoding: .utf8).split(separator: "\n").prefix(100)
            input.fileHandleForWriting.write(Data((lines.joined(separator: "\n") + "\n").utf8))
            var waited = 0
            while folder.names.count < 8 && waited < 3_000 {
                usleep(10_000)
                waited += 1
            }
            #expect(folder.names.count == 8, "four temporary files beside the four destinations")
            kill(process.processIdentifier, signalNumber)
            waited = 0
            while process.isRunning && waited < 1_000 {
                usleep(10_000)
                waited += 1
            }
            if process.isRunning {
                Issue.record("assay did not stop on signal \(signalNumber)")
                kill(process.processIdentifier, SIGKILL)
            }
            process.waitUntilExit()
            #expect(process.terminationStatus == expected)
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(message.contains("assay: \(word)"))
            #expect(folder.names == ["bad.ndjson", "report.html", "summary.json", "valid.ndjson"])
            #expect(try String(contentsOfFile: valid, encoding: .utf8) == "old valid\n")
            #expect(try String(contentsOfFile: quarantine, encoding: .utf8) == "old bad\n")
            #expect(try String(contentsOfFile: summary, encoding: .utf8) == "old summary\n")
            #expect(try String(contentsOfFile: report, encoding: .utf8) == "old report\n")
            try? input.fileHandleForWriting.close()
        }
    }

    @Test("a closed standard output (SIGPIPE) stops the run: exit 2, one line, destinations unchanged")
    func brokenPipe() throws {
        let folder = try TemporaryFolder()
        let valid = try folder.file("valid.ndjson", "old valid\n")
        var big = ""
        let text = try String(contentsOfFile: clients, encoding: .utf8)
        for _ in 0..<20 { big += text }
        let input = try folder.file("big.ndjson", big)
        // One byte read, then the pipe closed: assay's next writes meet a closed pipe.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try assayBinary)
        process.arguments = ["validate", "--schema", schema, "--format", "json", "--valid-out", valid, input]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        _ = output.fileHandleForReading.readData(ofLength: 1)
        try output.fileHandleForReading.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(message.contains("standard output cannot be written: Broken pipe"))
        #expect(folder.names == ["big.ndjson", "valid.ndjson"])
        #expect(try String(contentsOfFile: valid, encoding: .utf8) == "old valid\n")
    }

    @Test(
        "a write error on an output stops the run at once",
        .enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "skipped: this machine has no /dev/full"))
    func writeErrorStops() throws {
        let folder = try TemporaryFolder()
        var big = ""
        let text = try String(contentsOfFile: clients, encoding: .utf8)
        for _ in 0..<40 { big += text }
        let input = try folder.file("big.ndjson", big)
        let valid = try folder.file("valid.ndjson", "old\n")
        let run = try CLIRun(["validate", "--schema", schema, "--valid-out", valid, "--quarantine", "/dev/full", input])
        #expect(run.status == 2)
        #expect(run.standardError.contains("/dev/full: cannot be written: No space left on device"))
        // The quarantine's first block (256 KiB, ~850 invalid lines) fails about halfway through the
        // 40,000 lines: no line near the end was reported.
        let reported = run.standardOutput.split(separator: "\n").compactMap { line -> Int? in
            line.split(separator: ":").dropFirst().first.flatMap { Int($0) }
        }
        #expect(!reported.isEmpty)
        #expect((reported.max() ?? .max) < 35_000, "the run stopped before the end")
        #expect(try String(contentsOfFile: valid, encoding: .utf8) == "old\n")
        #expect(folder.names == ["big.ndjson", "valid.ndjson"])
    }
}

/// Runs a program to its end; its exit code.
private func run(_ executable: String, _ arguments: [String]) throws -> (code: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
