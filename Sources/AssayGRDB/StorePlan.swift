import AssayCore
import Foundation
import GRDB

/// One change staged for writing: a record and what to do with it.
@usableFromInline
struct StagedChange: Sendable {
    @usableFromInline
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
    /// Writes records of the change's type, compiled for the type where it was staged.
    let writer: RecordWriter?

    @usableFromInline
    init(_ kind: Kind, _ record: any ValidatedRecord, label: String? = nil, writer: RecordWriter? = nil) {
        self.kind = kind
        self.record = record
        self.label = label
        self.writer = writer
    }
}

/// Writes a record through GRDB's persistence methods (`insert`, `update`, `delete`), which run its
/// callbacks. Made in the caller's module (``ChangeSet`` stages through inlinable methods), so GRDB's
/// generic code is compiled for the record's type there instead of running unspecialised here.
@usableFromInline
struct RecordWriter: Sendable {
    @usableFromInline
    let write: @Sendable (any ValidatedRecord, StagedChange.Kind, Database) throws -> any ValidatedRecord

    @usableFromInline
    init(write: @escaping @Sendable (any ValidatedRecord, StagedChange.Kind, Database) throws -> any ValidatedRecord) {
        self.write = write
    }

    /// The writer of records of `type`.
    @inlinable
    static func of<R: ValidatedRecord>(_ type: R.Type) -> RecordWriter {
        RecordWriter { record, kind, db in
            guard var record = record as? R else {
                throw StoreConfigurationError(description: "\(R.databaseTableName): a record of another type")
            }
            switch kind {
            case .insert: try record.insert(db)
            case .update: try record.update(db)
            case .delete: _ = try record.delete(db)
            }
            return record
        }
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

    private(set) var entries: [Entry] = []
    private(set) var issues: [ValidationIssue] = []
    private var schema: SchemaCache
    private var types: [ObjectIdentifier: TypeInfo] = [:]
    /// Whether each staged insert's `willInsert` runs before its checks (a change set's, whose write
    /// runs it again on the record as checked).
    private let runsWillInsert: Bool
    /// Keys of the stored rows each table's updates and deletes replace.
    private var replaced: [String: Set<[DatabaseValue]>] = [:]
    /// For each table, the entry that updates each stored row, by the row's key.
    private var updates: [String: [[DatabaseValue]: Int]] = [:]
    /// For an insert or update, the updates to write before it: each frees a unique value it takes.
    private var blockers: [Int: [Int]] = [:]

    init(
        staging changes: [StagedChange], in db: Database, requireNormalized: Bool = false,
        runningWillInsert: Bool = false
    ) throws {
        schema = SchemaCache(db: db)
        runsWillInsert = runningWillInsert
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
        try checkStagedRows()
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
        let result = R.validation.run(on: record, operation: kind.operation, object: Self.placeholder)
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
    private func runWillInsert<R: ValidatedRecord>(_ record: inout R, info: TypeInfo) throws {
        let db = schema.db
        guard info.hasOwnWillInsert == nil else {
            try WriteScope.$checkedWrite.withValue(.init(type: ObjectIdentifier(R.self), columns: nil)) {
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

    private mutating func append(_ entry: Entry) {
        entries.append(entry)
        guard let key = entry.key, entry.kind != .insert else { return }
        replaced[entry.table, default: []].insert(key)
        if entry.kind == .update, updates[entry.table]?[key] == nil {
            updates[entry.table, default: [:]][key] = entries.count - 1
        }
    }

    // MARK: Conflict policies

    /// Applies the insert conflict policy of types whose `persistenceConflictPolicy` resolves a
    /// conflict instead of failing, as SQLite will: under `.ignore`, an insert whose key or unique
    /// values a stored row (or an earlier staged row) holds is left out, neither checked nor written;
    /// under `.replace`, the stored rows that hold them are deleted first (with their delete rules) and
    /// an earlier staged insert holding them is left out.
    private mutating func applyInsertConflictPolicies() throws {
        guard entries.contains(where: { $0.kind == .insert && $0.info.resolvesInsertConflicts }) else { return }
        var left: Set<Int> = []
        var holders: [String: [[DatabaseValue]: Int]] = [:]
        var deletedKeys: [String: Set<[DatabaseValue]>] = [:]
        for index in entries.indices where entries[index].kind != .delete {
            let entry = entries[index]
            var groups = entry.info.uniques.map(\.columns)
            if entry.key != nil, let keyColumns = entry.info.keyColumns { groups.append(keyColumns) }
            let resolves = entry.kind == .insert && entry.info.resolvesInsertConflicts
            var earlier: [Int] = []
            var stored: [[DatabaseValue]] = []
            for columns in groups {
                let values = columns.map { entry.row[$0] ?? .null }
                if values.contains(where: \.isNull) { continue }
                let name = entry.table + "\u{0}" + columns.joined(separator: "\u{0}")
                if resolves {
                    if let holder = holders[name]?[values], !left.contains(holder) { earlier.append(holder) }
                    for key in try schema.keys(in: entry.table, where: columns, equal: values)
                    where replaced[entry.table]?.contains(key) != true
                        && deletedKeys[entry.table]?.contains(key) != true
                    {
                        stored.append(key)
                    }
                }
                holders[name, default: [:]][values] = index
            }
            guard resolves, !earlier.isEmpty || !stored.isEmpty else { continue }
            if entry.info.insertResolution == .ignore {
                left.insert(index)
                continue
            }
            // .replace: the later insert wins.
            left.formUnion(earlier)
            guard let replace = entry.info.deleteStored else {
                // A type that cannot be read back is checked as under `.abort`: the conflict is reported.
                continue
            }
            for key in stored where deletedKeys[entry.table, default: []].insert(key).inserted {
                if let row = try schema.row(in: entry.table, key: key) { try replace(&self, row) }
            }
        }
        guard !left.isEmpty else { return }
        let kept = entries.indices.filter { !left.contains($0) }.map { entries[$0] }
        entries = []
        updates = [:]
        replaced = [:]
        for entry in kept { append(entry) }
    }

    /// Adds the delete of a stored row, as a delete rule does.
    fileprivate mutating func deleteStored<Record: ValidatedRecord & FetchableRecord>(
        _ type: Record.Type, row: [String: DatabaseValue]
    ) throws {
        try addDerived(type, row: row, kind: .delete)
    }

    // MARK: Staged rows

    /// Checks what the save's statements need of the stored rows: a record is staged at most once (or
    /// deleted, then inserted again: a replacement), an update's row is stored, and an insert's primary
    /// key is free after the set's deletes.
    private mutating func checkStagedRows() throws {
        var deleted: [String: Set<[DatabaseValue]>] = [:]
        for entry in entries where entry.kind == .delete {
            if let key = entry.key { deleted[entry.table, default: []].insert(key) }
        }
        var staged: [String: [[DatabaseValue]: StagedChange.Kind]] = [:]
        for index in entries.indices where entries[index].isStaged {
            let entry = entries[index]
            let phase = entry.kind.operation.phase
            guard let key = entry.key else {
                if entry.kind == .update {
                    report(
                        .missing, on: entry.reference, path: .root, phase: phase, label: entry.reference.description,
                        messageKey: "notFound")
                }
                continue
            }
            let earlier = staged[entry.table]?[key]
            staged[entry.table, default: [:]][key] = entry.kind
            if let earlier, !(earlier == .delete && entry.kind == .insert) {
                report(
                    .notUnique, on: entry.reference, path: .root, phase: phase, label: entry.reference.description,
                    messageKey: "record.stagedTwice")
                continue
            }
            switch entry.kind {
            case .update:
                if try !schema.isStored(key, in: entry.table) {
                    report(
                        .missing, on: entry.reference, path: .root, phase: phase,
                        label: entry.reference.description, messageKey: "notFound")
                }
            case .insert:
                if deleted[entry.table]?.contains(key) != true, try schema.isStored(key, in: entry.table) {
                    let keyColumns = entry.info.keyColumns ?? []
                    report(
                        .notUnique, on: entry.reference, path: IssuePath.root.appending(key: keyColumns.first ?? ""),
                        phase: phase, parameters: ["columns": .string(keyColumns.joined(separator: ", "))],
                        value: key.count == 1 ? Self.issueValue(key[0]) : .list(key.map(Self.issueValue)))
                }
            case .delete:
                break
            }
        }
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

    /// Reports a deleted row that rows of another table still refer to through a foreign key SQLite
    /// enforces without an action of its own (`NO ACTION`, `RESTRICT`) and that no `hasMany` rule of
    /// the record's type covers: the commit would fail. Rows the set deletes, or moves to another
    /// parent, no longer refer to it; a row deleted and inserted again with the same key is still there.
    private mutating func checkForeignKeysOfDeletes() throws {
        guard entries.contains(where: { $0.kind == .delete }) else { return }
        var inserted: [String: Set<[DatabaseValue]>] = [:]
        for entry in entries where entry.kind == .insert {
            if let key = entry.key { inserted[entry.table, default: []].insert(key) }
        }
        // For each child table and columns, how many staged rows refer to each parent value: counted
        // once, so a large set of deletes costs time linear in its size.
        var stagedReferences: [String: [[DatabaseValue]: Int]] = [:]
        func stagedCount(_ foreignKey: ForeignKey, _ values: [DatabaseValue]) -> Int {
            let name = foreignKey.table.lowercased() + "\u{0}" + foreignKey.columns.joined(separator: "\u{0}")
            if let known = stagedReferences[name] { return known[values] ?? 0 }
            var counts: [[DatabaseValue]: Int] = [:]
            for child in entries
            where child.kind != .delete && child.table.lowercased() == foreignKey.table.lowercased() {
                counts[foreignKey.columns.map { child.row[$0] ?? .null }, default: 0] += 1
            }
            stagedReferences[name] = counts
            return counts[values] ?? 0
        }
        for index in entries.indices where entries[index].kind == .delete {
            let entry = entries[index]
            if let key = entry.key, inserted[entry.table]?.contains(key) == true { continue }
            for foreignKey in try schema.foreignKeys(referencing: entry.table) where foreignKey.restricts {
                let covered = entry.info.relations.contains {
                    $0.childTable.lowercased() == foreignKey.table.lowercased()
                        && $0.column.lowercased() == foreignKey.columns.first?.lowercased()
                }
                if covered { continue }
                let parentColumns =
                    foreignKey.parentColumns.isEmpty ? try schema.primaryKey(of: entry.table) : foreignKey.parentColumns
                let values = parentColumns.map { entry.row[$0] ?? .null }
                guard values.count == foreignKey.columns.count, !values.contains(where: \.isNull) else { continue }
                let stored = try schema.keys(in: foreignKey.table, where: foreignKey.columns, equal: values).filter {
                    replaced[foreignKey.table]?.contains($0) != true
                }
                let count = stored.count + stagedCount(foreignKey, values)
                guard count > 0 else { continue }
                report(
                    .deleteDenied, on: entry.reference, path: .root, phase: .delete,
                    parameters: ["count": .integer(count), "relationship": .string(foreignKey.table)],
                    label: entry.reference.description, messageKey: "deleteDenied.relationship")
            }
        }
    }

    /// Follows the delete rules of every deleted record's to-many relationships; cascaded deletes and
    /// nullified references are added as entries and followed in turn.
    private mutating func applyDeleteRules() throws {
        var index = 0
        while index < entries.count {
            defer { index += 1 }
            guard entries[index].kind == .delete, !entries[index].info.relations.isEmpty else { continue }
            let entry = entries[index]
            for relation in entry.info.relations {
                try apply(relation, toDeleted: entry)
            }
        }
    }

    private mutating func apply(_ relation: HasManyRelation, toDeleted parent: Entry) throws {
        guard relation.onDelete != .noAction else { return }
        let parentColumn = try schema.referencedColumn(of: parent.table, key: relation.key)
        guard let value = parent.row[parentColumn], !value.isNull else { return }
        let childTable = relation.childTable
        let column = relation.column
        let rows = try schema.db.rows(in: childTable, where: relation.column, equals: value)
        var remaining: [[String: DatabaseValue]] = []
        for row in rows {
            let childKey = try schema.key(of: row, in: childTable)
            if let childKey, replaced[childTable]?.contains(childKey) == true { continue }
            remaining.append(row)
        }
        let staged = entries.filter {
            $0.table == childTable && $0.kind != .delete && $0.row[column] == value
        }
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
                row[Self.storedName(of: column, in: row)] = .null
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
        let entry = try makeEntry(child, kind: kind, requireNormalized: false, unnamed: .none, isStaged: false)
        append(entry)
    }

    // MARK: Uniqueness

    private mutating func checkUniqueness() throws {
        var seen: [String: [[DatabaseValue]: ObjectReference]] = [:]
        for index in entries.indices where entries[index].kind != .delete && !entries[index].info.uniques.isEmpty {
            let entry = entries[index]
            for (columns, label) in entry.info.uniques {
                let values = columns.map { entry.row[$0] ?? .null }
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
                var conflict = false
                for other in try schema.keys(in: entry.table, where: columns, equal: values) where other != entry.key {
                    guard replaced[entry.table]?.contains(other) == true else {
                        conflict = true
                        continue
                    }
                    // The stored row gives the value up: its update is written first.
                    if let update = updates[entry.table]?[other] { blockers[index, default: []].append(update) }
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
        var affectedOrder: [ParentKey] = []
        var parentReferences: [ParentKey: ObjectReference] = [:]
        var exists: [ParentKey: Bool] = [:]
        var staged = StagedChildren(entries: entries)
        // Records staged together often share a parent: the last one noted is remembered, and compared
        // before any key is built.
        var lastNoted: (table: String, value: DatabaseValue, childTable: String, column: String)? = nil
        func note(_ table: String, _ parentColumn: String, _ value: DatabaseValue, _ counted: HasManyRelation) {
            if let last = lastNoted, last.value == value, last.table == table,
                last.childTable == counted.childTable, last.column == counted.column
            {
                return
            }
            lastNoted = (table, value, counted.childTable, counted.column)
            let parent = ParentKey(table: table, column: parentColumn, value: value)
            let known = affected[parent] ?? []
            if known.isEmpty { affectedOrder.append(parent) }
            guard !known.contains(where: { $0.childTable == counted.childTable && $0.column == counted.column })
            else { return }
            affected[parent, default: []].append(counted)
        }
        var lastFound: (table: String, value: DatabaseValue, found: Bool)? = nil
        try prefetchParents(into: &exists, staged: &staged)
        // Entries are read in place: copying each one costs more than the checks.
        for index in entries.indices {
            let info = entries[index].info
            if info.links.isEmpty { continue }
            let parentColumns = try resolvedParentColumns(of: info)
            let kind = entries[index].kind
            var oldRow: [String: DatabaseValue]? = nil
            if kind != .insert, let key = entries[index].key {
                oldRow = try schema.row(in: entries[index].table, key: key)
            }
            for (position, link) in info.links.enumerated() {
                let column = link.column
                let parentColumn = parentColumns[position]
                let value = kind == .delete ? .null : entries[index].row[column] ?? .null
                for counted in link.counts {
                    if let oldRow, let old = Self.value(in: oldRow, column), !old.isNull {
                        note(link.parentTable, parentColumn, old, counted)
                    }
                    if !value.isNull { note(link.parentTable, parentColumn, value, counted) }
                }
                guard kind != .delete else { continue }
                if value.isNull {
                    if link.required {
                        report(
                            .missing, on: entries[index].reference, path: IssuePath.root.appending(key: link.column),
                            phase: kind.operation.phase, label: link.label)
                    }
                    continue
                }
                let found: Bool
                if let last = lastFound, last.value == value, last.table == link.parentTable {
                    found = last.found
                } else {
                    let parent = ParentKey(table: link.parentTable, column: parentColumn, value: value)
                    found = try exists[parent] ?? parentExists(parent, staged: &staged)
                    exists[parent] = found
                    lastFound = (link.parentTable, value, found)
                }
                if !found {
                    report(
                        .missing, on: entries[index].reference, path: IssuePath.root.appending(key: link.column),
                        phase: kind.operation.phase,
                        parameters: ["parent": .string(link.parentTable)], value: Self.issueValue(value),
                        label: link.label, messageKey: "relationship.missing")
                }
            }
        }
        // Staged parents are counted too (a minimum applies to a new parent).
        for index in entries.indices where entries[index].kind != .delete && !entries[index].info.relations.isEmpty {
            let entry = entries[index]
            for counted in entry.info.relations {
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
                note(entry.table, parentColumn, value, counted)
                parentReferences[parent] = entry.reference
            }
        }
        // Parents in the order the set first names them, so issues come out in a stable order.
        let ordered = affectedOrder.map { (key: $0, value: affected[$0] ?? []) }
        let storedCounts = try prefetchCounts(of: ordered)
        for (parent, relations) in ordered {
            // A parent that is gone after the set has no count to check (its children are reported).
            let found = try exists[parent] ?? parentExists(parent, staged: &staged)
            exists[parent] = found
            if !found { continue }
            var done: Set<String> = []
            for counted in relations where counted.minimum > 0 || counted.maximum != nil {
                guard done.insert(counted.childTable + "\u{0}" + counted.column).inserted else { continue }
                let kept: Int
                if let counts = storedCounts[ChildColumn(table: counted.childTable, column: counted.column)] {
                    kept = counts[parent.value] ?? 0
                } else {
                    let stored = try schema.keys(
                        in: counted.childTable, where: [counted.column], equal: [parent.value])
                    kept = stored.filter { replaced[counted.childTable]?.contains($0) != true }.count
                }
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

    /// The parent column each of the type's links refers to, worked out once per plan.
    private mutating func resolvedParentColumns(of info: TypeInfo) throws -> [String] {
        if let known = info.parentColumns { return known }
        let columns = try info.links.map { link in
            try schema.referencedColumn(of: link.parentTable, key: link.parentKey)
        }
        info.parentColumns = columns
        return columns
    }

    /// Below this many distinct values, the database is asked value by value; above, in batches.
    private static let batchThreshold = 32
    private static let batchSize = 500

    private struct ChildColumn: Hashable {
        let table: String
        let column: String
    }

    /// Looks up in batches whether the parents that many records refer to exist (a large import refers
    /// to thousands), filling `exists`.
    private mutating func prefetchParents(into exists: inout [ParentKey: Bool], staged: inout StagedChildren) throws {
        var wanted: [ChildColumn: Set<DatabaseValue>] = [:]
        var last: (table: String, value: DatabaseValue)? = nil
        for index in entries.indices where entries[index].kind != .delete {
            let info = entries[index].info
            if info.links.isEmpty { continue }
            let parentColumns = try resolvedParentColumns(of: info)
            for (position, link) in info.links.enumerated() {
                guard let value = entries[index].row[link.column], !value.isNull else { continue }
                if let last, last.value == value, last.table == link.parentTable { continue }
                last = (link.parentTable, value)
                wanted[ChildColumn(table: link.parentTable, column: parentColumns[position]), default: []].insert(value)
            }
        }
        for (parent, values) in wanted where values.count >= Self.batchThreshold {
            let keyColumns = try schema.primaryKey(of: parent.table)
            var stored: Set<DatabaseValue> = []
            let list = Array(values)
            for start in stride(from: 0, to: list.count, by: Self.batchSize) {
                let chunk = Array(list[start..<min(start + Self.batchSize, list.count)])
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                let selected = ([parent.column] + keyColumns).map(\.quotedDatabaseIdentifier).joined(separator: ", ")
                let sql = """
                    SELECT \(selected) FROM \(parent.table.quotedDatabaseIdentifier) \
                    WHERE \(parent.column.quotedDatabaseIdentifier) IN (\(marks))
                    """
                for row in try Row.fetchAll(schema.db, sql: sql, arguments: Self.arguments(chunk)) {
                    let key = keyColumns.indices.map { row[$0 + 1] as DatabaseValue }
                    if replaced[parent.table]?.contains(key) == true { continue }
                    stored.insert(row[0] as DatabaseValue)
                }
            }
            for value in values {
                let key = ParentKey(table: parent.table, column: parent.column, value: value)
                exists[key] =
                    stored.contains(value) || staged.count(in: parent.table, column: parent.column, value: value) > 0
            }
        }
    }

    /// Counts in batches the stored children of many parents, for the child tables the set replaces
    /// no row of (otherwise they are counted parent by parent, leaving the replaced rows out).
    private mutating func prefetchCounts(of parents: [(key: ParentKey, value: [HasManyRelation])]) throws
        -> [ChildColumn: [DatabaseValue: Int]]
    {
        var wanted: [ChildColumn: [DatabaseValue]] = [:]
        for (parent, relations) in parents {
            for counted in relations where counted.minimum > 0 || counted.maximum != nil {
                wanted[ChildColumn(table: counted.childTable, column: counted.column), default: []].append(parent.value)
            }
        }
        var counts: [ChildColumn: [DatabaseValue: Int]] = [:]
        for (child, values) in wanted
        where values.count >= Self.batchThreshold && replaced[child.table]?.isEmpty != false {
            var byValue: [DatabaseValue: Int] = [:]
            for start in stride(from: 0, to: values.count, by: Self.batchSize) {
                let chunk = Array(values[start..<min(start + Self.batchSize, values.count)])
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                let column = child.column.quotedDatabaseIdentifier
                let sql = """
                    SELECT \(column), COUNT(*) FROM \(child.table.quotedDatabaseIdentifier) \
                    WHERE \(column) IN (\(marks)) GROUP BY \(column)
                    """
                for row in try Row.fetchAll(schema.db, sql: sql, arguments: Self.arguments(chunk)) {
                    byValue[row[0] as DatabaseValue] = row[1] as Int
                }
            }
            counts[child] = byValue
        }
        return counts
    }

    /// Whether a row of the parent's table holds the value after the set: staged, or stored and not
    /// replaced by the set.
    private mutating func parentExists(_ parent: ParentKey, staged: inout StagedChildren) throws -> Bool {
        if staged.count(in: parent.table, column: parent.column, value: parent.value) > 0 { return true }
        let stored = try schema.keys(in: parent.table, where: [parent.column], equal: [parent.value])
        return stored.contains { replaced[parent.table]?.contains($0) != true }
    }

    // MARK: Writing

    /// Writes the entries: deletes first, then inserts and updates, each after the updates that free
    /// the unique values it takes. Updates that take each other's values (two teams renamed into each
    /// other's names) are written in two steps: the first of them is parked on a temporary value and
    /// given its own at the end. Each record is written through GRDB (`insert`, `update`, `delete`),
    /// so the type's persistence callbacks run and its conflict policy applies; the checks the
    /// callbacks would make are the plan's. A constraint that SQLite reports is mapped to an issue on
    /// the entry.
    /// Returns the staged inserts as written, each with the row id SQLite assigned, in the order staged.
    @discardableResult
    func write(in db: Database, skippingStaged: Bool = false) throws -> [SavedChanges.Insert] {
        var inserts: [(index: Int, insert: SavedChanges.Insert)] = []
        for step in writeOrder() where !(skippingStaged && entries[step.index].isStaged) {
            let entry = entries[step.index]
            do {
                if step.isParked {
                    try park(entry, in: db)
                    continue
                }
                let checked =
                    entry.kind == .insert && entry.info.hasOwnWillInsert == true
                    ? Dictionary(uniqueKeysWithValues: zip(entry.row.columns.names, entry.row.values)) : nil
                let written = try Self.writeThroughGRDB(
                    entry.record, kind: entry.kind, checked: checked, writer: entry.info.writer, in: db)
                if entry.kind == .insert && entry.isStaged {
                    let insert = SavedChanges.Insert(
                        table: entry.table, record: written, keyColumns: entry.info.keyColumns ?? [],
                        rowID: db.lastInsertedRowID)
                    inserts.append((step.index, insert))
                }
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                throw ValidationError([ConstraintIssue.issue(for: error, on: entry.reference)])
            }
        }
        // Written out of staging order only when an update frees a value: the order staged, again.
        return inserts.sorted { $0.index < $1.index }.map(\.insert)
    }

    /// Writes a record through GRDB, which runs its callbacks; the plan's checks stand in for those
    /// the callbacks would make. Returns the record as written (with its id, when the type's
    /// `didInsert` sets it).
    private static func writeThroughGRDB<R: ValidatedRecord>(
        _ record: R, kind: StagedChange.Kind, checked: [String: DatabaseValue]?, writer: RecordWriter?,
        in db: Database
    ) throws -> any ValidatedRecord {
        try WriteScope.$checkedWrite.withValue(.init(type: ObjectIdentifier(R.self), columns: checked)) {
            if let writer { return try writer.write(record, kind, db) }
            var record = record
            switch kind {
            case .insert: try record.insert(db)
            case .update: try record.update(db)
            case .delete: _ = try record.delete(db)
            }
            return record
        }
    }

    /// Sets one column of each of the update's unique rules to a temporary value no row holds, so the
    /// row gives up its unique values before another row takes them; its own write comes later.
    private func park(_ entry: Entry, in db: Database) throws {
        guard let key = entry.key, let keyColumns = entry.info.keyColumns else { return }
        var assignments: [(column: String, value: DatabaseValue)] = []
        for (columns, _) in entry.info.uniques {
            for column in columns {
                guard let value = entry.row[column], !value.isNull else { continue }
                let temporary = try Self.temporaryValue(like: value, in: entry.table, column: column, db: db)
                assignments.append((column, temporary))
                break
            }
        }
        guard !assignments.isEmpty else { return }
        let set = assignments.map { "\($0.column.quotedDatabaseIdentifier) = ?" }.joined(separator: ", ")
        let condition = keyColumns.map { "\($0.quotedDatabaseIdentifier) = ?" }.joined(separator: " AND ")
        let statement = try db.cachedStatement(
            sql: "UPDATE \(entry.table.quotedDatabaseIdentifier) SET \(set) WHERE \(condition)")
        try statement.execute(arguments: Self.arguments(assignments.map(\.value) + key))
    }

    /// One write of an entry; a parked update is written twice, on temporary unique values first.
    struct WriteStep {
        let index: Int
        let isParked: Bool
    }

    /// The order of the writes: deletes; then inserts with a primary key and updates, in staging order
    /// except where one waits for the update that frees its unique value (a cycle of such updates is
    /// broken by parking one of them, whose final write comes after the others); then the inserts
    /// without a primary key, so no id SQLite assigns can be one that a staged insert names. Linear in
    /// the entries and the waits.
    func writeOrder() -> [WriteStep] {
        var steps = entries.indices.filter { entries[$0].kind == .delete }.map { WriteStep(index: $0, isParked: false) }
        let others = entries.indices.filter { entries[$0].kind != .delete && entries[$0].key != nil }
        let unkeyed = entries.indices.filter { entries[$0].kind == .insert && entries[$0].key == nil }.map {
            WriteStep(index: $0, isParked: false)
        }
        guard !blockers.isEmpty else { return steps + others.map { WriteStep(index: $0, isParked: false) } + unkeyed }
        var waiting = [Int](repeating: 0, count: entries.count)
        var dependents: [Int: [Int]] = [:]
        for (index, list) in blockers {
            waiting[index] = list.count
            for blocker in list { dependents[blocker, default: []].append(index) }
        }
        var written = [Bool](repeating: false, count: entries.count)
        // Unkeyed inserts are written last, whatever they wait for.
        for step in unkeyed { written[step.index] = true }
        var cursor = 0
        func emit(_ index: Int, parked: Bool) {
            steps.append(WriteStep(index: index, isParked: parked))
            written[index] = true
            var freed = [index]
            while let done = freed.popLast() {
                for dependent in dependents[done] ?? [] {
                    waiting[dependent] -= 1
                    // One the scan has passed is written now; the scan writes the others when it gets there.
                    if waiting[dependent] == 0 && !written[dependent] && dependent < cursor {
                        steps.append(WriteStep(index: dependent, isParked: false))
                        written[dependent] = true
                        freed.append(dependent)
                    }
                }
            }
        }
        for index in others {
            cursor = index + 1
            if !written[index] && waiting[index] == 0 { emit(index, parked: false) }
        }
        cursor = entries.count
        var finals: [Int] = []
        for index in others where !written[index] {
            // Still waiting: on a cycle of updates. The first update it waits for is parked.
            while !written[index], let blocker = blockers[index]?.first(where: { !written[$0] }) {
                finals.append(blocker)
                emit(blocker, parked: true)
            }
        }
        return steps + finals.map { WriteStep(index: $0, isParked: false) } + unkeyed
    }

    /// A value of the same storage class as `value` that no row of the table holds in `column`.
    private static func temporaryValue(like value: DatabaseValue, in table: String, column: String, db: Database)
        throws -> DatabaseValue
    {
        while true {
            let candidate: DatabaseValue
            switch value.storage {
            case .int64, .null: candidate = Int64.random(in: Int64.min...(Int64.min / 2)).databaseValue
            case .double: candidate = (-Double.random(in: 1e300...1e301)).databaseValue
            case .string: candidate = "\u{1}assay-parked-\(UInt64.random(in: 0...UInt64.max))".databaseValue
            case .blob: candidate = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).databaseValue
            }
            let sql = """
                SELECT 1 FROM \(table.quotedDatabaseIdentifier) WHERE \(column.quotedDatabaseIdentifier) = ? LIMIT 1
                """
            if try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [candidate]) == nil { return candidate }
        }
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

/// The names of the columns of encoded rows, shared by the rows that encode the same columns.
final class ColumnList {
    let names: [String]
    private let positions: [String: Int]

    init(_ names: [String]) {
        self.names = names
        var positions: [String: Int] = [:]
        for (position, name) in names.enumerated() { positions[name] = position }
        self.positions = positions
    }

    /// The position of `column` (SQLite's column names ignore case).
    func position(of column: String) -> Int? {
        if let position = positions[column] { return position }
        return StorePlan.sameColumn(as: column, in: names).flatMap { positions[$0] }
    }
}

/// A record's encoded columns: values in the order of a shared column list.
struct EncodedRow {
    let columns: ColumnList
    let values: [DatabaseValue]

    /// Takes the values of `dictionary` in the order of `shared` when it names the same columns, else
    /// in a new order (sorted by name), which becomes the shared one.
    init(_ dictionary: [String: DatabaseValue], sharing shared: inout ColumnList?) {
        if let list = shared, list.names.count == dictionary.count {
            var values: [DatabaseValue] = []
            values.reserveCapacity(list.names.count)
            for name in list.names {
                guard let value = dictionary[name] else { break }
                values.append(value)
            }
            if values.count == list.names.count {
                self.columns = list
                self.values = values
                return
            }
        }
        let list = ColumnList(dictionary.keys.sorted())
        shared = list
        self.columns = list
        self.values = list.names.map { dictionary[$0] ?? .null }
    }

    /// The value of `column`, if the row has it.
    subscript(column: String) -> DatabaseValue? {
        columns.position(of: column).map { values[$0] }
    }

    /// The values of the key `columns`, or `nil` when one is missing or `NULL`.
    func key(_ columns: [String]) -> [DatabaseValue]? {
        var key: [DatabaseValue] = []
        key.reserveCapacity(columns.count)
        for column in columns {
            guard let value = self[column], !value.isNull else { return nil }
            key.append(value)
        }
        return key
    }
}

/// The staged inserts and updates of each child table, counted by the value of a column.
private struct StagedChildren {
    let entries: [StorePlan.Entry]
    /// For each child table and column, how many staged rows hold each value.
    private var counts: [String: [DatabaseValue: Int]] = [:]

    init(entries: [StorePlan.Entry]) { self.entries = entries }

    mutating func count(in table: String, column: String, value: DatabaseValue) -> Int {
        let name = table + "\u{0}" + column.lowercased()
        if let known = counts[name] { return known[value] ?? 0 }
        var byValue: [DatabaseValue: Int] = [:]
        // Runs of one value (records staged together for one parent) are counted before hashing.
        var run: (value: DatabaseValue, count: Int)? = nil
        for index in entries.indices where entries[index].kind != .delete && entries[index].table == table {
            guard let held = entries[index].row[column], !held.isNull else { continue }
            if let current = run, current.value == held {
                run = (held, current.count + 1)
                continue
            }
            if let current = run { byValue[current.value, default: 0] += current.count }
            run = (held, 1)
        }
        if let current = run { byValue[current.value, default: 0] += current.count }
        counts[name] = byValue
        return byValue[value] ?? 0
    }
}

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
    private var primaryKeys: [String: [String]] = [:]
    private var uniqueIndexes: Set<String> = []
    /// Every table's foreign keys, by the parent table (lowercased), once read.
    private var foreignKeysByParent: [String: [ForeignKey]]?

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
