import AssayCore
import AssayJSON
import AssayRegex

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which properties and items the keywords of a schema (and its in-place subschemas) evaluated:
/// what `unevaluatedProperties` and `unevaluatedItems` look at.
struct Evaluated {
    var properties: Set<String> = []
    var allProperties = false
    var itemsPrefix = 0
    var allItems = false
    var itemIndices: Set<Int> = []

    mutating func merge(_ other: Evaluated) {
        if other.allProperties {
            allProperties = true
        } else if !allProperties {
            properties.formUnion(other.properties)
        }
        if other.allItems { allItems = true }
        itemsPrefix = max(itemsPrefix, other.itemsPrefix)
        itemIndices.formUnion(other.itemIndices)
    }

    func hasProperty(_ name: String) -> Bool { allProperties || properties.contains(name) }
    func hasItem(_ index: Int) -> Bool { allItems || index < itemsPrefix || itemIndices.contains(index) }
}

/// Evaluates one instance against a compiled schema. Not shared between threads: each validation
/// makes its own. A struct with mutating methods, so access to its state is checked at compile time
/// rather than at run time.
struct Evaluator {
    private let nodes: [SchemaNode]
    private let keywordTable: KeywordTable
    private let root: Int
    private let maximumReferenceDepth: Int
    /// Whether errors are recorded (otherwise evaluation stops at the first failure).
    private var collecting: Bool
    private let limit: Int
    private(set) var errors: [SchemaError] = []
    private var instancePath: [PathComponent] = []
    private var keywordPath: [String] = []
    /// Resource roots entered, outermost first: the dynamic scope.
    private var scope: [Int] = []
    /// Schemas applied to the current instance without descending into it.
    private var sameInstanceDepth = 0
    private var overflowReported = false
    /// How deep in the instance evaluation is.
    private var instanceDepth = 0
    private let maximumInstanceDepth: Int
    /// Where the machine stack runs short (``MachineStack/limit()``), once evaluation goes deep;
    /// `nil` until then.
    private var stackLimit: UInt?
    /// For the verbose output: the units being built, outermost first (`nil` unless tracing). While
    /// tracing, every keyword is evaluated and subschemas tried by `anyOf`, `not`, `if`… keep their
    /// errors and locations.
    /// (A class, so the evaluator stays small: deep recursions copy it in debug builds.)
    private var trace: Trace?
    /// Whether ``trace`` is being built (a plain flag: cheaper to test than the optional).
    private var tracing = false

    final class Trace {
        /// The open units, outermost first.
        var open: [TraceUnit] = []
        /// The root schema's unit, once evaluation ends.
        var root: TraceUnit?
    }

    /// The root schema's unit, once a traced evaluation ends.
    var tracedRoot: TraceUnit? { trace?.root }

    init(schema: JSONSchema, collecting: Bool, limit: Int) {
        self.init(program: schema.program, collecting: collecting, limit: limit)
    }

    /// The same from the schema's shared tables (the in-place evaluator makes its tree evaluator so).
    init(program: TapeProgram, collecting: Bool, limit: Int) {
        self.nodes = program.nodes
        self.keywordTable = program.keywordTable
        self.root = program.root
        self.maximumReferenceDepth = program.maximumReferenceDepth
        self.maximumInstanceDepth = program.maximumInstanceDepth
        self.collecting = collecting
        self.limit = limit
    }

    mutating func run(_ instance: JSONValue) -> Bool {
        var none: Evaluated? = nil
        return evaluate(root, instance, &none)
    }

    /// Evaluates `instance` recording every schema and keyword applied (``tracedRoot``), for the
    /// verbose output. The evaluator must be collecting, without a limit.
    mutating func runTraced(_ instance: JSONValue) -> Bool {
        trace = Trace()
        tracing = true
        defer { tracing = false }
        return run(instance)
    }

    private var full: Bool { errors.count >= limit }

    // MARK: Errors

    @inline(never)
    private mutating func fail(
        _ node: SchemaNode, _ keyword: String, _ code: IssueCode, _ messageKey: String? = nil,
        _ parameters: [String: IssueValue] = [:], value: JSONValue, at extra: PathComponent? = nil
    ) {
        guard collecting, !full else { return }
        var path = instancePath
        if let extra { path.append(extra) }
        let location = keywordLocation(appending: keyword.isEmpty ? nil : keyword)
        let error = SchemaError(
            instanceLocation: IssuePath(path), keywordLocation: location,
            absoluteKeywordLocation: node.absoluteLocation(of: keyword), keyword: keyword, code: code,
            messageKey: messageKey ?? code.identifier, parameters: parameters, value: value)
        if tracing, let trace, !trace.open.isEmpty {
            trace.open[trace.open.count - 1].children.append(TraceUnit(error: error))
            return
        }
        errors.append(error)
    }

