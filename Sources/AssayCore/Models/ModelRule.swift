/// One entry of a ``Validation``: rules on a property, a normaliser, a nested model, or an
/// object-level check.
public struct ModelRule<Model>: Sendable {
    /// The property's key (its name in issues and paths), or `nil` for object-level checks.
    public let key: String?
    /// The operations the entry applies to; `nil` means every one but ``ValidationOperation/delete``.
    public let operations: [ValidationOperation]?
    /// What the entry is, as data (schema export reads it).
    public let role: Role
    let keyPath: (any AnyKeyPath & Sendable)?
    let condition: CheckCondition
    let checkModel: (@Sendable (Model, ValidationOperation?, inout RuleContext) -> Void)?
    let checkValue: (@Sendable (Any, ValidationOperation?, inout RuleContext) -> Void)?
    let normalizeModel: (@Sendable (inout Model) -> Bool)?
    let normalizeValue: (@Sendable (Any) -> (Any, Bool)?)?
    /// An object-level check of the input a model did not decode from (the JSON object, as the
    /// decoder has it): what `Validation.conditionalIssues` runs for a check that can read it. For
    /// a property's rules, those of them that read the member's input (``Rule/inputCheck``), run on
    /// a member whose elements did not all decode.
    package let checkInput: (@Sendable (Any, inout RuleContext) -> Void)?

    @usableFromInline
    init(
        key: String?, operations: [ValidationOperation]?, role: Role,
        keyPath: (any AnyKeyPath & Sendable)?, condition: CheckCondition,
        checkModel: (@Sendable (Model, ValidationOperation?, inout RuleContext) -> Void)?,
        checkValue: (@Sendable (Any, ValidationOperation?, inout RuleContext) -> Void)?,
        normalizeModel: (@Sendable (inout Model) -> Bool)?,
        normalizeValue: (@Sendable (Any) -> (Any, Bool)?)?,
        checkInput: (@Sendable (Any, inout RuleContext) -> Void)? = nil
    ) {
        self.checkInput = checkInput
        self.key = key
        self.operations = operations
        self.role = role
        self.keyPath = keyPath
        self.condition = condition
        self.checkModel = checkModel
        self.checkValue = checkValue
        self.normalizeModel = normalizeModel
        self.normalizeValue = normalizeValue
    }

    /// Whether the entry validates a nested model (or a collection of them).
    /// What an entry of a ``Validation`` is.
    public enum Role: Sendable, Hashable {
        /// Rules on the property's value, in order.
        case rules([DeclaredRule])
        /// A normaliser of the property's value, applied before the rules.
        case normalizer
        /// The property holds models validated with their own rules.
        case nested
        /// A check of the whole model, by name (a closure of the application's own).
        case check(String)
        /// When the property `key` is present (not `nil`), the properties `requires` must be too.
        case dependentRequired(key: String, requires: [String])
        /// Entries that apply only when a property holds one of some values, and those that apply
        /// otherwise (JSON Schema's `if` / `then` / `else` on one member): ``ModelRule/when(_:_:in:orAbsent:on:then:else:)-(KeyPath<Model,V>Sendable,_,_,_,_,_,_)``.
        case when(Conditional)
        /// Groups of entries of which exactly one, or at least one, must hold (JSON Schema's `oneOf`
        /// and `anyOf` over the model's members): ``ModelRule/exactlyOne(of:on:)``,
        /// ``ModelRule/atLeastOne(of:on:)``.
        case alternatives(Alternatives)
    }

    /// The data of a ``Role/alternatives(_:)`` entry: its groups of entries and how many must hold.
    public struct Alternatives: Sendable, Hashable {
        /// Whether exactly one group must hold (`oneOf`); otherwise at least one (`anyOf`).
        public let exactlyOne: Bool
        /// The groups, each its entries.
        public let alternatives: [[Branch]]
    }

