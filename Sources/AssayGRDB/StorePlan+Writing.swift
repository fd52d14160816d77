import AssayCore
import Foundation
import GRDB

extension StorePlan {
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
                let written = try Self.writeThroughGRDB(
                    entry.record, kind: entry.kind, checked: entry.row, writer: entry.info.writer,
                    hasOwnWillInsert: entry.info.hasOwnWillInsert == true, in: db)
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
    static func writeThroughGRDB<R: ValidatedRecord>(
        _ record: R, kind: StagedChange.Kind, checked: EncodedRow, writer: RecordWriter?, hasOwnWillInsert: Bool,
        in db: Database
    ) throws -> any ValidatedRecord {
        let write = WriteScope.CheckedWrite(type: ObjectIdentifier(R.self), kind: kind, row: checked)
        let written = try WriteScope.$checkedWrite.withValue(write) { () throws -> any ValidatedRecord in
            if let writer { return try writer.write(record, kind, db) }
            var record = record
            switch kind {
            case .insert: try record.insert(db)
            case .update: try record.update(db)
            case .delete: _ = try record.delete(db)
            }
            return record
        }
        if kind == .insert, hasOwnWillInsert, !write.isClaimed {
            // The record GRDB wrote was checked on its own, but it is not the one the change set checked.
            throw StoreConfigurationError(
                description: """
                    \(R.databaseTableName): the type's willInsert changed the record again when the change set \
                    wrote it. A change set runs willInsert before its checks and GRDB runs it again on the record \
                    as checked, so it must leave a prepared record as it is (set a value only when it is missing)
                    """)
        }
        return written
    }

    /// Sets one column of each of the update's unique rules to a temporary value no row holds, so the
    /// row gives up its unique values before another row takes them; its own write comes later.
    func park(_ entry: Entry, in db: Database) throws {
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
    static func temporaryValue(like value: DatabaseValue, in table: String, column: String, db: Database)
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

}
