import AssayCore
import AssayJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Decides validity by reading a parsed document in place (``JSONDocument``), without building a
/// `JSONValue` tree: objects, arrays and their keys are walked on the parser's tape, and a value is
/// materialized only where a keyword needs it (a string for `pattern` or `format`, a number for
/// `maximum`, an array for `uniqueItems`), then checked by the same code as ``Evaluator`` uses.
///
/// It never records errors; ``JSONSchema`` runs it first and re-evaluates an invalid document on the
/// tree to collect them. Schemas that need the dynamic scope or annotations (`$dynamicRef`,
/// `$recursiveRef`, `unevaluatedProperties`, `unevaluatedItems`) are not evaluated here: see
/// ``JSONSchema/readsDocumentsInPlace``.
struct TapeEvaluator {
    private let nodes: [SchemaNode]
    private let keywordTable: KeywordTable
    private let booleanTable: [Bool?]
    private let root: Int
    /// The depth and chain length past which the tree evaluator decides: this evaluator's own
    /// limits, or the schema options' if lower (the tree evaluator then reports them).
    private let depthLimit: Int
    private let chainLimit: Int
    /// The tree evaluator, non-collecting, for leaf checks and property names.
    private var tree: Evaluator
    private var sameInstanceDepth = 0
    private var instanceDepth = 0
    /// Set when the document nests deeper, or references chain longer, than this evaluator goes:
    /// its answer is then void and the tree evaluator decides (its frames are smaller, and it
    /// reports the limits' errors).
    private(set) var gaveUp = false

    /// How deep in the document this evaluator goes before handing over to the tree evaluator.
    static let maximumDepth = 96
    /// How many schemas in a row (through `$ref`, `allOf`…) it applies to one value before handing over.
    static let maximumChain = 48

    init(schema: JSONSchema) {
        self.nodes = schema.nodes
        self.keywordTable = schema.keywordTable
        self.booleanTable = schema.booleanTable
        self.root = schema.root
        self.depthLimit = min(Self.maximumDepth, schema.options.maximumInstanceDepth)
        self.chainLimit = min(Self.maximumChain, schema.options.maximumReferenceDepth)
        self.tree = Evaluator(schema: schema, collecting: false, limit: 0)
    }

    /// Whether `node` accepts every instance it can be given here: no keyword in it needs the dynamic
    /// scope or annotations.
    static func canEvaluate(_ node: SchemaNode) -> Bool {
        if node.tracksEvaluation { return false }
        for keyword in node.keywords {
            switch keyword.kind {
            case .dynamicRef, .recursiveRef, .unevaluatedItems, .unevaluatedProperties: return false
            default: continue
            }
        }
        return true
    }

    mutating func run(_ instance: JSONNode) -> Bool { evaluate(root, instance) }

    private mutating func evaluate(_ index: Int, _ instance: JSONNode) -> Bool {
        if let flag = booleanTable[index] { return flag }
        sameInstanceDepth += 1
        defer { sameInstanceDepth -= 1 }
        guard sameInstanceDepth <= chainLimit, !gaveUp else {
            gaveUp = true
            return false
        }
        var materialized: JSONValue? = nil
        let bounds = keywordTable.bounds(of: index)
        for position in bounds.start..<bounds.end {
            let passed = keywordTable.keywords[position]._withUnsafeGuaranteedRef { keyword in
                quickly(keyword, instance) ?? apply(keyword, index, instance, &materialized)
            }
            if !passed { return false }
        }
        return true
    }

    /// Applies `index` to a child of the instance (a member's value or an element).
    private mutating func child(_ index: Int, _ instance: JSONNode) -> Bool {
        instanceDepth += 1
        defer { instanceDepth -= 1 }
        guard instanceDepth <= depthLimit, !gaveUp else {
            gaveUp = true
            return false
        }
        let saved = sameInstanceDepth
        sameInstanceDepth = 0
        defer { sameInstanceDepth = saved }
        return evaluate(index, instance)
    }