    /// The data of a ``Role/when(_:)`` entry: its condition and its two branches.
    public struct Conditional: Sendable, Hashable {
        /// The property the condition reads.
        public let key: String
        /// The values that make the condition hold.
        public let values: [IssueValue]
        /// Whether the condition holds when the property has no value (an optional that is `nil`).
        public let holdsWhenAbsent: Bool
        /// The entries that apply when the condition holds.
        public let then: [Branch]
        /// The entries that apply when it does not.
        public let otherwise: [Branch]
    }

    /// One entry of a branch of a ``Conditional`` or of a group of ``Alternatives``: its key (`nil` for object-level entries), what it
    /// is, and the operations it applies to.
    public struct Branch: Sendable, Hashable {
        /// The property's key, or `nil` for an object-level entry.
        public let key: String?
        /// What the entry is.
        public let role: Role
        /// The operations it applies to; `nil` means every one but ``ValidationOperation/delete``.
        public let operations: [ValidationOperation]?
    }

    /// A rule as declared on a property: what it checks and the severity of its issues.
    public struct DeclaredRule: Sendable, Hashable {
        /// What the rule checks.
        public let kind: RuleKind
        /// The severity of its issues.
        public let severity: Severity

        /// Makes a declared rule.
        public init(kind: RuleKind, severity: Severity) {
            self.kind = kind
            self.severity = severity
        }
    }

    var isNested: Bool { if case .nested = role { true } else { false } }
    var isObjectCheck: Bool {
        switch role {
        case .check, .dependentRequired, .when, .alternatives: return true
        case .rules, .normalizer, .nested: return false
        }
    }

    package func applies(to operation: ValidationOperation?) -> Bool {
        guard let operations else { return operation != .delete }
        guard let operation else { return false }
        return operations.contains(operation)
    }

    /// Rules on a property: `.property(\.age, "age", .range(16...50))`.
    ///
    /// - Parameters:
    ///   - keyPath: The property.
    ///   - key: Its name in issues and paths.
    ///   - label: Its name in messages, when it differs from the key (`"Age"`).
    ///   - operations: The operations the rules apply to; omitted, every one but delete.
    ///   - rules: The rules, checked in order; every issue is kept.
    ///
    /// Inlinable, as the rule factories it composes, so the closures are specialised for the model
    /// and the property's type in the module that declares the model: generic code would look up the
    /// metadata of `Rule<V>`, `V?` and the key path's types at run time, for every property checked.
    @inlinable
    public static func property<V: SendableMetatype>(
        _ keyPath: KeyPath<Model, V> & Sendable, _ key: String, label: String? = nil,
        on operations: [ValidationOperation]? = nil,
        _ rules: Rule<V>...
    ) -> ModelRule {
        property(keyPath, key, label: label, on: operations, rules: rules)
    }

