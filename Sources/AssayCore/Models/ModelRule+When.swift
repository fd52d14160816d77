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
    ///   - orAbsent: Whether the condition holds when the input has no such member: a model always
    ///     has the property, but one decoded from an input that lacks it did not decode, and its
    ///     other members are still checked (JSON Schema's `if` holds for a missing member unless it
    ///     requires it).
    ///   - operations: The operations the entry applies to; omitted, every one but delete. Each
    ///     entry of a branch applies to its own operations as well.
    ///   - then: The entries that apply when the property holds one of `values`.
    ///   - otherwise: The entries that apply when it does not.
    public static func when<V: Equatable & Sendable>(
        _ keyPath: KeyPath<Model, V> & Sendable, _ key: String, in values: [V], orAbsent: Bool = false,
        on operations: [ValidationOperation]? = nil, then: [ModelRule], else otherwise: [ModelRule] = []
    ) -> ModelRule {
        let holds: @Sendable (V) -> Bool = { value in values.contains { codePointEqual($0, value) } }
        return conditional(
            key: key, values: values.map(IssueValue.data), holdsWhenAbsent: orAbsent, on: operations, then: then,
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
            key: key, values: values.map(IssueValue.data), holdsWhenAbsent: orAbsent, on: operations, then: then,
            otherwise: otherwise, holds: { model in holds(model[keyPath: keyPath]) },
            holdsForValue: { value in (value as? V?).map(holds) })
    }

    /// Entries that apply only when the optional property `key` has a value: draft 7's
    /// `dependencies` with a schema, 2019-09's `dependentSchemas` (`"billing": {"required":
    /// ["address"]}`). A ``when(_:_:in:orAbsent:on:then:else:)-(KeyPath<Model,V?>Sendable,_,_,_,_,_,_)``
    /// of no values that holds when the property is absent, its entries the `else` branch: exported
    /// as that `if` (`{"properties": {key: {"enum": []}}}`, not requiring it) and `else`.
    ///
    /// - Parameters:
    ///   - keyPath: The optional property whose presence the entries depend on.
    ///   - key: Its name in issues, paths and the exported schema.
    ///   - operations: The operations the entry applies to; omitted, every one but delete.
    ///   - then: The entries that apply when the property has a value.
    public static func whenPresent<V: Equatable & Sendable>(
        _ keyPath: KeyPath<Model, V?> & Sendable, _ key: String, on operations: [ValidationOperation]? = nil,
        then: [ModelRule]
    ) -> ModelRule {
        when(keyPath, key, in: [], orAbsent: true, on: operations, then: [], else: then)
    }

    static func conditional(
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
                guard let members = value as? [String: Any], let tested = members[key] else { return }
                let holds: Bool
                if let undecoded = tested as? UndecodedMember {
                    // A member in the input that did not decode holds none of the values (each one
                    // would have decoded); one missing from the input is absent. Values of
                    // scalars alone: an object or an array might fail for what it holds.
                    guard values.allSatisfy(\.isScalar) else { return }
                    holds = undecoded.isPresent ? false : holdsWhenAbsent
                } else {
                    guard let decided = holdsForValue(tested) else { return }
                    holds = decided
                }
                for entry in holds ? then : otherwise where entry.applies(to: operation) {
                    switch entry.role {
                    case .rules:
                        guard let member = entry.key, let found = members[member], !(found is UndecodedMember) else {
                            continue
                        }
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

/// A member of a model that did not decode, in the members `Validation.conditionalIssues` reads:
/// whether the input holds its key.
package struct UndecodedMember: Sendable {
    /// Whether the input holds the member's key (with a value that did not decode, `null` included).
    package let isPresent: Bool

    package init(isPresent: Bool) { self.isPresent = isPresent }
}

extension RuleKind {
    /// Whether the rule admits only some values, each a string, a number or a Boolean
    /// (`.oneOf(["a", "b"])`, `.const(1)`): a member in the input that did not decode is none of
    /// them (each would have decoded; `null` might not have, for a member that refuses it).
    var listsScalars: Bool {
        func listable(_ value: IssueValue) -> Bool {
            if case .null = value { return false }
            return value.isScalar
        }
        switch self {
        case .oneOf(let values): return values.allSatisfy(listable)
        case .const(let value): return listable(value)
        default: return false
        }
    }
}

extension IssueValue {
    /// Whether the value is a string, a number, a Boolean or `null`.
    var isScalar: Bool {
        switch self {
        case .null, .bool, .integer, .number, .decimal, .string: return true
        case .date, .list, .redacted, .other: return false
        }
    }
}
