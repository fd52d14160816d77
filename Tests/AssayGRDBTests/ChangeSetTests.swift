import AssayCore
import AssayGRDB
import Foundation
import GRDB
import Testing

@Suite struct ChangeSetTests {
    /// Two teams and one player in the database.
    func seeded() throws -> DatabaseQueue {
        let (db, _) = try makeDatabase()
        try db.insertTeams("Lakers", "Celtics")
        try db.write { db in
            var player = Player(name: "Anthony Davis", age: 31, teamId: 1)
            try player.insert(db)
        }
        return db
    }

    @Test func stagedRecordsMayBeInvalidAndValidateReportsEveryIssueOfEveryRecord() throws {
        let db = try seeded()
        var changes = ChangeSet()
        changes.insert(Team(name: "L"))
        changes.insert(Player(name: "X", age: 70, teamId: 2), label: "players[0]")
        changes.update(Player(id: 1, name: "Anthony Davis", age: 15, teamId: 1))
        changes.insert(Team(name: "Lakers"))
        #expect(changes.count == 4)
        let issues = try db.read { db in try changes.issues(db) }
        #expect(
            summary(issues) == [
                "team#new 1 /name tooShort",
                "player#players[0] /name tooShort",
                "player#players[0] /age tooLarge",
                "player#1 /age tooSmall",
                "team#new 4 /name notUnique",
            ])
        let error = try validationError { try db.read { db in try changes.validate(db) } }
        #expect(error?.issues == issues)
        // Validation wrote nothing, and a failed save writes nothing either.
        #expect(try validationError { try changes.save(to: db) }?.issues == issues)
        #expect(try db.count("team") == 2)
        #expect(try db.read { db in try Player.fetchOne(db, key: 1)?.age } == 31)
    }

    @Test func saveWritesEverythingInOneTransactionNormalised() throws {
        let db = try seeded()
        var changes = ChangeSet()
        changes.insert(Team(id: 3, name: " Warriors "))
        changes.insert(Player(name: " Stephen Curry ", age: 36, teamId: 3))
        changes.insert(Player(name: "Draymond Green", age: 34, teamId: 3))
        changes.update(Player(id: 1, name: "Anthony Davis", age: 32, teamId: 2))
        try db.read { db in try changes.validate(db) }
        try changes.save(to: db)
        let teams = try db.read { db in try Team.order(Column("id")).fetchAll(db).map(\.name) }
        #expect(teams == ["Lakers", "Celtics", "Warriors"])
        let players = try db.read { db in try Player.order(Column("id")).fetchAll(db) }
        #expect(players.map(\.name) == ["Anthony Davis", "Stephen Curry", "Draymond Green"])
        #expect(players.map(\.teamId) == [2, 3, 3])
        changes.discard()
        #expect(changes.isEmpty)
    }

    @Test func uniquenessIsCheckedInsideTheSetAndAgainstTheDatabase() throws {
        let db = try seeded()
        var changes = ChangeSet()
        changes.insert(Team(name: "Nets"))
        changes.insert(Team(name: "Nets"))
        changes.insert(Team(name: "Celtics"))
        // Celtics is renamed in the same set, so its old name is free for the next insert.
        changes.update(Team(id: 2, name: "Boston Celtics"))
        changes.insert(Team(name: "Celtics"), label: "the new Celtics")
        let issues = try db.read { db in try changes.issues(db) }
        #expect(summary(issues) == ["team#new 2 /name notUnique", "team#the new Celtics /name notUnique"])
        #expect(issues[0].value == .string("Nets"))
    }

    @Test func aUniqueRuleWithoutAUniqueIndexIsAConfigurationError() throws {
        let (db, _) = try makeDatabase(uniqueIndex: false)
        var changes = ChangeSet()
        changes.insert(Team(name: "Nets"))
        #expect(throws: StoreConfigurationError.self) { try db.read { db in try changes.validate(db) } }
    }

    @Test func aConstraintViolationFromSQLiteBecomesANotUniqueIssue() throws {
        // The index is case-insensitive and the column is not: the check misses "lakers", as it would
        // miss a row another writer inserted after the check, and the index catches it.
        let (db, _) = try makeDatabase(uniqueIndex: false)
        try db.write { db in
            try db.execute(sql: "CREATE UNIQUE INDEX team_name ON team(name COLLATE NOCASE)")
            var team = Team(name: "Lakers")
            try team.insert(db)
        }
        var changes = ChangeSet()
        changes.insert(Team(name: "Bucks"))
        changes.insert(Team(name: "lakers"))
        let error = try validationError { try changes.save(to: db) }
        let issue = try #require(error?.issues.first)
        #expect(issue.code == .notUnique)
        #expect(issue.path.jsonPointer == "/name")
        #expect(issue.object == ObjectReference(entity: "team", id: "new 2"))
        // All or nothing: the first insert is rolled back too.
        #expect(try db.count("team") == 1)
    }

    @Test func requiredParentsMustExistAfterTheWholeSet() throws {
        let db = try seeded()
        var changes = ChangeSet()
        changes.insert(Player(name: "Orphan", age: 20, teamId: nil))
        changes.insert(Player(name: "Ghost", age: 20, teamId: 42))
        changes.insert(Team(id: 9, name: "Magic"))
        changes.insert(Player(name: "Paolo Banchero", age: 21, teamId: 9))
        let issues = try db.read { db in try changes.issues(db) }
        #expect(summary(issues) == ["player#new 1 /teamId missing", "player#new 2 /teamId missing"])
        #expect(issues[0].message(in: .english) == "TeamId is required")
        #expect(issues[1].message(in: .simplifiedChinese) == "teamId引用的team不存在")
    }

    @Test func toManyCountsIncludeStagedAndStoredChildren() throws {
        let db = try seeded()
        var changes = ChangeSet()
        for name in ["Austin Reaves", "D'Angelo Russell", "Rui Hachimura"] {
            changes.insert(Player(name: name, age: 25, teamId: 1))
        }
        let tooMany = try db.read { db in try changes.issues(db) }
        #expect(summary(tooMany) == ["team#1 /players tooMany"])
        #expect(tooMany[0].message(in: .english) == "Players must have at most 3 items")
        #expect(tooMany[0].value == .integer(4))
        // Moving the stored player away in the same set makes room.
        changes.update(Player(id: 1, name: "Anthony Davis", age: 31, teamId: 2))
        #expect(try db.read { db in try changes.issues(db) }.isEmpty)
        try changes.save(to: db)
        #expect(try db.count("player") == 4)
    }

    @Test func deleteRulesApplyToTheWholeSet() throws {
        let db = try seeded()
        // Denied: Lakers still has a player.
        var denied = ChangeSet()
        denied.delete(Team(id: 1, name: "Lakers"))
        #expect(try summary(db.read { db in try denied.issues(db) }) == ["team#1  deleteDenied"])
        // Allowed when the same set deletes the player first (or after: the order does not matter).
        var allowed = ChangeSet()
        allowed.delete(Team(id: 1, name: "Lakers"))
        allowed.delete(Player(id: 1, name: "Anthony Davis", age: 31, teamId: 1))
        try allowed.save(to: db)
        #expect(try db.count("team") == 1)
        #expect(try db.count("player") == 0)
        // A player staged for a team deleted in the same set refers to nothing.
        var dangling = ChangeSet()
        dangling.delete(Team(id: 2, name: "Celtics"))
        dangling.insert(Player(name: "Jrue Holiday", age: 34, teamId: 2))
        #expect(
            try summary(db.read { db in try dangling.issues(db) }) == [
                "team#2  deleteDenied", "player#new 2 /teamId missing",
            ])
    }

    @Test func issuesAreLocalised() throws {
        let db = try seeded()
        var changes = ChangeSet()
        changes.insert(Team(name: "Lakers"))
        let issue = try #require(try db.read { db in try changes.issues(db) }.first)
        #expect(issue.message(in: .english) == "Name must be unique")
        #expect(issue.message(in: .simplifiedChinese) == "name必须唯一")
    }

    @Test func insertConflictPoliciesAreThoseOfTheRecordType() throws {
        let db = try seeded()
        try db.write { db in
            var tag = Tag(name: "Rookie")
            try tag.insert(db)
            _ = try Badge(id: 1, code: "MVP", teamId: 1).inserted(db)
        }
        var changes = ChangeSet()
        changes.insert(Tag(name: "Rookie"))  // stored: left out under .ignore
        changes.insert(Tag(name: "Veteran"))
        changes.insert(Tag(name: "Veteran"))  // staged before: left out
        changes.insert(Tag(name: "Veteran"))  // and again
        changes.insert(Badge(id: 2, code: "MVP", teamId: 2))  // replaces badge 1, which holds the code
        try db.read { db in try changes.validate(db) }
        let saved = try changes.save(to: db)
        #expect(try saved.inserted(Tag.self).map(\.name) == ["Veteran"])
        #expect(try saved.inserted(Badge.self) == [Badge(id: 2, code: "MVP", teamId: 2)])
        let tags = try db.read { db in try String.fetchAll(db, sql: "SELECT name FROM tag ORDER BY id") }
        #expect(tags == ["Rookie", "Veteran"])
        #expect(try db.read { db in try Badge.fetchAll(db) } == [Badge(id: 2, code: "MVP", teamId: 2)])
        // A policy that fails (the default, .abort) is checked as before.
        var taken = ChangeSet()
        taken.insert(Team(name: "Lakers"))
        #expect(try summary(#require(validationError { try taken.save(to: db) }).issues) == ["team /name notUnique"])
    }

    @Test func aDeleteThatAForeignKeyStillRefersToIsReported() throws {
        let db = try seeded()
        // Team declares no relationship to badges; the foreign key in SQLite does.
        try db.write { db in _ = try Badge(id: 1, code: "MVP", teamId: 2).inserted(db) }
        var changes = ChangeSet()
        changes.delete(Team(id: 2, name: "Celtics"))
        let error = try #require(validationError { try db.read { db in try changes.validate(db) } })
        #expect(summary(error.issues) == ["team#2  deleteDenied"])
        #expect(error.issues[0].message == "team#2 cannot be deleted: 1 record in “badge” still refers to it")
        #expect(try validationError { try changes.save(to: db) } != nil)
        // Deleting the badge too, or moving it, frees the team.
        changes.delete(Badge(id: 1, code: "MVP", teamId: 2))
        try changes.save(to: db)
        #expect(try db.count("team") == 1)
    }

    @Test func teamsRenamedIntoEachOthersNamesAreSaved() throws {
        let db = try seeded()
        try db.insertTeams("Bulls")
        var changes = ChangeSet()
        // A cycle of three names, and an insert that takes the name the cycle frees.
        changes.update(Team(id: 1, name: "Celtics"))
        changes.update(Team(id: 2, name: "Bulls"))
        changes.update(Team(id: 3, name: "Nets"))
        changes.insert(Team(name: "Lakers"))
        try db.read { db in try changes.validate(db) }
        try changes.save(to: db)
        let names = try db.read { db in try String.fetchAll(db, sql: "SELECT name FROM team ORDER BY id") }
        #expect(names == ["Celtics", "Bulls", "Nets", "Lakers"])
    }

    @Test func whatTheStatementsNeedIsValidatedToo() throws {
        let db = try seeded()
        var changes = ChangeSet()
        changes.update(Team(id: 9, name: "Heat"))  // not stored
        changes.update(Team(id: nil, name: "Suns"))  // no key
        changes.insert(Coach(id: 1, name: "Ann", teamId: 1))
        changes.update(Coach(id: 1, name: "Ann", teamId: 2))  // the same record twice
        try db.write { db in try Coach(id: 2, name: "Bo", teamId: 1).insert(db) }
        changes.insert(Coach(id: 2, name: "Bo", teamId: 2))  // its key is taken
        let error = try #require(validationError { try db.read { db in try changes.validate(db) } })
        #expect(
            summary(error.issues) == [
                "team#9  missing", "team#new 2  missing", "coach#1  notUnique", "coach#2 /id notUnique",
            ])
        #expect(
            error.issues.map { $0.message }.prefix(3) == [
                "team#9 does not exist", "team#new 2 does not exist",
                "coach#1 is staged more than once in one change set",
            ])
        // The save refuses the same set with the same issues, before writing anything.
        let refused = try #require(validationError { try changes.save(to: db) })
        #expect(summary(refused.issues) == summary(error.issues))
        // A coach deleted in the set frees its key for an insert.
        var replacing = ChangeSet()
        replacing.delete(Coach(id: 2, name: "Bo", teamId: 1))
        replacing.insert(Coach(id: 2, name: "Cy", teamId: 1))
        try replacing.save(to: db)
        #expect(try db.read { db in try Coach.fetchOne(db, key: 2)?.name } == "Cy")
    }
}