    @inlinable
    static func property<V: SendableMetatype>(
        _ keyPath: KeyPath<Model, V> & Sendable, _ key: String, label: String?, on operations: [ValidationOperation]?,
        rules: [Rule<V>]
    ) -> ModelRule {
        // Where each rule lives, recorded on its issues: `Player.age: range`.
        // The rules are composed into one closure when the rule is declared: this code is generic over
        // the property's type and never specialised for it, so iterating an array of rules (or of
        // tuples) would look up generic metadata at run time, for every record.
        var rulesInOrder: @Sendable (V, inout RuleContext) -> Void = { _, _ in }
        for rule in rules {
            let previous = rulesInOrder
            let location = "\(Model.self).\(key): \(rule.kind.name)"
            rulesInOrder = { value, context in
                previous(value, &context)
                if context.locatesIssues { context.ruleLocation = location }
                rule.check(value, in: &context)
            }
        }
        let checkAll = rulesInOrder
        let inputChecks = rules.compactMap { $0.inputCheck }
        var checkInput: (@Sendable (Any, inout RuleContext) -> Void)? = nil
        if !inputChecks.isEmpty {
            checkInput = { input, context in
                for inputCheck in inputChecks { inputCheck(input, &context) }
            }
        }
        let offset = MemoryLayout<Model>.offset(of: keyPath)
        let check: @Sendable (V, inout RuleContext) -> Void = { value, context in
            guard context.locatesIssues else { return checkAll(value, &context) }
            let savedLabel = context.label
            // In place (no copy of the path kept), so the path's storage is reused for every property.
            context.path.components.append(.key(key))
            context.label = label
            checkAll(value, &context)
            context.path.components.removeLast()
            context.label = savedLabel
            // The rule location is left as the last rule set it (not saved and restored, a retain and a
            // release per property): every rule and object check sets its own before it runs.
        }
        return ModelRule(
            key: key, operations: operations,
            role: .rules(rules.map { DeclaredRule(kind: $0.kind, severity: $0.severity) }), keyPath: keyPath,
            condition: .always,
            checkModel: { model, _, context in
                // A stored property of a struct is read at its offset: a key path projection goes
                // through the runtime (and its generic metadata) for every property checked.
                if let offset {
                    let value = withUnsafePointer(to: model) {
                        UnsafeRawPointer($0).load(fromByteOffset: offset, as: V.self)
                    }
                    check(value, &context)
                } else {
                    check(model[keyPath: keyPath], &context)
                }
            },
            checkValue: { value, _, context in
                guard let typed = value as? V else {
                    reportTypeMismatch(value, expected: V.self, key: key, context: &context)
                    return
                }
                check(typed, &context)
            },
            normalizeModel: nil, normalizeValue: nil, checkInput: checkInput)
    }

    /// Rules on the members a model keeps beside its properties (`@AdditionalProperties` in
    /// AssayCodable): a dictionary of the keys the model does not declare. Its issues are located
    /// under the model itself, not under a key of its own: `.values(.length(...10))` reports a bad
    /// member at `/nickname`. Exported as the object's `additionalProperties`.
    @inlinable
    public static func additionalProperties<V: SendableMetatype>(
        _ keyPath: KeyPath<Model, [String: V]> & Sendable, on operations: [ValidationOperation]? = nil,
        _ rules: Rule<[String: V]>...
    ) -> ModelRule {
        let name = "\(Model.self)"
        let check: @Sendable ([String: V], inout RuleContext) -> Void = { value, context in
            for rule in rules {
                if context.locatesIssues { context.ruleLocation = "\(name): \(rule.kind.name)" }
                rule.check(value, in: &context)
            }
        }
        return ModelRule(
            key: nil, operations: operations,
            role: .rules(rules.map { DeclaredRule(kind: $0.kind, severity: $0.severity) }), keyPath: keyPath,
            condition: .always,
            checkModel: { model, _, context in check(model[keyPath: keyPath], &context) },
            checkValue: { value, _, context in
                guard let typed = value as? [String: V] else {
                    context.report(
                        .typeMismatch, value: value,
                        parameters: ["expected": .string(String(describing: [String: V].self))])
                    return
                }
                check(typed, &context)
            },
            normalizeModel: nil, normalizeValue: nil)
    }

    /// Rules on an optional property: `nil` passes, a value is checked.
    @inlinable
    public static func property<V: SendableMetatype>(
        _ keyPath: KeyPath<Model, V?> & Sendable, _ key: String, label: String? = nil,
        on operations: [ValidationOperation]? = nil,
        _ rules: Rule<V>...
    ) -> ModelRule {
        property(keyPath, key, label: label, on: operations, rules: rules.map(\.optional))
    }

    /// The optional property is present: reports ``IssueCode/missing`` for `nil`.
    @inlinable
    public static func required<V: SendableMetatype>(
        _ keyPath: KeyPath<Model, V?> & Sendable, _ key: String, label: String? = nil,
        on operations: [ValidationOperation]? = nil
    ) -> ModelRule {
        property(keyPath, key, label: label, on: operations, Rule<V?>.required())
    }

