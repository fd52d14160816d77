import AssayCore
import AssayGRDB
import Foundation
import GRDB
import Testing

/// GRDB's bulk writes on validated records: deletes go through the rules, updates are refused.
@Suite struct BulkWriteTests {
    @Test func deleteAllAppliesTheDeleteRulesAllOrNothing() throws {
        let (db, _) = try makeDatabase()
        try db.write { db in
            var suns = Team(name: "Suns")
            try suns.insert(db)
            var heat = Team(name: "Heat")
            try heat.insert(db)
            var player = Player(name: "Devin Booker", age: 27, teamId: suns.id)
            try player.insert(db)
            try Coach(id: 1, name: "Frank", teamId: heat.id!).insert(db)
        }
        // A team with a player cannot be deleted (deny): nothing is deleted, not even the other team.
        let denied = try validationError { try db.write { db in _ = try Team.deleteAll(db) } }
        let deniedSummary = try summary(#require(denied).issues)
        #expect(deniedSummary == ["team#1  deleteDenied"], "\(deniedSummary)")
        #expect(try db.count("team") == 2)
        // Through a request: the team without players goes, and its coach with it (cascade).
        let deleted = try db.write { db in try Team.filter(Column("name") == "Heat").deleteAll(db) }
        #expect(deleted == 1)
        #expect(try db.count("team") == 1)
        #expect(try db.count("coach") == 0)
        // By key, and by id list: the rules apply the same way.
        #expect(throws: ValidationError.self) { try db.write { db in _ = try Team.deleteAll(db, keys: [1]) } }
        #expect(try db.write { db in try Player.deleteAll(db, keys: [1]) } == 1)
        #expect(try db.write { db in try Team.deleteAll(db) } == 1)
        #expect(try db.count("team") == 0)
    }

    @Test func updateAllIsRefusedAndWritesNothing() throws {
        let (db, _) = try makeDatabase()
        try db.insertTeams("Suns")
        let name = Column("name")
        let refusals: [() throws -> Int] = [
            { try db.write { db in try Team.updateAll(db, name.set(to: "X")) } },
            { try db.write { db in try Team.updateAll(db, [name.set(to: "X")]) } },
            { try db.write { db in try Team.filter(name == "Suns").updateAll(db, name.set(to: "X")) } },
            { try db.write { db in try Team.all().updateAll(db, [name.set(to: "X")]) } },
        ]
        for attempt in refusals {
            let error = #expect(throws: BulkUpdateRefused.self) { _ = try attempt() }
            #expect(error?.description.hasPrefix("Team.updateAll would bypass Team's rules") == true)
        }
        #expect(try db.read { db in try String.fetchOne(db, sql: "SELECT name FROM team") } == "Suns")
    }
}
