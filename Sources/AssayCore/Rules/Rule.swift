/// A check of one value, usable anywhere: alone, on a model's property, while decoding, before a
/// save, and exported to JSON Schema.
///
/// Build rules from the factories (``range(_:)-(ClosedRange<Value>)``, `length(_:unit:)`,
/// ``pattern(_:)-(String)``, `email(_:)`, ``each(_:)`` …) and combine them with
/// ``and(_:)-type.method``, ``or(_:)-type.method`` and ``not(_:)``. Evaluate one with
/// ``evaluate(_:label:)``, which returns the value or throws
/// every issue found:
///
/// ```swift
/// let age = Rule<Int>.range(1...150)
/// try age.evaluate(35)          // 35
/// try age.evaluate(150_000)     // throws ValidationError: "Value must be between 1 and 150"
/// ```
///
/// A rule never traps on any input. For optional values use ``optional``: `nil` passes every rule,
/// and presence is its own rule (``required()``).
public struct Rule<Value>: Sendable {
    /// What the rule checks, as data: its name and parameters (used to export JSON Schema).
    public let descriptor: RuleDescriptor
    let body: @Sendable (Value, inout RuleContext) -> Void

    /// Makes a rule from a closure that reports issues into a context.
    ///
    /// ```swift
    /// let even = Rule<Int>(.custom("even")) { value, context in
    ///     if value % 2 != 0 { context.report(.custom("even"), value: value, message: "{subject} must be even") }
    /// }
    /// ```
    public init(_ descriptor: RuleDescriptor, _ body: @escaping @Sendable (Value, inout RuleContext) -> Void) {
        self.descriptor = descriptor
        self.body = body
    }

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

/// What a rule checks, as data: a name (`"range"`, `"length"`, `"email"` …), its parameters and the
/// descriptors of the rules it combines. Schema export reads it.
public struct RuleDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// The rule's name, e.g. `"range"`.
    public var name: String
    /// The rule's parameters, e.g. `["minimum": 16, "maximum": 50]`.
    public var parameters: [String: IssueValue]
    /// The rules this one combines (for `and`, `or`, `not`, `each`).
    public var children: [RuleDescriptor]

    /// Makes a descriptor.
    public init(_ name: String, parameters: [String: IssueValue] = [:], children: [RuleDescriptor] = []) {
        self.name = name
        self.parameters = parameters
        self.children = children
    }

    /// A custom rule's descriptor.
    public static func custom(_ name: String) -> RuleDescriptor {
        RuleDescriptor("custom", parameters: ["name": .string(name)])
    }

    /// `name(key: value, …)`.
    public var description: String {
        var parts = parameters.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        parts += children.map(\.description)
        return parts.isEmpty ? name : "\(name)(\(parts.joined(separator: ", ")))"
    }
}
