import AssayCodable
import AssayGRDB
import Foundation
import GRDB

/// Seed 000's roster on a SQLite file: teams and players, every write validated.
public struct Roster: Sendable {
    /// The database.
    public let database: DatabaseQueue

    /// Opens (creating if needed) the roster at `path` and brings its tables up to date.
    ///
    /// - Throws: A database error when the file cannot be opened or created.
    public init(path: String) throws {
        database = try DatabaseQueue(path: path)
        try Self.migrator.migrate(database)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1", migrate: createTables)
        return migrator
    }

    /// Creates the `team` and `player` tables, the unique index on team names (it backs the uniqueness
    /// rule and the players' foreign key) and the index on each player's team.
    public static func createTables(_ db: Database) throws {
        try db.create(table: "team") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
        }
        try db.create(table: "player") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
            t.column("age", .integer).notNull()
            t.column("team", .text).notNull().references("team", column: "name")
        }
        try Team.createStoreIndexes(db)
        try Player.createStoreIndexes(db)
    }

    /// Adds a team (checked by the record's insert callback).
    ///
    /// - Throws: `ValidationError` (a name too short, or taken); a database error.
    @discardableResult
    public func addTeam(named name: String) throws -> Team {
        try database.write { db in
            var team = Team(name: name)
            try team.insert(db)
            return team
        }
    }

    /// Adds a player to a team (checked by the record's insert callback).
    @discardableResult
    public func addPlayer(_ player: Player) throws -> Player {
        try database.write { db in
            var player = player
            try player.insert(db)
            return player
        }
    }

    /// Every team with its players, read back and checked again; rows that fail their rules (written by
    /// another tool) are shown with their issues.
    public func list() throws -> (teams: [Team], players: [Player], issues: [ValidationIssue]) {
        try database.read { db in
            let teams = try Team.fetchAllValidated(db, Team.order(Column("name")), policy: .keep)
            let players = try Player.fetchAllValidated(
                db, Player.order(Column("team"), Column("name")), policy: .keep)
            return (teams.records, players.records, teams.issues + players.issues)
        }
    }

    /// Imports a JSON array of players, all or nothing: decoded and checked with AssayCodable (every
    /// bad field of every element), then saved through a change set (teams exist, at most 15 players a
    /// team).
    ///
    /// - Returns: How many players were imported.
    /// - Throws: `ValidationError` with every issue, each naming the element (`players[12]`); a
    ///   database error.
    @discardableResult
    public func importPlayers(json: [UInt8]) throws -> Int {
        let players: [Player]
        do {
            players = try JSONValueDecoder().decodeValidated([Player].self, from: json).value
        } catch {
            throw ValidationError(
                error.issues.map { issue in
                    var issue = issue
                    issue.object = issue.object ?? ObjectReference(entity: "import")
                    return issue
                })
        }
        var changes = ChangeSet()
        for (index, player) in players.enumerated() {
            changes.insert(player, label: "players[\(index)]")
        }
        try changes.save(to: database)
        return players.count
    }

    /// Deletes the team named `name`; a team with players cannot be deleted.
    ///
    /// - Throws: `ValidationError` (``AssayCore/IssueCode/deleteDenied``, or no such team); a database
    ///   error.
    public func deleteTeam(named name: String) throws {
        try database.write { db in
            guard let team = try Team.filter(Column("name") == name).fetchOne(db) else {
                throw ValidationError(
                    ValidationIssue(
                        code: .missing, object: ObjectReference(entity: "team", id: name), value: .string(name),
                        phase: .delete, messageKey: "notFound", label: name))
            }
            _ = try team.delete(db)
        }
    }
}
