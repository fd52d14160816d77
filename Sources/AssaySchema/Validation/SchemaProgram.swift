import AssayCore
import AssayJSON

/// What ``SchemaEvaluator`` reads: a compiled schema's nodes and their keyword tables, made once per
/// schema and shared by its copies.
final class TapeProgram: Sendable {
    let nodes: [SchemaNode]
    let root: Int
    /// Each node's keywords as written (what errors, traces and annotation tracking walk), and the
    /// same with `required` and `additionalProperties` folded into `properties` where they can
    /// be, as raw views of memory this program owns: what the verdict walks.
    let tables: TapeTables
    /// The schema options' limits.
    let maximumReferenceDepth: Int
    let maximumInstanceDepth: Int
    /// ``JSONSchema/Options/maximumEvaluationSteps``.
    let maximumEvaluationSteps: Int?
    /// Whether a `$dynamicRef` or `$recursiveRef` reads the dynamic scope (otherwise it is not kept).
    let usesDynamicScope: Bool
    /// For each node, its ``Discriminator``s: what rules an `anyOf`/`oneOf` alternative out of the
    /// errors reported for a value that matched none.
    let discriminators: [[Discriminator]]

    init(nodes: [SchemaNode], root: Int, options: JSONSchema.Options) {
        let usesDynamicScope = nodes.contains { node in
            node.keywords.contains { keyword in
                switch keyword.kind {
                case .dynamicRef, .recursiveRef: return true
                default: return false
                }
            }
        }
        self.nodes = nodes
        self.root = root
        self.tables = TapeTables(
            TapeKeywordTable(nodes), written: KeywordTable(nodes), booleans: nodes.map(\.boolean),
            tracksEvaluation: nodes.map(\.tracksEvaluation),
            acceptedTypes: Self.acceptedTypes(nodes), leaves: nodes.map(Self.isLeaf),
            redirects: Self.redirects(nodes, keepsScope: usesDynamicScope))
        self.maximumReferenceDepth = options.maximumReferenceDepth
        self.maximumInstanceDepth = options.maximumInstanceDepth
        self.maximumEvaluationSteps = options.maximumEvaluationSteps
        self.discriminators = Self.discriminators(nodes)
        self.usesDynamicScope = usesDynamicScope
    }

    deinit { tables.deallocate() }

    /// For each node, the ``JSONTypeName`` bits of the values it can accept, as far as its own
    /// `type`, `const` and `enum` and the targets of its `$ref`s say (all seven otherwise): an
    /// `anyOf` or `oneOf` alternative that cannot accept a value's type fails without being tried.
    static func acceptedTypes(_ nodes: [SchemaNode]) -> [UInt8] {
        let all: UInt8 = 0x7F
        var masks = [UInt8?](repeating: nil, count: nodes.count)
        var visiting = Set<Int>()
        func mask(_ index: Int, _ depth: Int) -> UInt8 {
            if let known = masks[index] { return known }
            let node = nodes[index]
            if let flag = node.boolean { return flag ? all : 0 }
            // A reference cycle says nothing more, nor does a chain of references longer than 64
            // (a hostile schema's chain must not take the stack): every type, nothing skipped.
            guard depth < 64, visiting.insert(index).inserted else { return all }
            defer { visiting.remove(index) }
            var result = all
            for keyword in node.keywords {
                switch keyword.kind {
                case .type:
                    // `integer` accepts some numbers: a number's bits hold both.
                    result &= keyword.typeMask
                case .constant(let value):
                    result &= Self.bits(of: value)
                case .enumeration(let values, _):
                    result &= values.reduce(0) { $0 | Self.bits(of: $1) }
                case .ref(let target):
                    result &= mask(target, depth + 1)
                case .allOf(let targets):
                    for target in targets { result &= mask(target, depth + 1) }
                case .anyOf(let targets), .oneOf(let targets):
                    // A value passes one alternative at least: its type is one of theirs.
                    result &= targets.reduce(0) { $0 | mask($1, depth + 1) }
                default:
                    continue
                }
            }
            masks[index] = result
            return result
        }
        return nodes.indices.map { mask($0, 0) }
    }

    /// A property whose value an object schema fixes with `const` or `enum` (`"type": {"const":
    /// "Point"}`): an object whose member of that name holds another value fails the schema for
    /// that reason, as a tagged union's other variants do.
    struct Discriminator: Sendable {
        /// The property's name, as UTF-8.
        let name: [UInt8]
        /// The values the schema allows it.
        let allowed: [JSONValue]
    }