    /// Whether `node` accepts `value`, without recording errors (for `anyOf`, `not`, `if`, `contains`…).
    /// While tracing, the subschema is applied as any other, so its units are kept at the keyword
    /// location `keyword`/`sub`, on a child of the instance (`component`) or on the instance itself.
    private mutating func test(
        _ index: Int, _ value: JSONValue, _ evaluated: inout Evaluated?, _ keyword: String, _ sub: String? = nil,
        at component: PathComponent? = nil
    ) -> Bool {
        if tracing {
            if let component { return child(index, value, component, keyword, sub) }
            return applyInPlace(index, value, &evaluated, keyword, sub)
        }
        let saved = collecting
        collecting = false
        defer { collecting = saved }
        return evaluate(index, value, &evaluated)
    }

    private mutating func test(
        _ index: Int, _ value: JSONValue, _ keyword: String, _ sub: String? = nil, at component: PathComponent? = nil
    ) -> Bool {
        var none: Evaluated? = nil
        return test(index, value, &none, keyword, sub, at: component)
    }

    // MARK: Locating for the in-place evaluator

    // A document the in-place evaluator found invalid is walked again in place
    // (``TapeEvaluator/locateErrors(_:limit:)``) down to the values that fail; this evaluator, collecting,
    // keeps the evaluation path as that walk goes and records the errors of the keywords that fail
    // there, on those values alone. The walk enters schemas, keywords and children in the order
    // ``evaluate(_:_:_:)`` does, so the errors and their order are those of a whole evaluation.

    /// Whether the error limit is reached.
    var isFull: Bool { full }

    /// Enters a schema applied to the current value.
    mutating func enterSchema() { sameInstanceDepth += 1 }

    /// Leaves what ``enterSchema()`` entered.
    mutating func leaveSchema() { sameInstanceDepth -= 1 }

    /// Enters an in-place applicator keyword (`$ref`).
    mutating func enterKeyword(_ keyword: String) { pushKeyword(keyword, nil) }

    /// Leaves what ``enterKeyword(_:)`` entered.
    mutating func leaveKeyword() { popKeyword(hasSub: false) }

    /// Enters a child of the current value (`component`) through `keyword` and its `sub` entry, as
    /// ``child(_:_:_:_:_:)`` does; returns what ``leaveChild(hasSub:restoring:)`` restores.
    mutating func enterChild(_ component: PathComponent, _ keyword: String, _ sub: String?) -> Int {
        pushKeyword(keyword, sub)
        instancePath.append(component)
        instanceDepth += 1
        let saved = sameInstanceDepth
        sameInstanceDepth = 0
        return saved
    }

    /// Leaves what ``enterChild(_:_:_:)`` entered.
    mutating func leaveChild(hasSub: Bool, restoring saved: Int) {
        sameInstanceDepth = saved
        instanceDepth -= 1
        instancePath.removeLast()
        popKeyword(hasSub: hasSub)
    }

    /// Applies one keyword of `node` to `value` at the current locations, recording its errors.
    mutating func collect(_ keyword: Keyword, _ node: SchemaNode, _ value: JSONValue) -> Bool {
        var none: Evaluated? = nil
        return Self.passesQuickly(keyword, value) || apply(keyword, node, value, &none)
    }

    // MARK: Descending

    /// Applies `index` to a child of the instance.
    private mutating func child(
        _ index: Int, _ value: JSONValue, _ component: PathComponent, _ keyword: String, _ sub: String? = nil
    ) -> Bool {
        if collecting {
            pushKeyword(keyword, sub)
            instancePath.append(component)
        }
        instanceDepth += 1
        defer { instanceDepth -= 1 }
        guard instanceDepth <= maximumInstanceDepth else {
            reportTooDeep(index, value, component)
            return false
        }
        let savedDepth = sameInstanceDepth
        sameInstanceDepth = 0
        defer {
            sameInstanceDepth = savedDepth
            if collecting {
                popKeyword(hasSub: sub != nil)
                instancePath.removeLast()
            }
        }
        var none: Evaluated? = nil
        return evaluate(index, value, &none)
    }

    // The rare failures of the recursion's guards, out of line: their temporaries would otherwise
    // widen the stack frames of `child` and `evaluate`, which deep instances stack a thousand times.

    @inline(never)
    private mutating func reportTooDeep(_ index: Int, _ value: JSONValue, _ component: PathComponent) {
        if collecting { instancePath.removeLast() }
        defer { if collecting { instancePath.append(component) } }
        fail(
            nodes[index], "", .malformed, "malformed",
            ["detail": .string("the value is nested more than \(maximumInstanceDepth) levels deep")], value: value,
            at: component)
    }

    /// Whether the machine stack has less than ``MachineStack/margin`` left.
    @inline(never)
    private mutating func stackIsShort() -> Bool {
        if stackLimit == nil { stackLimit = MachineStack.limit() }
        return MachineStack.currentAddress() < stackLimit!
    }

