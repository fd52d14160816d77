import AssayGRDB
import Foundation
import GRDB
import RosterKit
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `roster` executable SwiftPM built next to the test bundle.
func rosterExecutable() throws -> URL {
    var candidates: [URL] = []
    if let executable = Bundle.main.executableURL { candidates.append(executable.deletingLastPathComponent()) }
    candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        candidates.append(bundle.bundleURL.deletingLastPathComponent())
    }
    for folder in candidates {
        let url = folder.appendingPathComponent("roster")
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    Issue.record("the roster executable was not found next to the tests (looked in \(candidates.map(\.path)))")
    throw CancellationError()
}

/// A `roster import` of 100,000 players killed with SIGKILL at random moments leaves the database as
/// before or as after, never in between.
@Suite struct KillTests {
    static let players = 100_000
    static let teams = (players + 14) / 15

    /// A database with enough teams for every player, and the import file.
    func prepare(in folder: URL) throws -> (database: URL, json: URL) {
        let database = folder.appendingPathComponent("base.sqlite")
        let roster = try Roster(path: database.path)
        var changes = ChangeSet()
        for team in 0..<Self.teams { changes.insert(Team(name: String(format: "Team %04d", team))) }
        try changes.save(to: roster.database)
        try roster.database.close()
        var json = "["
        for index in 0..<Self.players {
            if index > 0 { json += ",\n" }
            json +=
                #"{"name": "Player \#(index)", "age": \#(16 + index % 35), "team": "\#(String(format: "Team %04d", index / 15))"}"#
        }
        json += "]"
        let file = folder.appendingPathComponent("players.json")
        try Data(json.utf8).write(to: file)
        return (database, file)
    }

    /// Copies the prepared database to a fresh path.
    func copy(_ database: URL, to name: String, in folder: URL) throws -> URL {
        let target = folder.appendingPathComponent(name)
        try FileManager.default.copyItem(at: database, to: target)
        return target
    }

    /// Checks the invariants and returns how many players the database holds.
    func check(_ database: URL) throws -> Int {
        let queue = try DatabaseQueue(path: database.path)
        defer { try? queue.close() }
        return try queue.read { db in
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM team") == Self.teams)
            let fullest = try Int.fetchOne(
                db, sql: "SELECT MAX(c) FROM (SELECT COUNT(*) AS c FROM player GROUP BY team)")
            #expect((fullest ?? 0) <= 15)
            #expect(try Int.fetchOne(db, sql: "PRAGMA foreign_key_check") == nil)
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? -1
        }
    }

    func start(_ executable: URL, database: URL, json: URL, environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["import", json.path, "--db", database.path]
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// The import is stopped inside its write transaction — after the first player row, half of
    /// them, and all but the commit — by the roster's test pause (`ROSTER_PAUSE_INSIDE_WRITE`), which
    /// creates a marker file from inside the transaction; only then is it killed. Each kill is thus
    /// proved to land mid-write, and each leaves the database as before.
    @Test func importsKilledInsideTheWriteLeaveTheDatabaseAsBefore() throws {
        let executable = try rosterExecutable()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (base, json) = try prepare(in: folder)
        for rows in [1, Self.players / 2, Self.players] {
            let database = try copy(base, to: "paused\(rows).sqlite", in: folder)
            let marker = folder.appendingPathComponent("paused\(rows).marker").path
            let process = try start(
                executable, database: database, json: json,
                environment: ["ROSTER_PAUSE_INSIDE_WRITE": "\(rows):\(marker)"])
            let deadline = Date().addingTimeInterval(120)
            while process.isRunning && !FileManager.default.fileExists(atPath: marker) && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.005)
            }
            #expect(FileManager.default.fileExists(atPath: marker), "the import never reached row \(rows)")
            #expect(process.isRunning, "the import ended before it could be killed")
            // The rollback journal holds the pages the transaction changed: the write is under way.
            #expect(FileManager.default.fileExists(atPath: database.path + "-journal"))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
            #expect(try check(database) == 0, "killed after \(rows) rows written")
        }
    }

    @Test func killedImportsLeaveTheDatabaseBeforeOrAfter() throws {
        let executable = try rosterExecutable()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (base, json) = try prepare(in: folder)

        // One import to the end: how long it takes here, when its write transaction starts (SQLite's
        // rollback journal appears), and what "after" is.
        let whole = try copy(base, to: "whole.sqlite", in: folder)
        let started = Date()
        let complete = try start(executable, database: whole, json: json)
        var writeStarted: TimeInterval? = nil
        while complete.isRunning {
            if writeStarted == nil && FileManager.default.fileExists(atPath: whole.path + "-journal") {
                writeStarted = Date().timeIntervalSince(started)
            }
            Thread.sleep(forTimeInterval: 0.001)
        }
        let duration = Date().timeIntervalSince(started)
        #expect(complete.terminationStatus == 0)
        #expect(try check(whole) == Self.players)
        let writing = duration - (writeStarted ?? 0)

        let runs = ProcessInfo.processInfo.environment["ROSTER_KILL_RUNS"].flatMap(Int.init) ?? 8
        var outcomes: [Int: Int] = [:]
        var generator = SystemRandomNumberGenerator()
        for run in 0..<runs {
            let database = try copy(base, to: "run\(run).sqlite", in: folder)
            let process = try start(executable, database: database, json: json)
            let delay: TimeInterval
            if run.isMultiple(of: 2) {
                // Anywhere in the import's life: parsing, validation or writing.
                delay = Double.random(in: 0.01...max(0.02, duration), using: &generator)
            } else {
                // Inside the write transaction: once the journal exists, anywhere until the commit.
                while process.isRunning && !FileManager.default.fileExists(atPath: database.path + "-journal") {
                    Thread.sleep(forTimeInterval: 0.0005)
                }
                delay = Double.random(in: 0...max(0.001, writing), using: &generator)
            }
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let count = try check(database)
            #expect(count == 0 || count == Self.players, "run \(run) killed after \(delay) s left \(count) players")
            outcomes[count, default: 0] += 1
        }
        print(
            "killed imports: \(runs) runs of about \(duration) s (writing \(writing) s), outcomes (players → runs): \(outcomes)"
        )
    }
}
