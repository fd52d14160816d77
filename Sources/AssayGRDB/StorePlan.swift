import AssayCore
import GRDB

/// One change staged for writing: a record and what to do with it.
struct StagedChange: Sendable {
    enum Kind: Sendable {
        case insert, update, delete

        var operation: ValidationOperation {
            switch self {
            case .insert: return .insert
            case .update: return .update
            case .delete: return .delete
            }
        }
    }

    let kind: Kind
    let record: any ValidatedRecord
    /// How issues name the record while it has no primary key (a staged insert).
    let label: String?

    init(_ kind: Kind, _ record: any ValidatedRecord, label: String? = nil) {
        self.kind = kind
        self.record = record
        self.label = label
    }
}

/// Staged changes checked together against the database, with the changes their delete rules add
/// (cascaded deletes, nullified references): the one implementation behind the persistence callbacks
/// and ``ChangeSet``.
///
/// Every check reads the database as it will be after the changes: rows deleted or updated by the plan
/// are replaced by the plan's own rows.
struct StorePlan {
    struct Entry {
        var kind: StagedChange.Kind
        /// The record to write: normalised for inserts and updates.
        var record: any ValidatedRecord
        var table: String
        /// The record's columns, keyed by lowercased name.
        var row: [String: DatabaseValue]
        /// The primary key's values, or `nil` while it has none (an auto-incremented id).
        var key: [DatabaseValue]?
        var reference: ObjectReference
        /// Staged by the caller, rather than added by a delete rule.
        var isStaged: Bool
    }

    private(set) var entries: [Entry] = []
    private(set) var issues: [ValidationIssue] = []
    private var schema: SchemaCache
    /// Keys of the stored rows each table's updates and deletes replace.
    private var replaced: [String: Set<[DatabaseValue]>] = [:]

    init(staging changes: [StagedChange], in db: Database, requireNormalized: Bool = false) throws {
        schema = SchemaCache(db: db)
        for (index, change) in changes.enumerated() {
            // A record without a primary key yet is named by its label, or by its place in the set.
            let unnamed = change.label ?? (changes.count > 1 ? "new \(index + 1)" : nil)
            append(
                try makeEntry(
                    change.record, kind: change.kind, requireNormalized: requireNormalized, unnamed: unnamed))
        }
        try applyDeleteRules()
        try checkUniqueness()
        try checkRelationships()
    }

    /// Throws every issue when any is an error.
    func throwIfInvalid() throws {
        try ValidationError(issues).throwIfErrors()
    }

    // MARK: Entries

    /// Checks one record's value rules for the change, and describes it for the store checks.
    private mutating func makeEntry<R: ValidatedRecord>(
        _ record: R, kind: StagedChange.Kind, requireNormalized: Bool, unnamed: String?, isStaged: Bool = true
    ) throws -> Entry {
        let table = R.databaseTableName
        let result = R.validation.run(on: record, operation: kind.operation)
        let written = kind == .delete ? record : result.model
        let row = try Self.lowercased(written.databaseDictionary)
        let key = try schema.key(of: row, in: table)
        let reference = ObjectReference(entity: table, id: key.map(Self.render) ?? unnamed)
        var found = result.issues
        if requireNormalized && kind != .delete {
            let original = try Self.lowercased(record.databaseDictionary)
            for (column, value) in row.sorted(by: { $0.key < $1.key }) where original[column] != value {
                found.append(
                    ValidationIssue(
                        code: .notNormalized, path: IssuePath.root.appending(key: column),
                        parameters: ["expected": Self.issueValue(value)],
                        value: original[column].map(Self.issueValue), phase: kind.operation.phase))
            }
        }
        for index in found.indices { found[index].object = reference }
        issues += found
        return Entry(
            kind: kind, record: written, table: table, row: row, key: key, reference: reference, isStaged: isStaged)
    }

    private mutating func append(_ entry: Entry) {
        entries.append(entry)
        guard let key = entry.key, entry.kind != .insert else { return }
        replaced[entry.table, default: []].insert(key)
    }

    private mutating func report(
        _ code: IssueCode, on reference: ObjectReference, path: IssuePath, phase: Phase,
        parameters: [String: IssueValue] = [:], value: IssueValue? = nil, label: String? = nil,
        messageKey: String? = nil
    ) {
        issues.append(
            ValidationIssue(
                code: code, path: path, object: reference, ruleLocation: "\(reference.entity): store rule",
                parameters: parameters, value: value, phase: phase, messageKey: messageKey, label: label))
    }

    // MARK: Delete rules

    /// Follows the delete rules of every deleted record's to-many relationships; cascaded deletes and
    /// nullified references are added as entries and followed in turn.
    private mutating func applyDeleteRules() throws {
        var index = 0
        while index < entries.count {
            let entry = entries[index]
            index += 1
            guard entry.kind == .delete else { continue }
            for relation in Self.relations(of: entry.record) {
                try apply(relation, toDeleted: entry)
            }
        }
    }

