import AssayCore
import GRDB

extension StorePlan {
    // MARK: Relationships

    /// A parent as children refer to it: the value of one of its columns.
    struct ParentKey: Hashable {
        let table: String
        let column: String
        let value: DatabaseValue
    }

    mutating func checkRelationships() throws {
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
            // A row read back is its own old row.
            if kind != .insert, checksValues, let key = entries[index].key {
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
    mutating func resolvedParentColumns(of info: TypeInfo) throws -> [String] {
        if let known = info.parentColumns { return known }
        let columns = try info.links.map { link in
            try schema.referencedColumn(of: link.parentTable, key: link.parentKey)
        }
        info.parentColumns = columns
        return columns
    }

    /// Below this many distinct values, the database is asked value by value; above, in batches.
    static let batchThreshold = 32
    static let batchSize = 500

    struct ChildColumn: Hashable {
        let table: String
        let column: String
    }

    /// Looks up in batches whether the parents that many records refer to exist (a large import refers
    /// to thousands), filling `exists`.
    mutating func prefetchParents(into exists: inout [ParentKey: Bool], staged: inout StagedChildren) throws {
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
    mutating func prefetchCounts(of parents: [(key: ParentKey, value: [HasManyRelation])]) throws
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
    mutating func parentExists(_ parent: ParentKey, staged: inout StagedChildren) throws -> Bool {
        if staged.count(in: parent.table, column: parent.column, value: parent.value) > 0 { return true }
        let stored = try schema.keys(in: parent.table, where: [parent.column], equal: [parent.value])
        return stored.contains { replaced[parent.table]?.contains($0) != true }
    }

}

/// The staged inserts and updates of each child table, counted by the value of a column.
struct StagedChildren {
    let entries: [StorePlan.Entry]
    /// For each child table and column, how many staged rows hold each value.
    var counts: [String: [DatabaseValue: Int]] = [:]

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