/// Sets that refer to many parents are checked with batched queries: the same issues as one by one.
@Suite struct BatchedChecksTests {
    @Test func manyParentsAreCheckedInBatches() throws {
        let (db, _) = try makeDatabase()
        try db.write { db in
            for index in 1...40 {
                var team = Team(id: Int64(index), name: "Team \(index)")
                try team.insert(db)
            }
            // Team 7 has two players already; team 12 one.
            for teamId in [7, 7, 12] {
                var player = Player(name: "Veteran", age: 30, teamId: Int64(teamId))
                try player.insert(db)
            }
        }
        var changes = ChangeSet()
        for teamId in 1...40 where teamId != 12 {
            changes.insert(Player(name: "Rookie \(teamId)", age: 20, teamId: Int64(teamId)))
        }
        changes.insert(Player(name: "Second", age: 20, teamId: 7))  // 2 stored + 2 staged > 3
        changes.insert(Player(name: "Nowhere", age: 20, teamId: 99))  // no such team
        changes.delete(Team(id: 30, name: "Team 30"))  // deleted with a player staged for it
        let issues = try db.read { db in try changes.issues(db) }
        #expect(
            summary(issues) == [
                "team#30  deleteDenied", "player#new 29 /teamId missing", "player#new 41 /teamId missing",
                "team#7 /players tooMany",
            ])
        #expect(issues.last?.value == .integer(4))
    }
}

