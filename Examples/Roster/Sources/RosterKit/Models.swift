import AssayCodable
import AssayGRDB
import GRDB

/// A team of seed 000's roster: its name is unique, it holds at most 15 players, and it cannot be
/// deleted while it has any.
///
/// The rules are declared once, with AssayCodable's attributes: they check a decoded value, an
/// on-demand check and a save alike.
@Validatable
public struct Team: Codable, Hashable, FetchableRecord, MutablePersistableRecord, ValidatedRecord {
    /// The row id, `nil` until inserted.
    public var id: Int64?
    /// The team's name: trimmed, 2–40 characters, unique.
    @Normalize(.trimmed) @Validate(.length(2...40))
    public var name: String

    /// Makes a team.
    public init(id: Int64? = nil, name: String) {
        self.id = id
        self.name = name
    }

    /// The table.
    public static let databaseTableName = "team"

    /// Team names are unique; a team has at most 15 players and cannot be deleted while it has any.
    public static let storeRules: StoreRules<Team> = [
        .unique("name"),
        .hasMany(Player.self, column: "team", key: "name", as: "players", maximum: 15, onDelete: .deny),
    ]

    /// Keeps the row id SQLite assigned.
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A player of seed 000's roster, as stored and as imported from JSON
/// (`{"name": "LeBron James", "age": 39, "team": "Lakers"}`).
@Validatable
public struct Player: Codable, Hashable, FetchableRecord, MutablePersistableRecord, ValidatedRecord {
    /// The row id, `nil` until inserted.
    public var id: Int64?
    /// The player's name: trimmed, 2–50 characters.
    @Normalize(.trimmed) @Validate(.length(2...50))
    public var name: String
    /// The player's age: 16–50.
    @Validate(.range(16...50))
    public var age: Int
    /// The name of the player's team, which must exist.
    public var team: String

    /// Makes a player.
    public init(id: Int64? = nil, name: String, age: Int, team: String) {
        self.id = id
        self.name = name
        self.age = age
        self.team = team
    }

    /// The table.
    public static let databaseTableName = "player"

    /// A player belongs to a team that exists, named in the `team` column.
    public static let storeRules: StoreRules<Player> = [.belongsTo(Team.self, column: "team", key: "name")]

    /// Keeps the row id SQLite assigned.
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
