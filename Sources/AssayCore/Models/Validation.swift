/// The rules of a ``Validatable`` type, in declaration order.
public struct Validation<Model>: Sendable, ExpressibleByArrayLiteral {
    /// The rules.
    public var rules: [ModelRule<Model>] {
        didSet {
            hasNormalizers = rules.contains { $0.normalizeModel != nil }
            checksOnlyNested = rules.allSatisfy(\.isNested)
            compiled = Self.compileBuiltIn(rules)
            normalizeOnce = Self.composeNormalizers(rules)
            propertyRules = Self.propertyRulesByKey(rules)
        }
    }
    /// Whether any rule normalises, known ahead of every run.
    package private(set) var hasNormalizers: Bool
    /// Whether every entry checks what the value holds, as validated decoding does while it reads
    /// (`.member`, `.payload`, ``ModelRule/decodingCheck(_:_:)``): a value decoded by such a
    /// type's own `init(from:)` needs no check after.
    package private(set) var checksOnlyNested: Bool
    /// The rules composed into closures for the built-in operations.
    private var compiled: BuiltIn
    /// Every normaliser, composed: one pass, telling whether any value changed.
    private var normalizeOnce: @Sendable (inout Model) -> Bool
    /// The entries of each property (not object checks), by key, for checking one value: a model
    /// that did not decode has each decoded field checked this way.
    private var propertyRules: [String: [ModelRule<Model>]]
    /// How many times normalisers run before a value still changing is reported as
    /// ``IssueCode/unstable``: at least 1 (a smaller value set here counts as 1).
    public var maximumNormalizationPasses: Int {
        get { normalizationPasses }
        set { normalizationPasses = max(1, newValue) }
    }
    private var normalizationPasses: Int
    /// Reads ``Validatable/validationObject`` when the model is `Validatable` (decided once: a cast
    /// of every model checked to `any Validatable` is a runtime call).
    private let objectReader: (@Sendable (Model) -> ObjectReference?)?

    /// The keys of the model's properties that have no entry of their own (``knownKeys`` holds these
    /// and every key an entry names).
    public var declaredKeys: Set<String>

    /// The property keys ``Validatable/validate(_:forKey:operation:)`` accepts: those named by an
    /// entry and the ``declaredKeys``. Any other key is reported as ``IssueCode/unknownKey``.
    public var knownKeys: Set<String> {
        declaredKeys.union(rules.lazy.filter { !$0.isObjectCheck }.compactMap(\.key))
    }

    /// Makes the rules of a type.
    ///
    /// - Parameters:
    ///   - rules: the entries, in the order they run.
    ///   - maximumNormalizationPasses: how often normalisers run before a value still changing is
    ///     reported as ``IssueCode/unstable`` (at least 1).
    ///   - keys: the keys of properties that have no entry, so that checking a value for one of them
    ///     by key passes instead of being an unknown key (`@Validatable` lists every property).
    public init(_ rules: [ModelRule<Model>], maximumNormalizationPasses: Int = 8, keys: [String] = []) {
        self.declaredKeys = Set(keys)
        self.rules = rules
        self.hasNormalizers = rules.contains { $0.normalizeModel != nil }
        self.checksOnlyNested = rules.allSatisfy(\.isNested)
        self.compiled = Self.compileBuiltIn(rules)
        self.normalizeOnce = Self.composeNormalizers(rules)
        self.propertyRules = Self.propertyRulesByKey(rules)
        self.normalizationPasses = max(1, maximumNormalizationPasses)
        self.objectReader = Self.makeObjectReader()
    }

    private static func propertyRulesByKey(_ rules: [ModelRule<Model>]) -> [String: [ModelRule<Model>]] {
        var byKey: [String: [ModelRule<Model>]] = [:]
        for rule in rules where !rule.isObjectCheck {
            guard let key = rule.key else { continue }
            byKey[key, default: []].append(rule)
        }
        return byKey
    }

    private static func makeObjectReader() -> (@Sendable (Model) -> ObjectReference?)? {
        guard let type = Model.self as? any Validatable.Type else { return nil }
        // `V` is `Model` (the metatype was only opened): the model is read as a `V` where it is,
        // without the copy and run-time cast that `model as? V` costs for every model checked.
        func reader<V: Validatable>(_: V.Type) -> @Sendable (Model) -> ObjectReference? {
            { model in
                withUnsafePointer(to: model) {
                    UnsafeRawPointer($0).assumingMemoryBound(to: V.self).pointee.validationObject
                }
            }
        }
        return reader(type)
    }

