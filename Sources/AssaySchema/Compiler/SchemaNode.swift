import AssayCore
import AssayJSON
import AssayRegex

/// One compiled schema (or subschema): its keywords with their operands, and where it lives.
///
/// A class so evaluation reads a node with one reference count instead of copying its fields; it is
/// mutated only while the compiler builds it, before any ``JSONSchema`` shares it, hence
/// `@unchecked Sendable`.
final class SchemaNode: @unchecked Sendable {
    /// `true`/`false` schemas.
    var boolean: Bool?
    var keywords: [Keyword] = []
    /// The absolute URI of the schema resource this schema belongs to (no fragment).
    var resourceURI: String { didSet { absoluteBase = Self.absoluteBase(resourceURI, pointer) } }
    /// The JSON Pointer of this schema inside its resource.
    var pointer: String { didSet { absoluteBase = Self.absoluteBase(resourceURI, pointer) } }
    /// `resourceURI#pointer`: what every ``absoluteLocation(of:)`` starts with, made once.
    private var absoluteBase: [UInt8] { didSet { madeLocations = [] } }
    /// The node of the resource's root: the dynamic scope is a list of these.
    var resourceRoot: Int
    /// `$dynamicAnchor` names declared anywhere in this resource (kept on its root): name → node.
    var dynamicAnchors: [String: Int] = [:]
    /// This schema's own `$dynamicAnchor` name.
    var dynamicAnchor: String?
    /// 2019-09 `$recursiveAnchor: true`.
    var recursiveAnchor = false
    var dialect: SchemaDialect

    /// Whether evaluating this node needs to know which properties or items its neighbours evaluated.
    var tracksEvaluation = false
    /// The annotation keywords with their values (`title`, `description`, `default`, `format`…), in
    /// the order written: what the verbose output reports for a schema that passes.
    var annotations: [(keyword: String, value: JSONValue)] = []

    init(boolean: Bool?, resourceURI: String, pointer: String, resourceRoot: Int, dialect: SchemaDialect) {
        self.boolean = boolean
        self.resourceURI = resourceURI
        self.pointer = pointer
        self.absoluteBase = Self.absoluteBase(resourceURI, pointer)
        self.resourceRoot = resourceRoot
        self.dialect = dialect
    }

    static func placeholder() -> SchemaNode {
        SchemaNode(boolean: true, resourceURI: "", pointer: "", resourceRoot: 0, dialect: .draft2020_12)
    }

    /// The ``absoluteLocation(of:)``s made so far (at most ``keptLocations``), read and written
    /// under ``locationLock``.
    private var madeLocations: [(keyword: String, location: String)] = []
    private static let keptLocations = 16
    /// One lock for every node's locations: held for a few comparisons, on the way to an error.
    private static let locationLock = TryLock()

    /// `absoluteKeywordLocation` of `keyword` in this node: made on the keyword's first error and
    /// shared by the next ones (making it each time was a third of the work of recording an error:
    /// a string allocated, written, checked as UTF-8, then freed with the error).
    func absoluteLocation(of keyword: String) -> String {
        Self.locationLock.withLock {
            for made in madeLocations where made.keyword == keyword { return made.location }
            let location = PointerText.string(prefix: absoluteBase, tokens: [], last: keyword.isEmpty ? nil : keyword)
            if madeLocations.count < Self.keptLocations { madeLocations.append((keyword, location)) }
            return location
        }
    }

    private static func absoluteBase(_ resourceURI: String, _ pointer: String) -> [UInt8] {
        Array(resourceURI.utf8) + [UInt8(ascii: "#")] + Array(pointer.utf8)
    }
}

