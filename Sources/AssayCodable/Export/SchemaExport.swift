import AssayCore
import AssayJSON
import Foundation

/// A type that can describe itself as JSON Schema 2020-12: the standard scalar and collection types,
/// ``ValidatedValue`` types and `@Validatable` models.
public protocol JSONSchemaExportable {
    /// The type's schema; models register themselves in the exporter's `$defs` and return a `$ref`.
    static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue
}

/// Writes the rules of Swift types as one JSON Schema 2020-12 document, so one declaration drives
/// the app, the docs and `assay validate`.
///
/// <!-- snippet: doc-schema-export -->
/// ```swift
/// let schema = JSONSchemaExporter.document(for: Client.self)
/// print(schema.jsonString(.prettyPrinted))
/// ```
///
/// The export reads each rule's `RuleKind` — the description the rule's factory recorded from the
/// same arguments it built the check from — through one exhaustive `switch`: `range` →
/// `minimum`/`maximum` (or their exclusive forms), `length` → `minLength`/`maxLength`, `count` →
/// `minItems`/`maxItems`, `multipleOf`, `pattern`, `charset` and `notBlank` → `pattern`, `format` →
/// `format`, `url` → `format: uri` with a `pattern` for its schemes and host, `oneOf` → `enum`,
/// `const`, `unique` → `uniqueItems`, `each` → `items`, `and`/`or`/`not` → `allOf`/`anyOf`/`not`.
/// Each of these states exactly what the rule accepts (formats where the validator asserts them,
/// as `assay` does by default).
///
/// What JSON Schema cannot state is left out of the assertions and named, in the schema's
/// `$comment` and in its `x-assay-unchecked` list: custom rules and object-level checks; ranges of
/// dates or strings; lengths counted in other units than Unicode scalars; `email`, which is stricter
/// than any format (the nearest format, looser, is still exported); rules of another severity than
/// `error`; rules that apply only to some operations (`on:`); normalisers (the schema sees the value
/// before normalisation). An `or` or a `not` around such a rule is left out whole, never weakened
/// into a different assertion. ``strictDocument(for:)`` refuses to export any of them.
public struct JSONSchemaExporter {
    /// The schemas of the models met so far, by name.
    public private(set) var definitions: JSONObject = [:]
    /// The type each name in ``definitions`` was given to: two models of the same name from
    /// different modules or enclosing types get different names.
    private var owners: [String: ObjectIdentifier] = [:]
    private var inProgress: Set<String> = []
    /// What the schema does not check, with the property it concerns.
    public private(set) var unchecked: [String] = []

    /// The operation whose rules the schemas state besides the rules of every operation: `.insert`
    /// for a create request's body, `.update` for an update's. `nil`, the default, states the rules
    /// of every operation and names the others (`on:`) as unchecked.
    public var operation: ValidationOperation?

    /// Makes an empty exporter.
    ///
    /// - Parameter operation: The operation whose rules the schemas state too (see ``operation``).
    public init(operation: ValidationOperation? = nil) {
        self.operation = operation
    }

    /// The whole document for `type`: `$schema`, the type's own schema, and `$defs` for the models it
    /// refers to. Rules JSON Schema cannot state are named in `$comment` and `x-assay-unchecked`.
    ///
    /// - Parameters:
    ///   - type: The type.
    ///   - operation: The operation whose rules the schema states too: `.insert` for the body of a
    ///     create request (see ``operation``).
    public static func document<T>(for type: T.Type, operation: ValidationOperation? = nil) -> JSONValue {
        var exporter = JSONSchemaExporter(operation: operation)
        let root = exporter.schema(for: type)
        return exporter.document(root: root)
    }

    /// The whole document for `type`, only if the schema checks everything its rules do.
    ///
    /// - Throws: ``SchemaExportError`` naming every rule JSON Schema cannot state.
    public static func strictDocument<T>(for type: T.Type) throws(SchemaExportError) -> JSONValue {
        var exporter = JSONSchemaExporter()
        let root = exporter.schema(for: type)
        if !exporter.unchecked.isEmpty { throw SchemaExportError(unchecked: exporter.unchecked) }
        return exporter.document(root: root)
    }