    private mutating func apply(_ relation: HasManyRelation, toDeleted parent: Entry) throws {
        guard relation.onDelete != .noAction else { return }
        let parentColumn = try schema.referencedColumn(of: parent.table, key: relation.key)
        guard let value = parent.row[parentColumn], !value.isNull else { return }
        let childTable = relation.childTable
        let column = relation.column.lowercased()
        let rows = try schema.db.rows(in: childTable, where: relation.column, equals: value)
        var remaining: [[String: DatabaseValue]] = []
        for row in rows {
            let childKey = try schema.key(of: row, in: childTable)
            if let childKey, replaced[childTable]?.contains(childKey) == true { continue }
            remaining.append(row)
        }
        let staged = entries.filter { $0.table == childTable && $0.kind != .delete && $0.row[column] == value }
        switch relation.onDelete {
        case .deny:
            let count = remaining.count + staged.count
            guard count > 0 else { return }
            report(
                .deleteDenied, on: parent.reference, path: .root, phase: .delete,
                parameters: ["count": .integer(count), "relationship": .string(relation.name)],
                label: parent.reference.description, messageKey: "deleteDenied.relationship")
        case .cascade:
            for row in remaining {
                try addDerived(relation.child, row: row, kind: .delete)
            }
        case .nullify:
            for var row in remaining {
                row[column] = .null
                try addDerived(relation.child, row: row, kind: .update, nulling: relation.column)
            }
        case .noAction:
            return
        }
    }

    /// Adds a change a delete rule makes to a row read from the database.
    private mutating func addDerived<Child: ValidatedRecord & FetchableRecord>(
        _ type: Child.Type, row: [String: DatabaseValue], kind: StagedChange.Kind, nulling column: String? = nil
    ) throws {
        let child: Child
        do {
            child = try Child(row: Row(row.mapValues { $0 as (any DatabaseValueConvertible)? }))
        } catch {
            // The row cannot become a record without the reference (a non-optional property).
            let key = try schema.key(of: row, in: Child.databaseTableName)
            report(
                .missing, on: ObjectReference(entity: Child.databaseTableName, id: key.map(Self.render)),
                path: IssuePath.root.appending(key: column ?? ""), phase: kind.operation.phase)
            return
        }
        let entry = try makeEntry(child, kind: kind, requireNormalized: false, unnamed: nil, isStaged: false)
        append(entry)
    }

    // MARK: Uniqueness

    private mutating func checkUniqueness() throws {
        var seen: [String: [[DatabaseValue]: ObjectReference]] = [:]
        for entry in entries where entry.kind != .delete {
            for (columns, label) in Self.uniqueRules(of: entry.record) {
                let values = columns.map { entry.row[$0.lowercased()] ?? .null }
                if values.contains(where: \.isNull) { continue }
                try schema.requireUniqueIndex(on: entry.table, columns: columns)
                let ruleKey = entry.table + "\u{0}" + columns.joined(separator: "\u{0}")
                let path = IssuePath.root.appending(key: columns[0])
                let shown = values.count == 1 ? Self.issueValue(values[0]) : .list(values.map(Self.issueValue))
                if seen[ruleKey]?[values] != nil {
                    report(
                        .notUnique, on: entry.reference, path: path, phase: entry.kind.operation.phase,
                        parameters: ["columns": .string(columns.joined(separator: ", "))], value: shown, label: label)
                    continue
                }
                seen[ruleKey, default: [:]][values] = entry.reference
                let others = try schema.keys(in: entry.table, where: columns, equal: values)
                let conflict = others.contains { other in
                    other != entry.key && replaced[entry.table]?.contains(other) != true
                }
                if conflict {
                    report(
                        .notUnique, on: entry.reference, path: path, phase: entry.kind.operation.phase,
                        parameters: ["columns": .string(columns.joined(separator: ", "))], value: shown, label: label)
                }
            }
        }
    }

    // MARK: Relationships

    /// A parent as children refer to it: the value of one of its columns.
    private struct ParentKey: Hashable {
        let table: String
        let column: String
        let value: DatabaseValue
    }