/// A keyword with its compiled operand; `name` is the keyword as written, for locations.
final class Keyword: Sendable {
    let name: String
    let kind: KeywordKind
    /// The UTF-8 of the property names of `properties`, `required` and `additionalProperties`, in
    /// the operand's order (for `additionalProperties`, the order of the sibling `properties`), and
    /// of the strings among the values of `enum` and `const`, for comparing keys and strings on a
    /// parsed document without making strings.
    let utf8Names: UTF8Names
    /// `type`'s names as bits (1 << the name's position in ``JSONTypeName/allCases``).
    let typeMask: UInt8
    /// What the evaluator can decide from this keyword's plain fields alone, without reading the
    /// payload of ``kind`` (reading that enum copies its whole payload): its verdict steps on a
    /// parsed document's tape (``SchemaEvaluator``); `other` keywords take the general path.
    let step: Step
    /// The operand of ``step``: a length or count limit, an integer bound, or a schema index (of
    /// `$ref`, `additionalProperties`, `items`).
    let operand: Int64
    /// The schemas of `properties`, in the order of ``utf8Names``, and those of `prefixItems`,
    /// `allOf`, `anyOf` and `oneOf`; empty for other keywords.
    /// Written once here, read-only after, freed by `deinit`.
    nonisolated(unsafe) let targets: UnsafeMutableBufferPointer<Int>
    /// A second operand: where `items` starts applying.
    let secondOperand: Int
    /// The format of a `format` keyword that may be decided on the string's bytes.
    let byteFormat: TextFormat?
    /// The regular expression of `pattern`.
    let regex: LinearRegex?
    /// The parameters of this keyword's error where they depend on the schema alone (a limit, a
    /// pattern, a format, the allowed values), made once here instead of at every error: the errors
    /// of one keyword share one dictionary, which the message memo then compares by identity. For
    /// `contains`, `minContains`'s (``secondFailure`` is `maxContains`'s); empty for `type` (see
    /// ``typeFailures``) and for the keywords whose errors' parameters come from the value.
    let failure: [String: IssueValue]
    let secondFailure: [String: IssueValue]
    /// For `type`: the parameters of its error for a value of each kind, in ``JSONKind``'s order —
    /// made once per list of type names by the compiler (``SchemaCompiler/typeFailures(_:)``) and
    /// shared by every `type` keyword with that list; empty for other keywords.
    let typeFailures: [[String: IssueValue]]

    /// See ``Keyword/step``.
    enum Step: UInt8 {
        case other, type, maxLength, minLength, maxItems, minItems, ref
        case maximum, exclusiveMaximum, minimum, exclusiveMinimum
        case required, properties, additionalProperties, format, strings, uniqueItems, items, pattern
        /// `multipleOf` a decimal `operand × 10^-secondOperand` (mantissa and scale of 18 digits or
        /// fewer), decided on the number's literal with integer arithmetic.
        case multipleOf
        /// `prefixItems` (or older drafts' array form of `items`), `allOf`, `anyOf` and `oneOf`: their
        /// schemas in ``Keyword/targets``.
        case prefixItems, allOf, anyOf, oneOf

        /// Whether ``SchemaEvaluator``'s step for this keyword only asserts, evaluating no member
        /// or item (so it may decide the keyword where evaluated members and items are tracked).
        var evaluatesNothing: Bool {
            switch self {
            case .type, .maxLength, .minLength, .maxItems, .minItems, .maximum, .exclusiveMaximum, .minimum,
                .exclusiveMinimum, .required, .format, .strings, .uniqueItems, .pattern, .multipleOf:
                return true
            case .other, .ref, .properties, .additionalProperties, .items, .prefixItems, .allOf, .anyOf, .oneOf:
                return false
            }
        }
    }

