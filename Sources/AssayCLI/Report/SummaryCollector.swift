import AssayCore
import AssayJSON

/// Aggregates a run's failures as documents are handed on, in memory bounded by its limits
/// whatever the input: the failing paths in a Space-Saving table (the most failing kept, with
/// counts whose error is known), a reservoir of example documents per path and keyword (Algorithm
/// R, with a fixed seed: the same input gives the same examples), exact totals per keyword and
/// code, and a HyperLogLog sketch of the distinct paths.
final class SummaryCollector {
    private(set) var summary: RunSummary
    /// Whether example documents (and so messages) are kept: `--summary` or `--report`.
    let keepsExamples: Bool
    let redaction: Redaction
    /// The language of the examples' messages.
    let language: Language
    /// The parser's limits, for reading an example line again.
    var parserOptions = JSONParserOptions(maximumDepth: 1_000)

    private struct KeywordSlot {
        var errors = 0
        var documents = 0
        var examples: [RunSummary.Example] = []
        var lastDocument = -1
        /// The order keywords were first met at the path (for a stable listing).
        var order: Int
    }

    private struct Slot {
        var path: String
        var errors = 0
        var overcount = 0
        var documents = 0
        var lastDocument = -1
        var keywords: [String: KeywordSlot] = [:]
    }

    private var slots: [Slot] = []
    private var slotOfPath: [String: Int] = [:]
    /// A min-heap of slot numbers by their errors, and each slot's place in it.
    private var heap: [Int] = []
    private var heapPlace: [Int] = []
    private var evicted = false
    /// The heap's swaps so far: a test holds them to O(log n) per error.
    private(set) var heapMoves = 0
    private var sketch = DistinctSketch()
    private var serial = 0
    private var random = SplitMix64(seed: 0x5EED_A55A)
    /// Keywords and codes beyond this many distinct ones are counted under `(other)`.
    private static let maximumNames = 1_000

    init(limits: RunSummary.Limits, language: Language, keepsExamples: Bool, redaction: Redaction) {
        summary = RunSummary()
        summary.limits = limits
        summary.language = language.identifier
        summary.redacted = redaction.pointers
        self.keepsExamples = keepsExamples
        self.redaction = redaction
        self.language = language
    }

    /// Counts `bytes` bytes of input read. (The run's totals of documents and errors are its own;
    /// ``finish(schema:inputs:seconds:)``'s caller sets them.)
    func count(bytes: Int) { summary.bytes += bytes }

    /// Adds an invalid document's errors; `text` is its NDJSON line, when it has one.
    func add(_ document: FailedDocument, file: String, text: ArraySlice<UInt8>?) {
        guard !document.failures.isEmpty else { return }
        serial += 1
        summary.errorsPerDocument[RunSummary.bucket(of: document.failures.count)] += 1
        if document.truncated { summary.truncatedDocuments += 1 }
        var example: RunSummary.Example?
        for failure in document.failures {
            Self.bump(&summary.keywords, failure.keyword)
            Self.bump(&summary.codes, failure.code)
            let path = Self.fold(failure.location)
            sketch.insert(path)
            let slot = self.slot(for: path)
            slots[slot].errors += 1
            siftDown(heapPlace[slot])
            if slots[slot].lastDocument != serial {
                slots[slot].lastDocument = serial
                slots[slot].documents += 1
            }
            let order = slots[slot].keywords.count
            var tally = slots[slot].keywords[failure.keyword] ?? KeywordSlot(order: order)
            tally.errors += 1
            if tally.lastDocument != serial {
                tally.lastDocument = serial
                tally.documents += 1
                // A path that took a full table's least failing place is sampled from its second error
                // on: when every document fails at a path never seen (keys that are ids), each would
                // otherwise be parsed again as an example only to be pushed out by the next.
                let proven = slots[slot].overcount == 0 || slots[slot].errors - slots[slot].overcount >= 2
                if keepsExamples, proven {
                    let limit = summary.limits.examples
                    let place =
                        tally.examples.count < limit ? tally.examples.count : Int(random.next(below: tally.documents))
                    if place < limit {
                        if example == nil { example = makeExample(document, file: file, text: text) }
                        if place == tally.examples.count {
                            tally.examples.append(example!)
                        } else {
                            tally.examples[place] = example!
                        }
                    }
                }
            }
            slots[slot].keywords[failure.keyword] = tally
        }
    }

    /// The summary as it stands, the paths most failing first; `seconds` and the inputs set.
    func finish(schema: String, inputs: [String], seconds: Double) -> RunSummary {
        var result = summary
        result.schema = schema
        result.inputs = inputs
        result.seconds = (seconds * 1000).rounded() / 1000
        result.paths = slots.map { slot in
            RunSummary.PathTally(
                path: slot.path, errors: slot.errors, overcount: slot.overcount, documents: slot.documents,
                keywords: slot.keywords.sorted { ($1.value.errors, $0.value.order) < ($0.value.errors, $1.value.order) }
                    .map {
                        RunSummary.KeywordTally(
                            keyword: $0.key, errors: $0.value.errors, documents: $0.value.documents,
                            examples: $0.value.examples)
                    })
        }.sorted { ($1.errors, $0.path) < ($0.errors, $1.path) }
        result.unlistedAtMost = evicted ? (heap.first.map { slots[$0].errors } ?? 0) : 0
        result.distinctSketch = sketch.registers
        return result
    }

