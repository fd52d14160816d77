import AssayCore
import AssayGRDB
import Foundation
import GRDB
import Testing

/// GRDB's persistence callbacks: each one fires, refuses an invalid record before any SQL runs, and
/// the write's transaction rolls back.
@Suite struct HookTests {
    @Test func insertValidatesNormalisesAndWritesTheNormalisedRecord() throws {
        let (db, _) = try makeDatabase()
        let inserted = try db.write { db -> Player in
            var team = Team(name: "Lakers")
            try team.insert(db)
            var player = Player(name: "  LeBron James ", age: 39, teamId: team.id)
            try player.insert(db)
            return player
        }
        #expect(inserted.name == "LeBron James")
        let stored = try db.read { db in try Player.fetchOne(db, key: inserted.id) }
        #expect(stored?.name == "LeBron James")
    }

    @Test func insertOfAnInvalidRecordThrowsEveryIssueAndWritesNothing() throws {
        let (db, _) = try makeDatabase()
        let error = try validationError {
            try db.write { db in
                var player = Player(name: " J ", age: 12, teamId: 99)
                try player.insert(db)
            }
        }
        let issues = try #require(error).issues
        #expect(summary(issues) == ["player /name tooShort", "player /age tooSmall", "player /teamId missing"])
        #expect(issues.allSatisfy { $0.phase == .insert || $0.phase == .property })
        #expect(issues[2].message(in: .english) == "TeamId refers to a team that does not exist")
        #expect(try db.count("player") == 0)
    }

    @Test func aFailedInsertRollsBackTheWholeTransaction() throws {
        let (db, _) = try makeDatabase()
        let error = try validationError {
            try db.write { db in
                var team = Team(name: "Celtics")
                try team.insert(db)
                var valid = Player(name: "Jayson Tatum", age: 26, teamId: team.id)
                try valid.insert(db)
                var invalid = Player(name: "Jaylen Brown", age: 99, teamId: team.id)
                try invalid.insert(db)
            }
        }
        #expect(error?.issues.map(\.code) == [.tooLarge])
        #expect(try db.count("team") == 0)
        #expect(try db.count("player") == 0)
    }

    @Test func theNonMutatingInsertCallbackOfAPersistableRecordFires() throws {
        let (db, _) = try makeDatabase()
        try db.insertTeams("Knicks")
        let blank = try validationError {
            try db.write { db in try Coach(id: 1, name: "   ", teamId: 1).insert(db) }
        }
        #expect(try summary(#require(blank).issues) == ["coach#1 /name blank", "coach#1 /name notNormalized"])
        // The callback cannot write a normalised value back, so it refuses one that is not.
        let untrimmed = try validationError {
            try db.write { db in try Coach(id: 1, name: " Tom ", teamId: 1).insert(db) }
        }
        let issue = try #require(untrimmed?.issues.first)
        #expect(issue.code == .notNormalized)
        #expect(issue.message(in: .english) == "Name is not normalised (expected Tom)")
        try db.write { db in try Coach(id: 1, name: "Tom", teamId: 1).insert(db) }
        #expect(try db.count("coach") == 1)
    }

    @Test func updateValidatesAndRefusesAValueItCannotNormalise() throws {
        let (db, _) = try makeDatabase()
        var player = try db.write { db -> Player in
            var team = Team(name: "Bulls")
            try team.insert(db)
            var player = Player(name: "Zach LaVine", age: 28, teamId: team.id)
            try player.insert(db)
            return player
        }
        player.age = 51
        let tooOld = try validationError { try db.write { db in try player.update(db) } }
        #expect(try summary(#require(tooOld).issues) == ["player#1 /age tooLarge"])
        #expect(tooOld?.issues.first?.phase == .update)

        player.age = 29
        player.name = "Zach LaVine "
        let untrimmed = try validationError { try db.write { db in try player.update(db) } }
        #expect(untrimmed?.issues.map(\.code) == [.notNormalized])

        player = try player.validated(for: .update)
        try db.write { db in try player.update(db) }
        #expect(try db.read { db in try Player.fetchOne(db, key: 1) } == player)
    }