    /// A normaliser: rewrites the property (trim a name, lowercase an email) before the rules run.
    /// Normalisers run again until no value changes; one that never settles is reported as
    /// ``IssueCode/unstable`` after ``Validation/maximumNormalizationPasses`` passes.
    public static func normalize<V: Equatable & SendableMetatype>(
        _ keyPath: WritableKeyPath<Model, V> & Sendable, _ key: String, on operations: [ValidationOperation]? = nil,
        _ transform: @escaping @Sendable (V) -> V
    ) -> ModelRule {
        ModelRule(
            key: key, operations: operations, role: .normalizer, keyPath: keyPath, condition: .always, checkModel: nil,
            checkValue: nil,
            normalizeModel: { model in
                // One access through the key path for the read and the write.
                func rewrite(_ value: inout V) -> Bool {
                    let new = transform(value)
                    guard new != value else { return false }
                    value = new
                    return true
                }
                return rewrite(&model[keyPath: keyPath])
            },
            normalizeValue: { value in
                guard let typed = value as? V else { return nil }
                let new = transform(typed)
                return (new, new != typed)
            })
    }

    /// When the optional property `field` holds a value, each of `requires` must hold one too
    /// (JSON Schema's `dependentRequired`, and exported as it): `.dependentRequired(.field(\.billing,
    /// "billing"), requires: .field(\.billingName, "billingName"))`. Reports ``IssueCode/missing`` at
    /// each missing property, with the `present` parameter naming `field`.
    public static func dependentRequired(
        _ field: OptionalField<Model>, on operations: [ValidationOperation]? = nil, requires: OptionalField<Model>...
    ) -> ModelRule {
        let location = "\(Model.self): dependentRequired(\(field.key))"
        return ModelRule(
            key: nil, operations: operations, role: .dependentRequired(key: field.key, requires: requires.map(\.key)),
            keyPath: nil, condition: .always,
            checkModel: { model, _, context in
                guard field.isPresent(model) else { return }
                for dependent in requires where !dependent.isPresent(model) {
                    if context.locatesIssues { context.ruleLocation = location }
                    let saved = context.path
                    context.path = context.path.appending(key: dependent.key)
                    context.report(
                        .missing, parameters: ["present": .string(field.key)], messageKey: "missing.dependent")
                    context.path = saved
                }
            },
            checkValue: nil, normalizeModel: nil, normalizeValue: nil)
    }

    /// A check of the whole object, for rules that combine properties (seed 001's Person: under 16
    /// cannot hold a driving licence). Report issues with `context.report(…)`; set `context.path` to
    /// point at a property, or use ``RuleContext/report(_:at:value:parameters:message:)``.
    ///
    /// - Parameters:
    ///   - name: The check's name, recorded as the rule location.
    ///   - operations: The operations it applies to; omitted, every one but delete.
    ///   - condition: Whether it runs always or only when every property rule passed.
    ///   - body: The check: reads the model and reports issues into the context.
    public static func check(
        _ name: String, on operations: [ValidationOperation]? = nil, when condition: CheckCondition = .always,
        _ body: @escaping @Sendable (Model, inout RuleContext) -> Void
    ) -> ModelRule {
        ModelRule(
            key: nil, operations: operations, role: .check(name), keyPath: nil, condition: condition,
            checkModel: { model, _, context in
                guard context.locatesIssues else { return body(model, &context) }
                let saved = context.ruleLocation
                context.ruleLocation = name
                body(model, &context)
                context.ruleLocation = saved
            },
            checkValue: nil, normalizeModel: nil, normalizeValue: nil)
    }

    /// ``check(_:on:when:_:)`` that can also read the input of a model that did not decode (the
    /// JSON object, as the decoder has it): a check against a JSON Schema reads the input as it
    /// reads an encoded model, so that its failures are reported with the members' that did not
    /// decode.
    package static func check(
        _ name: String, on operations: [ValidationOperation]? = nil,
        _ body: @escaping @Sendable (Model, inout RuleContext) -> Void,
        input: @escaping @Sendable (Any, inout RuleContext) -> Void
    ) -> ModelRule {
        let model = check(name, on: operations, body)
        return ModelRule(
            key: nil, operations: operations, role: model.role, keyPath: nil, condition: .always,
            checkModel: model.checkModel, checkValue: nil, normalizeModel: nil, normalizeValue: nil,
            checkInput: { value, context in
                guard context.locatesIssues else { return input(value, &context) }
                let saved = context.ruleLocation
                context.ruleLocation = name
                input(value, &context)
                context.ruleLocation = saved
            })
    }

