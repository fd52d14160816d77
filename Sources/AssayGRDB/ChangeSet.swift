import AssayCore
import GRDB

/// A scratch pad of inserts, updates and deletes, of records of any ``ValidatedRecord`` types, that
/// are validated together and written all or nothing.
///
/// Staged records may be invalid for as long as they are staged; nothing is checked or written until
/// you ask:
///
/// <!-- snippet: doc-change-set -->
/// ```swift
/// var changes = ChangeSet()
/// changes.insert(Team(name: "Rockets"))
/// for player in roster { changes.insert(player) }
/// changes.delete(oldTeam)
///
/// let issues = try dbQueue.read { db in try changes.issues(db) }  // on demand, writes nothing
/// print(issues.isEmpty)  // true
/// let saved = try changes.save(to: dbQueue)  // validates everything, then writes it in one transaction
/// print(try saved.inserted(Team.self).map(\.id))  // [Optional(3)]: with their ids
/// changes.discard()
/// ```
///
/// Checks see the database as it will be after the whole set: a name freed by one staged update can be
/// taken by a staged insert, a team's player count includes the players staged for it, and a record
/// deleted by the set no longer counts. Every issue carries the record's table and primary key (or, for
/// a record without one yet, its label or its place in the set, `"new 3"`).
public struct ChangeSet: Sendable {
    @usableFromInline var changes: [StagedChange] = []

    /// An empty change set.
    public init() {}

    /// How many changes are staged.
    public var count: Int { changes.count }

    /// Whether nothing is staged.
    public var isEmpty: Bool { changes.isEmpty }

    /// Stages an insert.
    ///
    /// - Parameters:
    ///   - record: The record; it may be invalid until the set is validated or saved.
    ///   - label: How issues name the record while it has no primary key, e.g. `"players[12]"`.
    @inlinable
    public mutating func insert<Record: ValidatedRecord>(_ record: Record, label: String? = nil) {
        changes.append(StagedChange(.insert, record, label: label, writer: .of(Record.self)))
    }

    /// Stages an update of a record that exists.
    @inlinable
    public mutating func update<Record: ValidatedRecord>(_ record: Record, label: String? = nil) {
        changes.append(StagedChange(.update, record, label: label, writer: .of(Record.self)))
    }

    /// Stages a delete; the delete rules of the record's to-many relationships apply when the set is
    /// validated and saved.
    @inlinable
    public mutating func delete<Record: ValidatedRecord>(_ record: Record, label: String? = nil) {
        changes.append(StagedChange(.delete, record, label: label, writer: .of(Record.self)))
    }

    /// Forgets every staged change.
    public mutating func discard() { changes.removeAll() }

    /// Every issue of every staged change, and of the changes their delete rules make, against the
    /// database as it is now. Writes nothing.
    ///
    /// - Throws: A database error, or ``StoreConfigurationError``; never the issues themselves.
    public func issues(_ db: Database) throws -> [ValidationIssue] {
        try StorePlan(staging: changes, in: db, runningWillInsert: true).issues
    }

    /// Checks every staged change and throws every issue at once. Writes nothing.
    ///
    /// It succeeds if and only if ``save(_:)`` would, against the same database: it also checks that
    /// each updated record is stored, that each inserted key is free, and that no record is staged
    /// twice (a delete followed by an insert of the same key is a replacement).
    ///
    /// - Throws: `ValidationError` when any issue is an error; a database error.
    public func validate(_ db: Database) throws {
        try StorePlan(staging: changes, in: db, runningWillInsert: true).throwIfInvalid()
    }

    /// Validates every staged change, then writes them all in one transaction (a savepoint when `db`
    /// is already in one): all or nothing.
    ///
    /// Records are written normalised, each through GRDB (`insert`, `update`, `delete`), so the
    /// type's persistence callbacks run and its `persistenceConflictPolicy` applies; the set's checks
    /// stand in for the ones ``ValidatedRecord`` makes in those callbacks. A type's own `willInsert`
    /// runs before the checks (they see what it sets) and again when GRDB writes the record, which it
    /// must then leave as it is (a `StoreConfigurationError` otherwise). Under an insert policy of
    /// `.ignore`, an insert whose key or unique value is taken is left out; under `.replace`, the rows
    /// holding them are deleted first, with their delete rules. The staged records are values the set
    /// copied: the inserted ones, as their callbacks left them and with the ids SQLite assigned, come
    /// back in the result (``SavedChanges/inserted(_:)``). Foreign keys are checked when the
    /// transaction commits, so the order of the staged changes does not matter; nor does it for unique
    /// values: deletes are written first, and a row that takes a value another row gives up is written
    /// after it (rows that trade values are parked on a temporary value for the length of the save). A
    /// unique constraint that SQLite reports (another writer won a race) becomes a
    /// `IssueCode.notUnique` issue, and nothing is written.
    ///
    /// - Returns: What was inserted, with the row ids SQLite assigned.
    /// - Throws: `ValidationError` with every issue, before anything is written; a database
    ///   error (a read-only or full disk), after which nothing is written either.
    @discardableResult
    public func save(_ db: Database) throws -> SavedChanges {
        let plan = try StorePlan(staging: changes, in: db, runningWillInsert: true)
        try plan.throwIfInvalid()
        var inserts: [SavedChanges.Insert] = []
        try db.inSavepoint {
            // Reset by SQLite when the outermost transaction ends.
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            inserts = try plan.write(in: db)
            return .commit
        }
        return SavedChanges(inserts: inserts)
    }

