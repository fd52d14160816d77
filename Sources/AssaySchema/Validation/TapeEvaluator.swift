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
/// It records no errors while it decides; for a document it found invalid, ``locateErrors(_:limit:)``
/// walks it again to the failing values and has the tree evaluator record their errors. Schemas that need the dynamic scope or annotations (`$dynamicRef`,
/// `$recursiveRef`, `unevaluatedProperties`, `unevaluatedItems`) are not evaluated here: see
/// ``JSONSchema/readsDocumentsInPlace``.
struct TapeEvaluator {
    /// The schema's tables, kept alive by the ``JSONSchema`` whose method makes this evaluator (an
    /// evaluator lives only for that call); the ones read per value are raw views (``TapeTables``),
    /// so making and dropping an evaluator, once per document, counts no references.
    private unowned(unsafe) let program: TapeProgram
    private let tables: TapeTables
    private let depthLimit: Int
    private let chainLimit: Int
    /// The tree evaluator, non-collecting, for leaf checks and property names; made when first needed,
    /// in a box so this evaluator stays small (it is made for every document).
    private var treeBox: TreeBox?
    private var sameInstanceDepth = 0
    private var instanceDepth = 0
    /// Where the machine stack runs short, once evaluation goes deep; `nil` until then.
    private var stackLimit: UInt?
    /// Set when the document nests deeper, or references chain longer, than this evaluator goes:
    /// its answer is then void and the tree evaluator decides (its frames are smaller, and it
    /// reports the limits' errors).
    private(set) var gaveUp = false
    /// The document being read: a node of it keeps it alive while ``view`` points into it.
    private var anchor: JSONNode?
    private var view = TapeView.empty

    /// How deep in the document this evaluator goes before handing over to the tree evaluator.
    static let maximumDepth = 96
    /// How many schemas in a row (through `$ref`, `allOf`…) it applies to one value before handing over.
    static let maximumChain = 48

    /// An evaluator for one call of a method of the schema that owns `program`.
    init(program: TapeProgram) {
        self.program = program
        self.tables = program.tables
        self.depthLimit = program.depthLimit
        self.chainLimit = program.chainLimit
    }

    /// The tree evaluator, made on first use.
    private var tree: TreeBox {
        mutating get {
            if let treeBox { return treeBox }
            let made = TreeBox(Evaluator(program: program, collecting: false, limit: 0))
            treeBox = made
            return made
        }
    }

    /// A tree evaluator kept by reference.
    private final class TreeBox {
        var evaluator: Evaluator
        init(_ evaluator: Evaluator) { self.evaluator = evaluator }
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

    mutating func run(_ instance: JSONNode) -> Bool {
        anchor = instance
        view = instance.tapeView
        defer {
            anchor = nil
            view = .empty
        }
        return evaluate(program.root, instance.tapeIndex)
    }

    /// The errors of a document this evaluator found invalid, up to `limit`, the same and in the same
    /// order as the tree evaluator's over the whole document: the document is walked in place again,
    /// down through `$ref`, `properties`, `additionalProperties` and `items` to the values that fail
    /// (a valid member or element is passed over after the in-place check); there the keywords that
    /// fail are applied by a collecting tree evaluator to that value alone, materialized once.
    /// `nil` when this evaluator gave up (depth or reference chain) or found nothing to report: the
    /// caller then evaluates the whole document on the tree.
    mutating func locateErrors(_ instance: JSONNode, limit: Int) -> [SchemaError]? {
        anchor = instance
        view = instance.tapeView
        defer {
            anchor = nil
            view = .empty
        }
        var collector = Evaluator(program: program, collecting: true, limit: limit)
        let valid = locate(program.root, instance.tapeIndex, &collector)
        guard !gaveUp, !valid, !collector.errors.isEmpty else { return nil }
        return collector.errors
    }

