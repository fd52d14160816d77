import AssayCore
import AssayGRDB
import Foundation
import GRDB
import Testing

@Suite struct ReadValidationTests {
    /// Rows written by "another tool": raw SQL that skips every rule.
    func written() throws -> DatabaseQueue {
        let (db, _) = try makeDatabase()
        try db.write { db in
            try db.execute(sql: "INSERT INTO team (id, name) VALUES (1, 'Lakers')")
            try db.execute(
                sql: """
                    INSERT INTO player (id, name, age, teamId) VALUES
                      (1, 'LeBron James', 39, 1),
                      (2, 'Bronny', 12, 1),
                      (3, 'X', 200, 1),
                      (4, 'Austin Reaves', 'twenty-six', 1),
                      (5, NULL, 25, 1)
                    """)
        }
        return db
    }

    @Test func throwingPolicyReportsEveryInvalidRow() throws {
        let db = try written()
        let error = try validationError { _ = try db.read { db in try Player.fetchAllValidated(db) } }
        #expect(
            try summary(#require(error).issues) == [
                "player#2 /age tooSmall", "player#3 /name tooShort", "player#3 /age tooLarge",
                "player#4 /age typeMismatch",
                "player#4 /age tooSmall", "player#5  malformed",
            ])
    }

    @Test func skipPolicyReturnsTheValidRowsAndReportsTheOthers() throws {
        let db = try written()
        let fetched = try db.read { db in try Player.fetchAllValidated(db, policy: .skip) }
        #expect(fetched.records.map(\.id) == [1])
        #expect(fetched.skipped.map(\.description) == ["player#2", "player#3", "player#4", "player#5"])
        #expect(fetched.issues.count == 6)
        let lossy = try #require(fetched.issues.first { $0.code == .typeMismatch })
        #expect(lossy.message(in: .english) == "Age must be of type integer")
        #expect(lossy.value == .string("twenty-six"))
    }

    @Test func keepPolicyReturnsEveryDecodableRowWithItsIssues() throws {
        let db = try written()
        let request = Player.filter(Column("age") > 13).order(Column("id"))
        let fetched = try db.read { db in try Player.fetchAllValidated(db, request, policy: .keep) }
        #expect(fetched.records.map(\.id) == [1, 3, 4])
        #expect(
            summary(fetched.issues) == [
                "player#3 /name tooShort", "player#3 /age tooLarge", "player#4 /age typeMismatch",
                "player#4 /age tooSmall",
                "player#5  malformed",
            ])
        #expect(fetched.skipped.map(\.description) == ["player#5"])
    }

    /// A cursor checks each row as it reaches it; one row by request or by key is checked the same way.
    @Test func cursorsAndSingleRowsAreChecked() throws {
        let db = try written()
        try db.read { db in
            let rows = try Player.fetchCursorValidated(db, Player.order(Column("id")))
            var seen: [(Int64?, Bool)] = []
            while let row = try rows.next() { seen.append((row.record?.id, row.isValid)) }
            #expect(seen.map(\.0) == [1, 2, 3, 4, nil])
            #expect(seen.map(\.1) == [true, false, false, false, false])
            #expect(try Player.fetchOneValidated(db, key: 1)?.name == "LeBron James")
            #expect(try Player.fetchOneValidated(db, key: 99) == nil)
            let error = try validationError { _ = try Player.fetchOneValidated(db, key: 2) }
            #expect(try summary(#require(error).issues) == ["player#2 /age tooSmall"])
            #expect(throws: ValidationError.self) { try Player.fetchOneValidated(db, Player.filter(Column("id") == 5)) }
        }
    }

    /// A row read back is checked as a save would check it: its normalisers must not change it, and
    /// the rules of an update apply too (not only the on-demand ones).
    @Test func rowsAreCheckedAsASaveWouldCheckThem() throws {
        let (db, _) = try makeDatabase()
        try db.write { db in
            try db.execute(sql: "INSERT INTO team (id, name) VALUES (1, ' Spaced ')")
            try db.execute(sql: "INSERT INTO coach (id, name, teamId, locked) VALUES (1, 'Frank', 1, 1)")
        }
        let teams = try db.read { db in try Team.fetchAllValidated(db, policy: .keep) }
        #expect(summary(teams.issues) == ["team#1 /name notNormalized"])
        // The coach's `locked` check applies to deletes only: a read does not run it.
        #expect(try db.read { db in try Coach.fetchAllValidated(db) }.records.count == 1)
    }

    /// Store rules are checked on read too: a row's parents exist, its to-many counts are kept, its
    /// unique values are its own — in batches for a fetch of all rows, row by row for a cursor.
    @Test func storeRulesAreCheckedOnRead() throws {
        let db = try written()
        try db.writeWithoutTransaction { db in
            // Another tool, with foreign keys off, leaves a player whose team does not exist.
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "INSERT INTO player (id, name, age, teamId) VALUES (6, 'Lost Soul', 30, 42)")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        let teams = try db.read { db in try Team.fetchAllValidated(db, policy: .keep) }
        #expect(summary(teams.issues) == ["team#1 /players tooMany"])
        #expect(teams.issues.first?.message(in: .english) == "Players must have at most 3 items")
        let players = try db.read { db in
            try Player.fetchAllValidated(db, Player.filter(Column("id") > 5), policy: .keep)
        }
        #expect(summary(players.issues) == ["player#6 /teamId missing"])
        try db.read { db in
            let rows = try Player.fetchCursorValidated(db, Player.filter(Column("id") == 6))
            #expect(try rows.next().map { summary($0.issues) } == ["player#6 /teamId missing"])
            #expect(try Player.fetchOneValidated(db, key: 1)?.name == "LeBron James")
        }
    }

    /// Observed values are checked each time they change.
    @Test func observedRowsAreCheckedOnEveryChange() async throws {
        let (db, _) = try makeDatabase()
        try db.insertTeams("Lakers")
        let observation = ValueObservation.tracking { db in try Player.fetchAllValidated(db, policy: .keep) }
        var values = observation.values(in: db).makeAsyncIterator()
        let first = try await values.next()
        #expect(first?.records.isEmpty == true)
        try await db.write { db in
            try db.execute(sql: "INSERT INTO player (id, name, age, teamId) VALUES (1, 'Bronny', 12, 1)")
        }
        let second = try await values.next()
        #expect(second?.records.map(\.name) == ["Bronny"])
        #expect(second.map { summary($0.issues) } == ["player#1 /age tooSmall"])
    }
}

