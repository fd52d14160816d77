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

    /// Imports a JSON array of players, all or nothing. Every element is decoded and checked with
    /// AssayCodable (every bad field), and the elements that decode are checked against the store
    /// (teams exist, at most 15 players a team) in the same pass: one error reports every problem of
    /// the file, each naming its element (`player#players[3] /team`). Nothing is saved unless there
    /// is none; then one change set saves them all.
    ///
    /// - Returns: How many players were imported.
    /// - Throws: `ValidationError` with every issue; a database error.
    @discardableResult
    public func importPlayers(json: [UInt8]) throws -> Int {
        let outcomes = try JSONValueDecoder().decodeValidatedElements(Player.self, from: json)
        var issues: [(element: Int, issue: ValidationIssue)] = []
        var changes = ChangeSet()
        var elementOfLabel: [String: Int] = [:]
        var count = 0
        for (index, outcome) in outcomes.enumerated() {
            let label = "players[\(index)]"
            elementOfLabel[label] = index
            switch outcome {
            case .success(let player):
                changes.insert(player, label: label)
                count += 1
            case .failure(let error):
                for var issue in error.issues {
                    // Named by its element, located inside it (`player#players[3] /name`).
                    issue.object = ObjectReference(entity: Player.databaseTableName, id: label)
                    issue.path = IssuePath(Array(issue.path.components.dropFirst()))
                    issues.append((index, issue))
                }
            }
        }
        // When fields are bad, the store's rules still see every player that decoded (as the save
        // would), and their issues join the report; otherwise the save checks them, once.
        for issue in issues.isEmpty ? [] : try database.read({ db in try changes.issues(db) }) {
            issues.append((issue.object?.id.flatMap { elementOfLabel[$0] } ?? outcomes.count, issue))
        }
        let sorted = issues.enumerated().sorted { ($0.element.element, $0.offset) < ($1.element.element, $1.offset) }
        try ValidationError(sorted.map(\.element.issue)).throwIfErrors()
        if let pause = WritePause.fromEnvironment() {
            database.add(transactionObserver: pause, extent: .nextTransaction)
        }
        try changes.save(to: database)
        return count
    }

    /// Checks one proposed value for one of a player's fields before it is set, as Core Data's
    /// `validateValue(_:forKey:)` does: `name` (normalised, then checked) or `age` (an integer).
    ///
    /// - Returns: The value as it would be stored.
    /// - Throws: `ValidationError` with the field's issues (an unknown field, or an age that is not a
    ///   number, included).
    public static func checkField(_ key: String, value: String) throws(ValidationError) -> String {
        do {
            return try checkedField(key, value: value)
        } catch {
            throw ValidationError(
                error.issues.map { issue in
                    var issue = issue
                    issue.object = issue.object ?? ObjectReference(entity: Player.databaseTableName)
                    return issue
                })
        }
    }

    private static func checkedField(_ key: String, value: String) throws(ValidationError) -> String {
        switch key {
        case "age":
            guard let age = Int(value) else {
                throw ValidationError(
                    ValidationIssue(
                        code: .typeMismatch, path: ["age"], object: ObjectReference(entity: Player.databaseTableName),
                        parameters: ["expected": "Int"], value: .string(value)))
            }
            return "\(try Player.validate(age, forKey: key))"
        default:
            return "\(try Player.validate(value, forKey: key))"
        }
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
