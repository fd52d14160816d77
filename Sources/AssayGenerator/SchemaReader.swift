import AssayJSON
import AssayRegex
import AssaySchema
import Foundation

/// A type to declare.
struct GeneratedType: Equatable {
    enum Kind: Equatable {
        case structure([Field])
        /// Cases: Swift name and raw value.
        case stringEnum([EnumCase])
        /// A `ValidatedValue` around a value of the raw type, checked by the rule expression.
        case wrapper(raw: String, rule: String)
        /// Another name for a type: a schema with no constraint of its own.
        case alias(String)
        /// An enum with a case per alternative of a `oneOf` or `anyOf` that cannot overlap.
        case union(Union)
        /// A struct of the items of an array whose items each have a schema of their own.
        case tuple(Tuple)
    }

    /// A tuple: an array whose first items each have a schema of their own (`prefixItems`, or
    /// draft 7's `items` array), read into a struct's properties in order.
    struct Tuple: Equatable {
        /// The items, in order: `key` is the index; `isOptional` for those past the count every
        /// value has (`minItems`).
        var items: [Field]
        /// The items after them: their Swift type and rules; `nil` when none can follow.
        var rest: (type: String, rules: [String])?
        /// No item may follow those named (`additionalItems: false`): each is reported.
        var refusesMore: Bool
        var minimum: Int?
        var maximum: Int?

        static func == (left: Tuple, right: Tuple) -> Bool {
            left.items == right.items && left.rest?.type == right.rest?.type && left.rest?.rules == right.rest?.rules
                && left.refusesMore == right.refusesMore && left.minimum == right.minimum
                && left.maximum == right.maximum
        }

        /// The count on demand needs a rule: items beyond those named, or fewer named than required.
        var checksCount: Bool {
            (rest != nil && (minimum.map { $0 > items.count } ?? false || maximum != nil))
                || (minimum.map { $0 > items.count } ?? false)
        }
    }

    /// A `oneOf` or `anyOf` whose alternatives are told apart by the value's JSON kind or by a
    /// member every alternative requires with a constant value of its own.
    struct Union: Equatable {
        enum Discriminator: Equatable {
            /// The value's JSON kind.
            case kind
            /// The string value of this member.
            case tag(String)
            /// Which member of its own the object holds: each alternative requires one that no
            /// other allows.
            case member
            /// Each alternative tried in turn: exactly one must take the value (`oneOf`), or the
            /// first that takes it is the value (`anyOf`). The union's schema is at `pointer`, where
            /// it is checked instead when an alternative holds such a union in turn.
            case trial(exactlyOne: Bool, pointer: String)
        }

        struct Case: Equatable {
            var name: String
            /// The payload's Swift type.
            var payload: String
            /// The payload's rule expression, when it has rules.
            var rule: String?
            /// The JSON kind (`string`, `object` …) or the member's value that selects the case.
            var match: String
            /// The struct or enum the case holds directly (not through an array): what makes a cycle.
            var direct: String?
            /// A `.tag` union's further values of the member that select the case (its `enum` of several).
            var moreTags: [String] = []
        }

        /// The match of a last case that takes a value of every JSON type the others do not.
        static let otherKinds = "other"

        var discriminator: Discriminator
        var cases: [Case]
        /// What selects a `.tag` union's last tagged case beside the values its case names.
        var lastTags = LastTags.one
        /// A `.tag` union's last case is the object without the member (the cases before it name
        /// its values).
        var absentTag = false

        /// What selects the last case of a union told apart by a member, beside the values it names.
        enum LastTags: Equatable {
            /// Those values alone.
            case one
            /// Every string the other cases do not name.
            case anyOther
        }
        /// The enum holds itself through its payloads: its cases are boxed.
        var isIndirect = false
        /// `unevaluatedProperties: false` beside the union: its object alternatives refuse members
        /// they do not declare, and an object that fails has each of its members reported.
        var closed = false
        /// Where the union's schema is when it stands beside members of the object around it (each
        /// case holds them too): a value no case is selected for is checked against it, so that
        /// those members' failures are reported where the schema reports them.
        var unmatchedSchema: String?
    }

    struct EnumCase: Equatable {
        var name: String
        var value: String
        /// The doc comment's lines: the `title` and `description` of the case's `const` alternative.
        var documentation: [String] = []
    }

    var name: String
    var documentation: [String]
    var kind: Kind
    /// Rules of the whole object (`.dependentRequired(…)`), as `ModelRule` expressions.
    var modelRules: [String] = []
    /// Keys the struct does not declare are refused (`additionalProperties: false`).
    var refusesUnknownKeys = false
    /// And when the struct fails, every key it has is reported: the one object alternative of a
    /// union beside `unevaluatedProperties: false` (`{"oneOf": [{"type": "null"}, {…}]}`). For a
    /// string enum of such a union's constants: an object given instead has each member reported.
    var cascadesUnknownKeys = false
    /// The members the struct keeps beside its properties (`@AdditionalProperties`).
    var additional: Additional?

    /// A struct's `@AdditionalProperties` property: `[String: value]`.
    struct Additional: Equatable {
        var name: String
        var value: String
        /// Rules on the dictionary (`.values(…)`), pinned to its type.
        var rules: [String]
    }
}

/// A schema (or some keywords of it) that values are checked against with AssaySchema.
struct Fallback: Equatable {
    var pointer: String
    var keywords: [String]?
}

/// A stored property of a generated struct.
struct Field: Equatable {
    /// The Swift name, escaped when it is a keyword.
    var name: String
    /// The JSON key.
    var key: String
    /// The Swift type, `?` included.
    var type: String
    /// Rule expressions, `.length(2...100)`.
    var rules: [String]
    /// Present even when `null` (`@Required`).
    var mustBePresent: Bool
    /// May be missing, never `null` (`@NotNull`).
    var refusesNull: Bool
    var isOptional: Bool
    var documentation: [String]
    /// The struct it holds directly (not through an array or a dictionary): what makes a cycle.
    var directStruct: String?
    /// The member's schema in `properties`.
    var schema: JSONValue = .bool(true)

    /// A member that may be missing or `null`, the two told apart (`Nullable<T>`).
    var isNullable: Bool { type.hasPrefix("Nullable<") }

    /// The type without its optional or `Nullable` wrapper.
    var baseType: String {
        if isNullable { return String(type.dropFirst("Nullable<".count).dropLast()) }
        return type.hasSuffix("?") ? String(type.dropLast()) : type
    }
}

/// What a property's schema becomes: a Swift type and the rules on it.
struct TypeReference {
    var swift: String
    var rules: [String]
    /// `null` is one of the values.
    var nullable: Bool
    var directStruct: String?
    /// Whether the rules alone tell Swift their value type (`.length(2...)` is a `Rule<String>`;
    /// `.multipleOf(2)` or `.count(1...)` could be of many): when not, the first is written with it.
    var pinned = true
}

/// Reads a schema document into the types to declare.
struct SchemaReader {
    let document: JSONValue
    let options: SwiftGeneratorOptions
    private(set) var types: [GeneratedType] = []
    private(set) var notes: [String] = []
    /// The pointers of the schemas checked with AssaySchema at decode time, for want of typed rules.
    private(set) var fallbacks: [Fallback] = []
    /// The other documents the checks reach through `$ref`s (found in the options' registry), by URI.
    private(set) var resources: [(uri: String, document: JSONValue)] = []
    /// The names of the string enums declared for named schemas.
    private var namedEnums: Set<String> = []
    /// Whether a schema below the root has an `$id` (a `$ref` below it is read against it).
    private var hasEmbeddedResources = false
    /// The places a `$ref` of the document names (`#/…` fragments, decoded).
    private var referencedPlaces: Set<String> = []
    /// A `$ref` applies beside the keywords around it (2019-09 and later; before, they are
    /// ignored, and an OpenAPI 3.0 document says so too).
    private var refsBesideSiblings = false
    /// A `$ref` is read alone, the keywords beside it ignored (a draft 4, 6 or 7 document says so;
    /// those that hold subschemas are kept in the document, a `$ref` elsewhere may point into them).
    private var refsIgnoreSiblings = false
    /// The places whose schema is read merged with others (``unionBesideMembers(_:at:nameHint:declaring:)``):
    /// what is written there is not all the value must pass, so it is never checked there alone.
    private var synthesized: Set<String> = []
    /// The places of the alternatives of a union read merged with the object around it, by the
    /// union's pointer, where they are not `oneOf/N` (conditions of an `allOf`: `allOf/N`).
    private var mergedPlaces: [String: [String]] = [:]
    /// What names the case of such an alternative, read from the alternative as written (the
    /// definition its `$ref` names …), by its place.
    private var mergedCaseBases: [String: String] = [:]
    /// The alternatives that are an object without the member a union's other alternatives are
    /// told apart by (conditions on a member the object does not require), by place: that member.
    private var absentTagPlaces: [String: String] = [:]
    /// The unions of a condition's branches (``conditionalBranches(_:at:)``), by pointer: tried in
    /// turn, never told apart by a member the condition does not test.
    private var triedOnly: Set<String> = []
    /// The unions beside members that were read and could not be typed, by pointer: not tried
    /// again (a chain of them, each read again by the struct it falls back to, would be read a
    /// number of times exponential in its length).
    private var failedMerges: Set<String> = []
    /// How many schemas were read (``resolveTyped(_:at:nameHint:declaring:)``): what a test counts
    /// to prove that reading stays polynomial.
    private(set) var resolutions = 0
    private(set) var rootTypeName: String?
    /// The type names claimed, in order, so that a failed attempt can give its names back.
    private var claimLog: [String] = []
    /// For each type name numbered, the next number to try.
    private var nextTypeNumber: [String: Int] = [:]
    /// Named schemas that are declared as types, by pointer.
    private var namedTypes: [String: String] = [:]
    /// Which pointer took each Swift type name.
    private var claimedNames: [String: String] = [:]
    /// Pointers of named schemas being read through a `$ref` (not declared as types), to refuse a cycle.
    private var inlining: [String] = []
    /// The types declared for inline schemas (structs, enums), by pointer: a schema reached from
    /// several places is declared once.
    private var declaredInline: [String: TypeReference] = [:]
    /// The Swift types held by structs checked whole: every struct in them keeps the members it is
    /// given (settled once every type is declared).
    private var keptTypes: [String] = []
    /// How deeply schemas are nested where the reading is: bounded, so that no document exhausts the
    /// stack.
    private var depth = 0
    /// Where the keywords of a schema merged from its `allOf` (``mergedKinds(_:at:)``) are written,
    /// by the merged schema's pointer: for a keyword (`items`, `additionalProperties` …), the pointer
    /// of the schema holding it; for a property (`properties/KEY`), the pointer of its schema.
    private var mergedHomes: [String: [String: String]] = [:]
    /// The types declared for the alternatives of each union whose alternatives are tried in turn,
    /// by the union's name: left out when the union is checked against its schema instead and
    /// nothing else holds them.
    private var trialDeclared: [String: [String]] = [:]
    /// The unions whose alternatives could not all be read to be tried, by pointer, and how many
    /// were attempted (at most ``maximumTrialAttempts`` a document).
    private var failedTrials: Set<String> = []
    private var trialAttempts = 0
    static let maximumTrialAttempts = 10_000

    /// For the enum of a union read merged with the object around it (``mergedPlaces``), the
    /// schema a value no case is selected for is checked against: the union's own, embedded.
    private mutating func unmatchedSchema(at pointer: String) -> String? {
        guard mergedPlaces[pointer] != nil else { return nil }
        fallbacks.append(Fallback(pointer: pointer, keywords: nil))
        return pointer
    }

    /// The place of the alternative `offset` of the union `keyword` at `pointer`.
    private func alternativePlace(_ keyword: String, _ offset: Int, of pointer: String) -> String {
        if let places = mergedPlaces[pointer], offset < places.count { return places[offset] }
        return pointer + "/\(keyword)/\(offset)"
    }

    /// Where the keyword `key` of the schema at `pointer` is written: in the item of its `allOf` that
    /// holds it when the schema was merged from them, else in the schema itself.
    private func home(of key: String, at pointer: String) -> String { mergedHomes[pointer]?[key] ?? pointer }
    static let maximumDepth = 200

    init(document: JSONValue, options: SwiftGeneratorOptions) {
        self.document = Self.withoutVacuousKeywords(Self.inItsDialect(document))
        self.options = options
    }

    /// The keywords a dialect older than 2020-12 does not have, by its `$schema`: in a document of
    /// that dialect they are annotations (`const` in draft 4 validates nothing).
    static func unknownKeywords(in dialect: String) -> Set<String> {
        let since2019: Set<String> = [
            "dependentRequired", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems", "minContains",
            "maxContains", "prefixItems",
        ]
        switch dialect {
        case "http://json-schema.org/draft-04/schema#", "http://json-schema.org/draft-04/schema":
            return since2019.union(["const", "contains", "propertyNames", "if", "then", "else"])
        case "http://json-schema.org/draft-06/schema#", "http://json-schema.org/draft-06/schema":
            return since2019.union(["if", "then", "else"])
        case "http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema":
            return since2019
        case "https://json-schema.org/draft/2019-09/schema", "https://json-schema.org/draft/2019-09/schema#":
            return ["prefixItems"]
        default:
            return []
        }
    }

    /// The document as the generator reads it: the keywords its root `$schema`'s dialect does not
    /// have left out of every schema in it (the generated file embeds the document as it is), the
    /// content keywords where they are annotations: everywhere but in draft 7, which asserts
    /// `contentEncoding: base64` and `contentMediaType: application/json` (AssaySchema does), and
    /// before 2019-09 the assertions beside a `$ref`, which are ignored there.
    static func inItsDialect(_ document: JSONValue) -> JSONValue {
        guard case .object(let root) = document else { return document }
        let dialect = root["$schema"].flatMap(string) ?? ""
        let unknown = unknownKeywords(in: dialect)
        let assertsContent = dialect.hasPrefix("http://json-schema.org/draft-07/schema")
        func asserted(_ key: String, _ value: JSONValue) -> Bool {
            guard assertsContent, let text = string(value)?.lowercased() else { return false }
            return key == "contentEncoding" ? text == "base64" : text == "application/json"
        }
        // Before 2019-09 the keywords beside a `$ref` are ignored: those that hold no subschema (a
        // `$ref` elsewhere may point into one) are left out.
        let ignoresBesideReference = ignoresBesideReference(dialect)
        return mappingSchemas(document) { object in
            var object = object
            let referring = ignoresBesideReference && object["$ref"] != nil
            for (key, value) in object {
                if unknown.contains(key) {
                    object[key] = nil
                } else if (key == "contentEncoding" || key == "contentMediaType") && !asserted(key, value) {
                    object[key] = nil
                } else if referring && assertions.contains(key) {
                    object[key] = nil
                }
            }
            return object
        }
    }

    /// Whether the dialect ignores the keywords beside a `$ref` (drafts 4, 6 and 7).
    static func ignoresBesideReference(_ dialect: String) -> Bool {
        ["draft-04", "draft-06", "draft-07"].contains { dialect.contains($0) }
    }

    /// The keywords that hold no subschema and constrain values.
    static let assertions: Set<String> = [
        "type", "enum", "const", "minLength", "maxLength", "pattern", "format", "minimum", "maximum",
        "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "uniqueItems", "required",
        "minProperties", "maxProperties", "dependentRequired", "nullable",
    ]

    /// `document` with `transform` applied to each schema object in it (the root, and every schema
    /// a subschema keyword holds, read after the transform), one walk. Schemas nested past 512 are
    /// left as they are: the generator refuses them.
    static func mappingSchemas(_ document: JSONValue, _ transform: (JSONObject) -> JSONObject) -> JSONValue {
        let maps: Set<String> = [
            "properties", "patternProperties", "$defs", "definitions", "dependencies", "dependentSchemas",
        ]
        let single: Set<String> = [
            "items", "additionalItems", "additionalProperties", "not", "contains", "if", "then", "else",
            "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema",
        ]
        let lists: Set<String> = ["allOf", "anyOf", "oneOf", "items", "prefixItems"]
        func mapped(_ schema: JSONValue, depth: Int) -> JSONValue {
            guard case .object(let original) = schema, depth < 512 else { return schema }
            var object = transform(original)
            for key in object.keys {
                guard let value = object[key] else { continue }
                if maps.contains(key), case .object(var members) = value {
                    for name in members.keys { members[name] = members[name].map { mapped($0, depth: depth + 1) } }
                    object[key] = .object(members)
                } else if lists.contains(key), case .array(let items) = value {
                    object[key] = .array(items.map { mapped($0, depth: depth + 1) })
                } else if single.contains(key) {
                    object[key] = mapped(value, depth: depth + 1)
                }
            }
            return .object(object)
        }
        return mapped(document, depth: 0)
    }

    static let handled: Set<String> = [
        "type", "enum", "const", "$ref", "nullable", "minLength", "maxLength", "pattern", "format", "minimum",
        "maximum",
        "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "items", "minItems", "maxItems", "uniqueItems",
        "properties", "required", "additionalProperties", "dependentRequired", "dependencies",
    ]
    /// Keywords that constrain values but have no typed rule: a schema holding one is checked with
    /// AssaySchema (any other member is an annotation, ignored as the specification has it).
    static let untyped: Set<String> = [
        "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "patternProperties",
        "unevaluatedProperties", "unevaluatedItems", "propertyNames", "minProperties", "maxProperties", "contains",
        "minContains", "maxContains", "prefixItems", "additionalItems", "$dynamicRef", "$recursiveRef",
        // Draft 7's assertions (``inItsDialect(_:)`` leaves them out where they are annotations).
        "contentEncoding", "contentMediaType",
    ]
    /// The keywords of an array's items with no typed rule, checked on the array with AssaySchema.
    static let itemChecks: Set<String> = [
        "prefixItems", "additionalItems", "contains", "minContains", "maxContains", "unevaluatedItems",
    ]
    /// The object-level keywords a struct can be checked against after decoding, when what they
    /// read is what the struct keeps.
    static let objectChecks: Set<String> = [
        "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "dependencies",
    ]

    /// The `$schema` URIs of the standard dialects, whose vocabularies the generator reads.
    static let standardDialects: Set<String> = [
        "http://json-schema.org/draft-04/schema#", "http://json-schema.org/draft-04/schema",
        "http://json-schema.org/draft-06/schema#", "http://json-schema.org/draft-06/schema",
        "http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema",
        "https://json-schema.org/draft/2019-09/schema", "https://json-schema.org/draft/2019-09/schema#",
        "https://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft/2020-12/schema#",
    ]

    /// Whether a member of a schema constrains values (else it is an annotation).
    static func constrains(_ key: String) -> Bool { handled.contains(key) || untyped.contains(key) }

    mutating func read() throws(SwiftGenerationError) {
        let root: JSONObject
        switch document {
        case .object(let object): root = object
        case .bool: root = [:]
        default: throw SwiftGenerationError(pointer: "", message: "the document is not a JSON Schema object")
        }
        if case .string(let dialect)? = root["$schema"], !Self.standardDialects.contains(dialect) {
            // A metaschema of its own may leave vocabularies out (a `minimum` that validates
            // nothing): its keywords cannot be read as the standard ones.
            throw SwiftGenerationError(
                pointer: "/$schema",
                message:
                    "the dialect \(dialect) is not a standard one (draft 4 to 2020-12): its vocabularies are not read")
        }
        var named: [(pointer: String, key: String, schema: JSONValue)] = []
        let isOpenAPI = root["openapi"] != nil
        if isOpenAPI {
            guard case .object(let components)? = root["components"], case .object(let schemas)? = components["schemas"]
            else {
                throw SwiftGenerationError(
                    pointer: "/components", message: "an OpenAPI document with no components.schemas has no types")
            }
            for (key, schema) in schemas {
                named.append(("/components/schemas/" + Self.escape(key), key, schema))
            }
        } else {
            for container in ["$defs", "definitions"] {
                guard let value = root[container] else { continue }
                guard case .object(let definitions) = value else {
                    throw SwiftGenerationError(pointer: "/" + container, message: "\(container) is not an object")
                }
                for (key, schema) in definitions {
                    named.append(("/\(container)/" + Self.escape(key), key, schema))
                }
            }
        }
        hasEmbeddedResources = Self.hasEmbeddedResources(document)
        referencedPlaces = Self.referencedPlaces(in: document)
        switch root["$schema"].flatMap(Self.string) {
        case nil: refsBesideSiblings = !isOpenAPI
        case let dialect?:
            refsBesideSiblings = dialect.contains("2019-09") || dialect.contains("2020-12")
            refsIgnoreSiblings = Self.ignoresBesideReference(dialect)
        }
        // Names first, so that a $ref reaches a type declared later.
        if !isOpenAPI && !Self.isDefinitionsOnly(root) {
            let base = options.rootName ?? Self.string(root["title"]) ?? "Root"
            let name = try claim(SwiftNames.typeName(base, prefix: options.typePrefix), for: "")
            namedTypes[""] = name
            rootTypeName = name
        }
        for entry in named where Self.isObjectLike(entry.schema) || Self.isStringEnum(entry.schema) {
            let name = try claim(SwiftNames.typeName(entry.key, prefix: options.typePrefix), for: entry.pointer)
            namedTypes[entry.pointer] = name
            if Self.isStringEnum(entry.schema) { namedEnums.insert(name) }
        }
        if let rootName = rootTypeName {
            if Self.isObjectLike(document) || Self.isStringEnum(document) {
                try declareNamed(document, at: "", name: rootName)
            } else {
                try declareValue(document, at: "", name: rootName)
            }
        }
        for entry in named {
            guard let name = namedTypes[entry.pointer] else {
                // Other named schemas are read where a $ref reaches them; each is checked once here,
                // what it declares or notes given back — but a union, which is an enum of its name.
                let mark = self.mark()
                let isUnion = Self.isUnion(entry.schema)
                let reference = try resolve(
                    entry.schema, at: entry.pointer,
                    nameHint: isUnion ? SwiftNames.typeName(entry.key, prefix: options.typePrefix) : entry.key,
                    declaring: isUnion)
                // An enum, or the type of its one alternative: kept.
                if isUnion && claimedNames[reference.swift] != nil { continue }
                rewind(to: mark)
                if isUnion {
                    // A union with no enum: a type of its name all the same, the value checked whole.
                    let name = try claim(SwiftNames.typeName(entry.key, prefix: options.typePrefix), for: entry.pointer)
                    try declareValue(entry.schema, at: entry.pointer, name: name)
                }
                continue
            }
            try declareNamed(entry.schema, at: entry.pointer, name: name)
        }
        settleTrials()
        var settled: Set<String> = []
        var positions: [String: Int] = [:]
        for (position, type) in types.enumerated() { positions[type.name] = position }
        for type in keptTypes { _ = makeKept(type, positions: positions, visited: &settled) }
        boxRecursion()
        // Last, so that what the reading finds is named first, at its place.
        try compileFallbacks(checkingRoot: !isOpenAPI)
    }

    /// How many times at most a value may be read by the alternatives of the unions above it that
    /// are tried in turn (each alternative reads it once: a union of 4 inside one of 4 reads it 16
    /// times).
    static let maximumTrials = 64

    /// A union whose alternatives are tried in turn reads the value once per alternative, and
    /// unions of them nested in its alternatives multiply that: such a union is checked against its
    /// schema instead when it holds itself (a recursive union would read a value a number of times
    /// that grows with the input's depth) or when it would read a value more than
    /// ``maximumTrials`` times — so that decoding stays linear in the input. One pass over the
    /// components of the types' graph, leaves first.
    private mutating func settleTrials() {
        var positions: [String: Int] = [:]
        for (position, type) in types.enumerated() { positions[type.name] = position }
        guard
            types.contains(where: { type in
                guard case .union(let union) = type.kind, case .trial = union.discriminator else { return false }
                return true
            })
        else { return }
        func held(_ position: Int) -> [String] {
            switch types[position].kind {
            case .structure(let fields): fields.map(\.type) + (types[position].additional.map { [$0.value] } ?? [])
            case .union(let union): union.cases.map(\.payload)
            case .alias(let target): [target]
            case .wrapper(let raw, _): [raw]
            case .stringEnum: []
            case .tuple(let tuple): tuple.items.map(\.type) + (tuple.rest.map { [$0.type] } ?? [])
            }
        }
        func names(in swiftType: String) -> [String] { Self.typeNames(in: swiftType).filter { positions[$0] != nil } }
        var edges: [String: [String]] = [:]
        for position in types.indices { edges[types[position].name] = held(position).flatMap(names) }
        var factor: [String: Int] = [:]
        var converted: [(position: Int, reason: String)] = []
        for component in Self.stronglyConnectedComponents(edges, order: types.map(\.name)) {
            let members = Set(component)
            let cyclic = component.count > 1 || edges[component[0], default: []].contains(component[0])
            var value = 1
            for member in component {
                for target in edges[member, default: []] where !members.contains(target) {
                    value = max(value, factor[target, default: 1])
                }
            }
            for member in component {
                guard let position = positions[member], case .union(let union) = types[position].kind,
                    case .trial = union.discriminator
                else { continue }
                if cyclic {
                    converted.append(
                        (
                            position,
                            "alternatives overlap and hold the union again: tried in turn, they would read a value a number of times that grows with each level of it"
                        ))
                    continue
                }
                // Each alternative reads the value once, and the unions in it as many times again.
                var reads = 0
                for item in union.cases {
                    reads += names(in: item.payload).map { factor[$0, default: 1] }.max() ?? 1
                }
                if reads > Self.maximumTrials {
                    converted.append(
                        (
                            position,
                            "alternatives overlap: tried in turn with the unions in them, they would read a value \(reads) times (more than \(Self.maximumTrials))"
                        ))
                } else {
                    value = max(value, reads)
                }
            }
            for member in component { factor[member] = value }
        }
        var orphans: Set<String> = []
        for (position, reason) in converted {
            orphans.formUnion(trialDeclared[types[position].name] ?? [])
            guard case .union(let union) = types[position].kind,
                case .trial(let exactlyOne, let pointer) = union.discriminator
            else { continue }
            let keyword = exactlyOne ? "oneOf" : "anyOf"
            fallbacks.append(Fallback(pointer: pointer, keywords: nil))
            // A union merged with the object around it is no keyword of its own there.
            let place = union.unmatchedSchema == nil ? "\(pointer)/\(keyword)" : pointer
            notes.append(
                "#\(place): \(keyword) whose \(reason): no Swift enum — the value is checked against its schema at #\(pointer) with AssaySchema when decoded"
            )
            types[position].kind = .wrapper(
                raw: "JSONValue", rule: ".schema(SchemaDocument.schema, at: \(SwiftNames.stringLiteral(pointer)))")
        }
        // The alternatives' types that no other type holds now are left out (but those of the
        // document's root and definitions).
        orphans = orphans.filter { name in
            guard let pointer = claimedNames[name] else { return true }
            return !pointer.isEmpty && Self.definitionKey(pointer) == nil
        }
        guard !orphans.isEmpty else { return }
        var reached: Set<Int> = []
        var pending = types.indices.filter { !orphans.contains(types[$0].name) }
        while let next = pending.popLast() {
            guard reached.insert(next).inserted else { continue }
            pending += held(next).flatMap(names).compactMap { positions[$0] }
        }
        types = types.indices.filter { reached.contains($0) }.map { types[$0] }
    }

    // MARK: Attempts given back

    private struct Mark {
        var types: Int
        var notes: Int
        var fallbacks: Int
        var claims: Int
        var kept: Int
    }

    private func mark() -> Mark {
        Mark(
            types: types.count, notes: notes.count, fallbacks: fallbacks.count, claims: claimLog.count,
            kept: keptTypes.count)
    }