    @inline(never)
    private mutating func reportShortStack(_ node: SchemaNode, _ value: JSONValue) {
        reportOverflow(
            node, value,
            detail:
                "the value is nested too deep for this thread's stack (\(instanceDepth) levels, \(sameInstanceDepth) schemas on the last)"
        )
    }

    @inline(never)
    private mutating func reportReferenceOverflow(_ node: SchemaNode, _ value: JSONValue) {
        reportOverflow(
            node, value,
            detail:
                "schemas apply to this value through more than \(maximumReferenceDepth) references in a row (a $ref cycle?)"
        )
    }

    /// The one `malformed` error an evaluation that cannot go on reports (again only when collecting).
    private mutating func reportOverflow(_ node: SchemaNode, _ value: JSONValue, detail: String) {
        guard !overflowReported || collecting else { return }
        overflowReported = true
        fail(node, "", .malformed, "malformed", ["detail": .string(detail)], value: value)
    }

    // MARK: Evaluation

    /// Closes the traced unit of `node` with its annotations, when tracing; returns `valid`. Called
    /// at each exit of ``evaluate`` (not around it, so tracing adds no stack frame per level).
    private mutating func finish(_ valid: Bool, _ node: SchemaNode) -> Bool {
        if tracing { closeSchemaUnit(valid, node) }
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

    /// The JSON Pointer of the evaluation path so far, with `keyword` after it when given: built by
    /// appending into one reserved string (errors and trace units each need one).
    private func keywordLocation(appending keyword: String? = nil) -> String {
        var location = PointerText(capacity: keywordPath.count * 12 + 16)
        for part in keywordPath { location.append(token: part) }
        if let keyword { location.append(token: keyword) }
        return location.text
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
    private mutating func openKeywordUnit(_ position: Int, _ node: SchemaNode) {
        openUnit(keyword: keywordTable.keywords[position].takeUnretainedValue().name, node)
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

    mutating func evaluate(_ index: Int, _ value: JSONValue, _ evaluated: inout Evaluated?) -> Bool {
        let node = nodes[index]
        if tracing { openUnit(keyword: nil, node) }
        if let flag = node.boolean {
            if !flag { fail(node, "", .notAllowed, "schema.false", value: value) }
            return finish(flag, node)
        }
        sameInstanceDepth += 1
        defer { sameInstanceDepth -= 1 }
        guard sameInstanceDepth <= maximumReferenceDepth else {
            reportReferenceOverflow(node, value)
            return finish(false, node)
        }
        // The depth limits bound the recursion, not the stack it takes: on a thread with a small
        // stack, a deep document stops here with an error instead of overflowing it.
        if instanceDepth + sameInstanceDepth > 16, stackIsShort() {
            reportShortStack(node, value)
            return finish(false, node)
        }
        let enteredResource = scope.last != node.resourceRoot
        if enteredResource { scope.append(node.resourceRoot) }
        defer { if enteredResource { scope.removeLast() } }

        var tracker: Evaluated? = (evaluated != nil || node.tracksEvaluation) ? Evaluated() : nil
        var valid = true
        let bounds = keywordTable.bounds(of: index)
        for position in bounds.start..<bounds.end {
            if tracing { openKeywordUnit(position, node) }
            let passed = keywordTable.keywords[position]._withUnsafeGuaranteedRef { keyword in
                // A keyword that passes on its small operand alone needs no more; a failure is
                // recorded by `apply`, which checks it again.
                Self.passesQuickly(keyword, value) || apply(keyword, node, value, &tracker)
            }
            if tracing { closeUnit(valid: passed) }
            if !passed {
                valid = false
                if !collecting || full { return finish(false, node) }
            }
        }
        if valid, evaluated != nil, let tracker { evaluated!.merge(tracker) }
        return finish(valid, node)
    }

    /// Whether `keyword` passes by its ``Keyword/step`` code and operand alone (a type, a length or
    /// count limit, an integer bound on an integer); `false` when it fails or needs ``apply``.
    @inline(__always)
    private static func passesQuickly(_ keyword: Keyword, _ value: JSONValue) -> Bool {
        let limit = keyword.operand
        switch (keyword.step, value) {
        case (.type, _): return typeBits(of: value) & keyword.typeMask != 0
        case (.maxLength, .string(var text)): return text.withUTF8 { StringLength.isAtMost(Int(limit), utf8: $0) }
        case (.minLength, .string(var text)): return text.withUTF8 { StringLength.isAtLeast(Int(limit), utf8: $0) }
        case (.maxLength, _), (.minLength, _): return true
        case (.maxItems, .array(let elements)): return Int64(elements.count) <= limit
        case (.minItems, .array(let elements)): return Int64(elements.count) >= limit
        case (.maxItems, _), (.minItems, _): return true
        case (.maximum, .number(let number)): return number.int64.map { $0 <= limit } ?? false
        case (.exclusiveMaximum, .number(let number)): return number.int64.map { $0 < limit } ?? false
        case (.minimum, .number(let number)): return number.int64.map { $0 >= limit } ?? false
        case (.exclusiveMinimum, .number(let number)): return number.int64.map { $0 > limit } ?? false
        default: return false
        }
    }

    /// The type names `value` satisfies, as ``Keyword/typeMask`` bits (an integer is also a number).
    @inline(__always)
    private static func typeBits(of value: JSONValue) -> UInt8 {
        switch value {
        case .null: return JSONTypeName.null.bit
        case .bool: return JSONTypeName.boolean.bit
        case .number(let number): return JSONTypeName.number.bit | (number.isInteger ? JSONTypeName.integer.bit : 0)
        case .string: return JSONTypeName.string.bit
        case .array: return JSONTypeName.array.bit
        case .object: return JSONTypeName.object.bit
        }
    }

    private mutating func apply(_ keyword: Keyword, _ node: SchemaNode, _ value: JSONValue, _ tracker: inout Evaluated?)
        -> Bool
    {
        switch keyword.kind {
        case .properties(let list): return applyProperties(keyword, node, value, &tracker, list)
        case .patternProperties(let list): return applyPatternProperties(keyword, node, value, &tracker, list)
        case .additionalProperties(let target, let names, let patterns):
            return applyAdditionalProperties(keyword, node, value, &tracker, target, names, patterns)
        case .propertyNames(let target): return applyPropertyNames(keyword, node, value, &tracker, target)
        case .dependentSchemas(let pairs): return applyDependentSchemas(keyword, node, value, &tracker, pairs)
        case .prefixItems(let schemas), .itemsArray(let schemas):
            return applyPrefixItems(keyword, node, value, &tracker, schemas)
        case .items(let target, let after), .additionalItems(let target, let after):
            return applyItems(keyword, node, value, &tracker, target, after)
        case .contains(let target, let minimum, let maximum):
            return applyContains(keyword, node, value, &tracker, target, minimum, maximum)
        case .unevaluatedItems(let target): return applyUnevaluatedItems(keyword, node, value, &tracker, target)
        case .unevaluatedProperties(let target):
            return applyUnevaluatedProperties(keyword, node, value, &tracker, target)
        case .allOf(let schemas): return applyAllOf(keyword, node, value, &tracker, schemas)
        case .anyOf(let schemas): return applyAnyOf(keyword, node, value, &tracker, schemas)
        case .oneOf(let schemas): return applyOneOf(keyword, node, value, &tracker, schemas)
        case .not(let target): return applyNot(keyword, node, value, &tracker, target)
        case .conditional(let condition, let then, let otherwise):
            return applyConditional(keyword, node, value, &tracker, condition, then, otherwise)
        case .ref(let target): return applyRef(keyword, node, value, &tracker, target)
        case .dynamicRef(let target, let anchor): return applyDynamicRef(keyword, node, value, &tracker, target, anchor)
        case .recursiveRef(let target): return applyRecursiveRef(keyword, node, value, &tracker, target)
        default:
            return check(keyword, node, value)
        }
    }

    private mutating func applyProperties(
        _ keyword: Keyword, _ node: SchemaNode, _ value: JSONValue, _ tracker: inout Evaluated?,
        _ list: [(String, Int)]
    ) -> Bool {
        guard case .object(let object) = value else { return true }
        var valid = true
        // Keys matched as UTF-8 bytes (code point for code point), each search starting after the
        // property matched last: members written in the order of `properties` match at once.
        let names = keyword.utf8Names
        var next = 0
        for (name, member) in object {
            guard let position = names.position(of: name, from: next) else { continue }
            next = position + 1
            if tracker != nil { tracker!.properties.insert(name) }
            if !child(list[position].1, member, .key(name), keyword.name, name) {
                valid = false
                if !collecting || full { return false }
            }
        }
        return valid
    }

    private mutating func applyPatternProperties(
        _ keyword: Keyword, _ node: SchemaNode, _ value: JSONValue, _ tracker: inout Evaluated?,
        _ list: [(LinearRegex, Int)]
    ) -> Bool {
        guard case .object(let object) = value else { return true }
        var valid = true
        for (name, member) in object {
            for (regex, target) in list where regex.firstMatchExists(in: name) {
                if tracker != nil { tracker!.properties.insert(name) }
                if !child(target, member, .key(name), keyword.name, regex.source) {
                    valid = false
                    if !collecting || full { return false }
                }
            }
        }
        return valid
    }

    private mutating func applyAdditionalProperties(
        _ keyword: Keyword, _ node: SchemaNode, _ value: JSONValue, _ tracker: inout Evaluated?, _ target: Int,
        _ names: Set<String>, _ patterns: [LinearRegex]
    ) -> Bool {
        guard case .object(let object) = value else { return true }
        var valid = true
        let rejectsAll = nodes[target].boolean == false
        let known = keyword.utf8Names
        var next = 0
        for (name, member) in object {
            if let position = known.position(of: name, from: next) {
                next = position + 1
                continue
            }
            if patterns.contains(where: { $0.firstMatchExists(in: name) }) { continue }
            if tracker != nil { tracker!.properties.insert(name) }
            if rejectsAll {
                valid = false
                if !collecting { return false }
                reportUnknownKey(keyword, node, name, member)
                if full { return false }
            } else if !child(target, member, .key(name), keyword.name) {
                valid = false
                if !collecting || full { return false }
            }
        }
        return valid
    }

    /// Records that `additionalProperties: false` (`keyword` of `node`) rejects the member `name`.
    mutating func reportUnknownKey(_ keyword: Keyword, _ node: SchemaNode, _ name: String, _ member: JSONValue) {
        fail(node, keyword.name, .unknownKey, nil, ["key": .string(name)], value: member, at: .key(name))
    }

    private mutating func applyPropertyNames(
        _ keyword: Keyword, _ node: SchemaNode, _ value: JSONValue, _ tracker: inout Evaluated?, _ target: Int
    ) -> Bool {
        guard case .object(let object) = value else { return true }
        var valid = true
        for (name, _) in object where !test(target, .string(name), keyword.name, at: .key(name)) {
            valid = false
            if !collecting { return false }
            fail(
                node, keyword.name, .notAllowed, "schema.propertyName", ["key": .string(name)], value: .string(name),
                at: .key(name))
        }
        return valid
    }

    private mutating func applyDependentSchemas(
        _ keyword: Keyword, _ node: SchemaNode, _ value: JSONValue, _ tracker: inout Evaluated?,
        _ pairs: [(String, Int)]
    ) -> Bool {
        guard case .object(let object) = value else { return true }
        var valid = true
        for (trigger, target) in pairs where object[trigger] != nil {
            if !applyInPlace(target, value, &tracker, keyword.name, trigger) {
                valid = false
                if !collecting || full { return false }
            }
        }
        return valid
    }

    private mutating func applyPrefixItems(
        _ keyword: Keyword, _ node: SchemaNode, _ value: JSONValue, _ tracker: inout Evaluated?, _ schemas: [Int]
    ) -> Bool {
        guard case .array(let elements) = value else { return true }
        var valid = true
        for (position, element) in elements.prefix(schemas.count).enumerated() {
            if !child(schemas[position], element, .index(position), keyword.name, String(position)) {
                valid = false
                if !collecting || full { return false }
            }
        }
        if tracker != nil { tracker!.itemsPrefix = max(tracker!.itemsPrefix, min(schemas.count, elements.count)) }
        return valid
    }

    private mutating func applyItems(
        _ keyword: Keyword, _ node: SchemaNode, _ value: JSONValue, _ tracker: inout Evaluated?, _ target: Int,
        _ after: Int
    ) -> Bool {
        guard case .array(let elements) = value else { return true }
        var valid = true
        if elements.count > after {
            for position in after..<elements.count
            where !child(target, elements[position], .index(position), keyword.name) {
                valid = false
                if !collecting || full { return false }
            }
        }
        if tracker != nil { tracker!.allItems = true }
        return valid
    }

    private mutating func applyContains(
        _ keyword: Keyword, _ node: SchemaNode, _ value: JSONValue, _ tracker: inout Evaluated?, _ target: Int,
        _ minimum: Int, _ maximum: Int?
    ) -> Bool {
        guard case .array(let elements) = value else { return true }
        var matches = 0
        let recordIndices = tracker != nil && node.dialect.draft >= .draft2020
        for (position, element) in elements.enumerated() where test(target, element, keyword.name, at: .index(position))
        {
            matches += 1
            if recordIndices { tracker!.itemIndices.insert(position) }
            if !recordIndices, maximum == nil, matches >= minimum { break }
        }
        if matches < minimum {
            fail(node, keyword.name, .tooFew, "schema.contains", ["minimum": .integer(minimum)], value: value)
            return false
        }
        if let maximum, matches > maximum {
            fail(node, "maxContains", .tooMany, "schema.maxContains", ["maximum": .integer(maximum)], value: value)
            return false
        }
        return true
    }

    private mutating func applyUnevaluatedItems(
        _ keyword: Keyword, _ node: SchemaNode, _ value: JSONValue, _ tracker: inout Evaluated?, _ target: Int
    ) -> Bool {
        guard case .array(let elements) = value, let seen = tracker else { return true }
        var valid = true
        for (position, element) in elements.enumerated() where !seen.hasItem(position) {
            if nodes[target].boolean == false {
                valid = false
                if !collecting { return false }
                fail(node, keyword.name, .notAllowed, "schema.unevaluated", value: element, at: .index(position))
            } else if !child(target, element, .index(position), keyword.name) {
                valid = false
                if !collecting || full { return false }
            }
        }
        if tracker != nil { tracker!.allItems = true }
        return valid
    }

    private mutating func applyUnevaluatedProperties(
        _ keyword: Keyword, _ node: SchemaNode, _ value: JSONValue, _ tracker: inout Evaluated?, _ target: Int
    ) -> Bool {
        guard case .object(let object) = value, let seen = tracker else { return true }
        var valid = true
        for (name, member) in object where !seen.hasProperty(name) {
            if nodes[target].boolean == false {
                valid = false
                if !collecting { return false }
                fail(node, keyword.name, .unknownKey, nil, ["key": .string(name)], value: member, at: .key(name))
            } else if !child(target, member, .key(name), keyword.name) {
                valid = false
                if !collecting || full { return false }
            }
        }
        if tracker != nil { tracker!.allProperties = true }
        return valid
    }

    private mutating func applyAllOf(
        _ keyword: Keyword, _ node: SchemaNode, _ value: JSONValue, _ tracker: inout Evaluated?, _ schemas: [Int]
    ) -> Bool {
        var valid = true
        for (position, target) in schemas.enumerated()
        where !applyInPlace(target, value, &tracker, keyword.name, String(position)) {
            valid = false
            if !collecting || full { return false }
        }
        return valid
    }

    private mutating func applyAnyOf(
        _ keyword: Keyword, _ node: SchemaNode, _ value: JSONValue, _ tracker: inout Evaluated?, _ schemas: [Int]
    ) -> Bool {
        var matched = false
        for (position, target) in schemas.enumerated() {
            var branch: Evaluated? = tracker != nil ? Evaluated() : nil
            if test(target, value, &branch, keyword.name, String(position)) {
                matched = true
                guard tracker != nil, let branch else { break }
                tracker!.merge(branch)
            }
        }
        if matched { return true }
        let causes = branchErrors(schemas, value, keyword.name)
        let before = errors.count
        fail(node, keyword.name, .noMatch, nil, ["count": .integer(schemas.count)], value: value)
        attach(causes, after: before)
        return false
    }

    /// In collecting mode, the errors each of `schemas` finds in `value` (for an `anyOf` or `oneOf`
    /// that nothing matched); empty otherwise.
    private mutating func branchErrors(_ schemas: [Int], _ value: JSONValue, _ keyword: String) -> [SchemaError] {
        guard collecting, !full, !tracing else { return [] }
        let saved = errors
        errors = []
        for (position, target) in schemas.enumerated() {
            var none: Evaluated? = nil
            _ = applyInPlace(target, value, &none, keyword, String(position))
        }
        let found = errors
        errors = saved
        return found
    }

    /// Attaches `causes` to the error recorded after there were `before` errors, if one was.
    private mutating func attach(_ causes: [SchemaError], after before: Int) {
        guard !causes.isEmpty, errors.count == before + 1 else { return }
        errors[before].causes = causes
    }

    private mutating func applyOneOf(
        _ keyword: Keyword, _ node: SchemaNode, _ value: JSONValue, _ tracker: inout Evaluated?, _ schemas: [Int]
    ) -> Bool {
        var matches = 0
        var kept: Evaluated? = nil
        for (position, target) in schemas.enumerated() {
            var branch: Evaluated? = tracker != nil ? Evaluated() : nil
            if test(target, value, &branch, keyword.name, String(position)) {
                matches += 1
                kept = branch
                if matches > 1 { break }
            }
        }
        if matches == 1 {
            if tracker != nil, let kept { tracker!.merge(kept) }
            return true
        }
        if matches == 0 {
            let causes = branchErrors(schemas, value, keyword.name)
            let before = errors.count
            fail(node, keyword.name, .noMatch, nil, ["count": .integer(schemas.count)], value: value)
            attach(causes, after: before)
        } else {
            fail(node, keyword.name, .noMatch, "schema.oneOf.many", ["count": .integer(matches)], value: value)
        }
        return false
    }

    private mutating func applyNot(
        _ keyword: Keyword, _ node: SchemaNode, _ value: JSONValue, _ tracker: inout Evaluated?, _ target: Int
    ) -> Bool {
        if !test(target, value, keyword.name) { return true }
        fail(node, keyword.name, .notAllowed, "schema.not", value: value)
        return false
    }

    private mutating func applyConditional(
        _ keyword: Keyword, _ node: SchemaNode, _ value: JSONValue, _ tracker: inout Evaluated?, _ condition: Int,
        _ then: Int?, _ otherwise: Int?
    ) -> Bool {
        var branch: Evaluated? = tracker != nil ? Evaluated() : nil
        if test(condition, value, &branch, "if") {
            if tracker != nil, let branch { tracker!.merge(branch) }
            guard let then else { return true }
            return applyInPlace(then, value, &tracker, "then")
        }
        guard let otherwise else { return true }
        return applyInPlace(otherwise, value, &tracker, "else")
    }

    private mutating func applyRef(
        _ keyword: Keyword, _ node: SchemaNode, _ value: JSONValue, _ tracker: inout Evaluated?, _ target: Int
    ) -> Bool {
        return applyInPlace(target, value, &tracker, keyword.name)
    }

    private mutating func applyDynamicRef(
        _ keyword: Keyword, _ node: SchemaNode, _ value: JSONValue, _ tracker: inout Evaluated?, _ target: Int,
        _ anchor: String?
    ) -> Bool {
        var resolved = target
        if let anchor {
            for resource in scope {
                if let found = nodes[resource].dynamicAnchors[anchor] {
                    resolved = found
                    break
                }
            }
        }
        return applyInPlace(resolved, value, &tracker, keyword.name)
    }

    private mutating func applyRecursiveRef(
        _ keyword: Keyword, _ node: SchemaNode, _ value: JSONValue, _ tracker: inout Evaluated?, _ target: Int
    ) -> Bool {
        var resolved = target
        if nodes[target].recursiveAnchor {
            for resource in scope where nodes[resource].recursiveAnchor {
                resolved = resource
                break
            }
        }
        return applyInPlace(resolved, value, &tracker, keyword.name)
    }

    /// The assertions: keywords that look at the value itself and apply no subschema. Kept out of
    /// ``apply`` so the recursion through applicators keeps small stack frames.
    @inline(never)
    mutating func check(_ keyword: Keyword, _ node: SchemaNode, _ value: JSONValue) -> Bool {
        switch keyword.kind {
        case .type(let names):
            for name in names where name.matches(value) { return true }
            fail(
                node, keyword.name, .typeMismatch, nil,
                [
                    "expected": .string(names.map(\.rawValue).joined(separator: " or ")),
                    "actual": .string(value.kind.rawValue),
                ],
                value: value)
            return false

        case .enumeration(let allowed, let set):
            if let set {
                // JSONValue hashing agrees with its (code point) equality, so the set answers exactly.
                if set.contains(value) { return true }
            } else if allowed.contains(value) {
                return true
            }
            fail(
                node, keyword.name, .notAllowed, nil,
                [
                    "allowed": .string(
                        allowed.prefix(10).map { $0.jsonString() }.joined(separator: ", ")
                            + (allowed.count > 10 ? ", …" : ""))
                ],
                value: value)
            return false

        case .constant(let expected):
            if expected == value { return true }
            fail(
                node, keyword.name, .notAllowed, "schema.const", ["expected": .string(expected.jsonString())],
                value: value)
            return false

        case .multipleOf(let divisor):
            guard case .number(let number) = value else { return true }
            if number.isMultiple(of: divisor) { return true }
            fail(node, keyword.name, .notMultiple, nil, ["multipleOf": .string(divisor.description)], value: value)
            return false

        case .maximum(let limit, let exclusive):
            guard case .number(let number) = value else { return true }
            if exclusive ? number < limit : number <= limit { return true }
            fail(
                node, keyword.name, .tooLarge, exclusive ? "tooLarge.exclusive" : "tooLarge",
                ["maximum": .string(limit.description)], value: value)
            return false

        case .minimum(let limit, let exclusive):
            guard case .number(let number) = value else { return true }
            if exclusive ? number > limit : number >= limit { return true }
            fail(
                node, keyword.name, .tooSmall, exclusive ? "tooSmall.exclusive" : "tooSmall",
                ["minimum": .string(limit.description)], value: value)
            return false

        case .maxLength(let limit):
            guard case .string(var text) = value else { return true }
            if text.withUTF8({ StringLength.isAtMost(limit, utf8: $0) }) { return true }
            fail(node, keyword.name, .tooLong, nil, ["maximum": .integer(limit)], value: value)
            return false

        case .minLength(let limit):
            guard case .string(var text) = value else { return true }
            if text.withUTF8({ StringLength.isAtLeast(limit, utf8: $0) }) { return true }
            fail(node, keyword.name, .tooShort, nil, ["minimum": .integer(limit)], value: value)
            return false

        case .pattern(let regex):
            guard case .string(let text) = value else { return true }
            if regex.firstMatchExists(in: text) { return true }
            fail(node, keyword.name, .patternMismatch, nil, ["pattern": .string(regex.source)], value: value)
            return false

        case .format(.rfc1123Hostname):
            guard case .string(let text) = value else { return true }
            if Hostname.isValid(text, international: false, idna: false) { return true }
            fail(
                node, keyword.name, .invalidFormat("hostname"), "invalidFormat", ["format": .string("hostname")],
                value: value)
            return false

        case .content(let base64, let json):
            guard case .string(let text) = value else { return true }
            var bytes = Array(text.utf8)
            var ok = true
            if base64 {
                if let decoded = Data(base64Encoded: text) { bytes = [UInt8](decoded) } else { ok = false }
            }
            if ok && json { ok = (try? JSONValue(parsing: bytes)) != nil }
            if ok { return true }
            fail(
                node, keyword.name, .invalidFormat(keyword.name), "invalidFormat",
                ["format": .string(json ? "application/json" : "base64")], value: value)
            return false

        case .format(let check):
            guard case .known(let format) = check, case .string(let text) = value else { return true }
            if format.isValid(text) { return true }
            fail(
                node, keyword.name, .invalidFormat(format.rawValue), "invalidFormat",
                ["format": .string(format.rawValue)], value: value)
            return false

        case .formatBound(let format, let bound, let isMaximum, let exclusive):
            guard case .string(let text) = value, let order = FormatOrder.compare(text, bound, format) else {
                return true
            }
            let ok: Bool
            if isMaximum { ok = exclusive ? order < 0 : order <= 0 } else { ok = exclusive ? order > 0 : order >= 0 }
            if ok { return true }
            let prefix = isMaximum ? "date.tooLarge" : "date.tooSmall"
            fail(
                node, keyword.name, isMaximum ? .tooLarge : .tooSmall, prefix + (exclusive ? ".exclusive" : ""),
                [isMaximum ? "maximum" : "minimum": .string(bound)], value: value)
            return false

        case .maxItems(let limit):
            guard case .array(let elements) = value, elements.count > limit else { return true }
            fail(node, keyword.name, .tooMany, nil, ["maximum": .integer(limit)], value: value)
            return false

        case .minItems(let limit):
            guard case .array(let elements) = value, elements.count < limit else { return true }
            fail(node, keyword.name, .tooFew, nil, ["minimum": .integer(limit)], value: value)
            return false

        case .uniqueItems:
            guard case .array(let elements) = value, elements.count > 1 else { return true }
            if elements.count <= 16 {
                // Few elements: comparing pairs is cheaper than hashing them all into a set.
                for later in 1..<elements.count {
                    for earlier in 0..<later where elements[earlier] == elements[later] {
                        fail(
                            node, keyword.name, .notUnique, "notUnique.elements",
                            ["duplicate": .string(elements[later].jsonString())], value: value)
                        return false
                    }
                }
                return true
            }
            var seen = Set<JSONValue>(minimumCapacity: elements.count)
            for element in elements where !seen.insert(element).inserted {
                fail(
                    node, keyword.name, .notUnique, "notUnique.elements", ["duplicate": .string(element.jsonString())],
                    value: value)
                return false
            }
            return true

        case .maxProperties(let limit):
            guard case .object(let object) = value, object.count > limit else { return true }
            fail(node, keyword.name, .tooMany, "schema.tooManyProperties", ["maximum": .integer(limit)], value: value)
            return false

        case .minProperties(let limit):
            guard case .object(let object) = value, object.count < limit else { return true }
            fail(node, keyword.name, .tooFew, "schema.tooFewProperties", ["minimum": .integer(limit)], value: value)
            return false

        case .required(let names):
            // Names compared as UTF-8 bytes, code point for code point.
            guard case .object(let object) = value else { return true }
            if object.containsMembers(keyword.utf8Names) { return true }
            if !collecting { return false }
            for (position, name) in names.enumerated()
            where object.memberPosition(utf8: keyword.utf8Names[position], from: 0) == nil {
                fail(node, keyword.name, .missing, nil, [:], value: value, at: .key(name))
            }
            return false

        case .dependentRequired(let pairs):
            guard case .object(let object) = value else { return true }
            var valid = true
            for (trigger, names) in pairs where object[trigger] != nil {
                for name in names where object[name] == nil {
                    valid = false
                    if !collecting { return false }
                    fail(
                        node, keyword.name, .missing, "schema.dependentRequired", ["dependency": .string(trigger)],
                        value: value, at: .key(name))
                }
            }
            return valid

        default:
            return true
        }
    }

    /// An in-place subschema whose annotations count for the current schema when it passes.
    private mutating func applyInPlace(
        _ target: Int, _ value: JSONValue, _ tracker: inout Evaluated?, _ keyword: String, _ sub: String? = nil
    ) -> Bool {
        if collecting {
            pushKeyword(keyword, sub)
        }
        defer {
            if collecting {
                popKeyword(hasSub: sub != nil)
            }
        }
        guard tracker != nil else {
            var none: Evaluated? = nil
            return evaluate(target, value, &none)
        }
        var branch: Evaluated? = Evaluated()
        let valid = evaluate(target, value, &branch)
        if valid, let branch { tracker!.merge(branch) }
        return valid
    }
}

/// Orders `date`, `time` and `date-time` strings for `formatMinimum` and `formatMaximum`.
enum FormatOrder {
    /// -1, 0 or 1; `nil` when `text` is not valid for the format (the `format` keyword reports that).
    static func compare(_ text: String, _ bound: String, _ format: SchemaFormat) -> Int? {
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
