import AssayCore
import AssayJSON
import AssayRegex

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What an evaluation produces, fixed at compile time so that each form of ``SchemaEvaluator`` is
/// specialized for it: the verdict alone pays for no error record, no path and no trace.
protocol EvaluationMode {
    /// Whether errors are recorded (with their locations and failing values).
    static var collects: Bool { get }
    /// Whether every schema and keyword applied is recorded, passing ones too (the verbose output).
    static var traces: Bool { get }
}

/// The verdict only: evaluation stops at the first failure.
enum VerdictMode: EvaluationMode {
    static var collects: Bool { false }
    static var traces: Bool { false }
}

/// The errors, up to a limit, each where it was found.
enum ErrorMode: EvaluationMode {
    static var collects: Bool { true }
    static var traces: Bool { false }
}

/// Every schema and keyword applied, for the verbose output.
enum TraceMode: EvaluationMode {
    static var collects: Bool { true }
    static var traces: Bool { true }
}

/// Which members and items the keywords of a schema (and its in-place subschemas) evaluated: what
/// `unevaluatedProperties` and `unevaluatedItems` look at. Members are named by their ordinal among
/// the object's live members (the order ``TapeView/allMembers(inObjectAt:_:)`` visits them, which
/// every keyword that marks or reads them counts), so names are compared as the document has them,
/// code point for code point.
struct Evaluated {
    var members = SortedIndices()
    var allMembers = false
    var itemsPrefix = 0
    var allItems = false
    var itemIndices = SortedIndices()

    @inline(__always)
    mutating func merge(_ other: Evaluated) {
        if other.allMembers {
            allMembers = true
        } else if !allMembers {
            members.formUnion(other.members)
        }
        if other.allItems { allItems = true }
        itemsPrefix = max(itemsPrefix, other.itemsPrefix)
        itemIndices.formUnion(other.itemIndices)
    }

    func hasMember(_ value: Int) -> Bool { allMembers || members.contains(value) }
    func hasItem(_ index: Int) -> Bool { allItems || index < itemsPrefix || itemIndices.contains(index) }
}

/// A set of non-negative integers (member ordinals, item positions): those below 64 as bits, the
/// rest as a sorted array. Members and items are recorded in document order, so an insertion past 63
/// is an append, a union a merge, and a lookup a binary search; objects and arrays of at most 64
/// allocate nothing.
struct SortedIndices {
    private var low: UInt64 = 0
    /// The values from 64 on: `nil` rather than empty while there are none, so that making,
    /// copying and dropping a set of small values touches no reference count.
    private var high: [Int]?

    private var values: [Int] { high ?? [] }

    @inline(__always)
    mutating func insert(_ value: Int) {
        if value < 64 {
            low |= 1 &<< UInt64(value)
            return
        }
        insertHigh(value)
    }

    private mutating func insertHigh(_ value: Int) {
        // Past the last value (document order): an append. Otherwise at its place, once.
        guard let position = firstPosition(notBelow: value) else {
            if high == nil { high = [value] } else { high!.append(value) }
            return
        }
        if high![position] != value { high!.insert(value, at: position) }
    }

    /// The values in increasing order.
    var elements: [Int] { (0..<64).filter { low & (1 &<< UInt64($0)) != 0 } + values }

    func contains(_ value: Int) -> Bool {
        if value < 64 { return low & (1 &<< UInt64(value)) != 0 }
        guard let position = firstPosition(notBelow: value) else { return false }
        return values[position] == value
    }

    /// Inlined for the common case, values below 64 on the other side only: an `or`.
    @inline(__always)
    mutating func formUnion(_ other: SortedIndices) {
        low |= other.low
        if other.high != nil { formUnionHigh(other) }
    }

    private mutating func formUnionHigh(_ other: SortedIndices) {
        guard let others = other.high else { return }
        guard let values = high else {
            high = others
            return
        }
        var merged: [Int] = []
        merged.reserveCapacity(values.count + others.count)
        var (left, right) = (0, 0)
        while left < values.count || right < others.count {
            let next: Int
            if right == others.count || (left < values.count && values[left] <= others[right]) {
                next = values[left]
                left += 1
            } else {
                next = others[right]
                right += 1
            }
            if merged.last != next { merged.append(next) }
        }
        high = merged
    }

    /// The position of the first value at least `value`, or `nil` when every one is below it.
    private func firstPosition(notBelow value: Int) -> Int? {
        guard let values = high else { return nil }
        var (start, end) = (0, values.count)
        while start < end {
            let middle = (start + end) / 2
            if values[middle] < value { start = middle + 1 } else { end = middle }
        }
        return start < values.count ? start : nil
    }
}

/// The type bits of a value by its tape tag (``TapeView/tagByte(_:)``), a number literal's aside
/// (`number`; whether it is also an `integer` depends on its value): byte `tag` of a 16-byte table
/// held in two words.
@inline(__always)
private func typeBitsOfTag(_ tag: UInt8) -> UInt8 {
    let low: UInt64 =
        UInt64(JSONTypeName.null.bit) | UInt64(JSONTypeName.boolean.bit) << 8 | UInt64(JSONTypeName.boolean.bit) << 16
        | UInt64(JSONTypeName.number.bit | JSONTypeName.integer.bit) << 24 | UInt64(JSONTypeName.number.bit) << 32
        | UInt64(JSONTypeName.string.bit) << 40 | UInt64(JSONTypeName.string.bit) << 48
        | UInt64(JSONTypeName.array.bit) << 56
    let high: UInt64 = UInt64(JSONTypeName.object.bit) << 8
    let index = UInt64(tag & 15)
    return UInt8(truncatingIfNeeded: index < 8 ? low >> (index &* 8) : high >> ((index &- 8) &* 8))
}

/// The one evaluator of compiled schemas. It reads a parsed document in place (``JSONDocument``'s
/// tape: objects, arrays and keys are walked without building a tree; a value is built only where
/// an error records it), and any other instance is first written to one (``JSONSchema``), so every
/// form of instance gets the same verdicts and errors from the same code.
///
/// `Mode` fixes what it produces (``VerdictMode``, ``ErrorMode``, ``TraceMode``). Not shared between
/// threads: each validation makes its own, for one document.
struct SchemaEvaluator<Mode: EvaluationMode> {
    /// The schema's tables, kept alive by the ``JSONSchema`` whose method makes this evaluator (an
    /// evaluator lives only for that call).
    private unowned(unsafe) let program: TapeProgram
    /// The node evaluation starts from: the schema's root.
    private let entry: Int
    private let tables: TapeTables
    private let maximumReferenceDepth: Int
    private let maximumInstanceDepth: Int
    /// Whether the dynamic scope is kept (``TapeProgram/usesDynamicScope``).
    private let usesDynamicScope: Bool
    /// Whether errors are being recorded now: `Mode.collects`, except while a subschema is only
    /// tested (for `anyOf`, `not`, `if`…).
    private var collecting = Mode.collects
    private let limit: Int
    /// What only recording, the dynamic scope or remembering verdicts need, in a box made when first
    /// needed: the verdict of a plain schema, made for every document, stays small to make and drop.
    private var box: Box?

    /// Reached only through its evaluator, which one thread runs: its variables are read and
    /// written without exclusivity checks (each was two calls into the runtime, on every error and
    /// every step down while errors are recorded).
    final class Box {
        @exclusivity(unchecked) var errors: [SchemaError] = []
        @exclusivity(unchecked) var instancePath: [PathComponent] = []
        @exclusivity(unchecked) var keywordPath: [String] = []
        /// Resource roots entered, outermost first: the dynamic scope (kept only when the schema
        /// has a `$dynamicRef` or `$recursiveRef`).
        @exclusivity(unchecked) var scope: [Int] = []
        /// Verdicts by schema and tape index (`index << 32 | at`): see ``rememberFrom``.
        @exclusivity(unchecked) var memo: [Int: Bool] = [:]
        /// The first limit crossed where errors were not being recorded (inside `not`, `anyOf`…),
        /// so that the result always says why the document was not validated.
        @exclusivity(unchecked) var firstLimit: CrossedLimit?
        /// For the verbose output: the units being built.
        @exclusivity(unchecked) var trace = Trace()
    }

    /// ``box``, made on first use.
    private var state: Box {
        mutating get {
            if let box { return box }
            let made = Box()
            box = made
            return made
        }
    }