    private mutating func document(root: JSONValue) -> JSONValue {
        var root = root
        // The root model is inlined rather than referenced, unless it refers to itself.
        if case .object(let object) = root, object.count == 1, case .string(let reference)? = object["$ref"],
            let name = reference.split(separator: "/").last.map(String.init),
            let definition = definitions[name]
        {
            let others = definitions.filter { $0.key != name }.map(\.value)
            if !([definition] + others).contains(where: { Self.refers(to: reference, in: $0) }) {
                root = definition
                definitions[name] = nil
            }
        }
        guard case .object(let schema) = root else { return root }
        var document: JSONObject = ["$schema": "https://json-schema.org/draft/2020-12/schema"]
        for (key, value) in schema { document[key] = value }
        if !definitions.isEmpty { document["$defs"] = .object(definitions) }
        return .object(document)
    }

    /// Whether `schema` holds a `$ref` to `reference` anywhere.
    private static func refers(to reference: String, in schema: JSONValue) -> Bool {
        switch schema {
        case .object(let object):
            if case .string(reference)? = object["$ref"] { return true }
            return object.values.contains { refers(to: reference, in: $0) }
        case .array(let elements): return elements.contains { refers(to: reference, in: $0) }
        default: return false
        }
    }

    /// What the export does with a rule declared `on: operations` (`nil`: every operation but delete).
    private enum Treatment {
        /// A keyword of the schema.
        case stated
        /// Left out: it does not apply to ``operation``.
        case skipped
        /// Named as unchecked (only on the operations named): the export is for no operation.
        case noted(String)
    }

    /// Whether a rule declared with `operations` and `severity` is stated by this export; when it is
    /// not for a reason worth telling (other operations, advice), that is noted at `place`.
    private func isStated(
        kind: RuleKind, severity: Severity, on operations: [ValidationOperation]?, at place: String,
        notes: inout [String]
    ) -> Bool {
        guard isStated("\(kind)", on: operations, at: place, notes: &notes) else { return false }
        guard severity == .error else {
            notes.append("\(place): \(kind) (\(severity.rawValue) only)")
            return false
        }
        return true
    }

    /// Whether an object-level entry (`what`) applies to the operation exported; an entry of some
    /// operations only, exported for none, is noted.
    private func isStated(
        _ what: String, on operations: [ValidationOperation]?, at place: String, notes: inout [String]
    ) -> Bool {
        switch treatment(of: operations) {
        case .stated: return true
        case .skipped: return false
        case .noted(let names):
            notes.append("\(place): \(what) (only on \(names))")
            return false
        }
    }

    private func treatment(of operations: [ValidationOperation]?) -> Treatment {
        guard let operations else { return operation == .delete ? .skipped : .stated }
        guard let operation else { return .noted(operations.map(\.description).joined(separator: ", ")) }
        return operations.contains(operation) ? .stated : .skipped
    }

    /// Records rules a type's schema does not check (for ``strictDocument(for:)``).
    mutating func noteUnchecked(_ notes: [String]) { unchecked += notes }

    /// The schema of `type`; an enum of raw values (`CaseIterable`) is the `enum` of them, with
    /// their `type`; `{}` (anything) for another type that does not describe itself.
    public mutating func schema(for type: Any.Type) -> JSONValue {
        if let exportable = type as? any JSONSchemaExportable.Type {
            return exportable.jsonSchema(in: &self)
        }
        if let enumeration = type as? any (RawRepresentable & CaseIterable).Type {
            return Self.casesSchema(enumeration)
        }
        return [:]
    }

    /// `{"type": "string", "enum": [raw values]}` (`integer` …); `{}` when a raw value has no JSON form.
    private static func casesSchema<Enumeration: RawRepresentable & CaseIterable>(_ type: Enumeration.Type)
        -> JSONValue
    {
        var values: [JSONValue] = []
        for item in type.allCases {
            guard let value = json(IssueValue(item.rawValue)), value != .null else { return [:] }
            values.append(value)
        }
        var object: JSONObject = ["enum": .array(values)]
        let kinds = Set(values.map { $0.kind == .integer ? JSONKind.number : $0.kind })
        if kinds.count == 1, let kind = kinds.first {
            let allIntegers = values.allSatisfy { $0.kind == .integer }
            object["type"] = .string(allIntegers && kind == .number ? "integer" : kind.rawValue)
        }
        return .object(object)
    }

    /// The schema of `type` with the keywords of `rule` (one alternative of a generated union, a
    /// value checked by a rule of its own); what the keywords cannot state is named as unchecked,
    /// at `place`.
    public mutating func schema<T>(for type: T.Type, rule: Rule<T>, at place: String) -> JSONValue {
        var schema = schema(for: type)
        guard rule.severity == .error else {
            unchecked.append("\(place): \(rule.kind) (\(rule.severity.rawValue) only)")
            return schema
        }
        let exported = Self.keywords(for: rule.kind)
        schema = Self.merge(schema, .object(exported.keywords))
        unchecked += exported.unstated.map { "\(place): \($0)" }
        return schema
    }

