/// A regular expression in ECMA-262 syntax, matched in time linear in the input.
///
/// Patterns from schemas and configuration are untrusted input. A backtracking engine (the
/// standard library's `Regex` among them) can take exponential time on patterns such as `^(a+)+$`;
/// `LinearRegex` compiles to a Thompson automaton and never backtracks, so a match takes at most
/// O(pattern size × input length) steps, whatever the pattern. The automaton runs as a
/// deterministic one built lazily, state by state as inputs reach them, and kept between matches
/// in a cache of bounded size (a table lookup per ASCII scalar once warm); with word boundaries
/// or lookarounds, over the input held as scalars, reading each position's context. Plain-text
/// patterns compare bytes. Matches on threads that find every cache of the pattern in use run on a
/// breadth-first simulation (a Pike VM, or bit masks for automata of up to 64 instructions).
///
/// <!-- snippet: doc-linear-regex -->
/// ```swift
/// let regex = try LinearRegex("^(a+)+$")
/// print(regex.firstMatchExists(in: String(repeating: "a", count: 100_000) + "!"))  // false: at once
/// ```
///
/// Supported: alternation, groups (capturing, non-capturing, named), lookahead and lookbehind
/// (`(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`, nested, still linear: see below), greedy and lazy
/// quantifiers (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, as long as the automata stay within
/// ``defaultMaximumProgramSize`` or the limit given), `.`, bracket classes with ranges and
/// negation, `^`, `$`, `\b`, `\B`, the class escapes `\d \w \s` (ASCII digits and word characters,
/// ECMA-262 white space) and their negations, `\p{…}`/`\P{…}` for general categories, common binary
/// properties and scripts (`\p{Script=Greek}`, `\p{sc=Grek}`, `\p{Script_Extensions=Latin}`,
/// `\p{scx=Latn}`, from the Unicode 14.0 database), and character escapes
/// (`\t \n \v \f \r \0 \cX \xHH \uHHHH \u{H…}`). Matching works on Unicode scalars, as ECMA-262 does
/// with the `u` flag.
///
/// A pattern with lookarounds decides each of them at every position of the input first, by one run
/// of its own automaton (Barrière and Pit-Claudel, PLDI 2024), so `^(?=.*[A-Z])(?=.*\d).{8,}$` costs
/// a few passes over the input, never a backtracking search.
///
/// Refused at compile time with a ``RegexSyntaxError`` whose `isUnsupportedFeature` is `true`:
/// backreferences (`\1`, `\k<name>`), which no linear-time engine runs in general. An unknown
/// property or script name is a syntax error.
public struct LinearRegex: Sendable, CustomStringConvertible {
    /// The automata, by reference: a copy of a regex (in a schema's keywords, on an evaluator's
    /// stack) is six words, not the 160-odd bytes of all its parts. What most matches use is held
    /// here too, to be read without going through the reference.
    private let compiled: CompiledRegex
    private let literal: LiteralPattern?
    private let dfa: LazyDFA?
    private let startLookarounds: StartLookarounds?

    /// The default limit on the automaton a pattern compiles to, in instructions (after expanding
    /// counted repetitions: `[a-z]{1,63}` takes 126, `.{0,4999}` 9,998).
    ///
    /// Matching costs at most the program's size per input scalar, so this bounds the cost of a
    /// match per scalar whatever the pattern: `[^x]{0,99999}` would otherwise be 200,000 instructions
    /// from 13 characters of pattern.
    public static let defaultMaximumProgramSize = 10_000

    /// The largest limit a caller may set.
    public static let maximumAllowedProgramSize = 1_000_000

    /// The flags of ECMA-262 that change what a pattern matches (`u` is always on).
    public struct Options: OptionSet, Sendable, Hashable {
        /// The options as bits (`ignoreCase` 1, `multiline` 2, `dotAll` 4).
        public let rawValue: Int

        /// Creates options from their raw bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// `i`: letters match in any case — a scalar matches where its simple case folding (Unicode's
        /// CaseFolding.txt, statuses C and S) is that of one the pattern names, as ECMA-262's
        /// Canonicalize has it with the `u` flag. `\w` and `\b` then count ſ (U+017F) and K (U+212A)
        /// as word characters.
        public static let ignoreCase = Options(rawValue: 1)
        /// `m`: `^` and `$` also hold after and before a line terminator (`\n`, `\r`, U+2028, U+2029).
        public static let multiline = Options(rawValue: 2)
        /// `s`: `.` matches line terminators too.
        public static let dotAll = Options(rawValue: 4)

        /// Reads ECMA-262 flags as a `RegExp` takes them (`"im"`); `u` is accepted and changes
        /// nothing, `g`, `y` and `d` (which change how matches are searched for or reported, not what
        /// matches) are accepted and ignored. `nil` for an unknown or repeated flag, or `v`.
        public init?(flags: String) {
            var options: Options = []
            var seen: Set<Character> = []
            for flag in flags {
                guard seen.insert(flag).inserted else { return nil }
                switch flag {
                case "i": options.insert(.ignoreCase)
                case "m": options.insert(.multiline)
                case "s": options.insert(.dotAll)
                case "u", "g", "y", "d": continue
                default: return nil
                }
            }
            self = options
        }

        /// The options as ECMA-262 flags, in the order `RegExp.prototype.flags` gives them (`"ims"`).
        public var flags: String {
            (contains(.ignoreCase) ? "i" : "") + (contains(.multiline) ? "m" : "") + (contains(.dotAll) ? "s" : "")
        }
    }

    /// The pattern as written.
    public var source: String { compiled.source }

    /// The flags the pattern was compiled with.
    public var options: Options { compiled.options }

    /// The size of the compiled automaton, in instructions (the lookarounds' automata included).
    public var programSize: Int { compiled.programSize }

    /// Compiles `source`.
    ///
    /// <!-- snippet: doc-regex-options -->
    /// ```swift
    /// let code = try LinearRegex("^[a-z]{2}-\\d+$", options: [.ignoreCase])
    /// print(code.firstMatchExists(in: "AB-12"))  // true
    /// ```
    ///
    /// - Parameters:
    ///   - source: the pattern, in ECMA-262 syntax.
    ///   - options: the flags it is compiled with (none, as in JSON Schema, by default).
    ///   - maximumProgramSize: the largest automaton accepted, in instructions (default
    ///     ``defaultMaximumProgramSize``, at most ``maximumAllowedProgramSize``).
    /// - Throws: ``RegexSyntaxError`` for malformed patterns, unsupported features, and patterns whose
    ///   automaton would exceed `maximumProgramSize` instructions.
    public init(
        _ source: String, options: Options = [], maximumProgramSize: Int = LinearRegex.defaultMaximumProgramSize
    ) throws(RegexSyntaxError) {
        compiled = try CompiledRegex(source, options: options, maximumProgramSize: maximumProgramSize)
        literal = compiled.literal
        dfa = compiled.dfa
        startLookarounds = compiled.startLookarounds
    }

