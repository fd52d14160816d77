import AssayCore
import GRDB

/// What a validated fetch does with a row that does not pass its record's rules (written by an older
/// version of the app, or by another tool).
public enum InvalidRowPolicy: Sendable, Hashable {
    /// Throw one `ValidationError` with the issues of every invalid row.
    case throwError
    /// Leave invalid rows out of the records, and report their issues.
    case skip
    /// Return every row that could be decoded, with the issues of the invalid ones.
    case keep
}

/// The result of a validated fetch: the records, and the issues of the rows that failed their rules.
public struct ValidatedRows<Record> {
    /// The records returned under the policy, in the order the rows were read.
    public var records: [Record]
    /// Every issue of every invalid row, each carrying the row's table and primary key.
    public var issues: [ValidationIssue]
    /// The rows left out: those that failed under ``InvalidRowPolicy/skip`` and, under any policy,
    /// those that could not be decoded at all.
    public var skipped: [ObjectReference]
}

extension ValidatedRows: Sendable where Record: Sendable {}

/// One row read back and checked: its record (when the row could become one), its reference (table
/// and primary key) and its issues.
public struct ValidatedRow<Record> {
    /// The record, `nil` when the row could not be decoded into one (its issues say why).
    public var record: Record?
    /// The row's table and primary key, as its issues name it.
    public var reference: ObjectReference
    /// Every issue of the row, each carrying ``reference``.
    public var issues: [ValidationIssue]

    /// Whether the row has an error.
    public var isValid: Bool { record != nil && !issues.contains { $0.severity == .error } }
}

extension ValidatedRow: Sendable where Record: Sendable {}

/// The rows of a request, each read and checked as it is reached (``ValidatedRecord/fetchCursorValidated(_:_:)``):
/// a large table is checked without holding it.
public final class ValidatedRowCursor<Record: ValidatedRecord & FetchableRecord>: Cursor {
    private let rows: RowCursor
    private let keyColumns: [String]
    private let db: Database
    /// Whether each row's store rules are checked as it is reached (a fetch of all rows checks them
    /// together, in batches).
    private let checksStoreRules: Bool

    init(_ db: Database, _ request: some FetchRequest, checkingStoreRules: Bool = true) throws {
        keyColumns = try db.primaryKey(Record.databaseTableName).columns
        rows = try Row.fetchCursor(db, request)
        self.db = db
        checksStoreRules = checkingStoreRules && !Record.storeRules.rules.isEmpty
    }

    /// The next row, checked; `nil` after the last.
    public func next() throws -> ValidatedRow<Record>? {
        guard let row = try rows.next() else { return nil }
        var checked = [try Record.check(row, keyColumns: keyColumns)]
        if checksStoreRules { try Record.checkStoreRules(of: &checked, in: db) }
        return checked[0]
    }
}

extension ValidatedRecord where Self: FetchableRecord {
    /// The rows of the request, each checked as the cursor reaches it (a large table is never held
    /// whole): what ``fetchAllValidated(_:_:policy:)`` does, row by row, leaving the policy to the
    /// caller.
    ///
    /// <!-- snippet: doc-fetch-cursor -->
    /// ```swift
    /// let rows = try Player.fetchCursorValidated(db, Player.all())
    /// while let row = try rows.next() {
    ///     if let player = row.record, row.isValid {
    ///         print(player.name)  // Ann Lee
    ///     } else {
    ///         print(row.issues.map(\.message))  // ["Age must be between 16 and 50"]
    ///     }
    /// }
    /// ```
    ///
    /// - Throws: A database error.
    public static func fetchCursorValidated(_ db: Database, _ request: some FetchRequest) throws
        -> ValidatedRowCursor<Self>
    {
        try ValidatedRowCursor(db, request)
    }

    /// Fetches every row of the request and checks each record as a save would: the rules that apply
    /// to an update (those without `on:` and those naming `.update`), and whether the normalisers
    /// would change the stored value (`IssueCode.notNormalized`). Store rules (unique
    /// values, parents, counts) are not checked on read: the save that wrote the row did, and
    /// SQLite's constraints keep them.
    ///
    /// A row that cannot be decoded into the record (a `NULL` in a non-optional column) is reported as
    /// `IssueCode.malformed` and is never returned. A value that SQLite converted on the way
    /// (text in an integer column reads as `0`) is caught by encoding the record again and comparing it
    /// with the row, and reported as `IssueCode.typeMismatch`. A type that validates while
    /// decoding (AssayCodable's `@Validatable`) reports its rule issues from the decoding; such a row
    /// cannot become a record, so it is left out under every policy.
    ///
    /// <!-- snippet: doc-fetch-all -->
    /// ```swift
    /// let fetched = try Player.fetchAllValidated(db, policy: .skip)
    /// for issue in fetched.issues {
    ///     print(issue.object?.description ?? "", issue.message)  // player#2 Age must be between 16 and 50
    /// }
    /// print(fetched.records.map(\.name))  // ["Ann Lee"]
    /// ```
    ///
    /// In a `ValueObservation` it checks every new value of the observed rows:
    /// `ValueObservation.tracking { db in try Player.fetchAllValidated(db, policy: .keep) }`.
    ///
    /// - Parameters:
    ///   - db: A database connection.
    ///   - request: The rows to read.
    ///   - policy: What to do with invalid rows.
    /// - Throws: `ValidationError` under ``InvalidRowPolicy/throwError`` when a row is
    ///   invalid; a database error.
    public static func fetchAllValidated(
        _ db: Database, _ request: some FetchRequest, policy: InvalidRowPolicy = .throwError
    ) throws -> ValidatedRows<Self> {
        var result = ValidatedRows<Self>(records: [], issues: [], skipped: [])
        let cursor = try ValidatedRowCursor<Self>(db, request, checkingStoreRules: false)
        var checked: [ValidatedRow<Self>] = []
        while let row = try cursor.next() { checked.append(row) }
        if !storeRules.rules.isEmpty { try checkStoreRules(of: &checked, in: db) }
        for row in checked {
            result.issues += row.issues
            guard let record = row.record else {
                result.skipped.append(row.reference)
                continue
            }
            if !row.isValid && policy == .skip {
                result.skipped.append(row.reference)
            } else {
                result.records.append(record)
            }
        }
        if policy == .throwError { try ValidationError(result.issues).throwIfErrors() }
        return result
    }