    private(set) var errors: [SchemaError] {
        get { box?.errors ?? [] }
        _modify { yield &state.errors }
        set { state.errors = newValue }
    }
    private var instancePath: [PathComponent] {
        get { box?.instancePath ?? [] }
        _modify { yield &state.instancePath }
        set { state.instancePath = newValue }
    }
    private var keywordPath: [String] {
        get { box?.keywordPath ?? [] }
        _modify { yield &state.keywordPath }
        set { state.keywordPath = newValue }
    }
    private var scope: [Int] {
        get { box?.scope ?? [] }
        _modify { yield &state.scope }
        set { state.scope = newValue }
    }
    /// Schemas applied to the current instance without descending into it.
    private var sameInstanceDepth = 0
    /// Schemas applied so far in this document, and how many may be (``TapeProgram/maximumEvaluationSteps``).
    private var steps = 0
    private var budget = Int.max
    /// From this many steps on, each verdict of a schema on a value is remembered and reused
    /// (``Box/memo``), so a schema that reaches the same subschema on the same value along many paths
    /// (`anyOf` of two `$ref`s to itself) costs polynomial time, not exponential. Past the budget,
    /// evaluation stops.
    private var rememberFrom = Int.max
    private var exhausted = false
    /// Set when a limit was crossed (nesting depth, a chain of references, the stack, the steps):
    /// the document is not validated, so its verdict is never "valid".
    private(set) var limitCrossed = false
    /// Errors recorded, nested causes included, and slots kept for the errors of `anyOf` and `oneOf`
    /// whose causes are being collected: together bounded by ``limit``.
    private var recorded = 0
    private var reserved = 0
    /// How deep in the instance evaluation is.
    private var instanceDepth = 0
    /// Where the machine stack runs short (``MachineStack/limit()``), once evaluation goes deep.
    private var stackLimit: UInt?
    /// Whether the stack's address must be asked of AddressSanitizer (``MachineStack/hasFakeStacks``),
    /// found with ``stackLimit``.
    private var asksSanitizer = false
    /// The document being read: a node of it keeps it alive while ``view`` points into it.
    private var anchor: JSONNode?
    private var view = TapeView.empty
    /// ``decimal(_:)``'s last literal (a tape index of this document) and its parts.
    private var decimalAt = -1
    private var decimalValue: DecimalParts?
    /// For the verbose output: the units being built.
    private var trace: Trace? { Mode.traces ? box?.trace : nil }

    /// Reached only through its evaluator's box, as the box is.
    final class Trace {
        /// The open units, outermost first.
        @exclusivity(unchecked) var open: [TraceUnit] = []
        /// The root schema's unit, once evaluation ends.
        @exclusivity(unchecked) var root: TraceUnit?
    }

    /// The root schema's unit, once a traced evaluation ends.
    var tracedRoot: TraceUnit? { trace?.root }

    /// An evaluator for one call of a method of the schema that owns `program`, keeping at most
    /// `limit` errors.
    @inline(__always)
    init(program: TapeProgram, entry: Int, limit: Int = 0) {
        self.program = program
        self.entry = entry
        self.tables = program.tables
        self.maximumReferenceDepth = program.maximumReferenceDepth
        self.maximumInstanceDepth = program.maximumInstanceDepth
        self.usesDynamicScope = program.usesDynamicScope
        self.limit = Mode.collects ? max(1, limit) : 0
        if Mode.collects { box = Box() }
    }

    /// Evaluates the document whose root is `instance`. Invalid when a limit was crossed, with that
    /// limit's `malformed` error among the errors.
    mutating func run(_ instance: JSONNode) -> Bool {
        anchor = instance
        view = instance.tapeView
        decimalAt = -1
        defer {
            anchor = nil
            view = .empty
            decimalAt = -1
        }
        let root = instance.tapeIndex
        let entries = view.next(after: root) - root
        let (scaled, overflow) = entries.multipliedReportingOverflow(by: 1_000)
        budget = program.maximumEvaluationSteps ?? max(10_000_000, overflow ? Int.max : scaled)
        rememberFrom = usesDynamicScope ? budget : min(budget, 16 * entries + 4_096)
        var valid = evaluateUntracked(entry, root)
        if limitCrossed {
            valid = false
            if Mode.collects && !Mode.traces, !errors.contains(where: { $0.code == .malformed }),
                let limitError = limitErrorMade()
            {
                // Why the document was not validated comes first among what the limit keeps.
                if recorded >= limit, !errors.isEmpty { errors.removeLast() }
                errors.append(limitError)
            }
        }
        return valid
    }

    private var full: Bool { recorded + reserved >= limit }

    /// Whether the errors reached the limit, so that there may be more than were recorded.
    var reachedLimit: Bool { Mode.collects && recorded + reserved >= limit }

    private var nodes: [SchemaNode] {
        _read { yield program.nodes }
    }

    /// The value at tape index `at` as a node of the document.
    private func node(_ at: Int) -> JSONNode { anchor!.node(atTapeIndex: at) }

    // MARK: Errors

    @inline(never)
    private mutating func fail(
        _ node: SchemaNode, _ keyword: String, _ code: IssueCode, _ messageKey: String? = nil,
        _ parameters: [String: IssueValue] = [:], at: Int, extra: PathComponent? = nil
    ) {
        guard Mode.collects, collecting, !full else { return }
        let error = makeError(node, keyword, code, messageKey, parameters, at: at, extra: extra)
        if Mode.traces, let trace, !trace.open.isEmpty {
            trace.open[trace.open.count - 1].children.append(TraceUnit(error: error))
            return
        }
        recorded += 1
        errors.append(error)
    }

    /// An error of `keyword` of `node` at the current locations (and `extra` below the value).
    private func makeError(
        _ node: SchemaNode, _ keyword: String, _ code: IssueCode, _ messageKey: String?,
        _ parameters: [String: IssueValue], at: Int, extra: PathComponent?
    ) -> SchemaError {
        var path = instancePath
        if let extra { path.append(extra) }
        let location = keywordLocation(appending: keyword.isEmpty ? nil : keyword)
        return SchemaError(
            instanceLocation: IssuePath(path), keywordLocation: location,
            absoluteKeywordLocation: node.absoluteLocation(of: keyword), keyword: keyword, code: code,
            messageKey: messageKey ?? code.identifier, parameters: parameters,
            failing: .node(self.node(at)))
    }

    /// Whether `index` accepts the value at `at`, without recording errors (for `anyOf`, `not`,
    /// `if`, `contains`…). While tracing, the subschema is applied as any other, so its units are
    /// kept at the keyword location `keyword`/`sub`, on a child of the instance (`component`) or on
    /// the instance itself.
    private mutating func test(
        _ index: Int, _ at: Int, _ evaluated: inout Evaluated?, _ keyword: String, _ sub: String? = nil,
        component: PathComponent? = nil
    ) -> Bool {
        if Mode.traces {
            if let component { return child(index, at, component, keyword, sub) }
            return applyInPlace(index, at, &evaluated, keyword, sub)
        }
        if !Mode.collects { return evaluate(index, at, &evaluated) }
        let saved = collecting
        collecting = false
        defer { collecting = saved }
        return evaluate(index, at, &evaluated)
    }

    private mutating func test(
        _ index: Int, _ at: Int, _ keyword: String, _ sub: String? = nil, component: PathComponent? = nil
    ) -> Bool {
        var none: Evaluated? = nil
        return test(index, at, &none, keyword, sub, component: component)
    }

    // MARK: Descending

    /// Applies `index` to a child of the instance (a member's value or an element, at `at`).
    private mutating func child(
        _ index: Int, _ at: Int, _ component: @autoclosure () -> PathComponent, _ keyword: String,
        _ sub: @autoclosure () -> String? = nil
    ) -> Bool {
        // A child the verdict accepts records nothing: it is settled without keeping locations.
        if Mode.collects && !Mode.traces && collecting && settles(index, at, descending: true) { return true }
        var hasSub = false
        if Mode.collects && collecting {
            let sub = sub()
            hasSub = sub != nil
            pushKeyword(keyword, sub)
            instancePath.append(component())
        }
        instanceDepth += 1
        defer { instanceDepth -= 1 }
        guard instanceDepth <= maximumInstanceDepth else {
            reportTooDeep(index, at)
            if Mode.collects && collecting {
                popKeyword(hasSub: hasSub)
                instancePath.removeLast()
            }
            return false
        }
        let savedDepth = sameInstanceDepth
        sameInstanceDepth = 0
        defer {
            sameInstanceDepth = savedDepth
            if Mode.collects && collecting {
                popKeyword(hasSub: hasSub)
                instancePath.removeLast()
            }
        }
        return evaluateUntracked(index, at)
    }

    /// Whether schema `index` accepts the value at `at` (a child of the current value when
    /// `descending`), decided by the verdict alone: when collecting, what passes needs no locations.
    @inline(never)
    private mutating func settles(_ index: Int, _ at: Int, descending: Bool) -> Bool {
        collecting = false
        defer { collecting = true }
        if descending { return child(index, at) }
        return evaluateUntracked(index, at)
    }

    /// The child of the fast path: no location to keep.
    @inline(__always)
    private mutating func child(_ index: Int, _ at: Int) -> Bool {
        let index = tables.redirects[index]
        // A leaf applies no subschema: its keywords are checked here, without the guards of recursion.
        if tables.leaves[index] && instanceDepth < maximumInstanceDepth && steps &+ 1 < rememberFrom {
            steps &+= 1
            return evaluateLeaf(index, at)
        }
        instanceDepth += 1
        defer { instanceDepth -= 1 }
        guard instanceDepth <= maximumInstanceDepth else {
            reportTooDeep(index, at)
            return false
        }
        let savedDepth = sameInstanceDepth
        sameInstanceDepth = 0
        defer { sameInstanceDepth = savedDepth }
        return evaluateUntracked(index, at)
    }

    // The rare failures of the recursion's guards, out of line: their temporaries would otherwise
    // widen the stack frames of `child` and `evaluate`, which deep instances stack a thousand times.

    @inline(never)
    private mutating func reportTooDeep(_ index: Int, _ at: Int) {
        crossLimit(nodes[index], at, detail: "the value is nested more than \(maximumInstanceDepth) levels deep")
    }

