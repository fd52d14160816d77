/// Every issue found in one validation, thrown once: the "multiple errors" error.
///
/// The aggregate keeps issues in the order they were found, never nests (appending an aggregate
/// appends its issues), and can be capped: errors past ``limit`` and warnings past ``warningLimit``
/// are dropped and counted (``droppedErrorCount``, ``droppedWarningCount``), and ``isTruncated`` is
/// set. The two are capped separately, so warnings can never crowd an error out: an aggregate holds
/// an error whenever one was appended.
///
/// <!-- snippet: doc-validation-error -->
/// ```swift
/// do {
///     try player.validate(for: .insert)
/// } catch {
///     for issue in error.issues {
///         print(issue.path.jsonPointer, issue.message)  // /age Age must be between 16 and 50
///     }
///     print(error.json())  // {"valid":false,"errors":[{"instanceLocation":"/age"
/// }
/// ```
public struct ValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The issues, in the order they were found.
    public private(set) var issues: [ValidationIssue]
    /// The most errors kept, or `nil` for no limit.
    public let limit: Int?
    /// The most warnings kept, or `nil` for no limit (the same as ``limit`` unless set apart).
    public let warningLimit: Int?
    /// How many errors were dropped because ``limit`` was reached (here or in an aggregate appended).
    public private(set) var droppedErrorCount: Int
    /// How many warnings were dropped because ``warningLimit`` was reached.
    public private(set) var droppedWarningCount: Int
    /// Whether the aggregate was cut short by a check that stopped early (``markTruncated()``).
    private var cutShort: Bool
    private var errorCount: Int
    private var warningCount: Int

    /// Whether issues were dropped: past a limit, or before they reached the aggregate.
    public var isTruncated: Bool { cutShort || droppedErrorCount > 0 || droppedWarningCount > 0 }

    /// Makes an aggregate of `issues`, keeping at most `limit` errors and `warningLimit` warnings
    /// (when `warningLimit` is `nil`, `limit` warnings).
    public init(_ issues: [ValidationIssue] = [], limit: Int? = nil, warningLimit: Int? = nil) {
        self.issues = []
        self.limit = limit.map { max(0, $0) }
        self.warningLimit = (warningLimit ?? limit).map { max(0, $0) }
        droppedErrorCount = 0
        droppedWarningCount = 0
        cutShort = false
        errorCount = 0
        warningCount = 0
        append(contentsOf: issues)
    }

    /// Makes an aggregate of one issue.
    public init(_ issue: ValidationIssue) { self.init([issue]) }

    /// Whether there are no issues at all.
    public var isEmpty: Bool { issues.isEmpty }

    /// Whether any issue is an error (warnings alone leave a value valid). An error dropped past
    /// the limit counts: the aggregate is valid only if no error was ever appended.
    public var hasErrors: Bool { errorCount > 0 || droppedErrorCount > 0 }

    /// The issues that are errors.
    public var errors: [ValidationIssue] { issues.filter { $0.severity == .error } }

    /// The issues that are warnings.
    public var warnings: [ValidationIssue] { issues.filter { $0.severity == .warning } }

    /// Appends one issue, unless the limit of its severity is reached (then it is counted as dropped).
    public mutating func append(_ issue: ValidationIssue) {
        if issue.severity == .error {
            if let limit, errorCount >= limit {
                droppedErrorCount += 1
                return
            }
            errorCount += 1
        } else {
            if let warningLimit, warningCount >= warningLimit {
                droppedWarningCount += 1
                return
            }
            warningCount += 1
        }
        issues.append(issue)
    }

    /// Appends issues in order, unless the limit is reached.
    public mutating func append<S: Sequence>(contentsOf newIssues: S) where S.Element == ValidationIssue {
        for issue in newIssues { append(issue) }
    }

    /// Marks the aggregate as cut short: issues were dropped before they reached it (e.g. a check
    /// that stopped at its own limit).
    public mutating func markTruncated() { cutShort = true }

    /// Counts issues dropped before they reached the aggregate (e.g. by a decoder that caps what it
    /// collects), as if they had been appended past the limits.
    public mutating func countDropped(errors: Int, warnings: Int) {
        droppedErrorCount += max(0, errors)
        droppedWarningCount += max(0, warnings)
    }

    /// Appends the issues of another aggregate (flattening it) and keeps its truncation.
    public mutating func append(contentsOf other: ValidationError) {
        append(contentsOf: other.issues)
        absorbTruncation(of: other)
    }

    private mutating func absorbTruncation(of other: ValidationError) {
        countDropped(errors: other.droppedErrorCount, warnings: other.droppedWarningCount)
        if other.cutShort { cutShort = true }
    }

    /// Appends any error: an aggregate is flattened; another error becomes one issue with code
    /// `custom("error")`, its description as the message.
    public mutating func append(error: any Error, at path: IssuePath = .root, phase: Phase = .property) {
        if let aggregate = error as? ValidationError {
            append(contentsOf: aggregate.issues.map { $0.prefixingPath(path) })
            absorbTruncation(of: aggregate)
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

    /// A line saying what was dropped (`… 3 more errors and 1 more warning were not kept`), or `nil`
    /// when nothing was.
    public var truncationSummary: String? {
        guard isTruncated else { return nil }
        var parts: [String] = []
        if droppedErrorCount > 0 { parts.append("\(droppedErrorCount) more error\(droppedErrorCount == 1 ? "" : "s")") }
        if droppedWarningCount > 0 {
            parts.append("\(droppedWarningCount) more warning\(droppedWarningCount == 1 ? "" : "s")")
        }
        let limits = [limit.map { "\($0) errors" }, warningLimit.map { "\($0) warnings" }].compactMap { $0 }
        let kept = limits.isEmpty ? "" : " (kept at most " + limits.joined(separator: " and ") + ")"
        guard !parts.isEmpty else { return "… more issues were not kept" + kept }
        let verb = droppedErrorCount + droppedWarningCount == 1 ? " was" : " were"
        return "… " + parts.joined(separator: " and ") + verb + " not kept" + kept
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
