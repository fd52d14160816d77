import AssayCore
import GRDB

/// A GRDB record that cannot be written invalid.
///
/// Conform a record that is already `Validatable` and `MutablePersistableRecord` (or
/// `PersistableRecord`): GRDB's persistence callbacks then check it before any SQL runs.
///
/// ```swift
/// struct Player: Codable, FetchableRecord, MutablePersistableRecord, ValidatedRecord {
///     var id: Int64?
///     var name: String
///     var age: Int
///     var teamId: Int64
///
///     static let validation: Validation<Player> = [
///         .normalize(\.name, "name", .trimmed),
///         .property(\.name, "name", .length(2...50)),
///         .property(\.age, "age", .range(16...50)),
///     ]
///     static let storeRules: StoreRules<Player> = [.belongsTo(Team.self, column: "teamId")]
///
///     mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
/// }
///
/// try dbQueue.write { db in
///     var player = Player(id: nil, name: "  Ann ", age: 12, teamId: 1)
///     try player.insert(db)   // throws ValidationError: age must be between 16 and 50
/// }
/// ```
///
/// - `insert` runs the normalisers, writes the normalised record and checks it for
///   `ValidationOperation.insert`; `update` checks for `ValidationOperation.update`,
///   `delete` for `ValidationOperation.delete` and applies the delete rules of the type's
///   to-many relationships (deny, cascade, nullify).
/// - The ``storeRules`` are checked against the database: uniqueness, required parents, relationship
///   counts.
/// - A failure throws one `ValidationError` with every issue, each carrying the record's
///   table and primary key, before any SQL runs; the write's transaction rolls back.
/// - GRDB's update and delete callbacks (and the insert callback of a `PersistableRecord`) cannot
///   change the record. When a normaliser would change what is written, the write is refused with
///   `IssueCode.notNormalized`: write `try record.validated(for: .update)`, or stage the
///   record in a ``ChangeSet``, which writes the normalised record.
///
/// A type that implements `willInsert`, `willUpdate` or `willDelete` itself replaces these checks;
/// call ``checkBeforeInsert(_:)``, ``checkBeforeUpdate(_:)`` or ``checkBeforeDelete(_:)`` from it.
public protocol ValidatedRecord: Validatable, MutablePersistableRecord, Sendable {
    /// The rules that need the database: uniqueness and relationships. Defaults to none.
    static var storeRules: StoreRules<Self> { get }
}

extension ValidatedRecord {
    /// No store rules.
    public static var storeRules: StoreRules<Self> { [] }

    /// Normalises the record and checks it for insert; GRDB calls it before inserting.
    public mutating func willInsert(_ db: Database) throws {
        guard !WriteScope.isWritingChecked else { return }
        self = try checkBeforeInsert(db)
    }

    /// Checks the record for update; GRDB calls it before updating.
    public func willUpdate(_ db: Database, columns: Set<String>) throws {
        guard !WriteScope.isWritingChecked else { return }
        try checkBeforeUpdate(db)
    }

    /// Checks the record for delete and applies the delete rules; GRDB calls it before deleting.
    public func willDelete(_ db: Database) throws {
        guard !WriteScope.isWritingChecked else { return }
        try checkBeforeDelete(db)
    }

    /// Checks the record for insert (value rules and store rules).
    ///
    /// - Returns: The normalised record, which is the one to write.
    /// - Throws: `ValidationError` with every issue; a database error if the checks could
    ///   not read the database.
    public func checkBeforeInsert(_ db: Database) throws -> Self {
        let plan = try StorePlan(staging: [StagedChange(.insert, self)], in: db, keepingRecords: true)
        try plan.throwIfInvalid()
        // The plan keeps the normalised record of its one entry.
        return plan.entries.first?.record as? Self ?? self
    }

    /// Checks the record for update (value rules and store rules); the record must already be
    /// normalised.
    ///
    /// - Throws: `ValidationError` with every issue; a database error if the checks could
    ///   not read the database.
    public func checkBeforeUpdate(_ db: Database) throws {
        let plan = try StorePlan(staging: [StagedChange(.update, self)], in: db, requireNormalized: true)
        try plan.throwIfInvalid()
    }

    /// Checks the record for delete, then applies the delete rules of its to-many relationships
    /// (children deleted or their references nullified, each checked in turn).
    ///
    /// - Throws: `ValidationError` with every issue (`IssueCode.deleteDenied`
    ///   for a `deny` rule); a database error.
    public func checkBeforeDelete(_ db: Database) throws {
        let plan = try StorePlan(staging: [StagedChange(.delete, self)], in: db)
        try plan.throwIfInvalid()
        // The record itself is deleted by GRDB after this callback; its dependents are written here.
        try plan.write(in: db, skippingStaged: true)
    }
}

extension ValidatedRecord where Self: PersistableRecord {
    /// Checks the record for insert; GRDB calls it before inserting. The record must already be
    /// normalised: this callback cannot change it.
    public func willInsert(_ db: Database) throws {
        guard !WriteScope.isWritingChecked else { return }
        let plan = try StorePlan(staging: [StagedChange(.insert, self)], in: db, requireNormalized: true)
        try plan.throwIfInvalid()
    }
}

/// Writes made by a change set or a delete rule, whose records were checked together beforehand: the
/// persistence callbacks let them through.
enum WriteScope {
    @TaskLocal static var isWritingChecked = false
}