    /// Checks that `source` compiles — its syntax, its features, the limit on its size — without
    /// making the automata that would match it: what `format: "regex"` asks of a string, at a
    /// fraction of the cost of ``init(_:options:maximumProgramSize:)``.
    ///
    /// - Throws: the ``RegexSyntaxError`` that ``init(_:options:maximumProgramSize:)`` throws for
    ///   `source`.
    package static func checkCompiles(
        _ source: String, options: Options = [], maximumProgramSize: Int = LinearRegex.defaultMaximumProgramSize
    ) throws(RegexSyntaxError) {
        _ = try CompiledRegex.program(source, options: options, maximumProgramSize: maximumProgramSize)
    }

    /// The pattern.
    public var description: String { compiled.source }

    /// Whether the pattern matches somewhere in `text` (ECMA-262 `RegExp.prototype.test`).
    public func firstMatchExists<S: StringProtocol>(in text: S) -> Bool {
        firstMatchExists(in: String(text))
    }

    /// Whether the pattern matches somewhere in `text`.
    public func firstMatchExists(in text: String) -> Bool {
        if let literal {
            var text = text
            return text.withUTF8 { literal.matches($0, utf8: literal.utf8) }
        }
        if dfa != nil {
            var text = text
            // Read through `self` (binding the automaton first made a counted copy of it per call).
            if let answer = text.withUTF8({ self.dfa.unsafelyUnwrapped.run(bytes: $0, latin1: false) }) {
                return answer
            }
        } else if startLookarounds != nil {
            var text = text
            if let answer = text.withUTF8({ self.startLookarounds.unsafelyUnwrapped.run(bytes: $0, latin1: false) }) {
                return answer
            }
        }
        return compiled.firstMatchExists(in: text.unicodeScalars, engine: .automatic)
    }

    /// Whether the pattern matches somewhere in the UTF-8 text `bytes` (a parsed document's string):
    /// first on the automaton frozen as the pattern compiled, which reads the bytes as they are;
    /// what it leaves is ASCII text (``firstMatchExists(inASCII:)``) or decoded.
    package func firstMatchExists(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if let answer = frozenMatchExists(utf8: bytes) { return answer }
        if !bytes.contains(where: { $0 >= 0x80 }) { return firstMatchExists(inASCII: bytes) }
        return firstMatchExists(in: String(decoding: bytes, as: UTF8.self))
    }

    /// Whether the pattern matches somewhere in the UTF-8 text `bytes`, when the automaton frozen
    /// as the pattern compiled can tell alone: ASCII text, or text whose first byte beyond ASCII
    /// comes once the answer is settled (a match found, or none possible); `nil` otherwise. Reads
    /// the bytes once, with no lock, no cache and no copy, and needs no check that they are ASCII.
    @inline(__always)
    func frozenMatchExists(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        dfa?.frozen?.run(bytes: bytes)
    }

    /// Whether the pattern matches somewhere in ASCII text given as bytes (every byte below 0x80;
    /// other bytes are read as the Latin-1 scalar of the same value).
    public func firstMatchExists(inASCII bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if literal != nil, let latin1 = literal!.latin1 { return literal!.matches(bytes, utf8: latin1) }
        // Optional chaining reads the automaton in place: binding it would count a reference for
        // every match.
        if let answer = dfa?.run(bytes: bytes, latin1: true) { return answer }
        if let answer = startLookarounds?.run(bytes: bytes, latin1: true) { return answer }
        return compiled.firstMatchExists(in: bytes.lazy.map { Unicode.Scalar($0) }, engine: .automatic)
    }

    /// Whether the pattern matches somewhere in `scalars`.
    public func firstMatchExists<C: Collection>(in scalars: C) -> Bool where C.Element == Unicode.Scalar {
        if dfa != nil || startLookarounds != nil, let view = scalars as? String.UnicodeScalarView {
            return firstMatchExists(in: String(view))
        }
        return compiled.firstMatchExists(in: scalars, engine: .automatic)
    }

    /// The range of the first match in `text`, as ECMA-262's `RegExp.prototype.exec` finds it: the
    /// leftmost start, and there the end that its backtracking order prefers (alternatives left to
    /// right, greedy quantifiers taking as much as they can, lazy ones as little) — the match that
    /// `text.firstMatch(of:)` of a backtracking engine gives, found in linear time. `nil` when the
    /// pattern matches nowhere.
    ///
    /// <!-- snippet: doc-regex-match -->
    /// ```swift
    /// let digits = try LinearRegex("\\d+")
    /// let text = "order 66, item 7"
    /// if let match = digits.firstMatch(in: text) { print(text[match]) }  // 66
    /// ```
    ///
    /// Costs O(program size × input length) steps, a factor of the quantifiers' nesting more for
    /// quantifiers whose body can match the empty string (`(a?)*`), and more than
    /// ``firstMatchExists(in:)-(String)``: validation asks only whether there is a match.
    public func firstMatch<S: StringProtocol>(in text: S) -> Range<S.Index>? {
        guard firstMatchExists(in: String(text)) else { return nil }
        let scalars = text.unicodeScalars
        guard let offsets = compiled.firstMatchOffsets(in: scalars) else { return nil }
        let start = scalars.index(scalars.startIndex, offsetBy: offsets.lowerBound)
        return start..<scalars.index(start, offsetBy: offsets.count)
    }

    /// The automata a match can run on: the fastest that applies (`automatic`), or one of them, to
    /// compare them in tests.
    enum Engine {
        case automatic, lazyDFA, bitParallel, pikeVM
    }

    /// Whether the pattern matches somewhere in `scalars`, on `engine` — or on the Pike VM (with the
    /// lookarounds' tables where there are lookarounds) when that engine does not apply.
    func firstMatchExists<C: Collection>(in scalars: C, engine: Engine) -> Bool where C.Element == Unicode.Scalar {
        compiled.firstMatchExists(in: scalars, engine: engine)
    }

    /// Runs the general Pike VM even where a faster automaton applies (to compare them in tests).
    func firstMatchExistsWithPikeVM<C: Collection>(in scalars: C) -> Bool where C.Element == Unicode.Scalar {
        compiled.firstMatchExists(in: scalars, engine: .pikeVM)
    }

    /// The first match as positions in `scalars` (see ``firstMatch(in:)``).
    func firstMatchOffsets<C: Collection>(in scalars: C) -> Range<Int>? where C.Element == Unicode.Scalar {
        compiled.firstMatchOffsets(in: scalars)
    }

