import Foundation
import GRDB

/// For the kill tests: with `ROSTER_PAUSE_INSIDE_WRITE=ROWS:MARKER` in the environment, an import
/// stops inside its write transaction once `ROWS` player rows are written, creates the file `MARKER`,
/// and waits there (a minute at most) — so a test that kills the process after the marker appears
/// knows the kill landed inside the transaction, with rows written and not committed.
final class WritePause: TransactionObserver, @unchecked Sendable {
    private let rows: Int
    private let marker: String
    private var written = 0

    init(rows: Int, marker: String) {
        self.rows = rows
        self.marker = marker
    }

    /// The pause the environment asks for, if any.
    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> WritePause? {
        guard let value = environment["ROSTER_PAUSE_INSIDE_WRITE"], let colon = value.firstIndex(of: ":"),
            let rows = Int(value[..<colon]), rows > 0
        else { return nil }
        return WritePause(rows: rows, marker: String(value[value.index(after: colon)...]))
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        if case .insert(let table) = eventKind { return table == "player" }
        return false
    }

    func databaseDidChange(with event: DatabaseEvent) {
        written += 1
        guard written == rows else { return }
        _ = FileManager.default.createFile(atPath: marker, contents: Data("\(rows)\n".utf8))
        Thread.sleep(forTimeInterval: 60)
    }

    func databaseDidCommit(_ db: Database) {}
    func databaseDidRollback(_ db: Database) {}
}