    /// Whether the machine stack has less than ``MachineStack/margin`` left: an address in this
    /// frame, close enough to the stack pointer, against the limit (asked for at every schema
    /// applied below the fourth level, so in line; the limit is found on the first call, out of it).
    @inline(__always)
    private mutating func stackIsShort() -> Bool {
        if let limit = stackLimit, !asksSanitizer {
            var marker: UInt8 = 0
            return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) } < limit
        }
        return stackIsShortFirstOrSanitized()
    }

    @inline(never)
    private mutating func stackIsShortFirstOrSanitized() -> Bool {
        if stackLimit == nil {
            stackLimit = MachineStack.cachedLimit()
            asksSanitizer = MachineStack.hasFakeStacks
        }
        let limit = stackLimit.unsafelyUnwrapped
        if asksSanitizer { return MachineStack.currentAddress() < limit }
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) } < limit
    }

    @inline(never)
    private mutating func reportShortStack(_ node: SchemaNode, _ at: Int) {
        reportOverflow(
            node, at,
            detail:
                "the value is nested too deep for this thread's stack (\(instanceDepth) levels, \(sameInstanceDepth) schemas on the last)"
        )
    }

    @inline(never)
    private mutating func reportReferenceOverflow(_ node: SchemaNode, _ at: Int) {
        reportOverflow(
            node, at,
            detail:
                "schemas apply to this value through more than \(maximumReferenceDepth) references in a row (a $ref cycle?)"
        )
    }

    private mutating func reportOverflow(_ node: SchemaNode, _ at: Int, detail: String) {
        crossLimit(node, at, detail: detail)
    }

    /// Stops evaluation at the step budget: every schema applied after this fails at once.
    @inline(never)
    private mutating func exhaust(_ index: Int, _ at: Int) {
        guard !exhausted else { return }
        exhausted = true
        crossLimit(
            nodes[index], at,
            detail:
                "evaluation applied more than \(budget) schemas to this document (maximumEvaluationSteps); a schema that re-applies itself many times over?"
        )
    }

    /// Records that a limit was crossed: the `malformed` error where errors are being recorded, and
    /// where they are not (inside `not`, `anyOf`…), where and why, for ``run(_:)`` to report.
    private mutating func crossLimit(_ node: SchemaNode, _ at: Int, detail: String) {
        limitCrossed = true
        guard Mode.collects else { return }
        if collecting { fail(node, "", .malformed, "malformed", ["detail": .string(detail)], at: at) }
        // Kept in any case: where errors were not being recorded, or were full, ``run(_:)`` still
        // reports it. Only copies here: the stack may be short, and making an error takes more of it.
        if state.firstLimit == nil {
            state.firstLimit = CrossedLimit(
                detail: detail, node: node, at: at, instancePath: instancePath, keywordPath: keywordPath)
        }
    }

    /// A limit crossed where errors were not being recorded.
    struct CrossedLimit {
        let detail: String
        let node: SchemaNode
        let at: Int
        let instancePath: [PathComponent]
        let keywordPath: [String]
    }

    /// The error of ``Box/firstLimit``, made once evaluation is over.
    private mutating func limitErrorMade() -> SchemaError? {
        guard let crossed = box?.firstLimit else { return nil }
        let (paths, keywords) = (instancePath, keywordPath)
        (instancePath, keywordPath) = (crossed.instancePath, crossed.keywordPath)
        defer { (instancePath, keywordPath) = (paths, keywords) }
        return makeError(
            crossed.node, "", .malformed, "malformed", ["detail": .string(crossed.detail)], at: crossed.at, extra: nil)
    }

    // MARK: Locations and the trace

    /// The JSON Pointer of the evaluation path so far, with `keyword` after it when given.
    private func keywordLocation(appending keyword: String? = nil) -> String {
        PointerText.string(tokens: keywordPath, last: keyword)
    }

    /// Enters `keyword` (and its `sub` entry: a property name, an index) on the evaluation path.
    private mutating func pushKeyword(_ keyword: String, _ sub: String?) {
        keywordPath.append(keyword)
        if let sub { keywordPath.append(sub) }
    }

    /// Leaves what ``pushKeyword(_:_:)`` entered.
    private mutating func popKeyword(hasSub: Bool) {
        keywordPath.removeLast()
        if hasSub { keywordPath.removeLast() }
    }

    /// Closes the traced unit of `node` with its annotations, when tracing; returns `valid`.
    private mutating func finish(_ valid: Bool, _ node: SchemaNode) -> Bool {
        if Mode.traces { closeSchemaUnit(valid, node) }
        return valid
    }

    @inline(never)
    private mutating func closeSchemaUnit(_ valid: Bool, _ node: SchemaNode) {
        if valid {
            for (keyword, annotation) in node.annotations {
                let location = keywordLocation(appending: keyword)
                let top = trace!.open.count - 1
                if let position = trace!.open[top].children.firstIndex(where: { $0.keywordLocation == location }) {
                    trace!.open[top].children[position].annotation = annotation
                } else {
                    var unit = traceUnit(keyword: keyword, node)
                    unit.annotation = annotation
                    trace!.open[top].children.append(unit)
                }
            }
        }
        closeUnit(valid: valid)
    }

    /// Starts the unit of `node` (when `keyword` is `nil`) or of one of its keywords.
    @inline(never)
    private mutating func openUnit(keyword: String?, _ node: SchemaNode) {
        trace!.open.append(traceUnit(keyword: keyword, node))
    }

    /// A unit, still empty, for `node` (when `keyword` is `nil`) or one of its keywords, at the
    /// current locations.
    private func traceUnit(keyword: String?, _ node: SchemaNode) -> TraceUnit {
        TraceUnit(
            keywordLocation: keywordLocation(appending: keyword),
            absoluteKeywordLocation: node.absoluteLocation(of: keyword ?? ""),
            instanceLocation: IssuePath(instancePath).jsonPointer)
    }

    @inline(never)
    private mutating func closeUnit(valid: Bool) {
        var unit = trace!.open.removeLast()
        unit.valid = valid
        if trace!.open.isEmpty {
            trace!.root = unit
        } else {
            trace!.open[trace!.open.count - 1].children.append(unit)
        }
    }

    // MARK: Evaluation

    /// Applies schema `index` to the value at tape index `at`; records in `evaluated` (when given)
    /// which members and items it evaluated.
    @inline(__always)
    mutating func evaluate(_ index: Int, _ at: Int, _ evaluated: inout Evaluated?) -> Bool {
        if evaluated == nil && decidesQuickly(index) { return evaluateQuickly(index, at) }
        return evaluateFully(index, at, &evaluated)
    }

    /// Whether schema `index`, applied where nothing is tracked, needs only its verdict: no error is
    /// being collected and neither it nor a subschema in place tracks evaluated members or items.
    @inline(__always)
    private func decidesQuickly(_ index: Int) -> Bool {
        (!Mode.collects || !collecting) && !tables.tracksEvaluation[index]
    }

    /// ``evaluate(_:_:_:)`` for a caller that tracks nothing: on the verdict's path no tracker is
    /// made (an optional the caller would destroy after every call, out of line, though it is
    /// known to be empty).
    @inline(__always)
    private mutating func evaluateUntracked(_ index: Int, _ at: Int) -> Bool {
        if decidesQuickly(index) { return evaluateQuickly(index, at) }
        var none: Evaluated? = nil
        return evaluateFully(index, at, &none)
    }

    /// A schema applied for its verdict alone, tracking nothing, decided keyword by keyword on the
    /// tape (``TapeKeywordTable``: `required` and `additionalProperties` folded into `properties`)
    /// and stopping at the first failure. Reads the tables only, not the schema's node.
    private mutating func evaluateQuickly(_ index: Int, _ at: Int) -> Bool {
        let index = tables.redirects[index]
        if let flag = tables.booleans[index] { return flag }
        steps &+= 1
        if steps >= rememberFrom { return evaluateRemembering(index, at) }
        // While errors are collected, each level on the way down to a failure first asks the
        // verdict of its children (``settles(_:_:descending:)``), so a value's verdict is asked
        // again at every level above it: a large value's is remembered, and the way down costs its
        // size once instead of once a level. (Not when a verdict may depend on the dynamic scope.)
        if Mode.collects && !usesDynamicScope && view.next(after: at) &- at >= Self.rememberedSpan {
            return evaluateRecalling(index, at)
        }
        return evaluateKeywords(index, at)
    }

    /// The tape entries from which a value's verdict is remembered while errors are collected.
    private static var rememberedSpan: Int { 128 }

    /// ``evaluateKeywords(_:_:)``, its verdict remembered by schema and tape index (see
    /// ``evaluateQuickly(_:_:)`` and ``evaluateRemembering(_:_:)``).
    @inline(never)
    private mutating func evaluateRecalling(_ index: Int, _ at: Int) -> Bool {
        let key = index << 32 | at
        if let known = state.memo[key] { return known }
        let verdict = evaluateKeywords(index, at)
        state.memo[key] = verdict
        return verdict
    }

    /// ``evaluateQuickly(_:_:)`` once evaluation runs long: each verdict remembered (unless the
    /// dynamic scope is kept, on which a verdict may depend), and the budget enforced.
    @inline(never)
    private mutating func evaluateRemembering(_ index: Int, _ at: Int) -> Bool {
        if exhausted { return false }
        if steps > budget {
            exhaust(index, at)
            return false
        }
        if usesDynamicScope { return evaluateKeywords(index, at) }
        return evaluateRecalling(index, at)
    }

    /// The keywords of schema `index` on the value at `at`, for the verdict.
    @inline(__always)
    private mutating func evaluateKeywords(_ index: Int, _ at: Int) -> Bool {
        // The node's `type`, folded out of its keywords (``TapeKeywordTable``): checked first, on
        // the tag, without a keyword's dispatch.
        let typeMask = tables.typeMasks[index]
        if typeMask != 0 && !hasType(typeMask, at) { return false }
        // Undone by hand, not in `defer`s: the compiler made those calls to one function, merged
        // with every other `defer` of the same body.
        sameInstanceDepth += 1
        if crossesRecursionLimit(index, at) {
            sameInstanceDepth -= 1
            return false
        }
        let enteredResource = usesDynamicScope && enterResource(index)
        let verdict = verdictOfKeywords(index, at)
        if enteredResource { scope.removeLast() }
        sameInstanceDepth -= 1
        return verdict
    }

    /// Whether applying schema `index` at `at` (``sameInstanceDepth`` already counting it) goes past
    /// the chain of references allowed or the thread's stack; the limit is reported when it does.
    @inline(__always)
    private mutating func crossesRecursionLimit(_ index: Int, _ at: Int) -> Bool {
        guard sameInstanceDepth <= maximumReferenceDepth else {
            reportReferenceOverflow(nodes[index], at)
            return true
        }
        // The depth limits bound the recursion, not the stack it takes: on a thread with a small
        // stack, a deep document stops here with an error instead of overflowing it.
        if instanceDepth + sameInstanceDepth > 4, stackIsShort() {
            reportShortStack(nodes[index], at)
            return true
        }
        return false
    }

    /// The keywords of leaf `index` (``TapeProgram/isLeaf(_:)``) on the value at `at`, for the verdict:
    /// through the leaf's ``LeafPlan`` when it decides the value, keyword by keyword otherwise.
    @inline(never)
    private mutating func evaluateLeaf(_ index: Int, _ at: Int) -> Bool {
        let typeMask = tables.typeMasks[index]
        if typeMask != 0 && !hasType(typeMask, at) { return false }
        let plan = tables.leafPlans.baseAddress! + index
        if plan.pointee.decides {
            if view.isString(at) {
                if let verdict = plan.pointee.verdict(string: view.stringBytes(at)) { return verdict }
            } else if plan.pointee.strings == nil {
                // Another value may equal one of `enum`'s: only without one are the rest settled here.
                if view.isInt64(at) {
                    let value = DecimalParts(mantissa: view.int64(at), scale: 0)
                    if let verdict = plan.pointee.verdict(number: value) { return verdict }
                } else if view.isNumberText(at) {
                    // The literal's digits as 64-bit parts (`nil` past 18 digits: keyword by keyword).
                    if let value = decimal(at), let verdict = plan.pointee.verdict(number: value) { return verdict }
                } else {
                    return true
                }
            }
        }
        return leafKeywords(index, at)
    }

    /// ``evaluateLeaf(_:_:)`` keyword by keyword, out of line: the general step's large frame is
    /// made only for the values a plan does not decide.
    @inline(never)
    private mutating func leafKeywords(_ index: Int, _ at: Int) -> Bool { verdictOfKeywords(index, at) }

    /// Whether every keyword of `index` in the verdict's table (its `type` aside) accepts the
    /// value at `at`, stopping at the first that does not.
    @inline(__always)
    private mutating func verdictOfKeywords(_ index: Int, _ at: Int) -> Bool {
        let bounds = tables.bounds(of: index)
        var position = bounds.start
        while position < bounds.end {
            let passed = tables.keywords[position]._withUnsafeGuaranteedRef { keyword -> Bool in
                if let verdict = step(keyword, position, at) { return verdict }
                var none: Evaluated? = nil
                return apply(keyword, nodes[index], at, &none)
            }
            if !passed { return false }
            position += 1
        }
        return true
    }

    /// Enters the resource of schema `index` on the dynamic scope unless it is the innermost one
    /// already; returns whether it entered.
    @inline(never)
    private mutating func enterResource(_ index: Int) -> Bool {
        let resource = nodes[index].resourceRoot
        if scope.last == resource { return false }
        scope.append(resource)
        return true
    }

    /// A schema applied recording errors, a trace, or which members and items it evaluated: keyword
    /// by keyword as written.
    private mutating func evaluateFully(_ index: Int, _ at: Int, _ evaluated: inout Evaluated?) -> Bool {
        if !Mode.traces && (!Mode.collects || !collecting) { return evaluateTracking(index, at, &evaluated) }
        let node = nodes[index]
        steps &+= 1
        if exhausted || steps > budget {
            exhaust(index, at)
            return false
        }
        if Mode.traces { openUnit(keyword: nil, node) }
        if let flag = node.boolean {
            if !flag { fail(node, "", .notAllowed, "schema.false", at: at) }
            return finish(flag, node)
        }
        sameInstanceDepth += 1
        defer { sameInstanceDepth -= 1 }
        if crossesRecursionLimit(index, at) { return finish(false, node) }
        let enteredResource = usesDynamicScope && enterResource(index)
        defer { if enteredResource { scope.removeLast() } }

        var tracker: Evaluated? = (evaluated != nil || node.tracksEvaluation) ? Evaluated() : nil
        var valid = true
        let bounds = tables.writtenBounds(of: index)
        for position in bounds.start..<bounds.end {
            let passed = tables.written[position]._withUnsafeGuaranteedRef { keyword -> Bool in
                if Mode.traces { openUnit(keyword: keyword.name, node) }
                let passed = apply(keyword, node, at, &tracker)
                if Mode.traces { closeUnit(valid: passed) }
                return passed
            }
            if !passed {
                valid = false
                if !collecting || full { return finish(false, node) }
            }
        }
        if valid, evaluated != nil, let tracker { evaluated!.merge(tracker) }
        return finish(valid, node)
    }

    /// ``evaluateFully(_:_:_:)`` for the verdict alone, tracking which members and items the schema
    /// evaluated (for `unevaluatedProperties` and `unevaluatedItems`): keyword by keyword as written,
    /// read from the tables without counting references, and the keywords that evaluate no member
    /// or item (`type`, bounds, `enum`, `pattern`, `required`…) decided on the tape by ``step``
    /// (which reads `position` only for `properties`, a keyword that evaluates members and so is
    /// applied here, never stepped: the positions of this table are not the verdict table's).
    private mutating func evaluateTracking(_ index: Int, _ at: Int, _ evaluated: inout Evaluated?) -> Bool {
        steps &+= 1
        if exhausted || steps > budget {
            exhaust(index, at)
            return false
        }
        if let flag = tables.booleans[index] { return flag }
        // Undone by hand, not in `defer`s (see ``evaluateKeywords(_:_:)``).
        sameInstanceDepth += 1
        if crossesRecursionLimit(index, at) {
            sameInstanceDepth -= 1
            return false
        }
        let enteredResource = usesDynamicScope && enterResource(index)

        var tracker: Evaluated? = (evaluated != nil || tables.tracksEvaluation[index]) ? Evaluated() : nil
        let bounds = tables.writtenBounds(of: index)
        var position = bounds.start
        var valid = true
        while position < bounds.end {
            let passed = tables.written[position]._withUnsafeGuaranteedRef { keyword -> Bool in
                if keyword.step.evaluatesNothing, let verdict = step(keyword, position, at) { return verdict }
                return tables.nodes[index]._withUnsafeGuaranteedRef { apply(keyword, $0, at, &tracker) }
            }
            if !passed {
                valid = false
                break
            }
            position += 1
        }
        if valid, evaluated != nil, let tracker { evaluated!.merge(tracker) }
        if enteredResource { scope.removeLast() }
        sameInstanceDepth -= 1
        return valid
    }

    /// The keywords decided on the tape from ``Keyword/step`` and the keyword's plain fields (no
    /// copy of its enum payload, no value built); `nil` where ``apply`` must decide. Only for the
    /// verdict: nothing is recorded. `position` is the keyword's place in ``TapeTables``.
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
            return evaluateUntracked(Int(limit), at)
        case .maximum, .exclusiveMaximum, .minimum, .exclusiveMinimum:
            guard let order = order(at, limit) else { return view.isInt64(at) || view.isNumberText(at) ? nil : true }
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
            if let distinct = view.distinctStrings(inArrayAt: at) { return distinct }
            return node(at).distinctIntegers
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
            guard view.isString(at) else { return true }
            return keyword.regex?.firstMatchExists(utf8: view.stringBytes(at))
        case .prefixItems:
            guard view.isArray(at) else { return true }
            let targets = keyword.targets
            var element = view.firstChild(at)
            let end = view.end(at)
            var index = 0
            while element < end && index < targets.count {
                if !child(targets[index], element) { return false }
                index += 1
                element = view.next(after: element)
            }
            return true
        case .allOf:
            for target in keyword.targets {
                if !evaluateUntracked(target, at) { return false }
            }
            return true
        case .anyOf, .oneOf:
            // Alternatives that cannot accept the value's type fail untried.
            let types = typeBits(at)
            var matches = 0
            for target in keyword.targets where tables.acceptedTypes[target] & types != 0 {
                guard evaluateUntracked(target, at) else { continue }
                if keyword.step == .anyOf { return true }
                matches += 1
                if matches > 1 { return false }
            }
            return matches == 1
        case .multipleOf:
            let value: DecimalParts
            if view.isInt64(at) {
                value = DecimalParts(mantissa: view.int64(at), scale: 0)
            } else if view.isNumberText(at), let parts = decimal(at) {
                value = parts
            } else {
                return view.isNumberText(at) ? nil : true
            }
            return value.isMultiple(ofMantissa: limit, scale: keyword.secondOperand)
        }
    }

    /// The sign of the number at `at` minus `bound`, when it is decided without a ``JSONNumber``.
    @inline(__always)
    private mutating func order(_ at: Int, _ bound: Int64) -> Int? {
        if view.isInt64(at) {
            let value = view.int64(at)
            return value < bound ? -1 : value == bound ? 0 : 1
        }
        guard view.isNumberText(at) else { return nil }
        if let parts = decimal(at) { return parts.compare(with: bound) }
        return Self.compare(literal: view.numberLiteral(at), with: bound)
    }

    /// The number literal at `at` as ``DecimalParts`` (`nil` when it has more than 18 digits),
    /// remembered for the last literal asked about: the bounds and `multipleOf` of a schema read
    /// its digits once.
    @inline(__always)
    private mutating func decimal(_ at: Int) -> DecimalParts? {
        if decimalAt != at {
            decimalAt = at
            decimalValue = DecimalParts(view.numberLiteral(at))
        }
        return decimalValue
    }

    /// The sign of `literal - bound` for a number literal without an exponent and with at most 18
    /// integer digits, exactly: the integer part decides, and the fraction only breaks a tie. `nil`
    /// for other literals (compared as ``JSONNumber``s).
    static func compare(literal: UnsafeBufferPointer<UInt8>, with bound: Int64) -> Int? {
        guard !literal.isEmpty, bound != Int64.min else { return nil }
        var index = 0
        let negative = literal[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        var integer: Int64 = 0
        var digits = 0
        while index < literal.count, literal[index] >= 0x30 && literal[index] <= 0x39 {
            // A 19th digit could overflow: such literals are compared as ``JSONNumber``s.
            if digits == 18 { return nil }
            integer = integer * 10 + Int64(literal[index] - 0x30)
            digits += 1
            index += 1
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
        let tag = view.tagByte(at)
        if tag == 4 {  // a number literal: an integer when its value is integral (`1.0`, `1e3`)
            return JSONTypeName.number.bit | (node(at).isIntegralNumber ? JSONTypeName.integer.bit : 0)
        }
        return typeBitsOfTag(tag)
    }

    /// Whether the value at `at` is of a type `mask` names (a `type` keyword's bits): a number
    /// literal is a `number` whatever its integrality, an `integer` when integral.
    @inline(__always)
    private func hasType(_ mask: UInt8, _ at: Int) -> Bool {
        let tag = view.tagByte(at)
        if tag == 4 {
            if mask & JSONTypeName.number.bit != 0 { return true }
            return mask & JSONTypeName.integer.bit != 0 && node(at).isIntegralNumber
        }
        return typeBitsOfTag(tag) & mask != 0
    }

    /// The name of the member whose value is at `value` (its key is the entry two before).
    private func memberName(_ value: Int) -> String { view.memberName(value) }

    /// The UTF-8 of the live keys of the object at `at`.
    private func liveKeys(_ at: Int) -> Set<[UInt8]> {
        var keys = Set<[UInt8]>()
        _ = view.allMembers(inObjectAt: at) { key, _ in
            keys.insert(Array(key))
            return true
        }
        return keys
    }

    /// The value index of the member named `name` in the object at `at`.
    private func member(_ name: String, _ at: Int) -> Int? {
        var name = name
        return name.withUTF8 { view.member(named: $0, inObjectAt: at, from: 0) }
    }

    /// Whether `regex` finds a match in the string (or key) at `at`, read as UTF-8 in place.
    private func matches(_ regex: LinearRegex, _ at: Int) -> Bool {
        regex.firstMatchExists(utf8: view.stringBytes(at))
    }

    // MARK: Keywords

    private mutating func apply(_ keyword: Keyword, _ node: SchemaNode, _ at: Int, _ tracker: inout Evaluated?)
        -> Bool
    {
        switch keyword.kind {
        case .properties(let list): return applyProperties(keyword, at, &tracker, list)
        case .patternProperties(let list): return applyPatternProperties(keyword, at, &tracker, list)
        case .additionalProperties(let target, _, let patterns):
            return applyAdditionalProperties(keyword, node, at, &tracker, target, patterns)
        case .propertyNames(let target): return applyPropertyNames(keyword, node, at, target)
        case .dependentSchemas(let pairs): return applyDependentSchemas(keyword, at, &tracker, pairs)
        case .prefixItems(let schemas), .itemsArray(let schemas):
            return applyPrefixItems(keyword, at, &tracker, schemas)
        case .items(let target, let after), .additionalItems(let target, let after):
            return applyItems(keyword, at, &tracker, target, after)
        case .contains(let target, let minimum, let maximum):
            return applyContains(keyword, node, at, &tracker, target, minimum, maximum)
        case .unevaluatedItems(let target): return applyUnevaluatedItems(keyword, node, at, &tracker, target)
        case .unevaluatedProperties(let target): return applyUnevaluatedProperties(keyword, node, at, &tracker, target)
        case .allOf(let schemas): return applyAllOf(keyword, at, &tracker, schemas)
        case .anyOf(let schemas): return applyAnyOf(keyword, node, at, &tracker, schemas)
        case .oneOf(let schemas): return applyOneOf(keyword, node, at, &tracker, schemas)
        case .not(let target):
            if !test(target, at, keyword.name) { return true }
            fail(node, keyword.name, .notAllowed, "schema.not", at: at)
            return false
        case .conditional(let condition, let then, let otherwise):
            var branch: Evaluated? = tracker != nil ? Evaluated() : nil
            if test(condition, at, &branch, "if") {
                if tracker != nil, let branch { tracker!.merge(branch) }
                guard let then else { return true }
                return applyInPlace(then, at, &tracker, "then")
            }
            guard let otherwise else { return true }
            return applyInPlace(otherwise, at, &tracker, "else")
        case .ref(let target): return applyInPlace(target, at, &tracker, keyword.name)
        case .dynamicRef(let target, let anchor):
            var resolved = target
            if let anchor {
                for resource in scope {
                    if let found = nodes[resource].dynamicAnchors[anchor] {
                        resolved = found
                        break
                    }
                }
            }
            return applyInPlace(resolved, at, &tracker, keyword.name)
        case .recursiveRef(let target):
            var resolved = target
            if nodes[target].recursiveAnchor {
                for resource in scope where nodes[resource].recursiveAnchor {
                    resolved = resource
                    break
                }
            }
            return applyInPlace(resolved, at, &tracker, keyword.name)
        default:
            return check(keyword, node, at)
        }
    }

    /// An in-place subschema whose annotations count for the current schema when it passes.
    private mutating func applyInPlace(
        _ target: Int, _ at: Int, _ tracker: inout Evaluated?, _ keyword: String,
        _ sub: @autoclosure () -> String? = nil
    ) -> Bool {
        if Mode.collects && !Mode.traces && collecting && tracker == nil && settles(target, at, descending: false) {
            return true
        }
        // The location's entries are made only where errors are recorded.
        let recording = Mode.collects && collecting
        let entry = recording ? sub() : nil
        if recording { pushKeyword(keyword, entry) }
        defer { if recording { popKeyword(hasSub: entry != nil) } }
        guard tracker != nil else {
            return evaluateUntracked(target, at)
        }
        var branch: Evaluated? = Evaluated()
        let valid = evaluate(target, at, &branch)
        if valid, let branch { tracker!.merge(branch) }
        return valid
    }

    private mutating func applyProperties(
        _ keyword: Keyword, _ at: Int, _ tracker: inout Evaluated?, _ list: [(String, Int)]
    ) -> Bool {
        guard view.isObject(at) else { return true }
        var valid = true
        // Keys matched as UTF-8 bytes (code point for code point), each search starting after the
        // property matched last: members written in the order of `properties` match at once.
        let names = keyword.utf8Names
        var next = 0
        var ordinal = -1
        if !Mode.collects || !collecting {
            // For the verdict: each member's schema from ``Keyword/targets``, no location kept.
            let targets = keyword.targets
            return view.allMembers(inObjectAt: at) { key, value in
                ordinal += 1
                guard names.mayContain(key), let position = names.position(of: key, from: next) else { return true }
                next = position + 1
                if tracker != nil { tracker!.members.insert(ordinal) }
                return child(targets[position], value)
            }
        }
        _ = view.allMembers(inObjectAt: at) { key, value in
            ordinal += 1
            guard let position = names.position(of: key, from: next) else { return true }
            next = position + 1
            if tracker != nil { tracker!.members.insert(ordinal) }
            if !child(list[position].1, value, .key(list[position].0), keyword.name, list[position].0) {
                valid = false
                if !collecting || full { return false }
            }
            return true
        }
        return valid
    }

    private mutating func applyPatternProperties(
        _ keyword: Keyword, _ at: Int, _ tracker: inout Evaluated?, _ list: [(LinearRegex, Int)]
    ) -> Bool {
        let view = self.view
        guard view.isObject(at) else { return true }
        var valid = true
        var ordinal = -1
        _ = view.allMembers(inObjectAt: at) { _, value in
            ordinal += 1
            for (regex, target) in list where matches(regex, value - 2) {
                if tracker != nil { tracker!.members.insert(ordinal) }
                if !child(target, value, .key(view.memberName(value)), keyword.name, regex.source) {
                    valid = false
                    if !collecting || full { return false }
                }
            }
            return true
        }
        return valid
    }

    private mutating func applyAdditionalProperties(
        _ keyword: Keyword, _ node: SchemaNode, _ at: Int, _ tracker: inout Evaluated?, _ target: Int,
        _ patterns: [LinearRegex]
    ) -> Bool {
        let view = self.view
        guard view.isObject(at) else { return true }
        var valid = true
        let rejectsAll = nodes[target].boolean == false
        let known = keyword.utf8Names
        var next = 0
        var ordinal = -1
        _ = view.allMembers(inObjectAt: at) { key, value in
            ordinal += 1
            if let position = known.position(of: key, from: next) {
                next = position + 1
                return true
            }
            if patterns.contains(where: { matches($0, value - 2) }) { return true }
            if tracker != nil { tracker!.members.insert(ordinal) }
            if rejectsAll {
                valid = false
                if !collecting { return false }
                let name = memberName(value)
                fail(node, keyword.name, .unknownKey, nil, ["key": .string(name)], at: value, extra: .key(name))
                if full { return false }
            } else if !child(target, value, .key(view.memberName(value)), keyword.name) {
                valid = false
                if !collecting || full { return false }
            }
            return true
        }
        return valid
    }

    private mutating func applyPropertyNames(_ keyword: Keyword, _ node: SchemaNode, _ at: Int, _ target: Int)
        -> Bool
    {
        let view = self.view
        guard view.isObject(at) else { return true }
        var valid = true
        // The schema is applied to each key: a string entry on the tape, two before its value.
        _ = view.allMembers(inObjectAt: at) { _, value in
            if test(target, value - 2, keyword.name, component: .key(view.memberName(value))) { return true }
            valid = false
            if !collecting { return false }
            let name = memberName(value)
            fail(
                node, keyword.name, .notAllowed, "schema.propertyName", ["key": .string(name)], at: value - 2,
                extra: .key(name))
            return true
        }
        return valid
    }

    private mutating func applyDependentSchemas(
        _ keyword: Keyword, _ at: Int, _ tracker: inout Evaluated?, _ pairs: [(String, Int)]
    ) -> Bool {
        guard view.isObject(at) else { return true }
        var valid = true
        for (trigger, target) in pairs where member(trigger, at) != nil {
            if !applyInPlace(target, at, &tracker, keyword.name, trigger) {
                valid = false
                if !collecting || full { return false }
            }
        }
        return valid
    }

    private mutating func applyPrefixItems(
        _ keyword: Keyword, _ at: Int, _ tracker: inout Evaluated?, _ schemas: [Int]
    ) -> Bool {
        guard view.isArray(at) else { return true }
        var valid = true
        var element = view.firstChild(at)
        let end = view.end(at)
        var position = 0
        while element < end && position < schemas.count {
            if !child(schemas[position], element, .index(position), keyword.name, String(position)) {
                valid = false
                if !collecting || full { return false }
            }
            position += 1
            element = view.next(after: element)
        }
        if tracker != nil { tracker!.itemsPrefix = max(tracker!.itemsPrefix, position) }
        return valid
    }

    private mutating func applyItems(
        _ keyword: Keyword, _ at: Int, _ tracker: inout Evaluated?, _ target: Int, _ after: Int
    ) -> Bool {
        guard view.isArray(at) else { return true }
        var valid = true
        var element = view.firstChild(at)
        let end = view.end(at)
        var position = 0
        while element < end {
            if position >= after && !child(target, element, .index(position), keyword.name) {
                valid = false
                if !collecting || full { return false }
            }
            position += 1
            element = view.next(after: element)
        }
        if tracker != nil { tracker!.allItems = true }
        return valid
    }

    private mutating func applyContains(
        _ keyword: Keyword, _ node: SchemaNode, _ at: Int, _ tracker: inout Evaluated?, _ target: Int,
        _ minimum: Int, _ maximum: Int?
    ) -> Bool {
        guard view.isArray(at) else { return true }
        var matches = 0
        let recordIndices = tracker != nil && node.dialect.draft >= .draft2020
        var element = view.firstChild(at)
        let end = view.end(at)
        var position = 0
        while element < end {
            if test(target, element, keyword.name, component: .index(position)) {
                matches += 1
                if recordIndices { tracker!.itemIndices.insert(position) }
                if !recordIndices, maximum == nil, matches >= minimum, !Mode.traces { break }
            }
            position += 1
            element = view.next(after: element)
        }
        if matches < minimum {
            fail(node, keyword.name, .tooFew, "schema.contains", keyword.failure, at: at)
            return false
        }
        if let maximum, matches > maximum {
            fail(node, "maxContains", .tooMany, "schema.maxContains", keyword.secondFailure, at: at)
            return false
        }
        return true
    }

    private mutating func applyUnevaluatedItems(
        _ keyword: Keyword, _ node: SchemaNode, _ at: Int, _ tracker: inout Evaluated?, _ target: Int
    ) -> Bool {
        guard view.isArray(at), let seen = tracker else { return true }
        var valid = true
        var element = view.firstChild(at)
        let end = view.end(at)
        var position = 0
        while element < end {
            defer {
                position += 1
                element = view.next(after: element)
            }
            if seen.hasItem(position) { continue }
            if nodes[target].boolean == false {
                valid = false
                if !collecting { return false }
                fail(node, keyword.name, .notAllowed, "schema.unevaluated", at: element, extra: .index(position))
            } else if !child(target, element, .index(position), keyword.name) {
                valid = false
                if !collecting || full { return false }
            }
        }
        tracker!.allItems = true
        return valid
    }

    private mutating func applyUnevaluatedProperties(
        _ keyword: Keyword, _ node: SchemaNode, _ at: Int, _ tracker: inout Evaluated?, _ target: Int
    ) -> Bool {
        let view = self.view
        guard view.isObject(at), let seen = tracker else { return true }
        var valid = true
        var ordinal = -1
        _ = view.allMembers(inObjectAt: at) { _, value in
            ordinal += 1
            if seen.hasMember(ordinal) { return true }
            if nodes[target].boolean == false {
                valid = false
                if !collecting { return false }
                let name = memberName(value)
                fail(node, keyword.name, .unknownKey, nil, ["key": .string(name)], at: value, extra: .key(name))
            } else if !child(target, value, .key(view.memberName(value)), keyword.name) {
                valid = false
                if !collecting || full { return false }
            }
            return true
        }
        tracker!.allMembers = true
        return valid
    }

    private mutating func applyAllOf(_ keyword: Keyword, _ at: Int, _ tracker: inout Evaluated?, _ schemas: [Int])
        -> Bool
    {
        var valid = true
        for (position, target) in schemas.enumerated()
        where !applyInPlace(target, at, &tracker, keyword.name, String(position)) {
            valid = false
            if !collecting || full { return false }
        }
        return valid
    }

    private mutating func applyAnyOf(
        _ keyword: Keyword, _ node: SchemaNode, _ at: Int, _ tracker: inout Evaluated?, _ schemas: [Int]
    ) -> Bool {
        var matched = false
        let types = Mode.traces ? 0x7F : typeBits(at)
        for (position, target) in schemas.enumerated() {
            // An alternative that cannot accept the value's type fails untried (its errors, if
            // wanted, come from ``branchErrors``).
            if tables.acceptedTypes[target] & types == 0 { continue }
            var branch: Evaluated? = tracker != nil ? Evaluated() : nil
            if test(target, at, &branch, keyword.name, String(position)) {
                matched = true
                guard tracker != nil, let branch else {
                    if Mode.traces { continue }
                    break
                }
                tracker!.merge(branch)
            }
        }
        if matched { return true }
        reserved += 1
        let causes = branchErrors(schemas, at, keyword.name)
        reserved -= 1
        let before = errors.count
        fail(node, keyword.name, .noMatch, nil, ["count": .integer(schemas.count)], at: at)
        attach(causes, after: before)
        return false
    }

    private mutating func applyOneOf(
        _ keyword: Keyword, _ node: SchemaNode, _ at: Int, _ tracker: inout Evaluated?, _ schemas: [Int]
    ) -> Bool {
        var matches = 0
        var kept: Evaluated? = nil
        let types = Mode.traces ? 0x7F : typeBits(at)
        for (position, target) in schemas.enumerated() {
            if tables.acceptedTypes[target] & types == 0 { continue }
            var branch: Evaluated? = tracker != nil ? Evaluated() : nil
            if test(target, at, &branch, keyword.name, String(position)) {
                matches += 1
                kept = branch
                if matches > 1 && !Mode.traces { break }
            }
        }
        if matches == 1 {
            if tracker != nil, let kept { tracker!.merge(kept) }
            return true
        }
        if matches == 0 {
            reserved += 1
            let causes = branchErrors(schemas, at, keyword.name)
            reserved -= 1
            let before = errors.count
            fail(node, keyword.name, .noMatch, nil, ["count": .integer(schemas.count)], at: at)
            attach(causes, after: before)
        } else {
            fail(node, keyword.name, .noMatch, "schema.oneOf.many", ["count": .integer(matches)], at: at)
        }
        return false
    }

    /// When collecting, the errors each of `schemas` finds in the value at `at` (for an `anyOf` or
    /// a `oneOf` that nothing matched); empty otherwise. An alternative that a discriminating
    /// property rules out (the object's `"type": "Polygon"` where it requires `"Point"`) adds no
    /// errors when another that takes objects is left: the errors are those of the variants the
    /// value claims to be. (Left with none, the value claims none — `{"level": "info"}` beside
    /// a rule whose optional `level` is `"error"` or `"warning"`, and a string's `enum`: every
    /// alternative's errors.)
    private mutating func branchErrors(_ schemas: [Int], _ at: Int, _ keyword: String) -> [SchemaError] {
        guard Mode.collects, !Mode.traces, collecting, !full else { return [] }
        var tried = Array(schemas.indices)
        if view.isObject(at) {
            let left = tried.filter { !isRuledOut(schemas[$0], at) }
            if left.contains(where: { tables.acceptedTypes[schemas[$0]] & JSONTypeName.object.bit != 0 }) {
                tried = left
            }
        }
        let saved = errors
        errors = []
        for position in tried {
            var none: Evaluated? = nil
            _ = applyInPlace(schemas[position], at, &none, keyword, String(position))
        }
        let found = errors
        errors = saved
        return found
    }

    /// Whether the object at `at` has a member that one of `index`'s discriminators does not allow.
    private func isRuledOut(_ index: Int, _ at: Int) -> Bool {
        for discriminator in program.discriminators[index] {
            let found = discriminator.name.withUnsafeBufferPointer { name in
                view.member(named: name, inObjectAt: at, from: at + 2)
            }
            guard let found else { continue }
            if view.isString(found) {
                // A string tag is compared in place, byte for byte (so code point for code point).
                let bytes = view.stringBytes(found)
                let allowed = discriminator.allowed.contains { value in
                    guard case .string(let text) = value else { return false }
                    return text.utf8.elementsEqual(bytes)
                }
                if !allowed { return true }
            } else if view.isObject(found) || view.isArray(found) {
                // A container is built only to be compared with containers the schema allows.
                let containers = discriminator.allowed.filter { $0.array != nil || $0.object != nil }
                if containers.isEmpty || !containers.contains(node(found).value) { return true }
            } else if !discriminator.allowed.contains(node(found).value) {
                return true
            }
        }
        return false
    }

    /// Attaches `causes` to the error recorded after there were `before` errors, if one was.
    private mutating func attach(_ causes: [SchemaError], after before: Int) {
        guard !causes.isEmpty, errors.count == before + 1 else { return }
        errors[before].causes = causes
    }

    // MARK: Assertions

    /// The assertions: keywords that look at the value itself and apply no subschema. Kept out of
    /// ``apply`` so the recursion through applicators keeps small stack frames.
    @inline(never)
    private mutating func check(_ keyword: Keyword, _ node: SchemaNode, _ at: Int) -> Bool {
        let view = self.view
        switch keyword.kind {
        case .type:
            if view.isNumberText(at) && keyword.typeMask & JSONTypeName.number.bit != 0 { return true }
            if typeBits(at) & keyword.typeMask != 0 { return true }
            fail(node, keyword.name, .typeMismatch, nil, keyword.typeFailures[self.node(at).kind.index], at: at)
            return false

        case .enumeration(let allowed, let set):
            if view.isString(at) {
                if keyword.utf8Names.contains(view.stringBytes(at)) { return true }
            } else {
                let value = self.node(at).value
                // JSONValue hashing agrees with its (code point) equality, so the set answers exactly.
                if let set { if set.contains(value) { return true } } else if allowed.contains(value) { return true }
            }
            fail(node, keyword.name, .notAllowed, nil, keyword.failure, at: at)
            return false

        case .constant(let expected):
            if view.isString(at) {
                if keyword.utf8Names.count == 1 && keyword.utf8Names.contains(view.stringBytes(at)) { return true }
            } else if expected == self.node(at).value {
                return true
            }
            fail(node, keyword.name, .notAllowed, "schema.const", keyword.failure, at: at)
            return false

        case .multipleOf(let divisor):
            guard let number = self.node(at).number else { return true }
            if number.isMultiple(of: divisor) { return true }
            fail(node, keyword.name, .notMultiple, nil, keyword.failure, at: at)
            return false

        case .maximum(let limit, let exclusive):
            guard view.isInt64(at) || view.isNumberText(at) else { return true }
            let ok: Bool
            if let bound = limit.int64, let order = order(at, bound) {
                ok = exclusive ? order < 0 : order <= 0
            } else {
                let number = self.node(at).number!
                ok = exclusive ? number < limit : number <= limit
            }
            if ok { return true }
            fail(node, keyword.name, .tooLarge, exclusive ? "tooLarge.exclusive" : "tooLarge", keyword.failure, at: at)
            return false

        case .minimum(let limit, let exclusive):
            guard view.isInt64(at) || view.isNumberText(at) else { return true }
            let ok: Bool
            if let bound = limit.int64, let order = order(at, bound) {
                ok = exclusive ? order > 0 : order >= 0
            } else {
                let number = self.node(at).number!
                ok = exclusive ? number > limit : number >= limit
            }
            if ok { return true }
            fail(node, keyword.name, .tooSmall, exclusive ? "tooSmall.exclusive" : "tooSmall", keyword.failure, at: at)
            return false

        case .maxLength(let limit):
            guard view.isString(at), !StringLength.isAtMost(limit, utf8: view.stringBytes(at)) else { return true }
            fail(node, keyword.name, .tooLong, nil, keyword.failure, at: at)
            return false

        case .minLength(let limit):
            guard view.isString(at), !StringLength.isAtLeast(limit, utf8: view.stringBytes(at)) else { return true }
            fail(node, keyword.name, .tooShort, nil, keyword.failure, at: at)
            return false

        case .pattern(let regex):
            guard view.isString(at), !matches(regex, at) else { return true }
            fail(node, keyword.name, .patternMismatch, nil, keyword.failure, at: at)
            return false

        case .format(.rfc1123Hostname):
            guard view.isString(at) else { return true }
            if Hostname.isValid(string(at), international: false, idna: false) { return true }
            fail(node, keyword.name, .invalidFormat("hostname"), "invalidFormat", keyword.failure, at: at)
            return false

        case .content(let base64, let json):
            guard view.isString(at) else { return true }
            let text = string(at)
            var bytes = Array(text.utf8)
            var ok = true
            if base64 {
                if let decoded = Data(base64Encoded: text) { bytes = [UInt8](decoded) } else { ok = false }
            }
            if ok && json { ok = (try? JSONValue(parsing: bytes)) != nil }
            if ok { return true }
            fail(node, keyword.name, .invalidFormat(keyword.name), "invalidFormat", keyword.failure, at: at)
            return false

        case .format(let check):
            guard case .known(let format) = check, view.isString(at) else { return true }
            if let verdict = keyword.byteFormat?.verdict(utf8: view.stringBytes(at)) {
                if verdict { return true }
            } else if format.isValid(string(at)) {
                return true
            }
            fail(node, keyword.name, .invalidFormat(format.rawValue), "invalidFormat", keyword.failure, at: at)
            return false

        case .formatBound(let format, let bound, let isMaximum, let exclusive):
            guard view.isString(at), let order = FormatOrder.compare(string(at), bound, format) else { return true }
            let ok: Bool
            if isMaximum { ok = exclusive ? order < 0 : order <= 0 } else { ok = exclusive ? order > 0 : order >= 0 }
            if ok { return true }
            let prefix = isMaximum ? "date.tooLarge" : "date.tooSmall"
            fail(
                node, keyword.name, isMaximum ? .tooLarge : .tooSmall, prefix + (exclusive ? ".exclusive" : ""),
                keyword.failure, at: at)
            return false

        case .maxItems(let limit):
            guard view.isArray(at), view.count(at) > limit else { return true }
            fail(node, keyword.name, .tooMany, nil, keyword.failure, at: at)
            return false

        case .minItems(let limit):
            guard view.isArray(at), view.count(at) < limit else { return true }
            fail(node, keyword.name, .tooFew, nil, keyword.failure, at: at)
            return false

        case .uniqueItems:
            guard view.isArray(at), view.count(at) > 1 else { return true }
            if self.node(at).distinctStrings == true { return true }
            guard case .array(let elements) = self.node(at).value else { return true }
            if let duplicate = Self.firstDuplicate(elements) {
                fail(
                    node, keyword.name, .notUnique, "notUnique.elements",
                    ["duplicate": .string(Keyword.excerpt(duplicate.jsonString()))],
                    at: at)
                return false
            }
            return true

        case .maxProperties(let limit):
            guard view.isObject(at), liveMembers(at) > limit else { return true }
            fail(node, keyword.name, .tooMany, "schema.tooManyProperties", keyword.failure, at: at)
            return false

        case .minProperties(let limit):
            guard view.isObject(at), liveMembers(at) < limit else { return true }
            fail(node, keyword.name, .tooFew, "schema.tooFewProperties", keyword.failure, at: at)
            return false

        case .required(let names):
            // Names compared as UTF-8 bytes, code point for code point.
            guard view.isObject(at) else { return true }
            if view.hasMembers(keyword.utf8Names, inObjectAt: at) { return true }
            if !collecting { return false }
            let list = keyword.utf8Names
            guard names.count > 4 else {
                for (position, name) in names.enumerated()
                where view.member(named: list[position], inObjectAt: at, from: 0) == nil {
                    fail(node, keyword.name, .missing, nil, [:], at: at, extra: .key(name))
                }
                return false
            }
            // A long list in one pass over the members: each key marks the first of the names equal
            // to it, and a name is missing when the first name equal to it is unmarked.
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: (list.count + 63) / 64) { marked in
                marked.initialize(repeating: 0)
                _ = view.allMembers(inObjectAt: at) { key, _ in
                    if let first = list.position(of: key, from: 0) { marked[first >> 6] |= 1 &<< UInt64(first & 63) }
                    return true
                }
                for (position, name) in names.enumerated() {
                    let first = list.position(of: list[position], from: 0) ?? position
                    if marked[first >> 6] & 1 &<< UInt64(first & 63) == 0 {
                        fail(node, keyword.name, .missing, nil, [:], at: at, extra: .key(name))
                    }
                }
            }
            return false

        case .dependentRequired(let pairs):
            guard view.isObject(at) else { return true }
            // Many names on a large object are compared with its keys gathered once, not each searched
            // for (a search costs the object's size; gathering, an allocation a key).
            let names = pairs.reduce(0) { $0 + 1 + $1.1.count }
            let members = view.count(at)
            let keys = names > 8 && names * members > 16 * (names + members) ? liveKeys(at) : nil
            func has(_ name: String) -> Bool {
                keys.map { $0.contains(Array(name.utf8)) } ?? (member(name, at) != nil)
            }
            var valid = true
            for (trigger, names) in pairs where has(trigger) {
                for name in names where !has(name) {
                    valid = false
                    if !collecting { return false }
                    fail(
                        node, keyword.name, .missing, "schema.dependentRequired", ["dependency": .string(trigger)],
                        at: at, extra: .key(name))
                }
            }
            return valid

        default:
            return true
        }
    }

    /// The string at `at`.
    private func string(_ at: Int) -> String { String(decoding: view.stringBytes(at), as: UTF8.self) }

    /// The members of the object at `at` that a duplicate-key policy kept.
    private func liveMembers(_ at: Int) -> Int {
        var count = 0
        _ = view.allMembers(inObjectAt: at) { _, _ in
            count += 1
            return true
        }
        return count
    }

    /// The first element equal to an earlier one, as JSON Schema compares values.
    static func firstDuplicate(_ elements: [JSONValue]) -> JSONValue? {
        if elements.count <= 16 {
            // Few elements: comparing pairs is cheaper than hashing them all into a set.
            for later in 1..<elements.count {
                for earlier in 0..<later where elements[earlier] == elements[later] { return elements[later] }
            }
            return nil
        }
        var seen = Set<JSONValue>(minimumCapacity: elements.count)
        for element in elements where !seen.insert(element).inserted { return element }
        return nil
    }
}

