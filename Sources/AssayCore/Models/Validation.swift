/// The rules of a ``Validatable`` type, in declaration order.
public struct Validation<Model>: Sendable, ExpressibleByArrayLiteral {
    /// The rules.
    public var rules: [ModelRule<Model>] {
        didSet { hasNormalizers = rules.contains { $0.normalizeModel != nil } }
    }
    /// Whether any rule normalises, known ahead of every run.
    private var hasNormalizers: Bool
    /// How many times normalisers run before a value still changing is reported as
    /// ``IssueCode/unstable``.
    public var maximumNormalizationPasses: Int

    /// Makes the rules of a type.
    public init(_ rules: [ModelRule<Model>], maximumNormalizationPasses: Int = 8) {
        self.rules = rules
        self.hasNormalizers = rules.contains { $0.normalizeModel != nil }
        self.maximumNormalizationPasses = max(1, maximumNormalizationPasses)
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
    package func run(
        on model: Model, operation: ValidationOperation?, object: ObjectReference?, path: IssuePath,
        includingNested: Bool
    ) -> (model: Model, issues: [ValidationIssue]) {
        var model = model
        var context = RuleContext(path: path, phase: operation?.phase ?? .property)
        normalize(&model, context: &context)
        // The object reference is read from the normalised model, and stamped on every issue.
        context.object = object ?? (model as? any Validatable)?.validationObject
        for index in context.issues.indices { context.issues[index].object = context.object }
        // Loops rather than filtered copies: this runs for every decoded record.
        for rule in rules where !rule.isObjectCheck && rule.applies(to: operation) {
            if !includingNested && rule.isNested { continue }
            rule.checkModel?(model, operation, &context)
        }
        let propertiesValid = !context.hasErrors
        context.phase = operation?.phase ?? .object
        for rule in rules where rule.isObjectCheck && rule.applies(to: operation) {
            if rule.condition == .propertiesValid && !propertiesValid { continue }
            rule.checkModel?(model, operation, &context)
        }
        return (model, context.issues)
    }

    private func normalize(_ model: inout Model, context: inout RuleContext) {
        guard hasNormalizers else { return }
        // No filtered copy of the rules: this runs for every record.
        var changedKeys: [String] = []
        for _ in 0..<maximumNormalizationPasses {
            changedKeys.removeAll(keepingCapacity: true)
            for rule in rules {
                guard let normalize = rule.normalizeModel, normalize(&model) else { continue }
                changedKeys.append(rule.key ?? "")
            }
            if changedKeys.isEmpty { return }
        }
        for key in changedKeys {
            var keyed = context
            keyed.path = context.path.appending(key: key)
            keyed.issues = []
            keyed.report(.unstable, parameters: ["passes": .integer(maximumNormalizationPasses)])
            context.add(keyed.issues)
        }
    }

    /// Runs the normalisers and rules of one property on a proposed value.
    package func runValue(
        _ value: Any, keyPath: AnyKeyPath?, key: String?, operation: ValidationOperation?, path: IssuePath = .root
    ) -> (
        value: Any, issues: [ValidationIssue]
    ) {
        let matching = rules.filter { rule in
            guard !rule.isObjectCheck, rule.applies(to: operation) else { return false }
            if let keyPath { return rule.keyPath.map { $0 as AnyKeyPath } == keyPath }
            return rule.key == key
        }
        let resolvedKey = key ?? matching.first?.key
        var context = RuleContext(
            path: resolvedKey.map { path.appending(key: $0) } ?? path, phase: operation?.phase ?? .property)
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
        for rule in matching { rule.checkValue?(value, &context) }
        return (value, context.issues)
    }
}
