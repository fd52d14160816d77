#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The question validation asks — is there a match? — answered by a deterministic automaton built
/// lazily from the Thompson program, one state at a time as the input reaches it (the method of
/// RE2 and Rust's `regex`). A state is the set of the program's consuming instructions that are
/// live (an ε-closure) with whether a match is reached there, or at the end of the input; its
/// transitions are filled in on first use. An ASCII scalar then costs one table lookup; a scalar
/// beyond ASCII, one hash lookup.
///
/// Memory is bounded: each cache holds at most ``memoryLimit`` bytes of states and transitions; a
/// cache that would grow past it is cleared and built again from the state at hand, so a step
/// never costs more than computing one state — O(program size) — and a match stays linear in the
/// input whatever the pattern. Several caches let threads match one pattern at once, each under its
/// own lock; a caller who finds every cache taken runs the non-caching automata instead.
///
/// Applies to patterns without lookarounds and word boundaries (whose tests need the scalars on
/// both sides of a position).
final class LazyDFA: Sendable {
    /// The bytes one cache may hold (states, their transitions, the map from a state's key to it).
    static let memoryLimit = 256 * 1024
    /// Caches per pattern: as many threads can use the automaton at once.
    static let cacheCount = 4
    /// Programs larger than this are not worth classifying ASCII by (128 tests per instruction):
    /// they run on the Pike VM.
    static let maximumProgramSize = 20_000

    let shape: DFAShape
    /// The states reachable from the start on ASCII, computed when the automaton is made (up to a
    /// budget): read by every thread without a lock. `nil` for a positional automaton.
    let frozen: FrozenDFA?
    private let caches: [DFACache]
    /// `caches[0]`, tried first without walking the array (one thread at a time finds it free).
    private let firstCache: DFACache

    /// The most context bits a positional automaton reads at a position (the end, a word boundary,
    /// one per lookaround): its table has a column per class and combination of them.
    static let maximumContextBits = 6

    /// A DFA of `program`, or `nil` where it does not apply: an automaton with word boundaries or
    /// lookarounds is only made `positional` — to run over an input whose every position's context
    /// (the end, a word boundary there, the lookarounds' tables) is known before it runs.
    init?(program: [Instruction], sets: [ScalarSet], anchored: Bool, positional: Bool = false, lookaroundCount: Int = 0)
    {
        guard program.count <= Self.maximumProgramSize else { return nil }
        var hasBoundary = false
        var boundaryIgnoresCase = false
        for instruction in program {
            switch instruction {
            case .wordBoundary(_, let ignoringCase):
                hasBoundary = true
                boundaryIgnoresCase = ignoringCase
            case .lookaround: if !positional { return nil }
            default: continue
            }
        }
        if hasBoundary && !positional { return nil }
        if positional && 1 + (hasBoundary ? 1 : 0) + lookaroundCount > Self.maximumContextBits { return nil }
        shape = DFAShape(
            program: program, sets: sets, anchored: anchored,
            context: positional
                ? DFAContext(
                    hasBoundary: hasBoundary, boundaryIgnoresCase: boundaryIgnoresCase, lookaroundCount: lookaroundCount
                ) : nil)
        caches = (0..<Self.cacheCount).map { _ in DFACache() }
        firstCache = caches[0]
        frozen =
            positional
            ? nil
            : DFACache().frozen(
                shape, budget: Self.freezingBudget(programSize: program.count),
                maximumEntries: Self.frozenEntries(programSize: program.count))
    }

    /// The most closure steps (a live instruction visited) spent freezing an automaton when it is
    /// made: in proportion to its program, so that making a schema's patterns stays linear in their
    /// size; what the budget leaves out is built lazily, as before.
    static func freezingBudget(programSize: Int) -> Int { 16 * programSize + 2_048 }