    /// Forgets what was declared, noted and named since `mark`.
    private mutating func rewind(to mark: Mark) {
        types.removeSubrange(mark.types...)
        notes.removeSubrange(mark.notes...)
        fallbacks.removeSubrange(mark.fallbacks...)
        keptTypes.removeSubrange(mark.kept...)
        for name in claimLog[mark.claims...] { claimedNames[name] = nil }
        claimLog.removeSubrange(mark.claims...)
    }

    /// What a schema with no typed Swift form becomes: its own Swift type when it has one scalar
    /// `type`, a `JSONValue` otherwise, checked against the schema itself at decode time (no typed
    /// rule beside it, so no issue is reported twice).
    private mutating func fallback(_ schema: JSONValue, at pointer: String, because error: SwiftGenerationError)
        -> TypeReference
    {
        fallbacks.append(Fallback(pointer: pointer, keywords: nil))
        let place = error.pointer == pointer ? "" : " at #\(pointer)"
        notes.append(
            "#\(error.pointer): \(error.message) — the value is checked against its schema\(place) with AssaySchema when decoded"
        )
        var swift = "JSONValue"
        if case .object(let object) = schema, object["$ref"] == nil, object["nullable"] == nil,
            case .string(let type)? = object["type"]
        {
            swift = Self.scalarSwiftTypes[type] ?? swift
        }
        let rule = ".schema(SchemaDocument.schema, at: \(SwiftNames.stringLiteral(pointer)))"
        return TypeReference(swift: swift, rules: [rule], nullable: swift == "JSONValue", pinned: false)
    }

    /// Checks that AssaySchema compiles every schema the generated code checks values against, as
    /// the generated code will: a mistake is found now, not when the first value is decoded.
    /// With `checkingRoot`, the whole document must compile too (it is one schema; an OpenAPI
    /// document is not).
    private mutating func compileFallbacks(checkingRoot: Bool) throws(SwiftGenerationError) {
        let embedded = EmbeddedSchema(document, registry: options.registry)
        defer {
            // The other documents the checks reach: the generated file embeds them beside this one.
            resources = fallbacks.isEmpty ? [] : embedded.loadedResources()
        }
        if checkingRoot, case .failure(let error) = embedded.compile(at: "") {
            throw SwiftGenerationError(
                pointer: "", message: "the document is not a schema AssaySchema compiles: \(error)")
        }
        let entries = fallbacks.map { embedded.register(at: $0.pointer, keywords: $0.keywords) }
        for (fallback, entry) in zip(fallbacks, entries) {
            if case .failure(let error) = embedded.schema(entry) {
                throw SwiftGenerationError(pointer: fallback.pointer, message: "the schema does not compile: \(error)")
            }
        }
    }

    // MARK: Declarations

    /// The root or a named schema as a struct or a string enum; as a wrapper of the value checked
    /// against the schema when the schema has no typed form.
    private mutating func declareNamed(_ schema: JSONValue, at pointer: String, name: String)
        throws(SwiftGenerationError)
    {
        let schema = Self.constantsAsEnum(schema)
        guard case .object(let object) = schema else { return }
        let mark = self.mark()
        do {
            if Self.isStringEnum(schema) {
                try declareEnum(object, at: pointer, name: name)
            } else if try !declareObjectUnion(object, at: pointer, name: name) {
                try declareStruct(object, at: pointer, name: name)
            }
        } catch {
            guard error.fallsBack else { throw error }
            rewind(to: mark)
            let reference = fallback(schema, at: pointer, because: error)
            types.append(
                GeneratedType(
                    name: name, documentation: Self.documentation(object),
                    kind: .wrapper(raw: reference.swift, rule: reference.rules[0])))
        }
    }

    /// A named `{"type": "object", "oneOf": […]}` (or `anyOf`) whose alternatives an enum tells
    /// apart, declared as that enum; `false`, with nothing declared, when they cannot be (the
    /// struct then checks the keyword).
    private mutating func declareObjectUnion(_ object: JSONObject, at pointer: String, name: String)
        throws(SwiftGenerationError) -> Bool
    {
        let constraints = Set(object.keys.filter(Self.constrains))
        let union = constraints == ["type", "oneOf"] || constraints == ["type", "anyOf"]
        // A union beside the object's own members (or conditions on a member it requires).
        let beside =
            constraints.contains("allOf") || constraints.contains("if")
            || (!constraints.isDisjoint(with: ["oneOf", "anyOf"])
                && !constraints.isDisjoint(with: ["properties", "required", "additionalProperties"]))
        guard union || beside else { return false }
        let mark = self.mark()
        do {
            let reference =
                union
                ? try resolveUnion(object, at: pointer, nameHint: name, declaring: true)
                : try unionBesideMembers(object, at: pointer, nameHint: name, declaring: true)
            if let reference, reference.swift == name { return true }
        } catch {
            guard error.fallsBack else { throw error }
        }
        rewind(to: mark)
        declaredInline[pointer] = nil
        return false
    }

    /// A root that is not an object: another name for its Swift type, or a wrapper that checks the
    /// value's rules.
    private mutating func declareValue(_ schema: JSONValue, at pointer: String, name: String)
        throws(SwiftGenerationError)
    {
        let mark = self.mark()
        var reference = try resolve(schema, at: pointer, nameHint: name, declaring: true)
        if reference.swift == name && reference.nullable,
            case .union(let union)? = types.first(where: { $0.name == name })?.kind,
            !union.cases.contains(where: { $0.match == GeneratedType.Union.otherKinds })
        {
            // An enum of the root's name with no case for `null`, which the schema allows: the
            // root is checked against its schema instead.
            rewind(to: mark)
            reference = fallback(
                schema, at: pointer,
                because: .unsupported(pointer: pointer, message: "a root enum that may be null has no Swift form yet"))
        }
        if reference.swift == name {
            guard types.contains(where: { $0.name == name }) else {
                throw SwiftGenerationError(
                    pointer: pointer, message: "the root refers to itself with no schema in between: no base case")
            }
            return
        }
        if reference.nullable && reference.swift != "JSONValue" && !reference.rules.isEmpty
            && reference.rules.allSatisfy(Self.passesNull)
        {
            // Rules of keywords `null` passes (a pattern, lengths, uniqueness …): the wrapper holds an
            // optional, checked with them made optional (`nil`, which is `null`, passes).
            let rule =
                reference.rules.count == 1 ? reference.rules[0] : ".all([\(reference.rules.joined(separator: ", "))])"
            types.append(
                GeneratedType(
                    name: name, documentation: Self.documentation(schema),
                    kind: .wrapper(raw: reference.swift + "?", rule: "Rule<\(reference.swift)>\(rule).optional")))
            return
        }
        if reference.nullable && reference.swift != "JSONValue" && !reference.rules.isEmpty {
            // The rules are of the value; a wrapper of an optional would need them of the optional.
            rewind(to: mark)
            reference = fallback(
                schema, at: pointer,
                because: .unsupported(
                    pointer: pointer, message: "rules on a root that may be null have no Swift form yet"))
        }
        let raw = reference.nullable && reference.swift != "JSONValue" ? reference.swift + "?" : reference.swift
        let kind: GeneratedType.Kind
        switch reference.rules.count {
        case 0: kind = .alias(raw)
        case 1: kind = .wrapper(raw: raw, rule: reference.rules[0])
        default: kind = .wrapper(raw: raw, rule: ".all([\(reference.rules.joined(separator: ", "))])")
        }
        types.append(GeneratedType(name: name, documentation: Self.documentation(schema), kind: kind))
    }

    private mutating func declareStruct(_ schema: JSONObject, at pointer: String, name: String)
        throws(SwiftGenerationError)
    {
        // `allOf` of object schemas is one struct of all their properties.
        let merged = mergedAllOf(schema, at: pointer)
        let schema = merged?.schema ?? schema
        var places = merged?.places ?? [:]
        // Of a schema merged from an `allOf` of several types, the places of its properties.
        for (key, home) in mergedHomes[pointer] ?? [:] where key.hasPrefix("properties/") {
            places[String(key.dropFirst("properties/".count))] = home
        }
        var objectChecks = schema.keys.filter(Self.untyped.contains)
        // The merged items' `not`, `minProperties` …, each checked at its item's place.
        let mergedChecks = merged?.checks ?? []
        // Draft 7's `dependencies` with a schema among its values is checked as a keyword, whole.
        let dependenciesHaveSchemas = Self.hasSchemaDependencies(schema)
        if dependenciesHaveSchemas { objectChecks.append("dependencies") }
        let hasApplicators = objectChecks.contains { Self.objectChecks.contains($0) }
        // The schema of the members `properties` does not name, and where it is.
        var additional = schema["additionalProperties"]
        var additionalPointer = home(of: "additionalProperties", at: pointer) + "/additionalProperties"
        if let unevaluated = schema["unevaluatedProperties"], !hasApplicators, additional == nil,
            schema["patternProperties"] == nil
        {
            // With no subschema beside it to evaluate members, unevaluatedProperties is additionalProperties.
            additional = unevaluated
            additionalPointer = pointer + "/unevaluatedProperties"
            objectChecks.removeAll { $0 == "unevaluatedProperties" }
        }
        if objectChecks.contains("unevaluatedProperties") {
            throw .unsupported(
                pointer: pointer + "/unevaluatedProperties",
                message:
                    "the keyword unevaluatedProperties beside \(hasApplicators ? "subschemas" : "patternProperties") reads keys a struct does not keep: it has no Swift form yet"
            )
        }
        // One pattern beside `additionalProperties: false`, matching no property's name: the other
        // members are kept, their keys matching the pattern and their values typed by its schema.
        var patternMembers = Self.lonePattern(of: schema, at: pointer)
        if let lone = patternMembers, let regex = try? LinearRegex(lone.pattern),
            case .object(let declared) = schema["properties"] ?? .object([:]),
            case .array(let requiredKeys) = schema["required"] ?? .array([]),
            !declared.keys.contains(where: { regex.firstMatchExists(in: $0) }),
            !(Self.strings(requiredKeys) ?? []).contains(where: { regex.firstMatchExists(in: $0) })
        {
            objectChecks.removeAll { $0 == "patternProperties" }
        } else {
            patternMembers = nil
        }
        // Keywords of the object's members (`patternProperties`, `propertyNames`, `minProperties` …):
        // checked on the struct with every member it was given kept.
        let keyed = objectChecks.filter { !Self.objectChecks.contains($0) }
        let index = types.count
        types.append(GeneratedType(name: name, documentation: Self.documentation(schema), kind: .structure([])))
        var required: [String] = []
        if let value = schema["required"] {
            guard case .array(let items) = value, let keys = Self.strings(items) else {
                throw SwiftGenerationError(
                    pointer: pointer + "/required", message: "required is not an array of strings")
            }
            required = keys
        }
        let dependencies = try Self.dependentRequired(
            schema, at: pointer, skippingDependencies: dependenciesHaveSchemas)
        // A required property's dependents are required too.
        var grown = true
        while grown {
            grown = false
            for (trigger, dependents) in dependencies where required.contains(trigger) {
                for dependent in dependents where !required.contains(dependent) {
                    required.append(dependent)
                    grown = true
                }
            }
        }
        var properties = JSONObject()
        if let value = schema["properties"] {
            guard case .object(let object) = value else {
                throw SwiftGenerationError(pointer: pointer + "/properties", message: "properties is not an object")
            }
            properties = object
        }
        let hasPatterns = schema["patternProperties"] != nil
        switch additional {
        case nil, .bool(true)?: break
        case .bool(false)? where !hasPatterns:
            types[index].refusesUnknownKeys = true
        default:
            // Beside patternProperties, the members left to it are checked with them, on the struct.
            if hasPatterns && patternMembers == nil { objectChecks.append("additionalProperties") }
        }
        var fields: [Field] = []
        var byName: [String: String] = [:]
        var members: [(key: String, schema: JSONValue)] = properties.map { ($0.key, $0.value) }
        var memberKeys = Set(properties.keys)
        // A required key with no schema of its own: present, any value.
        for key in required where memberKeys.insert(key).inserted {
            members.append((key, .bool(true)))
        }
        let requiredKeys = Set(required)
        // The Swift names of every member, and the next number to try for each name taken twice:
        // numbering costs a lookup per member, not a scan.
        let memberNames = Set(members.map { SwiftNames.propertyName($0.key) })
        var nextNumber: [String: Int] = [:]
        for (key, propertySchema) in members {
            let propertyPointer = places[key] ?? pointer + "/properties/" + Self.escape(key)
            var propertyName = SwiftNames.propertyName(key)
            if let other = byName[propertyName] {
                // Two keys of one Swift name (`min-tokens`, `min_tokens`): the later one numbered.
                var number = nextNumber[propertyName, default: 2]
                while byName[propertyName + "\(number)"] != nil || memberNames.contains(propertyName + "\(number)") {
                    number += 1
                }
                nextNumber[propertyName] = number + 1
                notes.append(
                    "#\(propertyPointer): the keys \"\(other)\" and \"\(key)\" both map to the Swift property \(propertyName): \"\(key)\" is \(propertyName)\(number)"
                )
                propertyName += "\(number)"
            }
            byName[propertyName] = key
            // A member merged in from the object around a union is named after the union's enum
            // (the enum's alternatives share it).
            var owner = name
            let own = "/properties/" + Self.escape(key)
            if propertyPointer.hasSuffix(own), propertyPointer != pointer + own,
                let declared = declaredInline(at: String(propertyPointer.dropLast(own.count)))
            {
                owner = declared.swift
            }
            let reference = try resolve(
                propertySchema, at: propertyPointer, nameHint: owner + SwiftNames.typeName(key, prefix: ""),
                declaring: true)
            var rules = reference.rules
            if !reference.pinned, let first = rules.first {
                rules[0] = "Rule<\(reference.swift)>" + first
            }
            let isRequired = requiredKeys.contains(key)
            let isAny = reference.swift == "JSONValue"
            var type = reference.swift
            var isOptional = false
            if !isRequired && reference.nullable && !isAny {
                // Missing and `null` told apart: `.absent` and `.null`.
                type = "Nullable<\(type)>"
                isOptional = true
            } else if !isRequired || (reference.nullable && !isAny) {
                type += "?"
                isOptional = true
            }
            fields.append(
                Field(
                    name: SwiftNames.escaped(propertyName), key: key, type: type, rules: rules,
                    mustBePresent: isRequired && isOptional, refusesNull: !isRequired && !reference.nullable && !isAny,
                    isOptional: isOptional,
                    documentation: Self.documentation(propertySchema), directStruct: reference.directStruct,
                    schema: propertySchema))
        }
        types[index].kind = .structure(fields)
        // The members no property names, as a dictionary of their own type: those of the lone
        // pattern (their keys matching it), or those `additionalProperties` types.
        var others: (schema: JSONValue, pointer: String, keyRule: String?)?
        if let patternMembers {
            others = (
                patternMembers.schema, patternMembers.pointer,
                ".matches(\(SwiftNames.stringLiteral(patternMembers.pattern)))"
            )
        } else if let additional, additional != .bool(true), !hasPatterns, !types[index].refusesUnknownKeys {
            others = (additional, additionalPointer, nil)
        }
        // `propertyNames` of text rules that every property's name meets: the rules of the other
        // members' keys (kept for them when the struct keeps none), or nothing more to check when
        // the struct refuses every other key.
        if objectChecks.contains("propertyNames"), patternMembers == nil, !hasPatterns,
            let names = schema["propertyNames"],
            let rules = try nameRules(names, at: home(of: "propertyNames", at: pointer) + "/propertyNames"),
            !rules.isEmpty, Self.namesPass(fields.map(\.key), names)
        {
            objectChecks.removeAll { $0 == "propertyNames" }
            if !types[index].refusesUnknownKeys {
                others = (others?.schema ?? .bool(true), others?.pointer ?? pointer, Self.joined(rules))
            }
        }
        if let others {
            let value = try memberType(others.schema, at: others.pointer, nameHint: name + "Value", declaring: true)
            var rules = others.keyRule.map { [".keys(\($0))"] } ?? []
            if !value.reference.rules.isEmpty { rules.append(".values(\(Self.joined(value.reference.rules)))") }
            if !rules.isEmpty { rules[0] = "Rule<[String: \(value.swift)]>" + rules[0] }
            types[index].additional = GeneratedType.Additional(
                name: Self.additionalName(avoiding: fields), value: value.swift, rules: rules)
        }
        // A condition on one member whose branches have typed rules (`if: {properties: {kind:
        // {const: …}}}`): a `.when` entry, for the schema's own `if` and for each such item of its
        // `allOf`; the other items of that `allOf` are checked each against its schema.
        var kept: [String: Field] = [:]
        for field in fields { kept[field.key] = field }
        if objectChecks.contains("if"), let rule = try conditionalRule(schema, at: pointer, fields: kept) {
            types[index].modelRules.append(rule)
            objectChecks.removeAll { ["if", "then", "else"].contains($0) }
        }
        // Alternatives of the struct's own members (`oneOf: [{required: ["a"]}, {required: ["b"]}]`):
        // `.exactlyOne(of:)` / `.atLeastOne(of:)` of typed entries.
        for keyword in ["oneOf", "anyOf"] where objectChecks.contains(keyword) {
            if let alternatives = schema[keyword],
                let rule = try alternativesRule(alternatives, keyword: keyword, at: pointer, fields: kept)
            {
                types[index].modelRules.append(rule)
                objectChecks.removeAll { $0 == keyword }
            }
        }
        // Schemas that apply when a member is present (`dependentSchemas`, draft 7's `dependencies`
        // with schemas): `.whenPresent(\.member, "member", then: […])` of typed entries.
        for keyword in ["dependentSchemas", "dependencies"] where objectChecks.contains(keyword) {
            if let rules = try dependencyRules(schema[keyword], keyword: keyword, at: pointer, fields: kept) {
                types[index].modelRules += rules
                objectChecks.removeAll { $0 == keyword }
            }
        }
        var itemChecks: [(item: JSONValue, pointer: String)] = []
        if objectChecks.contains("allOf"), case .array(let items)? = schema["allOf"] {
            var rules: [String] = []
            var rest: [(item: JSONValue, pointer: String)] = []
            for (offset, item) in items.enumerated() {
                let place = pointer + "/allOf/\(offset)"
                if case .object(let object) = item, object["if"] != nil,
                    let rule = try conditionalRule(object, at: place, fields: kept)
                {
                    rules.append(rule)
                } else if case .object(let object) = item, let keyword = object.keys.filter(Self.constrains).first,
                    object.keys.filter(Self.constrains).count == 1, keyword == "oneOf" || keyword == "anyOf",
                    let alternatives = object[keyword],
                    let rule = try alternativesRule(alternatives, keyword: keyword, at: place, fields: kept)
                {
                    rules.append(rule)
                } else if Self.soleSchema(of: [item]) != nil {
                    rest.append((item, place))
                }
            }
            if !rules.isEmpty {
                types[index].modelRules += rules
                objectChecks.removeAll { $0 == "allOf" }
                itemChecks = rest
            }
        }
        if !objectChecks.isEmpty || !itemChecks.isEmpty || !mergedChecks.isEmpty {
            var whole =
                !keyed.isEmpty || objectChecks.contains("additionalProperties")
                || mergedChecks.contains { !Set($0.keywords.keys).isSubset(of: ["not", "dependentRequired"]) }
            if !whole {
                var checks: [(value: JSONValue, pointer: String)] = objectChecks.map { key in
                    var keyword = JSONObject()
                    keyword[key] = schema[key]
                    return (.object(keyword), pointer)
                }
                checks += itemChecks.map { ($0.item, $0.pointer) }
                checks += mergedChecks.map { (.object($0.keywords), $0.pointer) }
                for check in checks {
                    do {
                        try checkReadsKept(check.value, at: check.pointer, kept: kept, depth: 0)
                    } catch {
                        guard error.fallsBack else { throw error }
                        whole = true
                        break
                    }
                }
            }
            if whole {
                // The checks read more than the properties: the struct keeps every member it is
                // given, and so does every struct it holds (once all are declared), so that it
                // encodes back as it was read.
                if types[index].additional == nil && !types[index].refusesUnknownKeys {
                    types[index].additional = GeneratedType.Additional(
                        name: Self.additionalName(avoiding: fields), value: "JSONValue", rules: [])
                }
                keptTypes += fields.map(\.type) + (types[index].additional.map { [$0.value] } ?? [])
            }
            if !objectChecks.isEmpty {
                fallbacks.append(Fallback(pointer: pointer, keywords: objectChecks))
                notes.append(
                    "#\(pointer): \(objectChecks.joined(separator: ", ")) — no typed rule: each value of \(name) is checked against these keywords with AssaySchema when decoded"
                )
                let list = objectChecks.map(SwiftNames.stringLiteral).joined(separator: ", ")
                types[index].modelRules.append(
                    ".schema(SchemaDocument.schema, at: \(SwiftNames.stringLiteral(pointer)), keywords: [\(list)])")
            }
            for check in mergedChecks {
                let keywords = Array(check.keywords.keys)
                fallbacks.append(Fallback(pointer: check.pointer, keywords: keywords))
                notes.append(
                    "#\(check.pointer): \(keywords.joined(separator: ", ")) — no typed rule: each value of \(name) is checked against these keywords with AssaySchema when decoded"
                )
                let list = keywords.map(SwiftNames.stringLiteral).joined(separator: ", ")
                types[index].modelRules.append(
                    ".schema(SchemaDocument.schema, at: \(SwiftNames.stringLiteral(check.pointer)), keywords: [\(list)])"
                )
            }
            for check in itemChecks {
                let constraints = Self.constraintKeys(of: check.item)
                fallbacks.append(Fallback(pointer: check.pointer, keywords: nil))
                notes.append(
                    "#\(check.pointer): \(constraints.joined(separator: ", ")) — no typed rule: each value of \(name) is checked against this item of allOf with AssaySchema when decoded"
                )
                types[index].modelRules.append(
                    ".schema(SchemaDocument.schema, at: \(SwiftNames.stringLiteral(check.pointer)))")
            }
        }
        for (trigger, dependents) in dependencies where !required.contains(trigger) {
            func field(_ key: String) throws(SwiftGenerationError) -> Field {
                guard let found = fields.first(where: { $0.key == key }) else {
                    throw .unsupported(
                        pointer: pointer + "/dependentRequired",
                        message: "dependentRequired names \"\(key)\", which is not among the properties")
                }
                return found
            }
            let source = try field(trigger)
            let wanted = try dependents.map { (key) throws(SwiftGenerationError) in try field(key) }.filter(
                \.isOptional)
            guard !wanted.isEmpty else { continue }
            let list = wanted.map { ".field(\\.\($0.name), \(SwiftNames.stringLiteral($0.key)))" }
            types[index].modelRules.append(
                ".dependentRequired(.field(\\.\(source.name), \(SwiftNames.stringLiteral(source.key))), requires: "
                    + list.joined(separator: ", ") + ")")
        }
    }

    /// The constraint keywords of a schema, in document order (`["$ref"]` for a reference alone).
    static func constraintKeys(of schema: JSONValue) -> [String] {
        guard case .object(let object) = schema else { return ["false"] }
        return object.keys.filter(constrains)
    }

    /// A `.when` entry for a schema's `if` / `then` / `else` (its other keywords are not read), when
    /// the `if` tests one member against constants (`properties: {kind: {const: "card"}}`, an
    /// `enum`, with `required` of that member or not) and each branch holds `required` and
    /// `properties` of the struct's own members, each property's rules typed where they fit its
    /// Swift type and checked against their schema where they do not. `nil` for any other shape, or
    /// where a member that may be `null` would have to be told apart from a missing one (Swift's
    /// `nil` is both).
    private mutating func conditionalRule(_ schema: JSONObject, at pointer: String, fields: [String: Field])
        throws(SwiftGenerationError) -> String?
    {
        let mark = self.mark()
        do {
            if let rule = try conditionalExpression(schema, at: pointer, fields: fields) { return rule }
        } catch {
            guard error.fallsBack else { throw error }
        }
        rewind(to: mark)
        return nil
    }

    private mutating func conditionalExpression(_ schema: JSONObject, at pointer: String, fields: [String: Field])
        throws(SwiftGenerationError) -> String?
    {
        guard case .object(let test)? = schema["if"], schema["then"] != nil || schema["else"] != nil else { return nil }
        let testKeys = test.keys.filter(Self.constrains)
        guard testKeys.allSatisfy(["properties", "required", "type"].contains),
            test["type"].map({ $0 == "object" }) ?? true,
            case .object(let tested)? = test["properties"], tested.count == 1, let (key, condition) = tested.first,
            case .object(let constants) = condition,
            constants.keys.filter(Self.constrains).allSatisfy(["const", "enum", "type"].contains),
            let field = fields[key]
        else { return nil }
        var requiresKey = false
        if let required = test["required"] {
            guard case .array(let keys) = required, let names = Self.strings(keys), Set(names).isSubset(of: [key])
            else { return nil }
            requiresKey = !names.isEmpty
        }
        var values: [JSONValue]
        if let constant = constants["const"] {
            values = [constant]
        } else if case .array(let listed)? = constants["enum"] {
            values = listed
        } else {
            return nil
        }
        if let type = constants["type"] {
            // Values of another type never meet the condition: it holds for those of this type.
            guard case .string(let name) = type else { return nil }
            values = values.filter {
                Self.jsonType(of: $0) == name || (name == "number" && Self.jsonType(of: $0) == "integer")
            }
        }
        // A member whose `nil` is `null` as well as missing: the condition must treat both alike
        // (required and not met by `null`, or not required and met by `null`).
        if allowsNull(field) && requiresKey == values.contains(.null) { return nil }
        // Each value must be one the member's Swift type holds: a value it cannot hold never meets
        // the condition for a model, but the input of one that did not decode may hold it (the
        // condition is decided there too: a member that did not decode holds none of the values).
        let base = field.baseType
        var literals: [String] = []
        if case .stringEnum(let cases)? = types.first(where: { $0.name == base })?.kind {
            for value in values {
                guard case .string(let text) = value, let found = cases.first(where: { $0.value == text }) else {
                    return nil
                }
                literals.append(".\(found.name)")
            }
        } else {
            guard ["String", "Int", "Double", "Bool"].contains(base) else { return nil }
            literals = values.compactMap { SwiftNames.literal($0, as: base) }
            guard literals.count == values.count else { return nil }
        }
        guard !literals.isEmpty else { return nil }
        var arguments = [
            "\\.\(field.name)", SwiftNames.stringLiteral(key), "in: [\(literals.joined(separator: ", "))]",
        ]
        // The member missing from the input: the `if` holds unless it requires it.
        if !requiresKey { arguments.append("orAbsent: true") }
        var branches: [String: [String]] = [:]
        for branch in ["then", "else"] {
            guard let value = schema[branch] else { continue }
            guard let entries = try branchEntries(value, at: pointer + "/" + branch, fields: fields) else { return nil }
            branches[branch] = entries
        }
        let then = branches["then"] ?? []
        let otherwise = branches["else"] ?? []
        arguments.append("then: [\(then.joined(separator: ", "))]")
        if !otherwise.isEmpty { arguments.append("else: [\(otherwise.joined(separator: ", "))]") }
        return ".when(\(arguments.joined(separator: ", ")))"
    }