    /// A nested model validated with its own rules, its issues under `key`.
    public static func nested<V: Validatable>(
        _ keyPath: KeyPath<Model, V> & Sendable, _ key: String, on operations: [ValidationOperation]? = nil
    ) -> ModelRule {
        ModelRule(
            key: key, operations: operations, role: .nested, keyPath: keyPath, condition: .always,
            checkModel: { model, operation, context in
                guard context.locatesIssues else {
                    context.add(
                        V.validation.issues(of: model[keyPath: keyPath], operation: operation, pass: .firstOnly))
                    return
                }
                V.validation.locateNested(model[keyPath: keyPath], operation: operation, in: &context, at: [.key(key)])
            },
            checkValue: { value, operation, context in
                // One proposed value for the property (`validate(_:forKey:)`): the nested model's rules.
                guard let typed = value as? V else {
                    reportTypeMismatch(value, expected: V.self, key: key, context: &context)
                    return
                }
                V.validation.locateNested(typed, operation: operation, in: &context, at: [.key(key)])
            },
            normalizeModel: nil, normalizeValue: nil)
    }

    /// A collection of nested models, each validated with its own rules, its issues under
    /// `key/index`.
    public static func nested<C: Collection & Sendable>(
        _ keyPath: KeyPath<Model, C> & Sendable, _ key: String, on operations: [ValidationOperation]? = nil
    ) -> ModelRule where C.Element: Validatable {
        ModelRule(
            key: key, operations: operations, role: .nested, keyPath: keyPath, condition: .always,
            checkModel: { model, operation, context in
                for (index, element) in model[keyPath: keyPath].enumerated() {
                    guard context.locatesIssues else {
                        context.add(C.Element.validation.issues(of: element, operation: operation, pass: .firstOnly))
                        continue
                    }
                    C.Element.validation.locateNested(
                        element, operation: operation, in: &context, at: [.key(key), .index(index)])
                }
            },
            checkValue: { value, operation, context in
                guard let typed = value as? C else {
                    reportTypeMismatch(value, expected: C.self, key: key, context: &context)
                    return
                }
                for (index, element) in typed.enumerated() {
                    C.Element.validation.locateNested(
                        element, operation: operation, in: &context, at: [.key(key), .index(index)])
                }
            },
            normalizeModel: nil, normalizeValue: nil)
    }
}

@usableFromInline
func reportTypeMismatch(_ value: Any, expected: Any.Type, key: String, context: inout RuleContext) {
    let saved = context.path
    context.path = context.path.appending(key: key)
    context.report(.typeMismatch, value: value, parameters: ["expected": .string(String(describing: expected))])
    context.path = saved
}

extension RuleContext {
    /// Reports an issue about the property `key` of the object being checked (in object-level checks).
    public mutating func report(
        _ code: IssueCode, at key: String, value: Any? = nil, parameters: [String: IssueValue] = [:],
        message: MessageTemplate? = nil
    ) {
        let saved = (path, label)
        path = path.appending(key: key)
        label = nil
        report(code, value: value, parameters: parameters, message: message)
        (path, label) = saved
    }
}

/// An optional property of a model, by key path and key: whether a model holds a value there.
public struct OptionalField<Model>: Sendable {
    /// The property's key.
    public let key: String
    let isPresent: @Sendable (Model) -> Bool

    /// The optional property at `keyPath`, named `key`.
    public static func field<V>(_ keyPath: KeyPath<Model, V?> & Sendable, _ key: String) -> OptionalField {
        OptionalField(key: key) { $0[keyPath: keyPath] != nil }
    }
}
