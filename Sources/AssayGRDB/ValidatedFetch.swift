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

extension ValidatedRecord where Self: FetchableRecord {
    /// Fetches every row of the request and checks each record with an on-demand validation.
    ///
    /// A row that cannot be decoded into the record (a `NULL` in a non-optional column) is reported as
    /// `IssueCode.malformed` and is never returned. A value that SQLite converted on the way
    /// (text in an integer column reads as `0`) is caught by encoding the record again and comparing it
    /// with the row, and reported as `IssueCode.typeMismatch`. A type that validates while
    /// decoding (AssayCodable's `@Validatable`) reports its rule issues from the decoding; such a row
    /// cannot become a record, so it is left out under every policy.
    ///
    /// ```swift
    /// let fetched = try Player.fetchAllValidated(db, policy: .skip)
    /// for issue in fetched.issues { log(issue) }
    /// show(fetched.records)
    /// ```
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
        let keyColumns = try db.primaryKey(databaseTableName).columns
        let rows = try Row.fetchCursor(db, request)
        while let row = try rows.next() {
            let key = keyColumns.map { row[$0] as DatabaseValue? ?? .null }
            let reference = ObjectReference(
                entity: databaseTableName,
                id: key.contains(where: \.isNull) ? nil : StorePlan.render(key))
            let record: Self
            do {
                record = try Self(row: row)
            } catch let error as ValidationError {
                // A type that validates while decoding (AssayCodable's @Validatable) reports its rules
                // here; the row cannot become a record.
                result.issues += error.issues.map { issue in
                    var issue = issue
                    issue.object = reference
                    return issue
                }
                result.skipped.append(reference)
                continue
            } catch {
                result.issues.append(
                    ValidationIssue(
                        code: .malformed, object: reference, parameters: ["detail": .string("\(error)")],
                        phase: .decode))
                result.skipped.append(reference)
                continue
            }
            var issues = try lossyColumns(of: record, in: row) + record.issues()
            guard !issues.isEmpty else {
                result.records.append(record)
                continue
            }
            for index in issues.indices { issues[index].object = reference }
            result.issues += issues
            let invalid = issues.contains { $0.severity == .error }
            if invalid && policy == .skip {
                result.skipped.append(reference)
            } else {
                result.records.append(record)
            }
        }
        if policy == .throwError { try ValidationError(result.issues).throwIfErrors() }
        return result
    }

    /// The columns whose stored value the record does not give back when encoded: SQLite converts
    /// leniently (text read as an integer becomes 0), so a value of the wrong type is caught by the
    /// round trip.
    private static func lossyColumns(of record: Self, in row: Row) throws -> [ValidationIssue] {
        let encoded = try record.databaseDictionary
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