@Suite struct StoreRuleKindsTests {
    @Test func aGroupOfColumnsIsUniqueTogether() throws {
        let (db, _) = try makeDatabase()
        try db.insertTeams("Lakers", "Celtics")
        var changes = ChangeSet()
        changes.insert(Sponsor(id: 1, name: "Nike", teamId: 1))
        changes.insert(Sponsor(id: 2, name: "Nike", teamId: 2))  // another team: fine
        changes.insert(Sponsor(id: 3, name: "Nike", teamId: 1))  // the same deal twice
        changes.insert(Sponsor(id: 4, name: "Adidas", teamId: nil))
        changes.insert(Sponsor(id: 5, name: "Adidas", teamId: nil))  // NULL is never a duplicate
        let issues = try db.read { db in try changes.issues(db) }
        #expect(summary(issues) == ["sponsor#3 /name notUnique"])
        #expect(issues[0].value == .list([.string("Nike"), .integer(1)]))
        #expect(issues[0].message(in: .english) == "Sponsor of the team must be unique")
        #expect(throws: ValidationError.self) { try changes.save(to: db) }
        var valid = ChangeSet()
        valid.insert(Sponsor(id: 1, name: "Nike", teamId: 1))
        valid.insert(Sponsor(id: 2, name: "Nike", teamId: 2))
        try valid.save(to: db)
        var again = ChangeSet()
        again.insert(Sponsor(id: 6, name: "Nike", teamId: 2))
        #expect(try summary(db.read { db in try again.issues(db) }) == ["sponsor#6 /name notUnique"])
    }

