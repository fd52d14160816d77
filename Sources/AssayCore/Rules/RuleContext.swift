/// Where a rule reports its issues, and what it knows about the value's place.
///
/// Rules call ``report(_:value:parameters:messageKey:message:severity:)``; the context fills in the
/// path, label, phase and object. Nested rules (``Rule/each(_:)``) check elements at a deeper path
/// with ``check(_:with:at:)``.
public struct RuleContext: Sendable {
    /// The path of the value being checked.
    ///
    /// Read it (and ``label``) to word an issue, not to decide whether there is one: a model is
    /// first checked without extending the path for each property, and only a model with an issue
    /// is checked again with its full path.
    public var path: IssuePath
    /// The human name of the value, if known.
    public var label: String?
    /// The phase issues are reported in.
    public var phase: Phase
    /// The object the value belongs to, if any.
    public var object: ObjectReference?
    /// Where the rule is declared, recorded on issues, e.g. `"Client.age"`.
    public var ruleLocation: String?
    /// Whether offending values are left out of issues.
    public var redactsValues: Bool
    /// The issues reported so far, in order.
    public internal(set) var issues: [ValidationIssue]
    /// Whether issues are located as they are found: the path extended for each property and
    /// element, the label and the rule's location set. A first pass over a value that is usually
    /// valid runs without (``Validation`` does, and the trials of `or` and `not`, whose issues are
    /// not kept); where it reports anything, the pass runs again, locating. Rules read ``path`` and
    /// ``label`` to word what they report, not to decide whether to report, so both passes find the
    /// same issues.
    @usableFromInline var locatesIssues: Bool

    /// Makes an empty context for a value at `path`.
    public init(
        path: IssuePath = .root, label: String? = nil, phase: Phase = .property, object: ObjectReference? = nil,
        ruleLocation: String? = nil, redactsValues: Bool = false
    ) {
        self.path = path
        self.label = label
        self.phase = phase
        self.object = object
        self.ruleLocation = ruleLocation
        self.redactsValues = redactsValues
        self.issues = []
        self.locatesIssues = true
    }

    /// A context that does not locate issues (see ``locatesIssues``): it only tells whether there
    /// are any.
    @usableFromInline
    init(unlocatedIn phase: Phase) {
        // Every property set here, not through the other initialiser: the context would be copied.
        path = IssuePath()
        label = nil
        self.phase = phase
        object = nil
        ruleLocation = nil
        redactsValues = false
        issues = []
        locatesIssues = false
    }

    /// Whether any error was reported.
    public var hasErrors: Bool { issues.contains { $0.severity == .error } }

    /// Reports an issue about the value at this context's path.
    ///
    /// - Parameters:
    ///   - code: What failed.
    ///   - value: The offending value (recorded unless values are redacted).
    ///   - parameters: The rule's parameters, available to the message as `{name}`.
    ///   - messageKey: The catalog key of the message; defaults to the code's identifier.
    ///   - message: A message of the rule's own, which wins over the catalogs.
    ///   - severity: Error (default) or warning.
    public mutating func report(
        _ code: IssueCode, value: Any? = nil, parameters: [String: IssueValue] = [:], messageKey: String? = nil,
        message: MessageTemplate? = nil, severity: Severity = .error
    ) {
        let recorded: IssueValue? = value.map { redactsValues ? .redacted : IssueValue($0) }
        issues.append(
            ValidationIssue(
                code: code, path: path, object: object, ruleLocation: ruleLocation, parameters: parameters,
                value: recorded, valueType: value.map { Self.typeName(of: $0) }, severity: severity, phase: phase,
                messageKey: messageKey, message: message, label: label))
    }

    /// Adds issues found elsewhere (e.g. by a nested validation), unchanged.
    public mutating func add<S: Sequence>(_ newIssues: S) where S.Element == ValidationIssue {
        issues.append(contentsOf: newIssues)
    }

    /// Checks `value` with `rule` at this path followed by `component`; its issues join this context.
    ///
    /// Inlinable, so it is specialised where the rules are declared: generic code would look up the
    /// metadata of `Rule<V>` for every value checked.
    @inlinable
    public mutating func check<V>(_ value: V, with rule: Rule<V>, at component: PathComponent? = nil) {
        guard locatesIssues else { return rule.check(value, in: &self) }
        let savedLabel = label
        let depth = path.components.count
        if let component {
            // In place: the path's storage is reused instead of copied for every element.
            path.components.append(component)
            if case .key = component { label = nil }
        }
        rule.check(value, in: &self)
        if path.components.count > depth { path.components.removeLast(path.components.count - depth) }
        label = savedLabel
    }

    static func typeName(of value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional, let child = mirror.children.first {
            return typeName(of: child.value)
        }
        return String(describing: type(of: value))
    }
}
