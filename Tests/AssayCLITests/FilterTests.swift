import AssayJSON
import Foundation
import Testing

@testable import AssayCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private let schema = CLIRun.example("clients/client.schema.json")
private let clients = CLIRun.example("clients/clients.ndjson")

/// The bundled clients' lines, and the line numbers of the invalid ones (`invalid.tsv`).
private func clientLines() throws -> (lines: [String], invalid: Set<Int>) {
    let lines = try String(contentsOfFile: clients, encoding: .utf8).split(separator: "\n").map(String.init)
    let table = try String(contentsOfFile: CLIRun.example("clients/invalid.tsv"), encoding: .utf8)
    let invalid = Set(table.split(separator: "\n").dropFirst().compactMap { Int($0.split(separator: "\t")[0]) })
    return (lines, invalid)
}

/// Issue 27: `assay validate` as a Unix filter.
@Suite("assay validate: a filter")
struct PipelineFilterTests {
    @Test("--valid-out - writes the valid lines to standard output, verbatim and in order, and no report")
    func validLinesToStandardOutput() throws {
        let (lines, invalid) = try clientLines()
        let folder = try TemporaryFolder()
        let bad = folder.path + "/bad.ndjson"
        for jobs in ["1", "2"] {
            let run = try CLIRun(
                ["validate", "-s", schema, "--jobs", jobs, "--valid-out", "-", "--quarantine", bad, "-"],
                input: Array(try String(contentsOfFile: clients, encoding: .utf8).utf8))
            #expect(run.status == 1)
            let expected = lines.enumerated().filter { !invalid.contains($0.offset + 1) }.map(\.element)
            #expect(run.standardOutput == expected.map { $0 + "\n" }.joined())
            let quarantined = try String(contentsOfFile: bad, encoding: .utf8).split(separator: "\n").map(String.init)
            #expect(quarantined == lines.enumerated().filter { invalid.contains($0.offset + 1) }.map(\.element))
            // The table of failing paths, then the summary line.
            #expect(run.standardError.hasPrefix("Most failing paths"))
            #expect(run.standardError.contains("\n1000 documents, 39 invalid, 39 errors"))
        }
    }