    /// Applies schema `index` to the value at `at` as ``Evaluator/evaluate(_:_:_:)`` does when
    /// collecting, recording the errors in `collector`: keyword by keyword in the tree evaluator's
    /// order (`required` and `additionalProperties` are not folded into `properties` here).
    private mutating func locate(_ index: Int, _ at: Int, _ collector: inout Evaluator) -> Bool {
        if tables.booleans[index] != nil {
            var none: Evaluated? = nil
            return collector.evaluate(index, node(at).value, &none)
        }
        sameInstanceDepth += 1
        collector.enterSchema()
        defer {
            sameInstanceDepth -= 1
            collector.leaveSchema()
        }
        let schema = program.nodes[index]
        let table = program.keywordTable
        let bounds = table.bounds(of: index)
        var materialized: JSONValue? = nil
        var valid = true
        for position in bounds.start..<bounds.end {
            let passed = table.keywords[position]._withUnsafeGuaranteedRef {
                locate($0, of: schema, at, &materialized, &collector)
            }
            if gaveUp { return false }
            if !passed {
                valid = false
                if collector.isFull { return false }
            }
        }
        return valid
    }

    /// Applies one keyword of `schema` to the value at `at`, recording its errors in `collector`.
    private mutating func locate(
        _ keyword: Keyword, of schema: SchemaNode, _ at: Int, _ materialized: inout JSONValue?,
        _ collector: inout Evaluator
    ) -> Bool {
        let view = self.view
        switch keyword.step {
        case .ref:
            let target = Int(keyword.operand)
            if evaluate(target, at) || gaveUp { return true }
            collector.enterKeyword(keyword.name)
            defer { collector.leaveKeyword() }
            return locate(target, at, &collector)
        case .properties:
            guard view.isObject(at) else { return true }
            let names = keyword.utf8Names
            let targets = keyword.targets
            var next = 0
            var valid = true
            _ = view.allMembers(inObjectAt: at) { key, value in
                guard let match = names.position(of: key, from: next) else { return true }
                next = match + 1
                if child(targets[match], value) || gaveUp { return !gaveUp }
                valid = false
                let name = String(decoding: key, as: UTF8.self)
                locateChild(targets[match], value, .key(name), keyword.name, name, &collector)
                return !gaveUp && !collector.isFull
            }
            return valid
        case .additionalProperties:
            guard view.isObject(at) else { return true }
            let target = Int(keyword.operand)
            let rejectsAll = tables.booleans[target] == false
            let names = keyword.utf8Names
            var next = 0
            var valid = true
            _ = view.allMembers(inObjectAt: at) { key, value in
                if let found = names.position(of: key, from: next) {
                    next = found + 1
                    return true
                }
                if !rejectsAll && (child(target, value) || gaveUp) { return !gaveUp }
                valid = false
                let name = String(decoding: key, as: UTF8.self)
                if rejectsAll {
                    collector.reportUnknownKey(keyword, schema, name, node(value).value)
                } else {
                    locateChild(target, value, .key(name), keyword.name, nil, &collector)
                }
                return !gaveUp && !collector.isFull
            }
            return valid
        case .items:
            guard view.isArray(at) else { return true }
            let target = Int(keyword.operand)
            let after = keyword.secondOperand
            var offset = 0
            var element = view.firstChild(at)
            let end = view.end(at)
            var valid = true
            while element < end {
                if offset >= after && !child(target, element) {
                    if gaveUp { return true }
                    valid = false
                    locateChild(target, element, .index(offset), keyword.name, nil, &collector)
                    if gaveUp || collector.isFull { return false }
                }
                offset += 1
                element = view.next(after: element)
            }
            return valid
        default:
            // `properties`, the one step that reads its table position, is handled above.
            if step(keyword, -1, at) == true { return true }
            if materialized == nil { materialized = node(at).value }
            return collector.collect(keyword, schema, materialized!)
        }
    }

    /// Applies `index` to a child of the value at `at`, which fails it, recording its errors.
    private mutating func locateChild(
        _ index: Int, _ at: Int, _ component: PathComponent, _ keyword: String, _ sub: String?,
        _ collector: inout Evaluator
    ) {
        instanceDepth += 1
        let saved = sameInstanceDepth
        sameInstanceDepth = 0
        let savedByCollector = collector.enterChild(component, keyword, sub)
        defer {
            collector.leaveChild(hasSub: sub != nil, restoring: savedByCollector)
            sameInstanceDepth = saved
            instanceDepth -= 1
        }
        _ = locate(index, at, &collector)
    }