    /// `dependentSchemas` (draft 7: `dependencies`, its schemas beside its arrays of keys) as entries
    /// of the struct: for a member that may be missing, `.whenPresent(\.member, "member", then: […])`
    /// of the schema's entries as a branch of a condition has them (`required`, `properties`, or an
    /// `anyOf` / `oneOf` of such groups), an array of keys as `.dependentRequired`; for a member
    /// always present, those entries alone. `nil` when a schema reads anything else, or names a
    /// member the struct does not declare, or one that may be `null` (its `nil` is missing too).
    private mutating func dependencyRules(
        _ value: JSONValue?, keyword: String, at pointer: String, fields: [String: Field]
    ) throws(SwiftGenerationError) -> [String]? {
        guard case .object(let dependencies)? = value else { return nil }
        let mark = self.mark()
        do {
            var rules: [String] = []
            for (trigger, dependency) in dependencies {
                guard let field = fields[trigger], !allowsNull(field) else {
                    rewind(to: mark)
                    return nil
                }
                let place = pointer + "/" + keyword + "/" + Self.escape(trigger)
                let member = "\\.\(field.name), \(SwiftNames.stringLiteral(trigger))"
                var entries: [String] = []
                if case .array(let keys) = dependency {
                    guard let names = Self.strings(keys) else { return nil }
                    var wanted: [Field] = []
                    for name in names {
                        guard let dependent = fields[name] else {
                            rewind(to: mark)
                            return nil
                        }
                        if dependent.isOptional { wanted.append(dependent) }
                    }
                    guard !wanted.isEmpty else { continue }
                    if field.isOptional {
                        let list = wanted.map { ".field(\\.\($0.name), \(SwiftNames.stringLiteral($0.key)))" }
                        rules.append(
                            ".dependentRequired(.field(\(member)), requires: \(list.joined(separator: ", ")))")
                        continue
                    }
                    entries = wanted.map { ".required(\\.\($0.name), \(SwiftNames.stringLiteral($0.key)))" }
                } else if case .object(let object) = dependency,
                    let only = object.keys.filter(Self.constrains).first,
                    object.keys.filter(Self.constrains).count == 1,
                    only == "anyOf" || only == "oneOf", let alternatives = object[only]
                {
                    guard let rule = try alternativesRule(alternatives, keyword: only, at: place, fields: fields) else {
                        rewind(to: mark)
                        return nil
                    }
                    entries = [rule]
                } else {
                    guard let found = try branchEntries(dependency, at: place, fields: fields) else {
                        rewind(to: mark)
                        return nil
                    }
                    entries = found
                }
                guard !entries.isEmpty else { continue }
                if field.isOptional {
                    rules.append(".whenPresent(\(member), then: [\(entries.joined(separator: ", "))])")
                } else {
                    rules += entries
                }
            }
            return rules
        } catch {
            guard error.fallsBack else { throw error }
        }
        rewind(to: mark)
        return nil
    }

    /// A `.exactlyOne(of:)` (`oneOf`) or `.atLeastOne(of:)` (`anyOf`) entry whose groups are the
    /// alternatives' entries, when each alternative holds `required` and `properties` of the struct's
    /// own members (as a branch of a condition does); `nil` for any other shape.
    private mutating func alternativesRule(
        _ alternatives: JSONValue, keyword: String, at pointer: String, fields: [String: Field]
    ) throws(SwiftGenerationError) -> String? {
        guard case .array(let items) = alternatives, !items.isEmpty else { return nil }
        let mark = self.mark()
        do {
            var groups: [String] = []
            for (offset, item) in items.enumerated() {
                guard
                    let entries = try branchEntries(
                        item, at: pointer + "/\(keyword)/\(offset)", fields: fields, listingEnums: true)
                else {
                    rewind(to: mark)
                    return nil
                }
                groups.append("[\(entries.joined(separator: ", "))]")
            }
            return ".\(keyword == "oneOf" ? "exactlyOne" : "atLeastOne")(of: [\(groups.joined(separator: ", "))])"
        } catch {
            guard error.fallsBack else { throw error }
        }
        rewind(to: mark)
        return nil
    }

    /// The entries of a branch of a condition: `.required` for the optional members it requires,
    /// `.property` with the rules of each member's schema. `nil` when it reads anything else.
    ///
    /// `listingEnums` (the groups of alternatives): a member of a string enum whose schema in the
    /// branch is its own is `.oneOf(Kind.allCases)` — true of every value that decoded, and what
    /// decides the group when the member did not decode (it is none of them), as the schema does.
    private mutating func branchEntries(
        _ branch: JSONValue, at pointer: String, fields: [String: Field], listingEnums: Bool = false
    ) throws(SwiftGenerationError) -> [String]? {
        // A branch that is a reference alone: the schema it names.
        var branch = branch
        var hops = 0
        while case .object(let object) = branch, case .string(let text)? = object["$ref"],
            object.keys.filter(Self.constrains) == ["$ref"], text.hasPrefix("#"), hops < 32, !hasEmbeddedResources,
            let target = Self.decodeFragment(String(text.dropFirst())), let next = document[pointer: target]
        {
            branch = next
            hops += 1
        }
        guard case .object(let object) = branch else { return branch == .bool(true) ? [] : nil }
        guard object.keys.filter(Self.constrains).allSatisfy(["properties", "required", "type"].contains),
            object["type"].map({ $0 == "object" }) ?? true
        else { return nil }
        var entries: [String] = []
        // Members the branch requires and refuses `null` for: a Swift `nil` fails the branch,
        // whether the member was missing or `null`.
        var present: Set<String> = []
        if let required = object["required"] {
            guard case .array(let keys) = required, let names = Self.strings(keys) else { return nil }
            for key in names {
                // `null` meets `required`; a Swift `nil` cannot say whether it was `null`.
                guard let field = fields[key] else { return nil }
                if allowsNull(field) {
                    guard case .object(let members)? = object["properties"], let schema = members[key],
                        Self.refusesNull(schema)
                    else { return nil }
                    present.insert(key)
                }
                // A `Nullable`'s `.null` is present: the branch refuses it.
                let refusing = field.isNullable && present.contains(key) ? ", allowingNull: false" : ""
                if field.isOptional {
                    entries.append(".required(\\.\(field.name), \(SwiftNames.stringLiteral(key))\(refusing))")
                }
            }
        }
        if let properties = object["properties"] {
            guard case .object(let members) = properties else { return nil }
            for (key, schema) in members {
                // A `null` the rules never see (Swift's `nil`) must be one the schema accepts — or,
                // for a member always present, its `nil` is `null` alone: a list of values says
                // whether it passes (`{"enum": ["Units"]}`, `{"type": "null"}`).
                guard let field = fields[key],
                    !allowsNull(field) || Self.acceptsNull(schema) || present.contains(key)
                        || (field.mustBePresent && Self.listedValues(schema) != nil)
                else { return nil }
                let place = pointer + "/properties/" + Self.escape(key)
                var rules = try memberRules(schema, at: place, field: field, present: present.contains(key))
                let base = field.baseType
                if rules.isEmpty, listingEnums, schema == field.schema, Self.constraintKeys(of: schema) != [],
                    case .stringEnum? = types.first(where: { $0.name == base })?.kind
                        ?? (namedEnums.contains(base) ? .stringEnum([]) : nil)
                {
                    rules = [".oneOf(\(base).allCases)"]
                }
                guard !rules.isEmpty else { continue }
                entries.append(
                    ".property(\\.\(field.name), \(SwiftNames.stringLiteral(key)), \(rules.joined(separator: ", ")))")
            }
        }
        return entries
    }

    /// The rules a member's schema in a branch states, for the member's Swift type: typed when its
    /// keywords are rules of that type, else a check against the schema (noted). `present`: the
    /// rules see no `nil` (the branch requires the member, refusing `null`).
    private mutating func memberRules(_ schema: JSONValue, at pointer: String, field: Field, present: Bool = false)
        throws(SwiftGenerationError) -> [String]
    {
        let base = field.baseType
        if Self.isImplied(schema, by: field.schema) { return [] }
        if present, let value = Self.withoutNull(field.schema), Self.isImplied(schema, by: value) { return [] }
        if case .object(let object) = schema {
            let keys = Set(object.keys.filter(Self.constrains))
            var rules: [String]?
            let typeName: String?
            switch object["type"] {
            case nil: typeName = nil
            case .string(let name)?: typeName = name
            default: typeName = "?"
            }
            do {
                if let type = Self.scalarSwiftTypes.first(where: { $0.value == base })?.key,
                    keys.isSubset(of: Self.keywordsOfType[type, default: []].union(["type", "enum", "const"])),
                    typeName == nil || typeName == type || (type == "integer" && typeName == "number")
                {
                    rules = try scalarRules(object, at: pointer, swiftType: base)
                } else if base.hasPrefix("["), !base.contains(":"),
                    keys.isSubset(of: ["type", "minItems", "maxItems", "uniqueItems"]), (typeName ?? "array") == "array"
                {
                    let minimum = try Self.integer(object["minItems"], at: pointer + "/minItems")
                    let maximum = try Self.integer(object["maxItems"], at: pointer + "/maxItems")
                    var found: [String] = []
                    if let rule = Self.bounds("count", minimum, maximum) { found.append(rule) }
                    if object["uniqueItems"] == .bool(true) { found.append(".unique") }
                    rules = found
                }
            } catch {
                guard error.fallsBack else { throw error }
                rules = nil
            }
            if keys.isEmpty { return [] }
            // A list of values for a member of a string enum, or one whose `nil` is `null`: the
            // values it may hold, `nil` among them for `null`.
            let nullable = allowsNull(field) && !present
            if rules == nil || nullable, let rule = valuesRule(object, base: base, nullable: nullable) {
                return [rule]
            }
            if nullable && !Self.acceptsNull(schema) {
                // A `nil` that is `null` would pass the typed rules.
                throw .unsupported(pointer: pointer, message: "a branch's values of a member that may be null")
            }
            if var rules {
                // `.multipleOf(…)` or `.count(…)` alone fit many types: the first names its own.
                if let first = rules.first,
                    first.hasPrefix(".multipleOf(") || first.hasPrefix(".count(") || first == ".unique"
                {
                    rules[0] = "Rule<\(base)>" + first
                }
                return rules
            }
        } else if schema == .bool(true) {
            return []
        }
        // Checked whole, the value must encode as it was read: not a struct, which drops unknown keys
        // (a string enum writes its raw value back).
        let isStringEnum = types.contains { if case .stringEnum = $0.kind { $0.name == base } else { false } }
        guard roundTrips(field.type) || isStringEnum else {
            throw .unsupported(pointer: pointer, message: "a branch's schema of a member that holds a struct")
        }
        fallbacks.append(Fallback(pointer: pointer, keywords: nil))
        notes.append(
            "#\(pointer): \(Self.constraintKeys(of: schema).joined(separator: ", ")) — no typed rule: the value is checked against its schema with AssaySchema when decoded"
        )
        return ["Rule<\(base)>.schema(SchemaDocument.schema, at: \(SwiftNames.stringLiteral(pointer)))"]
    }

    /// The values a schema of `enum`, `const` and `type` alone allows (`{"type": "null"}` allows
    /// `null`); `nil` for any other schema.
    static func listedValues(_ schema: JSONValue) -> [JSONValue]? {
        guard case .object(let object) = schema,
            object.keys.filter(constrains).allSatisfy(["type", "enum", "const"].contains)
        else { return nil }
        var values: [JSONValue]?
        if let constant = object["const"] {
            values = [constant]
        } else if case .array(let list)? = object["enum"] {
            values = list
        }
        switch object["type"] {
        case nil: return values
        case .string(let type)?:
            guard let values else { return type == "null" ? [.null] : nil }
            return values.filter { isValue($0, ofType: type) }
        case .array(let list)?:
            guard let values, let types = strings(list) else { return nil }
            return values.filter { value in types.contains { isValue(value, ofType: $0) } }
        default: return nil
        }
    }

    /// A `.oneOf(…)` of the values a branch's `enum`, `const` or `{"type": "null"}` allows, for a
    /// member of a string enum or a scalar type (`Rule<T?>` with `nil` for `null` when `nullable`:
    /// the member's `nil` is a `null`, which the rule then reads; a value the type cannot hold is
    /// left out, as no member holds it); `nil` for another schema or another type.
    private func valuesRule(_ object: JSONObject, base: String, nullable: Bool) -> String? {
        guard let values = Self.listedValues(.object(object)) else { return nil }
        var literals: [String] = []
        let cases: [GeneratedType.EnumCase]?
        if case .stringEnum(let found)? = types.first(where: { $0.name == base })?.kind {
            cases = found
        } else {
            guard Self.scalarSwiftTypes.values.contains(base) else { return nil }
            cases = nil
        }
        for value in values {
            let literal: String
            if value == .null {
                guard nullable else { continue }
                literal = "nil"
            } else if let cases {
                // A value of another type is one no member holds.
                guard case .string(let text) = value else { continue }
                guard let found = cases.first(where: { $0.value == text }) else { continue }
                literal = "." + found.name
            } else {
                guard let found = SwiftNames.literal(value, as: base) else { continue }
                literal = found
            }
            if !literals.contains(literal) { literals.append(literal) }
        }
        return (nullable ? "Rule<\(base)?>" : "Rule<\(base)>") + ".oneOf([\(literals.joined(separator: ", "))])"
    }

    /// Whether every value `schema` accepts is accepted by `branch` too: each constraint keyword of
    /// the branch is in the schema with the same value (`{"type": "string"}` beside the member's
    /// own `{"type": "string", "description": …}`, or one `$ref` in both).
    static func isImplied(_ branch: JSONValue, by schema: JSONValue) -> Bool {
        guard case .object(let constraints) = branch else { return branch == .bool(true) }
        guard case .object(let own) = schema else { return false }
        // The values the schema allows at most, by its `const` or `enum`.
        var values: [JSONValue]?
        if let constant = own["const"] {
            values = [constant]
        } else if case .array(let list)? = own["enum"] {
            values = list
        }
        return constraints.allSatisfy { key, value in
            guard constrains(key), own[key] != value else { return true }
            switch (key, value) {
            case ("type", _):
                // `{"const": "a"}`, `{"type": "integer"}` imply `{"type": ["string", "number"]}`.
                let names: [String]
                switch value {
                case .string(let type): names = [type]
                case .array(let list): names = strings(list) ?? []
                default: return false
                }
                let allowed = Set(names)
                func allows(_ type: String) -> Bool {
                    allowed.contains(type) || (type == "integer" && allowed.contains("number"))
                }
                if let values { return values.allSatisfy { allows(jsonType(of: $0)) } }
                switch own["type"] {
                case .string(let type)?: return allows(type)
                case .array(let list)?: return (strings(list) ?? []).allSatisfy(allows)
                default: return false
                }
            case ("enum", .array(let list)): return values?.allSatisfy(list.contains) ?? false
            case ("const", _): return values == [value]
            default:
                // `{"enum": ["API"]}` implies `{"minLength": 1}`: each value it allows passes the
                // keyword, as AssaySchema says (formats asserted, as the generated rules do).
                guard let values, keywordsOfValue.contains(key) else { return false }
                var options = JSONSchema.Options()
                options.assertFormats = true
                guard let check = try? JSONSchema(.object([key: value]), options: options) else { return false }
                return values.allSatisfy(check.isValid)
            }
        }
    }

    /// The keywords that read a string or a number alone, with no subschema.
    static let keywordsOfValue = keywordsOfType["string", default: []].union(keywordsOfType["number", default: []])

    /// Whether no value passes both schemas, as their `const` and `enum` tell.
    static func areDisjoint(_ first: JSONValue, _ second: JSONValue) -> Bool {
        func values(_ schema: JSONValue) -> [JSONValue]? {
            guard case .object(let object) = schema else { return nil }
            if let constant = object["const"] { return [constant] }
            if case .array(let list)? = object["enum"] { return list }
            return nil
        }
        guard let one = values(first), let other = values(second) else { return false }
        return !one.contains(where: other.contains)
    }

    /// The schema with `null` taken out of its `type` (`["object", "null"]` → `"object"`); `nil`
    /// when its `type` names no `null` or nothing else.
    static func withoutNull(_ schema: JSONValue) -> JSONValue? {
        guard case .object(var object) = schema, case .array(let list)? = object["type"],
            var names = strings(list), names.contains("null")
        else { return nil }
        names.removeAll { $0 == "null" }
        guard !names.isEmpty else { return nil }
        object["type"] = names.count == 1 ? .string(names[0]) : .array(names.map { .string($0) })
        return .object(object)
    }

    /// Whether a schema surely refuses `null`: its `type`, `const` or `enum` leaves it out.
    static func refusesNull(_ schema: JSONValue) -> Bool {
        guard case .object(let object) = schema else { return schema == .bool(false) }
        switch object["type"] {
        case .string(let type)? where type != "null": return true
        case .array(let list)? where !list.contains("null"): return true
        default: break
        }
        if let constant = object["const"] { return constant != .null }
        if case .array(let values)? = object["enum"] { return !values.contains(.null) }
        return false
    }

    /// Whether a schema surely accepts `null`: it is `true`, or its only keywords that read `null`
    /// (`type`, `enum`, `const`) allow it, the others reading values of other types alone.
    static func acceptsNull(_ schema: JSONValue) -> Bool {
        guard case .object(let object) = schema else { return schema == .bool(true) }
        let ignoringNull: Set<String> = [
            "minLength", "maxLength", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
            "multipleOf", "minItems", "maxItems", "uniqueItems", "items", "properties", "required",
            "additionalProperties", "minProperties", "maxProperties",
        ]
        for key in object.keys where constrains(key) {
            switch key {
            case "type":
                switch object["type"] {
                case .string("null")?: continue
                case .array(let types)? where types.contains("null"): continue
                default: return false
                }
            case "enum":
                guard case .array(let values)? = object["enum"], values.contains(.null) else { return false }
            case "const":
                guard object["const"] == .null else { return false }
            default:
                guard ignoringNull.contains(key) else { return false }
            }
        }
        return true
    }

    /// Whether a member's Swift `nil` stands for `null` as well as a missing member.
    private func allowsNull(_ field: Field) -> Bool { field.isOptional && !field.refusesNull }

