extension ModelRule {
    /// Groups of entries of which exactly one must hold: JSON Schema's `oneOf` over a model's
    /// members (objects that carry either one set of members or another), and exported as it.
    ///
    /// <!-- snippet: doc-model-rule-exactly-one -->
    /// ```swift
    /// struct Shipping: Validatable {
    ///     var address: String?
    ///     var pickupPoint: String?
    ///
    ///     static let validation: Validation<Shipping> = [
    ///         .exactlyOne(of: [
    ///             [.required(\.address, "address")],
    ///             [.required(\.pickupPoint, "pickupPoint"), .property(\.pickupPoint, "pickupPoint", .length(4...8))],
    ///         ])
    ///     ]
    /// }
    ///
    /// func checkShipping() {
    ///     print(Shipping(address: "1 Main St").issues().isEmpty)  // true
    ///     print(Shipping(address: "1 Main St", pickupPoint: "PP-1234").issues().map(\.code))  // [noMatch]
    ///     print(Shipping(pickupPoint: "P1").issues().map(\.path.jsonPointer))  // [""]
    /// }
    /// ```
    ///
    /// A group holds when none of its entries reports an error. When no group holds, or more than
    /// one does, the model has one ``IssueCode/noMatch`` issue at its own path; the groups' own
    /// issues are not reported (which group was meant is not known).
    ///
    /// - Parameters:
    ///   - alternatives: The groups of entries; a group with no entry always holds.
    ///   - operations: The operations the entry applies to; omitted, every one but delete. Each
    ///     entry of a group applies to its own operations as well.
    public static func exactlyOne(of alternatives: [[ModelRule]], on operations: [ValidationOperation]? = nil)
        -> ModelRule
    {
        alternativesRule(alternatives, exactlyOne: true, on: operations)
    }

    /// Groups of entries of which at least one must hold: JSON Schema's `anyOf` over a model's
    /// members, and exported as it. When none holds, the model has one ``IssueCode/noMatch`` issue
    /// at its own path.
    ///
    /// - Parameters:
    ///   - alternatives: The groups of entries; a group with no entry always holds.
    ///   - operations: The operations the entry applies to; omitted, every one but delete. Each
    ///     entry of a group applies to its own operations as well.
    public static func atLeastOne(of alternatives: [[ModelRule]], on operations: [ValidationOperation]? = nil)
        -> ModelRule
    {
        alternativesRule(alternatives, exactlyOne: false, on: operations)
    }

    private static func alternativesRule(
        _ alternatives: [[ModelRule]], exactlyOne: Bool, on operations: [ValidationOperation]?
    ) -> ModelRule {
        for entry in alternatives.joined() {
            // A normaliser rewrites the value before any rule runs, whichever group holds: it has no
            // place in a group.
            precondition(entry.normalizeModel == nil, "a normaliser (\(entry.key ?? "")) cannot be in an alternative")
        }
        let description = Alternatives(
            exactlyOne: exactlyOne,
            alternatives: alternatives.map { group in
                group.map { Branch(key: $0.key, role: $0.role, operations: $0.operations) }
            })
        let location = "\(Model.self): \(exactlyOne ? "exactlyOne" : "atLeastOne")"
        // Reports the outcome, given how many groups hold (counted up to two).
        let report: @Sendable (Int, inout RuleContext) -> Void = { holding, context in
            if holding == 1 || (!exactlyOne && holding > 1) { return }
            if context.locatesIssues { context.ruleLocation = location }
            if holding == 0 {
                context.report(.noMatch, parameters: ["count": .integer(alternatives.count)])
            } else {
                context.report(.noMatch, parameters: ["count": .integer(holding)], messageKey: "schema.oneOf.many")
            }
        }
        return ModelRule(
            key: nil, operations: operations, role: .alternatives(description), keyPath: nil, condition: .always,
            checkModel: { model, operation, context in
                var holding = 0
                for group in alternatives {
                    var trial = RuleContext(unlocatedIn: context.phase)
                    for entry in group where entry.applies(to: operation) {
                        entry.checkModel?(model, operation, &trial)
                        if trial.hasErrors { break }
                    }
                    if !trial.hasErrors {
                        holding += 1
                        if holding > 1 { break }
                    }
                }
                report(holding, &context)
            },
            checkValue: { value, operation, context in
                // The members of a model that did not decode, by key (`Validation.conditionalIssues`):
                // a group is decided when every member it reads decoded, or when a member in the input
                // that did not decode must be one of some scalar values (it holds none: each would
                // have decoded) or only be present (it is); with one undecided, nothing is reported
                // (the failure of the member that did not decode is).
                guard let members = value as? [String: Any] else { return }
                var holding = 0
                for group in alternatives {
                    var trial = RuleContext(unlocatedIn: context.phase)
                    var refused = false
                    for entry in group where entry.applies(to: operation) {
                        guard case .rules(let declared) = entry.role, let key = entry.key, let found = members[key]
                        else { return }
                        if let undecoded = found as? UndecodedMember {
                            guard undecoded.isPresent else { return }
                            if declared.contains(where: { $0.kind.listsScalars }) {
                                refused = true
                                break
                            }
                            // Present in the input: `required` holds whatever its value.
                            guard declared.allSatisfy({ $0.kind == .required || $0.kind == .present })
                            else { return }
                            continue
                        }
                        entry.checkValue?(found, operation, &trial)
                    }
                    if refused { continue }
                    if !trial.hasErrors {
                        holding += 1
                        if holding > 1 { break }
                    }
                }
                report(holding, &context)
            },
            normalizeModel: nil, normalizeValue: nil)
    }
}
