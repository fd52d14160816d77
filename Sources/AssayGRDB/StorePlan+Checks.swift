import AssayCore
import GRDB

extension StorePlan {
    // MARK: Conflict policies

    /// Applies the insert conflict policy of types whose `persistenceConflictPolicy` resolves a
    /// conflict instead of failing, as SQLite will: under `.ignore`, an insert whose key or unique
    /// values a stored row (or an earlier staged row) holds is left out of the store checks and the
    /// write (its value rules, checked already, still apply: an invalid record is refused either way);
    /// under `.replace`, the stored rows that hold them are deleted first (with their delete rules) and
    /// an earlier staged insert holding them is left out.
    mutating func applyInsertConflictPolicies() throws {
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
            var held: [(name: String, values: [DatabaseValue])] = []
            for columns in groups {
                let values = columns.map { entry.row[$0] ?? .null }
                if values.contains(where: \.isNull) { continue }
                let name = entry.table + "\u{0}" + columns.joined(separator: "\u{0}")
                held.append((name, values))
                if resolves {
                    if let holder = holders[name]?[values], !left.contains(holder) { earlier.append(holder) }
                    for key in try schema.keys(in: entry.table, where: columns, equal: values)
                    where replaced[entry.table]?.contains(key) != true
                        && deletedKeys[entry.table]?.contains(key) != true
                    {
                        stored.append(key)
                    }
                }
            }
            let ignored = resolves && entry.info.insertResolution == .ignore && !(earlier.isEmpty && stored.isEmpty)
            // An insert left out holds nothing; any other row holds its values for the rows after it.
            if !ignored {
                for (name, values) in held { holders[name, default: [:]][values] = index }
            }
            guard resolves, !earlier.isEmpty || !stored.isEmpty else { continue }
            if ignored {
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
    mutating func deleteStored<Record: ValidatedRecord & FetchableRecord>(
        _ type: Record.Type, row: [String: DatabaseValue]
    ) throws {
        try addDerived(type, row: row, kind: .delete)
    }

    // MARK: Staged rows

    /// Checks what the save's statements need of the stored rows: a record is staged at most once (or
    /// deleted, then inserted again: a replacement), an update's row is stored, and an insert's primary
    /// key is free after the set's deletes.
    mutating func checkStagedRows() throws {
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

    // MARK: Delete rules

    /// Reports a deleted row that rows of another table still refer to through a foreign key SQLite
    /// enforces without an action of its own (`NO ACTION`, `RESTRICT`) and that no `hasMany` rule of
    /// the record's type covers: the commit would fail. Rows the set deletes, or moves to another
    /// parent, no longer refer to it; a row deleted and inserted again with the same key is still there.
    mutating func checkForeignKeysOfDeletes() throws {
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
    mutating func applyDeleteRules() throws {
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

    mutating func apply(_ relation: HasManyRelation, toDeleted parent: Entry) throws {
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
    mutating func addDerived<Child: ValidatedRecord & FetchableRecord>(
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

    mutating func checkUniqueness() throws {
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

}