    private mutating func checkRelationships() throws {
        // Parents whose to-many counts may change, with the relationships to count.
        var affected: [ParentKey: [HasManyRelation]] = [:]
        var parentReferences: [ParentKey: ObjectReference] = [:]
        var exists: [ParentKey: Bool] = [:]
        var staged = StagedChildren(entries: entries)
        for entry in entries {
            let links = Self.belongsTo(of: entry.record)
            if links.isEmpty { continue }
            var oldRow: [String: DatabaseValue]? = nil
            if entry.kind != .insert, let key = entry.key {
                oldRow = try schema.row(in: entry.table, key: key)
            }
            for link in links {
                let column = link.column.lowercased()
                let parentColumn = try schema.referencedColumn(of: link.parentTable, key: link.parentKey)
                for counted in link.counts {
                    for row in [oldRow, entry.kind == .delete ? nil : entry.row] {
                        guard let value = row?[column], !value.isNull else { continue }
                        let parent = ParentKey(table: link.parentTable, column: parentColumn, value: value)
                        affected[parent, default: []].append(counted)
                    }
                }
                guard entry.kind != .delete else { continue }
                let value = entry.row[column] ?? .null
                let path = IssuePath.root.appending(key: link.column)
                if value.isNull {
                    if link.required {
                        report(
                            .missing, on: entry.reference, path: path, phase: entry.kind.operation.phase,
                            label: link.label)
                    }
                    continue
                }
                let parent = ParentKey(table: link.parentTable, column: parentColumn, value: value)
                let found = try exists[parent] ?? parentExists(parent, staged: &staged)
                exists[parent] = found
                if !found {
                    report(
                        .missing, on: entry.reference, path: path, phase: entry.kind.operation.phase,
                        parameters: ["parent": .string(link.parentTable)], value: Self.issueValue(value),
                        label: link.label, messageKey: "relationship.missing")
                }
            }
        }
        // Staged parents are counted too (a minimum applies to a new parent).
        for entry in entries where entry.kind != .delete {
            for counted in Self.relations(of: entry.record) {
                let parentColumn = try schema.referencedColumn(of: entry.table, key: counted.key)
                guard let value = entry.row[parentColumn], !value.isNull else {
                    if counted.minimum > 0 {
                        report(
                            .tooFew, on: entry.reference, path: IssuePath.root.appending(key: counted.name),
                            phase: entry.kind.operation.phase,
                            parameters: ["minimum": .integer(counted.minimum)], value: .integer(0))
                    }
                    continue
                }
                let parent = ParentKey(table: entry.table, column: parentColumn, value: value)
                affected[parent, default: []].append(counted)
                parentReferences[parent] = entry.reference
            }
        }
        let ordered = affected.sorted {
            (Self.render([$0.key.value]), $0.key.table) < (Self.render([$1.key.value]), $1.key.table)
        }
        for (parent, relations) in ordered {
            // A parent that is gone after the set has no count to check (its children are reported).
            let found = try exists[parent] ?? parentExists(parent, staged: &staged)
            exists[parent] = found
            if !found { continue }
            var done: Set<String> = []
            for counted in relations where counted.minimum > 0 || counted.maximum != nil {
                guard done.insert(counted.childTable + "\u{0}" + counted.column).inserted else { continue }
                let stored = try schema.keys(in: counted.childTable, where: [counted.column], equal: [parent.value])
                let kept = stored.filter { replaced[counted.childTable]?.contains($0) != true }.count
                let count = kept + staged.count(in: counted.childTable, column: counted.column, value: parent.value)
                let reference =
                    parentReferences[parent] ?? ObjectReference(entity: parent.table, id: Self.render([parent.value]))
                let path = IssuePath.root.appending(key: counted.name)
                if let maximum = counted.maximum, count > maximum {
                    report(
                        .tooMany, on: reference, path: path, phase: .save,
                        parameters: ["maximum": .integer(maximum)], value: .integer(count))
                } else if count < counted.minimum {
                    report(
                        .tooFew, on: reference, path: path, phase: .save,
                        parameters: ["minimum": .integer(counted.minimum)], value: .integer(count))
                }
            }
        }
    }

    /// Whether a row of the parent's table holds the value after the set: staged, or stored and not
    /// replaced by the set.
    private mutating func parentExists(_ parent: ParentKey, staged: inout StagedChildren) throws -> Bool {
        if staged.count(in: parent.table, column: parent.column, value: parent.value) > 0 { return true }
        let stored = try schema.keys(in: parent.table, where: [parent.column], equal: [parent.value])
        return stored.contains { replaced[parent.table]?.contains($0) != true }
    }

    // MARK: Writing