    /// The most transitions a frozen automaton holds (about five bytes each, with a state's flags
    /// and the column for bytes beyond ASCII): in proportion to its program too, so that the memory
    /// a schema's patterns keep stays linear in their size.
    static func frozenEntries(programSize: Int) -> Int { 16 * programSize + 1_024 }

    /// Runs `body` with a cache nobody else holds, or returns `nil` when every one is taken.
    @inline(__always)
    private func withCache(_ body: (DFACache) -> Bool) -> Bool? {
        if firstCache.lock.tryLock() {
            defer { firstCache.lock.unlock() }
            return body(firstCache)
        }
        for cache in caches.dropFirst() where cache.lock.tryLock() {
            defer { cache.lock.unlock() }
            return body(cache)
        }
        return nil
    }

    /// How often the caches were cleared for want of room (for tests of the memory bound).
    var clearings: Int {
        caches.reduce(0) { total, cache in
            cache.lock.lock()
            defer { cache.lock.unlock() }
            return total + cache.clearingCount
        }
    }

    /// Whether the pattern matches somewhere in UTF-8 text (or Latin-1 text, each byte a scalar,
    /// when `latin1`); `nil` when every cache is in use.
    func run(bytes: UnsafeBufferPointer<UInt8>, latin1: Bool) -> Bool? {
        // ASCII text on states known when the automaton was made: no lock, no cache.
        if let answer = frozen?.run(bytes: bytes) { return answer }
        return withCache { $0.run(bytes: bytes, latin1: latin1, shape: shape) }
    }

    /// ``run(bytes:latin1:)`` on the lazily built caches only (for tests that compare the two).
    func runOnCache(bytes: UnsafeBufferPointer<UInt8>, latin1: Bool) -> Bool? {
        withCache { $0.run(bytes: bytes, latin1: latin1, shape: shape) }
    }

    /// Marks in `result` each position of `input` where a match ends (running `forward`) or starts
    /// (running backwards, the automaton being of the reversed pattern); `false` when every cache
    /// is in use and nothing was marked. `result` holds a `false` per position on entry.
    func matchPositions(
        in input: UnsafeBufferPointer<Unicode.Scalar>, forward: Bool, into result: UnsafeMutableBufferPointer<Bool>
    ) -> Bool {
        withCache { $0.matchPositions(in: input, forward: forward, into: result, shape: shape) } ?? false
    }

    /// Whether the pattern matches somewhere in `input` (a positional automaton), the lookarounds'
    /// tables being `tables[index * (input.count + 1) + position]`; `nil` when every cache is in use.
    func run(positions input: UnsafeBufferPointer<Unicode.Scalar>, tables: UnsafeMutableBufferPointer<Bool>) -> Bool? {
        withCache { $0.run(positions: input, tables: tables, shape: shape) }
    }

    /// Whether the pattern matches somewhere in `scalars`; `nil` when every cache is in use.
    func run<C: Collection>(scalars: C) -> Bool? where C.Element == Unicode.Scalar {
        withCache { $0.run(scalars: scalars, shape: shape) }
    }
}

/// What every cache of one pattern shares: the program, and ASCII sorted into classes of scalars
/// that no instruction tells apart (a transition table has a column per class, not per scalar).
struct DFAShape: Sendable {
    let program: [Instruction]
    let sets: [ScalarSet]
    let anchored: Bool
    /// For a positional automaton, what it reads at each position besides the scalar.
    let context: DFAContext?
    /// The combinations of context bits: 1 for an automaton that is not positional.
    let contextCount: Int
    /// Whether `$` occurs: the end of the input then needs a closure of its own.
    let hasEndAssertion: Bool
    /// For each instruction, the set it consumes (`-1` when it consumes nothing).
    let setOf: [Int32]
    /// For each ASCII scalar, its class.
    let asciiClass: [UInt8]
    /// The number of classes (at most 128): a state's row in the transition table.
    let classCount: Int