    @Test func updateChecksStoreRules() throws {
        let (db, _) = try makeDatabase()
        try db.insertTeams("Lakers", "Celtics")
        var celtics = try #require(try db.read { db in try Team.fetchOne(db, key: 2) })
        celtics.name = "Lakers"
        let duplicate = try validationError { try db.write { db in try celtics.update(db) } }
        let issue = try #require(duplicate?.issues.first)
        #expect(summary([issue]) == ["team#2 /name notUnique"])
        #expect(issue.message(in: .russian) == "Значение поля «name» должно быть уникальным")
        // Renaming a team to its own name is not a duplicate of itself.
        celtics.name = "Celtics"
        try db.write { db in try celtics.update(db) }
    }

    @Test func deleteDeniedWhileATeamHasPlayers() throws {
        let (db, _) = try makeDatabase()
        let team = try db.write { db -> Team in
            var team = Team(name: "Heat")
            try team.insert(db)
            var player = Player(name: "Jimmy Butler", age: 34, teamId: team.id)
            try player.insert(db)
            return team
        }
        let denied = try validationError { try db.write { db in _ = try team.delete(db) } }
        let issue = try #require(denied?.issues.first)
        #expect(issue.code == .deleteDenied)
        #expect(issue.object == ObjectReference(entity: "team", id: "1"))
        #expect(issue.message(in: .english) == "team#1 cannot be deleted: 1 record in “players” still refers to it")
        #expect(try db.count("team") == 1)
        try db.write { db in _ = try Player.deleteAll(db) }
        try db.write { db in _ = try team.delete(db) }
        #expect(try db.count("team") == 0)
    }

    @Test func deleteCascadesAndNullifies() throws {
        let (db, _) = try makeDatabase()
        let team = try db.write { db -> Team in
            var team = Team(name: "Spurs")
            try team.insert(db)
            try Coach(id: 1, name: "Gregg", teamId: 1).insert(db)
            try Coach(id: 2, name: "Brett", teamId: 1).insert(db)
            var sponsor = Sponsor(id: 1, name: "H-E-B", teamId: 1)
            try sponsor.insert(db)
            return team
        }
        try db.write { db in _ = try team.delete(db) }
        #expect(try db.count("team") == 0)
        #expect(try db.count("coach") == 0)
        let sponsor = try db.read { db in try Sponsor.fetchOne(db, key: 1) }
        #expect(sponsor == Sponsor(id: 1, name: "H-E-B", teamId: nil))
    }

    @Test func aCascadedDeleteIsCheckedWithItsOwnRules() throws {
        let (db, _) = try makeDatabase()
        let team = try db.write { db -> Team in
            var team = Team(name: "Suns")
            try team.insert(db)
            try Coach(id: 7, name: "Frank", teamId: 1, locked: true).insert(db)
            return team
        }
        let denied = try validationError { try db.write { db in _ = try team.delete(db) } }
        #expect(try summary(#require(denied).issues) == ["coach#7  deleteDenied"])
        #expect(try db.count("team") == 1)
        #expect(try db.count("coach") == 1)
    }

    @Test func aChangeSetSaveValidatesEachRecordOnce() throws {
        // A swap that single-record checks would refuse, since each one alone collides: the change set
        // sees both.
        let (db, _) = try makeDatabase()
        try db.insertTeams("Alpha", "Beta")
        var changes = ChangeSet()
        changes.update(Team(id: 1, name: "Counted Gamma"))
        changes.update(Team(id: 2, name: "Alpha"))
        changes.insert(Team(name: "Counted Delta"))
        try changes.save(to: db)
        let names = try db.read { db in try Team.order(Column("id")).fetchAll(db).map(\.name) }
        #expect(names == ["Counted Gamma", "Alpha", "Counted Delta"])
        // Each record's rules ran exactly once, in the change set's plan: neither skipped nor run
        // again while the rows were written (today the plan writes its own statements, which GRDB's
        // callbacks do not see; were it to write through records, their callbacks must not check
        // again).
        let counts = ValidationCounter.shared.snapshot
        #expect(counts["Counted Gamma"] == 1 && counts["Counted Delta"] == 1, "\(counts)")
        // A single insert outside a change set runs them once too, through its callback.
        try db.write { db in
            var team = Team(name: "Counted Epsilon")
            try team.insert(db)
        }
        #expect(ValidationCounter.shared.snapshot["Counted Epsilon"] == 1)
    }
}