    @Test("--quarantine - and /dev/stdout claim standard output; --results names where the results go")
    func quarantineAndReport() throws {
        let (lines, invalid) = try clientLines()
        let folder = try TemporaryFolder()
        let report = folder.path + "/report.txt"
        let run = try CLIRun(["validate", "-s", schema, "--quarantine", "/dev/stdout", "--results", report, clients])
        #expect(run.status == 1)
        #expect(
            run.standardOutput
                == lines.enumerated().filter { invalid.contains($0.offset + 1) }.map { $0.element + "\n" }.joined())
        let reported = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n")
        #expect(reported.count == 39)
        #expect(reported.first == "\(clients):18: /email: Email must be a valid email")
        // The report to standard output and the valid lines to a file: as before.
        let valid = folder.path + "/valid.ndjson"
        let both = try CLIRun(["validate", "-s", schema, "--results", "-", "--valid-out", valid, clients])
        #expect(both.standardOutput.split(separator: "\n").count == 39)
        #expect(try String(contentsOfFile: valid, encoding: .utf8).split(separator: "\n").count == 961)
    }

    @Test("at most one output claims standard output; - is no longer a file named -")
    func oneClaimOnStandardOutput() throws {
        for pair in [
            ["--valid-out", "-", "--quarantine", "-"], ["--valid-out", "-", "--results", "/dev/stdout"],
            ["--summary", "-", "--report", "-"],
        ] {
            let run = try CLIRun(["validate", "-s", schema] + pair + [clients])
            #expect(run.status == 2)
            #expect(run.standardError.contains("both claim standard output"))
        }
        let folder = try TemporaryFolder()
        let report = folder.path + "/r.txt"
        let clash = try CLIRun(["validate", "-s", schema, "--quarantine", report, "--results", report, clients])
        #expect(clash.status == 2)
        #expect(clash.standardError.contains("--quarantine and --results name the same file"))
        #expect(!FileManager.default.fileExists(atPath: "-"))
    }

    @Test("several inputs share one pool: the same report, in input order, with 1 and 2 jobs")
    func severalInputsOnePool() throws {
        let folder = try TemporaryFolder()
        let small = try folder.file("small.ndjson", "{}\n")
        let inputs = [clients, small, CLIRun.example("clients/clients.ndjson"), small]
        let one = try CLIRun(["validate", "-s", schema, "--format", "json", "--jobs", "1"] + inputs)
        let two = try CLIRun(["validate", "-s", schema, "--format", "json", "--jobs", "2"] + inputs)
        #expect(one.standardOutput == two.standardOutput)
        let files = one.standardOutput.split(separator: "\n").map { line -> String in
            guard case .object(let object)? = try? JSONValue(parsing: Array(line.utf8)),
                case .string(let file)? = object["file"]
            else { return "?" }
            return file
        }
        #expect(files.count == 2_002)
        #expect(files[999] == clients && files[1_000] == small && files[1_001] == clients && files[2_001] == small)
    }

    @Test("--duplicate-keys: reject (the default), last or first")
    func duplicateKeys() throws {
        let folder = try TemporaryFolder()
        let strict = try folder.file("s.json", #"{"properties": {"a": {"maximum": 1}}}"#)
        let data = try folder.file("d.ndjson", #"{"a": 1, "a": 2}"# + "\n")
        let reject = try CLIRun(["validate", "-s", strict, data])
        #expect(reject.status == 1)
        #expect(reject.standardOutput.contains("not valid JSON"))
        #expect(reject.standardOutput.contains("the key \"a\" appears twice in one object"))
        let last = try CLIRun(["validate", "-s", strict, "--duplicate-keys", "last", data])
        #expect(last.status == 1)
        #expect(last.standardOutput.contains("/a: "))
        let first = try CLIRun(["validate", "-s", strict, "--duplicate-keys", "first", data])
        #expect(first.status == 0)
        #expect(first.standardOutput.isEmpty)
        let unknown = try CLIRun(["validate", "-s", strict, "--duplicate-keys", "merge", data])
        #expect(unknown.status == 2)
    }

    @Test("--color always|never wins over the terminal, NO_COLOR and TERM=dumb; auto follows them")
    func colourFlag() throws {
        let folder = try TemporaryFolder()
        let data = try folder.file("one.ndjson", "{}\n")
        func coloured(_ flag: [String], terminal: Bool, _ environment: [String: String] = [:]) throws -> Bool {
            let run = try CLIRun(
                ["validate", "-s", schema] + flag + [data], environment: environment, outputIsTerminal: terminal,
                errorIsTerminal: terminal)
            #expect(run.status == 1)
            let output = run.standardOutput.contains("\u{1B}[")
            #expect(run.standardError.contains("\u{1B}[") == output, "the summary follows the same rule")
            return output
        }
        #expect(try coloured([], terminal: true))
        #expect(try !coloured([], terminal: false))
        #expect(try !coloured([], terminal: true, ["NO_COLOR": "1"]))
        #expect(try !coloured([], terminal: true, ["TERM": "dumb"]))
        #expect(try coloured(["--color", "always"], terminal: false, ["NO_COLOR": "1", "TERM": "dumb"]))
        #expect(try !coloured(["--color", "never"], terminal: true))
        #expect(try !coloured(["--color", "auto"], terminal: true, ["NO_COLOR": ""]))
    }

    @Test("a reader of --valid-out - that closes early (| head -1): exit 2, the quarantine left as it was")
    func readerClosesEarly() throws {
        let folder = try TemporaryFolder()
        let bad = try folder.file("bad.ndjson", "old\n")
        var big = ""
        let text = try String(contentsOfFile: clients, encoding: .utf8)
        for _ in 0..<40 { big += text }
        let input = try folder.file("big.ndjson", big)
        let assay = try LiveAssay(["validate", "-s", schema, "--valid-out", "-", "--quarantine", bad, input])
        // One line read, then the pipe closed, as `head -1` does.
        #expect(assay.read { $0.contains("\n") })
        try assay.output.fileHandleForReading.close()
        let status = assay.finish()
        #expect(assay.received.hasPrefix("{\"id\":"))
        #expect(status == 2)
        #expect(assay.errorText.contains("standard output cannot be written: Broken pipe"))
        #expect(try String(contentsOfFile: bad, encoding: .utf8) == "old\n")
        #expect(folder.names == ["bad.ndjson", "big.ndjson"], "no temporary file left")
    }

    @Test("a FIFO as an input and as --valid-out")
    func fifos() throws {
        let folder = try TemporaryFolder()
        let input = folder.path + "/in.fifo"
        let output = folder.path + "/out.fifo"
        #expect(mkfifo(input, 0o600) == 0 && mkfifo(output, 0o600) == 0)
        // A write to a FIFO whose reader left must fail here, not end the test process.
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try assayBinary)
        process.arguments = [
            "validate", "-s", schema, "--quiet", "--input-format", "ndjson", "--valid-out", output, input,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // If assay hangs, it is killed, and each FIFO is opened by the other side so that neither
        // thread of the test waits forever in open().
        let watchdog = Watchdog(process, seconds: 120) {
            close(open(output, O_WRONLY | O_NONBLOCK))
            close(open(input, O_RDONLY | O_NONBLOCK))
        }
        // Opening either end waits until the other side opens it: the writer on a thread of its own.
        let text = try String(contentsOfFile: clients, encoding: .utf8)
        let written = Flag()
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: input) else { return }
            if (try? handle.write(contentsOf: Data(text.utf8))) != nil { written.set() }
            try? handle.close()
        }
        writer.start()
        let read = FileHandle(forReadingAtPath: output)?.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        watchdog.cancel()
        #expect(!watchdog.fired, "assay hung on a FIFO")
        #expect(written.isSet, "assay read the whole input FIFO")
        #expect(process.terminationStatus == 1)
        #expect(String(decoding: read, as: UTF8.self).split(separator: "\n").count == 961)
    }
}