    /// The JSON type of a value, as `type` names it (`integer` for a whole number).
    static func jsonType(of value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .number(let number): return number.isInteger ? "integer" : "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// Since 2019-09 a `$ref` applies beside the keywords around it: the schema with the `$ref` as
    /// the last item of its `allOf` (where no schema is written: the other items keep their
    /// places). `nil` for a `$ref` alone, or in a document where the keywords beside a `$ref` are
    /// ignored (``refsBesideSiblings``).
    private func referenceAsAllOf(_ object: JSONObject) -> JSONObject? {
        guard refsBesideSiblings, let reference = object["$ref"], case .string(let text) = reference,
            text.hasPrefix("#"),
            object.keys.contains(where: { Self.constrains($0) && $0 != "$ref" && $0 != "nullable" })
        else { return nil }
        var items: [JSONValue] = []
        if let given = object["allOf"] {
            guard case .array(let list) = given else { return nil }
            items = list
        }
        var rewritten = object
        rewritten["allOf"] = .array(items + [["$ref": reference]])
        rewritten["$ref"] = nil
        return rewritten
    }

    /// The schema with its `allOf` merged in, when every item (or the schema a `$ref` item names,
    /// or an `allOf` inside one) is an object schema of `properties` and `required` alone (its
    /// `type` objects, or objects and `null`; `additionalProperties: true` beside them), no two
    /// with different schemas for one property: the properties and required keys of all, each
    /// property with the pointer of its schema. `nil` otherwise, or when the schema's own
    /// `additionalProperties` or `patternProperties` would not see the merged properties as JSON
    /// Schema has it (`unevaluatedProperties` does: it is kept).
    ///
    /// `isObject`: an item has `type: object`, so the whole accepts objects alone. `checks`: the
    /// items' keywords that read the object and evaluate no member (``readsUnevaluated``), each
    /// with the place of the item that holds them, where they are checked.
    private func mergedAllOf(_ schema: JSONObject, at pointer: String)
        -> (
            schema: JSONObject, places: [String: String], isObject: Bool,
            checks: [(pointer: String, keywords: JSONObject)]
        )?
    {
        guard case .array(let items)? = schema["allOf"], !items.isEmpty,
            schema["additionalProperties"] == nil || schema["additionalProperties"] == .bool(true),
            schema["patternProperties"] == nil,
            !(hasEmbeddedResources && Self.isUnderEmbeddedResource(pointer, in: document))
        else { return nil }
        var properties = JSONObject()
        var places: [String: String] = [:]
        var required: [String] = []
        func take(_ object: JSONObject, at place: String) -> Bool {
            if case .object(let members)? = object["properties"] {
                for (key, value) in members {
                    if let existing = properties[key], existing != value { return false }
                    properties[key] = value
                    places[key] = places[key] ?? place + "/properties/" + Self.escape(key)
                }
            } else if object["properties"] != nil {
                return false
            }
            if let value = object["required"] {
                guard case .array(let keys) = value, let names = Self.strings(keys) else { return false }
                for key in names where !required.contains(key) { required.append(key) }
            }
            return true
        }
        guard take(schema, at: pointer) else { return nil }
        var pending = items.enumerated().reversed().map { ($0.element, pointer + "/allOf/\($0.offset)") }
        var targets: Set<String> = []
        var isObject = false
        var checks: [(pointer: String, keywords: JSONObject)] = []
        while let (item, place) = pending.popLast() {
            guard targets.count + pending.count < 1_000, case .object(var object) = item else {
                if item == .bool(true) { continue }
                return nil
            }
            if let rewritten = referenceAsAllOf(object) { object = rewritten }
            if let reference = object["$ref"] {
                guard object.keys.allSatisfy({ !Self.constrains($0) || $0 == "$ref" }),
                    case .string(let text) = reference, text.hasPrefix("#"),
                    let target = Self.decodeFragment(String(text.dropFirst())), targets.insert(target).inserted,
                    let resolved = document[pointer: target]
                else { return nil }
                pending.append((resolved, target))
                continue
            }
            var read = JSONObject()
            for key in object.keys where Self.constrains(key) {
                // `additionalProperties: true` says what is so already.
                if key == "additionalProperties" && object[key] == .bool(true) { continue }
                // Keywords that read the object and evaluate no member (`not`, `minProperties` …):
                // checked at the item's place.
                if Self.readsUnevaluated.contains(key) {
                    read[key] = object[key]
                    continue
                }
                guard ["type", "properties", "required", "allOf"].contains(key) else { return nil }
            }
            if !read.isEmpty { checks.append((place, read)) }
            switch object["type"] {
            case nil: break
            case .string("object")?: isObject = true
            case .array(let types)?:
                // Objects or `null`: beside an item that takes objects alone, objects.
                guard types.contains("object"), types.allSatisfy({ $0 == "object" || $0 == "null" }) else { return nil }
            default: return nil
            }
            guard take(object, at: place) else { return nil }
            if let nested = object["allOf"] {
                guard case .array(let more) = nested else { return nil }
                pending += more.enumerated().reversed().map { ($0.element, place + "/allOf/\($0.offset)") }
            }
        }
        var merged = schema
        merged["allOf"] = nil
        merged["properties"] = .object(properties)
        if !required.isEmpty { merged["required"] = .array(required.map { .string($0) }) }
        // Beside `unevaluatedProperties`, an item that fails evaluates none of its members: they
        // are reported too, where the struct would report the item's keyword alone.
        if !checks.isEmpty && schema["unevaluatedProperties"] != nil { return nil }
        return (merged, places, isObject, checks)
    }

    /// The keywords of an object that read it and evaluate none of its members (for
    /// `unevaluatedProperties`): in an item of a merged `allOf`, checked at the item's place.
    static let readsUnevaluated: Set<String> = [
        "not", "minProperties", "maxProperties", "propertyNames", "dependentRequired",
    ]

    /// The schema with its `allOf` merged in, when every item (or the schema a `$ref` item names)
    /// holds keywords that read one JSON type each (`minItems`, `properties`, `maxLength` …, and a
    /// tuple's `items` and `additionalItems`) and `type`, no keyword in two items but with equal
    /// values (`properties` merged key by key, a property's `{}` giving way to the other's schema;
    /// `required` joined): the types all items allow, every keyword, and where each is written
    /// (``mergedHomes``). `nil` when `additionalProperties` would see other properties than its own
    /// schema's, when the keywords of a tuple are written in different items, or when no item says a type.
    private func mergedKinds(_ schema: JSONObject, at pointer: String)
        -> (schema: JSONObject, homes: [String: String], narrowed: Set<String>)?
    {
        guard case .array(let items)? = schema["allOf"], !items.isEmpty,
            !(hasEmbeddedResources && Self.isUnderEmbeddedResource(pointer, in: document))
        else { return nil }
        var parts: [(schema: JSONObject, place: String)] = []
        var own = schema
        own["allOf"] = nil
        parts.append((own, pointer))
        for (offset, item) in items.enumerated() {
            switch named(item, at: pointer + "/allOf/\(offset)") {
            case (.bool(true), _)?: continue
            case (.object(let object), let place)?: parts.append((object, place))
            default: return nil
            }
        }
        guard var merged = merged(parts), !merged.unsatisfiable else { return nil }
        for key in ["title", "description"] where schema[key] != nil { merged.schema[key] = schema[key] }
        return (merged.schema, merged.homes, merged.narrowed)
    }

    /// The schema a `$ref` alone names (through a few more `$ref`s alone), and its place; the schema
    /// itself when it is no `$ref`. `nil` for a `$ref` beside other keywords or that does not resolve.
    private func named(_ schema: JSONValue, at pointer: String) -> (schema: JSONValue, place: String)? {
        var (schema, place) = (schema, pointer)
        var hops = 0
        while case .object(let object) = schema, let reference = object["$ref"] {
            guard hops < 8, object.keys.allSatisfy({ !Self.constrains($0) || $0 == "$ref" }),
                case .string(let text) = reference, text.hasPrefix("#"),
                let target = Self.decodeFragment(String(text.dropFirst())), let resolved = document[pointer: target]
            else { return nil }
            (schema, place, hops) = (resolved, target, hops + 1)
        }
        return (schema, place)
    }

    /// The conjunction of `parts` as one schema, and where each of its keywords is written: the
    /// ``mergedKinds(_:at:)`` of an `allOf`'s items, or of a union's alternative and the object
    /// keywords beside the union. Each part's keywords are ``mergeable`` (or `required`); a keyword
    /// in two parts has equal values in both, a property two schemas of which one implies the other
    /// (``isImplied(_:by:)``), or that does once `null` is taken out of its `type` (`{"type":
    /// ["object", "null"], …}` beside `{"type": "object"}`): `narrowed`, the places of such schemas,
    /// are not all the value must pass. A part's place that was merged itself gives its keywords' homes.
    /// `placed`: the part written at the merged schema's own place, whose keywords that read the
    /// whole value (``placedKeywords``: `oneOf`, `not` …) it keeps, checked there.
    /// `unsatisfiable`: two parts allow no common value for a member one of them requires (`{"const":
    /// "a"}` beside `{"const": "b"}`): the conjunction takes no value at all.
    private func merged(_ parts: [(schema: JSONObject, place: String)], placed: Int? = nil)
        -> (schema: JSONObject, homes: [String: String], narrowed: Set<String>, unsatisfiable: Bool)?
    {
        var merged = JSONObject()
        var homes: [String: String] = [:]
        var types: [String]?
        var properties = JSONObject()
        var required: [String] = []
        var nullable = true
        var holders: [String: Int] = [:]
        var narrowed: Set<String> = []
        var contradicted: Set<String> = []
        for (index, (part, place)) in parts.enumerated() {
            for key in part.keys where Self.constrains(key) {
                guard
                    Self.mergeable.contains(key) || key == "required"
                        || (index == placed && Self.placedKeywords.contains(key))
                else { return nil }
                guard key != "type" && key != "properties" && key != "required" else { continue }
                // `additionalProperties: true` says what is so already.
                if key == "additionalProperties" && part[key] == .bool(true) { continue }
                if let existing = merged[key] {
                    guard existing == part[key] else { return nil }
                    continue
                }
                merged[key] = part[key]
                homes[key] = home(of: key, at: place)
                holders[key] = index
            }
            switch part["type"] {
            case nil: break
            case .string(let type)?:
                nullable = nullable && type == "null"
                types = Self.commonTypes(types, [type])
            case .array(let list)?:
                guard let names = Self.strings(list) else { return nil }
                nullable = nullable && names.contains("null")
                types = Self.commonTypes(types, names)
            default: return nil
            }
            if let value = part["properties"] {
                guard case .object(let members) = value else { return nil }
                for (key, value) in members {
                    let home = mergedHomes[place]?["properties/" + key] ?? place + "/properties/" + Self.escape(key)
                    // Of two schemas for one member, the one that implies the other (what a `$ref`
                    // alone names compared).
                    if let existing = properties[key], existing != value {
                        // (An `anyOf` of string constants compared as their `enum`.)
                        let first = Self.constantsAsEnum(
                            named(existing, at: homes["properties/" + key]!)?.schema ?? existing)
                        let second = Self.constantsAsEnum(named(value, at: home)?.schema ?? value)
                        if Self.isImplied(second, by: first) { continue }
                        if !Self.isImplied(first, by: second) {
                            if existing == first, let stricter = Self.withoutNull(existing),
                                Self.isImplied(second, by: stricter)
                            {
                                properties[key] = stricter
                                narrowed.insert(homes["properties/" + key]!)
                            } else if value == second, let stricter = Self.withoutNull(value),
                                Self.isImplied(first, by: stricter)
                            {
                                properties[key] = stricter
                                homes["properties/" + key] = home
                                narrowed.insert(home)
                            } else if Self.areDisjoint(first, second) {
                                contradicted.insert(key)
                            } else {
                                return nil
                            }
                            continue
                        }
                    }
                    properties[key] = value
                    homes["properties/" + key] = home
                }
            }
            if let value = part["required"] {
                guard case .array(let keys) = value, let names = Self.strings(keys) else { return nil }
                for key in names where !required.contains(key) { required.append(key) }
            }
        }
        if !contradicted.isEmpty {
            // A member required that no value can pass: nothing passes. Not required: it would have
            // to be refused where no schema says so.
            guard contradicted.contains(where: required.contains) else { return nil }
            return ([:], [:], [], true)
        }
        guard var types, !types.isEmpty else { return nil }
        types.removeAll { $0 == "null" }
        if nullable { types.append("null") }
        // `null` alone: the keywords of other types read nothing.
        if types == ["null"] { return (["type": "null"], [:], [], false) }
        // `additionalProperties` reads the properties of its own schema alone: `false` refuses the
        // others' properties (they are left out of the merged ones), a schema would read them too.
        if let holder = holders["additionalProperties"], merged["additionalProperties"] != .bool(true) {
            guard case .object(let own) = parts[holder].schema["properties"] ?? .object([:]),
                Set(own.keys).isSubset(of: properties.keys),
                own.count == properties.count || merged["additionalProperties"] == .bool(false)
            else { return nil }
            // A member refused so is reported at its place; its own schema must report nothing
            // below it (the struct, refusing the key, reads no further).
            let atItsPlace = Set(["type", "enum", "const"]).union(Self.keywordsOfType["string"] ?? [])
                .union(Self.keywordsOfType["number"] ?? [])
            for key in properties.keys where own[key] == nil {
                guard !required.contains(key) else { return nil }
                if case .object(let member)? = properties[key],
                    !member.keys.filter(Self.constrains).allSatisfy(atItsPlace.contains)
                {
                    return nil
                }
                properties[key] = nil
                homes["properties/" + key] = nil
            }
        }
        // The keywords of a tuple read one another: one item holds them all.
        let tuple = ["items", "prefixItems", "additionalItems", "contains", "minContains", "maxContains"]
        if Set(tuple.compactMap { homes[$0] }).count > 1 { return nil }
        merged["type"] = types.count == 1 ? .string(types[0]) : .array(types.map { .string($0) })
        if !properties.isEmpty { merged["properties"] = .object(properties) }
        if !required.isEmpty { merged["required"] = .array(required.map { .string($0) }) }
        return (merged, homes, narrowed, false)
    }

    /// The keywords a merged schema holds, each read where it is written: those that read values of
    /// one JSON type, but the object's that are checked at the struct's own place.
    static let mergeable = keywordsOfType.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        .subtracting(["minProperties", "maxProperties", "propertyNames", "dependentRequired"])
        .union(["type", "additionalItems", "prefixItems", "contains", "minContains", "maxContains"])

    /// The keywords a schema merged from others keeps only from the part written at its own place:
    /// they read the whole value, whatever keywords are beside them, and are checked there.
    static let placedKeywords = objectChecks.union([
        "minProperties", "maxProperties", "propertyNames", "dependentRequired",
    ])

    /// The JSON types two lists allow both (`integer` of `number` and `integer`); `nil` for no list yet.
    static func commonTypes(_ first: [String]?, _ second: [String]) -> [String] {
        guard let first else { return second }
        return first.compactMap { type in
            if second.contains(type) { return type }
            if type == "number" && second.contains("integer") { return "integer" }
            if type == "integer" && second.contains("number") { return "integer" }
            return nil
        }
    }

    /// Whether draft 7's `dependencies` has a schema among its values (`"billing": {"required": […]}`).
    static func hasSchemaDependencies(_ schema: JSONObject) -> Bool {
        guard case .object(let entries)? = schema["dependencies"] else { return false }
        return entries.values.contains { if case .array = $0 { false } else { true } }
    }

    /// `dependentRequired` (2019-09 and later), or draft 7's `dependencies` whose values are arrays
    /// of keys, in document order.
    /// `skippingDependencies`: draft 7's `dependencies` is checked as a keyword (it has schemas).
    static func dependentRequired(_ schema: JSONObject, at pointer: String, skippingDependencies: Bool = false)
        throws(SwiftGenerationError) -> [(trigger: String, dependents: [String])]
    {
        var result: [(trigger: String, dependents: [String])] = []
        for keyword in skippingDependencies ? ["dependentRequired"] : ["dependentRequired", "dependencies"] {
            guard let value = schema[keyword] else { continue }
            guard case .object(let entries) = value else {
                throw SwiftGenerationError(pointer: pointer + "/" + keyword, message: "\(keyword) is not an object")
            }
            for (trigger, dependents) in entries {
                guard case .array(let items) = dependents, let keys = strings(items) else {
                    throw .unsupported(
                        pointer: pointer + "/" + keyword + "/" + escape(trigger),
                        message: keyword == "dependencies"
                            ? "dependencies with a schema (dependentSchemas) has no Swift form yet"
                            : "dependentRequired's value is not an array of strings")
                }
                result.append((trigger, keys))
            }
        }
        return result
    }

    private mutating func declareEnum(_ schema: JSONObject, at pointer: String, name: String)
        throws(SwiftGenerationError)
    {
        // Beside `unevaluatedProperties: false`, an object given instead has each member reported.
        let closed = schema["unevaluatedProperties"] == .bool(false)
        var schema = schema
        schema["unevaluatedProperties"] = closed ? nil : schema["unevaluatedProperties"]
        try checkKeywords(schema, at: pointer)
        guard case .array(let values)? = schema["enum"] else { return }
        // Cases written as a `oneOf` / `anyOf` of constants: each `const` alternative's title and
        // description document its case.
        var documented: [String: [String]] = [:]
        if case .object(let original)? = document[pointer: pointer] {
            for keyword in ["oneOf", "anyOf"] {
                guard case .array(let alternatives)? = original[keyword] else { continue }
                for case .object(let alternative) in alternatives {
                    guard case .string(let text)? = alternative["const"], documented[text] == nil else { continue }
                    documented[text] = Self.documentation(alternative)
                }
            }
        }
        var cases: [GeneratedType.EnumCase] = []
        var byName: [String: String] = [:]
        // Values that map to one name (`"foo-bar"`, `"foo_bar"`) are numbered after the first, past
        // every name a value has of its own.
        let natural = Set(values.compactMap { Self.string($0).map(SwiftNames.caseName) })
        var seen: Set<String> = []
        for value in values {
            guard case .string(let text) = value, seen.insert(text).inserted else { continue }  // null: optional
            var caseName = SwiftNames.caseName(text)
            if byName[caseName] != nil {
                var number = 2
                while byName[caseName + "\(number)"] != nil || natural.contains(caseName + "\(number)") { number += 1 }
                caseName += "\(number)"
            }
            byName[caseName] = text
            cases.append(
                GeneratedType.EnumCase(
                    name: SwiftNames.escaped(caseName), value: text, documentation: documented[text] ?? []))
        }
        types.append(GeneratedType(name: name, documentation: Self.documentation(schema), kind: .stringEnum(cases)))
        types[types.count - 1].cascadesUnknownKeys = closed
    }

    // MARK: Types of values

    /// The Swift type and rules of a schema; an inline object or string enum is declared as a type
    /// named `nameHint` when `declaring` (the hint starts with the enclosing type's name, its prefix
    /// included).
    private mutating func resolve(_ schema: JSONValue, at pointer: String, nameHint: String, declaring: Bool)
        throws(SwiftGenerationError) -> TypeReference
    {
        let mark = self.mark()
        do {
            return try resolveTyped(schema, at: pointer, nameHint: nameHint, declaring: declaring)
        } catch {
            guard error.fallsBack, !synthesized.contains(pointer) else { throw error }
            rewind(to: mark)
            return fallback(schema, at: pointer, because: error)
        }
    }

    /// ``resolve(_:at:nameHint:declaring:)`` with typed rules only: throws an error that falls back
    /// when the schema has no typed form.
    private mutating func resolveTyped(_ schema: JSONValue, at pointer: String, nameHint: String, declaring: Bool)
        throws(SwiftGenerationError) -> TypeReference
    {
        depth += 1
        resolutions += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            throw SwiftGenerationError(
                pointer: pointer, message: "schemas nested deeper than \(Self.maximumDepth): not generated")
        }
        let schema = Self.constantsAsEnum(schema)
        var object: JSONObject
        switch schema {
        case .bool(true): return TypeReference(swift: "JSONValue", rules: [], nullable: true)
        case .bool(false):
            throw .unsupported(pointer: pointer, message: "the schema false accepts no value: no Swift type")
        case .object(let members): object = members
        default: throw SwiftGenerationError(pointer: pointer, message: "a schema must be an object or a boolean")
        }
        if let reference = object["$ref"] {
            guard let rewritten = referenceAsAllOf(object) else {
                return try resolveReference(
                    reference, in: object, at: pointer, nameHint: nameHint, declaring: declaring)
            }
            object = rewritten
        }
        if let union = try resolveUnion(object, at: pointer, nameHint: nameHint, declaring: declaring) {
            return union
        }
        // An `allOf` whose items each read values of the same types (`{"$ref": "#/definitions/rule"}`
        // beside `{"items": …, "properties": …}`): one schema of all their keywords, each read where it is.
        if object["allOf"] != nil, mergedAllOf(object, at: pointer) == nil,
            let merged = mergedKinds(object, at: pointer)
        {
            mergedHomes[pointer] = merged.homes
            let saved = synthesized
            synthesized.formUnion(merged.narrowed)
            defer { synthesized = saved }
            return try resolveTyped(.object(merged.schema), at: pointer, nameHint: nameHint, declaring: declaring)
        }
        var types: [String] = []
        switch object["type"] {
        case nil: break
        case .string(let type)?: types = [type]
        case .array(let items)?:
            guard let names = Self.strings(items) else {
                throw SwiftGenerationError(
                    pointer: pointer + "/type", message: "type is not a string or an array of strings")
            }
            types = names
        default:
            throw SwiftGenerationError(
                pointer: pointer + "/type", message: "type is not a string or an array of strings")
        }
        var nullable = types.contains("null") || object["nullable"] == .bool(true)
        types.removeAll { $0 == "null" }
        if Set(types) == ["integer", "number"] { types = ["number"] }
        if types.count > 1 {
            if let union = try typeUnion(
                object, types: types, nullable: nullable, at: pointer, nameHint: nameHint, declaring: declaring)
            {
                return union
            }
            throw .unsupported(
                pointer: pointer + "/type",
                message: "a union of types (\(types.joined(separator: ", "))) has no Swift form yet")
        }
        if case .array(let values)? = object["enum"], values.contains(.null) { nullable = true }
        // `allOf` of object schemas, one of them typed, is an object.
        let merged = object["allOf"] != nil ? mergedAllOf(object, at: pointer) : nil
        let allOfObject = merged?.isObject == true
        let inferred =
            types.first ?? Self.inferredType(object) ?? (allOfObject || onlyObjectsPass(object) ? "object" : nil)
        if inferred == nil && object["type"] != nil {
            throw .unsupported(pointer: pointer + "/type", message: "a schema whose only type is null")
        }
        guard let type = inferred else {
            let constraints = object.keys.filter { Self.constrains($0) && $0 != "nullable" }
            if !constraints.isEmpty,
                let reference = try objectOrOther(
                    object, constraints: constraints, at: pointer, nameHint: nameHint, declaring: declaring)
            {
                return reference
            }
            guard constraints.isEmpty else {
                throw .unsupported(
                    pointer: pointer,
                    message:
                        "a schema with no type and \(constraints.joined(separator: ", ")) lets values of every other type pass: it has no Swift type but JSONValue"
                )
            }
            return TypeReference(swift: "JSONValue", rules: [], nullable: true)
        }
        if Self.isStringEnum(schema) {
            guard declaring else { return TypeReference(swift: "String", rules: [], nullable: nullable) }
            let inline = try inlineType(at: pointer, nameHint: nameHint, nullable: nullable, holdsDirectly: false)
            if inline.isNew { try declareEnum(object, at: pointer, name: inline.reference.swift) }
            return inline.reference
        }
        let becomesStruct =
            type == "object"
            && (object["properties"] != nil || object["required"] != nil || merged != nil
                || (object["additionalProperties"] == .bool(false) && object["patternProperties"] == nil))
        // A struct checks its own keywords (some object-level ones it can hold as a check); a scalar
        // that is never null holds `not`, `allOf`, `if` … as a check of those keywords alone, beside
        // its typed rules.
        var untyped = object.keys.filter(Self.untyped.contains)
        // A scalar's `allOf` of keywords of its own type (`{"type": "string", "allOf": [{"pattern":
        // …}, {"pattern": …}]}`): their rules beside its own.
        var allOfRules: [String] = []
        if untyped.contains("allOf"), !nullable, let swiftType = Self.scalarSwiftTypes[type],
            let found = try scalarAllOf(object, type: type, swift: swiftType, at: pointer)
        {
            allOfRules = found
            untyped.removeAll { $0 == "allOf" }
        }
        // And its `not` of such keywords (`{"not": {"enum": ["a", "b"]}}`): `.not` of their rules.
        if untyped.contains("not"), !nullable, let swiftType = Self.scalarSwiftTypes[type],
            let found = try scalarNot(object, type: type, swift: swiftType, at: pointer)
        {
            allOfRules.append(found)
            untyped.removeAll { $0 == "not" }
        }
        let checksScalar =
            ["string", "integer", "number", "boolean"].contains(type) && !nullable && !untyped.isEmpty
            && untyped.allSatisfy(Self.objectChecks.contains)
        let itemChecks = type == "array" ? Self.itemChecks(of: object, untyped: untyped) : []
        if !becomesStruct && !checksScalar && type != "object" {
            var unread = object
            for key in ["allOf", "not"] where !untyped.contains(key) { unread[key] = nil }
            // An array's keywords checked on it (`additionalItems` is ignored unless among them).
            for key in itemChecks + ["additionalItems"] where type == "array" { unread[key] = nil }
            try checkKeywords(unread, at: pointer)
        }
        var rules: [String] = []
        let swift: String
        var directStruct: String?
        var elementPinned = false
        switch type {
        case "string":
            swift = "String"
            rules += try stringRules(object, at: pointer)
        case "integer":
            swift = "Int"
            rules += try integerRules(object, at: pointer)
        case "number":
            swift = "Double"
            rules += try numberRules(object, at: pointer)
        case "boolean":
            swift = "Bool"
        case "array":
            if let tuple = try tupleReference(
                object, itemChecks: itemChecks, nullable: nullable, at: pointer, nameHint: nameHint,
                declaring: declaring)
            {
                return tuple
            }
            let array = try arrayReference(
                object, itemChecks: itemChecks, at: pointer, nameHint: nameHint, declaring: declaring)
            swift = array.swift
            rules = array.rules
            elementPinned = array.pinned
        case "object":
            if becomesStruct {
                guard declaring else {
                    return TypeReference(swift: nameHint, rules: [], nullable: nullable)
                }
                let inline = try inlineType(at: pointer, nameHint: nameHint, nullable: nullable, holdsDirectly: true)
                if inline.isNew { try declareStruct(object, at: pointer, name: inline.reference.swift) }
                return inline.reference
            }
            if object["dependentRequired"] != nil || object["dependencies"] != nil {
                throw .unsupported(
                    pointer: pointer, message: "dependentRequired on an object with no properties has no Swift form yet"
                )
            }
            // A dictionary: its values' schema typed, its members' counts too; what reads the
            // members otherwise (`patternProperties`, `propertyNames`, `allOf` …) is checked on it.
            var checked = untyped
            let applicators = checked.filter(Self.objectChecks.contains)
            var additionalKey = "additionalProperties"
            if object["additionalProperties"] == nil, object["unevaluatedProperties"] != nil, applicators.isEmpty,
                object["patternProperties"] == nil
            {
                additionalKey = "unevaluatedProperties"
                checked.removeAll { $0 == "unevaluatedProperties" }
            }
            if checked.contains("unevaluatedProperties") {
                throw .unsupported(
                    pointer: pointer + "/unevaluatedProperties",
                    message: "the keyword unevaluatedProperties beside subschemas has no Swift form yet")
            }
            if !applicators.isEmpty && nullable {
                throw .unsupported(
                    pointer: pointer,
                    message:
                        "\(applicators.joined(separator: ", ")) on an object that may be null has no Swift form yet")
            }
            checked.removeAll { $0 == "minProperties" || $0 == "maxProperties" }
            var element = TypeReference(swift: "JSONValue", rules: [], nullable: true)
            // The keys' rules: `propertyNames` of text rules, and the pattern of a lone
            // `patternProperties` beside `additionalProperties: false` (every key must match it).
            var keyRules: [String] = []
            if let names = object["propertyNames"], let rules = try nameRules(names, at: pointer + "/propertyNames") {
                keyRules += rules
                checked.removeAll { $0 == "propertyNames" }
            }
            var valueType = "JSONValue"
            if let lone = Self.lonePattern(of: object, at: pointer) {
                (element, valueType) = try memberType(
                    lone.schema, at: lone.pointer, nameHint: nameHint + "Value", declaring: declaring)
                keyRules.append(".matches(\(SwiftNames.stringLiteral(lone.pattern)))")
                checked.removeAll { $0 == "patternProperties" }
            } else if object["patternProperties"] != nil {
                if let additional = object["additionalProperties"], additional != .bool(true) {
                    checked.append("additionalProperties")
                }
            } else if let additional = object[additionalKey], additional != .bool(true) {
                (element, valueType) = try memberType(
                    additional, at: pointer + "/" + additionalKey, nameHint: nameHint + "Value", declaring: declaring)
            }
            swift = "[String: \(valueType)]"
            directStruct = nil
            let minimum = try Self.integer(object["minProperties"], at: pointer + "/minProperties")
            let maximum = try Self.integer(object["maxProperties"], at: pointer + "/maxProperties")
            if let rule = Self.bounds("count", minimum, maximum) { rules.append(rule) }
            if !keyRules.isEmpty { rules.append(".keys(\(Self.joined(keyRules)))") }
            if !element.rules.isEmpty { rules.append(".values(\(Self.joined(element.rules)))") }
            if !checked.isEmpty {
                keptTypes.append(valueType)
                rules.append(try keywordCheck(checked, of: object, at: pointer))
            }
        default:
            throw SwiftGenerationError(pointer: pointer + "/type", message: "unknown type \"\(type)\"")
        }
        rules += try valueRules(object, at: pointer, swiftType: swift)
        rules += allOfRules
        if checksScalar {
            rules.append(try keywordCheck(untyped, of: object, at: pointer))
        }
        var reference = TypeReference(swift: swift, rules: rules, nullable: nullable, directStruct: directStruct)
        switch type {
        case "array": reference.pinned = elementPinned
        case "object": reference.pinned = false  // `.count`, `.values` fit many types
        case "string": reference.pinned = rules.contains { !$0.hasPrefix(".schema(") }
        default: reference.pinned = rules.contains { !$0.hasPrefix(".multipleOf(") && !$0.hasPrefix(".schema(") }
        }
        return reference
    }

    /// The keywords of an array's items with no typed rule (a tuple's `items` or `prefixItems`,
    /// `contains` …), checked on the array with AssaySchema beside its typed count, uniqueness and
    /// (when `items` is one schema for all) items. Draft 7's `additionalItems` reads a tuple's other
    /// items: beside one schema for all, or none, it is ignored (left out).
    static func itemChecks(of object: JSONObject, untyped: [String]) -> [String] {
        let isTuple = object["prefixItems"] != nil || { if case .array? = object["items"] { true } else { false } }()
        var checks = untyped.filter { itemChecks.contains($0) && (isTuple || $0 != "additionalItems") }
        // `items` beside a tuple's schemas, or beside `unevaluatedItems` (which reads what it evaluated).
        if object["items"] != nil && (isTuple || checks.contains("unevaluatedItems")) { checks.append("items") }
        if checks.contains("unevaluatedItems") && object["contains"] != nil && !checks.contains("contains") {
            checks.append("contains")
        }
        let order = ["items", "prefixItems", "additionalItems", "contains", "minContains", "maxContains"]
        return checks.sorted { (order.firstIndex(of: $0) ?? order.count) < (order.firstIndex(of: $1) ?? order.count) }
    }

    /// An array's Swift type (`[Element]`) and rules: its count, uniqueness and items typed, the
    /// keywords `itemChecks` names checked on it against the schema where they are written.
    private mutating func arrayReference(
        _ object: JSONObject, itemChecks: [String], at pointer: String, nameHint: String, declaring: Bool
    ) throws(SwiftGenerationError) -> (swift: String, rules: [String], pinned: Bool) {
        var element: TypeReference
        switch object["items"] {
        case nil: element = TypeReference(swift: "JSONValue", rules: [], nullable: true)
        case _? where itemChecks.contains("items"):
            element = TypeReference(swift: "JSONValue", rules: [], nullable: true)
        case let items?:
            element = try itemsReference(
                items, at: home(of: "items", at: pointer) + "/items", nameHint: nameHint + "Item", declaring: declaring)
        }
        let elementType = element.nullable && element.swift != "JSONValue" ? element.swift + "?" : element.swift
        var rules: [String] = []
        let minimum = try Self.integer(object["minItems"], at: pointer + "/minItems")
        let maximum = try Self.integer(object["maxItems"], at: pointer + "/maxItems")
        if let rule = Self.bounds("count", minimum, maximum) { rules.append(rule) }
        if object["uniqueItems"] == .bool(true) { rules.append(".unique") }
        rules += element.rules.map { ".each(\($0))" }
        // `.each(.each(…))` leaves the inner array's type open.
        let pinned = element.pinned && !element.rules.isEmpty && !element.swift.hasPrefix("[")
        if let first = itemChecks.first {
            // One schema holds them all (``mergedKinds(_:at:)`` merges no others).
            keptTypes.append(elementType)
            rules.append(try keywordCheck(itemChecks, of: object, at: home(of: first, at: pointer)))
        }
        return ("[\(elementType)]", rules, pinned)
    }

    /// A tuple (an array whose first items each have a schema of their own: `prefixItems`, or
    /// draft 7's `items` array beside `additionalItems`) as a struct of its items, `item0`, `item1` …,
    /// and `rest` for the items after them; `nil` for an array of another shape, or one with keywords
    /// a tuple's struct does not read (`contains`, `unevaluatedItems`, `enum` …). Its `uniqueItems`
    /// is checked against the schema. The items past `maxItems` are not declared (no value has
    /// them); those below `minItems` are not optional.
    private mutating func tupleReference(
        _ object: JSONObject, itemChecks: [String], nullable: Bool, at pointer: String, nameHint: String,
        declaring: Bool
    ) throws(SwiftGenerationError) -> TypeReference? {
        let prefixKey: String
        let restKey: String
        if case .array? = object["prefixItems"] {
            (prefixKey, restKey) = ("prefixItems", "items")
        } else if case .array? = object["items"] {
            (prefixKey, restKey) = ("items", "additionalItems")
        } else {
            return nil
        }
        guard case .array(let schemas)? = object[prefixKey],
            Set(itemChecks).isSubset(of: ["items", "prefixItems", "additionalItems"]),
            !object.keys.contains(where: { ["enum", "const", "contains", "unevaluatedItems"].contains($0) })
        else { return nil }
        guard declaring else {
            return TypeReference(swift: nameHint, rules: [], nullable: nullable, directStruct: nameHint)
        }
        let minimum = try Self.integer(object["minItems"], at: home(of: "minItems", at: pointer) + "/minItems")
        let maximum = try Self.integer(object["maxItems"], at: home(of: "maxItems", at: pointer) + "/maxItems")
        // Recorded apart from a union of types declared at the schema's own pointer.
        let inline = try inlineType(
            at: pointer + Self.tupleAlone, nameHint: nameHint, nullable: nullable, holdsDirectly: true)
        var reference = inline.reference
        if object["uniqueItems"] == .bool(true) {
            keptTypes.append(reference.swift)
            reference.rules = [try keywordCheck(["uniqueItems"], of: object, at: home(of: "uniqueItems", at: pointer))]
            reference.pinned = false
        }
        guard inline.isNew else { return reference }
        declaredInline[pointer + Self.tupleAlone] = reference
        let name = inline.reference.swift
        // Declared before its items, so that an item that holds the tuple again finds it.
        let position = types.count
        types.append(
            GeneratedType(
                name: name, documentation: Self.documentation(object),
                kind: .tuple(GeneratedType.Tuple(items: [], rest: nil, refusesMore: false))))
        let prefixPointer = home(of: prefixKey, at: pointer) + "/" + prefixKey
        var items: [Field] = []
        for (index, schema) in schemas.prefix(maximum ?? schemas.count).enumerated() {
            let itemPointer = prefixPointer + "/\(index)"
            let present = index < (minimum ?? 0)
            let mark = self.mark()
            var item = try resolve(schema, at: itemPointer, nameHint: name + "Item\(index)", declaring: true)
            let mayBeNull = item.nullable && item.swift != "JSONValue"
            if mayBeNull && !present {
                // An item that may be missing or null (`nil` is the missing one): checked against its schema.
                rewind(to: mark)
                item = fallback(
                    schema, at: itemPointer,
                    because: .unsupported(
                        pointer: itemPointer,
                        message: "a tuple's item that may be missing or null has no Swift form yet"))
                item.swift = "JSONValue"
                item.nullable = true
            }
            var type = item.swift
            if item.nullable && item.swift != "JSONValue" || !present && item.swift != "JSONValue" { type += "?" }
            if !present && item.swift == "JSONValue" { type = "JSONValue?" }
            items.append(
                Field(
                    name: "item\(index)", key: "\(index)", type: type, rules: item.rules, mustBePresent: present,
                    refusesNull: false, isOptional: !present, documentation: Self.documentation(schema),
                    directStruct: item.directStruct, schema: schema))
        }
        var rest: (type: String, rules: [String])?
        var refusesMore = false
        if maximum.map({ $0 > items.count }) ?? true {
            switch object[restKey] {
            case .bool(false)?: refusesMore = true
            case nil, .bool(true)?: rest = ("JSONValue", [])
            case let schema?:
                let element = try itemsReference(
                    schema, at: home(of: restKey, at: pointer) + "/" + restKey, nameHint: name + "Item",
                    declaring: true)
                let type = element.nullable && element.swift != "JSONValue" ? element.swift + "?" : element.swift
                rest = (type, element.rules)
            }
        }
        types[position].kind = .tuple(
            GeneratedType.Tuple(
                items: items, rest: rest, refusesMore: refusesMore, minimum: minimum, maximum: maximum))
        return reference
    }