    /// The path with array indices folded: `/items/3/price` → `/items/*/price`.
    static func fold(_ path: IssuePath) -> String {
        PointerText.string(path.components, indexToken: "*")
    }

    private static func bump(_ counts: inout [String: Int], _ name: String) {
        if counts[name] != nil || counts.count < maximumNames {
            counts[name, default: 0] += 1
        } else {
            counts["(other)", default: 0] += 1
        }
    }

    // MARK: The Space-Saving table

    /// The slot of `path`: its own, a new one while there is room, else the least failing one's,
    /// which it takes over with that one's count as its overcount.
    private func slot(for path: String) -> Int {
        if let slot = slotOfPath[path] { return slot }
        if slots.count < summary.limits.paths {
            slots.append(Slot(path: path))
            slotOfPath[path] = slots.count - 1
            heap.append(slots.count - 1)
            heapPlace.append(heap.count - 1)
            siftUp(heap.count - 1)
            return slots.count - 1
        }
        evicted = true
        let slot = heap[0]
        slotOfPath[slots[slot].path] = nil
        slots[slot] = Slot(path: path, errors: slots[slot].errors, overcount: slots[slot].errors)
        slotOfPath[path] = slot
        return slot
    }

    private func siftUp(_ start: Int) {
        var place = start
        while place > 0 {
            let parent = (place - 1) / 2
            guard slots[heap[place]].errors < slots[heap[parent]].errors else { return }
            swapHeap(place, parent)
            place = parent
        }
    }

    private func siftDown(_ start: Int) {
        var place = start
        while true {
            let left = 2 * place + 1
            guard left < heap.count else { return }
            var smallest = left
            if left + 1 < heap.count, slots[heap[left + 1]].errors < slots[heap[left]].errors { smallest = left + 1 }
            guard slots[heap[smallest]].errors < slots[heap[place]].errors else { return }
            swapHeap(place, smallest)
            place = smallest
        }
    }

    private func swapHeap(_ first: Int, _ second: Int) {
        heapMoves += 1
        heap.swapAt(first, second)
        heapPlace[heap[first]] = first
        heapPlace[heap[second]] = second
    }

    // MARK: Examples

    private func makeExample(_ document: FailedDocument, file: String, text: ArraySlice<UInt8>?) -> RunSummary.Example {
        let source: String
        switch document.position {
        case .line(let line): source = "\(file):\(line)"
        case .document(let index): source = "\(file)#\(index)"
        }
        let limit = summary.limits.exampleBytes
        var value: JSONValue
        var excerpt = false
        if let given = document.value {
            value = given
        } else if let text, let parsed = try? JSONValue(parsing: Array(text), options: parserOptions) {
            value = parsed
        } else if let text {
            // Not JSON: its text, unless values are redacted (a secret in it could not be found).
            if redaction.isEmpty {
                value = .string(String(decoding: text.prefix(limit), as: UTF8.self))
                excerpt = text.count > limit
            } else {
                value = .string("[not shown: not JSON, and values are redacted]")
            }
        } else {
            value = .string("[not kept: the document was not read]")
        }
        value = redaction.apply(to: value)
        if value.jsonBytes().count > limit {
            var budget = limit
            let targets = document.failures.prefix(RunSummary.exampleErrors).map {
                $0.location.components.map(\.description)
            }
            value = Excerpt.cut(value, at: [], targets: targets, budget: &budget)
            excerpt = true
        }
        // A summary nests its examples a few levels down and must read back within the parser's
        // depth limit: what lies deeper than ``Excerpt/deepest`` is left out.
        if Excerpt.depth(of: value, beyond: Excerpt.deepest) {
            value = Excerpt.flatten(value, below: Excerpt.deepest)
            excerpt = true
        }
        return RunSummary.Example(
            source: source, document: value, excerpt: excerpt,
            errors: document.failures.prefix(RunSummary.exampleErrors).map {
                RunSummary.ExampleError(
                    instanceLocation: $0.location.jsonPointer, keyword: $0.keyword, code: $0.code,
                    message: $0.message(in: language, redaction: redaction))
            })
    }
}

/// A large example document cut down to what shows its failures: the members and elements on the
/// way to each failing value, small siblings while a budget lasts, and each failing value
/// shortened. What is left out is marked: an object gets a member `"…"` saying how many members
/// it lost, an array a string `"… N more elements"` for each run of left-out elements (so that a
/// reader can still count indices).
enum Excerpt {
    static let ellipsis = "\u{2026}"
    /// The longest string kept whole, in characters.
    static let longestString = 200

