extension ModelRule {
    /// Entries that apply only when the property `key` holds one of `values`, and others that apply
    /// when it does not: JSON Schema's `if` / `then` / `else` on a member that tells kinds of object
    /// apart, and exported as it.
    ///
    /// <!-- snippet: doc-model-rule-when -->
    /// ```swift
    /// struct CardPayment: Validatable {
    ///     var kind: String
    ///     var cardNumber: String?
    ///     var iban: String?
    ///
    ///     static let validation: Validation<CardPayment> = [
    ///         .when(
    ///             \.kind, "kind", in: ["card"],
    ///             then: [
    ///                 .required(\.cardNumber, "cardNumber"),
    ///                 .property(\.cardNumber, "cardNumber", .length(16...16), .charset(.digits)),
    ///             ],
    ///             else: [.required(\.iban, "iban")])
    ///     ]
    /// }
    ///
    /// func checkPayments() {
    ///     print(CardPayment(kind: "card", cardNumber: "4111").issues().map(\.path.jsonPointer))  // ["/cardNumber"]
    ///     print(CardPayment(kind: "transfer").issues().map(\.path.jsonPointer))  // ["/iban"]
    ///     print(CardPayment(kind: "transfer", iban: "DE00").issues().isEmpty)  // true
    /// }
    /// ```
    ///
    /// The branches' entries report their issues as they would on their own (a property's at its
    /// key). Strings are compared code point by code point, as JSON Schema compares them (`"é"`
    /// composed is not `"é"` decomposed).
    ///
    /// - Parameters:
    ///   - keyPath: The property the condition reads.
    ///   - key: Its name in issues, paths and the exported schema.
    ///   - values: The values that make the condition hold.
    ///   - operations: The operations the entry applies to; omitted, every one but delete. Each
    ///     entry of a branch applies to its own operations as well.
    ///   - then: The entries that apply when the property holds one of `values`.
    ///   - otherwise: The entries that apply when it does not.
    public static func when<V: Equatable & Sendable>(
        _ keyPath: KeyPath<Model, V> & Sendable, _ key: String, in values: [V],
        on operations: [ValidationOperation]? = nil, then: [ModelRule], else otherwise: [ModelRule] = []
    ) -> ModelRule {
        let holds: @Sendable (V) -> Bool = { value in values.contains { codePointEqual($0, value) } }
        return conditional(
            key: key, values: values.map(conditionValue), holdsWhenAbsent: false, on: operations, then: then,
            otherwise: otherwise, holds: { model in holds(model[keyPath: keyPath]) },
            holdsForValue: { value in (value as? V).map(holds) })
    }

    /// Entries that apply only when the optional property `key` holds one of `values` (or has no
    /// value, with `orAbsent`), and others that apply when it does not: JSON Schema's `if` / `then` /
    /// `else` on a member that tells kinds of object apart. An `if` that does not require the member
    /// holds when it is missing: `orAbsent: true`.
    ///
    /// - Parameters:
    ///   - keyPath: The optional property the condition reads.
    ///   - key: Its name in issues, paths and the exported schema.
    ///   - values: The values that make the condition hold.
    ///   - orAbsent: Whether the condition holds when the property is `nil` too.
    ///   - operations: The operations the entry applies to; omitted, every one but delete.
    ///   - then: The entries that apply when the condition holds.
    ///   - otherwise: The entries that apply when it does not.
    public static func when<V: Equatable & Sendable>(
        _ keyPath: KeyPath<Model, V?> & Sendable, _ key: String, in values: [V], orAbsent: Bool = false,
        on operations: [ValidationOperation]? = nil, then: [ModelRule], else otherwise: [ModelRule] = []
    ) -> ModelRule {
        let holds: @Sendable (V?) -> Bool = { value in
            guard let value else { return orAbsent }
            return values.contains { codePointEqual($0, value) }
        }
        return conditional(
            key: key, values: values.map(conditionValue), holdsWhenAbsent: orAbsent, on: operations, then: then,
            otherwise: otherwise, holds: { model in holds(model[keyPath: keyPath]) },
            holdsForValue: { value in (value as? V?).map(holds) })
    }

    private static func conditional(
        key: String, values: [IssueValue], holdsWhenAbsent: Bool, on operations: [ValidationOperation]?,
        then: [ModelRule], otherwise: [ModelRule], holds: @escaping @Sendable (Model) -> Bool,
        holdsForValue: @escaping @Sendable (Any) -> Bool?
    ) -> ModelRule {
        for entry in then + otherwise {
            // A normaliser rewrites the value before any rule runs, whichever branch applies: it
            // has no place in a branch.
            precondition(entry.normalizeModel == nil, "a normaliser (\(entry.key ?? "")) cannot be in a branch of when")
        }
        func branch(_ entries: [ModelRule]) -> [Branch] {
            entries.map { Branch(key: $0.key, role: $0.role, operations: $0.operations) }
        }
        let description = Conditional(
            key: key, values: values, holdsWhenAbsent: holdsWhenAbsent, then: branch(then), otherwise: branch(otherwise)
        )
        return ModelRule(
            key: nil, operations: operations, role: .when(description), keyPath: nil, condition: .always,
            checkModel: { model, operation, context in
                for entry in holds(model) ? then : otherwise where entry.applies(to: operation) {
                    entry.checkModel?(model, operation, &context)
                }
            },
            checkValue: { value, operation, context in
                // The members of a model that did not decode, by key (`Validation.conditionalIssues`):
                // the branch's entries of the members that did decode.
                guard let members = value as? [String: Any], let tested = members[key],
                    let holds = holdsForValue(tested)
                else { return }
                for entry in holds ? then : otherwise where entry.applies(to: operation) {
                    switch entry.role {
                    case .rules:
                        guard let member = entry.key, let found = members[member] else { continue }
                        entry.checkValue?(found, operation, &context)
                    case .when, .alternatives:
                        entry.checkValue?(members, operation, &context)
                    case .dependentRequired, .check, .nested, .normalizer:
                        continue
                    }
                }
            },
            normalizeModel: nil, normalizeValue: nil)
    }
}

/// A value of a condition as data: an enum's raw value (what it is in JSON), any other value itself.
private func conditionValue<V>(_ value: V) -> IssueValue {
    if let raw = value as? any RawRepresentable { return IssueValue(raw.rawValue) }
    return IssueValue(value)
}