    /// Whether every name in `keys` passes the `propertyNames` schema `names` (AssaySchema decides).
    static func namesPass(_ keys: [String], _ names: JSONValue) -> Bool {
        guard let schema = try? JSONSchema(names, options: JSONSchema.Options(assertFormats: true)) else {
            return false
        }
        return keys.allSatisfy { schema.isValid(.string($0)) }
    }

    /// Whether a rule expression states only keywords that `null` passes (each reads one other
    /// JSON type): a pattern, lengths, a format, bounds, counts, uniqueness, items' and members'
    /// rules — not a list of values, a `not` or a check against the schema, which may refuse it.
    static func passesNull(_ rule: String) -> Bool {
        [".length(", ".matches(", ".format(", ".range(", ".multipleOf(", ".count(", ".each(", ".values(", ".keys("]
            .contains { rule.hasPrefix($0) } || rule == ".unique"
    }

    /// The type of the items of an array (`items`, a tuple's `rest`): an item that may be `null`
    /// with rules is checked against its schema whole (`.each` of an optional's rules has no typed
    /// form).
    private mutating func itemsReference(_ items: JSONValue, at pointer: String, nameHint: String, declaring: Bool)
        throws(SwiftGenerationError) -> TypeReference
    {
        let mark = self.mark()
        let element = try resolve(items, at: pointer, nameHint: nameHint, declaring: declaring)
        guard element.nullable && element.swift != "JSONValue" && !element.rules.isEmpty else { return element }
        rewind(to: mark)
        return fallback(
            items, at: pointer,
            because: .unsupported(pointer: pointer, message: "rules on items that may be null have no Swift form yet"))
    }

    /// A lone `patternProperties` pattern beside `additionalProperties: false`: every key must match
    /// it and every value pass its schema (the contract of `propertyNames: {"pattern": …}` with that
    /// schema for the values).
    static func lonePattern(of schema: JSONObject, at pointer: String)
        -> (pattern: String, schema: JSONValue, pointer: String)?
    {
        guard schema["additionalProperties"] == .bool(false), case .object(let patterns)? = schema["patternProperties"],
            patterns.count == 1, let (pattern, value) = patterns.first
        else { return nil }
        return (pattern, value, pointer + "/patternProperties/" + escape(pattern))
    }

    /// The type of the values of members (a dictionary's, or those a struct keeps beside its
    /// properties) and its Swift spelling, `T?` for values that may be `null`; such values with rules
    /// have no typed form (`.values` of an optional's rules).
    private mutating func memberType(_ schema: JSONValue, at pointer: String, nameHint: String, declaring: Bool)
        throws(SwiftGenerationError) -> (reference: TypeReference, swift: String)
    {
        let value = try resolve(schema, at: pointer, nameHint: nameHint, declaring: declaring)
        let mayBeNull = value.nullable && value.swift != "JSONValue"
        if mayBeNull && !value.rules.isEmpty {
            throw .unsupported(pointer: pointer, message: "rules on members that may be null have no Swift form yet")
        }
        return (value, mayBeNull ? value.swift + "?" : value.swift)
    }

    /// Keywords that read objects alone: every other value passes them.
    static let objectOnly: Set<String> = [
        "properties", "required", "additionalProperties", "patternProperties", "propertyNames", "minProperties",
        "maxProperties", "dependentRequired", "dependencies", "unevaluatedProperties",
    ]

    /// The Swift type of each scalar JSON type.
    static let scalarSwiftTypes = ["string": "String", "integer": "Int", "number": "Double", "boolean": "Bool"]

    /// The rules of a scalar schema's keywords, for its Swift type (`String`, `Int`, `Double`, `Bool`):
    /// its lengths, pattern and format, or its bounds and multiple, and its `enum` or `const`.
    private mutating func scalarRules(_ object: JSONObject, at pointer: String, swiftType: String)
        throws(SwiftGenerationError) -> [String]
    {
        let own: [String]
        switch swiftType {
        case "String": own = try stringRules(object, at: pointer)
        case "Int": own = try integerRules(object, at: pointer)
        case "Double": own = try numberRules(object, at: pointer)
        default: own = []
        }
        return try own + valueRules(object, at: pointer, swiftType: swiftType)
    }

    /// The keywords that read values of one JSON type alone (every other value passes them).
    static let keywordsOfType: [String: Set<String>] = [
        "string": ["minLength", "maxLength", "pattern", "format"],
        "integer": ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
        "number": ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
        "boolean": [],
        "array": ["items", "minItems", "maxItems", "uniqueItems"],
        "object": [
            "properties", "required", "additionalProperties", "minProperties", "maxProperties", "dependentRequired",
            "propertyNames",
        ],
    ]

    /// `type` of several JSON types (`["string", "array"]`), each keyword reading one of them: an
    /// enum with a case per type (`.string(String)`, `.array([String])`) told apart by the value's
    /// JSON type, each case with the rules of its own keywords (an `enum` or `const` keeps, in each
    /// case, the values of its type; a type none of them has is left out). `nil` for keywords that
    /// read several types (`not`, `allOf` …) or an `enum` of objects or arrays.
    private mutating func typeUnion(
        _ object: JSONObject, types: [String], nullable: Bool, at pointer: String, nameHint: String, declaring: Bool
    ) throws(SwiftGenerationError) -> TypeReference? {
        let common: Set<String> = ["type", "enum", "const", "nullable"]
        // An array's keywords with no typed rule (a tuple's) are checked on the array case.
        func keywords(of type: String) -> Set<String> {
            let own = Self.keywordsOfType[type] ?? []
            return type == "array" ? own.union(Self.itemChecks) : own
        }
        let readByOne = types.reduce(into: Set<String>()) { $0.formUnion(keywords(of: $1)) }
        guard types.allSatisfy({ Self.keywordsOfType[$0] != nil }), Set(types).count == types.count,
            object.keys.filter(Self.constrains).allSatisfy({ common.contains($0) || readByOne.contains($0) })
        else { return nil }
        // The values `enum` or `const` allows, when either is there.
        var allowed: [JSONValue]?
        if let constant = object["const"] {
            allowed = [constant]
        } else if let listed = object["enum"] {
            guard case .array(let values) = listed else { return nil }
            allowed = values
        }
        var kinds: [(kind: String, values: [JSONValue]?)] = []
        for type in types {
            let values = allowed?.filter { value in
                let found = Self.jsonType(of: value)
                return found == type || (type == "number" && found == "integer")
            }
            if let values, values.isEmpty { continue }  // no value of this type is allowed
            if values != nil && (type == "array" || type == "object") { return nil }
            kinds.append((type, values))
        }
        guard kinds.count > 1 else { return nil }
        guard declaring else { return TypeReference(swift: nameHint, rules: [], nullable: nullable) }
        let inline = try inlineType(at: pointer, nameHint: nameHint, nullable: nullable, holdsDirectly: true)
        guard inline.isNew else { return inline.reference }
        let name = inline.reference.swift
        let index = self.types.count
        self.types.append(
            GeneratedType(
                name: name, documentation: Self.documentation(object),
                kind: .union(GeneratedType.Union(discriminator: .kind, cases: []))))
        var cases: [GeneratedType.Union.Case] = []
        for (kind, values) in kinds {
            // The keywords of this type alone, read where they are.
            var alternative = JSONObject()
            alternative["type"] = .string(kind)
            for key in object.keys where keywords(of: kind).contains(key) {
                alternative[key] = object[key]
            }
            if let values { alternative["enum"] = .array(values) }
            var rules: [String] = []
            let payload: String
            var direct: String?
            switch kind {
            case "string", "integer", "number", "boolean":
                payload = Self.scalarSwiftTypes[kind] ?? "JSONValue"
                rules = try scalarRules(alternative, at: pointer, swiftType: payload)
            case "array":
                let element = try resolve(.object(alternative), at: pointer, nameHint: name + "Array", declaring: true)
                guard !element.nullable || element.swift == "JSONValue" else { return nil }
                payload = element.swift
                rules = element.rules
            default:
                // The object's struct, recorded beside the enum at the schema's own pointer.
                let structure = try inlineType(
                    at: pointer + Self.objectAlone, nameHint: name + "Object", nullable: false, holdsDirectly: true)
                payload = structure.reference.swift
                direct = payload
                if structure.isNew { try declareStruct(alternative, at: pointer, name: payload) }
            }
            let rule = Self.caseRule(rules)
            cases.append(
                GeneratedType.Union.Case(name: kind, payload: payload, rule: rule, match: kind, direct: direct))
        }
        self.types[index].kind = .union(GeneratedType.Union(discriminator: .kind, cases: cases))
        return inline.reference
    }

    /// Where the struct of ``objectOrOther(_:constraints:at:nameHint:declaring:)`` is recorded beside
    /// the enum declared at the schema's own pointer (no JSON Pointer has `~` before a letter but `0`/`1`).
    static let objectAlone = "/~object"
    /// Where a tuple's struct is recorded (``tupleReference(_:itemChecks:nullable:at:nameHint:declaring:)``).
    static let tupleAlone = "/~tuple"

    /// The schema's own pointer of a place recorded apart (``objectAlone``, ``tupleAlone``).
    static func withoutAlone(_ pointer: String) -> String {
        for suffix in [objectAlone, tupleAlone] where pointer.hasSuffix(suffix) {
            return String(pointer.dropLast(suffix.count))
        }
        return pointer
    }

    /// A schema with no `type` whose keywords all read objects (`properties`, `required` …) lets every
    /// value that is not an object pass: an enum of the struct those keywords describe
    /// (`.object(ConfigObject)`) and of any other JSON value (`.other(JSONValue)`), told apart by the
    /// value's JSON type. `nil` when another keyword is there (it would read the other values too).
    private mutating func objectOrOther(
        _ object: JSONObject, constraints: [String], at pointer: String, nameHint: String, declaring: Bool
    ) throws(SwiftGenerationError) -> TypeReference? {
        guard constraints.allSatisfy(Self.objectOnly.contains), object["properties"] != nil || object["required"] != nil
        else { return nil }
        guard declaring else { return TypeReference(swift: nameHint, rules: [], nullable: true) }
        let inline = try inlineType(at: pointer, nameHint: nameHint, nullable: true, holdsDirectly: true)
        guard inline.isNew else { return inline.reference }
        let name = inline.reference.swift
        let index = types.count
        types.append(
            GeneratedType(
                name: name, documentation: Self.documentation(object),
                kind: .union(GeneratedType.Union(discriminator: .kind, cases: []))))
        var objectSchema = object
        objectSchema["type"] = "object"
        let payload = try inlineType(
            at: pointer + Self.objectAlone, nameHint: name + "Object", nullable: false, holdsDirectly: true)
        let structName = payload.reference.swift
        if payload.isNew { try declareStruct(objectSchema, at: pointer, name: structName) }
        types[index].kind = .union(
            GeneratedType.Union(
                discriminator: .kind,
                cases: [
                    GeneratedType.Union.Case(
                        name: "object", payload: structName, rule: nil, match: "object", direct: structName),
                    GeneratedType.Union.Case(
                        name: "other", payload: "JSONValue", rule: nil, match: GeneratedType.Union.otherKinds,
                        direct: nil),
                ]))
        return inline.reference
    }

    private mutating func resolveReference(
        _ reference: JSONValue, in object: JSONObject, at pointer: String, nameHint: String, declaring: Bool
    ) throws(SwiftGenerationError) -> TypeReference {
        guard case .string(let text) = reference else {
            throw SwiftGenerationError(pointer: pointer + "/$ref", message: "$ref is not a string")
        }
        let siblings = object.keys.filter { Self.constrains($0) && $0 != "$ref" && $0 != "nullable" }
        if !siblings.isEmpty && !refsIgnoreSiblings {
            throw .unsupported(
                pointer: pointer,
                message: "$ref beside \(siblings.joined(separator: ", ")) has no Swift form yet")
        }
        guard text.hasPrefix("#"), let target = Self.decodeFragment(String(text.dropFirst())) else {
            // An anchor, a URI resolved against an `$id`, another document: AssaySchema resolves
            // what it can (and the document is refused when it cannot).
            throw .unsupported(
                pointer: pointer + "/$ref",
                message: "$ref \"\(text)\" is not a JSON Pointer into the document: it has no Swift type yet")
        }
        if hasEmbeddedResources && Self.isUnderEmbeddedResource(pointer, in: document) {
            // Below another `$id`, "#/…" is a pointer into that resource, not into the document.
            throw .unsupported(
                pointer: pointer + "/$ref",
                message: "$ref \"\(text)\" is read against an embedded resource's $id: it has no Swift type yet")
        }
        let nullable = object["nullable"] == .bool(true)
        if var declared = declaredInline(at: target) ?? declaredInline(at: target + Self.tupleAlone) {
            // A union or a tuple being declared, reached again from one of its alternatives or items.
            declared.nullable = declared.nullable || nullable
            return declared
        }
        if let name = namedTypes[target] {
            let isStruct = document[pointer: target].map(Self.isObjectLike) ?? false
            return TypeReference(swift: name, rules: [], nullable: nullable, directStruct: isStruct ? name : nil)
        }
        guard let schema = document[pointer: target] else {
            throw SwiftGenerationError(pointer: pointer + "/$ref", message: "$ref \"\(text)\" does not resolve")
        }
        if inlining.contains(target), case .object(let array) = schema, array["type"] == .string("array"),
            array.keys.filter(Self.constrains).allSatisfy(
                ["type", "items", "minItems", "maxItems", "uniqueItems"].contains),
            let items = array["items"], let element = declaredElement(items, at: target + "/items")
        {
            // An array whose items (a struct or an enum being declared) hold the array again: the
            // array of that type.
            var rules: [String] = []
            let minimum = try Self.integer(array["minItems"], at: target + "/minItems")
            let maximum = try Self.integer(array["maxItems"], at: target + "/maxItems")
            if let rule = Self.bounds("count", minimum, maximum) { rules.append(rule) }
            if array["uniqueItems"] == .bool(true) { rules.append(".unique") }
            // `.count` and `.unique` leave the array's type open: the first is written with it.
            // An element that may be `null` (an object or any other value) is optional, as elsewhere.
            let swift = element.nullable && element.swift != "JSONValue" ? element.swift + "?" : element.swift
            return TypeReference(swift: "[\(swift)]", rules: rules, nullable: nullable, pinned: false)
        }
        guard !inlining.contains(target) else {
            throw SwiftGenerationError(
                pointer: pointer + "/$ref", message: "$ref \"\(text)\" is a cycle with no object in it: no base case")
        }
        inlining.append(target)
        defer { inlining.removeLast() }
        // A named schema's types take its name, wherever it is reached from.
        var hint = nameHint
        if let key = Self.definitionKey(target) { hint = SwiftNames.typeName(key, prefix: options.typePrefix) }
        var resolved = try resolve(schema, at: target, nameHint: hint, declaring: declaring)
        resolved.nullable = resolved.nullable || nullable
        return resolved
    }

    /// The type of the inline schema at `pointer` (a struct, an enum): the one declared before, or a
    /// name claimed from `nameHint` and recorded, with `isNew` set for the caller to declare it.
    /// `holdsDirectly`: a value of the type is laid out inline where it is held (a struct or an enum
    /// of cases with payloads), which makes cycles.
    private mutating func inlineType(at pointer: String, nameHint: String, nullable: Bool, holdsDirectly: Bool)
        throws(SwiftGenerationError) -> (reference: TypeReference, isNew: Bool)
    {
        if var declared = declaredInline(at: pointer) {
            declared.nullable = nullable
            return (declared, false)
        }
        let name = try claim(SwiftNames.typeName(nameHint, prefix: ""), for: pointer)
        let reference = TypeReference(
            swift: name, rules: [], nullable: nullable, directStruct: holdsDirectly ? name : nil)
        declaredInline[pointer] = reference
        return (reference, true)
    }

    /// The type declared for the inline schema at `pointer`, while its declaration is kept.
    private func declaredInline(at pointer: String) -> TypeReference? {
        guard let reference = declaredInline[pointer], claimedNames[reference.swift] == pointer else { return nil }
        return reference
    }

    /// The struct or enum declared for an array's items at `pointer`, or for the one alternative of
    /// a union of one there.
    private func declaredElement(_ items: JSONValue, at pointer: String) -> TypeReference? {
        if let declared = declaredInline(at: pointer) { return declared }
        guard case .object(let object) = items else { return nil }
        for keyword in ["anyOf", "oneOf", "allOf"] {
            guard case .array(let alternatives)? = object[keyword] else { continue }
            if keyword == "allOf", let sole = Self.soleSchema(of: alternatives) {
                return declaredInline(at: pointer + "/allOf/\(sole)")
            }
            guard alternatives.count == 1 else { return nil }
            return declaredInline(at: pointer + "/\(keyword)/0")
        }
        return nil
    }

    /// The index of the one item of an `allOf` that constrains values, when every other item is
    /// `true` or holds only annotations (`{"$ref": "#/$defs/uri"}` beside `{"description": …}`).
    static func soleSchema(of items: [JSONValue]) -> Int? {
        var sole: Int?
        for (index, item) in items.enumerated() {
            switch item {
            case .bool(true): continue
            case .object(let members) where !members.keys.contains(where: constrains): continue
            default:
                guard sole == nil else { return nil }
                sole = index
            }
        }
        return sole
    }

    /// `key` when `pointer` is `/$defs/key`, `/definitions/key` or `/components/schemas/key`.
    static func definitionKey(_ pointer: String) -> String? {
        guard let tokens = try? JSONValue.tokens(of: pointer) else { return nil }
        switch tokens.count {
        case 2 where tokens[0] == "$defs" || tokens[0] == "definitions": return tokens[1]
        case 3 where tokens[0] == "components" && tokens[1] == "schemas": return tokens[2]
        default: return nil
        }
    }

    // MARK: Unions

    /// A `oneOf` or `anyOf` (with at most `type` beside it) whose alternatives cannot overlap, as an
    /// enum; one alternative and `null`, as that alternative's type made optional; `allOf` of one
    /// schema, as that schema. `nil` for a schema of another shape; an error that falls back for a
    /// union whose alternatives may overlap.
    private mutating func resolveUnion(_ object: JSONObject, at pointer: String, nameHint: String, declaring: Bool)
        throws(SwiftGenerationError) -> TypeReference?
    {
        let constraints = Set(object.keys.filter(Self.constrains))
        if constraints == ["allOf"], case .array(let items)? = object["allOf"], let sole = Self.soleSchema(of: items) {
            return try resolve(items[sole], at: pointer + "/allOf/\(sole)", nameHint: nameHint, declaring: declaring)
        }
        if let union = try unionBesideMembers(object, at: pointer, nameHint: nameHint, declaring: declaring) {
            return union
        }
        let keyword = constraints.contains("oneOf") ? "oneOf" : "anyOf"
        // `unevaluatedProperties: false` beside the union (schemars' `deny_unknown_fields` enums):
        // each object alternative refuses the members it does not declare, and an object that
        // matches no alternative has every member reported.
        let closes = object["unevaluatedProperties"] == .bool(false)
        let allowedKeywords: Set<String> = closes ? [keyword, "type", "unevaluatedProperties"] : [keyword, "type"]
        guard constraints.contains(keyword), constraints.isSubset(of: allowedKeywords),
            case .array(let alternatives)? = object[keyword], !alternatives.isEmpty
        else { return nil }
        func overlap(_ reason: String) -> SwiftGenerationError {
            .unsupported(pointer: pointer + "/" + keyword, message: "\(keyword) whose \(reason): no Swift enum")
        }
        // Beside `type`, a union that has no enum is left to the scalar's typed rules and a check of
        // the keyword alone.
        let typed = object["type"] != nil
        func cannot(_ reason: String) throws(SwiftGenerationError) -> TypeReference? {
            if typed { return nil }
            throw overlap(reason)
        }
        // Alternatives that may take the same values: each tried in turn.
        func tried(_ reason: String) throws(SwiftGenerationError) -> TypeReference? {
            if !closes,
                let union = try trialUnion(
                    object, keyword: keyword, at: pointer, nameHint: nameHint, declaring: declaring, allowed: allowed)
            {
                return union
            }
            return try cannot(reason)
        }
        var allowed: Set<String>?
        switch object["type"] {
        case nil: break
        case .string(let type)?: allowed = [type]
        case .array(let items)?:
            guard let names = Self.strings(items) else { return nil }
            allowed = Set(names)
        default: return nil
        }
        // An alternative that is a union itself (inline, or a reference to one) gives its own
        // alternatives: the enum's cases never overlap (below), so at most one of them matches, and
        // a `oneOf` of them, an `anyOf` and the nested form all accept the same values.
        var flattened: [(place: String, schema: JSONValue)] = []
        var pending = alternatives.enumerated().reversed().map {
            (alternativePlace(keyword, $0.offset, of: pointer), $0.element)
        }
        while let (place, alternative) = pending.popLast() {
            var inner = alternative
            var innerPlace = place
            // Closed, an alternative of another schema's union would be declared closed for it.
            if !closes, case .object(let object) = alternative, case .string(let text)? = object["$ref"],
                object.keys.filter(Self.constrains) == ["$ref"], text.hasPrefix("#"), !hasEmbeddedResources,
                let target = Self.decodeFragment(String(text.dropFirst())), let next = document[pointer: target],
                Self.isUnion(next)
            {
                inner = next
                innerPlace = target
            }
            if case .object(let object) = inner, flattened.count + pending.count < 1_000,
                let nested = ["oneOf", "anyOf"].first(where: { object.keys.filter(Self.constrains) == [$0] }),
                case .array(let more)? = object[nested], !more.isEmpty
            {
                pending += more.enumerated().reversed().map { (innerPlace + "/\(nested)/\($0.offset)", $0.element) }
                continue
            }
            // An alternative of one type or `null` (`{"type": ["null", "integer"]}`) is two: their
            // values are apart, so one value passes as many alternatives as before.
            if case .object(var object) = alternative, object["$ref"] == nil, case .array(let list)? = object["type"],
                let names = Self.strings(list), names.count == 2, names.contains("null"),
                let other = names.first(where: { $0 != "null" })
            {
                object["type"] = .string(other)
                flattened.append((place, ["type": "null"]))
                flattened.append((place, .object(object)))
                continue
            }
            flattened.append((place, alternative))
        }
        var nulls = 0
        var members: [(index: Int, place: String, schema: JSONValue, kind: String)] = []
        // Beside one `type`, an alternative that says no type of its own (`{"required": ["a"]}`)
        // takes values of that type alone: it is read as saying it.
        var sole: String?
        if let allowed, allowed.count == 1 { sole = allowed.first }
        for (index, (place, given)) in flattened.enumerated() {
            // An alternative that takes no value is none.
            if given == .bool(false) { continue }
            var alternative = given
            var found = kind(of: alternative)
            if found == nil, let sole, sole != "null", case .object(var object) = alternative, object["type"] == nil,
                object["$ref"] == nil
            {
                object["type"] = .string(sole)
                alternative = .object(object)
                found = sole
            }
            guard let kind = found else {
                return try tried("alternative \(index) has no single JSON type")
            }
            if let allowed, !allowed.contains(kind), !(kind == "integer" && allowed.contains("number")) {
                if kind == "null" { continue }
                return try cannot("alternative \(index) is of a type the type keyword refuses")
            }
            if kind == "null" {
                nulls += 1
            } else {
                members.append((index, place, alternative, kind))
            }
        }
        if keyword == "oneOf" && nulls > 1 { return try cannot("alternatives accept null twice") }
        let nullable = nulls > 0
        guard !members.isEmpty else { return try cannot("alternatives accept only null") }
        if closes {
            // An object that fails has every member reported: by the enum, or by the one struct.
            // A union of string constants (and `null`) is a string enum that reports them; another
            // union of no object alternative decodes as a scalar, which does not.
            guard members.contains(where: { $0.kind == "object" }) else {
                let constants = Self.constantsAsEnum(
                    .object([keyword: .array(members.map(\.schema)), "unevaluatedProperties": false]))
                guard Self.isStringEnum(constants) else {
                    return try cannot(
                        "alternatives beside unevaluatedProperties take no object: an object's members would go unreported"
                    )
                }
                var reference = try resolve(constants, at: pointer, nameHint: nameHint, declaring: declaring)
                reference.nullable = reference.nullable || nullable
                return reference
            }
            // An object alternative is closed to its `properties` (with those of its `allOf`'s
            // items): one inline, that no subschema of its own evaluates members in.
            let plain: Set<String> = [
                "type", "properties", "required", "allOf", "minProperties", "maxProperties", "dependentRequired",
            ]
            for member in members where member.kind == "object" {
                guard case .object(var alternative) = member.schema, alternative["$ref"] == nil,
                    alternative.keys.filter(Self.constrains).allSatisfy(plain.contains),
                    alternative["allOf"] == nil || mergedAllOf(alternative, at: member.place) != nil
                else {
                    return try cannot(
                        "alternative \(member.index) beside unevaluatedProperties is a reference or evaluates members with subschemas of its own"
                    )
                }
                alternative["unevaluatedProperties"] = .bool(false)
                members[members.firstIndex { $0.index == member.index }!].schema = .object(alternative)
            }
        }
        /// The struct an object alternative beside `unevaluatedProperties: false` was declared as,
        /// refusing the keys it does not declare: its index in `types`.
        func closedStruct(_ reference: TypeReference, of member: Int) throws(SwiftGenerationError) -> Int {
            guard let index = types.firstIndex(where: { $0.name == reference.swift }),
                case .structure = types[index].kind, types[index].refusesUnknownKeys
            else {
                throw overlap(
                    "alternative \(member) beside unevaluatedProperties is not a struct of its members alone")
            }
            return index
        }
        if members.count == 1 {
            let member = members[0]
            var reference = try resolve(member.schema, at: member.place, nameHint: nameHint, declaring: declaring)
            if reference.nullable && nullable && keyword == "oneOf" && reference.swift != "JSONValue" {
                throw overlap("alternatives accept null twice")
            }
            if closes && member.kind == "object" && declaring {
                types[try closedStruct(reference, of: member.index)].cascadesUnknownKeys = true
            }
            reference.nullable = reference.nullable || nullable
            return reference
        }
        // Integers are numbers: the two kinds overlap.
        let classes = members.map { $0.kind == "integer" ? "number" : $0.kind }
        var discriminator = GeneratedType.Union.Discriminator.kind
        var matches = members.map(\.kind)
        var lastTags = GeneratedType.Union.LastTags.one
        var absentTag = false
        // The further values of the member that select each case (its `enum` of several).
        var moreTags: [[String]] = []
        if Set(classes).count != classes.count {
            // Alternatives of one scalar type: that type, with a rule that one alternative's rules
            // pass (`anyOf`), or exactly one's (`oneOf`).
            if let kind = members.first?.kind, members.allSatisfy({ $0.kind == kind }),
                let swift = Self.scalarSwiftTypes[kind],
                let rule = try scalarAlternatives(
                    members.map { ($0.schema, $0.place) }, kind: kind, swift: swift, exactlyOne: keyword == "oneOf")
            {
                return TypeReference(swift: swift, rules: rule.map { [$0] } ?? [], nullable: nullable)
            }
            guard classes.allSatisfy({ $0 == "object" }) else {
                return try tried("alternatives overlap: two of them are of the same JSON type")
            }
            if triedOnly.contains(pointer) {
                // The branches of a condition: the condition, not a member, chooses (tried in turn,
                // a value neither takes is reported by the schema itself).
                return try tried("branches of a condition are tried")
            } else if let key = members.last.flatMap({ absentTagPlaces[$0.place] }), members.count > 1,
                let found = tag(of: members.dropLast().map(\.schema), preferring: object), found.key == key
            {
                // The last alternative is the object without the member.
                discriminator = .tag(key)
                matches = found.tags + [""]
                moreTags = found.more + [[]]
                lastTags = found.last
                absentTag = true
            } else if let found = tag(of: members.map(\.schema), preferring: object) {
                discriminator = .tag(found.key)
                matches = found.tags
                moreTags = found.more
                lastTags = found.last
            } else if let keys = ownMembers(of: members.map(\.schema), closedByUnion: closes && keyword == "oneOf") {
                discriminator = .member
                matches = keys
            } else {
                return try tried(
                    "objects share no required member with a constant string of its own in each (a const discriminator)"
                )
            }
        }
        guard declaring else { return TypeReference(swift: nameHint, rules: [], nullable: nullable) }
        let inline = try inlineType(at: pointer, nameHint: nameHint, nullable: nullable, holdsDirectly: true)
        guard inline.isNew else { return inline.reference }
        let reference = inline.reference
        let name = reference.swift
        let index = types.count
        types.append(
            GeneratedType(
                name: name, documentation: Self.documentation(object),
                kind: .union(GeneratedType.Union(discriminator: discriminator, cases: []))))
        var cases: [GeneratedType.Union.Case] = []
        var caseNames: [String: Int] = [:]
        let lastTagged = absentTag ? members.dropLast().last : members.last
        for (position, (member, match)) in zip(members, matches).enumerated() {
            var caseName: String
            // A case of several values (or of every other string): named as the alternative was,
            // not by one of them.
            let several =
                (lastTags == .anyOther && member.index == lastTagged?.index)
                || (position < moreTags.count && !moreTags[position].isEmpty)
            if absentTag, case .tag(let key) = discriminator, member.index == members.last?.index {
                let name = SwiftNames.caseName(key).trimmingCharacters(in: ["`"])
                caseName = "without" + name.prefix(1).uppercased() + name.dropFirst()
            } else if case .tag = discriminator, !several {
                caseName = SwiftNames.caseName(match)
            } else if case .object(let alternative) = member.schema, case .string(let text)? = alternative["$ref"],
                text.hasPrefix("#"), let target = Self.decodeFragment(String(text.dropFirst())),
                let key = Self.definitionKey(target)
            {
                caseName = SwiftNames.caseName(key)
            } else if several {
                caseName = SwiftNames.caseName(
                    mergedCaseBases[member.place] ?? (lastTags == .anyOther ? "other" : match))
            } else {
                caseName = match
            }
            if let other = caseNames[caseName] {
                throw overlap("alternatives \(other) and \(member.index) both map to the Swift case \(caseName)")
            }
            caseNames[caseName] = member.index
            let payload = try resolve(
                member.schema, at: member.place, nameHint: name + SwiftNames.typeName(caseName, prefix: ""),
                declaring: true)
            if payload.nullable && payload.swift != "JSONValue" {
                throw overlap("alternative \(member.index) accepts null")
            }
            if closes && member.kind == "object" { _ = try closedStruct(payload, of: member.index) }
            let rule = Self.caseRule(payload.rules)
            cases.append(
                GeneratedType.Union.Case(
                    name: SwiftNames.escaped(caseName), payload: payload.swift, rule: rule, match: match,
                    direct: payload.directStruct, moreTags: position < moreTags.count ? moreTags[position] : []))
        }
        var union = GeneratedType.Union(
            discriminator: discriminator, cases: cases, closed: closes, unmatchedSchema: unmatchedSchema(at: pointer))
        union.lastTags = lastTags
        union.absentTag = absentTag
        types[index].kind = .union(union)
        return reference
    }