    /// The name `type` has in `$defs`: its own, unless another type took it, then its full name
    /// (module and enclosing types), with characters a JSON Pointer in a URI fragment cannot hold
    /// replaced by `_`.
    private mutating func definitionName(of type: Any.Type) -> String {
        let identity = ObjectIdentifier(type)
        func sanitized(_ name: String) -> String {
            String(
                String.UnicodeScalarView(
                    name.unicodeScalars.map {
                        $0.isASCII
                            && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
                                || "._-".unicodeScalars.contains($0))
                            ? $0 : "_"
                    }))
        }
        // Its own name; its full name if another type took that; numbered if even that reads the same.
        let full = sanitized(String(reflecting: type))
        var name = sanitized(String(describing: type))
        var number = 1
        while let owner = owners[name], owner != identity {
            number += 1
            name = number == 2 ? full : "\(full)_\(number)"
        }
        owners[name] = identity
        return name
    }

    /// The schema `body` makes for `type`, registered in `$defs` under the type's name as a model's
    /// is; returns the `$ref`. What `assay generate swift` writes for a tuple's struct, which may
    /// hold itself (through a box) with no model in between: it refers to its own definition there.
    public mutating func definition(
        of type: Any.Type, _ body: (inout JSONSchemaExporter) -> JSONValue
    ) -> JSONValue {
        let name = definitionName(of: type)
        let reference: JSONValue = ["$ref": .string("#/$defs/\(name)")]
        if definitions[name] != nil || inProgress.contains(name) { return reference }
        inProgress.insert(name)
        definitions[name] = body(&self)
        inProgress.remove(name)
        return reference
    }

    /// The schema of a model, registered in `$defs` under its type name; returns the `$ref`.
    ///
    /// - Parameters:
    ///   - type: The model.
    ///   - properties: Its decoded properties in order: key, Swift type, and whether the key must be
    ///     present (not optional, no default).
    ///   - additionalProperties: `false` for a model that refuses keys it does not declare
    ///     (`@Validatable(unknownKeys: .reject)`).
    ///   - additionalPropertiesType: The value type of the members the model keeps beside its
    ///     properties (`@AdditionalProperties`): the schema of the other members, with the
    ///     `values` rules of the model's entry for them.
    public mutating func model<Model: Validatable>(
        _ type: Model.Type, properties: [(key: String, type: Any.Type, required: Bool)],
        additionalProperties: Bool = true, additionalPropertiesType: Any.Type? = nil
    ) -> JSONValue {
        let name = definitionName(of: Model.self)
        let reference: JSONValue = ["$ref": .string("#/$defs/\(name)")]
        if definitions[name] != nil || inProgress.contains(name) { return reference }
        inProgress.insert(name)
        var object: JSONObject = ["type": "object"]
        var members: JSONObject = [:]
        var required: [JSONValue] = []
        var notes: [String] = []
        let rules = Model.validation.rules
        for property in properties {
            var schema = schema(for: property.type)
            var mustBePresent = property.required
            for rule in rules where rule.key == property.key {
                let place = "\(name).\(property.key)"
                switch rule.role {
                case .nested:
                    continue  // the property's type carries its own rules
                case .normalizer:
                    let note = "\(place): normalised before its rules are checked (the schema sees the value as sent)"
                    if notes.last != note { notes.append(note) }
                    continue
                case .check(let check):
                    notes.append("\(place): check \(check)")
                    continue
                case .dependentRequired, .when, .alternatives:
                    continue  // an object-level entry: below
                case .rules(let declared):
                    for each in declared
                    where isStated(
                        kind: each.kind, severity: each.severity, on: rule.operations, at: place, notes: &notes)
                    {
                        if each.kind == .required || each.kind == .present {
                            mustBePresent = true
                            // `nil` is missing or `null`: both are refused; a `Nullable`'s `.null` is present.
                            if each.kind == .required { schema = Self.removingNull(schema) }
                            continue
                        }
                        let exported = Self.keywords(for: each.kind)
                        schema = Self.merge(schema, .object(exported.keywords))
                        notes += exported.unstated.map { "\(place): \($0)" }
                    }
                }
            }
            members[property.key] = schema
            if mustBePresent { required.append(.string(property.key)) }
        }
        object["properties"] = .object(members)
        if !required.isEmpty { object["required"] = .array(required) }
        if !additionalProperties { object["additionalProperties"] = false }
        var others = additionalPropertiesType.map { schema(for: $0) }
        var dependencies: JSONObject = [:]
        var keyRules: [JSONValue] = []
        var conditions: [JSONValue] = []
        for rule in rules where rule.key == nil {
            switch rule.role {
            case .rules(let declared) where others != nil:
                // The rules of the members kept beside the properties: `values` states their schema.
                let place = "\(name) (other members)"
                for each in declared
                where isStated(kind: each.kind, severity: each.severity, on: rule.operations, at: place, notes: &notes)
                {
                    switch each.kind {
                    case .values(let kind):
                        let exported = Self.keywords(for: kind)
                        others = Self.merge(others ?? [:], .object(exported.keywords))
                        notes += exported.unstated.map { "\(place): \($0)" }
                    case .keys(let kind):
                        // The other members' keys: a name is a property's or passes the rule.
                        let exported = Self.keywords(for: kind)
                        guard exported.unstated.isEmpty else {
                            notes.append("\(place): \(each.kind)")
                            continue
                        }
                        let declared = properties.map { JSONValue.string($0.key) }
                        var names: JSONValue = .object(exported.keywords)
                        if !declared.isEmpty { names = ["anyOf": [["enum": .array(declared)], names]] }
                        keyRules.append(names)
                    default:
                        notes.append("\(place): \(each.kind)")
                    }
                }
            case .check(let check):
                notes.append("\(name): object check \(check)")
            case .dependentRequired(let key, let requires):
                guard isStated("dependentRequired(\(key))", on: rule.operations, at: name, notes: &notes) else {
                    continue
                }
                var all: [JSONValue] = []
                if case .array(let earlier)? = dependencies[key] { all = earlier }
                dependencies[key] = .array(all + requires.map { .string($0) })
            case .when(let conditional):
                guard isStated("when(\(conditional.key))", on: rule.operations, at: name, notes: &notes) else {
                    continue
                }
                if let schema = conditionalSchema(conditional, properties: members, at: name, notes: &notes) {
                    conditions.append(schema)
                }
            case .alternatives(let alternatives):
                guard isStated(Self.alternativesName(alternatives), on: rule.operations, at: name, notes: &notes) else {
                    continue
                }
                conditions.append(alternativesSchema(alternatives, properties: members, at: name, notes: &notes))
            case .rules, .normalizer, .nested:
                continue
            }
        }
        if !conditions.isEmpty { object["allOf"] = .array(conditions) }
        if let others { object["additionalProperties"] = others }
        if !keyRules.isEmpty {
            object["propertyNames"] = keyRules.count == 1 ? keyRules[0] : ["allOf": .array(keyRules)]
        }
        if !dependencies.isEmpty { object["dependentRequired"] = .object(dependencies) }
        if !notes.isEmpty {
            object["$comment"] = .string("Not checked by this schema: " + notes.joined(separator: "; "))
            object["x-assay-unchecked"] = .array(notes.map { .string($0) })
            unchecked += notes
        }
        definitions[name] = .object(object)
        inProgress.remove(name)
        return reference
    }

    /// A ``ModelRule/when(_:_:in:orAbsent:on:then:else:)-(KeyPath<Model,V>Sendable,_,_,_,_,_,_)`` entry as `if` / `then` / `else`: the condition a
    /// member's `enum` (with `required` unless it holds when the member is absent), each branch the
    /// keywords of its entries. `nil` when the values have no JSON form (noted) or neither branch
    /// states anything.
    private func conditionalSchema<Model>(
        _ conditional: ModelRule<Model>.Conditional, properties: JSONObject, at place: String, notes: inout [String]
    ) -> JSONValue? {
        let condition = Self.keywords(for: .oneOf(conditional.values))
        guard condition.unstated.isEmpty, case .array(var values)? = condition.keywords["enum"] else {
            notes.append("\(place): when(\(conditional.key)) (values with no JSON form)")
            return nil
        }
        // An optional property that holds no value is `nil` when it is missing or `null`.
        if conditional.holdsWhenAbsent { values.append(.null) }
        var test: JSONObject = ["properties": [conditional.key: ["enum": .array(values)]]]
        if !conditional.holdsWhenAbsent { test["required"] = [.string(conditional.key)] }
        var result: JSONObject = ["if": .object(test)]
        let then = branchSchema(conditional.then, properties: properties, at: place, notes: &notes)
        let otherwise = branchSchema(conditional.otherwise, properties: properties, at: place, notes: &notes)
        if !then.isEmpty { result["then"] = .object(then) }
        if !otherwise.isEmpty { result["else"] = .object(otherwise) }
        guard result.count > 1 else { return nil }
        return .object(result)
    }

    /// A ``ModelRule/exactlyOne(of:on:)`` or ``ModelRule/atLeastOne(of:on:)`` entry as `oneOf` or
    /// `anyOf` of its groups, each the keywords of its entries.
    private func alternativesSchema<Model>(
        _ alternatives: ModelRule<Model>.Alternatives, properties: JSONObject, at place: String,
        notes: inout [String]
    ) -> JSONValue {
        let groups = alternatives.alternatives.map { group in
            JSONValue.object(branchSchema(group, properties: properties, at: place, notes: &notes))
        }
        return [alternatives.exactlyOne ? "oneOf" : "anyOf": .array(groups)]
    }

    private static func alternativesName<Model>(_ alternatives: ModelRule<Model>.Alternatives) -> String {
        alternatives.exactlyOne ? "exactlyOne" : "atLeastOne"
    }

    /// The keywords of a branch's entries: its properties' rules under `properties`, the ones that
    /// must hold a value under `required`, its `dependentRequired` and inner conditions.
    private func branchSchema<Model>(
        _ entries: [ModelRule<Model>.Branch], properties: JSONObject, at place: String, notes: inout [String]
    ) -> JSONObject {
        var members: JSONObject = [:]
        var required: [JSONValue] = []
        var dependencies: JSONObject = [:]
        var conditions: [JSONValue] = []
        for entry in entries {
            switch entry.role {
            case .rules(let declared):
                guard let key = entry.key else {
                    notes += declared.map { "\(place) (other members, in a branch): \($0.kind)" }
                    continue
                }
                let at = "\(place).\(key)"
                for each in declared
                where isStated(kind: each.kind, severity: each.severity, on: entry.operations, at: at, notes: &notes) {
                    if each.kind == .required || each.kind == .present {
                        // `nil` is missing or `null`: both are refused; a `Nullable`'s `.null` is present.
                        if !required.contains(.string(key)) { required.append(.string(key)) }
                        if each.kind == .required, properties[key].map(Self.mayBeNull) ?? true {
                            members[key] = Self.merge(members[key] ?? [:], ["not": ["type": "null"]])
                        }
                        continue
                    }
                    let exported = Self.keywords(for: each.kind)
                    members[key] = Self.merge(members[key] ?? [:], .object(exported.keywords))
                    notes += exported.unstated.map { "\(at): \($0)" }
                }
            case .nested, .normalizer:
                continue  // the property's type carries its rules; a branch holds no normaliser
            case .check(let check):
                notes.append("\(place): object check \(check)")
            case .dependentRequired(let key, let requires):
                guard isStated("dependentRequired(\(key))", on: entry.operations, at: place, notes: &notes) else {
                    continue
                }
                var all: [JSONValue] = []
                if case .array(let earlier)? = dependencies[key] { all = earlier }
                dependencies[key] = .array(all + requires.map { .string($0) })
            case .when(let inner):
                guard isStated("when(\(inner.key))", on: entry.operations, at: place, notes: &notes) else { continue }
                if let schema = conditionalSchema(inner, properties: properties, at: place, notes: &notes) {
                    conditions.append(schema)
                }
            case .alternatives(let inner):
                guard isStated(Self.alternativesName(inner), on: entry.operations, at: place, notes: &notes) else {
                    continue
                }
                conditions.append(alternativesSchema(inner, properties: properties, at: place, notes: &notes))
            }
        }
        var object: JSONObject = [:]
        if !members.isEmpty { object["properties"] = .object(members) }
        if !required.isEmpty { object["required"] = .array(required) }
        if !dependencies.isEmpty { object["dependentRequired"] = .object(dependencies) }
        if !conditions.isEmpty { object["allOf"] = .array(conditions) }
        return object
    }

    /// Whether a property's schema may accept `null`: it names `null` among its types, or states no
    /// type (a model's `$ref` never does).
    static func mayBeNull(_ schema: JSONValue) -> Bool {
        guard case .object(let object) = schema else { return schema != false }
        if object["$ref"] != nil { return false }
        switch object["type"] {
        case .string(let type)?: return type == "null"
        case .array(let types)?: return types.contains("null")
        default:
            if case .array(let options)? = object["anyOf"] { return options.contains(where: mayBeNull) }
            return true
        }
    }

    // MARK: Rules as keywords

    /// The keywords a rule kind stands for, and what of it they do not state (empty when they state
    /// it exactly).
    static func keywords(for kind: RuleKind) -> (keywords: JSONObject, unstated: [String]) {
        var object: JSONObject = [:]
        switch kind {
        case .range(let minimum, let maximum, let exclusiveMinimum, let exclusiveMaximum):
            let low = minimum.flatMap(number)
            let high = maximum.flatMap(number)
            if (minimum != nil && low == nil) || (maximum != nil && high == nil) { return ([:], ["\(kind)"]) }
            if let low { object[exclusiveMinimum ? "exclusiveMinimum" : "minimum"] = low }
            if let high { object[exclusiveMaximum ? "exclusiveMaximum" : "maximum"] = high }
        case .finite:
            break  // JSON numbers are always finite.
        case .multipleOf(let factor):
            guard let factor = number(factor) else { return ([:], ["\(kind)"]) }
            object["multipleOf"] = factor
        case .length(let minimum, let maximum, let unit):
            guard unit == .unicodeScalars else { return ([:], ["\(kind)"]) }
            if let minimum { object["minLength"] = .number(JSONNumber(minimum)) }
            if let maximum { object["maxLength"] = .number(JSONNumber(maximum)) }
        case .count(let minimum, let maximum):
            if let minimum { object["minItems"] = .number(JSONNumber(minimum)) }
            if let maximum { object["maxItems"] = .number(JSONNumber(maximum)) }
        case .pattern(let source):
            object["pattern"] = .string(source)
        case .invalidPattern:
            object["not"] = [:]  // the rule fails every value
        case .charset(_, let pattern):
            object["pattern"] = .string(pattern)
        case .notBlank:
            // A scalar outside Unicode's White_Space (ECMA-262's `\S` differs: U+0085, U+FEFF).
            object["pattern"] = "[^\\t-\\r \\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000]"
        case .format(let format):
            object["format"] = .string(format.rawValue)
        case .email(let options):
            // The nearest format accepts more (quoted local parts, domain literals, any non-ASCII
            // code point): exported, and the rule named as not checked exactly.
            object["format"] = options.allowsInternational ? "idn-email" : "email"
            return (object, ["\(kind), stricter than format \(options.allowsInternational ? "idn-email" : "email")"])
        case .url(let schemes):
            object["format"] = "uri"
            object["pattern"] = .string(urlPattern(schemes: schemes))
        case .oneOf(let allowed):
            let values = allowed.compactMap(json)
            guard values.count == allowed.count else { return ([:], ["\(kind)"]) }
            object["enum"] = .array(values)
        case .const(let expected):
            guard let value = json(expected) else { return ([:], ["\(kind)"]) }
            object["const"] = value
        case .unique:
            object["uniqueItems"] = true
        case .each(let element):
            let exported = keywords(for: element)
            guard exported.unstated.isEmpty else { return ([:], ["\(kind)"]) }
            object["items"] = .object(exported.keywords)
        case .values(let value):
            let exported = keywords(for: value)
            guard exported.unstated.isEmpty else { return ([:], ["\(kind)"]) }
            object["additionalProperties"] = .object(exported.keywords)
        case .keys(let key):
            let exported = keywords(for: key)
            guard exported.unstated.isEmpty else { return ([:], ["\(kind)"]) }
            object["propertyNames"] = .object(exported.keywords)
        case .all(let kinds):
            // Each rule left out only loosens the schema: the rest are kept.
            var merged = JSONValue.object([:])
            var unstated: [String] = []
            for kind in kinds {
                let exported = keywords(for: kind)
                merged = merge(merged, .object(exported.keywords))
                unstated += exported.unstated
            }
            guard case .object(let all) = merged else { return ([:], ["\(kind)"]) }
            return (all, unstated)
        case .any(let kinds), .exactlyOne(let kinds):
            let exported = kinds.map(keywords(for:))
            guard exported.allSatisfy(\.unstated.isEmpty) else { return ([:], ["\(kind)"]) }
            let keyword = if case .any = kind { "anyOf" } else { "oneOf" }
            object[keyword] = .array(exported.map { .object($0.keywords) })
        case .not(let inner):
            let exported = keywords(for: inner)
            guard exported.unstated.isEmpty else { return ([:], ["\(kind)"]) }
            object["not"] = .object(exported.keywords)
        case .required, .present:
            break  // stated by the model's `required`
        case .custom, .advisory:
            return ([:], ["\(kind)"])
        }
        return (object, [])
    }

    /// What ``Rule/url(schemes:)`` adds to `format: uri`: one of the schemes (in any case), `//`,
    /// and a host that is not empty (after any user information, before any port).
    static func urlPattern(schemes: [String]) -> String {
        let alternatives = schemes.map { scheme in
            scheme.unicodeScalars.map { scalar -> String in
                let character = String(scalar)
                if scalar.properties.isAlphabetic && scalar.isASCII {
                    return "[\(character.lowercased())\(character.uppercased())]"
                }
                return character == "." || character == "+" ? "\\" + character : character
            }.joined()
        }
        return "^(?:\(alternatives.joined(separator: "|")))://(?:[^/?#]*@)?[^/?#@:][^/?#@]*(?:[/?#]|$)"
    }

    private static func number(_ value: IssueValue) -> JSONValue? {
        switch value {
        case .integer(let integer): return .number(JSONNumber(integer))
        case .number(let double): return JSONNumber(double).map(JSONValue.number)
        case .decimal(let text): return JSONNumber(text: text).map(JSONValue.number)
        default: return nil
        }
    }

    private static func json(_ value: IssueValue) -> JSONValue? {
        switch value {
        case .null: return .null
        case .bool(let bool): return .bool(bool)
        case .string(let string): return .string(string)
        case .list(let list):
            let values = list.compactMap(json)
            return values.count == list.count ? .array(values) : nil
        default: return number(value)
        }
    }

    /// `base` with `extra`'s keywords added; subschemas both have are merged, and another keyword
    /// both have with different values goes into an `allOf`.
    static func merge(_ base: JSONValue, _ extra: JSONValue) -> JSONValue {
        guard case .object(var object) = base, case .object(var more) = extra else { return base }
        // `count` on a dictionary counts its members: an object's `minProperties`/`maxProperties`.
        if object["type"] == "object" {
            for (items, properties) in [("minItems", "minProperties"), ("maxItems", "maxProperties")] {
                if let bound = more[items] {
                    more[items] = nil
                    more[properties] = bound
                }
            }
        }
        var conflicts: JSONObject = [:]
        for (key, value) in more {
            guard let existing = object[key], existing != value else {
                object[key] = value
                continue
            }
            if key != "enum", key != "required", key != "not", case .object = existing, case .object = value {
                object[key] = merge(existing, value)  // `items` of a type and of a rule: one schema
            } else {
                conflicts[key] = value
            }
        }
        if !conflicts.isEmpty {
            var all: [JSONValue] = []
            if case .array(let existing)? = object["allOf"] { all = existing }
            all.append(.object(conflicts))
            object["allOf"] = .array(all)
        }
        return .object(object)
    }

    /// The schema with `null` no longer allowed (for a required optional).
    static func removingNull(_ schema: JSONValue) -> JSONValue {
        guard case .object(var object) = schema else { return schema }
        if case .array(let types)? = object["type"] {
            let kept = types.filter { $0 != "null" }
            object["type"] = kept.count == 1 ? kept[0] : .array(kept)
        } else if case .array(let options)? = object["anyOf"], options.count == 2, options.contains(["type": "null"]) {
            return options.first { $0 != ["type": "null"] } ?? schema
        }
        return .object(object)
    }
}

