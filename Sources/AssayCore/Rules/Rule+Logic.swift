extension Rule {
    /// The value passes every rule; reports the issues of all of them.
    public static func and(_ rules: Rule...) -> Rule { all(rules) }

    /// The value passes every rule; reports the issues of all of them.
    public static func all(_ rules: [Rule]) -> Rule {
        Rule(.all(rules.map(\.nestedKind))) { value, context in
            for rule in rules { rule.check(value, in: &context) }
        }
    }

    /// This rule and then `other`.
    public func and(_ other: Rule) -> Rule { .all([self, other]) }

    /// The value passes at least one rule. When none passes, reports one ``IssueCode/noMatch`` issue
    /// (the alternatives' own issues would contradict each other).
    public static func or(_ rules: Rule...) -> Rule { any(rules) }

    /// The value passes at least one rule; see ``or(_:)-type.method``.
    public static func any(_ rules: [Rule]) -> Rule {
        Rule(.any(rules.map(\.nestedKind))) { value, context in
            for rule in rules {
                // Only whether the alternative has errors counts: its issues are not located.
                var trial = RuleContext(unlocatedIn: context.phase)
                rule.check(value, in: &trial)
                if !trial.hasErrors { return }
            }
            context.report(.noMatch, value: value, parameters: ["count": .integer(rules.count)])
        }
    }

    /// This rule or `other`.
    public func or(_ other: Rule) -> Rule { .any([self, other]) }

    /// The value passes exactly one of `rules` (JSON Schema's `oneOf`). When none passes, reports
    /// one ``IssueCode/noMatch`` issue; when several do, one ``IssueCode/noMatch`` issue that says
    /// how many (the alternatives' own issues are not reported).
    ///
    /// <!-- snippet: doc-rule-exactly-one -->
    /// ```swift
    /// let code = Rule<String>.exactlyOne(.matches("^[A-Z]+$"), .length(...3))
    /// print(code.isValid("ABCD"), code.isValid("ab"), code.isValid("ABC"))  // true true false
    /// ```
    public static func exactlyOne(_ rules: Rule...) -> Rule { exactlyOne(rules) }

    /// The value passes exactly one of `rules`; see ``exactlyOne(_:)-(Rule<Value>...)``.
    public static func exactlyOne(_ rules: [Rule]) -> Rule {
        Rule(.exactlyOne(rules.map(\.nestedKind))) { value, context in
            var passing = 0
            for rule in rules {
                // Only whether the alternative has errors counts: its issues are not located.
                var trial = RuleContext(unlocatedIn: context.phase)
                rule.check(value, in: &trial)
                if !trial.hasErrors {
                    passing += 1
                    if passing > 1 { break }
                }
            }
            switch passing {
            case 1: return
            case 0: context.report(.noMatch, value: value, parameters: ["count": .integer(rules.count)])
            default:
                context.report(
                    .noMatch, value: value, parameters: ["count": .integer(passing)], messageKey: "schema.oneOf.many")
            }
        }
    }

    /// The value fails `rule`. Reports ``IssueCode/notAllowed`` when it passes.
    public static func not(_ rule: Rule) -> Rule {
        Rule(.not(rule.nestedKind)) { value, context in
            var trial = RuleContext(unlocatedIn: context.phase)
            rule.check(value, in: &trial)
            if !trial.hasErrors { context.report(.notAllowed, value: value, messageKey: "notAllowed.not") }
        }
    }

    /// A rule of the application's own: `predicate` returns whether the value is valid; a failure
    /// reports ``IssueCode/custom(_:)`` named `name`, with `message` (or the generic "is invalid").
    ///
    /// <!-- snippet: doc-custom-rule -->
    /// ```swift
    /// let even = Rule<Int>.custom("even", message: "{subject} must be even") { $0 % 2 == 0 }
    /// print(even.isValid(4), even.isValid(3))  // true false
    /// ```
    public static func custom(
        _ name: String, message: MessageTemplate? = nil, _ predicate: @escaping @Sendable (Value) -> Bool
    ) -> Rule {
        Rule(.custom(name)) { value, context in
            if !predicate(value) { context.report(.custom(name), value: value, message: message) }
        }
    }

    /// The rule with its issues' message replaced by `message`, in one or several languages.
    public func message(_ message: MessageTemplate) -> Rule {
        mapIssues { issue in
            issue.customMessage = message
        }
    }

    /// The rule with its issues reported at `severity` (e.g. `.warning` for advice).
    public func severity(_ severity: Severity) -> Rule {
        mapIssues(severity: severity) { issue in issue.severity = severity }
    }

    /// The rule with the offending value left out of its issues (for passwords, tokens, personal data).
    public func redacted() -> Rule {
        Rule(kind, severity: severity) { value, context in
            let saved = context.redactsValues
            context.redactsValues = true
            check(value, in: &context)
            context.redactsValues = saved
        }
    }

    /// The rule applied to optional values: `nil` passes, a value is checked.
    @inlinable
    public var optional: Rule<Value?> {
        Rule<Value?>(
            kind, severity: severity,
            { value, context in
                if let value { check(value, in: &context) }
            }, inputCheck: inputCheck)
    }

    private func mapIssues(
        severity: Severity? = nil, _ transform: @escaping @Sendable (inout ValidationIssue) -> Void
    ) -> Rule {
        Rule(kind, severity: severity ?? self.severity) { value, context in
            let start = context.issues.count
            check(value, in: &context)
            for index in start..<context.issues.count { transform(&context.issues[index]) }
        }
    }
}

extension Rule {
    /// The optional value is present. Reports ``IssueCode/missing`` for `nil`.
    ///
    /// Every other rule lets `nil` pass: presence is its own rule.
    public static func required<Wrapped>() -> Rule where Value == Wrapped? {
        Rule(.required) { value, context in
            if value == nil { context.report(.missing) }
        }
    }
}