    /// A `oneOf` or `anyOf` beside object keywords of its own (`{"type": "object", "required":
    /// ["type"], "properties": {"type": {"type": "string"}}, "oneOf": [tagged objects]}`): a value
    /// the union takes is one of the alternatives and the schema around it, so the union is read as
    /// one of the alternatives each merged with those keywords (``merged(_:)``), every keyword read
    /// where it is written. `nil` when an alternative does not merge or the merged ones have no
    /// enum: the schema is then read as a struct with the union checked as a keyword.
    private mutating func unionBesideMembers(
        _ object: JSONObject, at pointer: String, nameHint: String, declaring: Bool
    ) throws(SwiftGenerationError) -> TypeReference? {
        let constraints = Set(object.keys.filter(Self.constrains))
        let unions = constraints.intersection(["oneOf", "anyOf"])
        guard !constraints.isDisjoint(with: ["properties", "required", "additionalProperties", "allOf"]),
            !failedMerges.contains(pointer),
            !(hasEmbeddedResources && Self.isUnderEmbeddedResource(pointer, in: document))
        else { return nil }
        // Each alternative: its place, the schemas it is the conjunction of, which of them is
        // written at its place.
        var candidates: [(place: String, parts: [(schema: JSONObject, place: String)], placed: Int?)] = []
        let keyword: String
        var own = object
        // The schemas around the union: the object's own keywords, or the items of its `allOf`.
        var around: [(schema: JSONObject, place: String)]?
        // Places whose schema a merged alternative reads narrowed (the `else` of a condition).
        var extraSynthesized: [String] = []
        // A condition's branches: the condition chooses, not a member (tried in turn).
        var branches = false
        if unions.isEmpty, let (parents, union, place) = allOfUnion(object, at: pointer) {
            keyword = union.keyword
            var declared = JSONObject()
            for (parent, _) in parents {
                guard case .object(let members)? = parent["properties"] else { continue }
                for (key, member) in members where declared[key] == nil { declared[key] = member }
            }
            // Alternatives that only require members (`anyOf: [{"required": ["phone"]}, …]`) stay
            // a check of the object, which keeps every member.
            if union.alternatives.allSatisfy({ Self.readsOnly(declared, in: named($0, at: pointer)?.schema) })
                || union.alternatives.contains(where: {
                    guard case .object(let alternative)? = named($0, at: pointer)?.schema else { return false }
                    return alternative.keys.filter(Self.constrains).allSatisfy { $0 == "required" }
                })
            {
                return nil
            }
            for (offset, alternative) in union.alternatives.enumerated() {
                let alternativePlace = place + "/\(keyword)/\(offset)"
                mergedCaseBases[alternativePlace] = Self.caseBase(of: alternative)
                guard let (schema, home) = named(alternative, at: alternativePlace),
                    let parts = allOfParts(schema, at: home)
                else { return nil }
                candidates.append((alternativePlace, parts, parts.count == 1 && home == alternativePlace ? 0 : nil))
            }
            around = parents
        } else if unions.count == 1, let union = unions.first {
            keyword = union
            guard constraints.subtracting(unions).isSubset(of: Self.mergeable),
                case .array(let alternatives)? = object[keyword], alternatives.count > 1, alternatives.count <= 1_000
            else { return nil }
            own[keyword] = nil
            // Alternatives that only require or constrain the object's own typed members are rules
            // of its struct (``alternativesRule(_:keyword:at:fields:)``).
            guard case .object(let declared) = object["properties"] ?? .object([:]) else { return nil }
            if alternatives.allSatisfy({ Self.readsOnly(declared, in: named($0, at: pointer)?.schema) }) { return nil }
            for (offset, alternative) in alternatives.enumerated() {
                let place = pointer + "/\(keyword)/\(offset)"
                mergedCaseBases[place] = Self.caseBase(of: alternative)
                guard let (schema, home) = named(alternative, at: place), let parts = allOfParts(schema, at: home)
                else { return nil }
                candidates.append((place, parts, parts.count == 1 && home == place ? 0 : nil))
            }
        } else if unions.isEmpty, constraints.contains("if"), let condition = conditionalBranches(object, at: pointer) {
            keyword = "oneOf"
            for key in ["if", "then", "else"] { own[key] = nil }
            candidates = condition.candidates
            extraSynthesized = condition.narrowed
            branches = true
        } else if unions.isEmpty, constraints.contains("properties") || constraints.contains("required"),
            let conditions = conditionalAlternatives(object, at: pointer)
        {
            keyword = "oneOf"
            own["allOf"] = nil
            candidates = conditions
        } else {
            return nil
        }
        var homes = mergedHomes
        var merges: [JSONValue] = []
        var places: [String] = []
        var narrowed: Set<String> = []
        for (place, parts, placed) in candidates {
            // The merged alternative is declared at its place: no `$ref` may name the place for
            // the alternative alone.
            guard !referencedPlaces.contains(place),
                let merge = merged(
                    (around ?? [(own, pointer)]) + parts, placed: placed.map { $0 + (around?.count ?? 1) })
            else { return nil }
            // An alternative no value passes is none.
            if merge.unsatisfiable {
                merges.append(.bool(false))
                continue
            }
            var schema = merge.schema
            var mergeHomes = merge.homes
            if let tag = absentTagPlaces[place] {
                // The object without the member: its struct does not hold it.
                guard case .object(var members)? = schema["properties"] else { return nil }
                members[tag] = nil
                schema["properties"] = members.isEmpty ? nil : .object(members)
                mergeHomes["properties/" + tag] = nil
            }
            merges.append(.object(schema))
            homes[place] = mergeHomes
            narrowed.formUnion(merge.narrowed)
            places.append(place)
        }
        // An alternative that takes `null` beside objects (the schema's `type: ["object", "null"]`
        // where the alternative says no type) takes objects, and `null` is an alternative of its
        // own: one when exactly one takes it (`oneOf`) or any does (`anyOf`).
        // (Alternatives keep their places: the union's cases are read at them.)
        var stripped = 0
        for index in merges.indices {
            guard let stricter = Self.withoutNull(merges[index]) else { continue }
            merges[index] = stricter
            stripped += 1
        }
        let nulls = merges.filter { $0 == ["type": "null"] }.count
        if keyword == "oneOf" && stripped + nulls > 1 && nulls > 0 { return nil }
        if stripped > 0 && nulls == 0 && (keyword == "anyOf" || stripped == 1) { merges.append(["type": "null"]) }
        var union: JSONObject = [keyword: .array(merges)]
        for key in ["title", "description"] where object[key] != nil { union[key] = object[key] }
        let mark = self.mark()
        let saved = (homes: mergedHomes, synthesized: synthesized, places: mergedPlaces, tried: triedOnly)
        if branches { triedOnly.insert(pointer) }
        mergedHomes = homes
        synthesized.formUnion(places + narrowed + extraSynthesized)
        mergedPlaces[pointer] = candidates.map(\.place)
        do {
            if let reference = try resolveUnion(union, at: pointer, nameHint: nameHint, declaring: declaring) {
                return reference
            }
        } catch {
            guard error.fallsBack else { throw error }
        }
        rewind(to: mark)
        (mergedHomes, synthesized, mergedPlaces, triedOnly) = saved
        failedMerges.insert(pointer)
        return nil
    }

    /// An object's `allOf` (and the items of theirs, `$ref`s followed) of object keywords and one
    /// `oneOf` or `anyOf` (with object keywords beside it or not): the schemas around the union —
    /// the object's own keywords and every other item, the union's own item without it — the
    /// union's keyword and alternatives, and the place of the schema that holds it. `nil` for any
    /// other `allOf`.
    private func allOfUnion(_ object: JSONObject, at pointer: String)
        -> (
            parents: [(schema: JSONObject, place: String)], union: (keyword: String, alternatives: [JSONValue]),
            place: String
        )?
    {
        guard object["allOf"] != nil, let parts = allOfParts(.object(object), at: pointer) else { return nil }
        var parents: [(schema: JSONObject, place: String)] = []
        var found: (keyword: String, alternatives: [JSONValue], place: String)?
        for (part, place) in parts {
            let keys = Set(part.keys.filter(Self.constrains))
            let unions = keys.intersection(["oneOf", "anyOf"])
            guard keys.subtracting(unions).isSubset(of: Self.mergeable), unions.count <= 1 else { return nil }
            if let keyword = unions.first {
                guard found == nil, case .array(let alternatives)? = part[keyword], alternatives.count > 1,
                    alternatives.count <= 1_000
                else { return nil }
                found = (keyword, alternatives, place)
                var rest = part
                rest[keyword] = nil
                parents.append((rest, place))
            } else {
                parents.append((part, place))
            }
        }
        // Some object keyword beside the union.
        guard let found,
            parents.contains(where: {
                !Set($0.schema.keys).isDisjoint(with: ["properties", "required", "additionalProperties"])
            })
        else { return nil }
        return (parents, (found.keyword, found.alternatives), found.place)
    }

    /// An object's `if` on one member's values, `{"if": {"properties": {"version": {"enum": ["v1",
    /// "v1beta1"]}}}, "then": …, "else": …}`, beside that member's `enum` of all its values (buf's
    /// configurations): the object is one of "the member, if present, one of those values, and the
    /// `then`" and "the member one of the other values of its `enum`, and the `else`" — the
    /// second's member read at the member's place, `narrowed`. `nil` for any other condition.
    private mutating func conditionalBranches(_ object: JSONObject, at pointer: String)
        -> (
            candidates: [(place: String, parts: [(schema: JSONObject, place: String)], placed: Int?)],
            narrowed: [String]
        )?
    {
        let keys = Set(object.keys.filter(Self.constrains))
        guard keys.subtracting(["if", "then", "else"]).isSubset(of: Self.mergeable),
            case .object(let test)? = object["if"],
            Set(test.keys.filter(Self.constrains)).isSubset(of: ["properties", "type"]),
            test["type"].map({ $0 == "object" }) ?? true,
            case .object(let tested)? = test["properties"], tested.count == 1, let (key, condition) = tested.first,
            case .object(let fixed) = condition, fixed.keys.filter(Self.constrains).count == 1,
            case .object(let declared)? = object["properties"], let member = declared[key],
            case .object(let allowed)? = named(member, at: pointer)?.schema,
            case .array(let all)? = allowed["enum"]
        else { return nil }
        let values: [JSONValue]
        switch (fixed["const"], fixed["enum"]) {
        case (let value?, nil): values = [value]
        case (nil, .array(let list)?): values = list
        default: return nil
        }
        let others = all.filter { !values.contains($0) }
        let place = pointer + "/properties/" + Self.escape(key)
        // Tried in turn, branches that hold the object again would read a value a number of times
        // that grows with its depth (the union would be checked whole): the condition stays a check.
        guard !others.isEmpty, others.count < all.count, !referencedPlaces.contains(place),
            !(referencedPlaces.contains(pointer) && Self.refers(to: pointer, in: .object(object)))
        else { return nil }
        // Branches that only constrain the object's typed members are a `.when` rule of its struct.
        if ["then", "else"].allSatisfy({ Self.readsOnly(declared, in: object[$0] ?? .bool(true)) }) { return nil }
        var thenParts: [(schema: JSONObject, place: String)] = []
        if let then = object["then"] {
            guard let parts = allOfParts(then, at: pointer + "/then") else { return nil }
            thenParts = parts
        }
        var elseParts: [(schema: JSONObject, place: String)] = []
        if let otherwise = object["else"] {
            guard let parts = allOfParts(otherwise, at: pointer + "/else") else { return nil }
            elseParts = parts
        }
        let complement: JSONObject = [
            "properties": [key: ["enum": .array(others)]], "required": [.string(key)],
        ]
        mergedCaseBases[pointer + "/then"] = values.first.flatMap(Self.string) ?? "then"
        mergedCaseBases[pointer + "/else"] =
            others.count == 1
            ? Self.string(others[0]) ?? "else" : Self.caseBase(of: object["else"] ?? .bool(true)) ?? "else"
        return (
            [
                (pointer + "/then", [(test, pointer + "/if")] + thenParts, thenParts.count == 1 ? 1 : nil),
                (pointer + "/else", [(complement, pointer)] + elseParts, elseParts.count == 1 ? 1 : nil),
            ],
            [place]
        )
    }

    /// An object's `allOf` of conditions on one member it requires, `{"if": {"properties": {"type":
    /// {"const": "markdown"}}}, "then": {…}}`, one for each value the member may have (its `enum`):
    /// exactly one condition holds for a value, so the object is one of the alternatives "that
    /// value, and its `then`" — the `if` and the items of the `then` to merge, at the item's place.
    /// `nil` for any other `allOf`.
    private mutating func conditionalAlternatives(_ object: JSONObject, at pointer: String)
        -> [(place: String, parts: [(schema: JSONObject, place: String)], placed: Int?)]?
    {
        guard case .array(let items)? = object["allOf"], !items.isEmpty, items.count <= 1_000,
            Set(object.keys.filter(Self.constrains)).subtracting(["allOf"]).isSubset(of: Self.mergeable),
            case .object(let declared)? = object["properties"]
        else { return nil }
        var required: [String] = []
        if let requiredKeys = object["required"] {
            guard case .array(let keys) = requiredKeys, let names = Self.strings(keys) else { return nil }
            required = names
        }
        // The `then` of each condition that holds when the member is missing (its `if` does not
        // require it).
        var absentParts: [(schema: JSONObject, place: String)] = []
        var tag: String?
        var values: [JSONValue] = []
        var candidates: [(place: String, parts: [(schema: JSONObject, place: String)], placed: Int?)] = []
        for (offset, item) in items.enumerated() {
            let place = pointer + "/allOf/\(offset)"
            guard case .object(let condition) = item,
                Set(condition.keys.filter(Self.constrains)) == ["if", "then"],
                case .object(let written)? = condition["if"], let test = Self.valuesTest(written),
                Set(test.keys.filter(Self.constrains)).isSubset(of: ["properties", "required", "type"]),
                test["type"].map({ $0 == "object" }) ?? true,
                case .object(let members)? = test["properties"], members.count == 1,
                let (key, member) = members.first, tag == nil || tag == key,
                case .object(let fixed) = member, fixed.keys.filter(Self.constrains).count == 1
            else { return nil }
            tag = key
            switch (fixed["const"], fixed["enum"]) {
            case (let value?, nil): values.append(value)
            case (nil, .array(let list)?) where !list.isEmpty: values += list
            default: return nil
            }
            guard let then = condition["then"], let parts = allOfParts(then, at: place + "/then") else { return nil }
            // A case of two or three values is named after them all (`tsOrNg`).
            if case .array(let list)? = fixed["enum"], (2...3).contains(list.count), let texts = Self.strings(list) {
                mergedCaseBases[place] = texts.joined(separator: " or ")
            } else {
                mergedCaseBases[place] = Self.caseBase(of: .object(test))
            }
            candidates.append((place, [(test, place + "/if")] + parts, nil))
            if case .array(let names)? = test["required"], names.contains(.string(key)) { continue }
            absentParts += parts
        }
        // The member is required; a value no condition names is the object alone, an alternative
        // of its own: the member's other values (the rest of its `enum`, or every string but
        // those), read at the member's place.
        // The member's schema, an `anyOf` of string constants read as their `enum`.
        guard let tag, Set(values).count == values.count,
            let (schema, _) = declared[tag].flatMap({ named($0, at: pointer) }),
            case .object(let allowed) = Self.constantsAsEnum(schema)
        else { return nil }
        if !required.contains(tag) {
            // A member that may be missing: each condition's alternative requires it (at the
            // object's place, where the union reads it), and one more is the object without it,
            // with the `then` of each condition that holds then.
            for index in candidates.indices {
                candidates[index].parts.append((["required": [.string(tag)]], pointer))
            }
        }
        var rest: JSONValue?
        switch (allowed["const"], allowed["enum"]) {
        case (let value?, _):
            guard values.contains(value) else { return nil }
        case (nil, .array(let list)?):
            let others = list.filter { !values.contains($0) }
            if !others.isEmpty {
                rest = ["enum": .array(others)]
                mergedCaseBases[pointer + "/allOf/\(items.count)"] =
                    others.count == 1 ? Self.string(others[0]) : "other"
            }
        default:
            // Every string but those: the member's schema, and `not` of them.
            guard allowed["type"] == "string", allowed["not"] == nil, Self.strings(values) != nil else { return nil }
            var refused = allowed
            refused["not"] = ["enum": .array(values)]
            rest = .object(refused)
        }
        if let rest {
            // At a place no schema is written (the item after the last): nothing is checked there.
            let complement: JSONObject = ["properties": [tag: rest], "required": [.string(tag)]]
            candidates.append((pointer + "/allOf/\(items.count)", [(complement, pointer)], nil))
        }
        if !required.contains(tag) {
            // After the other values' place, at another no schema is written.
            let place = pointer + "/allOf/\(items.count + 1)"
            absentTagPlaces[place] = tag
            candidates.append((place, absentParts, nil))
        }
        // Branches that only require or constrain the object's own typed members are `.when` rules
        // of its struct.
        if items.allSatisfy({
            Self.readsOnly(declared, in: $0.object?["then"].flatMap { named($0, at: pointer)?.schema })
        }) {
            return nil
        }
        return candidates
    }

    /// An `if` that tests one member against values: as written, or an `anyOf` of such tests of
    /// one member (`{"anyOf": [{"properties": {"type": {"const": "a"}}}, {… "b" …}]}`) as the
    /// `enum` of their values (`required` of the member in each, or in none). `nil` for another.
    static func valuesTest(_ test: JSONObject) -> JSONObject? {
        guard case .array(let alternatives)? = test["anyOf"] else { return test }
        guard test.keys.filter(constrains) == ["anyOf"], !alternatives.isEmpty else { return nil }
        var key: String?
        var values: [JSONValue] = []
        var requires: Bool?
        for alternative in alternatives {
            guard case .object(let one) = alternative,
                Set(one.keys.filter(constrains)).isSubset(of: ["properties", "required"]),
                case .object(let members)? = one["properties"], members.count == 1,
                let (name, member) = members.first, key == nil || key == name,
                case .object(let fixed) = member, fixed.keys.filter(constrains) == ["const"], let value = fixed["const"]
            else { return nil }
            let required = one["required"] == .array([.string(name)])
            guard one["required"] == nil || required, requires == nil || requires == required else { return nil }
            key = name
            requires = required
            values.append(value)
        }
        guard let key else { return nil }
        var merged: JSONObject = ["properties": [key: ["enum": .array(values)]]]
        if requires == true { merged["required"] = [.string(key)] }
        return merged
    }

    /// The schema and the items of its `allOf` (and theirs, `$ref`s followed), each with its place,
    /// to merge: `nil` for a schema that is no object, or holds too many.
    private func allOfParts(_ schema: JSONValue, at place: String) -> [(schema: JSONObject, place: String)]? {
        var parts: [(schema: JSONObject, place: String)] = []
        var pending = [(schema, place)]
        while let (schema, place) = pending.popLast() {
            guard parts.count + pending.count < 64, case .object(var object) = schema else {
                if schema == .bool(true) { continue }
                return nil
            }
            if case .array(let items)? = object["allOf"] {
                for (offset, item) in items.enumerated().reversed() {
                    guard let (item, home) = named(item, at: place + "/allOf/\(offset)") else { return nil }
                    pending.append((item, home))
                }
                object["allOf"] = nil
            }
            parts.append((object, place))
        }
        return parts
    }

    /// Whether `schema` is an object schema of `properties`, `required` and `type` reading only the
    /// members `declared` names, each of a `type` there or given no schema it does not imply.
    static func readsOnly(_ declared: JSONObject, in schema: JSONValue?) -> Bool {
        guard case .object(let object)? = schema,
            object.keys.filter(constrains).allSatisfy(["properties", "required", "type"].contains),
            object["type"].map({ $0 == "object" }) ?? true
        else { return schema == .bool(true) }
        if case .object(let members)? = object["properties"] {
            for (key, member) in members {
                guard let own = declared[key] else { return false }
                if isImplied(member, by: own) { continue }
                // A member of a scalar type: the branch's rules are typed, or checked. One of an
                // object or an array: the branch may only count its items (`{"$ref": …}` to a
                // struct would be checked whole where a union types it).
                guard case .object(let typed) = own, let type = typed["type"] else { return false }
                if type == "object" || type == "array" {
                    guard case .object(let schema) = member,
                        schema.keys.filter(constrains).allSatisfy(
                            ["type", "minItems", "maxItems", "uniqueItems"].contains)
                    else { return false }
                }
            }
        }
        if case .array(let names)? = object["required"], !Set(strings(names) ?? [""]).isSubset(of: declared.keys) {
            return false
        }
        return true
    }

    /// A `oneOf` or `anyOf` whose alternatives may take the same values, as an enum that tries each
    /// alternative in turn (``GeneratedType/Union/Discriminator/trial(exactlyOne:pointer:)``): a case
    /// per alternative as written (a nested union is not flattened: two of its alternatives taking a
    /// value is not one), each payload the alternative's own type. Beside `type`, an alternative that
    /// says no type of its own is read as saying the one the union's `type` names. `nil` when an
    /// alternative takes `null` (it would pass unseen as the optional's `nil`) or a value the
    /// union's `type` refuses, or when two alternatives are `null`.
    private mutating func trialUnion(
        _ object: JSONObject, keyword: String, at pointer: String, nameHint: String, declaring: Bool,
        allowed: Set<String>?
    ) throws(SwiftGenerationError) -> TypeReference? {
        guard case .array(let alternatives)? = object[keyword] else { return nil }
        let sole = allowed?.count == 1 ? allowed?.first : nil
        var members: [(index: Int, place: String, schema: JSONValue)] = []
        var nulls = 0
        for (index, given) in alternatives.enumerated() where given != .bool(false) {
            var alternative = given
            var found = kind(of: alternative)
            if found == nil, let sole, sole != "null", case .object(var schema) = alternative, schema["type"] == nil,
                schema["$ref"] == nil
            {
                schema["type"] = .string(sole)
                alternative = .object(schema)
                found = sole
            }
            if found == "null" {
                nulls += 1
                continue
            }
            if let allowed {
                // The union's `type` is read by each alternative: one that says another (or none) is refused.
                guard let kind = found, allowed.contains(kind) || (kind == "integer" && allowed.contains("number"))
                else { return nil }
            }
            members.append((index, alternativePlace(keyword, index, of: pointer), alternative))
        }
        // `null` taken by one alternative (or, for `anyOf`, by any): the enum is optional, `nil`
        // for it. Taken by several `oneOf` alternatives, it is refused — by trying them, when
        // each is a case (a `null` alternative is none).
        let takingNull = nulls + members.filter { Self.acceptsNull($0.schema) }.count
        if keyword == "oneOf" && takingNull > 1 && nulls > 0 { return nil }
        let nullable = keyword == "oneOf" ? takingNull == 1 : takingNull > 0
        guard members.count > 1 else { return nil }
        guard declaring else { return TypeReference(swift: nameHint, rules: [], nullable: nullable) }
        // A union tried once and given up is not tried again (reached again from each of twenty
        // alternatives that name it, a chain of them would be read a number of times exponential
        // in its length), and the attempts of a document are bounded.
        guard !failedTrials.contains(pointer), trialAttempts < Self.maximumTrialAttempts else { return nil }
        trialAttempts += 1
        // An alternative that cannot be read (a cycle with no schema in it …) leaves the union as it was.
        let mark = self.mark()
        do {
            return try trialEnum(
                object, members: members, keyword: keyword, at: pointer, nameHint: nameHint, nullable: nullable)
        } catch {
            rewind(to: mark)
            // Its name is given back: a type of the same name declared here later is a new one.
            declaredInline[pointer] = nil
            failedTrials.insert(pointer)
            return nil
        }
    }