    /// For each `anyOf`/`oneOf` alternative, the discriminators of its `properties` and of those its
    /// `$ref`s reach (chains of at most 8 references, each list at most 8 long); empty for other
    /// nodes, which nothing asks. A node's own are found once however many alternatives reach it.
    static func discriminators(_ nodes: [SchemaNode]) -> [[Discriminator]] {
        var alternatives = Set<Int>()
        for node in nodes {
            for keyword in node.keywords {
                switch keyword.kind {
                case .anyOf(let targets), .oneOf(let targets): alternatives.formUnion(targets)
                default: continue
                }
            }
        }
        /// The values `index` allows, when its `const` or `enum` (or its `$ref`'s) says.
        func allowed(_ index: Int, _ depth: Int) -> [JSONValue]? {
            guard depth < 8 else { return nil }
            for keyword in nodes[index].keywords {
                switch keyword.kind {
                case .constant(let value): return [value]
                case .enumeration(let values, _) where values.count <= 64: return values
                case .ref(let target): if let values = allowed(target, depth + 1) { return values }
                default: continue
                }
            }
            return nil
        }
        var own: [Int: [Discriminator]] = [:]
        /// The discriminators of `index`'s own `properties`.
        func ownDiscriminators(_ index: Int) -> [Discriminator] {
            if let known = own[index] { return known }
            var found: [Discriminator] = []
            for keyword in nodes[index].keywords {
                guard case .properties(let list) = keyword.kind else { continue }
                for (name, target) in list where found.count < 8 {
                    if let values = allowed(target, 0) {
                        found.append(Discriminator(name: Array(name.utf8), allowed: values))
                    }
                }
            }
            own[index] = found
            return found
        }
        func collect(_ index: Int, _ depth: Int, into found: inout [Discriminator]) {
            guard depth < 8 else { return }
            found.append(contentsOf: ownDiscriminators(index).prefix(8 - found.count))
            for keyword in nodes[index].keywords where found.count < 8 {
                if case .ref(let target) = keyword.kind { collect(target, depth + 1, into: &found) }
            }
        }
        return nodes.indices.map { index in
            guard alternatives.contains(index) else { return [] }
            var found: [Discriminator] = []
            collect(index, 0, into: &found)
            return found
        }
    }

    /// For each node, the node its verdict is that of: a node whose only keyword is a `$ref` has
    /// the verdict of the reference's target, so the verdict goes there at once (chains of at most
    /// 16; a cycle keeps its nodes). The node itself where a dynamic scope is kept (entering a
    /// resource on the way matters), where the target tracks evaluated members, and in errors
    /// (their locations go through the `$ref`).
    static func redirects(_ nodes: [SchemaNode], keepsScope: Bool) -> [Int] {
        return nodes.indices.map { index in
            guard !keepsScope else { return index }
            var current = index
            for _ in 0..<16 {
                let node = nodes[current]
                guard node.boolean == nil, node.keywords.count == 1, case .ref(let target) = node.keywords[0].kind
                else { return current }
                // A target that tracks evaluated members (`unevaluated*`) is evaluated fully: the
                // reference's own node, which does not, would send it the quick way.
                if nodes[target].tracksEvaluation { return index }
                current = target
            }
            return index
        }
    }

    /// Whether `node` only asserts things of the value itself (`type`, bounds, lengths, `enum`,
    /// `pattern`, `format`, `required`…), applying no subschema: its verdict needs no recursion
    /// guard, no stack check and no scope.
    static func isLeaf(_ node: SchemaNode) -> Bool {
        guard node.boolean == nil else { return false }
        return node.keywords.allSatisfy { keyword in
            switch keyword.kind {
            case .type, .enumeration, .constant, .multipleOf, .maximum, .minimum, .maxLength, .minLength, .pattern,
                .maxItems, .minItems, .uniqueItems, .maxProperties, .minProperties, .required, .dependentRequired,
                .format, .content, .formatBound:
                return true
            default:
                return false
            }
        }
    }

    /// The type bits a value satisfies (an integer is also a number).
    private static func bits(of value: JSONValue) -> UInt8 {
        switch value {
        case .null: return JSONTypeName.null.bit
        case .bool: return JSONTypeName.boolean.bit
        case .number(let number): return JSONTypeName.number.bit | (number.isInteger ? JSONTypeName.integer.bit : 0)
        case .string: return JSONTypeName.string.bit
        case .array: return JSONTypeName.array.bit
        case .object: return JSONTypeName.object.bit
        }
    }
}