    @Test func aMinimumCountIsCheckedForNewParentsAndWhenChildrenLeave() throws {
        let (db, _) = try makeDatabase()
        var lonely = ChangeSet()
        lonely.insert(League(id: 1, name: "East"))
        lonely.insert(Club(id: 1, leagueId: 1))
        let tooFew = try db.read { db in try lonely.issues(db) }
        #expect(summary(tooFew) == ["league#1 /clubs tooFew"])
        #expect(tooFew[0].message(in: .english) == "Clubs must have at least 2 items")

        var full = lonely
        full.insert(Club(id: 2, leagueId: 1))
        try full.save(to: db)

        var leaving = ChangeSet()
        leaving.delete(Club(id: 2, leagueId: 1))
        #expect(try summary(db.read { db in try leaving.issues(db) }) == ["league#1 /clubs tooFew"])
        // Deleting the league takes its clubs along (cascade), and no count is left to check.
        var all = ChangeSet()
        all.delete(League(id: 1, name: "East"))
        try all.save(to: db)
        #expect(try db.count("club") == 0)
    }
}

/// A change set's inserts come back as written, with the ids SQLite assigned.
@Suite struct SavedChangesTests {
    @Test func insertedRecordsComeBackWithTheirIds() throws {
        let (db, _) = try makeDatabase()
        try db.insertTeams("Existing")
        var changes = ChangeSet()
        changes.insert(Team(name: " Suns "))
        changes.insert(Team(name: "Heat"))
        changes.insert(Coach(id: 7, name: " Frank ", teamId: 1))
        let saved = try changes.save(to: db)
        let teams = try saved.inserted(Team.self)
        #expect(teams == [Team(id: 2, name: "Suns"), Team(id: 3, name: "Heat")], "normalised, with their ids")
        #expect(try saved.inserted(Coach.self) == [Coach(id: 7, name: "Frank", teamId: 1)])
        #expect(saved.insertedRowIDs == [2, 3, 7])
        #expect(try saved.inserted(Player.self).isEmpty)
        // The ids are those of the rows: each reads back as returned.
        #expect(try db.read { db in try Team.fetchOne(db, key: 2) } == teams[0])
    }
}
