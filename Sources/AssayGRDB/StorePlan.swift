import AssayCore
import GRDB

/// Staged changes checked together against the database, with the changes their delete rules add
/// (cascaded deletes, nullified references): the one implementation behind the persistence callbacks
/// and ``ChangeSet``.
///
/// Every check reads the database as it will be after the changes: rows deleted or updated by the plan
/// are replaced by the plan's own rows.
struct StorePlan {
    struct Entry {
        var kind: StagedChange.Kind
        /// The record to write: as the type's `willInsert` left it (for an insert), then normalised.
        var record: any ValidatedRecord
        /// The record type's table and store rules.
        var info: TypeInfo
        var table: String { info.table }
        /// The record's columns, as it encodes them.
        var row: EncodedRow
        /// The primary key's values, or `nil` while it has none (an auto-incremented id).
        var key: [DatabaseValue]?
        /// How issues name the record while it has no primary key: its label, or `new N` for the
        /// Nth change of a set of several.
        var unnamed: Unnamed
        /// Staged by the caller, rather than added by a delete rule.
        var isStaged: Bool

        enum Unnamed {
            case none
            case label(String)
            case position(Int)
        }

        /// The record's table and primary key, for issues; made only when an issue needs it.
        var reference: ObjectReference {
            let name: String?
            switch unnamed {
            case .none: name = nil
            case .label(let label): name = label
            case .position(let position): name = "new \(position)"
            }
            return ObjectReference(entity: table, id: key.map(StorePlan.render) ?? name)
        }
    }

    var entries: [Entry] = []
    var issues: [ValidationIssue] = []
    var schema: SchemaCache
    var types: [ObjectIdentifier: TypeInfo] = [:]
    /// Whether each staged insert's `willInsert` runs before its checks (a change set's, whose write
    /// runs it again on the record as checked).
    let runsWillInsert: Bool
    /// Keys of the stored rows each table's updates and deletes replace.
    var replaced: [String: Set<[DatabaseValue]>] = [:]
    /// For each table, the entry that updates each stored row, by the row's key.
    var updates: [String: [[DatabaseValue]: Int]] = [:]
    /// For an insert or update, the updates to write before it: each frees a unique value it takes.
    var blockers: [Int: [Int]] = [:]

    /// Whether the records' value rules run (not for rows read back, which are checked apart).
    let checksValues: Bool

    /// A plan of `changes`: value rules (unless `checkingValues` is false: the store rules of rows read
    /// back, as updates of themselves), then the store checks.
    init(
        staging changes: [StagedChange], in db: Database, requireNormalized: Bool = false,
        runningWillInsert: Bool = false, checkingValues: Bool = true
    ) throws {
        schema = SchemaCache(db: db)
        runsWillInsert = runningWillInsert
        checksValues = checkingValues
        entries.reserveCapacity(changes.count)
        for (index, change) in changes.enumerated() {
            // A record without a primary key yet is named by its label, or by its place in the set.
            let unnamed: Entry.Unnamed =
                change.label.map { .label($0) } ?? (changes.count > 1 ? .position(index + 1) : .none)
            append(
                try makeEntry(
                    change.record, kind: change.kind, requireNormalized: requireNormalized, unnamed: unnamed,
                    writer: change.writer))
        }
        try applyInsertConflictPolicies()
        try applyDeleteRules()
        try checkForeignKeysOfDeletes()
        if checksValues { try checkStagedRows() }
        try checkUniqueness()
        try checkRelationships()
    }

    /// Throws every issue when any is an error.
    func throwIfInvalid() throws {
        try ValidationError(issues).throwIfErrors()
    }

    // MARK: Entries

