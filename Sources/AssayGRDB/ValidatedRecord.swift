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
        guard !WriteScope.isWriting(Self.self) else {
            WriteScope.noteDefault(.willInsert, of: Self.self)
            return
        }
        self = Self.validation.normalized(self)
    }

    /// Does nothing, as GRDB's default; a change set notes that the type has no `willSave` of its own.
    public func willSave(_ db: Database) throws {
        WriteScope.noteDefault(.willSave, of: Self.self)
    }

    /// Saves, as GRDB's default; a change set notes that the type has no `aroundSave` of its own.
    public func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
        WriteScope.noteDefault(.aroundSave, of: Self.self)
        _ = try save()
    }

    /// Does nothing, as GRDB's default; a change set notes that the type has no `willUpdate` of its
    /// own.
    public func willUpdate(_ db: Database, columns: Set<String>) throws {
        WriteScope.noteDefault(.willUpdate, of: Self.self)
    }

    /// Does nothing, as GRDB's default; a change set notes that the type has no `willDelete` of its
    /// own.
    public func willDelete(_ db: Database) throws {
        WriteScope.noteDefault(.willDelete, of: Self.self)
    }

    /// Checks the record for insert (value rules and store rules), as the callbacks before it left it,
    /// then inserts it; GRDB calls it.
    public func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        if try !WriteScope.claim(self, .insert) {
            let plan = try StorePlan(staging: [StagedChange(.insert, self)], in: db, requireNormalized: true)
            try plan.throwIfInvalid()
        }
        _ = try insert()
    }

    /// Checks the record for update, then updates it; GRDB calls it.
    public func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        try checkBeforeUpdate(db)
        _ = try update()
    }

    /// Checks the record for delete and applies the delete rules, then deletes it; GRDB calls it.
    public func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
        try checkBeforeDelete(db)
        _ = try delete()
    }

    /// Checks the record for insert (value rules and store rules).
    ///
    /// - Returns: The normalised record, which is the one to write.
    /// - Throws: `ValidationError` with every issue; a database error if the checks could
    ///   not read the database.
    public func checkBeforeInsert(_ db: Database) throws -> Self {
        if try WriteScope.claim(self, .insert) { return self }
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
        if try WriteScope.claim(self, .update) { return }
        let plan = try StorePlan(staging: [StagedChange(.update, self)], in: db, requireNormalized: true)
        try plan.throwIfInvalid()
    }

    /// Checks the record for delete, then applies the delete rules of its to-many relationships
    /// (children deleted or their references nullified, each checked in turn).
    ///
    /// - Throws: `ValidationError` with every issue (`IssueCode.deleteDenied`
    ///   for a `deny` rule); a database error.
    public func checkBeforeDelete(_ db: Database) throws {
        if try WriteScope.claim(self, .delete) { return }
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
        WriteScope.noteDefault(.willInsert, of: Self.self)
    }
}

/// What a change set (or a delete rule) is writing: records checked together beforehand, which the
/// persistence callbacks let through.
enum WriteScope {
    /// The one record being written through GRDB, already checked. Its callbacks let it through once:
    /// any other record a callback writes, of this type or another, is checked as usual.
    final class CheckedWrite: @unchecked Sendable {
        /// The record's type.
        let type: ObjectIdentifier
        /// The write GRDB makes, or `nil` while only the type's `willInsert` runs.
        let kind: StagedChange.Kind?
        /// The record's columns as checked.
        let row: EncodedRow?
        /// Whether the record's `around…` callback has let it through. Read and set only on the
        /// thread that holds the database connection, inside the write.
        private(set) var isClaimed = false
        /// The callbacks before the `around…` one that ran as the library's defaults: when all did,
        /// no code of the type's own ran before it, so no other record of its type can come first.
        private(set) var defaults: DefaultCallbacks = []

        init(type: ObjectIdentifier, kind: StagedChange.Kind?, row: EncodedRow?) {
            self.type = type
            self.kind = kind
            self.row = row
        }

        func claim() { isClaimed = true }
        func note(_ callback: DefaultCallbacks) { defaults.insert(callback) }
    }

    /// GRDB's persistence callbacks that come before `aroundInsert`, `aroundUpdate` and `aroundDelete`.
    struct DefaultCallbacks: OptionSet {
        let rawValue: UInt8
        static let willSave = Self(rawValue: 1)
        static let aroundSave = Self(rawValue: 2)
        static let willInsert = Self(rawValue: 4)
        static let willUpdate = Self(rawValue: 8)
        static let willDelete = Self(rawValue: 16)

        /// Those GRDB runs, in this order, before the `around…` callback of `kind`.
        static func before(_ kind: StagedChange.Kind) -> Self {
            switch kind {
            case .insert: [.willSave, .aroundSave, .willInsert]
            case .update: [.willSave, .aroundSave, .willUpdate]
            case .delete: [.willDelete]
            }
        }
    }

    @TaskLocal static var checkedWrite: CheckedWrite?

    /// Whether a record of `type` is about to be written checked (its `around…` callback has not run
    /// yet).
    static func isWriting(_ type: Any.Type) -> Bool {
        guard let write = checkedWrite else { return false }
        return write.type == ObjectIdentifier(type) && !write.isClaimed
    }

    /// Notes that the library's default of a callback ran for a record of `type`.
    static func noteDefault(_ callback: DefaultCallbacks, of type: Any.Type) {
        guard let write = checkedWrite, !write.isClaimed, write.type == ObjectIdentifier(type) else { return }
        write.note(callback)
    }

    /// Whether `record` is the checked record being written by `kind`, claimed by this call: its type
    /// and the write, and either no code of the type's own ran before (the callbacks before are the
    /// defaults), or every column is as checked. A record of the same type that a callback of the
    /// type's own writes before it (from `willSave`, say) differs in some column and is checked on
    /// its own.
    static func claim<R: ValidatedRecord>(_ record: R, _ kind: StagedChange.Kind) throws -> Bool {
        guard let write = checkedWrite, write.kind == kind, !write.isClaimed,
            write.type == ObjectIdentifier(R.self), let row = write.row
        else { return false }
        if write.defaults.isSuperset(of: .before(kind)) {
            write.claim()
            return true
        }
        let columns = try record.databaseDictionary
        guard columns.count == row.values.count else { return false }
        for (name, value) in zip(row.columns.names, row.values) where columns[name] != value {
            return false
        }
        write.claim()
        return true
    }

    /// Set while a change set finds out whether a type has a `willInsert` of its own: the default
    /// one throws `DefaultWillInsert`.
    @TaskLocal static var isProbingWillInsert = false

    struct DefaultWillInsert: Error {}
}