/// A flag set on one thread and read on another.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// Kills a process that outlives a generous limit, so that a test of a hang fails instead of
/// hanging; the limit is not a measure of speed.
final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    private(set) var fired = false

    init(_ process: Process, seconds: Int, afterKilling: @escaping @Sendable () -> Void = {}) {
        let pid = process.processIdentifier
        let thread = Thread { [self] in
            for _ in 0..<(seconds * 10) {
                usleep(100_000)
                if lock.withLock({ cancelled }) { return }
            }
            lock.withLock { fired = true }
            kill(pid, SIGKILL)
            afterKilling()
        }
        thread.start()
    }

    func cancel() { lock.withLock { cancelled = true } }
}

/// The real `assay` binary with its standard streams piped to the test, killed by a watchdog if it
/// outlives a generous limit (a hang fails the test instead of stopping the suite).
final class LiveAssay {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    private let errors = Pipe()
    let watchdog: Watchdog
    /// Standard output read so far.
    private(set) var received = ""

    init(_ arguments: [String], seconds: Int = 300) throws {
        process.executableURL = URL(fileURLWithPath: try assayBinary)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        watchdog = Watchdog(process, seconds: seconds)
    }

    /// Reads standard output until `done` holds for what was received, or the output ends; whether
    /// it holds.
    func read(until done: (String) -> Bool) -> Bool {
        while !done(received) {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { return done(received) }
            received += String(decoding: data, as: UTF8.self)
        }
        return true
    }

    /// Waits for the process to end; its exit status.
    func finish() -> Int32 {
        process.waitUntilExit()
        watchdog.cancel()
        return process.terminationStatus
    }

    /// Standard error, once the process has ended.
    var errorText: String { String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
}

/// Issue 27: a slow producer sees each line's result before it writes the next (`tail -f`).
@Suite("assay validate: bounded latency", .serialized)
struct LatencyTests {
    /// Writes the clients one line at a time, and before each next line waits until assay's output
    /// shows the previous one's result: it would wait forever if assay held results back.
    private func lockstep(_ arguments: [String], result: (String, Int) -> Bool) throws {
        let (lines, _) = try clientLines()
        let assay = try LiveAssay(["validate", "-s", schema, "--quiet"] + arguments + ["-"])
        var answered = 0
        for (index, line) in lines.prefix(60).enumerated() {
            // The line in two writes, the second after a pause of the reader's making: a line that
            // arrives in pieces still gets its result.
            let half = line.utf8.count / 2
            assay.input.fileHandleForWriting.write(Data(line.utf8.prefix(half)))
            assay.input.fileHandleForWriting.write(Data(line.utf8.dropFirst(half)) + Data("\n".utf8))
            guard assay.read(until: { result($0, index + 1) }) else { break }
            answered = index + 1
        }
        try assay.input.fileHandleForWriting.close()
        _ = assay.finish()
        #expect(!assay.watchdog.fired, "assay held a result back: the producer waited for it in vain")
        #expect(answered == 60)
    }

    @Test("--format json: each line's result before the next line is written, with 1 and 2 jobs")
    func eachResultAsItComes() throws {
        for jobs in ["1", "2"] {
            try lockstep(["--format", "json", "--jobs", jobs]) { received, line in
                received.contains("\"line\":\(line),")
            }
        }
    }

    @Test("--valid-out -: each valid line passes through before the next is written")
    func eachLineAsItComes() throws {
        let (lines, invalid) = try clientLines()
        try lockstep(["--valid-out", "-", "--jobs", "2"]) { received, line in
            // An invalid line shows nothing: the next valid one shows that it was handled.
            invalid.contains(line) || received.hasSuffix(lines[line - 1] + "\n")
        }
    }
}