/// A strict export refused: the rules JSON Schema cannot state, each with its model and property.
public struct SchemaExportError: Error, Sendable, CustomStringConvertible {
    /// What the schema would not check, e.g. `Player.name: custom(even)`.
    public let unchecked: [String]

    /// One line per rule.
    public var description: String {
        "JSON Schema cannot state these rules: " + unchecked.joined(separator: "; ")
    }
}

// MARK: Standard types

extension String: JSONSchemaExportable {
    /// `{"type": "string"}`.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue { ["type": "string"] }
}

extension Bool: JSONSchemaExportable {
    /// `{"type": "boolean"}`.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue { ["type": "boolean"] }
}

extension Double: JSONSchemaExportable {
    /// `{"type": "number"}`.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue { ["type": "number"] }
}

extension Float: JSONSchemaExportable {
    /// `{"type": "number"}`.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue { ["type": "number"] }
}

extension Decimal: JSONSchemaExportable {
    /// `{"type": "number"}`.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue { ["type": "number"] }
}

extension Date: JSONSchemaExportable {
    /// `{"type": "string", "format": "date-time"}`: RFC 3339, as `JSONValueDecoder` reads dates.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue {
        ["type": "string", "format": "date-time"]
    }
}

extension UUID: JSONSchemaExportable {
    /// `{"type": "string", "format": "uuid"}`.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue {
        ["type": "string", "format": "uuid"]
    }
}