    /// The enum of ``trialUnion(_:keyword:at:nameHint:declaring:allowed:)``, declared.
    private mutating func trialEnum(
        _ object: JSONObject, members: [(index: Int, place: String, schema: JSONValue)], keyword: String,
        at pointer: String, nameHint: String, nullable: Bool
    ) throws(SwiftGenerationError) -> TypeReference {
        let inline = try inlineType(at: pointer, nameHint: nameHint, nullable: nullable, holdsDirectly: true)
        guard inline.isNew else { return inline.reference }
        let name = inline.reference.swift
        let index = types.count
        defer { trialDeclared[name] = types[min(index + 1, types.count)...].map(\.name) }
        let discriminator = GeneratedType.Union.Discriminator.trial(exactlyOne: keyword == "oneOf", pointer: pointer)
        types.append(
            GeneratedType(
                name: name, documentation: Self.documentation(object),
                kind: .union(GeneratedType.Union(discriminator: discriminator, cases: []))))
        // Case names: a referenced definition's key, the alternative's title, the value of a
        // member it holds constant, else its JSON type; numbered from the second of one name on.
        var used: Set<String> = []
        var cases: [GeneratedType.Union.Case] = []
        for member in members {
            let base = mergedCaseBases[member.place] ?? Self.caseBase(of: member.schema)
            let first = SwiftNames.caseName(base ?? kind(of: member.schema) ?? "value")
            var caseName = first
            var number = 2
            while used.contains(caseName) {
                caseName = first + "\(number)"
                number += 1
            }
            used.insert(caseName)
            let payload = try resolve(
                member.schema, at: member.place, nameHint: name + SwiftNames.typeName(caseName, prefix: ""),
                declaring: true)
            // A case of an optional's payload, or one that may take `null` where the schema does
            // not say whether it does (`nullable` above would be wrong).
            if payload.nullable
                && (payload.swift != "JSONValue"
                    || (!Self.acceptsNull(member.schema) && kind(of: member.schema) == nil))
            {
                throw .unsupported(
                    pointer: member.place,
                    message: "\(keyword) whose alternative \(member.index) accepts null: no Swift enum")
            }
            let rule = Self.caseRule(payload.rules)
            cases.append(
                GeneratedType.Union.Case(
                    name: SwiftNames.escaped(caseName), payload: payload.swift, rule: rule, match: caseName,
                    direct: payload.directStruct))
        }
        types[index].kind = .union(
            GeneratedType.Union(
                discriminator: discriminator, cases: cases, unmatchedSchema: unmatchedSchema(at: pointer)))
        return inline.reference
    }

    /// What names a union's alternative: the key of the definition its `$ref` names, its `title`,
    /// the value of the first member it holds constant (`"type": {"const": "http"}`), what names an
    /// inline item of its `allOf`, or the first member it requires.
    private static func caseBase(of alternative: JSONValue) -> String? {
        guard case .object(let object) = alternative else { return nil }
        if case .string(let text)? = object["$ref"], text.hasPrefix("#"),
            let target = decodeFragment(String(text.dropFirst())), let key = definitionKey(target)
        {
            return key
        }
        if let title = string(object["title"]) { return title }
        if case .object(let properties)? = object["properties"] {
            for (_, schema) in properties {
                guard case .object(let member) = schema else { continue }
                if case .string(let value)? = member["const"] { return value }
                if case .array(let values)? = member["enum"], values.count == 1, case .string(let value) = values[0] {
                    return value
                }
            }
        }
        // Else what names an inline item of its `allOf` (`{"allOf": [{"$ref": …}, {"properties":
        // {"kind": {"enum": ["API"]}}}]}`), else the first member it requires.
        if case .array(let items)? = object["allOf"] {
            for item in items {
                guard case .object(let part) = item, part["$ref"] == nil, let base = caseBase(of: item) else {
                    continue
                }
                return base
            }
        }
        if case .array(let keys)? = object["required"], case .string(let key)? = keys.first { return key }
        return nil
    }

    /// The rules of a scalar's `allOf` when each item is inline and holds keywords of the scalar's
    /// type alone (its `type`, if stated, that type): every item's rules, in order. `nil` otherwise.
    private mutating func scalarAllOf(_ object: JSONObject, type: String, swift: String, at pointer: String)
        throws(SwiftGenerationError) -> [String]?
    {
        guard case .array(let items)? = object["allOf"], !items.isEmpty else { return nil }
        let allowed = (Self.keywordsOfType[type] ?? []).union(["type", "enum", "const"])
        var rules: [String] = []
        for (offset, item) in items.enumerated() {
            if item == .bool(true) { continue }
            guard case .object(let schema) = Self.constantsAsEnum(item), schema["$ref"] == nil,
                schema.keys.filter(Self.constrains).allSatisfy(allowed.contains),
                schema["type"].map({ $0 == .string(type) }) ?? true
            else { return nil }
            do {
                rules += try scalarRules(schema, at: pointer + "/allOf/\(offset)", swiftType: swift)
            } catch {
                guard error.fallsBack else { throw error }
                return nil
            }
        }
        return rules
    }

    /// The rule of a scalar's `not` whose schema is inline and holds keywords of the scalar's type
    /// alone (its `type`, if stated, that type): `.not` of that schema's rules. `nil` otherwise, or
    /// when the schema has no rule (it takes every value of the type: nothing passes the `not`).
    private mutating func scalarNot(_ object: JSONObject, type: String, swift: String, at pointer: String)
        throws(SwiftGenerationError) -> String?
    {
        let allowed = (Self.keywordsOfType[type] ?? []).union(["type", "enum", "const"])
        guard let item = object["not"], case .object(let schema) = Self.constantsAsEnum(item), schema["$ref"] == nil,
            schema.keys.filter(Self.constrains).allSatisfy(allowed.contains),
            schema["type"].map({ $0 == .string(type) }) ?? true
        else { return nil }
        do {
            let rules = try scalarRules(schema, at: pointer + "/not", swiftType: swift)
            return rules.isEmpty ? nil : ".not(\(Self.joined(rules)))"
        } catch {
            guard error.fallsBack else { throw error }
            return nil
        }
    }

    /// The rule of an `anyOf` (`exactlyOne`: a `oneOf`) whose alternatives are all of the scalar
    /// JSON type `kind`, each holding keywords of that type alone (inline, no `$ref`): `.or` (or
    /// `.exactlyOne`) of each alternative's rules (`.and` of them where it has several);
    /// `.some(nil)` when an alternative of an `anyOf` has none (every value of the type passes it);
    /// `nil` when an alternative's keywords are not rules of `swift`, or an alternative of a `oneOf`
    /// has none.
    private mutating func scalarAlternatives(
        _ alternatives: [(schema: JSONValue, place: String)], kind: String, swift: String, exactlyOne: Bool
    ) throws(SwiftGenerationError) -> String?? {
        let allowed = (Self.keywordsOfType[kind] ?? []).union(["type", "enum", "const"])
        var rules: [String] = []
        for (schema, place) in alternatives {
            guard case .object(let object) = Self.constantsAsEnum(schema), object["$ref"] == nil,
                object.keys.filter(Self.constrains).allSatisfy(allowed.contains)
            else { return nil }
            let own: [String]
            do {
                own = try scalarRules(object, at: place, swiftType: swift)
            } catch {
                guard error.fallsBack else { throw error }
                return nil
            }
            switch own.count {
            case 0: return exactlyOne ? nil : .some(nil)
            case 1: rules.append(own[0])
            default: rules.append(".and(\(own.joined(separator: ", ")))")
            }
        }
        return .some(".\(exactlyOne ? "exactlyOne" : "or")(\(rules.joined(separator: ", ")))")
    }

    /// The JSON type of every value an alternative accepts (`null` for `{"type": "null"}`), through
    /// `$ref`s into the document; `nil` when it accepts values of several types (or cannot say).
    private func kind(of alternative: JSONValue) -> String? {
        var schema = alternative
        for _ in 0..<32 {
            guard case .object(var object) = schema else { return nil }
            if let rewritten = referenceAsAllOf(object) { object = rewritten }
            let constraints = object.keys.filter { Self.constrains($0) && $0 != "nullable" }
            if case .string(let text)? = object["$ref"] {
                guard constraints == ["$ref"], object["nullable"] == nil, text.hasPrefix("#"),
                    let target = Self.decodeFragment(String(text.dropFirst())), let next = document[pointer: target],
                    !hasEmbeddedResources
                else { return nil }
                schema = next
                continue
            }
            guard object["nullable"] != .bool(true) else { return nil }
            switch object["type"] {
            case .string(let type)?:
                guard type != "null" || constraints == ["type"] else { return nil }
                return type
            case .array(let items)? where items.count == 1:
                guard case .string(let type) = items[0], type != "null" else { return nil }
                return type
            case nil:
                if case .array(let values)? = object["enum"], values.contains(.null) { return nil }
                if object["const"] == .null { return nil }
                if object["allOf"] != nil, mergedAllOf(object, at: "")?.isObject == true { return "object" }
                // Any `allOf` item that takes objects alone makes the whole take objects alone.
                var budget = 1_000
                if takesObjectsAlone(.object(object), budget: &budget) { return "object" }
                return Self.inferredType(object)
            default:
                return nil
            }
        }
        return nil
    }

    /// For object alternatives that allow no members but their `properties`
    /// (`additionalProperties: false`, no `patternProperties`): in each, a member it requires that no
    /// other alternative allows, in order. An object then matches one alternative at most, the one
    /// whose member it holds (holding two, it matches none). `nil` when an alternative has none.
    /// `closedByUnion`: `unevaluatedProperties: false` beside the union closes each alternative
    /// that reads no members of its own beside its `properties`.
    private func ownMembers(of alternatives: [JSONValue], closedByUnion: Bool = false) -> [String]? {
        var closed: [(allowed: Set<String>, required: [String])] = []
        for alternative in alternatives {
            var schema = alternative
            var hops = 0
            while case .object(let object) = schema, case .string(let text)? = object["$ref"], hops < 32 {
                guard object.keys.filter(Self.constrains) == ["$ref"], text.hasPrefix("#"),
                    let target = Self.decodeFragment(String(text.dropFirst())), let next = document[pointer: target]
                else { return nil }
                schema = next
                hops += 1
            }
            guard case .object(let object) = schema, object["patternProperties"] == nil,
                (object["additionalProperties"] == .bool(false) && object["unevaluatedProperties"] == nil)
                    || (closedByUnion && hops == 0 && object["additionalProperties"] == nil
                        && object["unevaluatedProperties"] == .bool(false) && object["allOf"] == nil)
            else { return nil }
            var allowed: Set<String> = []
            if let properties = object["properties"] {
                guard case .object(let members) = properties else { return nil }
                allowed = Set(members.keys)
            }
            var required: [String] = []
            if let listed = object["required"] {
                guard case .array(let keys) = listed, let names = Self.strings(keys) else { return nil }
                required = names
            }
            closed.append((allowed, required))
        }
        var own: [String] = []
        for (index, alternative) in closed.enumerated() {
            let others = closed.indices.filter { $0 != index }
            guard
                let key = alternative.required.first(where: { key in
                    others.allSatisfy { !closed[$0].allowed.contains(key) }
                })
            else { return nil }
            own.append(key)
        }
        return own
    }

    /// The member that tells object alternatives apart: required in each, with a constant string
    /// (`const`, or an `enum` of one) of its own in each. OpenAPI's `discriminator.propertyName`
    /// first, when it is one; else the first such member of the first alternative.
    /// Whether a schema's own `type` is `object`, or that of an item of its `allOf` (through `$ref`s
    /// into the document, nested `allOf`s too): then it takes objects alone. Reads at most `budget`
    /// schemas in all, so that `$ref`s that fan out cannot make it costly; past it, `false`.
    private func takesObjectsAlone(_ schema: JSONValue, budget: inout Int) -> Bool {
        var schema = schema
        while budget > 0 {
            budget -= 1
            guard case .object(let object) = schema else { return false }
            if object["type"] == "object" { return true }
            if case .string(let text)? = object["$ref"], text.hasPrefix("#"), !hasEmbeddedResources,
                let target = Self.decodeFragment(String(text.dropFirst())), let next = document[pointer: target]
            {
                schema = next
                continue
            }
            guard case .array(let items)? = object["allOf"] else { return false }
            return items.contains { takesObjectsAlone($0, budget: &budget) }
        }
        return false
    }

    /// An object schema's `required` and `properties` with those of its `allOf` items (through
    /// `$ref`s into the document, nested `allOf`s too) beside its own: each item holds for every
    /// value the schema accepts, so a member one of them requires with a constant is a tag of the
    /// whole (a configuration's `$ref` and the tag beside it). A property is the first schema found
    /// with a `const` or an `enum` for it, else the first found.
    private func tagView(_ object: JSONObject) -> JSONObject {
        guard object["allOf"] != nil else { return object }
        var required: [JSONValue] = []
        var requiredKeys: Set<String> = []
        var properties = JSONObject()
        var pending: [JSONValue] = [.object(object)]
        var visited = 0
        while let next = pending.popLast(), visited < 1_000 {
            visited += 1
            guard case .object(let item) = next else { continue }
            if case .string(let text)? = item["$ref"], text.hasPrefix("#"), !hasEmbeddedResources,
                let target = Self.decodeFragment(String(text.dropFirst())), let resolved = document[pointer: target]
            {
                pending.append(resolved)
            }
            if case .array(let keys)? = item["required"] {
                for case .string(let key) in keys where requiredKeys.insert(key).inserted {
                    required.append(.string(key))
                }
            }
            if case .object(let members)? = item["properties"] {
                for (key, schema) in members {
                    var constant = false
                    if case .object(let property) = schema {
                        constant = property["const"] != nil || property["enum"] != nil
                    }
                    if properties[key] == nil || constant { properties[key] = schema }
                }
            }
            if case .array(let items)? = item["allOf"] { pending += items.reversed() }
        }
        var view = object
        view["required"] = .array(required)
        view["properties"] = .object(properties)
        return view
    }

    /// The member that tells an object union's alternatives apart: one each requires with string
    /// constants of its own (`const`, or an `enum`; the last may refuse the others' values alone,
    /// `{"type": "string", "not": {"enum": […]}}`), the union's `discriminator` preferred. Its
    /// first value for each case, each case's further values, and what else selects the last.
    private func tag(of alternatives: [JSONValue], preferring union: JSONObject)
        -> (key: String, tags: [String], more: [[String]], last: GeneratedType.Union.LastTags)?
    {
        var objects: [JSONObject] = []
        for alternative in alternatives {
            var schema = alternative
            var hops = 0
            while case .object(let object) = schema, case .string(let text)? = object["$ref"], hops < 32 {
                guard text.hasPrefix("#"), let target = Self.decodeFragment(String(text.dropFirst())),
                    let next = document[pointer: target]
                else { return nil }
                schema = next
                hops += 1
            }
            guard case .object(let object) = schema else { return nil }
            objects.append(tagView(object))
        }
        func tags(_ key: String) -> (tags: [String], more: [[String]], last: GeneratedType.Union.LastTags)? {
            var found: [String] = []
            var more: [[String]] = []
            var seen: Set<String> = []
            var last = GeneratedType.Union.LastTags.one
            for (index, object) in objects.enumerated() {
                guard case .array(let required)? = object["required"], required.contains(.string(key)),
                    case .object(let properties)? = object["properties"], case .object(let property)? = properties[key]
                else { return nil }
                var values: [JSONValue] = []
                if let constant = property["const"] {
                    values = [constant]
                } else if case .array(let list)? = property["enum"] {
                    values = list
                } else if index == objects.count - 1, index > 0, property["type"] == "string",
                    case .object(let refused)? = property["not"], refused.keys.filter(Self.constrains) == ["enum"],
                    case .array(let list)? = refused["enum"], Set(list) == Set(seen.map { JSONValue.string($0) })
                {
                    // The last: every string the others do not name (`{"not": {"enum": [those]}}`,
                    // exactly those).
                    found.append("")
                    more.append([])
                    last = .anyOther
                    continue
                }
                guard let texts = Self.strings(values), !texts.isEmpty, texts.allSatisfy({ !seen.contains($0) }),
                    Set(texts).count == texts.count
                else { return nil }
                found.append(texts[0])
                more.append(Array(texts.dropFirst()))
                seen.formUnion(texts)
            }
            return (found, more, last)
        }
        if case .object(let discriminator)? = union["discriminator"],
            case .string(let key)? = discriminator["propertyName"], let found = tags(key)
        {
            return (key, found.tags, found.more, found.last)
        }
        guard case .object(let properties)? = objects.first?["properties"] else { return nil }
        for key in properties.keys {
            if let found = tags(key) { return (key, found.tags, found.more, found.last) }
        }
        return nil
    }

    // MARK: Rules

    private func stringRules(_ object: JSONObject, at pointer: String) throws(SwiftGenerationError) -> [String] {
        var rules: [String] = []
        let minimum = try Self.integer(object["minLength"], at: pointer + "/minLength")
        let maximum = try Self.integer(object["maxLength"], at: pointer + "/maxLength")
        if let rule = Self.bounds("length", minimum, maximum) { rules.append(rule) }
        if let pattern = object["pattern"] {
            guard case .string(let source) = pattern else {
                throw SwiftGenerationError(pointer: pointer + "/pattern", message: "pattern is not a string")
            }
            rules.append(".matches(\(SwiftNames.stringLiteral(source)))")
        }
        if let format = object["format"] {
            guard case .string(let name) = format else {
                throw SwiftGenerationError(pointer: pointer + "/format", message: "format is not a string")
            }
            if let member = SwiftNames.formats[name] {
                rules.append(".format(.\(member))")
            }
        }
        return rules
    }

    /// The typed rules of a `propertyNames` schema, when it holds only what text rules state
    /// (`type: string`, lengths, `pattern`, a known `format`, `enum`/`const` of strings); else nil
    /// (the keyword is checked against the schema).
    private func nameRules(_ names: JSONValue, at pointer: String) throws(SwiftGenerationError) -> [String]? {
        guard case .object(let object) = names else { return nil }
        let stated: Set<String> = ["type", "minLength", "maxLength", "pattern", "format", "enum", "const"]
        guard object.keys.allSatisfy({ stated.contains($0) || !Self.constrains($0) }),
            object["type"] == nil || object["type"] == .string("string"),
            object["format"].map({ SwiftNames.formats[Self.string($0) ?? ""] != nil }) ?? true
        else { return nil }
        // `enum` and `const` of strings alone (a name is a string).
        var literals = object["const"].map { [$0] } ?? []
        switch object["enum"] {
        case nil: break
        case .array(let items)?: literals += items
        default: return nil
        }
        guard literals.allSatisfy({ if case .string = $0 { true } else { false } }) else { return nil }
        return try stringRules(object, at: pointer) + valueRules(object, at: pointer, swiftType: "String")
    }

    private mutating func integerRules(_ object: JSONObject, at pointer: String) throws(SwiftGenerationError)
        -> [String]
    {
        var rules: [String] = []
        var minimum = try Self.number(object["minimum"], at: pointer + "/minimum")
        var maximum = try Self.number(object["maximum"], at: pointer + "/maximum")
        // Draft 4's boolean exclusive bounds, or the numbers of later drafts.
        var exclusiveMinimum = object["exclusiveMinimum"] == .bool(true)
        var exclusiveMaximum = object["exclusiveMaximum"] == .bool(true)
        if let bound = try Self.number(object["exclusiveMinimum"], at: pointer + "/exclusiveMinimum") {
            if minimum == nil || bound >= minimum! {
                minimum = bound
                exclusiveMinimum = true
            }
        }
        if let bound = try Self.number(object["exclusiveMaximum"], at: pointer + "/exclusiveMaximum") {
            if maximum == nil || bound <= maximum! {
                maximum = bound
                exclusiveMaximum = true
            }
        }
        // An integer's bounds are whole numbers: 1.5 as a minimum is 2, an exclusive 3 is 4.
        func whole(_ bound: JSONNumber?, exclusive: Bool, up: Bool) throws(SwiftGenerationError) -> Int? {
            guard let bound else { return nil }
            // A whole bound is read exactly (2^53 - 1, JavaScript's largest safe integer, is common);
            // past Int's range, or a fraction too large for a Double to round exactly, has no form.
            if bound.isInteger, let exact = bound.int {
                guard exclusive else { return exact }
                let (next, overflow) = up ? exact.addingReportingOverflow(1) : exact.subtractingReportingOverflow(1)
                if !overflow { return next }
            }
            guard let value = bound.double, value.magnitude < 9.0e15 else {
                throw .unsupported(
                    pointer: pointer, message: "the bound \(bound) is beyond the integers Swift's Int holds exactly")
            }
            var rounded = up ? value.rounded(.up) : value.rounded(.down)
            if exclusive && rounded == value { rounded += up ? 1 : -1 }
            return Int(rounded)
        }
        let low = try whole(minimum, exclusive: exclusiveMinimum, up: true)
        let high = try whole(maximum, exclusive: exclusiveMaximum, up: false)
        if let rule = Self.bounds("range", low, high) { rules.append(rule) }
        if let factor = try Self.number(object["multipleOf"], at: pointer + "/multipleOf") {
            if let whole = factor.int, factor.isInteger {
                rules.append(".multipleOf(\(whole))")
            } else {
                throw .unsupported(
                    pointer: pointer + "/multipleOf",
                    message: "multipleOf \(factor) on an integer has no Swift form yet (only whole factors)")
            }
        }
        return rules
    }

    private func numberRules(_ object: JSONObject, at pointer: String) throws(SwiftGenerationError) -> [String] {
        var rules: [String] = []
        var minimum = try Self.number(object["minimum"], at: pointer + "/minimum")
        var maximum = try Self.number(object["maximum"], at: pointer + "/maximum")
        var exclusiveMinimum = object["exclusiveMinimum"] == .bool(true)
        var exclusiveMaximum = object["exclusiveMaximum"] == .bool(true)
        if let bound = try Self.number(object["exclusiveMinimum"], at: pointer + "/exclusiveMinimum"),
            minimum == nil || bound >= minimum!
        {
            minimum = bound
            exclusiveMinimum = true
        }
        if let bound = try Self.number(object["exclusiveMaximum"], at: pointer + "/exclusiveMaximum"),
            maximum == nil || bound <= maximum!
        {
            maximum = bound
            exclusiveMaximum = true
        }
        for bound in [minimum, maximum].compactMap({ $0 }) where bound.double == nil {
            throw .unsupported(pointer: pointer, message: "the bound \(bound) is beyond Double's range")
        }
        let low = minimum.map { SwiftNames.doubleLiteral($0) }
        let high = maximum.map { SwiftNames.doubleLiteral($0) }
        switch (low, high) {
        case (nil, nil): break
        case (let low?, let high?) where !exclusiveMinimum && !exclusiveMaximum:
            rules.append(".range(\(low)...\(Self.operand(high)))")
        case (let low?, let high?) where !exclusiveMinimum:
            rules.append(".range(\(low)..<\(Self.operand(high)))")
        case (let low?, let high?):
            let maximumIsExclusive = exclusiveMaximum ? ", exclusiveMaximum: true" : ""
            rules.append(".range(minimum: \(low), maximum: \(high), exclusiveMinimum: true\(maximumIsExclusive))")
        case (let low?, nil):
            rules.append(
                exclusiveMinimum ? ".range(minimum: \(low), exclusiveMinimum: true)" : ".range(\(Self.operand(low))...)"
            )
        case (nil, let high?):
            rules.append(exclusiveMaximum ? ".range(..<\(Self.operand(high)))" : ".range(...\(Self.operand(high)))")
        }
        if let factor = try Self.number(object["multipleOf"], at: pointer + "/multipleOf") {
            rules.append(".multipleOf(\(SwiftNames.stringLiteral(factor.description)))")
        }
        return rules
    }

    /// `enum` (when not a Swift enum) and `const`, as literals of the Swift type.
    private func valueRules(_ object: JSONObject, at pointer: String, swiftType: String)
        throws(SwiftGenerationError) -> [String]
    {
        var rules: [String] = []
        // The types `type` allows: a value of another can never pass (`{"type": "boolean", "enum":
        // [true, []]}`), and has no literal of the Swift type.
        var allowed: Set<String>?
        switch object["type"] {
        case .string(let name)?: allowed = [name]
        case .array(let names)?: allowed = Set(Self.strings(names) ?? [])
        default: allowed = nil
        }
        func possible(_ value: JSONValue) -> Bool {
            guard let allowed else { return true }
            let type = Self.jsonType(of: value)
            return allowed.contains(type) || (type == "integer" && allowed.contains("number"))
        }
        if case .array(let values)? = object["enum"] {
            var literals: [String] = []
            for value in values where value != .null && possible(value) {
                guard let literal = SwiftNames.literal(value, as: swiftType) else {
                    throw .unsupported(
                        pointer: pointer + "/enum", message: "the value \(value) has no literal of type \(swiftType)")
                }
                literals.append(literal)
            }
            rules.append(".oneOf([\(literals.joined(separator: ", "))])")
        } else if object["enum"] != nil {
            throw SwiftGenerationError(pointer: pointer + "/enum", message: "enum is not an array")
        }
        if let value = object["const"] {
            guard let literal = SwiftNames.literal(value, as: swiftType) else {
                throw .unsupported(
                    pointer: pointer + "/const", message: "the value \(value) has no literal of type \(swiftType)")
            }
            rules.append(".const(\(literal))")
        }
        return rules
    }

    // MARK: Checks

    /// Refuses (to fall back to the whole object) an object-level subschema that reads anything the
    /// struct does not keep as it was read: keys that are not properties, the whole object (`const`),
    /// references, or a property whose Swift type holds a struct (whose unknown keys are dropped).
    private func checkReadsKept(_ value: JSONValue, at pointer: String, kept: [String: Field], depth: Int)
        throws(SwiftGenerationError)
    {
        guard depth < Self.maximumDepth else {
            throw .unsupported(pointer: pointer, message: "subschemas nested too deeply to check on a struct")
        }
        guard case .object(let object) = value else { return }
        func keep(_ key: String, _ place: String) throws(SwiftGenerationError) {
            guard let field = kept[key] else {
                throw .unsupported(
                    pointer: place, message: "\"\(key)\" is not a property of the struct, which does not keep it")
            }
            guard roundTrips(field.type) else {
                throw .unsupported(
                    pointer: place,
                    message:
                        "\"\(key)\" holds a struct, which does not keep unknown keys: its value cannot be checked whole"
                )
            }
        }
        for (keyword, member) in object {
            let place = pointer + "/" + Self.escape(keyword)
            switch keyword {
            case "required", "dependentRequired", "properties", "dependentSchemas", "dependencies":
                var keys: [String] = []
                switch member {
                case .array(let items): keys = Self.strings(items) ?? []
                case .object(let entries):
                    keys = Array(entries.keys)
                    if keyword == "dependentRequired" || keyword == "dependencies" {
                        for case .array(let items) in entries.values { keys += Self.strings(items) ?? [] }
                    }
                default: break
                }
                for key in keys { try keep(key, place) }
                if keyword == "dependentSchemas" || keyword == "dependencies", case .object(let entries) = member {
                    for (key, schema) in entries {
                        if case .array = schema { continue }  // `dependencies`' required keys, kept above
                        try checkReadsKept(schema, at: place + "/" + Self.escape(key), kept: kept, depth: depth + 1)
                    }
                }
            case "allOf", "anyOf", "oneOf":
                guard case .array(let items) = member else { continue }
                for (index, item) in items.enumerated() {
                    try checkReadsKept(item, at: place + "/\(index)", kept: kept, depth: depth + 1)
                }
            case "not", "if", "then", "else":
                try checkReadsKept(member, at: place, kept: kept, depth: depth + 1)
            case "type":
                continue
            default:
                guard Self.constrains(keyword) else { continue }
                throw .unsupported(
                    pointer: place, message: "\(keyword) on the object in an object-level check has no Swift form yet")
            }
        }
    }

    /// The name of a struct's `@AdditionalProperties` property: `additionalProperties`, unless a
    /// property has it.
    static func additionalName(avoiding fields: [Field]) -> String {
        var name = "additionalProperties"
        while fields.contains(where: { $0.name.trimmingBackticks == name }) { name = "_" + name }
        return name
    }