    init(
        name: String, kind: KeywordKind, utf8Names names: UTF8Names? = nil, typeFailures: [[String: IssueValue]] = []
    ) {
        self.name = name
        self.kind = kind
        var targets: [Int] = []
        var secondOperand = 0
        var byteFormat: TextFormat?
        var regex: LinearRegex?
        switch kind {
        case .type: (step, operand) = (.type, 0)
        case .maxLength(let limit): (step, operand) = (.maxLength, Int64(limit))
        case .minLength(let limit): (step, operand) = (.minLength, Int64(limit))
        case .maxItems(let limit): (step, operand) = (.maxItems, Int64(limit))
        case .minItems(let limit): (step, operand) = (.minItems, Int64(limit))
        case .ref(let target): (step, operand) = (.ref, Int64(target))
        case .maximum(let bound, let exclusive):
            (step, operand) = bound.int64.map { (exclusive ? .exclusiveMaximum : .maximum, $0) } ?? (.other, 0)
        case .minimum(let bound, let exclusive):
            (step, operand) = bound.int64.map { (exclusive ? .exclusiveMinimum : .minimum, $0) } ?? (.other, 0)
        case .required: (step, operand) = (.required, 0)
        case .properties(let list):
            (step, operand) = (.properties, 0)
            targets = list.map(\.1)
        case .additionalProperties(let target, _, let patterns) where patterns.isEmpty:
            (step, operand) = (.additionalProperties, Int64(target))
        case .format(.known(let format)):
            (step, operand) = (.format, 0)
            byteFormat = format
        case .enumeration, .constant: (step, operand) = (.strings, 0)
        case .uniqueItems: (step, operand) = (.uniqueItems, 0)
        case .items(let target, let after):
            (step, operand) = (.items, Int64(target))
            secondOperand = after
        case .pattern(let expression):
            (step, operand) = (.pattern, 0)
            regex = expression
        case .prefixItems(let schemas), .itemsArray(let schemas):
            (step, operand) = (.prefixItems, 0)
            targets = schemas
        case .allOf(let schemas):
            (step, operand) = (.allOf, 0)
            targets = schemas
        case .anyOf(let schemas):
            (step, operand) = (.anyOf, 0)
            targets = schemas
        case .oneOf(let schemas):
            (step, operand) = (.oneOf, 0)
            targets = schemas
        case .multipleOf(let divisor):
            var text = divisor.description
            if let parts = text.withUTF8({ DecimalParts($0) }), parts.mantissa > 0 {
                (step, operand) = (.multipleOf, parts.mantissa)
                secondOperand = parts.scale
            } else {
                (step, operand) = (.other, 0)
            }
        default: (step, operand) = (.other, 0)
        }
        switch kind {
        case _ where names != nil: utf8Names = names ?? UTF8Names([])
        case .properties(let list): utf8Names = UTF8Names(list.map(\.0))
        case .required(let names): utf8Names = UTF8Names(names)
        case .additionalProperties(_, let names, _): utf8Names = UTF8Names(names.sorted())
        case .enumeration(let values, _): utf8Names = UTF8Names(values.compactMap(\.string))
        case .constant(let value): utf8Names = UTF8Names(value.string.map { [$0] } ?? [])
        default: utf8Names = UTF8Names([])
        }
        if case .type(let names) = kind {
            typeMask = names.reduce(0) { $0 | $1.bit }
        } else {
            typeMask = 0
        }
        self.targets = .allocate(capacity: targets.count)
        _ = self.targets.initialize(from: targets)
        self.secondOperand = secondOperand
        self.byteFormat = byteFormat
        self.regex = regex
        (failure, secondFailure) = Self.failures(of: kind)
        if case .type(let names) = kind, typeFailures.isEmpty {
            self.typeFailures = Self.typeFailures(expected: names.map(\.rawValue).joined(separator: " or "))
        } else {
            self.typeFailures = typeFailures
        }
    }

    /// The parameters of a `type` error for a value of each kind, `expected` naming the types.
    static func typeFailures(expected: String) -> [[String: IssueValue]] {
        JSONKind.allCases.map { ["expected": .string(expected), "actual": .string($0.rawValue)] }
    }

    private static func failures(of kind: KeywordKind) -> ([String: IssueValue], [String: IssueValue]) {
        switch kind {
        case .enumeration(let allowed, _):
            let shown = allowed.prefix(10).map { excerpt($0.jsonString()) }.joined(separator: ", ")
            return (["allowed": .string(shown + (allowed.count > 10 ? ", …" : ""))], [:])
        case .constant(let expected): return (["expected": .string(excerpt(expected.jsonString()))], [:])
        case .multipleOf(let divisor): return (["multipleOf": .string(divisor.description)], [:])
        case .maximum(let limit, _): return (["maximum": .string(limit.description)], [:])
        case .minimum(let limit, _): return (["minimum": .string(limit.description)], [:])
        case .maxLength(let limit), .maxItems(let limit), .maxProperties(let limit):
            return (["maximum": .integer(limit)], [:])
        case .minLength(let limit), .minItems(let limit), .minProperties(let limit):
            return (["minimum": .integer(limit)], [:])
        case .pattern(let regex): return (["pattern": .string(regex.source)], [:])
        case .format(.known(let format)): return (["format": .string(format.rawValue)], [:])
        case .format(.rfc1123Hostname): return (["format": "hostname"], [:])
        case .content(_, let json): return (["format": .string(json ? "application/json" : "base64")], [:])
        case .formatBound(_, let bound, let isMaximum, _):
            return ([isMaximum ? "maximum" : "minimum": .string(bound)], [:])
        case .contains(_, let minimum, let maximum):
            return (["minimum": .integer(minimum)], maximum.map { ["maximum": .integer($0)] } ?? [:])
        default: return ([:], [:])
        }
    }