/// ``TapeKeywordTable``, ``KeywordTable`` and each node's Boolean form (`true`/`false` schemas)
/// copied into memory that a ``TapeProgram`` owns and frees: an evaluator copies these views without
/// counting references. Written once, read-only after.
struct TapeTables: @unchecked Sendable {
    /// The verdict's keywords (``TapeKeywordTable``) and where each node's start.
    let keywords: UnsafeBufferPointer<Unmanaged<Keyword>>
    let starts: UnsafeBufferPointer<Int>
    /// Each node's keywords as written (``KeywordTable``) and where each node's start.
    let written: UnsafeBufferPointer<Unmanaged<Keyword>>
    let writtenStarts: UnsafeBufferPointer<Int>
    /// The nodes themselves (kept alive by the program's ``TapeProgram/nodes``).
    let nodes: UnsafeBufferPointer<Unmanaged<SchemaNode>>
    let objectPlans: UnsafeBufferPointer<TapeKeywordTable.ObjectPlan>
    let booleans: UnsafeBufferPointer<Bool?>
    /// Each node's ``SchemaNode/tracksEvaluation``.
    let tracksEvaluation: UnsafeBufferPointer<Bool>
    /// Each node's ``TapeProgram/acceptedTypes(_:)``.
    let acceptedTypes: UnsafeBufferPointer<UInt8>
    /// Each node's `type` keyword's bits (``TapeKeywordTable/typeMasks``), 0 when it has none.
    let typeMasks: UnsafeBufferPointer<UInt8>
    /// Whether each node is a leaf (``TapeProgram/isLeaf(_:)``).
    let leaves: UnsafeBufferPointer<Bool>
    /// Each leaf's ``LeafPlan`` (one that does not decide for other nodes).
    let leafPlans: UnsafeBufferPointer<LeafPlan>
    /// Where each node's verdict is decided (``TapeProgram/redirects(_:)``).
    let redirects: UnsafeBufferPointer<Int>

    init(
        _ table: TapeKeywordTable, written: KeywordTable, booleans: [Bool?], tracksEvaluation: [Bool],
        acceptedTypes: [UInt8], leaves: [Bool],
        redirects: [Int]
    ) {
        func copy<T>(_ array: [T]) -> UnsafeBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: array.count)
            _ = buffer.initialize(from: array)
            return UnsafeBufferPointer(buffer)
        }
        keywords = copy(table.keywords)
        starts = copy(table.starts)
        self.written = copy(written.keywords)
        writtenStarts = copy(written.starts)
        self.nodes = copy(written.nodes)
        objectPlans = copy(table.objectPlans)
        self.booleans = copy(booleans)
        self.tracksEvaluation = copy(tracksEvaluation)
        self.acceptedTypes = copy(acceptedTypes)
        typeMasks = copy(table.typeMasks)
        self.leaves = copy(leaves)
        self.redirects = copy(redirects)
        leafPlans = copy(
            leaves.indices.map { index in
                guard leaves[index] else { return LeafPlan() }
                return LeafPlan(
                    table.keywords[table.starts[index]..<table.starts[index + 1]].map { $0.takeUnretainedValue() })
            })
    }

    /// Frees the memory (the elements are trivial: nothing to deinitialize).
    func deallocate() {
        keywords.deallocate()
        starts.deallocate()
        written.deallocate()
        writtenStarts.deallocate()
        nodes.deallocate()
        objectPlans.deallocate()
        booleans.deallocate()
        tracksEvaluation.deallocate()
        acceptedTypes.deallocate()
        typeMasks.deallocate()
        leaves.deallocate()
        leafPlans.deallocate()
        redirects.deallocate()
    }

    /// The range of node `index`'s keywords in ``keywords``.
    @inline(__always) func bounds(of index: Int) -> (start: Int, end: Int) { (starts[index], starts[index + 1]) }

    /// The range of node `index`'s keywords in ``written``.
    @inline(__always) func writtenBounds(of index: Int) -> (start: Int, end: Int) {
        (writtenStarts[index], writtenStarts[index + 1])
    }
}

/// Every node's keywords in one flat array, without reference counting (the nodes keep them alive):
/// reading a node's keywords copies no inner array, so it costs no retain.
struct KeywordTable: Sendable {
    /// The keywords of node 0, then those of node 1, and so on.
    let keywords: [Unmanaged<Keyword>]
    /// Where each node's keywords start in `keywords`, and a last entry for the end.
    let starts: [Int]
    /// The nodes, unretained.
    let nodes: [Unmanaged<SchemaNode>]