/// A ticket whose own callbacks fill in a code and stamp a revision: they compose with the checks,
/// which see what the callbacks left.
struct Ticket: Codable, Equatable, FetchableRecord, MutablePersistableRecord, ValidatedRecord {
    var id: Int64?
    var code: String?
    var title: String
    var revision = 0

    static let validation: Validation<Ticket> = [
        .normalize(\.title, "title") { $0.trimmingCharacters(in: .whitespaces) },
        .property(\.title, "title", .length(2...20)),
        .property(\.revision, "revision", .range(0...2)),
        .check("code") { ticket, context in
            if ticket.code == nil { context.report(.missing) }
        },
    ]

    mutating func willInsert(_ db: Database) throws {
        if code == nil { code = "T-\(title.count)" }
        self = Self.validation.normalized(self)
    }

    func willUpdate(_ db: Database, columns: Set<String>) throws {
        // A callback that only reads: the update's check still runs after it.
        _ = columns
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    static func createTable(_ db: Database) throws {
        try db.create(table: "ticket") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("code", .text)
            t.column("title", .text).notNull()
            t.column("revision", .integer).notNull()
        }
    }
}

@Suite struct OwnCallbackTests {
    @Test func aTypesOwnWillInsertComposesWithTheChecks() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in try Ticket.createTable(db) }
        // The callback's code and the normalised title are written.
        let ticket = try queue.write { db -> Ticket in
            var ticket = Ticket(title: "  Fix login ")
            try ticket.insert(db)
            return ticket
        }
        #expect(ticket.code == "T-12")
        #expect(try queue.read { db in try Ticket.fetchOne(db, key: ticket.id) } == ticket)
        #expect(ticket.title == "Fix login")
        // The checks still run after the callback, on what it left.
        let short = try validationError {
            try queue.write { db in
                var ticket = Ticket(title: "x")
                try ticket.insert(db)
            }
        }
        #expect(try summary(#require(short).issues) == ["ticket /title tooShort"])
        // An update through a type's own willUpdate is still checked.
        let stale = try validationError {
            try queue.write { db in
                var changed = ticket
                changed.revision = 9
                try changed.update(db)
            }
        }
        #expect(try summary(#require(stale).issues) == ["ticket#1 /revision tooLarge"])
        #expect(try queue.read { db in try Ticket.fetchCount(db) } == 1)
    }
}

/// A ticket whose willInsert is not idempotent: it counts every call.
struct Counter: Codable, Equatable, FetchableRecord, MutablePersistableRecord, ValidatedRecord {
    var id: Int64?
    var calls = 0

    static let validation: Validation<Counter> = [.property(\.calls, "calls", .range(0...5))]

    mutating func willInsert(_ db: Database) throws { calls += 1 }

    static func createTable(_ db: Database) throws {
        try db.create(table: "counter") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("calls", .integer).notNull()
        }
    }
}

/// A record whose callbacks write another record of its own type: `willSave` before it is written,
/// `aroundSave` after.
struct Echo: Codable, Equatable, FetchableRecord, MutablePersistableRecord, ValidatedRecord {
    var id: Int64?
    var name: String
    var before: String?
    var after: String?

    static let validation: Validation<Echo> = [.property(\.name, "name", .notBlank)]

    func willSave(_ db: Database) throws {
        guard let before else { return }
        var echo = Echo(name: before)
        try echo.insert(db)
    }

    func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
        _ = try save()
        guard let after else { return }
        var echo = Echo(name: after)
        try echo.insert(db)
    }

    static func createTable(_ db: Database) throws {
        try db.create(table: "echo") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
            t.column("before", .text)
            t.column("after", .text)
        }
    }
}