    /// The keywords decided from ``Keyword/quick`` and its operand alone (types, length and count
    /// limits, references, integer bounds on integers); `nil` for the others, which ``apply`` takes.
    @inline(__always)
    private mutating func quickly(_ keyword: Keyword, _ instance: JSONNode) -> Bool? {
        let limit = keyword.operand
        switch keyword.quick {
        case .none: return nil
        case .type: return Self.typeBits(of: instance) & keyword.typeMask != 0
        case .maxLength: return instance.withStringUTF8 { StringLength.isAtMost(Int(limit), utf8: $0) } ?? true
        case .minLength: return instance.withStringUTF8 { StringLength.isAtLeast(Int(limit), utf8: $0) } ?? true
        case .maxItems: return !instance.isArray || Int64(instance.count ?? 0) <= limit
        case .minItems: return !instance.isArray || Int64(instance.count ?? 0) >= limit
        case .ref: return evaluate(Int(limit), instance)
        case .maximum: return instance.int64.map { $0 <= limit }
        case .exclusiveMaximum: return instance.int64.map { $0 < limit }
        case .minimum: return instance.int64.map { $0 >= limit }
        case .exclusiveMinimum: return instance.int64.map { $0 > limit }
        }
    }

    private mutating func apply(
        _ keyword: Keyword, _ index: Int, _ instance: JSONNode, _ materialized: inout JSONValue?
    ) -> Bool {
        switch keyword.kind {
        case .type:
            return Self.typeBits(of: instance) & keyword.typeMask != 0
        case .required:
            guard instance.isObject else { return true }
            return instance.hasMembers(keyword.utf8Names)
        case .dependentRequired(let pairs):
            guard instance.isObject else { return true }
            for (trigger, names) in pairs where instance.hasMember(trigger) {
                if !names.allSatisfy({ instance.hasMember($0) }) { return false }
            }
            return true
        case .maxItems(let limit):
            return !instance.isArray || (instance.count ?? 0) <= limit
        case .minItems(let limit):
            return !instance.isArray || (instance.count ?? 0) >= limit
        case .maxProperties(let limit):
            return !instance.isObject || (instance.count ?? 0) <= limit
        case .minProperties(let limit):
            return !instance.isObject || (instance.count ?? 0) >= limit
        case .properties(let list):
            guard instance.isObject else { return true }
            let names = keyword.utf8Names
            var next = 0
            return instance.allMembers { key, value in
                guard let position = names.position(of: key, from: next) else { return true }
                next = position + 1
                return child(list[position].1, value)
            }
        case .patternProperties(let list):
            return instance.allMembers { key, value in
                let name = String(decoding: key, as: UTF8.self)
                for (regex, target) in list where regex.firstMatchExists(in: name) {
                    if !child(target, value) { return false }
                }
                return true
            }
        case .additionalProperties(let target, _, let patterns):
            let rejectsAll = nodes[target].boolean == false
            let names = keyword.utf8Names
            var next = 0
            return instance.allMembers { key, value in
                if let position = names.position(of: key, from: next) {
                    next = position + 1
                    return true
                }
                if !patterns.isEmpty {
                    let name = String(decoding: key, as: UTF8.self)
                    if patterns.contains(where: { $0.firstMatchExists(in: name) }) { return true }
                }
                return !rejectsAll && child(target, value)
            }
        case .propertyNames(let target):
            return instance.allMembers { key, _ in
                var none: Evaluated? = nil
                return tree.evaluate(target, .string(String(decoding: key, as: UTF8.self)), &none)
            }
        case .dependentSchemas(let pairs):
            guard instance.isObject else { return true }
            for (trigger, target) in pairs where instance.hasMember(trigger) {
                if !evaluate(target, instance) { return false }
            }
            return true
        case .prefixItems(let schemas), .itemsArray(let schemas):
            return instance.allElements { position, element in
                position >= schemas.count || child(schemas[position], element)
            }
        case .items(let target, let after), .additionalItems(let target, let after):
            return instance.allElements { position, element in position < after || child(target, element) }
        case .contains(let target, let minimum, let maximum):
            guard instance.isArray else { return true }
            var matches = 0
            _ = instance.allElements { _, element in
                if evaluate(target, element) { matches += 1 }
                return maximum != nil || matches < minimum
            }
            return matches >= minimum && (maximum.map { matches <= $0 } ?? true)
        case .allOf(let schemas):
            return schemas.allSatisfy { evaluate($0, instance) }
        case .anyOf(let schemas):
            for target in schemas where evaluate(target, instance) { return true }
            return false
        case .oneOf(let schemas):
            var matches = 0
            for target in schemas where evaluate(target, instance) {
                matches += 1
                if matches > 1 { return false }
            }
            return matches == 1
        case .not(let target):
            return !evaluate(target, instance)
        case .conditional(let condition, let then, let otherwise):
            if evaluate(condition, instance) { return then.map { evaluate($0, instance) } ?? true }
            return otherwise.map { evaluate($0, instance) } ?? true
        case .ref(let target):
            return evaluate(target, instance)
        case .dynamicRef, .recursiveRef, .unevaluatedItems, .unevaluatedProperties:
            // Not reached: such schemas are evaluated on the tree (canEvaluate). Decide on the tree anyway.
            var none: Evaluated? = nil
            return tree.evaluate(index, instance.value, &none)
        case .maximum(let limit, let exclusive):
            // Integers on both sides compare as integers; anything else exactly, on JSONNumber.
            if let value = instance.int64, let bound = limit.int64 { return exclusive ? value < bound : value <= bound }
            guard let number = instance.number else { return true }
            return exclusive ? number < limit : number <= limit
        case .minimum(let limit, let exclusive):
            if let value = instance.int64, let bound = limit.int64 { return exclusive ? value > bound : value >= bound }
            guard let number = instance.number else { return true }
            return exclusive ? number > limit : number >= limit
        case .maxLength(let limit):
            return instance.withStringUTF8 { StringLength.isAtMost(limit, utf8: $0) } ?? true
        case .minLength(let limit):
            return instance.withStringUTF8 { StringLength.isAtLeast(limit, utf8: $0) } ?? true
        case .format(.known(let format)):
            // Formats that decide on bytes do so in place; the others need the string.
            guard let decided = instance.withStringUTF8({ format.verdict(utf8: $0) }) else { return true }
            if let decided { return decided }
            if materialized == nil { materialized = instance.value }
            return tree.check(keyword, nodes[index], materialized!)
        case .pattern(let regex):
            // ASCII text is matched on its bytes; anything else as a string.
            if let verdict = instance.withStringUTF8({ bytes -> Bool? in
                guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
                return regex.firstMatchExists(inASCII: bytes)
            }), let verdict {
                return verdict
            }
            if materialized == nil { materialized = instance.value }
            return tree.check(keyword, nodes[index], materialized!)
        case .enumeration, .constant:
            // A string is among the allowed values when its bytes are those of an allowed string
            // (JSON Schema compares strings code point by code point); other values on the tree.
            if let found = instance.withStringUTF8({ keyword.utf8Names.contains($0) }) { return found }
            if materialized == nil { materialized = instance.value }
            return tree.check(keyword, nodes[index], materialized!)
        case .uniqueItems:
            if let distinct = instance.distinctStrings { return distinct }
            if materialized == nil { materialized = instance.value }
            return tree.check(keyword, nodes[index], materialized!)
        default:
            // Leaf assertions: the tree evaluator's own checks, on the value materialized once.
            if materialized == nil { materialized = instance.value }
            return tree.check(keyword, nodes[index], materialized!)
        }
    }