    /// The rules that apply to one operation, composed into single closures when the rules are
    /// declared. The code that runs them is generic over the model and never specialised for it, so a
    /// loop over the rules would look up generic metadata and copy each rule, for every record.
    private struct Compiled: Sendable {
        typealias Check = @Sendable (Model, ValidationOperation?, inout RuleContext) -> Void
        /// Property rules and nested models, in declaration order.
        let properties: Check
        /// Property rules alone (validated decoding has checked nested models already).
        let propertiesWithoutNested: Check
        /// Object checks that run always, and those that run only when the properties are valid, in
        /// declaration order, each with its condition.
        let objectChecks: @Sendable (Model, ValidationOperation?, Bool, inout RuleContext) -> Void
    }

    private static func composeNormalizers(_ rules: [ModelRule<Model>]) -> @Sendable (inout Model) -> Bool {
        var pass: @Sendable (inout Model) -> Bool = { _ in false }
        for rule in rules {
            guard let normalize = rule.normalizeModel else { continue }
            let previous = pass
            pass = { model in
                let changed = previous(&model)
                return normalize(&model) || changed
            }
        }
        return pass
    }

    /// The composed rules of the built-in operations, each a stored property: an array of them would
    /// look up its element type's generic metadata for every run.
    private struct BuiltIn: Sendable {
        let none: Compiled
        let insert: Compiled
        let update: Compiled
        let delete: Compiled
    }

    private static func compileBuiltIn(_ rules: [ModelRule<Model>]) -> BuiltIn {
        BuiltIn(
            none: compile(rules, for: nil), insert: compile(rules, for: .insert), update: compile(rules, for: .update),
            delete: compile(rules, for: .delete))
    }

    private static func compile(_ rules: [ModelRule<Model>], for operation: ValidationOperation?) -> Compiled {
        var properties: Compiled.Check = { _, _, _ in }
        var withoutNested: Compiled.Check = { _, _, _ in }
        var objectChecks: @Sendable (Model, ValidationOperation?, Bool, inout RuleContext) -> Void = { _, _, _, _ in
        }
        for rule in rules where rule.applies(to: operation) {
            guard let check = rule.checkModel else { continue }
            if rule.isObjectCheck {
                let previous = objectChecks
                let onlyWhenValid = rule.condition == .propertiesValid
                objectChecks = { model, operation, propertiesValid, context in
                    previous(model, operation, propertiesValid, &context)
                    if onlyWhenValid && !propertiesValid { return }
                    check(model, operation, &context)
                }
                continue
            }
            let previous = properties
            properties = { model, operation, context in
                previous(model, operation, &context)
                check(model, operation, &context)
            }
            if !rule.isNested {
                let previousWithout = withoutNested
                withoutNested = { model, operation, context in
                    previousWithout(model, operation, &context)
                    check(model, operation, &context)
                }
            }
        }
        return Compiled(properties: properties, propertiesWithoutNested: withoutNested, objectChecks: objectChecks)
    }

    /// The composed rules of a built-in operation, or `nil` for an operation of the app's own.
    private func compiledRules(for operation: ValidationOperation?) -> Compiled? {
        guard let operation else { return compiled.none }
        switch operation.name {
        case "insert": return compiled.insert
        case "update": return compiled.update
        case "delete": return compiled.delete
        default: return nil
        }
    }

    /// Makes the rules of a type from a list.
    public init(arrayLiteral rules: ModelRule<Model>...) { self.init(rules) }

    /// Normalises a copy of `model`, then runs the property rules, nested models and object checks
    /// that apply to `operation`.
    public func run(
        on model: Model, operation: ValidationOperation?, object: ObjectReference? = nil, path: IssuePath = .root
    ) -> (model: Model, issues: [ValidationIssue]) {
        run(on: model, operation: operation, object: object, path: path, includingNested: true)
    }