    static func cut(_ value: JSONValue, at segments: [String], targets: [[String]], budget: inout Int) -> JSONValue {
        let through = targets.filter { $0.count > segments.count && $0.starts(with: segments) }
        if through.isEmpty { return shorten(value, depth: 0, budget: &budget) }
        switch value {
        case .object(let object):
            var kept: [(String, JSONValue)] = []
            var left = 0
            for member in object {
                let next = segments + [member.key]
                if through.contains(where: { $0[segments.count] == member.key }) {
                    kept.append((member.key, cut(member.value, at: next, targets: through, budget: &budget)))
                } else if let small = small(member.value, budget: &budget) {
                    kept.append((member.key, small))
                } else {
                    left += 1
                }
            }
            if left > 0 { kept.append((ellipsis, .string("\(left) more member\(left == 1 ? "" : "s")"))) }
            return .object(JSONObject(kept))
        case .array(let elements):
            var kept: [JSONValue] = []
            var run = 0
            for (index, element) in elements.enumerated() {
                let key = String(index)
                if through.contains(where: { $0[segments.count] == key }) {
                    if run > 0 { kept.append(marker(run)) }
                    run = 0
                    kept.append(cut(element, at: segments + [key], targets: through, budget: &budget))
                } else {
                    run += 1
                }
            }
            if run > 0 { kept.append(marker(run)) }
            return .array(kept)
        default:
            return shorten(value, depth: 0, budget: &budget)
        }
    }

    /// The deepest nesting an example keeps (a summary reads back with the parser's default depth
    /// limit, 512, whatever `--max-depth` the run had).
    static let deepest = 200

    /// Whether `value` nests deeper than `limit` levels.
    static func depth(of value: JSONValue, beyond limit: Int) -> Bool {
        guard limit >= 0 else { return true }
        switch value {
        case .object(let object): return object.contains { depth(of: $0.value, beyond: limit - 1) }
        case .array(let elements): return elements.contains { depth(of: $0, beyond: limit - 1) }
        default: return false
        }
    }

    /// `value` with every array or object `levels` down replaced by a marker.
    static func flatten(_ value: JSONValue, below levels: Int) -> JSONValue {
        switch value {
        case .object(let object):
            guard levels > 0 else { return .string("\(ellipsis) an object nested deeper") }
            return .object(JSONObject(object.map { ($0.key, flatten($0.value, below: levels - 1)) }))
        case .array(let elements):
            guard levels > 0 else { return .string("\(ellipsis) an array nested deeper") }
            return .array(elements.map { flatten($0, below: levels - 1) })
        default:
            return value
        }
    }

    /// The marker of `count` left-out elements.
    static func marker(_ count: Int) -> JSONValue {
        .string("\(ellipsis) \(count) more element\(count == 1 ? "" : "s")")
    }

    /// How many elements a marker stands for, or `nil` when `value` is not one.
    static func markedCount(_ value: JSONValue) -> Int? {
        guard case .string(let text) = value, text.hasPrefix(ellipsis + " "),
            text.hasSuffix(" more elements") || text.hasSuffix(" more element")
        else { return nil }
        return Int(text.dropFirst(2).prefix { $0.isNumber })
    }

    /// A sibling small enough to keep while the budget lasts.
    private static func small(_ value: JSONValue, budget: inout Int) -> JSONValue? {
        let size = value.jsonBytes().count
        guard size <= 80, size <= budget else { return nil }
        budget -= size
        return value
    }

    /// A failing value, shortened: long strings cut, large arrays and objects to their first parts.
    static func shorten(_ value: JSONValue, depth: Int, budget: inout Int) -> JSONValue {
        switch value {
        case .string(let text) where text.count > longestString:
            return .string(String(text.prefix(longestString)) + ellipsis)
        case .array(let elements):
            if depth >= 3 { return elements.isEmpty ? value : marker(elements.count) }
            var kept: [JSONValue] = []
            for element in elements {
                guard kept.count < 10 else { break }
                kept.append(shorten(element, depth: depth + 1, budget: &budget))
            }
            if elements.count > kept.count { kept.append(marker(elements.count - kept.count)) }
            return .array(kept)
        case .object(let object):
            if depth >= 3 {
                return object.isEmpty ? value : .object([ellipsis: .string("\(object.count) more members")])
            }
            var kept: [(String, JSONValue)] = []
            for member in object {
                guard kept.count < 10 else { break }
                kept.append((member.key, shorten(member.value, depth: depth + 1, budget: &budget)))
            }
            if object.count > kept.count {
                kept.append((ellipsis, .string("\(object.count - kept.count) more members")))
            }
            return .object(JSONObject(kept))
        default:
            return value
        }
    }
}

/// A small, fast pseudo-random generator with a fixed seed, so that a run picks the same examples
/// each time (SplitMix64).
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    /// A number in `0..<bound` (bound > 0).
    mutating func next(below bound: Int) -> UInt64 { next() % UInt64(bound) }
}