extension URL: JSONSchemaExportable {
    /// `{"type": "string", "format": "uri-reference"}`: `URL` decodes relative references too.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue {
        ["type": "string", "format": "uri-reference"]
    }
}

extension JSONValue: JSONSchemaExportable {
    /// `{}`: any JSON value.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue { [:] }
}

/// Fixed-width integers: `integer` within the type's bounds.
extension JSONSchemaExportable where Self: FixedWidthInteger {
    /// `{"type": "integer"}`, with the type's bounds when it is narrower than 64 bits or unsigned.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue {
        var object: JSONObject = ["type": "integer"]
        if Self.bitWidth < 64 || !Self.isSigned, let minimum = JSONNumber(text: String(Self.min)) {
            object["minimum"] = .number(minimum)
        }
        if Self.bitWidth < 64, let maximum = JSONNumber(text: String(Self.max)) { object["maximum"] = .number(maximum) }
        return .object(object)
    }
}

extension Int: JSONSchemaExportable {}
extension Int8: JSONSchemaExportable {}
extension Int16: JSONSchemaExportable {}
extension Int32: JSONSchemaExportable {}
extension Int64: JSONSchemaExportable {}
extension UInt: JSONSchemaExportable {}
extension UInt8: JSONSchemaExportable {}
extension UInt16: JSONSchemaExportable {}
extension UInt32: JSONSchemaExportable {}
extension UInt64: JSONSchemaExportable {}

