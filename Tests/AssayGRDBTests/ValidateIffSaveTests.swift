import AssayCore
import AssayGRDB
import AssayTestSupport
import Foundation
import GRDB
import Testing

/// `ChangeSet.validate` succeeds if and only if `save` does, over thousands of generated change sets
/// against generated databases: names drawn from a small pool (so uniqueness conflicts, frees and swaps
/// are common), ids that exist and ids that do not, invalid values, parents deleted under their
/// children.
@Suite struct ValidateIffSaveTests {
    static let teamNames = ["Lakers", "Celtics", "Bulls", " Bulls", "Nets", "X"]
    static let sponsorNames = ["Acme", "Globex", "Initech"]

    /// One generated database and change set, described for a failure's message.
    struct Case {
        var setup: [String] = []
        var changes = ChangeSet()
        var staged: [String] = []
        /// The names the staged team updates give, by id.
        var renamed: [Int64: String] = [:]
    }

    /// A database of one to four teams, their players, coaches and sponsors, and a change set of one to
    /// seven changes.
    static func generate(_ numbers: inout SeededNumbers, in db: Database) throws -> Case {
        var generated = Case()
        var names = teamNames.filter { $0 == $0.trimmingCharacters(in: .whitespaces) && $0.count > 1 }
        let teams = 1 + numbers.next(4)
        for id in 1...teams {
            let name = names.remove(at: numbers.next(names.count))
            try db.execute(sql: "INSERT INTO team (id, name) VALUES (?, ?)", arguments: [id, name])
            generated.setup.append("team \(id) \(name)")
        }
        var playerID = 0
        for team in 1...teams {
            for _ in 0..<numbers.next(4) {
                playerID += 1
                try db.execute(
                    sql: "INSERT INTO player (id, name, age, teamId) VALUES (?, ?, ?, ?)",
                    arguments: [playerID, "P\(playerID)", 20, team])
                generated.setup.append("player \(playerID) team \(team)")
            }
        }
        for id in 1...(1 + numbers.next(2)) {
            let team = 1 + numbers.next(teams)
            try db.execute(
                sql: "INSERT INTO coach (id, name, teamId) VALUES (?, ?, ?)", arguments: [id, "C\(id)", team])
            generated.setup.append("coach \(id) team \(team)")
        }
        for id in 1...(1 + numbers.next(2)) {
            try db.execute(
                sql: "INSERT INTO tag (id, name) VALUES (?, ?)", arguments: [id, sponsorNames[id - 1]])
            try db.execute(
                sql: "INSERT INTO badge (id, code, teamId) VALUES (?, ?, ?)",
                arguments: [id, "B\(id)", 1 + numbers.next(teams)])
            generated.setup.append("tag \(id) \(sponsorNames[id - 1]), badge \(id) B\(id)")
        }
        for id in 1...(1 + numbers.next(2)) {
            let name = sponsorNames[numbers.next(sponsorNames.count)]
            let team: Int? = numbers.next(3) == 0 ? nil : 1 + numbers.next(teams)
            // A sponsor's name is unique per team: a clash leaves this one out.
            try db.execute(
                sql: """
                    INSERT INTO sponsor (id, name, teamId) SELECT ?, ?, ? \
                    WHERE NOT EXISTS (SELECT 1 FROM sponsor WHERE name = ? AND teamId IS ?)
                    """,
                arguments: [id, name, team, name, team])
            generated.setup.append("sponsor \(id) \(name) team \(team.map(String.init) ?? "nil")")
        }
        // Ids that exist, one past them, and one far away.
        func teamID() -> Int64? {
            switch numbers.next(20) {
            case 0: return nil
            case 1: return 99
            default: return Int64(1 + numbers.next(teams + 1))
            }
        }
        // A name from the pool (taken, freed or swapped), or a new one.
        var fresh = 0
        func someName() -> String {
            fresh += 1
            return numbers.next(2) == 0 ? teamNames[numbers.next(teamNames.count)] : "Club \(fresh)"
        }
        // A stored id or a new one.
        func someID(stored: Int) -> Int64 {
            fresh += 1
            return Int64(numbers.next(2) == 0 ? 1 + numbers.next(stored) : 10 + fresh)
        }
        // Mostly a stored team, sometimes the next id (not stored).
        func storedTeam() -> Int64 { Int64(1 + numbers.next(numbers.next(8) == 0 ? teams + 1 : teams)) }
        for _ in 0..<(1 + numbers.next(5)) {
            let description: String
            switch numbers.next(15) {
            case 13:
                // Under `.ignore`: a stored or staged name is left out.
                let tag = Tag(name: sponsorNames[numbers.next(sponsorNames.count)])
                generated.changes.insert(tag)
                description = "insert \(tag)"
            case 14:
                // Under `.replace`: the row holding the id or the code is replaced.
                let badge = Badge(
                    id: Int64(1 + numbers.next(4)), code: ["B1", "B2", "B3", "X"][numbers.next(4)],
                    teamId: teamID() ?? 1)
                generated.changes.insert(badge)
                description = "insert \(badge)"
            case 12:
                // Two stored teams trade names (the save must park one of them).
                let first = 1 + numbers.next(teams)
                let second = teams == 1 ? first : 1 + (first + numbers.next(teams - 1)) % teams
                let names = try [first, second].map { id in
                    try String.fetchOne(db, sql: "SELECT name FROM team WHERE id = ?", arguments: [id]) ?? ""
                }
                generated.changes.update(Team(id: Int64(first), name: names[1]))
                generated.changes.update(Team(id: Int64(second), name: names[0]))
                generated.renamed[Int64(first)] = names[1]
                generated.renamed[Int64(second)] = names[0]
                description = "swap teams \(first) and \(second)"
            case 0, 1:
                let team = Team(id: numbers.next(4) == 0 ? Int64(1 + numbers.next(teams + 1)) : nil, name: someName())
                generated.changes.insert(team)
                description = "insert \(team)"
            case 2, 3, 4:
                let team = Team(id: storedTeam(), name: someName())
                generated.changes.update(team)
                generated.renamed[team.id ?? 0] = team.name.trimmingCharacters(in: .whitespaces)
                description = "update \(team)"
            case 5:
                let team = Team(id: storedTeam(), name: someName())
                generated.changes.delete(team)
                description = "delete \(team)"
            case 6:
                let player = Player(name: "New", age: numbers.next(4) == 0 ? 12 : 30, teamId: teamID())
                generated.changes.insert(player)
                description = "insert \(player)"
            case 7:
                let id = Int64(1 + numbers.next(playerID + 1))
                let player = Player(id: id, name: "P\(id)", age: 20, teamId: teamID())
                generated.changes.update(player)
                description = "update \(player)"
            case 8:
                let id = Int64(1 + numbers.next(playerID + 1))
                let player = Player(id: id, name: "P\(id)", age: 20, teamId: 1)
                generated.changes.delete(player)
                description = "delete \(player)"
            case 9:
                let sponsor = Sponsor(
                    id: someID(stored: 2), name: sponsorNames[numbers.next(sponsorNames.count)],
                    teamId: teamID())
                if numbers.next(2) == 0 {
                    generated.changes.insert(sponsor)
                    description = "insert \(sponsor)"
                } else {
                    generated.changes.update(sponsor)
                    description = "update \(sponsor)"
                }
            case 10:
                let coach = Coach(id: someID(stored: 2), name: "Coach", teamId: teamID() ?? 1)
                generated.changes.insert(coach)
                description = "insert \(coach)"
            default:
                let coach = Coach(
                    id: Int64(1 + numbers.next(3)), name: "Coach", teamId: 1, locked: numbers.next(3) == 0)
                generated.changes.delete(coach)
                description = "delete \(coach)"
            }
            generated.staged.append(description)
        }
        return generated
    }

