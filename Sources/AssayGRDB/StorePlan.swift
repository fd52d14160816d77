import AssayCore
import Foundation
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
        /// The record, normalised for inserts and updates; kept for updates and deletes (written
        /// through GRDB when they have no primary key) and when the caller asks for it, not for the
        /// inserts of a change set, which are written from `row`.
        var record: (any ValidatedRecord)?
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
    /// Keys of the stored rows each table's updates and deletes replace.
    private var replaced: [String: Set<[DatabaseValue]>] = [:]
    /// For each table, the entry that updates each stored row, by the row's key.
    private var updates: [String: [[DatabaseValue]: Int]] = [:]
    /// For an insert or update, the updates to write before it: each frees a unique value it takes.
    private var blockers: [Int: [Int]] = [:]

    /// Whether entries keep their (normalised) records, for a caller that returns them.
    private let keepsRecords: Bool

    init(
        staging changes: [StagedChange], in db: Database, requireNormalized: Bool = false, keepingRecords: Bool = false
    ) throws {
        schema = SchemaCache(db: db)
        keepsRecords = keepingRecords
        entries.reserveCapacity(changes.count)
        for (index, change) in changes.enumerated() {
            // A record without a primary key yet is named by its label, or by its place in the set.
            let unnamed: Entry.Unnamed =
                change.label.map { .label($0) } ?? (changes.count > 1 ? .position(index + 1) : .none)
            append(
                try makeEntry(
                    change.record, kind: change.kind, requireNormalized: requireNormalized, unnamed: unnamed))
        }
        try applyDeleteRules()
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
        _ record: R, kind: StagedChange.Kind, requireNormalized: Bool, unnamed: Entry.Unnamed, isStaged: Bool = true
    ) throws -> Entry {
        let info: TypeInfo
        if let known = types[ObjectIdentifier(R.self)] {
            info = known
        } else {
            info = TypeInfo(R.self)
            types[ObjectIdentifier(R.self)] = info
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
            kind: kind, record: kind == .insert && !keepsRecords ? nil : written, info: info, row: row, key: key,
            unnamed: unnamed, isStaged: isStaged)
        if !found.isEmpty {
            let reference = entry.reference
            for index in found.indices { found[index].object = reference }
            issues += found
        }
        return entry
    }

    private mutating func append(_ entry: Entry) {
        entries.append(entry)
        guard let key = entry.key, entry.kind != .insert else { return }
        replaced[entry.table, default: []].insert(key)
        if entry.kind == .update, updates[entry.table]?[key] == nil {
            updates[entry.table, default: [:]][key] = entries.count - 1
        }
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
    /// given its own at the end. A change set's rows are written by prepared statements from the
    /// columns the records encoded for the checks (each record is encoded once), so GRDB's persistence
    /// callbacks do not run for them: the plan's checks replace them. A constraint that SQLite reports
    /// is mapped to an issue on the entry.
    /// Returns the staged inserts as written, each with the row id SQLite assigned, in the order staged.
    @discardableResult
    func write(in db: Database, skippingStaged: Bool = false) throws -> [SavedChanges.Insert] {
        var statements = StatementCache()
        var inserts: [(index: Int, insert: SavedChanges.Insert)] = []
        try WriteScope.$isWritingChecked.withValue(true) {
            for step in writeOrder() where !(skippingStaged && entries[step.index].isStaged) {
                let entry = entries[step.index]
                let values = step.isParked ? try parkedValues(of: entry, in: db) : entry.row.values
                do {
                    try write(entry, values: values, in: db, statements: &statements)
                } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                    throw ValidationError([ConstraintIssue.issue(for: error, on: entry.reference)])
                }
                if entry.kind == .insert && entry.isStaged {
                    let insert = SavedChanges.Insert(
                        table: entry.table, columns: entry.row.columns.names, values: entry.row.values,
                        keyColumns: entry.info.keyColumns ?? [], rowID: db.lastInsertedRowID)
                    inserts.append((step.index, insert))
                }
            }
        }
        // Written out of staging order only when an update frees a value: the order staged, again.
        return inserts.sorted { $0.index < $1.index }.map(\.insert)
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

    /// An update's values with a temporary value, unique in its table, in one column of each unique
    /// rule: the row gives up its unique values before another row takes them.
    private func parkedValues(of entry: Entry, in db: Database) throws -> [DatabaseValue] {
        var values = entry.row.values
        for (columns, _) in entry.info.uniques {
            for column in columns {
                guard let position = entry.row.columns.position(of: column), !values[position].isNull else { continue }
                values[position] = try Self.temporaryValue(
                    like: values[position], in: entry.table, column: column, db: db)
                break
            }
        }
        return values
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

    private func write(_ entry: Entry, values: [DatabaseValue], in db: Database, statements: inout StatementCache)
        throws
    {
        let columns = entry.row.columns.names
        guard let key = entry.key, let keyColumns = entry.info.keyColumns else {
            // Without a primary key, an insert lets SQLite assign one; an update or a delete goes
            // through GRDB, which reports the missing key.
            if entry.kind == .insert {
                let statement = try statements.statement(for: .insert, table: entry.table, columns: columns, in: db)
                try statement.execute(arguments: Self.arguments(values))
            } else {
                guard let record = entry.record else { return }
                try Self.writeThroughGRDB(record, kind: entry.kind, in: db)
            }
            return
        }
        switch entry.kind {
        case .insert:
            let statement = try statements.statement(for: .insert, table: entry.table, columns: columns, in: db)
            try statement.execute(arguments: Self.arguments(values))
        case .update:
            let keyNames = Set(keyColumns.map { $0.lowercased() })
            let assigned = columns.indices.filter { !keyNames.contains(columns[$0].lowercased()) }
            let statement = try statements.statement(
                for: .update, table: entry.table, columns: assigned.map { columns[$0] }, keyColumns: keyColumns, in: db)
            try statement.execute(arguments: Self.arguments(assigned.map { values[$0] } + key))
            if db.changesCount == 0 {
                throw RecordError.recordNotFound(
                    databaseTableName: entry.table,
                    key: Dictionary(uniqueKeysWithValues: zip(keyColumns, key)))
            }
        case .delete:
            let statement = try statements.statement(
                for: .delete, table: entry.table, columns: [], keyColumns: keyColumns, in: db)
            try statement.execute(arguments: Self.arguments(key))
        }
    }

    private static func writeThroughGRDB<R: ValidatedRecord>(_ record: R, kind: StagedChange.Kind, in db: Database)
        throws
    {
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
        let uniques: [(columns: [String], label: String?)]
        let links: [Link]
        let relations: [HasManyRelation]

        init<R: ValidatedRecord>(_ type: R.Type) {
            table = R.databaseTableName
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

/// The prepared statements of one write, by table, statement kind and columns.
struct StatementCache {
    enum Kind: Hashable { case insert, update, delete }

    private struct Name: Hashable {
        let kind: Kind
        let table: String
        let columns: [String]
    }

    private var statements: [Name: Statement] = [:]
    private var last: (name: Name, statement: Statement)? = nil
    mutating func statement(
        for kind: Kind, table: String, columns: [String], keyColumns: [String] = [], in db: Database
    ) throws -> Statement {
        // Consecutive rows of one table usually share the statement: compared before hashing.
        if let last, last.name.kind == kind, last.name.table == table, last.name.columns == columns {
            return last.statement
        }
        let name = Name(kind: kind, table: table, columns: columns)
        if let known = statements[name] {
            last = (name, known)
            return known
        }
        let quotedTable = table.quotedDatabaseIdentifier
        let condition = keyColumns.map { "\($0.quotedDatabaseIdentifier) = ?" }.joined(separator: " AND ")
        let sql: String
        switch kind {
        case .insert:
            let names = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
            let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
            sql =
                columns.isEmpty
                ? "INSERT INTO \(quotedTable) DEFAULT VALUES"
                : "INSERT INTO \(quotedTable) (\(names)) VALUES (\(marks))"
        case .update:
            let assignments = columns.map { "\($0.quotedDatabaseIdentifier) = ?" }.joined(separator: ", ")
            // An update of the key alone still checks that the row exists.
            let set =
                assignments.isEmpty
                ? "\(keyColumns[0].quotedDatabaseIdentifier) = \(keyColumns[0].quotedDatabaseIdentifier)" : assignments
            sql = "UPDATE \(quotedTable) SET \(set) WHERE \(condition)"
        case .delete:
            sql = "DELETE FROM \(quotedTable) WHERE \(condition)"
        }
        let statement = try db.makeStatement(sql: sql)
        statements[name] = statement
        last = (name, statement)
        return statement
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
