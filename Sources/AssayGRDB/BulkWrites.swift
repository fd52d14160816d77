import AssayCore
import GRDB

/// Bulk deletes of validated records go through the store's rules; bulk updates are refused.
///
/// GRDB's `deleteAll` and `updateAll` write SQL for many rows at once, past every record's rules.
/// For a ``ValidatedRecord`` type these overloads take their place where the type is known (a call
/// on `Player` or on a request of players): `deleteAll` deletes through a ``ChangeSet`` — each record's
/// delete rules, and its store rules' delete rules (deny, cascade, nullify), are applied, all or
/// nothing — and `updateAll` throws ``BulkUpdateRefused``, since the new values exist only in SQL:
/// fetch the records, change them, and save them with a change set.
extension ValidatedRecord where Self: FetchableRecord {
    /// Deletes every row through the records' rules (see ``ValidatedRecord``).
    ///
    /// - Returns: How many records were deleted (dependents a cascade deletes not counted).
    /// - Throws: `ValidationError` when a rule refuses a delete (nothing is deleted); a database error.
    @discardableResult
    public static func deleteAll(_ db: Database) throws -> Int {
        try all().deleteAll(db)
    }

    /// Deletes the rows with these primary keys, through the records' rules.
    ///
    /// - Throws: `ValidationError` when a rule refuses a delete; a database error.
    @discardableResult
    public static func deleteAll(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> Int {
        keys.isEmpty ? 0 : try filter(keys: keys).deleteAll(db)
    }

    /// Deletes the rows with these keys (column names and values), through the records' rules.
    ///
    /// - Throws: `ValidationError` when a rule refuses a delete; a database error.
    @discardableResult
    public static func deleteAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Int {
        keys.isEmpty ? 0 : try filter(keys: keys).deleteAll(db)
    }

    /// Refused: an update written in SQL bypasses the records' rules.
    ///
    /// - Throws: ``BulkUpdateRefused``, always.
    @discardableResult
    public static func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]
    ) throws -> Int {
        throw BulkUpdateRefused(type: Self.self)
    }

    /// Refused: an update written in SQL bypasses the records' rules.
    ///
    /// - Throws: ``BulkUpdateRefused``, always.
    @discardableResult
    public static func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: ColumnAssignment...
    ) throws -> Int {
        throw BulkUpdateRefused(type: Self.self)
    }

    /// Refused: an update written in SQL bypasses the records' rules.
    ///
    /// - Throws: ``BulkUpdateRefused``, always.
    @discardableResult
    public static func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignment: (DatabaseComponents) throws -> ColumnAssignment
    ) throws -> Int {
        throw BulkUpdateRefused(type: Self.self)
    }

    /// Refused: an update written in SQL bypasses the records' rules.
    ///
    /// - Throws: ``BulkUpdateRefused``, always.
    @discardableResult
    public static func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (DatabaseComponents) throws -> [ColumnAssignment]
    ) throws -> Int {
        throw BulkUpdateRefused(type: Self.self)
    }
}

extension ValidatedRecord where Self: FetchableRecord & Identifiable, ID: DatabaseValueConvertible {
    /// Deletes the records with these ids, through their rules.
    ///
    /// - Throws: `ValidationError` when a rule refuses a delete; a database error.
    @discardableResult
    public static func deleteAll(_ db: Database, ids: some Collection<ID>) throws -> Int {
        ids.isEmpty ? 0 : try filter(ids: ids).deleteAll(db)
    }
}

extension QueryInterfaceRequest where RowDecoder: ValidatedRecord & FetchableRecord {
    /// Deletes the matching records through their rules, all or nothing (see ``ValidatedRecord``).
    ///
    /// - Returns: How many records were deleted (dependents a cascade deletes not counted).
    /// - Throws: `ValidationError` when a rule refuses a delete (nothing is deleted); a database error.
    @discardableResult
    public func deleteAll(_ db: Database) throws -> Int {
        let records = try fetchAll(db)
        var changes = ChangeSet()
        for record in records { changes.delete(record) }
        try changes.save(db)
        return records.count
    }

    /// Refused: an update written in SQL bypasses the records' rules.
    ///
    /// - Throws: ``BulkUpdateRefused``, always.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]
    ) throws -> Int {
        throw BulkUpdateRefused(type: RowDecoder.self)
    }

    /// Refused: an update written in SQL bypasses the records' rules.
    ///
    /// - Throws: ``BulkUpdateRefused``, always.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: ColumnAssignment...
    ) throws -> Int {
        throw BulkUpdateRefused(type: RowDecoder.self)
    }

    /// Refused: an update written in SQL bypasses the records' rules.
    ///
    /// - Throws: ``BulkUpdateRefused``, always.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignment: (RowDecoder.DatabaseComponents) throws -> ColumnAssignment
    ) throws -> Int {
        throw BulkUpdateRefused(type: RowDecoder.self)
    }

    /// Refused: an update written in SQL bypasses the records' rules.
    ///
    /// - Throws: ``BulkUpdateRefused``, always.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment]
    ) throws -> Int {
        throw BulkUpdateRefused(type: RowDecoder.self)
    }
}

/// `updateAll` on a ``ValidatedRecord`` type: refused, since the values it writes exist only in SQL
/// and no rule could check them. Nothing is written.
public struct BulkUpdateRefused: Error, Sendable, CustomStringConvertible {
    /// The record type.
    public let typeName: String

    init(type: Any.Type) { typeName = String(describing: type) }

    /// What to do instead.
    public var description: String {
        "\(typeName).updateAll would bypass \(typeName)'s rules: fetch the records, change them, and save them "
            + "with a ChangeSet (or one by one with update(_:))"
    }
}