    /// Writes the entries in order, with the persistence callbacks letting them through (they were
    /// checked together). A constraint that SQLite reports is mapped to an issue on the entry.
    func write(in db: Database, skippingStaged: Bool = false) throws {
        try WriteScope.$isWritingChecked.withValue(true) {
            for entry in entries where !(skippingStaged && entry.isStaged) {
                do {
                    try Self.write(entry.record, kind: entry.kind, in: db)
                } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                    throw ValidationError([ConstraintIssue.issue(for: error, on: entry.reference)])
                }
            }
        }
    }

    private static func write<R: ValidatedRecord>(_ record: R, kind: StagedChange.Kind, in db: Database) throws {
        switch kind {
        case .insert:
            var record = record
            try record.insert(db)
        case .update:
            try record.update(db)
        case .delete:
            _ = try record.delete(db)
        }
    }

    // MARK: Rules of a record's type

    private static func relations<R: ValidatedRecord>(of record: R) -> [HasManyRelation] {
        R.storeRules.rules.compactMap { rule in
            if case .hasMany(let relation) = rule.kind { return relation }
            return nil
        }
    }

    private static func uniqueRules<R: ValidatedRecord>(of record: R) -> [(columns: [String], label: String?)] {
        R.storeRules.rules.compactMap { rule in
            if case .unique(let columns, let label) = rule.kind { return (columns, label) }
            return nil
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

    private static func belongsTo<R: ValidatedRecord>(of record: R) -> [Link] {
        R.storeRules.rules.compactMap { rule in
            guard case .belongsTo(let parent, let column, let key, let required, let label) = rule.kind else {
                return nil
            }
            let counts = parentCounts(parent).filter {
                $0.childTable == R.databaseTableName && $0.column.lowercased() == column.lowercased()
                    && $0.key?.lowercased() == key?.lowercased()
            }
            return Link(
                parentTable: parent.databaseTableName, column: column, parentKey: key, required: required,
                label: label, counts: counts)
        }
    }

    private static func parentCounts<P: ValidatedRecord>(_ parent: P.Type) -> [HasManyRelation] {
        P.storeRules.rules.compactMap { rule in
            if case .hasMany(let relation) = rule.kind { return relation }
            return nil
        }
    }

    // MARK: Values

    static func lowercased(_ dictionary: [String: DatabaseValue]) -> [String: DatabaseValue] {
        var result: [String: DatabaseValue] = [:]
        result.reserveCapacity(dictionary.count)
        for (column, value) in dictionary { result[column.lowercased()] = value }
        return result
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

/// The staged inserts and updates of each child table, counted by the value of a column.
private struct StagedChildren {
    let entries: [StorePlan.Entry]
    /// For each child table and column, how many staged rows hold each value.
    private var counts: [String: [DatabaseValue: Int]] = [:]

    init(entries: [StorePlan.Entry]) { self.entries = entries }

    mutating func count(in table: String, column: String, value: DatabaseValue) -> Int {
        let column = column.lowercased()
        let name = table + "\u{0}" + column
        if let known = counts[name] { return known[value] ?? 0 }
        var byValue: [DatabaseValue: Int] = [:]
        for entry in entries where entry.table == table && entry.kind != .delete {
            if let held = entry.row[column], !held.isNull { byValue[held, default: 0] += 1 }
        }
        counts[name] = byValue
        return byValue[value] ?? 0
    }
}

/// What the store checks read from the database, cached for one plan.
struct SchemaCache {
    let db: Database
    private var primaryKeys: [String: [String]] = [:]
    private var uniqueIndexes: Set<String> = []

    init(db: Database) { self.db = db }

    mutating func primaryKey(of table: String) throws -> [String] {
        if let known = primaryKeys[table] { return known }
        let columns = try db.primaryKey(table).columns.map { $0.lowercased() }
        primaryKeys[table] = columns
        return columns
    }

    mutating func key(of row: [String: DatabaseValue], in table: String) throws -> [DatabaseValue]? {
        var key: [DatabaseValue] = []
        for column in try primaryKey(of: table) {
            guard let value = row[column], !value.isNull else { return nil }
            key.append(value)
        }
        return key
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
        return try Row.fetchAll(statement, arguments: StatementArguments(values)).map { row in
            keyColumns.indices.map { row[$0] as DatabaseValue }
        }
    }

    mutating func row(in table: String, key: [DatabaseValue]) throws -> [String: DatabaseValue]? {
        let keyColumns = try primaryKey(of: table)
        let condition = keyColumns.map { "\($0.quotedDatabaseIdentifier) = ?" }.joined(separator: " AND ")
        let statement = try db.cachedStatement(
            sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) WHERE \(condition)")
        return try Row.fetchOne(statement, arguments: StatementArguments(key)).map(Database.dictionary)
    }

    /// The parent's column children refer to: `key`, or the single-column primary key.
    mutating func referencedColumn(of table: String, key: String?) throws -> String {
        if let key { return key.lowercased() }
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
    /// The rows of `table` whose `column` equals `value`, keyed by lowercased column name.
    func rows(in table: String, where column: String, equals value: DatabaseValue) throws -> [[String: DatabaseValue]] {
        let statement = try cachedStatement(
            sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) WHERE \(column.quotedDatabaseIdentifier) = ?")
        return try Row.fetchAll(statement, arguments: [value]).map(Database.dictionary)
    }

    static func dictionary(_ row: Row) -> [String: DatabaseValue] {
        var result: [String: DatabaseValue] = [:]
        for (column, value) in row { result[column.lowercased()] = value }
        return result
    }
}
