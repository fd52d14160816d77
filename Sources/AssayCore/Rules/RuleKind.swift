/// What a rule checks, as data: its kind and parameters, for every rule Assay provides.
///
/// A rule's factory (``Rule/range(_:)-(ClosedRange<Value>)``, `length(_:unit:)`, `format(_:)`…)
/// records its kind from the same arguments it builds its check from; schema export
/// (`JSONSchemaExporter`) reads the kind alone, through one exhaustive `switch`, so a kind added
/// without its exported form does not compile. Every kind's exported form and what it leaves out is
/// listed in the AssayCore documentation's *Rule kinds* article; a test validates generated values on
/// both sides of each kind's boundary with the rule and with the exported schema and requires the
/// same verdict.
public indirect enum RuleKind: Sendable, Hashable, CustomStringConvertible {
    /// `range`: the value lies between the bounds (numbers, dates, strings, any `Comparable`).
    case range(minimum: IssueValue?, maximum: IssueValue?, exclusiveMinimum: Bool, exclusiveMaximum: Bool)
    /// `finite`: a floating-point value is neither NaN nor infinite.
    case finite
    /// `multipleOf`: the number divided by the factor (an exact decimal) is an integer.
    case multipleOf(IssueValue)
    /// `length`: the text's length, counted in `unit`, lies between the bounds.
    case length(minimum: Int?, maximum: Int?, unit: LengthUnit)
    /// `count`: the collection's element count lies between the bounds.
    case count(minimum: Int?, maximum: Int?)
    /// `pattern`: an ECMA-262 regular expression finds a match in the text.
    case pattern(String)
    /// `pattern` whose expression does not compile: every value fails, naming the error.
    case invalidPattern(String)
    /// `charset`: every scalar of the text is in the class (`pattern` is the class as an anchored
    /// ECMA-262 pattern).
    case charset(name: String, pattern: String)
    /// `notBlank`: the text has a scalar that is not white space.
    case notBlank
    /// `format`: the text is valid for a JSON Schema format.
    case format(TextFormat)
    /// `email`: an email address under the validator's options (stricter than any JSON Schema format).
    case email(EmailAddressValidator.Options)
    /// `url`: an absolute URL with a host, in one of the schemes (compared without case).
    case url(schemes: [String])
    /// `oneOf`: the value is one of the allowed values.
    case oneOf([IssueValue])
    /// `const`: the value equals this one.
    case const(IssueValue)
    /// `unique`: no two elements of the collection are equal.
    case unique
    /// `each`: every element of the collection passes the rule.
    case each(RuleKind)
    /// `values`: every value of the dictionary passes the rule.
    case values(RuleKind)
    /// `keys`: every key of the dictionary passes the rule (a rule on `String`).
    case keys(RuleKind)
    /// `and`: every rule passes.
    case all([RuleKind])
    /// `or`: at least one rule passes.
    case any([RuleKind])
    /// `exactlyOne`: one rule passes, and only one.
    case exactlyOne([RuleKind])
    /// `not`: the rule fails.
    case not(RuleKind)
    /// `required`: an optional value is present.
    case required
    /// `present`: a member that may be `null` (``Nullable``) is in the input, `null` or a value
    /// (JSON Schema's `required`, which `null` meets).
    case present
    /// A rule of the application's own, by name: checked by its closure, not stated by any schema.
    case custom(String)
    /// A rule inside `and`, `or`, `not` or `each` whose issues have another severity than
    /// ``Severity/error`` (``Rule/severity(_:)``): advice, which no schema asserts.
    case advisory(RuleKind, Severity)

    /// The kind's name, as issues' rule locations show it (`range`, `length`, `custom`…).
    public var name: String {
        switch self {
        case .range: return "range"
        case .finite: return "finite"
        case .multipleOf: return "multipleOf"
        case .length: return "length"
        case .count: return "count"
        case .pattern, .invalidPattern: return "pattern"
        case .charset: return "charset"
        case .notBlank: return "notBlank"
        case .format: return "format"
        case .email: return "email"
        case .url: return "url"
        case .oneOf: return "oneOf"
        case .const: return "const"
        case .unique: return "unique"
        case .each: return "each"
        case .values: return "values"
        case .keys: return "keys"
        case .all: return "and"
        case .any: return "or"
        case .exactlyOne: return "exactlyOne"
        case .not: return "not"
        case .required: return "required"
        case .present: return "present"
        case .custom: return "custom"
        case .advisory(let kind, _): return kind.name
        }
    }

    /// `name(parameter: value, …)`.
    public var description: String {
        func bounds(_ minimum: CustomStringConvertible?, _ maximum: CustomStringConvertible?) -> [String] {
            [minimum.map { "minimum: \($0)" }, maximum.map { "maximum: \($0)" }].compactMap { $0 }
        }
        let parts: [String]
        switch self {
        case .range(let minimum, let maximum, let exclusiveMinimum, let exclusiveMaximum):
            parts =
                bounds(minimum, maximum) + (exclusiveMinimum ? ["exclusiveMinimum"] : [])
                + (exclusiveMaximum ? ["exclusiveMaximum"] : [])
        case .multipleOf(let factor): parts = ["\(factor)"]
        case .length(let minimum, let maximum, let unit): parts = bounds(minimum, maximum) + ["unit: \(unit)"]
        case .count(let minimum, let maximum): parts = bounds(minimum, maximum)
        case .pattern(let source), .invalidPattern(let source): parts = [source]
        case .charset(let name, _): parts = [name]
        case .format(let format): parts = [format.rawValue]
        case .email(let options):
            parts = [
                options.allowsInternational ? "international" : "ASCII",
                options.allowsQuotedLocalPart ? "quoted local parts" : nil,
                options.allowsDomainLiteral ? "domain literals" : nil,
            ].compactMap { $0 }
        case .url(let schemes): parts = schemes
        case .oneOf(let allowed): parts = allowed.map(\.description)
        case .const(let value): parts = [value.description]
        case .each(let kind), .values(let kind), .keys(let kind), .not(let kind): parts = [kind.description]
        case .all(let kinds), .any(let kinds), .exactlyOne(let kinds): parts = kinds.map(\.description)
        case .custom(let name): parts = [name]
        case .advisory(let kind, let severity): return "\(kind) (\(severity.rawValue) only)"
        case .finite, .notBlank, .unique, .required, .present: parts = []
        }
        return parts.isEmpty ? name : "\(name)(\(parts.joined(separator: ", ")))"
    }
}