extension Optional: JSONSchemaExportable {
    /// The wrapped type's schema, `null` allowed too.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue {
        let wrapped = exporter.schema(for: Wrapped.self)
        guard case .object(var object) = wrapped else { return wrapped }
        if object.isEmpty { return wrapped }
        if case .string(let type)? = object["type"] {
            object["type"] = [.string(type), "null"]
            // An enum's list takes `null` too.
            if case .array(let values)? = object["enum"], !values.contains(.null) {
                object["enum"] = .array(values + [.null])
            }
            return .object(object)
        }
        return ["anyOf": [wrapped, ["type": "null"]]]
    }
}

extension Nullable: JSONSchemaExportable {
    /// The wrapped type's schema, `null` allowed too (as an optional's); a model lists the property
    /// among those not required.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue {
        Optional<Wrapped>.jsonSchema(in: &exporter)
    }
}

extension Array: JSONSchemaExportable {
    /// `{"type": "array", "items": element schema}`.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue {
        ["type": "array", "items": exporter.schema(for: Element.self)]
    }
}

extension Set: JSONSchemaExportable {
    /// `{"type": "array", "items": element schema, "uniqueItems": true}`.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue {
        ["type": "array", "items": exporter.schema(for: Element.self), "uniqueItems": true]
    }
}

extension Dictionary: JSONSchemaExportable where Key == String {
    /// `{"type": "object", "additionalProperties": value schema}`.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue {
        ["type": "object", "additionalProperties": exporter.schema(for: Value.self)]
    }
}

extension ValidatedValue {
    /// The raw value's schema with the rule's keywords.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue {
        var schema = exporter.schema(for: RawValue.self)
        let notes: [String]
        if rule.severity == .error {
            let exported = JSONSchemaExporter.keywords(for: rule.kind)
            schema = JSONSchemaExporter.merge(schema, .object(exported.keywords))
            notes = exported.unstated
        } else {
            notes = ["\(rule.kind) (\(rule.severity.rawValue) only)"]
        }
        if !notes.isEmpty, case .object(var object) = schema {
            let named = notes.map { "\(Self.self): \($0)" }
            object["$comment"] = .string("Not checked by this schema: " + named.joined(separator: "; "))
            object["x-assay-unchecked"] = .array(named.map { .string($0) })
            exporter.noteUnchecked(named)
            schema = .object(object)
        }
        return schema
    }
}