    init(program: [Instruction], sets: [ScalarSet], anchored: Bool, context: DFAContext?) {
        self.program = program
        self.sets = sets
        self.anchored = anchored
        self.context = context
        self.contextCount = context.map { 1 << $0.bits } ?? 1
        var hasEndAssertion = false
        var setOf = [Int32](repeating: -1, count: program.count)
        var consuming: [Int] = []
        for (pc, instruction) in program.enumerated() {
            switch instruction {
            case .set(let index):
                setOf[pc] = Int32(index)
                consuming.append(pc)
            case .assertEnd: hasEndAssertion = true
            default: break
            }
        }
        self.hasEndAssertion = hasEndAssertion
        self.setOf = setOf
        // Two ASCII scalars are of one class when every consuming instruction accepts both or neither.
        // Instructions whose sets hold the same ASCII scalars tell the same scalars apart (counted
        // repetitions copy one set many times): the classes are refined by each distinct ASCII mask
        // once. (Sorted, not hashed: no set or dictionary type is made for it at run time.)
        var masks = consuming.map { sets[Int(setOf[$0])].asciiMembers }
        masks.sort { $0.low != $1.low ? $0.low < $1.low : $0.high < $1.high }
        // Each mask splits every class into the scalars it holds and those it does not; the classes
        // are numbered in the order of their first scalar.
        var asciiClass = [UInt8](repeating: 0, count: 128)
        var classCount = 1
        var split = [Int16](repeating: -1, count: 256)
        for (ordinal, members) in masks.enumerated()
        where ordinal == 0 || members != masks[ordinal - 1] {
            for key in 0..<(classCount * 2) { split[key] = -1 }
            var next: Int16 = 0
            for value in 0..<128 {
                let holds = value < 64 ? members.low >> UInt64(value) & 1 : members.high >> UInt64(value - 64) & 1
                let key = Int(asciiClass[value]) * 2 + Int(holds)
                if split[key] < 0 {
                    split[key] = next
                    next += 1
                }
                asciiClass[value] = UInt8(split[key])
            }
            classCount = Int(next)
        }
        self.asciiClass = asciiClass
        self.classCount = classCount
    }
}

/// What a positional automaton knows of a position before it runs: bit 0, whether it is the end of
/// the input; then, where the pattern has `\b` or `\B`, whether a word boundary is there; then
/// whether each lookaround holds there.
struct DFAContext: Sendable {
    let hasBoundary: Bool
    /// Whether the pattern's word characters are those of the `i` flag (all its `\b` share its flags).
    let boundaryIgnoresCase: Bool
    let lookaroundCount: Int

    var bits: Int { 1 + (hasBoundary ? 1 : 0) + lookaroundCount }
    var firstLookaroundBit: Int { hasBoundary ? 2 : 1 }

    /// The context at `position`.
    @inline(__always)
    func at(
        _ position: Int, of input: UnsafeBufferPointer<Unicode.Scalar>, tables: UnsafeMutableBufferPointer<Bool>
    ) -> Int {
        let count = input.count
        var context = position == count ? 1 : 0
        if hasBoundary {
            let before = position > 0 ? input[position - 1] : nil
            let after = position < count ? input[position] : nil
            if ScalarSet.isWordBoundary(before, after, ignoringCase: boundaryIgnoresCase) { context |= 2 }
        }
        let first = firstLookaroundBit
        for index in 0..<lookaroundCount where tables[index * (count + 1) + position] {
            context |= 1 << (first + index)
        }
        return context
    }
}