    /// ``run(on:operation:object:path:)``, optionally leaving out nested models (validated decoding has
    /// checked them already).
    @usableFromInline
    package func run(
        on model: Model, operation: ValidationOperation?, object: ObjectReference?,
        path: @autoclosure () -> IssuePath, includingNested: Bool
    ) -> (model: Model, issues: [ValidationIssue]) {
        var model = model
        let issues = issues(
            normalizing: &model, operation: operation, object: object, path: path(), includingNested: includingNested)
        return (model, issues)
    }

    /// The issues ``run(on:operation:object:path:)`` finds, without handing back the normalised
    /// model: a model without normalisers is checked where it is, not copied.
    @usableFromInline
    package func issues(
        of model: Model, operation: ValidationOperation?, object: ObjectReference? = nil,
        path: @autoclosure () -> IssuePath = .root, includingNested: Bool = true
    ) -> [ValidationIssue] {
        issues(
            of: model, operation: operation, object: object, path: path(), includingNested: includingNested,
            pass: .both)
    }

    /// ``issues(of:operation:object:path:includingNested:)`` with the passes to run. A nested model
    /// is checked inside its parent's first pass with ``ValidationPass/firstOnly`` (only whether it
    /// has an issue) and inside its parent's locating pass by ``locateNested(_:operation:in:at:)``
    /// (its issues located at once), so each is checked at most twice whatever its depth (checked
    /// with both passes at every level, models nested n deep cost 2ⁿ checks).
    package func issues(
        of model: Model, operation: ValidationOperation?, object: ObjectReference? = nil,
        path: @autoclosure () -> IssuePath = .root, includingNested: Bool = true, pass: ValidationPass
    ) -> [ValidationIssue] {
        guard hasNormalizers else {
            return check(
                model, operation: operation, object: object, path: path, includingNested: includingNested, after: [],
                pass: pass)
        }
        var model = model
        let normalizing = normalize(&model, phase: operation?.phase ?? .property, path: path)
        return check(
            model, operation: operation, object: object, path: path, includingNested: includingNested,
            after: normalizing, pass: pass)
    }

    /// Normalises `model` in place, then returns the issues of its rules (validated decoding checks
    /// the value being initialised this way: no copy of it is made). `path` is worked out only when
    /// there is an issue to report.
    @usableFromInline
    package func issues(
        normalizing model: inout Model, operation: ValidationOperation?, object: ObjectReference? = nil,
        path: @autoclosure () -> IssuePath, includingNested: Bool
    ) -> [ValidationIssue] {
        let normalizing = normalize(&model, phase: operation?.phase ?? .property, path: path)
        return check(
            model, operation: operation, object: object, path: path, includingNested: includingNested,
            after: normalizing)
    }

    /// Runs the property rules, nested models and object checks that apply to `operation` on a model
    /// already normalised; its issues follow those of normalising it.
    private func check(
        _ model: Model, operation: ValidationOperation?, object: ObjectReference?, path: () -> IssuePath,
        includingNested: Bool, after normalizing: [ValidationIssue], pass: ValidationPass = .both
    ) -> [ValidationIssue] {
        // An operation of the app's own is composed for this run (they are rare; the built-in ones are
        // composed once).
        let composed = compiledRules(for: operation) ?? Self.compile(rules, for: operation)
        let properties = includingNested ? composed.properties : composed.propertiesWithoutNested
        let phase = operation?.phase ?? .property
        // Most models are valid: a first pass tells whether this one is, without locating issues (no
        // path built or extended for each property, no label or rule location set, no object
        // reference read). Only a model with an issue is checked again, locating them.
        guard normalizing.isEmpty else {
            if pass == .firstOnly { return normalizing }
            return locatedIssues(
                model, composed: composed, properties: properties, operation: operation, object: object, path: path,
                after: normalizing)
        }
        let found = Self.firstPassIssues(model, properties, composed.objectChecks, operation: operation, phase: phase)
        if found.isEmpty || pass == .firstOnly { return found }
        return locatedIssues(
            model, composed: composed, properties: properties, operation: operation, object: object, path: path,
            after: normalizing)
    }