    /// Whether the bit-parallel runner applies (where the lazy DFA's caches are all taken).
    var usesBitParallelRunner: Bool { compiled.usesBitParallelRunner }

    /// Whether matching uses the lazy DFA.
    var usesLazyDFA: Bool { compiled.usesLazyDFA }

    /// Whether matching compares bytes (the pattern is plain text).
    var usesLiteral: Bool { compiled.usesLiteral }

    /// Whether matching uses the positional DFA (patterns with lookarounds or word boundaries).
    var usesPositionalDFA: Bool { compiled.usesPositionalDFA }

    /// Whether matching decides lookaheads at the start by runs of their own (``StartLookarounds``).
    var decidesLookaheadsAtStart: Bool { startLookarounds != nil }

    /// How often the lazy DFA's caches were cleared for want of room.
    var lazyDFAClearings: Int { compiled.lazyDFAClearings }

    /// The lazy DFA, when matching uses one (for tests).
    var lazyDFA: LazyDFA? { compiled.lazyDFA }
}

/// A compiled pattern: what ``LinearRegex`` holds by reference, so that a copy of one (in a schema's
/// keywords, a rule) is a pointer.
final class CompiledRegex: Sendable {
    /// The pattern as written.
    let source: String
    private let program: [Instruction]
    private let sets: [ScalarSet]
    /// The lookarounds' own automata, innermost first (a lookaround's table is computed before
    /// those of the lookarounds that contain it).
    private let lookarounds: [Lookaround]
    /// Whether the pattern starts with `^` in every alternative (no need to try later start positions).
    private let isAnchoredAtStart: Bool
    /// The deepest nesting of quantifiers with ECMA-262's empty check (for ``firstMatch(in:)``).
    private let iterationDepth: Int
    /// The same automaton as bit masks, for patterns small enough (most schema patterns).
    private let bitParallel: BitParallelRunner?
    /// The same automaton made deterministic as the input needs it, for patterns without
    /// lookarounds and word boundaries.
    let dfa: LazyDFA?
    /// The automaton as a DFA that reads, at each position, the lookarounds' tables and whether a
    /// word boundary is there: for patterns with lookarounds or word boundaries.
    private let positionalDFA: LazyDFA?
    /// The pattern as plain text, where it is nothing else (`^x-`, `^\$ref$`, `json`): matched by
    /// comparing bytes.
    let literal: LiteralPattern?
    /// Buffers that matches of a pattern with lookarounds or word boundaries reuse (the input, the tables, the thread
    /// lists): allocating them per match cost more than matching short strings.
    private let scratch: [LookaroundScratch]
    /// For an anchored pattern whose lookaheads are all at its start (`^(?=.*[A-Z])(?=.*\d).{8,}$`):
    /// each decided by one forward run, and the pattern as a plain DFA for their outcome.
    let startLookarounds: StartLookarounds?

    /// The size of the compiled automaton, in instructions (the lookarounds' automata included).
    var programSize: Int { program.count + lookarounds.reduce(0) { $0 + $1.program.count } }

    /// The flags the pattern was compiled with.
    let options: LinearRegex.Options

    /// Compiles `source` (see ``LinearRegex/init(_:options:maximumProgramSize:)``).
    init(_ source: String, options: LinearRegex.Options, maximumProgramSize: Int) throws(RegexSyntaxError) {
        let (tree, compiler, limit) = try Self.program(source, options: options, maximumProgramSize: maximumProgramSize)
        self.source = source
        self.options = options
        self.program = compiler.program
        self.sets = compiler.sets
        self.lookarounds = compiler.lookarounds
        self.isAnchoredAtStart = Self.anchored(tree)
        self.iterationDepth = compiler.maximumIterationDepth
        self.bitParallel = BitParallelRunner(program: compiler.program, sets: compiler.sets)
        self.dfa = LazyDFA(program: compiler.program, sets: compiler.sets, anchored: isAnchoredAtStart)
        self.literal = LiteralPattern(tree)
        let positional =
            !compiler.lookarounds.isEmpty
            || compiler.program.contains { if case .wordBoundary = $0 { return true } else { return false } }
        self.positionalDFA =
            positional
            ? LazyDFA(
                program: compiler.program, sets: compiler.sets, anchored: isAnchoredAtStart, positional: true,
                lookaroundCount: compiler.lookarounds.count) : nil
        self.scratch = positional ? (0..<LazyDFA.cacheCount).map { _ in LookaroundScratch() } : []
        self.startLookarounds =
            positional && isAnchoredAtStart
            ? StartLookarounds(
                program: compiler.program, sets: compiler.sets, lookarounds: compiler.lookarounds, limit: limit)
            : nil
    }

    /// `source` parsed and its program emitted, the limit on its size checked: all that compiling
    /// may refuse, before any automaton is made.
    static func program(
        _ source: String, options: LinearRegex.Options, maximumProgramSize: Int
    ) throws(RegexSyntaxError) -> (tree: RegexNode, compiler: RegexCompiler, limit: Int) {
        var parser = RegexParser(source, options: options)
        let tree = try parser.parse()
        let limit = min(max(1, maximumProgramSize), LinearRegex.maximumAllowedProgramSize)
        var compiler = RegexCompiler(limit: limit)
        do {
            try compiler.emit(tree)
        } catch {
            throw RegexSyntaxError(
                pattern: source, offset: 0,
                reason: "the pattern expands to more than \(limit) instructions, the limit on a pattern's size",
                isUnsupportedFeature: true)
        }
        compiler.program.append(.match)
        return (tree, compiler, limit)
    }

    /// Whether the pattern matches somewhere in `scalars`, on `engine` — or on the Pike VM (with the
    /// lookarounds' tables where there are lookarounds) when that engine does not apply.
    func firstMatchExists<C: Collection>(in scalars: C, engine: LinearRegex.Engine) -> Bool
    where C.Element == Unicode.Scalar {
        if !lookarounds.isEmpty || (positionalDFA != nil && engine != .pikeVM && engine != .bitParallel) {
            return firstMatchExistsWithLookarounds(in: scalars, onDFA: engine != .pikeVM)
        }
        if engine == .automatic || engine == .lazyDFA, let dfa, let answer = dfa.run(scalars: scalars) {
            return answer
        }
        if engine == .automatic || engine == .bitParallel, let bitParallel {
            return bitParallel.run(scalars, anchored: isAnchoredAtStart)
        }
        return PikeRunner(program: program, sets: sets).run(scalars, anchored: isAnchoredAtStart)
    }

    /// Runs the general Pike VM even where a faster automaton applies (to compare them in tests).
    func firstMatchExistsWithPikeVM<C: Collection>(in scalars: C) -> Bool where C.Element == Unicode.Scalar {
        firstMatchExists(in: scalars, engine: .pikeVM)
    }

