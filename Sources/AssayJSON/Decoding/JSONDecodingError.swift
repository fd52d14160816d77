import AssayCore

/// Why a value could not be decoded, and where: the coding path, the JSON Pointer, and the line and
/// column of the offending value in the input.
///
/// ```text
/// /clients/1/age (clients[1].age), line 3, column 27: expected Int, found string "12"
/// ```
public struct JSONDecodingError: Error, Sendable, CustomStringConvertible {
    /// The failure as an issue record: `IssueCode/typeMismatch`, `IssueCode/missing`,
    /// `IssueCode/malformed` (input that is not JSON), `invalidFormat("date-time")`, or
    /// `custom("decoding")` for errors thrown by a type's own `init(from:)`.
    public let issue: ValidationIssue
    /// The 1-based line of the offending value, when the input was text.
    public let line: Int?
    /// The 1-based column of the offending value, in Unicode scalars.
    public let column: Int?
    /// The parse error, when the input was not JSON at all.
    public let parseError: JSONParseError?
    /// What went wrong, in English.
    public let detail: String

    /// The path of the offending value.
    public var path: IssuePath { issue.path }
    /// The path as a JSON Pointer: `/clients/1/age`.
    public var jsonPointer: String { issue.path.jsonPointer }
    /// The path as a coding path: `clients[1].age`.
    public var codingPath: String { issue.path.codingPath }

    /// `pointer (coding path), line L, column C: detail`.
    public var description: String {
        var location = jsonPointer.isEmpty ? "(root)" : jsonPointer
        if !codingPath.isEmpty && codingPath != jsonPointer.dropFirst() { location += " (\(codingPath))" }
        if let line, let column { location += ", line \(line), column \(column)" }
        return "\(location): \(detail)"
    }
}
