import AssayCore
import GRDB

/// A foreign key of a child table, as SQLite enforces it.
struct ForeignKey {
    /// The child table.
    let table: String
    /// The child's columns.
    let columns: [String]
    /// The parent's columns; empty for its primary key.
    let parentColumns: [String]
    /// Whether deleting a parent that children still refer to fails (no `ON DELETE` action).
    let restricts: Bool
}

/// What the store checks read from the database, cached for one plan.
struct SchemaCache {
    let db: Database
    var primaryKeys: [String: [String]] = [:]
    var uniqueIndexes: Set<String> = []
    /// Every table's foreign keys, by the parent table (lowercased), once read.
    var foreignKeysByParent: [String: [ForeignKey]]?

    /// The foreign keys that refer to `table`.
    mutating func foreignKeys(referencing table: String) throws -> [ForeignKey] {
        if let known = foreignKeysByParent { return known[table.lowercased()] ?? [] }
        var byParent: [String: [ForeignKey]] = [:]
        let tables = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        for child in tables {
            let rows = try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(\(child.quotedDatabaseIdentifier))")
            // One row per column, grouped by the key's id.
            var keys: [Int: (parent: String, columns: [String], parentColumns: [String], onDelete: String)] = [:]
            for row in rows {
                let id: Int = row["id"]
                let parent: String = row["table"]
                let from: String = row["from"]
                let to: String? = row["to"]
                let onDelete: String = row["on_delete"] ?? "NO ACTION"
                var key = keys[id] ?? (parent, [], [], onDelete)
                key.columns.append(from)
                if let to { key.parentColumns.append(to) }
                keys[id] = key
            }
            for (_, key) in keys.sorted(by: { $0.key < $1.key }) {
                let restricts = ["NO ACTION", "RESTRICT"].contains(key.onDelete.uppercased())
                byParent[key.parent.lowercased(), default: []].append(
                    ForeignKey(
                        table: child, columns: key.columns,
                        parentColumns: key.parentColumns.count == key.columns.count ? key.parentColumns : [],
                        restricts: restricts))
            }
        }
        foreignKeysByParent = byParent
        return byParent[table.lowercased()] ?? []
    }

    init(db: Database) { self.db = db }

    mutating func primaryKey(of table: String) throws -> [String] {
        if let known = primaryKeys[table] { return known }
        let columns = try db.primaryKey(table).columns
        primaryKeys[table] = columns
        return columns
    }

    mutating func key(of row: [String: DatabaseValue], in table: String) throws -> [DatabaseValue]? {
        StorePlan.key(of: row, columns: try primaryKey(of: table))
    }

    mutating func requireUniqueIndex(on table: String, columns: [String]) throws {
        let name = table + "\u{0}" + columns.joined(separator: "\u{0}")
        if uniqueIndexes.contains(name) { return }
        guard try db.table(table, hasUniqueKey: columns) else {
            throw StoreConfigurationError(
                description: """
                    \(table): the unique rule on \(columns.joined(separator: ", ")) has no unique index to back it; \
                    create one (ValidatedRecord.createStoreIndexes(_:) does) so concurrent writers cannot insert \
                    duplicates
                    """)
        }
        uniqueIndexes.insert(name)
    }

    /// The primary keys of the rows whose `columns` equal `values`.
    mutating func keys(in table: String, where columns: [String], equal values: [DatabaseValue]) throws
        -> [[DatabaseValue]]
    {
        let keyColumns = try primaryKey(of: table)
        let condition = columns.map { "\($0.quotedDatabaseIdentifier) = ?" }.joined(separator: " AND ")
        let sql = """
            SELECT \(keyColumns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")) \
            FROM \(table.quotedDatabaseIdentifier) WHERE \(condition)
            """
        let statement = try db.cachedStatement(sql: sql)
        return try Row.fetchAll(statement, arguments: StorePlan.arguments(values)).map { row in
            keyColumns.indices.map { row[$0] as DatabaseValue }
        }
    }

    /// Whether a row with the primary key `key` is stored.
    mutating func isStored(_ key: [DatabaseValue], in table: String) throws -> Bool {
        let keyColumns = try primaryKey(of: table)
        let condition = keyColumns.map { "\($0.quotedDatabaseIdentifier) = ?" }.joined(separator: " AND ")
        let statement = try db.cachedStatement(
            sql: "SELECT 1 FROM \(table.quotedDatabaseIdentifier) WHERE \(condition) LIMIT 1")
        return try Row.fetchOne(statement, arguments: StorePlan.arguments(key)) != nil
    }

    mutating func row(in table: String, key: [DatabaseValue]) throws -> [String: DatabaseValue]? {
        let keyColumns = try primaryKey(of: table)
        let condition = keyColumns.map { "\($0.quotedDatabaseIdentifier) = ?" }.joined(separator: " AND ")
        let statement = try db.cachedStatement(
            sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) WHERE \(condition)")
        return try Row.fetchOne(statement, arguments: StorePlan.arguments(key)).map(Database.dictionary)
    }

    /// The parent's column children refer to: `key`, or the single-column primary key.
    mutating func referencedColumn(of table: String, key: String?) throws -> String {
        if let key { return key }
        let columns = try primaryKey(of: table)
        guard columns.count == 1 else {
            throw StoreConfigurationError(
                description: """
                    \(table): a relationship refers to a parent with a primary key of \(columns.count) columns; \
                    name the parent's column with `key:`
                    """)
        }
        return columns[0]
    }
}

extension Database {
    /// The rows of `table` whose `column` equals `value`.
    func rows(in table: String, where column: String, equals value: DatabaseValue) throws -> [[String: DatabaseValue]] {
        let statement = try cachedStatement(
            sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) WHERE \(column.quotedDatabaseIdentifier) = ?")
        return try Row.fetchAll(statement, arguments: [value]).map(Database.dictionary)
    }

    static func dictionary(_ row: Row) -> [String: DatabaseValue] {
        var result: [String: DatabaseValue] = [:]
        for (column, value) in row { result[column] = value }
        return result
    }
}