    /// The method of Barrière and Pit-Claudel ("Linear Matching of JavaScript Regular Expressions",
    /// PLDI 2024): each lookaround is decided at every position of the input at once, innermost
    /// first, by one unanchored run of its own automaton — forwards for a lookbehind (a match ending
    /// at a position), backwards over the reversed pattern for a lookahead (a match starting there);
    /// the main automaton then reads a lookaround as a positional assertion from its table. Each run
    /// costs its automaton's size per scalar, so the whole costs O(pattern size × input length).
    /// With `onDFA` false, every automaton runs on the Pike VM (to compare them in tests).
    private func firstMatchExistsWithLookarounds<C: Collection>(in scalars: C, onDFA: Bool) -> Bool
    where C.Element == Unicode.Scalar {
        for buffers in scratch where buffers.lock.tryLock() {
            defer { buffers.lock.unlock() }
            return firstMatchExistsWithLookarounds(in: scalars, using: buffers, onDFA: onDFA)
        }
        return firstMatchExistsWithLookarounds(in: scalars, using: LookaroundScratch(), onDFA: onDFA)
    }

    private func firstMatchExistsWithLookarounds<C: Collection>(
        in scalars: C, using buffers: LookaroundScratch, onDFA: Bool
    ) -> Bool where C.Element == Unicode.Scalar {
        let stride = fillPositions(of: scalars, into: buffers, onDFA: onDFA)
        return buffers.input.withUnsafeBufferPointer { input in
            buffers.tables.withUnsafeMutableBufferPointer { tables in
                if onDFA, let positionalDFA, let answer = positionalDFA.run(positions: input, tables: tables) {
                    return answer
                }
                return PositionRunner(program: program, sets: sets, input: input, tables: tables, stride: stride)
                    .firstMatchExists(
                        anchored: isAnchoredAtStart, current: &buffers.current, next: &buffers.next,
                        stack: &buffers.stack)
            }
        }
    }

    /// The first match as positions in `scalars` (see ``LinearRegex/firstMatch(in:)``).
    func firstMatchOffsets<C: Collection>(in scalars: C) -> Range<Int>? where C.Element == Unicode.Scalar {
        let buffers = scratch.first { $0.lock.tryLock() }
        defer { buffers?.lock.unlock() }
        let using = buffers ?? LookaroundScratch()
        let stride = fillPositions(of: scalars, into: using, onDFA: true)
        return using.input.withUnsafeBufferPointer { input in
            using.tables.withUnsafeMutableBufferPointer { tables in
                PositionRunner(program: program, sets: sets, input: input, tables: tables, stride: stride)
                    .firstMatch(anchored: isAnchoredAtStart, iterationDepth: iterationDepth)
            }
        }
    }

    /// Holds `scalars` in `buffers.input`, and in `buffers.tables` whether each lookaround holds at
    /// each position (`tables[index * stride + position]`); returns the stride, the input's count + 1.
    private func fillPositions<C: Collection>(of scalars: C, into buffers: LookaroundScratch, onDFA: Bool) -> Int
    where C.Element == Unicode.Scalar {
        buffers.input.removeAll(keepingCapacity: true)
        if let view = scalars as? String.UnicodeScalarView {
            // Decoded from the string's UTF-8 at once: the scalar view's indices cost more.
            var text = String(view)
            text.withUTF8 { bytes in
                var index = 0
                while index < bytes.count {
                    let (scalar, length) = DFACache.decode(bytes, at: index)
                    buffers.input.append(scalar)
                    index += length
                }
            }
        } else {
            buffers.input.append(contentsOf: scalars)
        }
        let stride = buffers.input.count + 1
        buffers.tables.removeAll(keepingCapacity: true)
        buffers.tables.append(contentsOf: repeatElement(false, count: stride * lookarounds.count))
        let capacity = max(program.count, lookarounds.reduce(0) { max($0, $1.program.count) })
        buffers.reserve(capacity)
        guard !lookarounds.isEmpty else { return stride }
        buffers.input.withUnsafeBufferPointer { input in
            buffers.tables.withUnsafeMutableBufferPointer { tables in
                for (index, lookaround) in lookarounds.enumerated() {
                    let table = UnsafeMutableBufferPointer(rebasing: tables[(index * stride)..<((index + 1) * stride)])
                    var onItsDFA = false
                    if onDFA, let dfa = lookaround.dfa {
                        onItsDFA = dfa.matchPositions(in: input, forward: lookaround.behind, into: table)
                    }
                    if !onItsDFA {
                        PositionRunner(
                            program: lookaround.program, sets: sets, input: input, tables: tables, stride: stride
                        )
                        .matchPositions(
                            forward: lookaround.behind, into: table, current: &buffers.current, next: &buffers.next,
                            stack: &buffers.stack)
                    }
                    if lookaround.negated {
                        for position in table.indices { table[position].toggle() }
                    }
                }
            }
        }
        return stride
    }

    /// Whether the bit-parallel runner applies (where the lazy DFA's caches are all taken).
    var usesBitParallelRunner: Bool { bitParallel != nil }

    /// Whether matching uses the lazy DFA.
    var usesLazyDFA: Bool { dfa != nil && lookarounds.isEmpty }

    /// The lazy DFA, when matching uses one (for tests).
    var lazyDFA: LazyDFA? { usesLazyDFA ? dfa : nil }

    /// Whether matching compares bytes (the pattern is plain text).
    var usesLiteral: Bool { literal != nil }

    /// Whether matching uses the positional DFA (patterns with lookarounds or word boundaries).
    var usesPositionalDFA: Bool { positionalDFA != nil }

    /// How often the lazy DFA's caches were cleared for want of room.
    var lazyDFAClearings: Int { dfa?.clearings ?? 0 }

    private static func anchored(_ node: RegexNode) -> Bool {
        switch node {
        case .startAnchor: return true
        case .concatenation(let nodes): return nodes.first.map(anchored) ?? false
        case .alternation(let nodes): return nodes.allSatisfy(anchored)
        default: return false
        }
    }
}

/// A pattern that is a run of single scalars, anchored or not: `^lit$`, `^lit`, `lit$` or `lit`.
struct LiteralPattern: Sendable {
    /// The longest literal searched for at every start of the text.
    static let maximumSearchedLength = 32

    let utf8: [UInt8]
    /// The literal in Latin-1, one byte a scalar, when every scalar is below U+0100.
    let latin1: [UInt8]?
    let atStart: Bool
    let atEnd: Bool