    /// Checks one record's value rules for the change, and describes it for the store checks.
    mutating func makeEntry<R: ValidatedRecord>(
        _ record: R, kind: StagedChange.Kind, requireNormalized: Bool, unnamed: Entry.Unnamed, isStaged: Bool = true,
        writer: RecordWriter? = nil
    ) throws -> Entry {
        let info: TypeInfo
        if let known = types[ObjectIdentifier(R.self)] {
            info = known
        } else {
            info = TypeInfo(R.self)
            types[ObjectIdentifier(R.self)] = info
        }
        if info.writer == nil, let writer { info.writer = writer }
        var record = record
        if kind == .insert && runsWillInsert && isStaged && info.hasOwnWillInsert != false {
            try runWillInsert(&record, info: info)
        }
        // An object is given, so the run does not look for the record's own (a dynamic cast per
        // record); the entry's reference replaces it below.
        let result =
            checksValues
            ? R.validation.run(on: record, operation: kind.operation, object: Self.placeholder)
            : (model: record, issues: [])
        let written = kind == .delete ? record : result.model
        // The encoding is kept as values in a column order the type's rows share: a dictionary per
        // record costs three times the memory, and page faults, for a large set.
        let row = EncodedRow(try written.databaseDictionary, sharing: &info.columns)
        let keyColumns: [String]
        if let known = info.keyColumns {
            keyColumns = known
        } else {
            keyColumns = try schema.primaryKey(of: info.table)
            info.keyColumns = keyColumns
        }
        let key = row.key(keyColumns)
        var found = result.issues
        if requireNormalized && kind != .delete {
            let original = try record.databaseDictionary
            for (column, value) in zip(row.columns.names, row.values) where original[column] != value {
                found.append(
                    ValidationIssue(
                        code: .notNormalized, path: IssuePath.root.appending(key: column),
                        parameters: ["expected": Self.issueValue(value)],
                        value: original[column].map(Self.issueValue), phase: kind.operation.phase))
            }
        }
        let entry = Entry(
            kind: kind, record: written, info: info, row: row, key: key,
            unnamed: unnamed, isStaged: isStaged)
        if !found.isEmpty {
            let reference = entry.reference
            for index in found.indices { found[index].object = reference }
            issues += found
        }
        return entry
    }

    /// Runs the type's own `willInsert` on a staged insert, as GRDB will when it writes it: what the
    /// callback sets is checked. Whether the type has one is found out on its first record.
    func runWillInsert<R: ValidatedRecord>(_ record: inout R, info: TypeInfo) throws {
        let db = schema.db
        guard info.hasOwnWillInsert == nil else {
            try WriteScope.$checkedWrite.withValue(.init(type: ObjectIdentifier(R.self), kind: nil, row: nil)) {
                try record.willInsert(db)
            }
            return
        }
        do {
            try WriteScope.$isProbingWillInsert.withValue(true) { try record.willInsert(db) }
            info.hasOwnWillInsert = true
        } catch is WriteScope.DefaultWillInsert {
            info.hasOwnWillInsert = false
        }
    }

    mutating func append(_ entry: Entry) {
        entries.append(entry)
        guard let key = entry.key, entry.kind != .insert else { return }
        replaced[entry.table, default: []].insert(key)
        if entry.kind == .update, updates[entry.table]?[key] == nil {
            updates[entry.table, default: [:]][key] = entries.count - 1
        }
    }

    mutating func report(
        _ code: IssueCode, on reference: ObjectReference, path: IssuePath, phase: Phase,
        parameters: [String: IssueValue] = [:], value: IssueValue? = nil, label: String? = nil,
        messageKey: String? = nil
    ) {
        issues.append(
            ValidationIssue(
                code: code, path: path, object: reference, ruleLocation: "\(reference.entity): store rule",
                parameters: parameters, value: value, phase: phase, messageKey: messageKey, label: label))
    }

    /// A record type's table and store rules, worked out once per plan (the default table name GRDB
    /// derives from the type's name is not free).
    final class TypeInfo {
        let table: String
        /// The table's primary key columns, once read from the schema.
        var keyColumns: [String]?
        /// The parent column each link refers to, once read from the schema.
        var parentColumns: [String]?
        /// The columns the type's records encoded last, shared by their rows.
        var columns: ColumnList?
        /// Whether the type has a `willInsert` of its own, once a staged insert has found out.
        var hasOwnWillInsert: Bool?
        /// The type's writer, compiled for it where a change was staged.
        var writer: RecordWriter?
        /// How SQLite resolves a conflict of the type's inserts.
        let insertResolution: Database.ConflictResolution
        /// Whether the insert conflict policy resolves conflicts (`.ignore`, `.replace`) rather than
        /// failing.
        var resolvesInsertConflicts: Bool { insertResolution == .ignore || insertResolution == .replace }
        /// Adds the delete of a stored row of the type to a plan, when the type can read its rows.
        let deleteStored: ((inout StorePlan, [String: DatabaseValue]) throws -> Void)?
        let uniques: [(columns: [String], label: String?)]
        let links: [Link]
        let relations: [HasManyRelation]

