/// Every issue found in one validation, thrown once: the "multiple errors" error.
///
/// The aggregate keeps issues in the order they were found, never nests (appending an aggregate
/// appends its issues), and can be capped: past ``limit`` issues it drops the rest and sets
/// ``isTruncated``.
///
/// ```swift
/// do {
///     try player.validate(for: .insert)
/// } catch {
///     for issue in error.issues { print(issue.path.jsonPointer, issue.message) }
///     print(error.json())   // the JSON Schema "basic" output shape
/// }
/// ```
public struct ValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The issues, in the order they were found.
    public private(set) var issues: [ValidationIssue]
    /// Whether issues were dropped because ``limit`` was reached.
    public private(set) var isTruncated: Bool
    /// The most issues kept, or `nil` for no limit.
    public let limit: Int?

    /// Makes an aggregate of `issues`, keeping at most `limit` of them.
    public init(_ issues: [ValidationIssue] = [], limit: Int? = nil) {
        self.issues = []
        self.isTruncated = false
        self.limit = limit.map { max(0, $0) }
        append(contentsOf: issues)
    }

    /// Makes an aggregate of one issue.
    public init(_ issue: ValidationIssue) { self.init([issue]) }

    /// Whether there are no issues at all.
    public var isEmpty: Bool { issues.isEmpty }

    /// Whether any issue is an error (warnings alone leave a value valid).
    public var hasErrors: Bool { issues.contains { $0.severity == .error } }

    /// The issues that are errors.
    public var errors: [ValidationIssue] { issues.filter { $0.severity == .error } }

    /// The issues that are warnings.
    public var warnings: [ValidationIssue] { issues.filter { $0.severity == .warning } }

    /// Appends one issue, unless the limit is reached.
    public mutating func append(_ issue: ValidationIssue) {
        if let limit, issues.count >= limit {
            isTruncated = true
            return
        }
        issues.append(issue)
    }

    /// Appends issues in order, unless the limit is reached.
    public mutating func append<S: Sequence>(contentsOf newIssues: S) where S.Element == ValidationIssue {
        for issue in newIssues { append(issue) }
    }

    /// Marks the aggregate as cut short: issues were dropped before they reached it (e.g. a check
    /// that stopped at its own limit).
    public mutating func markTruncated() { isTruncated = true }

    /// Appends the issues of another aggregate (flattening it) and keeps its truncation.
    public mutating func append(contentsOf other: ValidationError) {
        append(contentsOf: other.issues)
        if other.isTruncated { isTruncated = true }
    }

    /// Appends any error: an aggregate is flattened; another error becomes one issue with code
    /// `custom("error")`, its description as the message.
    public mutating func append(error: any Error, at path: IssuePath = .root, phase: Phase = .property) {
        if let aggregate = error as? ValidationError {
            append(contentsOf: aggregate.issues.map { $0.prefixingPath(path) })
            if aggregate.isTruncated { isTruncated = true }
        } else {
            append(
                ValidationIssue(
                    code: .custom("error"), path: path, phase: phase,
                    message: MessageTemplate(String(describing: error))))
        }
    }

    /// Throws `self` when any issue is an error.
    public func throwIfErrors() throws(ValidationError) {
        if hasErrors { throw self }
    }

    /// The aggregate with every offending value redacted.
    public func redacted() -> ValidationError {
        var copy = self
        copy.issues = issues.map { $0.redacted() }
        return copy
    }

    /// The issues grouped by path, in the order each path first appears; the shape a form needs
    /// to show messages next to fields.
    public var groupedByPath: [IssueGroup] {
        var order: [IssuePath] = []
        var groups: [IssuePath: [ValidationIssue]] = [:]
        for issue in issues {
            if groups[issue.path] == nil { order.append(issue.path) }
            groups[issue.path, default: []].append(issue)
        }
        return order.map { IssueGroup(path: $0, issues: groups[$0]!) }
    }

    /// The issues as text, one per line (see ``text(in:catalog:)``).
    public var description: String { text() }
}

/// The issues of one path.
public struct IssueGroup: Sendable, Hashable {
    /// The path the issues are about.
    public var path: IssuePath
    /// The issues, in order.
    public var issues: [ValidationIssue]
}

extension ValidationIssue {
    /// The issue with `prefix` put before its path.
    public func prefixingPath(_ prefix: IssuePath) -> ValidationIssue {
        guard !prefix.isRoot else { return self }
        var copy = self
        copy.path = path.prefixed(by: prefix)
        return copy
    }
}