    /// Whether the machine stack has less than ``MachineStack/margin`` left.
    @inline(never)
    private mutating func stackIsShort() -> Bool {
        if stackLimit == nil { stackLimit = MachineStack.limit() }
        return MachineStack.currentAddress() < stackLimit!
    }

    /// The value at tape index `at` as a node, for the general path.
    private func node(_ at: Int) -> JSONNode { anchor!.node(atTapeIndex: at) }

    /// Applies schema `index` to the value at tape index `at`.
    private mutating func evaluate(_ index: Int, _ at: Int) -> Bool {
        if let flag = tables.booleans[index] { return flag }
        sameInstanceDepth += 1
        defer { sameInstanceDepth -= 1 }
        guard sameInstanceDepth <= chainLimit, !gaveUp else {
            gaveUp = true
            return false
        }
        // On a thread with a small stack, the tree evaluator decides (and reports it).
        if instanceDepth + sameInstanceDepth > 16, stackIsShort() {
            gaveUp = true
            return false
        }
        let bounds = tables.bounds(of: index)
        var position = bounds.start
        while position < bounds.end {
            let verdict = tables.keywords[position]._withUnsafeGuaranteedRef { step($0, position, at) }
            guard let verdict else { return evaluateGenerally(index, at, from: position, to: bounds.end) }
            if !verdict { return false }
            position += 1
        }
        return true
    }

    /// The rest of schema `index`'s keywords from `start`, where one could not be decided on the
    /// tape alone: the value is materialized once for those that need it.
    private mutating func evaluateGenerally(_ index: Int, _ at: Int, from start: Int, to end: Int) -> Bool {
        var materialized: JSONValue? = nil
        for position in start..<end {
            let passed = tables.keywords[position]._withUnsafeGuaranteedRef { keyword -> Bool in
                if let verdict = step(keyword, position, at) { return verdict }
                let instance = node(at)
                return apply(keyword, index, instance, &materialized)
            }
            if !passed { return false }
        }
        return true
    }

    /// Applies `index` to a child of the value (a member's value or an element) at tape index `at`.
    private mutating func child(_ index: Int, _ at: Int) -> Bool {
        instanceDepth += 1
        defer { instanceDepth -= 1 }
        guard instanceDepth <= depthLimit, !gaveUp else {
            gaveUp = true
            return false
        }
        let saved = sameInstanceDepth
        sameInstanceDepth = 0
        defer { sameInstanceDepth = saved }
        return evaluate(index, at)
    }