    /// `text` cut to at most 512 characters (ending with `…` when cut): what a message shows of a value.
    static func excerpt(_ text: String) -> String {
        guard text.utf8.count > 512 else { return text }
        return String(text.prefix(511)) + "…"
    }

    deinit {
        utf8Names.deallocate()
        targets.deallocate()
    }
}

/// A compiled format check.
enum FormatCheck: Sendable {
    case known(TextFormat)
    /// `hostname` as drafts 4 and 6 test it: RFC 1123 without the IDNA rules.
    case rfc1123Hostname
    case unknown(String)
}

enum KeywordKind: Sendable {
    case type([JSONTypeName])
    /// `enum`, with a hash set of the values when there are many.
    case enumeration([JSONValue], set: Set<JSONValue>?)
    case constant(JSONValue)
    case multipleOf(JSONNumber)
    case maximum(JSONNumber, exclusive: Bool)
    case minimum(JSONNumber, exclusive: Bool)
    case maxLength(Int)
    case minLength(Int)
    case pattern(LinearRegex)
    case maxItems(Int)
    case minItems(Int)
    case uniqueItems
    case maxProperties(Int)
    case minProperties(Int)
    case required([String])
    case dependentRequired([(String, [String])])
    case properties([(String, Int)])
    case patternProperties([(LinearRegex, Int)])
    /// `additionalProperties`, with the names and patterns of its neighbours `properties` and
    /// `patternProperties`.
    case additionalProperties(Int, names: Set<String>, patterns: [LinearRegex])
    case propertyNames(Int)
    case allOf([Int])
    case anyOf([Int])
    case oneOf([Int])
    case not(Int)
    case conditional(condition: Int, then: Int?, otherwise: Int?)
    case dependentSchemas([(String, Int)])
    case prefixItems([Int])
    /// `items` applying to every element from `after` on (2020-12 after `prefixItems`, or the
    /// single-schema form of older drafts with `after` 0).
    case items(Int, after: Int)
    /// Older drafts' array form of `items`.
    case itemsArray([Int])
    /// Older drafts' `additionalItems`, after an `items` array of `after` schemas.
    case additionalItems(Int, after: Int)
    case contains(Int, minimum: Int, maximum: Int?)
    case unevaluatedItems(Int)
    case unevaluatedProperties(Int)
    case ref(Int)
    /// `$dynamicRef`: the statically resolved node, and the anchor name when the reference is dynamic.
    case dynamicRef(Int, anchor: String?)
    case recursiveRef(Int)
    case format(FormatCheck)
    /// Draft 7's content assertions (later drafts make them annotations): base64 and/or JSON.
    case content(base64: Bool, json: Bool)
    /// `formatMinimum`, `formatMaximum` and their exclusive forms, for `date`, `time` and `date-time`.
    case formatBound(TextFormat, bound: String, isMaximum: Bool, exclusive: Bool)
}

/// JSON Schema's type names.
enum JSONTypeName: String, Sendable, CaseIterable {
    case null, boolean, integer, number, string, array, object

    /// This name's bit in ``Keyword/typeMask``.
    var bit: UInt8 {
        switch self {
        case .null: return 1
        case .boolean: return 2
        case .integer: return 4
        case .number: return 8
        case .string: return 16
        case .array: return 32
        case .object: return 64
        }
    }

    @inline(__always) func matches(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (.null, .null), (.boolean, .bool), (.string, .string), (.array, .array), (.object, .object): return true
        case (.number, .number): return true
        case (.integer, .number(let number)): return number.isInteger
        default: return false
        }
    }
}

extension JSONKind {
    /// The kind's position in `allCases`: which of a `type` keyword's ``Keyword/typeFailures`` its
    /// error takes.
    var index: Int {
        switch self {
        case .null: 0
        case .boolean: 1
        case .integer: 2
        case .number: 3
        case .string: 4
        case .array: 5
        case .object: 6
        }
    }
}