    init(_ nodes: [SchemaNode]) {
        var keywords: [Unmanaged<Keyword>] = []
        var starts: [Int] = [0]
        for node in nodes {
            keywords.append(contentsOf: node.keywords.map { Unmanaged.passUnretained($0) })
            starts.append(keywords.count)
        }
        self.keywords = keywords
        self.starts = starts
        self.nodes = nodes.map { Unmanaged.passUnretained($0) }
    }
}

/// ``KeywordTable`` for the verdict (read through ``TapeTables``): a node's `required` and
/// `additionalProperties` are folded into its `properties` where they can be, so one pass over an
/// object's members checks all three (see ``ObjectPlan``), and its `type` is taken out of the list,
/// to be checked before the rest (``typeMasks``).
struct TapeKeywordTable: Sendable {
    let keywords: [Unmanaged<Keyword>]
    let starts: [Int]
    /// For each entry of `keywords`: what a `properties` keyword checks beside its own schemas.
    let objectPlans: [ObjectPlan]
    /// For each node, the bits of its `type` keyword (``Keyword/typeMask``), 0 when it has none.
    let typeMasks: [UInt8]

    /// What a `properties` keyword checks in the verdict's one pass over an object's
    /// members, besides applying its schemas: the siblings folded into it.
    struct ObjectPlan: Sendable {
        /// The `required` names, as bits of their positions among the `properties` names.
        var requiredMask: UInt64 = 0
        /// The schema every member not named by `properties` must pass (`additionalProperties`
        /// without `patternProperties`), or -1.
        var additional = -1
    }

    init(_ nodes: [SchemaNode]) {
        var keywords: [Unmanaged<Keyword>] = []
        var starts: [Int] = [0]
        var objectPlans: [ObjectPlan] = []
        var typeMasks: [UInt8] = []
        for node in nodes {
            var (folded, plan) = Self.fold(node.keywords)
            var typeMask: UInt8 = 0
            if let type = node.keywords.first(where: { $0.step == .type }), type.typeMask != 0 {
                typeMask = type.typeMask
                folded.insert(ObjectIdentifier(type))
            }
            typeMasks.append(typeMask)
            for keyword in node.keywords where !folded.contains(ObjectIdentifier(keyword)) {
                keywords.append(Unmanaged.passUnretained(keyword))
                objectPlans.append(keyword.step == .properties ? plan : ObjectPlan())
            }
            starts.append(keywords.count)
        }
        self.keywords = keywords
        self.starts = starts
        self.objectPlans = objectPlans
        self.typeMasks = typeMasks
    }

    /// The `required` and `additionalProperties` keywords of a node that its `properties` can check
    /// in its own pass, and the plan for that pass: `required` when all its names are among at most
    /// 64 `properties` names, `additionalProperties` when no patterns share its work.
    private static func fold(_ keywords: [Keyword]) -> (Set<ObjectIdentifier>, ObjectPlan) {
        var plan = ObjectPlan()
        var folded: Set<ObjectIdentifier> = []
        guard let properties = keywords.first(where: { $0.step == .properties }),
            case .properties(let list) = properties.kind, list.count <= 64
        else { return (folded, plan) }
        let positions = Dictionary(list.enumerated().map { ($0.element.0, $0.offset) }, uniquingKeysWith: { a, _ in a })
        for keyword in keywords {
            switch keyword.kind {
            case .required(let names) where names.allSatisfy({ positions[$0] != nil }):
                for name in names { plan.requiredMask |= 1 << UInt64(positions[name]!) }
                folded.insert(ObjectIdentifier(keyword))
            case .additionalProperties(let target, let names, let patterns)
            where patterns.isEmpty && names == Set(list.map(\.0)):
                plan.additional = target
                folded.insert(ObjectIdentifier(keyword))
            default:
                continue
            }
        }
        return (folded, plan)
    }
}