/// Records the callbacks GRDB runs for each insert.
struct Logged: Codable, Equatable, FetchableRecord, MutablePersistableRecord, ValidatedRecord {
    var id: Int64?
    var name: String

    static let validation: Validation<Logged> = [.property(\.name, "name", .notBlank)]
    static let log = CallbackLog()

    func willSave(_ db: Database) throws { Self.log.append("willSave \(name)") }
    func didSave(_ saved: PersistenceSuccess) { Self.log.append("didSave \(name)") }
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
        Self.log.append("didInsert \(name) \(inserted.rowID)")
    }

    static func createTable(_ db: Database) throws {
        try db.create(table: "logged") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
        }
    }
}

final class CallbackLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    func append(_ entry: String) {
        lock.lock()
        entries.append(entry)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return entries
    }
}

@Suite struct ChangeSetCallbackTests {
    func database() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try Ticket.createTable(db)
            try Counter.createTable(db)
            try Logged.createTable(db)
            try Echo.createTable(db)
        }
        return queue
    }

    @Test func aRecordOfTheSameTypeThatACallbackWritesIsChecked() throws {
        let queue = try database()
        // Written by willSave before the staged record, and by aroundSave after it: each is checked
        // on its own, though a record of its type is being written checked.
        for echo in [Echo(name: "staged", before: " "), Echo(name: "staged", after: " ")] {
            var changes = ChangeSet()
            changes.insert(echo)
            let error = try validationError { try changes.save(to: queue) }
            #expect(try summary(#require(error).issues) == ["echo /name blank"])
            #expect(try queue.read { db in try Echo.fetchCount(db) } == 0)
        }
        // Valid ones are written, the staged record once.
        var changes = ChangeSet()
        changes.insert(Echo(name: "staged", before: "first", after: "last"))
        try changes.save(to: queue)
        #expect(try queue.read { db in try Echo.fetchAll(db).map(\.name) } == ["first", "staged", "last"])
    }

    @Test func aChangeSetRunsTheTypesCallbacksAndChecksWhatWillInsertSets() throws {
        let queue = try database()
        var changes = ChangeSet()
        changes.insert(Ticket(title: " Crash on launch "))
        changes.insert(Logged(name: "first"))
        changes.insert(Logged(name: "second"))
        let saved = try changes.save(to: queue)
        // willInsert filled the code before the checks; the record written is the one checked.
        let tickets = try saved.inserted(Ticket.self)
        #expect(tickets.map(\.code) == ["T-17"])
        #expect(tickets.map(\.title) == ["Crash on launch"])
        #expect(try queue.read { db in try Ticket.fetchAll(db) } == tickets)
        // GRDB's own callbacks ran once each, in its order, with the row ids.
        #expect(
            Logged.log.all == [
                "willSave first", "didInsert first 1", "didSave first", "willSave second", "didInsert second 2",
                "didSave second",
            ])
        #expect(try saved.inserted(Logged.self).map(\.id) == [1, 2])
    }

    @Test func validateSeesWhatWillInsertSets() throws {
        let queue = try database()
        var changes = ChangeSet()
        // Valid as staged (five calls at most); willInsert makes it six.
        changes.insert(Counter(calls: 5))
        let issues = try queue.read { db in try changes.issues(db) }
        #expect(summary(issues) == ["counter /calls tooLarge"])
        #expect(try validationError { try changes.save(to: queue) } != nil)
        #expect(try queue.read { db in try Counter.fetchCount(db) } == 0)
    }

    @Test func aWillInsertThatChangesTheCheckedRecordAgainIsRefused() throws {
        let queue = try database()
        var changes = ChangeSet()
        changes.insert(Counter())
        // Checked with calls == 1; GRDB's write would make it 2.
        #expect(throws: StoreConfigurationError.self) { try changes.save(to: queue) }
        #expect(try queue.read { db in try Counter.fetchCount(db) } == 0)
        // On its own, GRDB runs it once and the record is checked as it leaves it.
        let counter = try queue.write { db -> Counter in
            var counter = Counter()
            try counter.insert(db)
            return counter
        }
        #expect(counter.calls == 1)
    }
}