    /// The issues of `model`, located: the checks of ``check(_:operation:object:path:includingNested:after:pass:)``
    /// with a context that locates them.
    private func locatedIssues(
        _ model: Model, composed: Compiled, properties: Compiled.Check, operation: ValidationOperation?,
        object: ObjectReference?, path: () -> IssuePath, after normalizing: [ValidationIssue]
    ) -> [ValidationIssue] {
        let phase = operation?.phase ?? .property
        var context = RuleContext(path: path(), phase: phase)
        // The object reference is read from the normalised model, and stamped on every issue.
        context.object = object ?? objectReader?(model)
        context.issues = normalizing
        for index in context.issues.indices { context.issues[index].object = context.object }
        properties(model, operation, &context)
        let propertiesValid = !context.hasErrors
        context.phase = operation?.phase ?? .object
        composed.objectChecks(model, operation, propertiesValid, &context)
        return context.issues
    }

    /// Checks a nested model inside its parent's locating pass: its issues are appended to `context`
    /// at the parent's path followed by `components`, extended in place. Building a new path for
    /// every level instead would cost time quadratic in the depth of models nested in each other.
    package func locateNested(
        _ model: Model, operation: ValidationOperation?, in context: inout RuleContext, at components: [PathComponent]
    ) {
        let saved = (
            object: context.object, phase: context.phase, label: context.label, location: context.ruleLocation,
            redacts: context.redactsValues
        )
        let depth = context.path.components.count
        context.path.components.append(contentsOf: components)
        (context.label, context.ruleLocation, context.redactsValues) = (nil, nil, false)
        defer {
            context.path.components.removeLast(context.path.components.count - depth)
            (context.object, context.phase, context.label) = (saved.object, saved.phase, saved.label)
            (context.ruleLocation, context.redactsValues) = (saved.location, saved.redacts)
        }
        var model = model
        let phase = operation?.phase ?? .property
        // The path is read only when a value never settles: holding a copy of it here would make the
        // nested models' appends copy its storage, level after level.
        let normalizing = normalize(&model, phase: phase, path: { context.path })
        let composed = compiledRules(for: operation) ?? Self.compile(rules, for: operation)
        let start = context.issues.count
        context.object = objectReader?(model)
        context.phase = phase
        context.add(
            normalizing.map { issue in
                var stamped = issue
                stamped.object = context.object
                return stamped
            })
        composed.properties(model, operation, &context)
        let propertiesValid = !context.issues[start...].contains { $0.severity == .error }
        context.phase = operation?.phase ?? .object
        composed.objectChecks(model, operation, propertiesValid, &context)
    }

    /// The issues of `model` found without locating them: empty when it has none (its properties'
    /// when they have any, else its object checks').
    private static func firstPassIssues(
        _ model: Model, _ properties: Compiled.Check,
        _ objectChecks: @Sendable (Model, ValidationOperation?, Bool, inout RuleContext) -> Void,
        operation: ValidationOperation?, phase: Phase
    ) -> [ValidationIssue] {
        var quick = RuleContext(unlocatedIn: phase)
        properties(model, operation, &quick)
        guard quick.issues.isEmpty else { return quick.issues }
        quick.phase = operation?.phase ?? .object
        objectChecks(model, operation, true, &quick)
        return quick.issues
    }

    /// A copy of `model` with its normalisers applied (trimmed, case-folded… until nothing changes, at
    /// most ``maximumNormalizationPasses`` passes), without checking any rule.
    ///
    /// <!-- snippet: doc-normalized -->
    /// ```swift
    /// mutating func willInsert(_ db: Database) throws {
    ///     createdAt = createdAt ?? Date()
    ///     self = Self.validation.normalized(self)  // what the default callback does
    /// }
    /// ```
    public func normalized(_ model: Model) -> Model {
        var model = model
        _ = normalize(&model, phase: .property, path: { .root })
        return model
    }

    /// Normalises `model` in place; returns the issue of each value that never settles.
    private func normalize(_ model: inout Model, phase: Phase, path: () -> IssuePath) -> [ValidationIssue] {
        guard hasNormalizers else { return [] }
        for _ in 0..<maximumNormalizationPasses where !normalizeOnce(&model) { return [] }
        // Still changing after every pass: one more pass, on a copy and rule by rule, names the values
        // that keep changing.
        var probe = model
        var changedKeys: [String] = []
        for rule in rules {
            guard let normalize = rule.normalizeModel, normalize(&probe) else { continue }
            changedKeys.append(rule.key ?? "")
        }
        let path = path()
        var context = RuleContext(path: path, phase: phase)
        for key in changedKeys {
            context.path = path.appending(key: key)
            context.report(.unstable, parameters: ["passes": .integer(maximumNormalizationPasses)])
        }
        return context.issues
    }