/// An automaton's states reachable from its start on ASCII, with their transitions, made once when
/// the automaton is made and only read after: any thread runs it without a lock. A transition it
/// does not hold (the budget ran out before it was computed) or a byte beyond ASCII sends the
/// match back to the lazily built caches, from the start.
///
/// Laid out for a loop of a few instructions a byte: a state is the offset of its row in
/// ``table``, a row has a column per class and one more for the bytes beyond ASCII, and a state
/// that ends a run (a match found, or none possible) goes to itself on every byte, its flags read
/// once at the end instead of at every byte. Other states hold no transition on a byte beyond
/// ASCII: such text is decoded by the caches.
struct FrozenDFA: Sendable {
    /// `table[row + class]`: the next state's row, or ``unknown``'s when not held.
    let table: [Int32]
    /// Each row's state's flags, at the row's offset.
    let flags: [UInt8]
    /// The column of each byte: its ASCII class, or the last column for a byte beyond ASCII.
    let columns: [UInt8]
    let start: Int
    /// The last row, where a transition not held leads and which every byte leaves as it is: a run
    /// that ends there has no answer. (No test in the loop: a run that falls off reads on to the
    /// end of its text, as one that reaches a match or a dead state does.)
    let unknown: Int
    /// Whether every transition on ASCII of every state reachable from the start is held.
    let isComplete: Bool

    /// Freezes `table` and `flags` of a cache (`table[state * classCount + class]`, -1 where not
    /// computed).
    init(table states: [Int32], flags stateFlags: [UInt8], shape: DFAShape, start: Int32, isComplete: Bool) {
        let classCount = shape.classCount
        let stride = classCount + 1
        let unknown = stateFlags.count * stride
        var table = [Int32](repeating: Int32(unknown), count: unknown + stride)
        var flags = [UInt8](repeating: 0, count: table.count)
        for state in stateFlags.indices {
            let row = state * stride
            flags[row] = stateFlags[state]
            if stateFlags[state] & DFACache.stopping != 0 {
                for column in 0..<stride { table[row + column] = Int32(row) }
                continue
            }
            for column in 0..<classCount where states[state * classCount + column] >= 0 {
                table[row + column] = states[state * classCount + column] * Int32(stride)
            }
        }
        var columns = [UInt8](repeating: UInt8(classCount), count: 256)
        for value in 0..<128 { columns[value] = shape.asciiClass[value] }
        self.table = table
        self.flags = flags
        self.columns = columns
        self.start = Int(start) * stride
        self.unknown = unknown
        self.isComplete = isComplete
    }

    /// Whether the pattern matches somewhere in `bytes`; `nil` when the run needs a byte beyond
    /// ASCII or a transition not held.
    @inline(__always)
    func run(bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        table.withUnsafeBufferPointer { table in
            columns.withUnsafeBufferPointer { columns -> Bool? in
                var row = start
                for byte in bytes { row = Int(table[row &+ Int(columns[Int(byte)])]) }
                guard row != unknown else { return nil }
                return flags[row] & DFACache.matchAtEnd != 0
            }
        }
    }
}

/// One thread's lazily built automaton: used only under `lock`, which is why its properties need no
/// run-time exclusivity checks (they cost more than a DFA step).
final class DFACache: @unchecked Sendable {
    let lock = TryLock()

    /// A state's flags.
    static let matchNow: UInt8 = 1
    static let matchAtEnd: UInt8 = 2
    static let dead: UInt8 = 4
    /// The flags that end a run before the end of the input.
    static let stopping: UInt8 = matchNow | dead

    /// `table[state * classCount + class]`: the next state, or -1 when not yet computed.
    @exclusivity(unchecked) private var table: [Int32] = []
    @exclusivity(unchecked) private var flags: [UInt8] = []
    /// Each state's live consuming instructions.
    @exclusivity(unchecked) private var live: [[Int32]] = []
    /// A state's key (its live instructions, then its flags as a negative number) to the state.
    @exclusivity(unchecked) private var stateOfKey: [StateKey: Int32] = [:]
    /// Transitions on scalars beyond ASCII: `state << 21 | scalar` to the next state.
    @exclusivity(unchecked) private var beyondASCII: [UInt64: Int32] = [:]
    @exclusivity(unchecked) private var start: Int32 = -1
    /// A positional automaton's start state for each context of position 0 (`-1`: not yet made).
    @exclusivity(unchecked) private var starts: [Int32] = []
    @exclusivity(unchecked) private var bytesUsed = 0
    /// Incremented when the cache is cleared: a state number read before is void after.
    @exclusivity(unchecked) private var clearings = 0
    var clearingCount: Int { clearings }