    /// The first row of the request, checked as ``fetchAllValidated(_:_:policy:)`` checks each: the
    /// record, or `nil` when there is no row.
    ///
    /// - Throws: `ValidationError` with the row's issues when it is invalid; a database error.
    public static func fetchOneValidated(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        let rows = try fetchCursorValidated(db, request)
        guard let row = try rows.next() else { return nil }
        try ValidationError(row.issues).throwIfErrors()
        return row.record
    }

    /// The row whose primary key is `key`, checked (see ``fetchOneValidated(_:_:)``).
    ///
    /// - Throws: `ValidationError` when the row is invalid; a database error.
    public static func fetchOneValidated(_ db: Database, key: some DatabaseValueConvertible) throws -> Self? {
        try fetchOneValidated(db, filter(key: key))
    }

    /// One row read back: decoded, round-tripped and checked.
    static func check(_ row: Row, keyColumns: [String]) throws -> ValidatedRow<Self> {
        let key = keyColumns.map { row[$0] as DatabaseValue? ?? .null }
        let reference = ObjectReference(
            entity: databaseTableName, id: key.contains(where: \.isNull) ? nil : StorePlan.render(key))
        func located(_ issues: [ValidationIssue]) -> [ValidationIssue] {
            issues.map { issue in
                var issue = issue
                issue.object = reference
                return issue
            }
        }
        let record: Self
        do {
            record = try Self(row: row)
        } catch let error as ValidationError {
            // A type that validates while decoding (AssayCodable's @Validatable) reports its rules
            // here; the row cannot become a record.
            return ValidatedRow(record: nil, reference: reference, issues: located(error.issues))
        } catch {
            let issue = ValidationIssue(
                code: .malformed, object: reference, parameters: ["detail": .string("\(error)")], phase: .decode)
            return ValidatedRow(record: nil, reference: reference, issues: [issue])
        }
        let checked = validation.run(on: record, operation: .update, object: reference)
        let stored = try record.databaseDictionary
        var issues = lossyColumns(encoded: stored, in: row) + checked.issues
        if validation.hasNormalizers {
            for (column, value) in try checked.model.databaseDictionary where stored[column] != value {
                issues.append(
                    ValidationIssue(
                        code: .notNormalized, path: IssuePath.root.appending(key: column),
                        parameters: ["expected": StorePlan.issueValue(value)],
                        value: stored[column].map(StorePlan.issueValue), phase: .decode))
            }
        }
        return ValidatedRow(record: record, reference: reference, issues: located(issues))
    }

    /// The columns whose stored value the record does not give back when encoded: SQLite converts
    /// leniently (text read as an integer becomes 0), so a value of the wrong type is caught by the
    /// round trip.
    /// Adds to each decoded row the issues of its type's store rules, checked as an update of the
    /// row by itself: its unique values are its own, its parents exist, its to-many counts are kept.
    /// Issues about other records (a parent's count, noted while checking a child) are left to
    /// the fetch of those records.
    static func checkStoreRules(of rows: inout [ValidatedRow<Self>], in db: Database) throws {
        let changes = rows.compactMap { row in row.record.map { StagedChange(.update, $0) } }
        guard !changes.isEmpty else { return }
        let plan = try StorePlan(staging: changes, in: db, checkingValues: false)
        var byReference: [ObjectReference: [ValidationIssue]] = [:]
        for issue in plan.issues {
            guard let reference = issue.object else { continue }
            byReference[reference, default: []].append(issue)
        }
        guard !byReference.isEmpty else { return }
        for index in rows.indices where rows[index].record != nil {
            rows[index].issues += byReference[rows[index].reference] ?? []
        }
    }

    private static func lossyColumns(encoded: [String: DatabaseValue], in row: Row) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        for (column, stored) in row {
            guard let written = StorePlan.value(in: encoded, column), written != stored else { continue }
            issues.append(
                ValidationIssue(
                    code: .typeMismatch, path: IssuePath.root.appending(key: column),
                    parameters: ["expected": .string(storageClass(of: written))], value: StorePlan.issueValue(stored),
                    valueType: storageClass(of: stored), phase: .decode))
        }
        return issues
    }

    private static func storageClass(of value: DatabaseValue) -> String {
        switch value.storage {
        case .null: return "null"
        case .int64: return "integer"
        case .double: return "real"
        case .string: return "text"
        case .blob: return "blob"
        }
    }

    /// Fetches every row of the table and checks each record (see
    /// ``fetchAllValidated(_:_:policy:)``).
    public static func fetchAllValidated(_ db: Database, policy: InvalidRowPolicy = .throwError) throws
        -> ValidatedRows<Self>
    {
        try fetchAllValidated(db, all(), policy: policy)
    }
}