    /// The type names `instance` satisfies, as ``Keyword/typeMask`` bits (an integer is also a number).
    private static func typeBits(of instance: JSONNode) -> UInt8 {
        if instance.isString { return JSONTypeName.string.bit }
        if instance.isObject { return JSONTypeName.object.bit }
        if instance.isArray { return JSONTypeName.array.bit }
        if instance.isNumber {
            return JSONTypeName.number.bit | (instance.isIntegralNumber ? JSONTypeName.integer.bit : 0)
        }
        if instance.isNull { return JSONTypeName.null.bit }
        return JSONTypeName.boolean.bit
    }
}

/// Every node's keywords in one flat array, without reference counting (the nodes keep them alive):
/// reading a node's keywords copies no inner array, so it costs no retain.
struct KeywordTable: Sendable {
    /// The keywords of node 0, then those of node 1, and so on.
    let keywords: [Unmanaged<Keyword>]
    /// Where each node's keywords start in `keywords`, and a last entry for the end.
    let starts: [Int]

    init(_ nodes: [SchemaNode]) {
        var keywords: [Unmanaged<Keyword>] = []
        var starts: [Int] = [0]
        for node in nodes {
            keywords.append(contentsOf: node.keywords.map { Unmanaged.passUnretained($0) })
            starts.append(keywords.count)
        }
        self.keywords = keywords
        self.starts = starts
    }

    /// The range of node `index`'s keywords in ``keywords``.
    @inline(__always) func bounds(of index: Int) -> (start: Int, end: Int) { (starts[index], starts[index + 1]) }
}