@Suite struct StorageFaultTests {
    @Test func aReadOnlyDatabaseGivesADatabaseErrorAndStaysUnchanged() throws {
        let (db, url) = try makeDatabase()
        try db.insertTeams("Lakers")
        try db.close()
        var configuration = Configuration()
        configuration.readonly = true
        let readOnly = try DatabaseQueue(path: url.path, configuration: configuration)
        var changes = ChangeSet()
        changes.insert(Team(name: "Nets"))
        let error = #expect(throws: DatabaseError.self) { try changes.save(to: readOnly) }
        #expect(error?.resultCode == .SQLITE_READONLY)
        #expect(try readOnly.count("team") == 1)
    }

    @Test func aFullDiskGivesADatabaseErrorAndWritesNothing() throws {
        let (db, _) = try makeDatabase()
        try db.insertTeams("Lakers")
        // SQLite's own limit on the file's size stands in for a full disk: it fails the same way.
        let pages = try db.read { db in try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0 }
        try db.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = \(pages + 2)") }
        var changes = ChangeSet()
        for index in 0..<2_000 {
            changes.insert(Team(name: "Team \(index) " + String(repeating: "x", count: 10)))
        }
        let error = #expect(throws: DatabaseError.self) { try changes.save(to: db) }
        #expect(error?.resultCode == .SQLITE_FULL)
        #expect(try db.count("team") == 1)
    }
}
