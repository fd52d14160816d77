import AssayCore
import AssayGRDB
import Foundation
import GRDB

/// A team: unique name, at most three players who keep it from being deleted, coaches deleted with it,
/// sponsors let go.
struct Team: Codable, Equatable, FetchableRecord, MutablePersistableRecord, ValidatedRecord {
    var id: Int64?
    var name: String

    static let validation: Validation<Team> = [
        .normalize(\.name, "name") { $0.trimmingCharacters(in: .whitespaces) },
        .property(\.name, "name", .length(2...30)),
        // Counts how often the rules of teams named "Counted…" run (only one test uses such names).
        .property(\.name, "name", .custom("counted") { name in ValidationCounter.shared.count(name) }),
    ]
    static let storeRules: StoreRules<Team> = [
        .unique("name"),
        .hasMany(Player.self, column: "teamId", as: "players", maximum: 3, onDelete: .deny),
        .hasMany(Coach.self, column: "teamId", as: "coaches", onDelete: .cascade),
        .hasMany(Sponsor.self, column: "teamId", as: "sponsors", onDelete: .nullify),
    ]

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A player: trimmed name, age 16–50, a required team.
struct Player: Codable, Equatable, FetchableRecord, MutablePersistableRecord, ValidatedRecord {
    var id: Int64?
    var name: String
    var age: Int
    var teamId: Int64?

    static let validation: Validation<Player> = [
        .normalize(\.name, "name") { $0.trimmingCharacters(in: .whitespaces) },
        .property(\.name, "name", .length(2...50)),
        .property(\.age, "age", .range(16...50)),
    ]
    static let storeRules: StoreRules<Player> = [.belongsTo(Team.self, column: "teamId")]

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A coach (a `PersistableRecord`: GRDB's non-mutating callbacks), deleted with the team; a coach
/// whose team is gone cannot be deleted on its own while `locked`.
struct Coach: Codable, Equatable, FetchableRecord, PersistableRecord, ValidatedRecord {
    var id: Int64
    var name: String
    var teamId: Int64
    var locked = false

    static let validation: Validation<Coach> = [
        .normalize(\.name, "name") { $0.trimmingCharacters(in: .whitespaces) },
        .property(\.name, "name", .notBlank),
        .check("locked", on: [.delete]) { coach, context in
            if coach.locked { context.report(.deleteDenied) }
        },
    ]
    static let storeRules: StoreRules<Coach> = [.belongsTo(Team.self, column: "teamId")]
}

/// A sponsor whose team is optional: let go (nullified) when the team is deleted.
struct Sponsor: Codable, Equatable, FetchableRecord, MutablePersistableRecord, ValidatedRecord {
    var id: Int64
    var name: String
    var teamId: Int64?

    static let validation: Validation<Sponsor> = [.property(\.name, "name", .notBlank)]
    static let storeRules: StoreRules<Sponsor> = [
        .belongsTo(Team.self, column: "teamId", required: false),
        .unique("name", "teamId", label: "Sponsor of the team"),  // one deal per team and sponsor
    ]
}

/// A league has at least two clubs.
struct League: Codable, Equatable, FetchableRecord, MutablePersistableRecord, ValidatedRecord {
    var id: Int64
    var name: String

    static let validation: Validation<League> = [.property(\.name, "name", .notBlank)]
    static let storeRules: StoreRules<League> = [
        .hasMany(Club.self, column: "leagueId", as: "clubs", minimum: 2, onDelete: .cascade)
    ]
}

/// A club of a league.
struct Club: Codable, Equatable, FetchableRecord, MutablePersistableRecord, ValidatedRecord {
    var id: Int64
    var leagueId: Int64

    static let validation: Validation<Club> = []
    static let storeRules: StoreRules<Club> = [.belongsTo(League.self, column: "leagueId")]
}

/// A tag, inserted if its name is new: GRDB's `.ignore` policy leaves out an insert of a name stored.
struct Tag: Codable, Equatable, FetchableRecord, MutablePersistableRecord, ValidatedRecord {
    var id: Int64?
    var name: String

    static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .ignore, update: .abort)
    static let validation: Validation<Tag> = [.property(\.name, "name", .notBlank)]
    static let storeRules: StoreRules<Tag> = [.unique("name")]
}

/// A badge whose code moves to the newest one inserted: GRDB's `.replace` policy replaces the row
/// holding the code (or the id).
struct Badge: Codable, Equatable, FetchableRecord, MutablePersistableRecord, ValidatedRecord {
    var id: Int64
    var code: String
    var teamId: Int64