    /// The keywords decided on the tape from ``Keyword/step`` and the keyword's plain fields (no
    /// copy of its enum payload, no value built); `nil` where the general path must decide.
    @inline(__always)
    private mutating func step(_ keyword: Keyword, _ position: Int, _ at: Int) -> Bool? {
        let view = self.view
        let limit = keyword.operand
        switch keyword.step {
        case .other:
            return nil
        case .type:
            // A number literal satisfies `number` whatever its integrality.
            if view.isNumberText(at) && keyword.typeMask & JSONTypeName.number.bit != 0 { return true }
            return typeBits(at) & keyword.typeMask != 0
        case .maxLength:
            return !view.isString(at) || StringLength.isAtMost(Int(limit), utf8: view.stringBytes(at))
        case .minLength:
            return !view.isString(at) || StringLength.isAtLeast(Int(limit), utf8: view.stringBytes(at))
        case .maxItems:
            return !view.isArray(at) || Int64(view.count(at)) <= limit
        case .minItems:
            return !view.isArray(at) || Int64(view.count(at)) >= limit
        case .ref:
            return evaluate(Int(limit), at)
        case .maximum, .exclusiveMaximum, .minimum, .exclusiveMinimum:
            let order: Int
            if view.isInt64(at) {
                let value = view.int64(at)
                order = value < limit ? -1 : value == limit ? 0 : 1
            } else if view.isNumberText(at) {
                guard let exact = Self.compare(literal: view.numberLiteral(at), with: limit) else { return nil }
                order = exact
            } else {
                return true
            }
            switch keyword.step {
            case .maximum: return order <= 0
            case .exclusiveMaximum: return order < 0
            case .minimum: return order >= 0
            default: return order > 0
            }
        case .required:
            return !view.isObject(at) || view.hasMembers(keyword.utf8Names, inObjectAt: at)
        case .properties:
            // With the `required` and `additionalProperties` folded into it (``TapeKeywordTable/ObjectPlan``).
            guard view.isObject(at) else { return true }
            let plan = tables.objectPlans[position]
            let names = keyword.utf8Names
            let targets = keyword.targets
            var next = 0
            var found: UInt64 = 0
            let passed = view.allMembers(inObjectAt: at) { key, value in
                guard let match = names.position(of: key, from: next) else {
                    return plan.additional < 0 || child(plan.additional, value)
                }
                next = match + 1
                found |= 1 &<< UInt64(match & 63)
                return child(targets[match], value)
            }
            return passed && found & plan.requiredMask == plan.requiredMask
        case .additionalProperties:
            // Without sibling patterns: a member named by `properties` passes, any other is checked
            // against the schema (a `false` schema rejects it at once).
            guard view.isObject(at) else { return true }
            let names = keyword.utf8Names
            var next = 0
            return view.allMembers(inObjectAt: at) { key, value in
                guard let found = names.position(of: key, from: next) else { return child(Int(limit), value) }
                next = found + 1
                return true
            }
        case .format:
            guard view.isString(at) else { return true }
            return keyword.byteFormat?.verdict(utf8: view.stringBytes(at))
        case .strings:
            // A string is among the allowed values when its bytes are those of an allowed string
            // (JSON Schema compares strings code point by code point); other values generally.
            guard view.isString(at) else { return nil }
            return keyword.utf8Names.contains(view.stringBytes(at))
        case .uniqueItems:
            guard view.isArray(at) else { return true }
            return node(at).distinctStrings
        case .items:
            guard view.isArray(at) else { return true }
            let after = keyword.secondOperand
            var offset = 0
            var element = view.firstChild(at)
            let end = view.end(at)
            while element < end {
                if offset >= after && !child(Int(limit), element) { return false }
                offset += 1
                element = view.next(after: element)
            }
            return true
        case .pattern:
            // ASCII text is matched on its bytes; anything else as a string.
            guard view.isString(at) else { return true }
            let bytes = view.stringBytes(at)
            guard let regex = keyword.regex, !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            return regex.firstMatchExists(inASCII: bytes)
        }
    }