        init<R: ValidatedRecord>(_ type: R.Type) {
            table = R.databaseTableName
            insertResolution = R.persistenceConflictPolicy.conflictResolutionForInsert
            if let readable = R.self as? any (ValidatedRecord & FetchableRecord).Type {
                deleteStored = { plan, row in try plan.deleteStored(readable, row: row) }
            } else {
                deleteStored = nil
            }
            let rules = R.storeRules.rules
            uniques = rules.compactMap { rule in
                if case .unique(let columns, let label) = rule.kind { return (columns, label) }
                return nil
            }
            relations = rules.compactMap { rule in
                if case .hasMany(let relation) = rule.kind { return relation }
                return nil
            }
            let table = table
            links = rules.compactMap { rule in
                guard case .belongsTo(let parent, let column, let key, let required, let label) = rule.kind else {
                    return nil
                }
                let counts = Self.relations(of: parent).filter {
                    $0.childTable == table && $0.column.lowercased() == column.lowercased()
                        && $0.key?.lowercased() == key?.lowercased()
                }
                return Link(
                    parentTable: parent.databaseTableName, column: column, parentKey: key, required: required,
                    label: label, counts: counts)
            }
        }

        private static func relations<P: ValidatedRecord>(of parent: P.Type) -> [HasManyRelation] {
            P.storeRules.rules.compactMap { rule in
                if case .hasMany(let relation) = rule.kind { return relation }
                return nil
            }
        }
    }

    struct Link {
        let parentTable: String
        let column: String
        /// The parent's column that `column` holds; `nil` for its primary key.
        let parentKey: String?
        let required: Bool
        let label: String?
        /// The parent's to-many relationships that this link counts in.
        let counts: [HasManyRelation]
    }

    // MARK: Values

    /// Stands for the record in value issues until the entry's reference replaces it.
    static let placeholder = ObjectReference(entity: "")

    /// Statement arguments from values, through GRDB's initialiser for optional existentials: an array
    /// would pick its `[Any]` one (a dynamic cast per value) and a typed sequence its generic one (a key
    /// path instantiated per call).
    static func arguments(_ values: [DatabaseValue]) -> StatementArguments {
        StatementArguments(values.lazy.map { $0 as (any DatabaseValueConvertible)? })
    }

    /// The values of the key `columns` in a row, or `nil` when one is missing or `NULL`.
    static func key(of row: [String: DatabaseValue], columns: [String]) -> [DatabaseValue]? {
        var key: [DatabaseValue] = []
        key.reserveCapacity(columns.count)
        for column in columns {
            guard let value = value(in: row, column), !value.isNull else { return nil }
            key.append(value)
        }
        return key
    }

    /// The value of `column` in a row (SQLite's column names ignore case).
    static func value(in row: [String: DatabaseValue], _ column: String) -> DatabaseValue? {
        if let value = row[column] { return value }
        return sameColumn(as: column, in: row.keys).flatMap { row[$0] }
    }

    /// The name the row uses for `column`.
    static func storedName(of column: String, in row: [String: DatabaseValue]) -> String {
        if row[column] != nil { return column }
        return sameColumn(as: column, in: row.keys) ?? column
    }

    /// The name among `names` that is `column` spelt with other cases, if any (SQLite's column names
    /// ignore case). Only names of the same length are lowercased and compared.
    static func sameColumn(as column: String, in names: some Collection<String>) -> String? {
        let length = column.utf8.count
        guard names.contains(where: { $0.utf8.count == length }) else { return nil }
        let lowercased = column.lowercased()
        return names.first { $0.utf8.count == length && $0.lowercased() == lowercased }
    }

    static func render(_ key: [DatabaseValue]) -> String {
        key.map { value -> String in
            switch value.storage {
            case .null: return "NULL"
            case .int64(let int): return String(int)
            case .double(let double): return String(double)
            case .string(let string): return string
            case .blob(let data): return "<\(data.count) bytes>"
            }
        }.joined(separator: ",")
    }

    static func issueValue(_ value: DatabaseValue) -> IssueValue {
        switch value.storage {
        case .null: return .null
        case .int64(let int): return IssueValue(int)
        case .double(let double): return .number(double)
        case .string(let string): return .string(string)
        case .blob(let data): return .other("<\(data.count) bytes>")
        }
    }
}