/// A leaf's assertions on strings and numbers gathered in one record (``TapeProgram/isLeaf(_:)``):
/// its verdict reads the value once and checks them in a row, without a dispatch per keyword. A leaf
/// with any other keyword (`required`, `maxItems`, a bound that is not an integer…) is not planned
/// and goes keyword by keyword, as does any value a check here cannot decide (a number of more than
/// 18 digits, a format that needs more than the string's bytes).
struct LeafPlan: @unchecked Sendable {
    /// Whether the plan decides the leaf's verdict (its keywords are all below).
    var decides = false
    /// `minLength` and `maxLength` in code points (0 and `Int.max` when absent).
    var minLength = 0
    var maxLength = Int.max
    /// The `format` decided on a string's bytes, asserted.
    var format: TextFormat?
    /// The `pattern` keyword, whose ``Keyword/regex`` is set (kept alive by the program's nodes).
    var pattern: Unmanaged<Keyword>?
    /// The strings of `enum` or `const`, when the leaf has one: a value of another type goes keyword
    /// by keyword (it may equal a value of the list).
    var strings: UTF8Names?
    /// `maximum`, `exclusiveMaximum`, `minimum`, `exclusiveMinimum` (``bounds`` says which are
    /// present, a bit each in that order).
    var maximum: Int64 = 0
    var exclusiveMaximum: Int64 = 0
    var minimum: Int64 = 0
    var exclusiveMinimum: Int64 = 0
    var bounds: UInt8 = 0
    /// `multipleOf` as `mantissa × 10^-scale` (mantissa 0 when absent).
    var multipleOfMantissa: Int64 = 0
    var multipleOfScale = 0

    /// Whether the plan checks anything of a number.
    var checksNumbers: Bool { bounds != 0 || multipleOfMantissa != 0 }

    /// A plan that decides nothing (for a node that is not a leaf).
    init() {}

    /// The plan of a leaf whose verdict keywords (its `type` left out) are `keywords`; one that
    /// does not decide when any of them is another keyword, or is not decided on the value alone.
    init(_ keywords: some Sequence<Keyword>) {
        for keyword in keywords {
            switch keyword.step {
            case .minLength: minLength = max(minLength, Int(keyword.operand))
            case .maxLength: maxLength = min(maxLength, Int(keyword.operand))
            case .format:
                guard format == nil, let byteFormat = keyword.byteFormat else { return }
                format = byteFormat
            case .pattern:
                guard pattern == nil, keyword.regex != nil else { return }
                pattern = Unmanaged.passUnretained(keyword)
            case .strings:
                guard strings == nil else { return }
                strings = keyword.utf8Names
            case .maximum: if !setBound(0, keyword.operand) { return }
            case .exclusiveMaximum: if !setBound(1, keyword.operand) { return }
            case .minimum: if !setBound(2, keyword.operand) { return }
            case .exclusiveMinimum: if !setBound(3, keyword.operand) { return }
            case .multipleOf:
                guard multipleOfMantissa == 0, keyword.operand > 0 else { return }
                (multipleOfMantissa, multipleOfScale) = (keyword.operand, keyword.secondOperand)
            default:
                return
            }
        }
        decides = true
    }

    /// Sets bound `bit` (0…3, ``bounds``' order) unless it is set already.
    private mutating func setBound(_ bit: UInt8, _ value: Int64) -> Bool {
        guard bounds & 1 << bit == 0 else { return false }
        bounds |= 1 << bit
        switch bit {
        case 0: maximum = value
        case 1: exclusiveMaximum = value
        case 2: minimum = value
        default: exclusiveMinimum = value
        }
        return true
    }

    /// The verdict of the string checks on a string's UTF-8; `nil` when its format is not decided
    /// on the bytes alone.
    @inline(__always)
    func verdict(string bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        if minLength > 0 && !StringLength.isAtLeast(minLength, utf8: bytes) { return false }
        if maxLength != Int.max && !StringLength.isAtMost(maxLength, utf8: bytes) { return false }
        if let strings, !strings.contains(bytes) { return false }
        if let pattern {
            let matches = pattern._withUnsafeGuaranteedRef { $0.regex!.firstMatchExists(utf8: bytes) }
            if !matches { return false }
        }
        if let format { return format.verdict(utf8: bytes) }
        return true
    }

    /// The verdict of the number checks on `value`; `nil` when `multipleOf` is not decided with
    /// 64-bit arithmetic.
    @inline(__always)
    func verdict(number value: DecimalParts) -> Bool? {
        guard checksNumbers else { return true }
        if bounds != 0 {
            if bounds & 1 != 0 && value.compare(with: maximum) > 0 { return false }
            if bounds & 2 != 0 && value.compare(with: exclusiveMaximum) >= 0 { return false }
            if bounds & 4 != 0 && value.compare(with: minimum) < 0 { return false }
            if bounds & 8 != 0 && value.compare(with: exclusiveMinimum) <= 0 { return false }
        }
        guard multipleOfMantissa != 0 else { return true }
        return value.isMultiple(ofMantissa: multipleOfMantissa, scale: multipleOfScale)
    }
}