    /// The sign of `literal - bound` for a number literal without an exponent and with at most 18
    /// integer digits, exactly: the integer part decides, and the fraction only breaks a tie. `nil`
    /// for other literals (the general path compares them as ``JSONNumber``s).
    static func compare(literal: UnsafeBufferPointer<UInt8>, with bound: Int64) -> Int? {
        guard !literal.isEmpty, bound != Int64.min else { return nil }
        var index = 0
        let negative = literal[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        var integer: Int64 = 0
        var digits = 0
        while index < literal.count, literal[index] >= 0x30 && literal[index] <= 0x39 {
            integer = integer * 10 + Int64(literal[index] - 0x30)
            digits += 1
            index += 1
            if digits > 18 { return nil }
        }
        var fraction = false
        if index < literal.count, literal[index] == UInt8(ascii: ".") {
            index += 1
            while index < literal.count, literal[index] >= 0x30 && literal[index] <= 0x39 {
                if literal[index] != 0x30 { fraction = true }
                index += 1
            }
        }
        guard digits > 0, index == literal.count else { return nil }
        // |x| = integer + f with 0 <= f < 1, f > 0 exactly when `fraction`.
        func magnitudeOrder(_ target: Int64) -> Int {
            integer < target ? -1 : integer > target ? 1 : fraction ? 1 : 0
        }
        if !negative { return magnitudeOrder(bound) }
        // x - b = -(|x| - (-b)).
        return -magnitudeOrder(-bound)
    }

    /// The type names the value at `at` satisfies, as ``Keyword/typeMask`` bits (an integer is also
    /// a number, and so is a literal with no fractional part, such as `1.0`).
    @inline(__always)
    private func typeBits(_ at: Int) -> UInt8 {
        if view.isString(at) { return JSONTypeName.string.bit }
        if view.isObject(at) { return JSONTypeName.object.bit }
        if view.isArray(at) { return JSONTypeName.array.bit }
        if view.isInt64(at) { return JSONTypeName.number.bit | JSONTypeName.integer.bit }
        if view.isNumberText(at) {
            return JSONTypeName.number.bit | (node(at).isIntegralNumber ? JSONTypeName.integer.bit : 0)
        }
        if view.isNull(at) { return JSONTypeName.null.bit }
        return JSONTypeName.boolean.bit
    }

    /// The general path, for the keywords ``step`` leaves undecided, on a node of the document.
    private mutating func apply(
        _ keyword: Keyword, _ index: Int, _ instance: JSONNode, _ materialized: inout JSONValue?
    ) -> Bool {
        switch keyword.kind {
        case .dependentRequired(let pairs):
            guard instance.isObject else { return true }
            for (trigger, names) in pairs where instance.hasMember(trigger) {
                if !names.allSatisfy({ instance.hasMember($0) }) { return false }
            }
            return true
        case .maxProperties(let limit):
            return !instance.isObject || (instance.count ?? 0) <= limit
        case .minProperties(let limit):
            return !instance.isObject || (instance.count ?? 0) >= limit
        case .patternProperties(let list):
            return instance.allMembers { key, value in
                let name = String(decoding: key, as: UTF8.self)
                for (regex, target) in list where regex.firstMatchExists(in: name) {
                    if !child(target, value.tapeIndex) { return false }
                }
                return true
            }
        case .additionalProperties(let target, _, let patterns):
            let rejectsAll = tables.booleans[target] == false
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
                return !rejectsAll && child(target, value.tapeIndex)
            }
        case .propertyNames(let target):
            return instance.allMembers { key, _ in
                var none: Evaluated? = nil
                return tree.evaluator.evaluate(target, .string(String(decoding: key, as: UTF8.self)), &none)
            }
        case .dependentSchemas(let pairs):
            guard instance.isObject else { return true }
            for (trigger, target) in pairs where instance.hasMember(trigger) {
                if !evaluate(target, instance.tapeIndex) { return false }
            }
            return true
        case .prefixItems(let schemas), .itemsArray(let schemas):
            return instance.allElements { position, element in
                position >= schemas.count || child(schemas[position], element.tapeIndex)
            }
        case .items(let target, let after), .additionalItems(let target, let after):
            return instance.allElements { position, element in position < after || child(target, element.tapeIndex) }
        case .contains(let target, let minimum, let maximum):
            guard instance.isArray else { return true }
            var matches = 0
            _ = instance.allElements { _, element in
                if evaluate(target, element.tapeIndex) { matches += 1 }
                return maximum != nil || matches < minimum
            }
            return matches >= minimum && (maximum.map { matches <= $0 } ?? true)
        case .allOf(let schemas):
            return schemas.allSatisfy { evaluate($0, instance.tapeIndex) }
        case .anyOf(let schemas):
            for target in schemas where evaluate(target, instance.tapeIndex) { return true }
            return false
        case .oneOf(let schemas):
            var matches = 0
            for target in schemas where evaluate(target, instance.tapeIndex) {
                matches += 1
                if matches > 1 { return false }
            }
            return matches == 1
        case .not(let target):
            return !evaluate(target, instance.tapeIndex)
        case .conditional(let condition, let then, let otherwise):
            if evaluate(condition, instance.tapeIndex) { return then.map { evaluate($0, instance.tapeIndex) } ?? true }
            return otherwise.map { evaluate($0, instance.tapeIndex) } ?? true
        case .properties, .ref, .dynamicRef, .recursiveRef, .unevaluatedItems, .unevaluatedProperties:
            // Not reached: `properties` and `$ref` are always decided by ``step``, the others are
            // evaluated on the tree (canEvaluate). Decide the whole schema on the tree anyway.
            var none: Evaluated? = nil
            return tree.evaluator.evaluate(index, instance.value, &none)
        case .maximum(let limit, let exclusive):
            // Integers on both sides compare as integers; anything else exactly, on JSONNumber.
            if let value = instance.int64, let bound = limit.int64 { return exclusive ? value < bound : value <= bound }
            guard let number = instance.number else { return true }
            return exclusive ? number < limit : number <= limit
        case .minimum(let limit, let exclusive):
            if let value = instance.int64, let bound = limit.int64 { return exclusive ? value > bound : value >= bound }
            guard let number = instance.number else { return true }
            return exclusive ? number > limit : number >= limit
        default:
            // Leaf assertions ``step`` could not decide on the tape (a format that needs the string,
            // an `enum` of a non-string, arrays of other values for `uniqueItems`…): the tree
            // evaluator's own checks, on the value materialized once.
            if materialized == nil { materialized = instance.value }
            return tree.evaluator.check(keyword, program.nodes[index], materialized!)
        }
    }
}

/// What a compiled schema's evaluators read: its nodes and their keyword tables, made once per schema.
final class TapeProgram: Sendable {
    let nodes: [SchemaNode]
    let root: Int
    /// The tree evaluator's table, and the in-place evaluator's.
    let keywordTable: KeywordTable
    /// The in-place evaluator's tables, as raw views of memory this program owns.
    let tables: TapeTables
    /// The depth and chain length past which the tree evaluator decides: the in-place evaluator's
    /// own limits, or the schema options' if lower (the tree evaluator then reports them).
    let depthLimit: Int
    let chainLimit: Int
    /// The schema options' limits, for the tree evaluator.
    let maximumReferenceDepth: Int
    let maximumInstanceDepth: Int