    /// Validates and saves the change set in one write transaction of `writer` (see ``save(_:)``).
    ///
    /// - Returns: What was inserted, with the row ids SQLite assigned.
    @discardableResult
    public func save(to writer: some DatabaseWriter) throws -> SavedChanges {
        try writer.write { db in try save(db) }
    }
}

/// What a ``ChangeSet`` inserted: each staged insert as written (normalised), with the row id SQLite
/// assigned, in the order staged.
///
/// (``ChangeSet``'s example reads the inserted teams back with their ids.)
public struct SavedChanges: Sendable {
    struct Insert: Sendable {
        let table: String
        /// The record as written, after its callbacks.
        let record: any ValidatedRecord
        let keyColumns: [String]
        let rowID: Int64
    }

    let inserts: [Insert]

    /// The row ids SQLite assigned to the staged inserts, in the order staged.
    public var insertedRowIDs: [Int64] { inserts.map(\.rowID) }

    /// The staged inserts of `type`, in the order staged, as written: normalised, and with the row id
    /// in the primary key column when SQLite assigned it (an auto-incremented id).
    ///
    /// - Throws: An error of the type's decoding.
    public func inserted<Record: ValidatedRecord & FetchableRecord>(_ type: Record.Type) throws -> [Record] {
        try inserts.filter { $0.table == Record.databaseTableName }.map { insert in
            let row = try insert.record.databaseDictionary
            var columns = Array(row.keys)
            var values = columns.map { row[$0] ?? .null }
            // A single-column integer key left to SQLite: the row id is its value.
            if insert.keyColumns.count == 1, let key = insert.keyColumns.first {
                if let position = columns.firstIndex(where: { $0.caseInsensitiveCompare(key) == .orderedSame }) {
                    if values[position].isNull { values[position] = insert.rowID.databaseValue }
                } else {
                    columns.append(key)
                    values.append(insert.rowID.databaseValue)
                }
            }
            return try Record(row: Row(Dictionary(zip(columns, values)) { first, _ in first }))
        }
    }
}

/// Maps a constraint violation reported by SQLite to an issue.
enum ConstraintIssue {
    static func issue(for error: DatabaseError, on reference: ObjectReference?) -> ValidationIssue {
        // SQLite's messages name the columns: "UNIQUE constraint failed: team.name, team.city".
        let columns =
            (error.message ?? "").split(separator: ":", maxSplits: 1).last.map { list in
                list.split(separator: ",").map { column in
                    String(column.trimmingCharacters(in: .whitespaces).split(separator: ".").last ?? "")
                }
            } ?? []
        let path = columns.first.map { IssuePath.root.appending(key: $0) } ?? .root
        let detail: [String: IssueValue] = ["detail": .string(error.message ?? "constraint failed")]
        switch error.extendedResultCode {
        case .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_PRIMARYKEY:
            return ValidationIssue(
                code: .notUnique, path: path, object: reference, ruleLocation: "SQLite constraint",
                parameters: detail, phase: .save)
        case .SQLITE_CONSTRAINT_NOTNULL:
            return ValidationIssue(
                code: .missing, path: path, object: reference, ruleLocation: "SQLite constraint", parameters: detail,
                phase: .save)
        case .SQLITE_CONSTRAINT_FOREIGNKEY:
            return ValidationIssue(
                code: .missing, path: path, object: reference, ruleLocation: "SQLite constraint",
                parameters: detail.merging(["parent": .string("record")]) { $1 }, phase: .save,
                messageKey: "relationship.missing")
        default:
            return ValidationIssue(
                code: .custom("constraint"), path: path, object: reference, ruleLocation: "SQLite constraint",
                parameters: detail, phase: .save)
        }
    }
}