    static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .replace, update: .abort)
    static let validation: Validation<Badge> = [.property(\.code, "code", .length(2...8))]
    static let storeRules: StoreRules<Badge> = [.unique("code"), .belongsTo(Team.self, column: "teamId")]
}

/// The folder of this test run's database files, removed when the process exits (each test's file
/// is in a folder of its own inside it).
private let databasesFolder: URL = {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("assay-grdb-\(UUID().uuidString)", isDirectory: true)
    atexit { removeDatabasesFolder() }
    return folder
}()

private func removeDatabasesFolder() {
    try? FileManager.default.removeItem(at: databasesFolder)
}

/// A fresh database file in a temporary folder, with the tables and the store indexes.
func makeDatabase(uniqueIndex: Bool = true, file: String = #function) throws -> (DatabaseQueue, URL) {
    let folder = databasesFolder.appendingPathComponent(UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let url = folder.appendingPathComponent("test.sqlite")
    let queue = try DatabaseQueue(path: url.path)
    try queue.write { db in try createTables(db, uniqueIndex: uniqueIndex) }
    return (queue, url)
}

/// Creates the fixtures' tables, and the store indexes unless `uniqueIndex` is false.
func createTables(_ db: Database, uniqueIndex: Bool = true) throws {
    try db.create(table: "team") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("name", .text).notNull()
    }
    try db.create(table: "player") { t in
        t.autoIncrementedPrimaryKey("id")
        // Nullable, so tests can write a row an older version of the app would have written.
        t.column("name", .text)
        t.column("age", .integer).notNull()
        t.column("teamId", .integer).references("team")
    }
    try db.create(table: "coach") { t in
        t.primaryKey("id", .integer)
        t.column("name", .text).notNull()
        t.column("teamId", .integer).notNull().references("team")
        t.column("locked", .boolean).notNull().defaults(to: false)
    }
    try db.create(table: "sponsor") { t in
        t.primaryKey("id", .integer)
        t.column("name", .text).notNull()
        t.column("teamId", .integer).references("team")
    }
    try db.create(table: "league") { t in
        t.primaryKey("id", .integer)
        t.column("name", .text).notNull()
    }
    try db.create(table: "club") { t in
        t.primaryKey("id", .integer)
        t.column("leagueId", .integer).notNull().references("league")
    }
    try db.create(table: "tag") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("name", .text).notNull()
    }
    try db.create(table: "badge") { t in
        t.primaryKey("id", .integer)
        t.column("code", .text).notNull()
        t.column("teamId", .integer).notNull().references("team")
    }
    if uniqueIndex {
        try Team.createStoreIndexes(db)
        try Sponsor.createStoreIndexes(db)
        try Tag.createStoreIndexes(db)
        try Badge.createStoreIndexes(db)
    }
}

extension DatabaseQueue {
    /// Inserts teams named `names`, with ids 1, 2, … in order.
    func insertTeams(_ names: String...) throws {
        try write { db in
            for name in names {
                var team = Team(name: name)
                try team.insert(db)
            }
        }
    }

    func count(_ table: String) throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? -1 }
    }
}

/// Runs `body` and returns the ValidationError it throws, or nil.
func validationError(_ body: () throws -> Void) rethrows -> ValidationError? {
    do {
        try body()
        return nil
    } catch let error as ValidationError {
        return error
    }
}

/// Each issue as `object path code`, e.g. `player#1 /age tooLarge`.
func summary(_ issues: [ValidationIssue]) -> [String] {
    issues.map { "\($0.object?.description ?? "-") \($0.path.jsonPointer) \($0.code)" }
}

/// How many times rules ran on each team named "Counted…": proves that a save validates each record
/// once, neither skipping it nor running the record's callbacks again.
final class ValidationCounter: @unchecked Sendable {
    static let shared = ValidationCounter()
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    /// Counts `name` if it is one of the counted teams; always true (a rule that passes).
    func count(_ name: String) -> Bool {
        guard name.hasPrefix("Counted") else { return true }
        lock.lock()
        counts[name, default: 0] += 1
        lock.unlock()
        return true
    }

    /// The counts so far.
    var snapshot: [String: Int] {
        lock.lock()
        defer { lock.unlock() }
        return counts
    }
}
