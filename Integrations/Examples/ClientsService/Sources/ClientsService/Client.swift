import AssayCodable
import AssayGRDB
import GRDB

/// A client of the service (seed 002): name, age and email, declared once for the request body,
/// the on-demand check of one field, the database and the OpenAPI document.
@Validatable
public struct Client: Codable, Hashable, Sendable, FetchableRecord, MutablePersistableRecord, ValidatedRecord {
    /// The row id: assigned by the database, ignored in a request body.
    public var id: Int64?
    /// The name: trimmed, 2–100 letters, marks and spaces.
    @Normalize(.trimmed) @Validate(.length(2...100), .charset(.letters + .marks + .spaces))
    public var name: String
    /// The age in years: 1–150, and at least 18 for a new client (older records may hold minors).
    @Validate(.range(1...150))
    @Validate(.range(18...), on: [.insert])
    public var age: Int
    /// The email address: trimmed, lowercased, unique among clients.
    @Normalize(.trimmed, .lowercased) @Validate(.email())
    public var email: String

    /// Makes a client.
    public init(id: Int64? = nil, name: String, age: Int, email: String) {
        self.id = id
        self.name = name
        self.age = age
        self.email = email
    }

    /// The table.
    public static let databaseTableName = "client"

    /// Email addresses are unique.
    public static let storeRules: StoreRules<Client> = [.unique("email")]

    /// Keeps the row id SQLite assigned.
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