    // Scratch space for closures.
    @exclusivity(unchecked) private var visited: [UInt32] = []
    @exclusivity(unchecked) private var generation: UInt32 = 0
    @exclusivity(unchecked) private var stack: [Int32] = []
    @exclusivity(unchecked) private var targets: [Int32] = []
    @exclusivity(unchecked) private var keyScratch: [Int32] = []
    @exclusivity(unchecked) private var endScratch: [Int32] = []

    /// The ASCII classes, the transition table and the states' flags as unsafe buffers, for a run's
    /// fast loop (which changes none of them): no reference counting or exclusivity checks per step.
    @inline(__always)
    private func withBuffers<Result>(
        _ shape: DFAShape,
        _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<Int32>, UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        shape.asciiClass.withUnsafeBufferPointer { classes in
            table.withUnsafeBufferPointer { table in
                flags.withUnsafeBufferPointer { flags in body(classes, table, flags) }
            }
        }
    }

    private func prepare(_ shape: DFAShape) {
        if visited.count != shape.program.count + 1 {
            visited = [UInt32](repeating: 0, count: shape.program.count + 1)
        }
    }

    func run(bytes: UnsafeBufferPointer<UInt8>, latin1: Bool, shape: DFAShape) -> Bool {
        prepare(shape)
        var state = startState(shape)
        var index = 0
        let count = bytes.count
        let stride = shape.classCount
        while true {
            // The fast loop: ASCII whose transitions are known, through states that do not stop.
            (state, index) = withBuffers(shape) { classes, table, flags in
                var state = Int(state)
                var index = index
                while index < count, flags[state] & Self.stopping == 0 {
                    let byte = bytes[index]
                    guard byte < 0x80 else { break }
                    let next = table[state &* stride &+ Int(classes[Int(byte)])]
                    guard next >= 0 else { break }
                    state = Int(next)
                    index &+= 1
                }
                return (Int32(state), index)
            }
            let stateFlags = flags[Int(state)]
            if index == count { return stateFlags & Self.matchAtEnd != 0 }
            if stateFlags & Self.matchNow != 0 { return true }
            if stateFlags & Self.dead != 0 { return false }
            // A transition not yet computed, or a scalar beyond ASCII.
            let byte = bytes[index]
            if byte < 0x80 || latin1 {
                state = step(state, Unicode.Scalar(byte), shape)
                index += 1
            } else {
                let (scalar, length) = Self.decode(bytes, at: index)
                state = step(state, scalar, shape)
                index += length
            }
        }
    }

    /// The states reachable from the start on ASCII, each transition computed breadth first until
    /// `budget` closure steps are spent, the table holds `maximumEntries` transitions or the cache
    /// would be cleared: a fresh cache's automaton, frozen. `nil` when not even the start's
    /// transitions fit.
    func frozen(_ shape: DFAShape, budget: Int, maximumEntries: Int = .max) -> FrozenDFA? {
        guard shape.context == nil else { return nil }
        prepare(shape)
        let first = startState(shape)
        // One ASCII scalar of each class stands for the class.
        var representative = [UInt8](repeating: 0xFF, count: shape.classCount)
        for value in 0..<128 where representative[Int(shape.asciiClass[value])] == 0xFF {
            representative[Int(shape.asciiClass[value])] = UInt8(value)
        }
        var queue = [first]
        var head = 0
        var spent = 0
        var complete = true
        explore: while head < queue.count {
            let state = queue[head]
            head += 1
            if flags[Int(state)] & Self.stopping != 0 { continue }
            for byte in representative {
                spent += live[Int(state)].count + 1
                if spent > budget || table.count + shape.classCount > maximumEntries {
                    complete = false
                    break explore
                }
                let known = flags.count
                let next = step(state, Unicode.Scalar(byte), shape)
                if clearings != 0 { return nil }
                if flags.count > known { queue.append(next) }
            }
        }
        if head <= 1 && !complete { return nil }
        return FrozenDFA(table: table, flags: flags, shape: shape, start: first, isComplete: complete)
    }