    init?(_ tree: RegexNode) {
        var nodes: [RegexNode]
        switch tree {
        case .concatenation(let parts): nodes = parts
        case .set: nodes = [tree]
        default: return nil
        }
        var atStart = false
        var atEnd = false
        if case .startAnchor = nodes.first {
            atStart = true
            nodes.removeFirst()
        }
        if case .endAnchor = nodes.last {
            atEnd = true
            nodes.removeLast()
        }
        var scalars: [Unicode.Scalar] = []
        for node in nodes {
            guard case .set(let set) = node, let scalar = set.singleScalar else { return nil }
            scalars.append(scalar)
        }
        guard !scalars.isEmpty else { return nil }
        // Unanchored, each start is compared for up to the literal's length: kept to short literals,
        // so the cost stays a small constant per byte (a long one runs on the DFA, one lookup a byte).
        guard atStart || atEnd || scalars.count <= LiteralPattern.maximumSearchedLength else { return nil }
        var utf8: [UInt8] = []
        for scalar in scalars { utf8.append(contentsOf: String(scalar).utf8) }
        self.utf8 = utf8
        self.latin1 = scalars.allSatisfy { $0.value < 0x100 } ? scalars.map { UInt8($0.value) } : nil
        self.atStart = atStart
        self.atEnd = atEnd
    }

    /// Whether `literal` (the pattern in the encoding of `text`) occurs in `text` where the anchors say.
    func matches(_ text: UnsafeBufferPointer<UInt8>, utf8 literal: [UInt8]) -> Bool {
        let count = literal.count
        guard text.count >= count else { return false }
        return literal.withUnsafeBufferPointer { literal in
            func occurs(at offset: Int) -> Bool {
                for index in 0..<count where text[offset + index] != literal[index] { return false }
                return true
            }
            switch (atStart, atEnd) {
            case (true, true): return text.count == count && occurs(at: 0)
            case (true, false): return occurs(at: 0)
            case (false, true): return occurs(at: text.count - count)
            case (false, false):
                // Each start tried once, each comparison at most the literal's length: linear in
                // the text for a fixed pattern.
                let first = literal[0]
                var offset = 0
                while offset <= text.count - count {
                    if text[offset] == first && occurs(at: offset) { return true }
                    offset += 1
                }
                return false
            }
        }
    }
}

enum Instruction: Sendable {
    case set(Int)
    case split(Int, Int)
    case jump(Int)
    case assertStart
    case assertEnd
    case wordBoundary(negated: Bool, ignoringCase: Bool)
    /// Holds where the lookaround of this index holds (its table, computed before the run).
    case lookaround(Int)
    /// The start of an iteration of a quantifier whose body can match the empty string, at this
    /// depth of such quantifiers: ECMA-262 fails an optional iteration that matched nothing
    /// (RepeatMatcher's empty check), which decides which match a search finds. Matching ignores it.
    case enterIteration(depth: Int)
    /// The end of that iteration: passes only where input was read since its ``enterIteration``.
    case checkIteration(depth: Int)
    case match
}

extension Instruction {
    /// Pushes onto `stack` where this ε-instruction, at `pc`, leads without reading input: a jump's
    /// target, both branches of a split (the preferred one on top), the next instruction past an
    /// assertion that `holds` or past an iteration mark (which only the search for a match's range
    /// reads). Consuming and matching instructions push nothing: each walk decides what they mean.
    /// Every walk of the automaton's ε-transitions goes through here.
    @inline(__always)
    func pushSuccessors<Index: FixedWidthInteger>(
        at pc: Index, onto stack: inout [Index], holds: (Instruction) -> Bool
    ) {
        switch self {
        case .set, .match:
            break
        case .jump(let target):
            stack.append(Index(target))
        case .split(let first, let second):
            stack.append(Index(second))
            stack.append(Index(first))
        case .assertStart, .assertEnd, .wordBoundary, .lookaround:
            if holds(self) { stack.append(pc + 1) }
        case .enterIteration, .checkIteration:
            stack.append(pc + 1)
        }
    }
}

/// A lookaround's automaton: its pattern (reversed, for a lookahead, which is run backwards).
struct Lookaround: Sendable {
    let program: [Instruction]
    let behind: Bool
    let negated: Bool
    /// The pattern inside, as written (forwards, for a lookahead too).
    let body: RegexNode
    /// The same automaton as a lazy DFA, where it has no lookarounds or word boundaries inside; for
    /// a lookahead, run backwards, its anchors change places (`$` holds where the run starts).
    let dfa: LazyDFA?

    init(program: [Instruction], sets: [ScalarSet], behind: Bool, negated: Bool, body: RegexNode) {
        self.program = program
        self.behind = behind
        self.negated = negated
        self.body = body
        let runOrder =
            behind
            ? program
            : program.map { instruction -> Instruction in
                switch instruction {
                case .assertStart: return .assertEnd
                case .assertEnd: return .assertStart
                default: return instruction
                }
            }
        dfa = LazyDFA(program: runOrder, sets: sets, anchored: false)
    }
}

struct RegexCompiler {
    struct TooLarge: Error {}
    let limit: Int
    /// Instructions emitted in every automaton: the limit holds for their sum.
    private var used = 0
    var program: [Instruction] = []
    var sets: [ScalarSet] = []
    var lookarounds: [Lookaround] = []
    /// The nesting of quantifiers with empty checks at the point of emission, and the deepest.
    private var iterationDepth = 0
    private(set) var maximumIterationDepth = 0

    init(limit: Int) { self.limit = limit }

    private mutating func append(_ instruction: Instruction) throws(TooLarge) -> Int {
        guard used < limit else { throw TooLarge() }
        used += 1
        program.append(instruction)
        return program.count - 1
    }