    init(nodes: [SchemaNode], root: Int, options: JSONSchema.Options) {
        self.nodes = nodes
        self.root = root
        self.keywordTable = KeywordTable(nodes)
        self.tables = TapeTables(TapeKeywordTable(nodes), booleans: nodes.map(\.boolean))
        self.depthLimit = min(TapeEvaluator.maximumDepth, options.maximumInstanceDepth)
        self.chainLimit = min(TapeEvaluator.maximumChain, options.maximumReferenceDepth)
        self.maximumReferenceDepth = options.maximumReferenceDepth
        self.maximumInstanceDepth = options.maximumInstanceDepth
    }

    deinit { tables.deallocate() }
}

/// ``TapeKeywordTable`` and each node's Boolean form (`true`/`false` schemas) copied into memory that
/// a ``TapeProgram`` owns and frees: an evaluator copies these views without counting references.
/// Written once, read-only after.
struct TapeTables: @unchecked Sendable {
    let keywords: UnsafeBufferPointer<Unmanaged<Keyword>>
    let starts: UnsafeBufferPointer<Int>
    let objectPlans: UnsafeBufferPointer<TapeKeywordTable.ObjectPlan>
    let booleans: UnsafeBufferPointer<Bool?>

    init(_ table: TapeKeywordTable, booleans: [Bool?]) {
        func copy<T>(_ array: [T]) -> UnsafeBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: array.count)
            _ = buffer.initialize(from: array)
            return UnsafeBufferPointer(buffer)
        }
        keywords = copy(table.keywords)
        starts = copy(table.starts)
        objectPlans = copy(table.objectPlans)
        self.booleans = copy(booleans)
    }

    /// Frees the memory (the elements are trivial: nothing to deinitialize).
    func deallocate() {
        keywords.deallocate()
        starts.deallocate()
        objectPlans.deallocate()
        booleans.deallocate()
    }

    /// The range of node `index`'s keywords in ``keywords``.
    @inline(__always) func bounds(of index: Int) -> (start: Int, end: Int) { (starts[index], starts[index + 1]) }
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

/// ``KeywordTable`` for the in-place evaluator (read through ``TapeTables``): a node's `required` and
/// `additionalProperties` are folded into its `properties` where they can be, so one pass over an
/// object's members checks all three (see ``ObjectPlan``).
struct TapeKeywordTable: Sendable {
    let keywords: [Unmanaged<Keyword>]
    let starts: [Int]
    /// For each entry of `keywords`: what a `properties` keyword checks beside its own schemas.
    let objectPlans: [ObjectPlan]

    /// What a `properties` keyword checks in the in-place evaluator's one pass over an object's
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
        for node in nodes {
            let (folded, plan) = Self.fold(node.keywords)
            for keyword in node.keywords where !folded.contains(ObjectIdentifier(keyword)) {
                keywords.append(Unmanaged.passUnretained(keyword))
                objectPlans.append(keyword.step == .properties ? plan : ObjectPlan())
            }
            starts.append(keywords.count)
        }
        self.keywords = keywords
        self.starts = starts
        self.objectPlans = objectPlans
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