    /// How a call ended.
    enum Outcome: Equatable {
        case succeeded
        case refused([String])
        case failed(String)
    }

    static func outcome(_ body: () throws -> Void) -> Outcome {
        do {
            try body()
            return .succeeded
        } catch let error as ValidationError {
            return .refused(summary(error.issues).sorted())
        } catch {
            return .failed(String(describing: error))
        }
    }

    @Test func validateSucceedsIfAndOnlyIfSaveDoes() throws {
        var numbers = SeededNumbers(seed: 26)
        var saved = 0
        var refused = 0
        var swapsSaved = 0
        for round in 0..<3_000 {
            let queue = try DatabaseQueue()
            let generated = try queue.write { db -> Case in
                try createTables(db)
                return try Self.generate(&numbers, in: db)
            }
            let validated = try queue.read { db in Self.outcome { try generated.changes.validate(db) } }
            var written = Outcome.succeeded
            try queue.writeWithoutTransaction { db in
                try db.inTransaction {
                    written = Self.outcome { try generated.changes.save(db) }
                    // A save that succeeded leaves a database that keeps every rule.
                    if written == .succeeded {
                        let broken = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
                        #expect(broken.isEmpty, "round \(round): foreign keys broken after a save")
                        let crowded = try Int.fetchOne(
                            db,
                            sql: "SELECT COUNT(*) FROM (SELECT teamId FROM player GROUP BY teamId HAVING COUNT(*) > 3)")
                        #expect(crowded == 0, "round \(round): a team has more than three players after a save")
                        let tags = try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT name) = COUNT(*) FROM tag")
                        #expect(tags == 1, "round \(round): tag names are not unique")
                        for (id, name) in generated.renamed {
                            let stored = try String.fetchOne(
                                db, sql: "SELECT name FROM team WHERE id = ?", arguments: [id])
                            #expect(stored == name, "round \(round): team \(id) is not renamed as staged")
                        }
                    }
                    return .rollback
                }
            }
            let context =
                "round \(round)\nsetup: \(generated.setup)\nstaged: \(generated.staged.joined(separator: "; "))"
            #expect(validated == written, "\(context)\nvalidate: \(validated)\nsave: \(written)")
            if validated != written { return }
            if written == .succeeded { saved += 1 } else { refused += 1 }
            if written == .succeeded, generated.staged.contains(where: { $0.hasPrefix("swap") }) { swapsSaved += 1 }
        }
        // The generator reaches both outcomes often.
        #expect(saved > 500, "\(saved) saved")
        #expect(refused > 500, "\(refused) refused")
        #expect(swapsSaved > 50, "\(swapsSaved) swaps saved")
    }
}
