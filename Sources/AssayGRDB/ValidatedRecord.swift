import AssayCore
import GRDB

/// A GRDB record that cannot be written invalid.
///
/// Conform a record that is already `Validatable` and `MutablePersistableRecord` (or
/// `PersistableRecord`): GRDB's persistence callbacks then check it before any SQL runs.
///
/// <!-- snippet: docc-grdb-types -->
/// ```swift
/// struct Team: Codable, FetchableRecord, MutablePersistableRecord, ValidatedRecord {
///     var id: Int64?
///     var name: String
///
///     static let validation: Validation<Team> = [
///         .normalize(\.name, "name", .trimmed),
///         .property(\.name, "name", .length(2...40)),
///     ]
///     static let storeRules: StoreRules<Team> = [
///         .unique("name"),
///         .hasMany(Player.self, column: "teamId", as: "players", maximum: 15, onDelete: .deny),
///     ]
///     mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
/// }
///
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
///     mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
/// }
/// ```
///
/// <!-- snippet: docc-grdb-insert -->
/// ```swift
/// do {
///     try dbQueue.write { db in
///         var player = Player(id: nil, name: "  Ann ", age: 12, teamId: 99)
///         try player.insert(db)
///     }
/// } catch let error as ValidationError {
///     print(error.text(in: .english))
///     // /age: Age must be between 16 and 50
///     // /teamId: TeamId refers to a team that does not exist
/// }
/// ```
///
/// - `insert` runs the normalisers (in `willInsert`), then checks the record for
///   `ValidationOperation.insert` (in `aroundInsert`, just before the SQL); `update` checks for
///   `ValidationOperation.update` (in `aroundUpdate`), `delete` for `ValidationOperation.delete`
///   and applies the delete rules of the type's to-many relationships (deny, cascade, nullify; in
///   `aroundDelete`).
/// - The ``storeRules`` are checked against the database: uniqueness, required parents, relationship
///   counts.
/// - A failure throws one `ValidationError` with every issue, each carrying the record's
///   table and primary key, before any SQL runs; the write's transaction rolls back.
/// - The checks run after GRDB's `willSave`, `willInsert`, `willUpdate` and `willDelete`, so a type's
///   own callbacks compose with them: what they set (a creation date, a generated code) is what is
///   checked and written. A type that implements `willInsert` itself replaces the normalisation:
///   call `self = Self.validation.normalized(self)` from it. Implementing `aroundInsert`,
///   `aroundUpdate` or `aroundDelete` replaces the checks: call ``checkBeforeInsert(_:)``,
///   ``checkBeforeUpdate(_:)`` or ``checkBeforeDelete(_:)`` from it.
/// - GRDB's update and delete callbacks (and the insert callbacks of a `PersistableRecord`) cannot
///   change the record. When a normaliser would change what is written, the write is refused with
///   `IssueCode.notNormalized`: write `try record.validated(for: .update)`, or stage the
///   record in a ``ChangeSet``, which writes the normalised record.
public protocol ValidatedRecord: Validatable, MutablePersistableRecord, Sendable {
    /// The rules that need the database: uniqueness and relationships. Defaults to none.
    static var storeRules: StoreRules<Self> { get }
}

extension ValidatedRecord {
    /// No store rules.
    public static var storeRules: StoreRules<Self> { [] }

    /// Normalises the record; GRDB calls it before inserting (and ``aroundInsert(_:insert:)`` checks
    /// the result).
    public mutating func willInsert(_ db: Database) throws {
        if WriteScope.isProbingWillInsert { throw WriteScope.DefaultWillInsert() }
        guard !WriteScope.isWriting(Self.self) else { return }
        self = Self.validation.normalized(self)
    }

    /// Checks the record for insert (value rules and store rules), as the callbacks before it left it,
    /// then inserts it; GRDB calls it.
    public func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        if let write = WriteScope.checkedWrite, write.type == ObjectIdentifier(Self.self) {
            // Checked with its change set: the type's own willInsert ran before the checks, and must
            // have left the record as it was when GRDB ran it again.
            if let checked = write.columns, try databaseDictionary != checked {
                throw StoreConfigurationError(
                    description: """
                        \(Self.databaseTableName): the type's willInsert changed the record again when the change \
                        set wrote it. A change set runs willInsert before its checks and GRDB runs it again on the \
                        record as checked, so it must leave a prepared record as it is (set a value only when it \
                        is missing)
                        """)
            }
        } else {
            let plan = try StorePlan(staging: [StagedChange(.insert, self)], in: db, requireNormalized: true)
            try plan.throwIfInvalid()
        }
        _ = try insert()
    }

    /// Checks the record for update, then updates it; GRDB calls it.
    public func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        if !WriteScope.isWriting(Self.self) { try checkBeforeUpdate(db) }
        _ = try update()
    }

    /// Checks the record for delete and applies the delete rules, then deletes it; GRDB calls it.
    public func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
        if !WriteScope.isWriting(Self.self) { try checkBeforeDelete(db) }
        _ = try delete()
    }

    /// Checks the record for insert (value rules and store rules).
    ///
    /// - Returns: The normalised record, which is the one to write.
    /// - Throws: `ValidationError` with every issue; a database error if the checks could
    ///   not read the database.
    public func checkBeforeInsert(_ db: Database) throws -> Self {
        let plan = try StorePlan(staging: [StagedChange(.insert, self)], in: db)
        try plan.throwIfInvalid()
        // The plan keeps the normalised record of its one entry.
        return plan.entries.first.flatMap { $0.record as? Self } ?? self
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
        // The record itself is deleted by GRDB after this check; its dependents are written here.
        try plan.write(in: db, skippingStaged: true)
    }
}

extension ValidatedRecord where Self: PersistableRecord {
    /// Does nothing: a `PersistableRecord` cannot change in its callbacks, so it must already be
    /// normalised (``aroundInsert(_:insert:)`` checks it).
    public func willInsert(_ db: Database) throws {
        if WriteScope.isProbingWillInsert { throw WriteScope.DefaultWillInsert() }
    }
}

/// What a change set (or a delete rule) is writing: records checked together beforehand, which the
/// persistence callbacks let through.
enum WriteScope {
    /// The record being written through GRDB, already checked.
    struct CheckedWrite: Sendable {
        /// The record's type: a write of another type that a callback makes is checked as usual.
        let type: ObjectIdentifier
        /// For a type with a `willInsert` of its own, the columns as checked.
        let columns: [String: DatabaseValue]?
    }

    @TaskLocal static var checkedWrite: CheckedWrite?

    /// Whether a record of `type` is being written checked.
    static func isWriting(_ type: Any.Type) -> Bool { checkedWrite?.type == ObjectIdentifier(type) }

    /// Set while a change set finds out whether a type has a `willInsert` of its own: the default
    /// one throws `DefaultWillInsert`.
    @TaskLocal static var isProbingWillInsert = false

    struct DefaultWillInsert: Error {}
}