/// Orders `date`, `time` and `date-time` strings for `formatMinimum` and `formatMaximum`.
enum FormatOrder {
    /// -1, 0 or 1; `nil` when `text` is not valid for the format (the `format` keyword reports that).
    static func compare(_ text: String, _ bound: String, _ format: TextFormat) -> Int? {
        func sign(_ a: Double, _ b: Double) -> Int { a < b ? -1 : (a > b ? 1 : 0) }
        switch format {
        case .date:
            guard let a = RFC3339.date(text), let b = RFC3339.date(bound) else { return nil }
            let left = (a.year, a.month, a.day)
            let right = (b.year, b.month, b.day)
            return left < right ? -1 : (left > right ? 1 : 0)
        case .time:
            guard let a = RFC3339.time(text), let b = RFC3339.time(bound) else { return nil }
            return sign(
                a.secondsSinceMidnight - Double(a.offsetSeconds), b.secondsSinceMidnight - Double(b.offsetSeconds))
        case .dateTime:
            guard let a = RFC3339.dateTime(text), let b = RFC3339.dateTime(bound) else { return nil }
            return sign(a.timeIntervalSince1970, b.timeIntervalSince1970)
        default:
            return nil
        }
    }
}

/// `maxLength` and `minLength`: lengths in code points, as JSON Schema counts them, read from UTF-8
/// (every byte that does not continue a sequence starts one). The byte count bounds the code points
/// from above and a quarter of it from below, which settles most strings without counting.
enum StringLength {
    static func isAtMost(_ limit: Int, utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count <= limit || codePoints(bytes) <= limit
    }