    func run<C: Collection>(scalars: C, shape: DFAShape) -> Bool where C.Element == Unicode.Scalar {
        prepare(shape)
        var state = startState(shape)
        for scalar in scalars {
            let stateFlags = flags[Int(state)]
            if stateFlags & Self.matchNow != 0 { return true }
            if stateFlags & Self.dead != 0 { return false }
            state = step(state, scalar, shape)
        }
        return flags[Int(state)] & Self.matchAtEnd != 0
    }

    func matchPositions(
        in input: UnsafeBufferPointer<Unicode.Scalar>, forward: Bool, into result: UnsafeMutableBufferPointer<Bool>,
        shape: DFAShape
    ) -> Bool {
        prepare(shape)
        var state = startState(shape)
        var position = forward ? 0 : input.count
        let end = forward ? input.count : 0
        let stride = shape.classCount
        while true {
            // The fast loop: ASCII scalars whose transitions are known.
            (state, position) = withBuffers(shape) { classes, table, flags in
                var state = Int(state)
                var position = position
                while position != end {
                    if flags[state] & Self.matchNow != 0 { result[position] = true }
                    let value = (forward ? input[position] : input[position &- 1]).value
                    guard value < 0x80 else { break }
                    let next = table[state &* stride &+ Int(classes[Int(value)])]
                    guard next >= 0 else { break }
                    state = Int(next)
                    position = forward ? position &+ 1 : position &- 1
                }
                return (Int32(state), position)
            }
            let stateFlags = flags[Int(state)]
            if position == end {
                if stateFlags & Self.matchAtEnd != 0 { result[position] = true }
                return true
            }
            if stateFlags & Self.matchNow != 0 { result[position] = true }
            if forward {
                state = step(state, input[position], shape)
                position += 1
            } else {
                state = step(state, input[position - 1], shape)
                position -= 1
            }
        }
    }

    func run(
        positions input: UnsafeBufferPointer<Unicode.Scalar>, tables: UnsafeMutableBufferPointer<Bool>,
        shape: DFAShape
    ) -> Bool {
        guard let context = shape.context else { preconditionFailure("not a positional automaton") }
        prepare(shape)
        if starts.count != shape.contextCount { starts = [Int32](repeating: -1, count: shape.contextCount) }
        let first = context.at(0, of: input, tables: tables)
        if starts[first] < 0 {
            targets.removeAll(keepingCapacity: true)
            targets.append(0)
            let made = state(forTargets: shape, atStart: true, context: first)
            starts[first] = made
        }
        var state = starts[first]
        var position = 0
        let count = input.count
        let columns = shape.contextCount
        let stride = shape.classCount &* columns
        while true {
            // The fast loop: ASCII scalars whose transitions, in the next position's context, are known.
            (state, position) = withBuffers(shape) { classes, table, flags in
                var state = Int(state)
                var position = position
                while position < count, flags[state] & Self.stopping == 0 {
                    let value = input[position].value
                    guard value < 0x80 else { break }
                    let following = context.at(position &+ 1, of: input, tables: tables)
                    let next = table[state &* stride &+ Int(classes[Int(value)]) &* columns &+ following]
                    guard next >= 0 else { break }
                    state = Int(next)
                    position &+= 1
                }
                return (Int32(state), position)
            }
            let stateFlags = flags[Int(state)]
            if stateFlags & Self.matchNow != 0 { return true }
            if position == count || stateFlags & Self.dead != 0 { return false }
            let next = context.at(position + 1, of: input, tables: tables)
            state = step(state, input[position], shape, context: next)
            position += 1
        }
    }