    /// Runs the normalisers and rules of one property on a proposed value.
    package func runValue(
        _ value: Any, keyPath: AnyKeyPath?, key: String?, operation: ValidationOperation?, path: IssuePath = .root
    ) -> (
        value: Any, issues: [ValidationIssue]
    ) {
        // By key, the property's own entries alone are looked at; by key path, every entry.
        // With neither, the entries of the members kept beside the properties (`additionalProperties`).
        let candidates =
            keyPath != nil ? rules : key.map { propertyRules[$0] ?? [] } ?? rules.filter { $0.key == nil }
        let matching = candidates.filter { rule in
            guard !rule.isObjectCheck, rule.applies(to: operation) else { return false }
            if let keyPath { return rule.keyPath.map { $0 as AnyKeyPath } == keyPath }
            return rule.key == key
        }
        let resolvedKey = key ?? matching.first?.key
        var context = RuleContext(
            path: resolvedKey.map { path.appending(key: $0) } ?? path, phase: operation?.phase ?? .property)
        if keyPath == nil, let key, candidates.isEmpty, !knownKeys.contains(key) {
            // A key the model does not have: an error, never a silent pass (a typo would accept anything).
            context.path = path
            context.report(.unknownKey, parameters: ["key": .string(key)])
            return (value, context.issues)
        }
        var value = value
        let normalizers = matching.filter { $0.normalizeValue != nil }
        if !normalizers.isEmpty {
            var stable = false
            for _ in 0..<maximumNormalizationPasses {
                stable = true
                for rule in normalizers {
                    guard let (next, changed) = rule.normalizeValue!(value) else { continue }
                    if changed {
                        value = next
                        stable = false
                    }
                }
                if stable { break }
            }
            if !stable { context.report(.unstable, parameters: ["passes": .integer(maximumNormalizationPasses)]) }
        }
        context.path = path
        for rule in matching { rule.checkValue?(value, operation, &context) }
        return (value, context.issues)
    }

    /// The issues of the model's ``ModelRule/when(_:_:in:orAbsent:on:then:else:)-(KeyPath<Model,V>Sendable,_,_,_,_,_,_)``,
    /// ``ModelRule/exactlyOne(of:on:)`` and ``ModelRule/atLeastOne(of:on:)`` entries read from the
    /// values of its members alone (by key; a member that did not decode is missing from
    /// `members`, or there as an ``UndecodedMember``): what a model that did not decode can still be
    /// checked for, so that a branch's failures are reported with the other failures. A condition on
    /// a member that did not decode is decided when its values are scalars: a member in the input
    /// holds none of them (each would have decoded), a member not in it is absent. A branch entry of
    /// such a member is passed over, as is a set of alternatives one of which reads such a member.
    /// A check that reads the model's input (a check against a JSON Schema) reads `input`'s value,
    /// when there is one.
    package func conditionalIssues(
        members: [String: Any], input: (() -> Any?)? = nil, operation: ValidationOperation?, path: IssuePath = .root
    ) -> [ValidationIssue] {
        var context = RuleContext(path: path, phase: operation?.phase ?? .object)
        var read: Any??
        for rule in rules where rule.applies(to: operation) {
            switch rule.role {
            case .when, .alternatives: rule.checkValue?(members, operation, &context)
            case .check:
                // A check that reads the input (a JSON Schema's keywords), when the decoder has it.
                guard let checkInput = rule.checkInput, let input else { continue }
                if read == nil { read = .some(input()) }
                guard let value = read ?? nil else { continue }
                checkInput(value, &context)
            case .rules, .normalizer, .nested, .dependentRequired: continue
            }
        }
        return context.issues
    }
}

/// How ``Validation`` checks a model: a first pass that only tells whether there is an issue, then
/// for a model with an issue a pass that locates them; or the first pass alone.
package enum ValidationPass: Sendable {
    /// The first pass, then the locating pass for a model with an issue.
    case both
    /// The first pass alone: issues unlocated, only their presence meaningful.
    case firstOnly
}