    mutating func emit(_ node: RegexNode) throws(TooLarge) {
        switch node {
        case .empty:
            break
        case .set(let set):
            sets.append(set)
            _ = try append(.set(sets.count - 1))
        case .startAnchor:
            _ = try append(.assertStart)
        case .endAnchor:
            _ = try append(.assertEnd)
        case .wordBoundary(let negated, let ignoringCase):
            _ = try append(.wordBoundary(negated: negated, ignoringCase: ignoringCase))
        case .lookaround(let inner, let behind, let negated):
            // Its own automaton (lookarounds inside it get theirs first), then a test of its table.
            let outer = program
            program = []
            try emit(behind ? inner : inner.reversed)
            _ = try append(.match)
            lookarounds.append(
                Lookaround(program: program, sets: sets, behind: behind, negated: negated, body: inner))
            program = outer
            _ = try append(.lookaround(lookarounds.count - 1))
        case .concatenation(let nodes):
            for node in nodes { try emit(node) }
        case .alternation(let nodes):
            var jumps: [Int] = []
            for (index, node) in nodes.enumerated() {
                if index < nodes.count - 1 {
                    let split = try append(.split(0, 0))
                    try emit(node)
                    jumps.append(try append(.jump(0)))
                    program[split] = .split(split + 1, program.count)
                } else {
                    try emit(node)
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repetition(let inner, let min, let max, let greedy):
            // Optional iterations of a body that can match nothing carry ECMA-262's empty check.
            let checked = inner.isNullable
            let depth = iterationDepth
            func emitIteration(_ compiler: inout RegexCompiler) throws(TooLarge) {
                guard checked else { return try compiler.emit(inner) }
                _ = try compiler.append(.enterIteration(depth: depth))
                compiler.iterationDepth += 1
                compiler.maximumIterationDepth = Swift.max(compiler.maximumIterationDepth, compiler.iterationDepth)
                try compiler.emit(inner)
                compiler.iterationDepth -= 1
                _ = try compiler.append(.checkIteration(depth: depth))
            }
            for copy in 0..<min {
                let before = program.count
                try emit(inner)
                // An inner part that compiles to nothing (`(a{0}){99999}`) is nothing however often
                // it is repeated: stop, or nested counts would loop without ever reaching the limit.
                if copy == 0 && program.count == before { break }
            }
            if let max {
                // Optional copies: split over each, all exiting to the end (preferred first when lazy).
                var splits: [Int] = []
                for _ in min..<max {
                    splits.append(try append(.split(0, 0)))
                    try emitIteration(&self)
                }
                for split in splits {
                    program[split] = greedy ? .split(split + 1, program.count) : .split(program.count, split + 1)
                }
            } else {
                let split = try append(.split(0, 0))
                try emitIteration(&self)
                _ = try append(.jump(split))
                program[split] = greedy ? .split(split + 1, program.count) : .split(program.count, split + 1)
            }
        }
    }
}

/// An anchored pattern whose lookarounds are all lookaheads read only at the start of the input —
/// before any scalar is read, in no loop (the shape of password rules, `^(?=.*[A-Z])(?=.*\d).{8,}$`,
/// and of `cspell`'s `^(?=[^!*,;{}[\]~\n]+$)(?=(.*\w)).+$`). Each lookahead is then one question
/// about the input — does its pattern match at the start? — answered by a forward DFA of it, anchored,
/// which stops at its first match; and for each combination of answers the pattern is a plain DFA,
/// the lookarounds replaced by what they answered. All of them read the UTF-8 in place: no scalars
/// decoded, no table per position. At most ``maximumLookaheads`` lookaheads (2^k variants).
final class StartLookarounds: Sendable {
    static let maximumLookaheads = 3

    /// Each lookahead's automaton (of its pattern, forwards) and whether it is negative.
    private let tests: [(dfa: LazyDFA, negated: Bool)]
    /// The pattern for each combination of answers: bit `j` set where lookahead `j` holds.
    private let variants: [LazyDFA]

    init?(program: [Instruction], sets: [ScalarSet], lookarounds: [Lookaround], limit: Int) {
        var used: [Int] = []
        for instruction in program {
            switch instruction {
            case .wordBoundary: return nil
            case .lookaround(let index): if !used.contains(index) { used.append(index) }
            default: continue
            }
        }
        guard !used.isEmpty, used.count <= Self.maximumLookaheads else { return nil }
        // No lookaround may be reached after a scalar is read.
        var reached = [Bool](repeating: false, count: program.count + 1)
        var stack: [Int] = []
        for (pc, instruction) in program.enumerated() {
            if case .set = instruction { stack.append(pc + 1) }
        }
        while let pc = stack.popLast() {
            guard pc < program.count, !reached[pc] else { continue }
            reached[pc] = true
            if case .lookaround = program[pc] { return nil }
            program[pc].pushSuccessors(at: pc, onto: &stack) { _ in true }
        }
        var tests: [(dfa: LazyDFA, negated: Bool)] = []
        for index in used {
            let lookaround = lookarounds[index]
            guard !lookaround.behind else { return nil }
            var compiler = RegexCompiler(limit: limit)
            guard (try? compiler.emit(lookaround.body)) != nil, compiler.lookarounds.isEmpty else { return nil }
            compiler.program.append(.match)
            guard let dfa = LazyDFA(program: compiler.program, sets: compiler.sets, anchored: true) else { return nil }
            tests.append((dfa, lookaround.negated))
        }
        let never = sets.count
        let setsWithNever = sets + [ScalarSet()]
        var variants: [LazyDFA] = []
        for answers in 0..<(1 << used.count) {
            let variant = program.enumerated().map { pc, instruction -> Instruction in
                guard case .lookaround(let index) = instruction else { return instruction }
                return answers & (1 << used.firstIndex(of: index)!) != 0 ? .jump(pc + 1) : .set(never)
            }
            guard let dfa = LazyDFA(program: variant, sets: setsWithNever, anchored: true) else { return nil }
            variants.append(dfa)
        }
        self.tests = tests
        self.variants = variants
    }

    /// Whether the pattern matches in UTF-8 (or Latin-1) text; `nil` when a cache was in use.
    @inline(__always)
    func run(bytes: UnsafeBufferPointer<UInt8>, latin1: Bool) -> Bool? {
        var answers = 0
        for (index, test) in tests.enumerated() {
            guard let holds = test.dfa.run(bytes: bytes, latin1: latin1) else { return nil }
            if holds != test.negated { answers |= 1 << index }
        }
        return variants[answers].run(bytes: bytes, latin1: latin1)
    }
}

/// Breadth-first simulation of the automaton: every thread advances in lock step, one input scalar
/// at a time, and a sparse set keeps at most one thread per instruction.
struct PikeRunner {
    let program: [Instruction]
    let sets: [ScalarSet]

    func run<C: Collection>(_ input: C, anchored: Bool) -> Bool where C.Element == Unicode.Scalar {
        var current = SparseSet(capacity: program.count)
        var next = SparseSet(capacity: program.count)
        var stack: [Int] = []
        var index = input.startIndex
        var previous: Unicode.Scalar? = nil
        var atStart = true
        while true {
            let scalar: Unicode.Scalar? = index < input.endIndex ? input[index] : nil
            if atStart || !anchored {
                if addThread(0, into: &current, stack: &stack, previous: previous, next: scalar, atStart: atStart) {
                    return true
                }
            }
            guard let scalar else { return false }
            if current.isEmpty && anchored { return false }
            next.clear()
            let nextIndex = input.index(after: index)
            let following: Unicode.Scalar? = nextIndex < input.endIndex ? input[nextIndex] : nil
            for pc in current.elements {
                if case .set(let setIndex) = program[pc], sets[setIndex].contains(scalar) {
                    if addThread(pc + 1, into: &next, stack: &stack, previous: scalar, next: following, atStart: false)
                    {
                        return true
                    }
                }
            }
            swap(&current, &next)
            previous = scalar
            index = nextIndex
            atStart = false
        }
    }

    /// Follows the ε-transitions from `pc`; returns `true` when a match is reached.
    private func addThread(
        _ pc: Int, into list: inout SparseSet, stack: inout [Int], previous: Unicode.Scalar?, next: Unicode.Scalar?,
        atStart: Bool
    ) -> Bool {
        stack.append(pc)
        while let pc = stack.popLast() {
            guard list.insert(pc) else { continue }
            if case .match = program[pc] {
                stack.removeAll(keepingCapacity: true)
                return true
            }
            program[pc].pushSuccessors(at: pc, onto: &stack) { assertion in
                switch assertion {
                case .assertStart: return atStart
                case .assertEnd: return next == nil
                case .wordBoundary(let negated, let ignoringCase):
                    let boundary = ScalarSet.isWordBoundary(previous, next, ignoringCase: ignoringCase)
                    return boundary != negated
                default: preconditionFailure("patterns with lookarounds run on PositionRunner")
                }
            }
        }
        return false
    }
}

/// The Pike VM over an array of scalars, in either direction, with the lookarounds' tables: what
/// patterns with lookarounds run on. Positions are the gaps between scalars, 0 through the count;
/// every assertion tests an absolute position, whichever way the run goes.
struct PositionRunner {
    let program: [Instruction]
    let sets: [ScalarSet]
    let input: UnsafeBufferPointer<Unicode.Scalar>
    /// For each lookaround, whether it holds at each position: `tables[index * stride + position]`.
    let tables: UnsafeMutableBufferPointer<Bool>
    let stride: Int

    /// For each position, whether a match of the automaton ends there (forwards) or starts there
    /// (backwards, the automaton being of the reversed pattern): one unanchored run. `result` holds
    /// a `false` per position on entry.
    func matchPositions(
        forward: Bool, into result: UnsafeMutableBufferPointer<Bool>, current: inout SparseSet,
        next: inout SparseSet, stack: inout [Int]
    ) {
        let count = input.count
        current.clear()
        var position = forward ? 0 : count
        while true {
            if addThread(0, into: &current, stack: &stack, at: position) { result[position] = true }
            guard forward ? position < count : position > 0 else { return }
            let scalar = forward ? input[position] : input[position - 1]
            let following = forward ? position + 1 : position - 1
            next.clear()
            var matched = false
            for pc in current.elements {
                if case .set(let setIndex) = program[pc], sets[setIndex].contains(scalar) {
                    if addThread(pc + 1, into: &next, stack: &stack, at: following) { matched = true }
                }
            }
            swap(&current, &next)
            position = following
            if matched { result[position] = true }
        }
    }

    /// Whether the automaton matches somewhere (at the start only, when `anchored`), forwards.
    func firstMatchExists(anchored: Bool, current: inout SparseSet, next: inout SparseSet, stack: inout [Int]) -> Bool {
        let count = input.count
        current.clear()
        var position = 0
        while true {
            if position == 0 || !anchored {
                if addThread(0, into: &current, stack: &stack, at: position) { return true }
            }
            if position == count || (current.isEmpty && anchored) { return false }
            let scalar = input[position]
            next.clear()
            for pc in current.elements {
                if case .set(let setIndex) = program[pc], sets[setIndex].contains(scalar) {
                    if addThread(pc + 1, into: &next, stack: &stack, at: position + 1) { return true }
                }
            }
            swap(&current, &next)
            position += 1
        }
    }

    /// The match ECMA-262's search finds — the leftmost start, and there the end its backtracking
    /// order reaches first (alternatives left to right, greedy iterations before fewer, lazy after) —
    /// as scalar positions; `nil` when there is none. A Pike VM whose threads keep that order (each
    /// list is in priority order; a thread that reaches the match drops those after it) and carry
    /// where their match started. The empty check of ECMA-262's RepeatMatcher — an optional
    /// iteration that read nothing fails — is a thread's state too: the outermost `depth` of the
    /// iterations it entered since it last read input (`iterationDepth` when none); states are
    /// (instruction, that depth), so a step costs at most the program's size × (`iterationDepth` + 1).
    func firstMatch(anchored: Bool, iterationDepth: Int) -> Range<Int>? {
        let count = input.count
        let depths = iterationDepth + 1
        // `visited[state]` and `listed[pc]` hold the position (+ 1) whose closures reached them.
        var visited = [Int](repeating: 0, count: program.count * depths)
        var listed = [Int](repeating: 0, count: program.count)
        var current: [(pc: Int, start: Int)] = []
        var next: [(pc: Int, start: Int)] = []
        var stack: [(pc: Int, fresh: Int)] = []
        var found: Range<Int>? = nil

        /// Follows the ε-transitions from `pc` at `position` in priority order, appending the
        /// consuming instructions reached to `list`; returns whether the match instruction was
        /// reached (what follows it in the order is then dropped).
        func closure(from pc: Int, start: Int, at position: Int, into list: inout [(pc: Int, start: Int)]) -> Bool {
            let mark = position + 1
            stack.append((pc, iterationDepth))
            while let (pc, fresh) = stack.popLast() {
                let state = pc * depths + fresh
                guard visited[state] != mark else { continue }
                visited[state] = mark
                switch program[pc] {
                case .match:
                    stack.removeAll(keepingCapacity: true)
                    return true
                case .set:
                    if listed[pc] != mark {
                        listed[pc] = mark
                        list.append((pc, start))
                    }
                case .enterIteration(let depth):
                    stack.append((pc + 1, Swift.min(fresh, depth)))
                case .checkIteration(let depth):
                    if fresh > depth { stack.append((pc + 1, fresh)) }
                case .jump(let target):
                    stack.append((target, fresh))
                case .split(let first, let second):
                    stack.append((second, fresh))
                    stack.append((first, fresh))
                default:
                    if holds(program[pc], at: position) { stack.append((pc + 1, fresh)) }
                }
            }
            return false
        }

        var position = 0
        while true {
            // A new start has the lowest priority, and none is tried once a match is found.
            if found == nil && (position == 0 || !anchored) {
                if closure(from: 0, start: position, at: position, into: &current) {
                    found = position..<position
                }
            }
            if position == count { return found }
            if current.isEmpty {
                if found != nil || anchored { return found }
                position += 1
                continue
            }
            let scalar = input[position]
            next.removeAll(keepingCapacity: true)
            for thread in current {
                guard case .set(let setIndex) = program[thread.pc], sets[setIndex].contains(scalar) else { continue }
                if closure(from: thread.pc + 1, start: thread.start, at: position + 1, into: &next) {
                    found = thread.start..<(position + 1)
                    break
                }
            }
            swap(&current, &next)
            position += 1
        }
    }

    /// Follows the ε-transitions from `pc` at `position`, all of them; returns whether a match
    /// was among them.
    private func addThread(_ pc: Int, into list: inout SparseSet, stack: inout [Int], at position: Int) -> Bool {
        var matched = false
        stack.append(pc)
        while let pc = stack.popLast() {
            guard list.insert(pc) else { continue }
            if case .match = program[pc] { matched = true }
            program[pc].pushSuccessors(at: pc, onto: &stack) { holds($0, at: position) }
        }
        return matched
    }

    /// Whether the assertion holds at `position`.
    private func holds(_ assertion: Instruction, at position: Int) -> Bool {
        switch assertion {
        case .assertStart: return position == 0
        case .assertEnd: return position == input.count
        case .wordBoundary(let negated, let ignoringCase):
            let previous = position > 0 ? input[position - 1] : nil
            let next = position < input.count ? input[position] : nil
            let boundary = ScalarSet.isWordBoundary(previous, next, ignoringCase: ignoringCase)
            return boundary != negated
        case .lookaround(let index): return tables[index * stride + position]
        default: return false
        }
    }
}

/// The buffers of one match with lookarounds, reused by the next (used only under `lock`).
final class LookaroundScratch: @unchecked Sendable {
    let lock = TryLock()
    @exclusivity(unchecked) var input: [Unicode.Scalar] = []
    @exclusivity(unchecked) var tables: [Bool] = []
    @exclusivity(unchecked) var current = SparseSet(capacity: 0)
    @exclusivity(unchecked) var next = SparseSet(capacity: 0)
    @exclusivity(unchecked) var stack: [Int] = []

    /// Makes the thread lists hold up to `capacity` instructions.
    func reserve(_ capacity: Int) {
        if current.capacity < capacity {
            current = SparseSet(capacity: capacity)
            next = SparseSet(capacity: capacity)
        }
    }
}

/// The Pike VM's breadth-first simulation for automata of at most 64 instructions without word
/// boundaries, with the set of live threads as one 64-bit mask: the ε-closures are computed once, at
/// compile time (for each combination of "at the start" and "at the end" of the input), and so is,
/// for each ASCII scalar, the mask of instructions whose class contains it. A step is then a few
/// mask operations per live thread, with no allocation. Same answers as ``PikeRunner``.
struct BitParallelRunner: Sendable {
    /// `closures[variant * count + pc]`: the consuming and matching instructions reachable from
    /// `pc` without input; variant = (atStart ? 2 : 0) + (atEnd ? 1 : 0).
    private let closures: [UInt64]
    private let count: Int
    /// For each ASCII scalar, the class instructions that accept it.
    private let ascii: [UInt64]
    /// The class instructions and the class each tests (for scalars beyond ASCII).
    private let classes: [(bit: UInt64, set: ScalarSet)]
    private let matchMask: UInt64

    init?(program: [Instruction], sets: [ScalarSet]) {
        guard program.count <= 64 else { return nil }
        for instruction in program {
            switch instruction {
            case .wordBoundary, .lookaround: return nil
            default: continue
            }
        }
        count = program.count
        var closures = [UInt64](repeating: 0, count: 4 * (program.count + 1))
        var matchMask: UInt64 = 0
        var classes: [(bit: UInt64, set: ScalarSet)] = []
        var ascii = [UInt64](repeating: 0, count: 128)
        for (pc, instruction) in program.enumerated() {
            switch instruction {
            case .match:
                matchMask |= 1 << UInt64(pc)
            case .set(let index):
                let bit: UInt64 = 1 << UInt64(pc)
                classes.append((bit, sets[index]))
                for value in 0..<128 where sets[index].contains(Unicode.Scalar(UInt8(value))) { ascii[value] |= bit }
            default:
                break
            }
        }
        for variant in 0..<4 {
            for pc in 0...program.count {
                closures[variant * (program.count + 1) + pc] = Self.closure(
                    from: pc, program: program, atStart: variant >= 2, atEnd: variant & 1 == 1)
            }
        }
        self.closures = closures
        self.matchMask = matchMask
        self.classes = classes
        self.ascii = ascii
    }

    private static func closure(from start: Int, program: [Instruction], atStart: Bool, atEnd: Bool) -> UInt64 {
        var mask: UInt64 = 0
        var visited: UInt64 = 0
        var stack = [start]
        while let pc = stack.popLast() {
            guard pc < program.count, visited & (1 << UInt64(pc)) == 0 else { continue }
            visited |= 1 << UInt64(pc)
            switch program[pc] {
            case .match, .set: mask |= 1 << UInt64(pc)
            default:
                program[pc].pushSuccessors(at: pc, onto: &stack) { assertion in
                    switch assertion {
                    case .assertStart: return atStart
                    case .assertEnd: return atEnd
                    default: return false
                    }
                }
            }
        }
        return mask
    }

    @inline(__always)
    private func closure(_ pc: Int, atStart: Bool, atEnd: Bool) -> UInt64 {
        closures[((atStart ? 2 : 0) + (atEnd ? 1 : 0)) * (count + 1) + pc]
    }

    func run<C: Collection>(_ input: C, anchored: Bool) -> Bool where C.Element == Unicode.Scalar {
        var current: UInt64 = 0
        var index = input.startIndex
        var atStart = true
        while true {
            let atEnd = index == input.endIndex
            if atStart || !anchored { current |= closure(0, atStart: atStart, atEnd: atEnd) }
            if current & matchMask != 0 { return true }
            if atEnd || current == 0 && anchored { return false }
            let scalar = input[index]
            var accepted: UInt64
            if scalar.isASCII {
                accepted = current & ascii[Int(scalar.value)]
            } else {
                accepted = 0
                for entry in classes where current & entry.bit != 0 && entry.set.contains(scalar) {
                    accepted |= entry.bit
                }
            }
            index = input.index(after: index)
            let nextAtEnd = index == input.endIndex
            var next: UInt64 = 0
            while accepted != 0 {
                let pc = accepted.trailingZeroBitCount
                accepted &= accepted - 1
                next |= closure(pc + 1, atStart: false, atEnd: nextAtEnd)
            }
            current = next
            atStart = false
        }
    }
}

/// A set of small integers with O(1) insert, membership and clear, iterated in insertion order.
struct SparseSet {
    private var dense: [Int]
    private var sparse: [Int]
    private(set) var count = 0

    init(capacity: Int) {
        dense = Array(repeating: 0, count: capacity)
        sparse = Array(repeating: 0, count: capacity)
    }

    var capacity: Int { dense.count }

    var isEmpty: Bool { count == 0 }

    var elements: ArraySlice<Int> { dense[0..<count] }

    mutating func insert(_ value: Int) -> Bool {
        let slot = sparse[value]
        if slot < count && dense[slot] == value { return false }
        sparse[value] = count
        dense[count] = value
        count += 1
        return true
    }

    mutating func clear() { count = 0 }
}