    /// The scalar at `index` of valid UTF-8 (what a `String` holds), and its length in bytes.
    @inline(__always)
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int) {
        let lead = UInt32(bytes[index])
        if lead < 0x80 { return (Unicode.Scalar(UInt8(lead)), 1) }
        var value: UInt32
        var length: Int
        if lead < 0xE0 {
            value = lead & 0x1F
            length = 2
        } else if lead < 0xF0 {
            value = lead & 0x0F
            length = 3
        } else {
            value = lead & 0x07
            length = 4
        }
        length = min(length, bytes.count - index)
        for offset in 1..<max(length, 1) { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", max(length, 1))
    }

    /// The state after `state` reads `scalar`, computed and remembered if new.
    private func step(_ state: Int32, _ scalar: Unicode.Scalar, _ shape: DFAShape, context: Int = 0) -> Int32 {
        if scalar.isASCII {
            let slot =
                (Int(state) * shape.classCount + Int(shape.asciiClass[Int(scalar.value)])) * shape.contextCount
                + context
            let known = table[slot]
            if known >= 0 { return known }
            let before = clearings
            let next = transition(state, scalar, shape, context: context)
            if clearings == before { table[slot] = next }
            return next
        }
        let key = UInt64(state) << 28 | UInt64(context) << 21 | UInt64(scalar.value)
        if let known = beyondASCII[key] { return known }
        let before = clearings
        let next = transition(state, scalar, shape, context: context)
        // Remembered only if there is room: clearing the cache now would void `next` (a finding of
        // the regex fuzz target: a state number past the end of a cleared cache).
        if clearings == before && bytesUsed + 48 <= LazyDFA.memoryLimit {
            bytesUsed += 48
            beyondASCII[key] = next
        }
        return next
    }

    private func startState(_ shape: DFAShape) -> Int32 {
        if start < 0 {
            targets.removeAll(keepingCapacity: true)
            targets.append(0)
            start = state(forTargets: shape, atStart: true)
        }
        return start
    }

    /// Computes the state after `state` reads `scalar`: the instructions after those that accept it
    /// (and the first instruction again, when the pattern is not anchored), closed.
    private func transition(_ state: Int32, _ scalar: Unicode.Scalar, _ shape: DFAShape, context: Int) -> Int32 {
        if !targets.isEmpty { targets.removeAll(keepingCapacity: true) }
        for pc in live[Int(state)] where shape.sets[Int(shape.setOf[Int(pc)])].contains(scalar) {
            targets.append(pc + 1)
        }
        if !shape.anchored { targets.append(0) }
        return self.state(forTargets: shape, atStart: false, context: context)
    }

    /// The state whose threads start at `targets`, found or made. A positional automaton's closure
    /// is taken in the context of its position (the end included), so its match flag is final.
    private func state(forTargets shape: DFAShape, atStart: Bool, context: Int = 0) -> Int32 {
        // The key is built in scratch space kept from the state before (taken out, so that the
        // closure writes into a local): no array made per transition but for a new state's.
        var key = keyScratch
        keyScratch = []
        defer { keyScratch = key }
        var stateFlags: UInt8 = 0
        if closure(shape, atStart: atStart, atEnd: false, context: context, into: &key) {
            stateFlags |= Self.matchNow | Self.matchAtEnd
        } else if shape.context == nil && shape.hasEndAssertion {
            var atEnd = endScratch
            endScratch = []
            if closure(shape, atStart: atStart, atEnd: true, into: &atEnd) { stateFlags |= Self.matchAtEnd }
            endScratch = atEnd
        }
        key.sort()
        // No live thread and no match: nothing can follow — unless the pattern is tried again at
        // later positions and a positional automaton's context there (a lookaround, a boundary)
        // differs from here. (Without a context, every later position but the end closes the first
        // instruction as here, and the end is what `matchAtEnd` already answers.)
        if key.isEmpty && stateFlags & Self.matchAtEnd == 0 && (shape.anchored || shape.context == nil) {
            stateFlags |= Self.dead
        }
        key.append(-1 - Int32(stateFlags))
        if let known = stateOfKey[StateKey(key)] { return known }
        reserve(shape.classCount * shape.contextCount * 4 + key.count * 8 + 96, shape)
        let number = Int32(flags.count)
        table.append(contentsOf: repeatElement(-1, count: shape.classCount * shape.contextCount))
        flags.append(stateFlags)
        live.append(Array(key.dropLast()))
        stateOfKey[StateKey(key)] = number
        return number
    }

    /// Makes room for `bytes` more, clearing the cache when it would pass its limit.
    private func reserve(_ bytes: Int, _ shape: DFAShape) {
        if bytesUsed + bytes > LazyDFA.memoryLimit && !flags.isEmpty {
            table.removeAll(keepingCapacity: true)
            flags.removeAll(keepingCapacity: true)
            live.removeAll()
            stateOfKey.removeAll()
            beyondASCII.removeAll()
            start = -1
            for index in starts.indices { starts[index] = -1 }
            bytesUsed = 0
            clearings += 1
        }
        bytesUsed += bytes
    }

    /// The consuming instructions reachable from `targets` without input, written into `result`
    /// (emptied first); returns whether the match instruction is among them.
    private func closure(
        _ shape: DFAShape, atStart: Bool, atEnd: Bool, context: Int = 0, into result: inout [Int32]
    ) -> Bool {
        let positional = shape.context
        let atEnd = positional == nil ? atEnd : context & 1 != 0
        generation &+= 1
        if generation == 0 {
            for index in visited.indices { visited[index] = 0 }
            generation = 1
        }
        if !result.isEmpty { result.removeAll(keepingCapacity: true) }
        var matched = false
        // Empty here (the loop below drains it); the targets pushed last first, one at a time (a
        // reversed collection appended goes through generic code, a fifth of a closure).
        assert(stack.isEmpty)
        var next = targets.count
        while next > 0 {
            next -= 1
            stack.append(targets[next])
        }
        while let pc = stack.popLast() {
            let at = Int(pc)
            guard at < shape.program.count, visited[at] != generation else { continue }
            visited[at] = generation
            switch shape.program[at] {
            case .set: result.append(pc)
            case .match: matched = true
            default:
                shape.program[at].pushSuccessors(at: pc, onto: &stack) { assertion in
                    switch assertion {
                    case .assertStart: return atStart
                    case .assertEnd: return atEnd
                    case .wordBoundary(let negated, _):
                        guard let positional, positional.hasBoundary else { preconditionFailure("not positional") }
                        return (context & 2 != 0) != negated
                    case .lookaround(let index):
                        guard let positional else { preconditionFailure("not positional") }
                        return context & (1 << (positional.firstLookaroundBit + index)) != 0
                    default: return false
                    }
                }
            }
        }
        return matched
    }
}

/// A `pthread_mutex_t` at a stable address: tried and never waited for by the lazy DFA's caches,
/// waited for by the state AssaySchema's embedded schemas share.
package final class TryLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Takes the lock if nobody holds it; returns whether it did.
    @inline(__always) func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }

    /// Waits for the lock (only to read statistics).
    func lock() { pthread_mutex_lock(mutex) }

    @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the lock, waiting for it.
    package func withLock<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}

/// A lazy DFA state's key (``DFACache``): its values' bytes fed to the (seeded) hasher at once,
/// where an array of `Int32` feeds it element by element (a quarter of making a state).
struct StateKey: Hashable {
    let values: [Int32]

    init(_ values: [Int32]) { self.values = values }

    static func == (lhs: StateKey, rhs: StateKey) -> Bool { lhs.values == rhs.values }

    func hash(into hasher: inout Hasher) {
        values.withUnsafeBufferPointer { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