    static func isAtLeast(_ limit: Int, utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= limit && (bytes.count / 4 >= limit || codePoints(bytes) >= limit)
    }

    private static func codePoints(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in bytes where byte & 0xC0 != 0x80 { count += 1 }
        return count
    }
}

extension TapeView {
    /// The name of the member whose value is at `value` (its key is the entry two before).
    fileprivate func memberName(_ value: Int) -> String {
        String(decoding: stringBytes(value - 2), as: UTF8.self)
    }
}

/// A decimal number as `mantissa × 10^-scale` with `scale ≥ 0` as small as it can be (no trailing
/// zero in the mantissa's fraction), when the mantissa fits in 64 bits: what `multipleOf` needs to
/// decide most numbers with integer arithmetic instead of arbitrary precision.
struct DecimalParts {
    var mantissa: Int64
    var scale: Int

    init(mantissa: Int64, scale: Int) {
        self.mantissa = mantissa
        self.scale = scale
    }

    /// The parts of a JSON number literal (`-12.340`, `1e-2`, `5E+3`), or `nil` when its digits do
    /// not fit in 18 decimal digits.
    init?(_ literal: UnsafeBufferPointer<UInt8>) {
        if literal.count <= 19, let parts = Self.plain(literal) {
            self = parts
            return
        }
        var index = 0
        let negative = index < literal.count && literal[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var mantissa: Int64 = 0
        var digits = 0
        var fraction = 0
        var seenPoint = false
        while index < literal.count {
            let byte = literal[index]
            if byte >= 0x30 && byte <= 0x39 {
                if mantissa != 0 || byte != 0x30 {
                    digits += 1
                    guard digits <= 18 else { return nil }
                }
                mantissa = mantissa * 10 + Int64(byte - 0x30)
                if seenPoint { fraction += 1 }
            } else if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else {
                break
            }
            index += 1
        }
        var exponent = 0
        if index < literal.count, literal[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var negativeExponent = false
            if index < literal.count, literal[index] == UInt8(ascii: "-") || literal[index] == UInt8(ascii: "+") {
                negativeExponent = literal[index] == UInt8(ascii: "-")
                index += 1
            }
            while index < literal.count, literal[index] >= 0x30 && literal[index] <= 0x39 {
                exponent = exponent * 10 + Int(literal[index] - 0x30)
                guard exponent <= 400 else { return nil }
                index += 1
            }
            if negativeExponent { exponent = -exponent }
        }
        guard index == literal.count else { return nil }
        var scale = fraction - exponent
        if mantissa == 0 { scale = 0 }
        while scale > 0 && mantissa % 10 == 0 {
            mantissa /= 10
            scale -= 1
        }
        while scale < 0 {
            let (scaled, overflow) = mantissa.multipliedReportingOverflow(by: 10)
            guard !overflow, scaled <= 999_999_999_999_999_999 else { return nil }
            mantissa = scaled
            scale += 1
        }
        guard scale <= 18 else { return nil }
        self.mantissa = negative ? -mantissa : mantissa
        self.scale = scale
    }

    /// The parts of a literal of at most 19 bytes without an exponent (`-12.340`): its at most 19
    /// digits summed in 64 unsigned bits, which hold them, and trailing zeros of the fraction left
    /// out; `nil` for other literals (and those of more than 18 significant digits).
    @inline(__always)
    private static func plain(_ literal: UnsafeBufferPointer<UInt8>) -> DecimalParts? {
        let count = literal.count
        let negative = count > 0 && literal[0] == UInt8(ascii: "-")
        var index = negative ? 1 : 0
        var mantissa: UInt64 = 0
        while index < count {
            let digit = literal[index] &- 0x30
            guard digit < 10 else { break }
            mantissa = mantissa &* 10 &+ UInt64(digit)
            index += 1
        }
        guard index > (negative ? 1 : 0) else { return nil }
        var scale = 0
        if index < count {
            guard literal[index] == UInt8(ascii: ".") else { return nil }
            index += 1
            var end = count
            while end > index && literal[end - 1] == UInt8(ascii: "0") { end -= 1 }
            scale = end - index
            while index < end {
                let digit = literal[index] &- 0x30
                guard digit < 10 else { return nil }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                index += 1
            }
            // The zeros left out must be digits too (no exponent after them).
            while index < count {
                guard literal[index] == UInt8(ascii: "0") else { return nil }
                index += 1
            }
        }
        guard mantissa <= 999_999_999_999_999_999 else { return nil }
        if mantissa == 0 { return DecimalParts(mantissa: 0, scale: 0) }
        return DecimalParts(mantissa: negative ? -Int64(mantissa) : Int64(mantissa), scale: scale)
    }

    /// The sign of this number minus `bound`, exactly.
    @inline(__always)
    func compare(with bound: Int64) -> Int {
        // mantissa × 10^-scale against bound: mantissa against bound × 10^scale (scale ≤ 18, and
        // |mantissa| < 10^18); a product past 64 bits is larger in magnitude than any mantissa.
        let (scaled, overflow) = bound.multipliedReportingOverflow(by: Self.powerOfTen(scale))
        if overflow { return bound > 0 ? -1 : 1 }
        return mantissa < scaled ? -1 : mantissa == scaled ? 0 : 1
    }

    /// 10⁰ … 10¹⁸, a scale's factor: constants in a switch, a table the compiler keeps with the code
    /// (a `static let` array was a lazy global, checked at each use).
    @inline(__always)
    private static func powerOfTen(_ exponent: Int) -> Int64 {
        switch exponent {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        default: 1_000_000_000_000_000_000
        }
    }

    /// Whether this number is an integer multiple of `divisor × 10^-divisorScale` (`divisor > 0`);
    /// `nil` when deciding it would overflow 64 bits.
    func isMultiple(ofMantissa divisor: Int64, scale divisorScale: Int) -> Bool? {
        if mantissa == 0 { return true }
        // A multiple of the divisor has at most `divisorScale` fraction digits.
        guard scale <= divisorScale else { return false }
        var value = mantissa
        for _ in 0..<(divisorScale - scale) {
            let (scaled, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            value = scaled
        }
        return value % divisor == 0
    }
}