    /// The rule of a union's case: none, its one rule, or `.all` of them.
    static func caseRule(_ rules: [String]) -> String? {
        switch rules.count {
        case 0: nil
        case 1: rules[0]
        default: ".all([\(rules.joined(separator: ", "))])"
        }
    }

    /// Checks the value against `keywords` of the schema at `pointer` with AssaySchema (they have no
    /// typed rule): recorded to be compiled, noted, and the rule returned. The keywords must be
    /// written there as `schema` holds them: one a merge made (a condition's refused values) has no
    /// place to be checked at, and falls back.
    private mutating func keywordCheck(_ keywords: [String], of schema: JSONObject, at pointer: String)
        throws(SwiftGenerationError) -> String
    {
        guard case .object(let written)? = document[pointer: pointer],
            keywords.allSatisfy({ written[$0] == schema[$0] })
        else {
            throw .unsupported(
                pointer: pointer, message: "\(keywords.joined(separator: ", ")) of a merged schema is written nowhere")
        }
        fallbacks.append(Fallback(pointer: pointer, keywords: keywords))
        notes.append(
            "#\(pointer): \(keywords.joined(separator: ", ")) — no typed rule: the value is checked against these keywords with AssaySchema when decoded"
        )
        let list = keywords.map(SwiftNames.stringLiteral).joined(separator: ", ")
        return ".schema(SchemaDocument.schema, at: \(SwiftNames.stringLiteral(pointer)), keywords: [\(list)])"
    }

    static func joined(_ rules: [String]) -> String {
        rules.count == 1 ? rules[0] : ".and(" + rules.joined(separator: ", ") + ")"
    }

    /// The names in a Swift type (`[String: [Step]]?` → `String`, `Step`).
    static func typeNames(in swiftType: String) -> [String] {
        swiftType.split(whereSeparator: { "[]?:<> ".contains($0) }).map(String.init)
    }

    /// Makes every struct a value of `swiftType` holds keep the members it is given (an
    /// `@AdditionalProperties` of `JSONValue` where it has none), so that it encodes back as it was
    /// read; `false` when a type in it is not declared. `visited`: the types settled or being
    /// settled (a cycle is settled where it starts).
    private mutating func makeKept(_ swiftType: String, positions: [String: Int], visited: inout Set<String>) -> Bool {
        for name in Self.typeNames(in: swiftType) where !visited.contains(name) {
            if ["String", "Int", "Double", "Bool", "JSONValue", "Indirect", "Nullable"].contains(name)
                || namedEnums.contains(name)
            {
                continue
            }
            guard let position = positions[name] else { return false }
            visited.insert(name)
            switch types[position].kind {
            case .stringEnum: continue
            case .alias(let target):
                guard makeKept(target, positions: positions, visited: &visited) else { return false }
            case .wrapper(let raw, _):
                guard makeKept(raw, positions: positions, visited: &visited) else { return false }
            case .union(let union):
                for item in union.cases where !makeKept(item.payload, positions: positions, visited: &visited) {
                    return false
                }
            case .structure(let fields):
                if types[position].additional == nil && !types[position].refusesUnknownKeys {
                    types[position].additional = GeneratedType.Additional(
                        name: Self.additionalName(avoiding: fields), value: "JSONValue", rules: [])
                }
                let held = fields.map(\.type) + (types[position].additional.map { [$0.value] } ?? [])
                for type in held where !makeKept(type, positions: positions, visited: &visited) { return false }
            case .tuple(let tuple):
                let held = tuple.items.map(\.type) + (tuple.rest.map { [$0.type] } ?? [])
                for type in held where !makeKept(type, positions: positions, visited: &visited) { return false }
            }
        }
        return true
    }

    /// Whether a property of this Swift type encodes back as it was read: no struct inside (a
    /// struct drops the keys it does not name).
    private func roundTrips(_ swiftType: String) -> Bool {
        let names = swiftType.split(whereSeparator: { "[]?:<> ".contains($0) })
        return names.allSatisfy { name in
            ["String", "Int", "Double", "Bool", "JSONValue", "Nullable"].contains(name)
                || types.contains { type in
                    guard type.name == name, case .stringEnum = type.kind else { return false }
                    return true
                } || namedEnums.contains(String(name))
        }
    }

    private func checkKeywords(_ object: JSONObject, at pointer: String) throws(SwiftGenerationError) {
        for key in object.keys where Self.untyped.contains(key) {
            throw .unsupported(
                pointer: pointer + "/" + Self.escape(key), message: "the keyword \(key) has no Swift form yet")
        }
    }

    /// Boxes the cases of every union that holds itself (`indirect`), and, in a struct that holds
    /// itself with no union or array in between (Swift could not lay it out), the field that closes
    /// the loop (`Indirect<Node>`). Linear in the types and their fields (one pass for the cycles,
    /// one walk for the loops of structs), with explicit stacks: no recursion however long a chain
    /// of types is.
    private mutating func boxRecursion() {
        var edges: [String: [String]] = [:]
        var unions: [String: Int] = [:]
        for (index, type) in types.enumerated() {
            switch type.kind {
            case .structure(let fields): edges[type.name] = fields.compactMap(\.directStruct)
            case .tuple(let tuple): edges[type.name] = tuple.items.compactMap(\.directStruct)
            case .union(let union):
                edges[type.name] = union.cases.compactMap(\.direct)
                unions[type.name] = index
            default: continue
            }
        }
        for (name, targets) in edges { edges[name] = targets.filter { edges[$0] != nil } }
        let order = types.map(\.name).filter { edges[$0] != nil }
        for component in Self.stronglyConnectedComponents(edges, order: order) {
            guard component.count > 1 || edges[component[0]]?.contains(component[0]) == true else { continue }
            for name in component {
                guard let index = unions[name], case .union(var union) = types[index].kind else { continue }
                union.isIndirect = true
                types[index].kind = .union(union)
                edges[name] = []
            }
        }
        var positions: [String: Int] = [:]
        for (index, type) in types.enumerated() { positions[type.name] = index }
        enum Mark { case onPath, done }
        var marks: [String: Mark] = [:]
        for name in order where marks[name] == nil {
            var path: [(name: String, next: Int)] = [(name, 0)]
            marks[name] = .onPath
            while let top = path.last {
                let targets = edges[top.name] ?? []
                guard top.next < targets.count else {
                    marks[top.name] = .done
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                let target = targets[top.next]
                switch marks[target] {
                case .onPath?:
                    // A struct that holds itself: the field that closes the loop holds its value in a box.
                    box(fieldsOf: top.name, holding: target, in: positions)
                case nil:
                    marks[target] = .onPath
                    path.append((target, 0))
                case .done?:
                    continue
                }
            }
        }
    }

    /// Makes the fields of the struct `owner` that hold `target` directly hold it in a box
    /// (`Indirect<Target>`), which has a size however `target` is laid out.
    private mutating func box(fieldsOf owner: String, holding target: String, in positions: [String: Int]) {
        guard let index = positions[owner] else { return }
        var fields: [Field]
        switch types[index].kind {
        case .structure(let held): fields = held
        case .tuple(let tuple): fields = tuple.items
        default: return
        }
        for position in fields.indices where fields[position].directStruct == target {
            let base = fields[position].baseType
            // Rewrapped, not replaced in the text: a type named `Null` is inside `Nullable<Null>`.
            let boxed = "Indirect<\(base)>"
            fields[position].type =
                fields[position].isNullable
                ? "Nullable<\(boxed)>" : fields[position].type.hasSuffix("?") ? boxed + "?" : boxed
            fields[position].directStruct = nil
            notes.append(
                "#\(Self.withoutAlone(claimedNames[owner] ?? "")): \(owner).\(fields[position].name) is an Indirect<\(base)>, a box: a \(owner) holds itself through it"
            )
        }
        if case .tuple(var tuple) = types[index].kind {
            tuple.items = fields
            types[index].kind = .tuple(tuple)
        } else {
            types[index].kind = .structure(fields)
        }
    }

    /// Tarjan's strongly connected components of `edges`, each node visited once, without recursion.
    static func stronglyConnectedComponents(_ edges: [String: [String]], order: [String]) -> [[String]] {
        var index: [String: Int] = [:]
        var low: [String: Int] = [:]
        var stack: [String] = []
        var onStack = Set<String>()
        var components: [[String]] = []
        var counter = 0
        func visit(_ node: String) {
            index[node] = counter
            low[node] = counter
            counter += 1
            stack.append(node)
            onStack.insert(node)
        }
        for root in order where index[root] == nil {
            visit(root)
            var work: [(node: String, next: Int)] = [(root, 0)]
            while let top = work.last {
                let targets = edges[top.node] ?? []
                if top.next < targets.count {
                    work[work.count - 1].next += 1
                    let target = targets[top.next]
                    if index[target] == nil {
                        visit(target)
                        work.append((target, 0))
                    } else if onStack.contains(target) {
                        low[top.node] = min(low[top.node]!, index[target]!)
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last { low[parent.node] = min(low[parent.node]!, low[top.node]!) }
                guard low[top.node] == index[top.node] else { continue }
                var component: [String] = []
                while let member = stack.popLast() {
                    onStack.remove(member)
                    component.append(member)
                    if member == top.node { break }
                }
                components.append(component)
            }
        }
        return components
    }

    /// The type name for the schema at `pointer`: `name`, or when another schema has it, `name`
    /// numbered (`Size2`), noted. The same pointer gets the same name again.
    private mutating func claim(_ name: String, for pointer: String) throws(SwiftGenerationError) -> String {
        var candidate = name
        var number = 1
        while let other = claimedNames[candidate], other != pointer {
            // From the last number given for this name: a run of schemas of one name is numbered
            // without rescanning the numbers before.
            number = max(number + 1, nextTypeNumber[name, default: 2])
            candidate = name + "\(number)"
        }
        if number > 1 { nextTypeNumber[name] = number + 1 }
        if claimedNames[candidate] == nil {
            claimedNames[candidate] = pointer
            claimLog.append(candidate)
            if number > 1 {
                // (The struct of a schema with no `type` is recorded beside its enum: shown at the schema.)
                func shown(_ place: String) -> String {
                    place.hasSuffix(Self.objectAlone) ? String(place.dropLast(Self.objectAlone.count)) : place
                }
                let here = shown(pointer)
                notes.append(
                    "#\(here): #\(shown(claimedNames[name] ?? "")) and #\(here) both map to the Swift type name \(name): #\(here) is \(candidate)"
                )
            }
        }
        return candidate
    }

    // MARK: Reading values

    static func isObjectLike(_ schema: JSONValue) -> Bool {
        guard case .object(let object) = schema, object["$ref"] == nil else { return false }
        switch object["type"] {
        case .string("object")?: return true
        case .array(let items)?:
            return Set(items.filter { $0 != .string("null") }) == [.string("object")]
        case nil: return false  // `properties` alone let values of every other type pass
        default: return false
        }
    }

    /// Whether the schema is a `oneOf` or `anyOf` (which may become an enum).
    static func isUnion(_ schema: JSONValue) -> Bool {
        guard case .object(let object) = schema else { return false }
        return object["oneOf"] != nil || object["anyOf"] != nil
    }

    /// The schema with a `oneOf` or `anyOf` of string constants (each alternative a `const` or an
    /// `enum` of strings, with annotations such as `description`) written as the `enum` of those
    /// strings, which accepts the same values: the documented-enum idiom. A `oneOf` only when no
    /// string is in two alternatives (one such would match two), and only with no `enum` or `const`
    /// beside it. Any other schema is returned as it is.
    static func constantsAsEnum(_ schema: JSONValue) -> JSONValue {
        guard case .object(var object) = schema, object["enum"] == nil, object["const"] == nil else { return schema }
        for keyword in ["oneOf", "anyOf"] {
            // `unevaluatedProperties: false` beside it is kept: the enum then reports each member
            // of an object given instead of a string.
            guard case .array(let alternatives)? = object[keyword], !alternatives.isEmpty,
                object.keys.filter(constrains).allSatisfy({
                    $0 == keyword || $0 == "type" || ($0 == "unevaluatedProperties" && object[$0] == .bool(false))
                })
            else { continue }
            var values: [JSONValue] = []
            var seen: Set<[UInt32]> = []
            for alternative in alternatives {
                guard case .object(let constant) = alternative,
                    constant.keys.filter(constrains).allSatisfy(["const", "enum", "type"].contains),
                    constant["type"].map({ $0 == "string" }) ?? true
                else { return schema }
                let listed: [JSONValue]
                if let value = constant["const"] {
                    guard constant["enum"] == nil else { return schema }
                    listed = [value]
                } else if case .array(let items)? = constant["enum"] {
                    listed = items
                } else {
                    return schema
                }
                for value in listed {
                    guard case .string(let text) = value else { return schema }
                    // Strings are the same value when their code points are.
                    let codePoints = text.unicodeScalars.map(\.value)
                    if !seen.insert(codePoints).inserted {
                        if keyword == "oneOf" { return schema }
                        continue
                    }
                    values.append(value)
                }
            }
            object[keyword] = nil
            object["enum"] = .array(values)
            return .object(object)
        }
        return schema
    }

    static func isStringEnum(_ schema: JSONValue) -> Bool {
        let schema = constantsAsEnum(schema)
        guard case .object(let object) = schema, case .array(let values)? = object["enum"], !values.isEmpty,
            values.contains(where: { if case .string = $0 { return true } else { return false } }),
            values.allSatisfy({ value in
                if case .string = value { return true }
                return value == .null
            })
        else { return false }
        switch object["type"] {
        case nil, .string("string")?: break
        case .array(let items)?:
            guard Set(items).isSubset(of: [.string("string"), .string("null")]) else { return false }
        default: return false
        }
        let others = object.keys.filter {
            constrains($0) && !["enum", "type", "nullable"].contains($0)
                && !($0 == "unevaluatedProperties" && object[$0] == .bool(false))
        }
        return others.isEmpty
    }

    /// A document of `$defs` or `definitions` and annotations only: no root type.
    static func isDefinitionsOnly(_ root: JSONObject) -> Bool {
        (root["$defs"] != nil || root["definitions"] != nil) && !root.keys.contains(where: constrains)
    }

    static func inferredType(_ object: JSONObject) -> String? {
        if case .array(let values)? = object["enum"] ?? object["const"].map({ .array([$0]) }) {
            let kinds = Set(values.filter { $0 != .null }.map(\.kind))
            if kinds == [.string] { return "string" }
            if kinds == [.integer] { return "integer" }
            if kinds.isSubset(of: [.integer, .number]) && !kinds.isEmpty { return "number" }
            if kinds == [.boolean] { return "boolean" }
            return nil
        }
        // `properties` or `items` without `type` constrain objects or arrays and let every other
        // value pass: no struct or array type holds that.
        return nil
    }

    /// How many values of one JSON type a schema lets pass, as far as its keywords tell.
    enum Passing {
        case every, none, some
    }

    /// Whether a schema with no `type` lets no value pass that is not an object: each of its
    /// keywords is read for the other types (`"then": {"type": "object"}` after an `if` every
    /// string passes, a `oneOf` of alternatives that each let every string pass …).
    private func onlyObjectsPass(_ object: JSONObject) -> Bool {
        // (An `enum` or `const` of its own is left to the schema: no struct reads it.)
        guard object["type"] == nil, object["enum"] == nil, object["const"] == nil, !hasEmbeddedResources else {
            return false
        }
        var budget = 2_000
        return ["null", "boolean", "integer", "number", "string", "array"].allSatisfy {
            passing(.object(object), ofType: $0, budget: &budget, depth: 0) == .none
        }
    }

    /// The keywords that read strings, numbers or arrays alone (every value of another type passes
    /// them), `format` among the numbers' too (OpenAPI's `int32`), for ``passing(_:ofType:budget:depth:)``.
    static let keywordsReading: [String: Set<String>] = [
        "string": keywordsOfType["string", default: []].union(["contentEncoding", "contentMediaType"]),
        "number": keywordsOfType["number", default: []].union(["format"]),
        "array": keywordsOfType["array", default: []].union([
            "prefixItems", "additionalItems", "contains", "minContains", "maxContains", "unevaluatedItems",
        ]),
    ]

    /// Every keyword of ``keywordsReading``.
    static let keywordsOfOneType = keywordsReading.values.reduce(into: Set<String>()) { $0.formUnion($1) }

    /// Whether `value` is of the JSON type `type` names (an integer is a number too).
    static func isValue(_ value: JSONValue, ofType type: String) -> Bool {
        let found = jsonType(of: value)
        return found == type || (type == "number" && found == "integer")
    }

    /// How many values of the JSON type `type` (not `object`) `schema` lets pass: every one, none,
    /// or some (or it would take more than `budget` schemas to tell).
    private func passing(_ schema: JSONValue, ofType type: String, budget: inout Int, depth: Int) -> Passing {
        budget -= 1
        guard budget > 0, depth < 64 else { return .some }
        guard case .object(let object) = schema else {
            switch schema {
            case .bool(true): return .every
            case .bool(false): return .none
            default: return .some
            }
        }
        func all(_ results: [Passing]) -> Passing {
            if results.contains(.none) { return .none }
            return results.allSatisfy { $0 == .every } ? .every : .some
        }
        func child(_ value: JSONValue) -> Passing { passing(value, ofType: type, budget: &budget, depth: depth + 1) }
        func ofType(_ value: JSONValue) -> Bool { Self.isValue(value, ofType: type) }
        // Before 2019-09 (and in OpenAPI 3.0) a `$ref` is read alone.
        if case .string(let text)? = object["$ref"], !refsBesideSiblings {
            guard text.hasPrefix("#"), let target = Self.decodeFragment(String(text.dropFirst())),
                let referenced = document[pointer: target]
            else { return .some }
            return child(referenced)
        }
        var results: [Passing] = []
        let readsThisType = Self.keywordsReading[type == "integer" ? "number" : type, default: []]
        for (key, value) in object where Self.constrains(key) {
            switch key {
            case "type":
                let names: [String]
                switch value {
                case .string(let name): names = [name]
                case .array(let list): names = Self.strings(list) ?? []
                default: return .some
                }
                if names.contains(type) || (type == "integer" && names.contains("number")) {
                    results.append(.every)
                } else if type == "number" && names.contains("integer") {
                    results.append(.some)
                } else {
                    results.append(.none)
                }
            case "enum":
                guard case .array(let values) = value else { return .some }
                results.append(values.contains(where: ofType) ? .some : .none)
            case "const":
                results.append(ofType(value) ? .some : .none)
            case "$ref":
                guard case .string(let text) = value, text.hasPrefix("#"),
                    let target = Self.decodeFragment(String(text.dropFirst())),
                    let referenced = document[pointer: target]
                else { return .some }
                results.append(child(referenced))
            case "allOf":
                guard case .array(let items) = value else { return .some }
                results.append(all(items.map(child)))
            case "anyOf":
                guard case .array(let items) = value else { return .some }
                let found = items.map(child)
                results.append(
                    found.contains(.every) ? .every : found.allSatisfy { $0 == .none } ? .none : .some)
            case "oneOf":
                guard case .array(let items) = value else { return .some }
                let found = items.map(child)
                let every = found.filter { $0 == .every }.count
                if every >= 2 || found.allSatisfy({ $0 == .none }) {
                    results.append(.none)
                } else if every == 1 && found.filter({ $0 == .none }).count == found.count - 1 {
                    results.append(.every)
                } else {
                    results.append(.some)
                }
            case "not":
                switch child(value) {
                case .every: results.append(.none)
                case .none: results.append(.every)
                case .some: results.append(.some)
                }
            case "if":
                let test = child(value)
                let then = object["then"].map(child) ?? .every
                let otherwise = object["else"].map(child) ?? .every
                switch test {
                case .every: results.append(then)
                case .none: results.append(otherwise)
                case .some: results.append(then == otherwise ? then : .some)
                }
            case "then", "else":
                continue
            default:
                if Self.objectOnly.contains(key) || key == "dependentSchemas" {
                    results.append(.every)
                } else if readsThisType.contains(key) {
                    results.append(.some)
                } else if Self.keywordsOfOneType.contains(key) {
                    results.append(.every)
                } else {
                    return .some
                }
            }
        }
        return all(results)
    }

    /// Whether any object below the root has a string `$id` (a property named `$id` counts too:
    /// at worst a `$ref` is checked with AssaySchema that could have been typed). One walk, no
    /// recursion.
    static func hasEmbeddedResources(_ document: JSONValue) -> Bool {
        var pending: [JSONValue] = []
        switch document {
        case .object(let root): pending = Array(root.values)
        case .array(let items): pending = items
        default: return false
        }
        while let value = pending.popLast() {
            switch value {
            case .object(let object):
                if let id = object["$id"], isBase(id) { return true }
                pending += object.values
            case .array(let items): pending += items
            default: continue
            }
        }
        return false
    }

    /// Whether a `$ref` in `schema` names `pointer` (`#/definitions/field` inside the field's schema).
    static func refers(to pointer: String, in schema: JSONValue) -> Bool {
        var pending = [schema]
        while let value = pending.popLast() {
            switch value {
            case .object(let object):
                if case .string(let text)? = object["$ref"], text.hasPrefix("#"),
                    decodeFragment(String(text.dropFirst())) == pointer
                {
                    return true
                }
                pending += object.values
            case .array(let items): pending += items
            default: continue
            }
        }
        return false
    }

    /// The places the document's `$ref`s name by a fragment (`#/definitions/a` → `/definitions/a`).
    static func referencedPlaces(in document: JSONValue) -> Set<String> {
        var places: Set<String> = []
        var pending = [document]
        while let value = pending.popLast() {
            switch value {
            case .object(let object):
                if case .string(let text)? = object["$ref"], text.hasPrefix("#"),
                    let place = decodeFragment(String(text.dropFirst()))
                {
                    places.insert(place)
                }
                pending += object.values
            case .array(let items): pending += items
            default: continue
            }
        }
        return places
    }

    /// Whether a schema on the way from the root to `pointer` (the root excepted) has an `$id`.
    static func isUnderEmbeddedResource(_ pointer: String, in document: JSONValue) -> Bool {
        guard let tokens = try? JSONValue.tokens(of: pointer) else { return false }
        var current = document
        for key in tokens {
            switch current {
            case .object(let object):
                guard let next = object[key] else { return false }
                current = next
            case .array(let items):
                guard let index = Int(key), items.indices.contains(index) else { return false }
                current = items[index]
            default: return false
            }
            if case .object(let object) = current, let id = object["$id"], isBase(id) { return true }
        }
        return false
    }

    /// Whether an `$id` is a base URI for the `$ref`s below it: a fragment alone (draft 6 and 7's
    /// `"$id": "#error"`) names its schema and leaves the base as it is.
    private static func isBase(_ id: JSONValue) -> Bool {
        guard case .string(let text) = id else { return false }
        return !text.hasPrefix("#")
    }

    static func documentation(_ schema: JSONValue) -> [String] {
        guard case .object(let object) = schema else { return [] }
        return documentation(object)
    }

    static func documentation(_ object: JSONObject) -> [String] {
        var lines: [String] = []
        // Every line break Swift reads as one (`\r` too) ends a line of the comment.
        if let title = string(object["title"]) {
            lines += title.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        }
        if let description = string(object["description"]) {
            if !lines.isEmpty { lines.append("") }
            lines += description.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        }
        return lines
    }

    static func string(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    static func strings(_ values: [JSONValue]) -> [String]? {
        var result: [String] = []
        for value in values {
            guard case .string(let text) = value else { return nil }
            result.append(text)
        }
        return result
    }

    static func number(_ value: JSONValue?, at pointer: String) throws(SwiftGenerationError) -> JSONNumber? {
        switch value {
        case nil, .bool?: return nil
        case .number(let number)?: return number
        default: throw SwiftGenerationError(pointer: pointer, message: "not a number")
        }
    }

    static func integer(_ value: JSONValue?, at pointer: String) throws(SwiftGenerationError) -> Int? {
        guard let number = try number(value, at: pointer) else { return nil }
        guard number.isInteger, let whole = number.int, whole >= 0 else {
            throw SwiftGenerationError(pointer: pointer, message: "not a non-negative integer")
        }
        return whole
    }

    /// `.name(a...b)`, `.name(a...)` or `.name(...b)`.
    static func bounds(_ name: String, _ minimum: Int?, _ maximum: Int?) -> String? {
        let low = minimum.map { "\($0)" }
        let high = maximum.map { Self.operand("\($0)") }
        switch (low, high) {
        case (nil, nil): return nil
        case (let low?, let high?): return ".\(name)(\(low)...\(high))"
        case (let low?, nil): return ".\(name)(\(Self.operand(low))...)"
        case (nil, let high?): return ".\(name)(...\(high))"
        }
    }

    /// A negative bound in parentheses, where a range operator touches its sign: `-1...` would be
    /// `-(1...)`, and `...-5` or `1...-5` one operator `...-`.
    static func operand(_ literal: String) -> String { literal.hasPrefix("-") ? "(\(literal))" : literal }

    /// A JSON Pointer's token.
    static func escape(_ key: String) -> String { JSONValue.escape(key) }

    /// A URI fragment (`/$defs/a%20b`) as a JSON Pointer, percent-escapes decoded; `nil` when it is
    /// not a pointer or an escape is malformed.
    static func decodeFragment(_ fragment: String) -> String? {
        guard fragment.isEmpty || fragment.hasPrefix("/") else { return nil }
        var bytes: [UInt8] = []
        var utf8 = fragment.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension SchemaReader {
    /// The document with each `$ref` that names the document itself through its `$id`
    /// (`"catalog-info.json#/definitions/entity"` in `https://json.schemastore.org/catalog-info.json`)
    /// written as its fragment alone (`"#/definitions/entity"`), which the types follow as they
    /// follow any pointer into the document. A document with an `$id` below its root is left as it
    /// is (a `$ref` below such a schema is read against that `$id`), and so are the values of
    /// `const`, `enum`, `default` and `examples`, which are data, not schemas. Schemas nested deeper
    /// than the generator reads are not looked into.
    static func referencingItselfByFragment(_ document: JSONValue) -> JSONValue {
        guard case .object(let root) = document, !hasEmbeddedResources(document) else { return document }
        var identifier = root["$id"]
        if identifier == nil, case .string(let dialect)? = root["$schema"], dialect.contains("draft-04") {
            identifier = root["id"]
        }
        guard case .string(let id)? = identifier, let base = URL(string: id), base.scheme != nil else {
            return document
        }
        let own = Self.withoutFragment(base.absoluteString)
        var found: [(pointer: String, fragment: String)] = []
        var pending: [(value: JSONValue, pointer: String, depth: Int)] = [(document, "", 0)]
        while let (value, pointer, depth) = pending.popLast() {
            switch value {
            case .object(let object):
                if case .string(let text)? = object["$ref"], !text.hasPrefix("#"),
                    let hash = text.firstIndex(of: "#") ?? Optional(text.endIndex),
                    let target = URL(string: String(text[..<hash]), relativeTo: base),
                    Self.withoutFragment(target.absoluteString) == own
                {
                    found.append((pointer + "/$ref", String(text[hash...]).isEmpty ? "#" : String(text[hash...])))
                }
                guard depth < maximumDepth else { continue }
                for (key, member) in object where !["const", "enum", "default", "examples"].contains(key) {
                    pending.append((member, pointer + "/" + escape(key), depth + 1))
                }
            case .array(let items):
                guard depth < maximumDepth else { continue }
                for (index, item) in items.enumerated() { pending.append((item, pointer + "/\(index)", depth + 1)) }
            default:
                continue
            }
        }
        var result = document
        for (pointer, fragment) in found { try? result.set(.string(fragment), at: pointer) }
        return result
    }

    private static func withoutFragment(_ uri: String) -> Substring {
        uri.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
    }
}
