/// A check of one value, usable anywhere: alone, on a model's property, while decoding, before a
/// save, and exported to JSON Schema.
///
/// Build rules from the factories (``range(_:)-(ClosedRange<Value>)``, `length(_:unit:)`,
/// ``pattern(_:)-(String)``, `email(_:)`, ``each(_:)`` …) and combine them with
/// ``and(_:)-type.method``, ``or(_:)-type.method`` and ``not(_:)``. Evaluate one with
/// ``evaluate(_:label:)``, which returns the value or throws
/// every issue found:
///
/// <!-- snippet: doc-rule -->
/// ```swift
/// let age = Rule<Int>.range(1...150)
/// print((try? age.evaluate(35)) ?? 0)  // 35
/// do {
///     try age.evaluate(150_000)
/// } catch {
///     print(error.text(in: .english))  // Value must be between 1 and 150
/// }
/// ```
///
/// A rule never traps on any input. For optional values use ``optional``: `nil` passes every rule,
/// and presence is its own rule (``required()``).
public struct Rule<Value>: Sendable {
    /// What the rule checks, as data: its kind and parameters. Schema export reads it.
    public let kind: RuleKind
    /// The severity of the issues the rule reports, as declared with ``severity(_:)``: only a rule
    /// of severity ``Severity/error`` is exported as a JSON Schema assertion.
    public let severity: Severity
    let body: @Sendable (Value, inout RuleContext) -> Void
    /// The same check of the value as the input holds it (a JSON value), when the rule can read one
    /// (a check against a JSON Schema): run on a member whose elements did not all decode, so that
    /// its failures are reported beside theirs.
    @usableFromInline package let inputCheck: (@Sendable (Any, inout RuleContext) -> Void)?

    /// Makes a rule from a closure that reports issues into a context.
    ///
    /// <!-- snippet: doc-rule-custom -->
    /// ```swift
    /// let even = Rule<Int>(.custom("even")) { value, context in
    ///     if value % 2 != 0 { context.report(.custom("even"), value: value, message: "{subject} must be even") }
    /// }
    /// print(even.issues(for: 3, label: "Count")[0].message(in: .english))  // Count must be even
    /// ```
    public init(_ kind: RuleKind, _ body: @escaping @Sendable (Value, inout RuleContext) -> Void) {
        self.init(kind, severity: .error, body)
    }

    @usableFromInline
    init(_ kind: RuleKind, severity: Severity, _ body: @escaping @Sendable (Value, inout RuleContext) -> Void) {
        self.kind = kind
        self.severity = severity
        self.body = body
        self.inputCheck = nil
    }

    /// A rule that can check the input's value too (``inputCheck``).
    @usableFromInline
    package init(
        _ kind: RuleKind, severity: Severity, _ body: @escaping @Sendable (Value, inout RuleContext) -> Void,
        inputCheck: (@Sendable (Any, inout RuleContext) -> Void)?
    ) {
        self.kind = kind
        self.severity = severity
        self.body = body
        self.inputCheck = inputCheck
    }

    /// The kind as a rule that combines this one records it: advice (another severity than
    /// ``Severity/error``) marked as such.
    @usableFromInline
    var nestedKind: RuleKind { severity == .error ? kind : .advisory(kind, severity) }

    /// Checks `value` and reports every issue into `context`.
    public func check(_ value: Value, in context: inout RuleContext) {
        body(value, &context)
    }

    /// The issues `value` has, in order; empty when it is valid.
    public func issues(for value: Value, at path: IssuePath = .root, label: String? = nil) -> [ValidationIssue] {
        var context = RuleContext(path: path, label: label)
        body(value, &context)
        return context.issues
    }

    /// Whether `value` has no error.
    public func isValid(_ value: Value) -> Bool {
        !issues(for: value).contains { $0.severity == .error }
    }

    /// Returns `value` when it passes, or throws every issue it has.
    ///
    /// - Throws: ``ValidationError`` with every issue, when any of them is an error.
    @discardableResult
    public func evaluate(_ value: Value, label: String? = nil) throws(ValidationError) -> Value {
        try throwingIssues(of: value, label: label)
    }

    private func throwingIssues(of value: Value, label: String?) throws(ValidationError) -> Value {
        let found = issues(for: value, label: label)
        if found.contains(where: { $0.severity == .error }) { throw ValidationError(found) }
        return value
    }
}
