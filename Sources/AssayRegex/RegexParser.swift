/// The syntax tree of a regular expression.
indirect enum RegexNode: Sendable {
    case empty
    case set(ScalarSet)
    case concatenation([RegexNode])
    case alternation([RegexNode])
    /// `x*`, `x{n,m}`…; `greedy` is false for the lazy forms (`x*?`), which match the same strings
    /// and prefer fewer iterations.
    case repetition(RegexNode, min: Int, max: Int?, greedy: Bool)
    case startAnchor
    case endAnchor
    /// `\b` or `\B`; with `ignoringCase`, ſ (U+017F) and K (U+212A) are word characters too, as
    /// ECMA-262 has it under the `i` and `u` flags.
    case wordBoundary(negated: Bool, ignoringCase: Bool)
    /// `(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`: whether the inner pattern matches just after (or just
    /// before) the position, or does not.
    case lookaround(RegexNode, behind: Bool, negated: Bool)

    /// The node matching the reversed strings: what a lookahead runs backwards from the end of the
    /// input. Positional assertions (anchors, word boundaries, lookarounds) test absolute positions,
    /// so they stay as they are.
    var reversed: RegexNode {
        switch self {
        case .concatenation(let nodes): return .concatenation(nodes.reversed().map(\.reversed))
        case .alternation(let nodes): return .alternation(nodes.map(\.reversed))
        case .repetition(let inner, let min, let max, let greedy):
            return .repetition(inner.reversed, min: min, max: max, greedy: greedy)
        case .empty, .set, .startAnchor, .endAnchor, .wordBoundary, .lookaround: return self
        }
    }

    /// Whether the node can match the empty string (assertions match it where they hold).
    var isNullable: Bool {
        switch self {
        case .set: return false
        case .empty, .startAnchor, .endAnchor, .wordBoundary, .lookaround: return true
        case .concatenation(let nodes): return nodes.allSatisfy(\.isNullable)
        case .alternation(let nodes): return nodes.contains(where: \.isNullable)
        case .repetition(let inner, let min, _, _): return min == 0 || inner.isNullable
        }
    }
}

/// Parses ECMA-262 pattern syntax as with the `u` flag (a lone `{`, `}` or `]` is an error), except
/// that an escaped ASCII punctuation character is that character (`\&`), into a ``RegexNode``. The
/// other flags are applied here: with `i`, every class is closed under simple case folding; with
/// `m`, `^` and `$` become tests of the scalar before or after; with `s`, `.` matches everything.
struct RegexParser {
    private let source: String
    private let options: LinearRegex.Options
    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var groupDepth = 0
    /// The names of the groups so far: a name given twice is a syntax error (as in V8; ES2025 allows
    /// it in different alternatives, which node 20 does not).
    private var groupNames: Set<String> = []
    static let maximumGroupDepth = 256
    static let maximumRepetition = 100_000

    init(_ source: String, options: LinearRegex.Options = []) {
        self.source = source
        self.options = options
        self.scalars = Array(source.unicodeScalars)
    }

    mutating func parse() throws(RegexSyntaxError) -> RegexNode {
        let node = try parseDisjunction()
        if position < scalars.count {
            throw error(scalars[position] == ")" ? "unmatched \")\"" : "unexpected character")
        }
        return node
    }

    private func error(_ reason: String, at offset: Int? = nil, unsupported: Bool = false) -> RegexSyntaxError {
        RegexSyntaxError(
            pattern: source, offset: offset ?? position, reason: reason, isUnsupportedFeature: unsupported)
    }

    private var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private func peek(_ offset: Int) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    private mutating func parseDisjunction() throws(RegexSyntaxError) -> RegexNode {
        var alternatives = [try parseAlternative()]
        while current == "|" {
            position += 1
            alternatives.append(try parseAlternative())
        }
        return alternatives.count == 1 ? alternatives[0] : .alternation(alternatives)
    }

    private mutating func parseAlternative() throws(RegexSyntaxError) -> RegexNode {
        var terms: [RegexNode] = []
        while let scalar = current, scalar != "|", scalar != ")" {
            terms.append(try parseTerm())
        }
        switch terms.count {
        case 0: return .empty
        case 1: return terms[0]
        default: return .concatenation(terms)
        }
    }

    private mutating func parseTerm() throws(RegexSyntaxError) -> RegexNode {
        let start = position
        let scalar = current!
        var atom: RegexNode
        var isAssertion = false
        switch scalar {
        case "^":
            position += 1
            // Multiline: at the start, or after a line terminator — where no scalar but a line
            // terminator is just before.
            atom = options.contains(.multiline) ? .lookaround(.set(.dot), behind: true, negated: true) : .startAnchor
            isAssertion = true
        case "$":
            position += 1
            atom = options.contains(.multiline) ? .lookaround(.set(.dot), behind: false, negated: true) : .endAnchor
            isAssertion = true
        case "\\" where peek(1) == "b" || peek(1) == "B":
            atom = .wordBoundary(negated: peek(1) == "B", ignoringCase: options.contains(.ignoreCase))
            position += 2
            isAssertion = true
        case "(":
            // With the `u` flag, no assertion may be quantified, lookarounds included (a group
            // around one may: `((?=a))*`).
            isAssertion =
                peek(1) == "?"
                && (peek(2) == "=" || peek(2) == "!" || (peek(2) == "<" && (peek(3) == "=" || peek(3) == "!")))
            atom = try parseGroup()
        case ".":
            position += 1
            atom = .set(options.contains(.dotAll) ? .all : .dot)
        case "[":
            atom = .set(try parseClass())
        case "\\":
            atom = .set(caseClosed(try parseAtomEscape()))
        case "*", "+", "?":
            throw error("nothing to repeat")
        case "{" where quantifierBounds(at: position) != nil:
            throw error("nothing to repeat")
        case "{", "}", "]":
            // Literal only in Annex B's non-Unicode mode; with the `u` flag, as V8 has it, an error.
            throw error("a lone \"\(scalar)\" must be escaped (\\\(scalar))")
        default:
            position += 1
            atom = .set(caseClosed(.scalar(scalar.value)))
        }
        guard let quantifier = try parseQuantifier() else { return atom }
        if isAssertion { throw error("an assertion cannot be repeated", at: start) }
        atom = .repetition(atom, min: quantifier.min, max: quantifier.max, greedy: quantifier.greedy)
        return atom
    }

    private mutating func parseQuantifier() throws(RegexSyntaxError) -> (min: Int, max: Int?, greedy: Bool)? {
        guard let scalar = current else { return nil }
        var result: (min: Int, max: Int?)
        switch scalar {
        case "*": result = (0, nil); position += 1
        case "+": result = (1, nil); position += 1
        case "?": result = (0, 1); position += 1
        case "{":
            guard let (bounds, end) = quantifierBounds(at: position) else { return nil }
            let start = position
            position = end
            if let max = bounds.max, max < bounds.min {
                throw error("numbers out of order in {} quantifier", at: start)
            }
            if bounds.min > Self.maximumRepetition || (bounds.max ?? 0) > Self.maximumRepetition {
                throw error("repetition count above \(Self.maximumRepetition)", at: start, unsupported: true)
            }
            result = bounds
        default: return nil
        }
        let greedy = current != "?"
        if !greedy { position += 1 }
        if let next = current, next == "*" || next == "+" || next == "?" {
            throw error("nothing to repeat")
        }
        return (result.min, result.max, greedy)
    }

    /// `{n}`, `{n,}` or `{n,m}` at `index`: the bounds and the index after `}`.
    private func quantifierBounds(at index: Int) -> ((min: Int, max: Int?), Int)? {
        var i = index + 1
        func number() -> Int? {
            var value = 0
            var digits = 0
            while i < scalars.count, let digit = Int(String(scalars[i])), ("0"..."9").contains(scalars[i]) {
                value = value > Int.max / 20 ? Int.max / 2 : value * 10 + digit
                digits += 1
                i += 1
            }
            return digits > 0 ? value : nil
        }
        guard let min = number() else { return nil }
        var max: Int? = min
        if i < scalars.count, scalars[i] == "," {
            i += 1
            max = number()
        }
        guard i < scalars.count, scalars[i] == "}" else { return nil }
        return ((min, max), i + 1)
    }

    private mutating func parseGroup() throws(RegexSyntaxError) -> RegexNode {
        let start = position
        position += 1
        var lookaround: (behind: Bool, negated: Bool)?
        if current == "?" {
            switch peek(1) {
            case ":":
                position += 2
            case "=", "!":
                lookaround = (false, peek(1) == "!")
                position += 2
            case "<" where peek(2) == "=" || peek(2) == "!":
                lookaround = (true, peek(2) == "!")
                position += 3
            case "<":
                position += 2
                let nameStart = position
                while let scalar = current, scalar != ">" {
                    guard scalar == "_" || scalar == "$" || scalar.properties.isIDContinue else {
                        throw error("invalid group name")
                    }
                    position += 1
                }
                guard current == ">", position > nameStart else { throw error("invalid group name") }
                let name = String(String.UnicodeScalarView(scalars[nameStart..<position]))
                guard groupNames.insert(name).inserted else { throw error("duplicate group name", at: nameStart) }
                position += 1
            default:
                throw error("invalid group")
            }
        }
        groupDepth += 1
        if groupDepth > Self.maximumGroupDepth { throw error("groups nested deeper than \(Self.maximumGroupDepth)") }
        let inner = try parseDisjunction()
        groupDepth -= 1
        guard current == ")" else { throw error("missing \")\"", at: start) }
        position += 1
        if let lookaround { return .lookaround(inner, behind: lookaround.behind, negated: lookaround.negated) }
        return inner
    }

    private mutating func parseClass() throws(RegexSyntaxError) -> ScalarSet {
        let start = position
        position += 1
        var set = ScalarSet()
        if current == "^" {
            set.isNegated = true
            position += 1
        }
        while current != nil, current != "]" {
            let first = try parseClassAtom()
            if current == "-", let next = peek(1), next != "]" {
                position += 1
                let second = try parseClassAtom()
                guard case .single(let low) = first, case .single(let high) = second else {
                    throw error("a class escape cannot bound a range")
                }
                guard low <= high else { throw error("range out of order in character class") }
                set.add(.range(low, high))
            } else {
                switch first {
                case .single(let value): set.add(.range(value, value))
                case .set(let escape): set.add(contentsOf: escape)
                }
            }
        }
        guard current == "]" else { throw error("missing \"]\"", at: start) }
        position += 1
        guard options.contains(.ignoreCase) else { return set }
        // `[^…]` is everything but the scalars that fold like a member: closed, then negated.
        let negated = set.isNegated
        set.isNegated = false
        var closed = set.closedUnderCaseFolding()
        closed.isNegated = negated
        return closed
    }

    /// `set` as the `i` flag reads it (every scalar that folds like a member), or as it is.
    private func caseClosed(_ set: ScalarSet) -> ScalarSet {
        options.contains(.ignoreCase) ? set.closedUnderCaseFolding() : set
    }

    private enum ClassAtom { case single(UInt32), set(ScalarSet) }

    private mutating func parseClassAtom() throws(RegexSyntaxError) -> ClassAtom {
        let scalar = current!
        guard scalar == "\\" else {
            position += 1
            return .single(scalar.value)
        }
        if peek(1) == "b" {
            position += 2
            return .single(0x08)
        }
        if peek(1) == "-" {
            position += 2
            return .single(0x2D)
        }
        let set = try parseAtomEscape(inClass: true)
        if case .range(let low, let high) = set.items.first, set.items.count == 1, low == high, !set.isNegated {
            return .single(low)
        }
        return .set(set)
    }

    /// An escape after `\`, outside or inside a class.
    private mutating func parseAtomEscape(inClass: Bool = false) throws(RegexSyntaxError) -> ScalarSet {
        let start = position
        position += 1
        guard let scalar = current else { throw error("\\ at end of pattern", at: start) }
        position += 1
        switch scalar {
        case "d": return .digits
        case "D": return negated(.digits)
        case "w": return options.contains(.ignoreCase) ? .wordCharactersIgnoringCase : .wordCharacters
        case "W": return negated(options.contains(.ignoreCase) ? .wordCharactersIgnoringCase : .wordCharacters)
        case "s": return .whitespace
        case "S": return negated(.whitespace)
        case "t": return .scalar(0x09)
        case "n": return .scalar(0x0A)
        case "v": return .scalar(0x0B)
        case "f": return .scalar(0x0C)
        case "r": return .scalar(0x0D)
        case "0":
            if let next = current, ("0"..."9").contains(next) { throw error("invalid decimal escape", at: start) }
            return .scalar(0)
        case "1"..."9":
            throw error("backreferences are not supported by the linear-time engine", at: start, unsupported: true)
        case "k" where !inClass:
            throw error(
                "named backreferences are not supported by the linear-time engine", at: start, unsupported: true)
        case "c":
            guard let letter = current, letter.isASCII, letter.properties.isAlphabetic else {
                throw error("invalid control escape", at: start)
            }
            position += 1
            return .scalar(letter.value % 32)
        case "x":
            guard let value = hexDigits(count: 2) else { throw error("invalid \\x escape", at: start) }
            return .scalar(value)
        case "u":
            return .scalar(try parseUnicodeEscape(start: start))
        case "p", "P":
            guard current == "{", let close = scalars[position...].firstIndex(of: "}") else {
                throw error("invalid Unicode property escape", at: start)
            }
            let name = String(String.UnicodeScalarView(scalars[(position + 1)..<close]))
            guard let test = UnicodePropertyTest.named(name) else {
                throw error("unknown Unicode property \"\(name)\"", at: start)
            }
            position = close + 1
            return ScalarSet(items: [.property(test, negated: false)], negated: scalar == "P")
        default:
            // Identity escapes: ECMA-262's `u` mode allows the syntax characters and "/" only; any
            // ASCII punctuation is accepted as itself (`\&`, `\%`, `\-`, `\'`), as real schemas expect
            // and Annex B, Blaze and jsonschema-rs allow. A deviation from V8, documented. Letters,
            // digits and everything beyond ASCII stay errors (`\a`, `\é`: reserved for new escapes).
            if scalar.isASCII, scalar.properties.generalCategory != .control, !scalar.properties.isAlphabetic,
                !("0"..."9").contains(scalar), scalar != " "
            {
                return .scalar(scalar.value)
            }
            throw error("invalid escape \\\(scalar)", at: start)
        }
    }

    private func negated(_ set: ScalarSet) -> ScalarSet {
        var copy = set
        copy.isNegated.toggle()
        return ScalarSet(items: copy.items, negated: copy.isNegated)
    }

    private mutating func hexDigits(count: Int) -> UInt32? {
        guard position + count <= scalars.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<count {
            guard let digit = hexValue(scalars[position + offset]) else { return nil }
            value = value * 16 + digit
        }
        position += count
        return value
    }

    private func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": return scalar.value - 0x30
        case "a"..."f": return scalar.value - 0x61 + 10
        case "A"..."F": return scalar.value - 0x41 + 10
        default: return nil
        }
    }

    private mutating func parseUnicodeEscape(start: Int) throws(RegexSyntaxError) -> UInt32 {
        if current == "{" {
            position += 1
            var value: UInt32 = 0
            var digits = 0
            while let scalar = current, let digit = hexValue(scalar) {
                value = value * 16 + digit
                digits += 1
                position += 1
                if value > 0x10FFFF { throw error("\\u{…} escape above U+10FFFF", at: start) }
            }
            guard digits > 0, current == "}" else { throw error("invalid \\u{…} escape", at: start) }
            position += 1
            return value
        }
        guard let high = hexDigits(count: 4) else { throw error("invalid \\u escape", at: start) }
        if (0xD800...0xDBFF).contains(high), current == "\\", peek(1) == "u" {
            let saved = position
            position += 2
            if let low = hexDigits(count: 4), (0xDC00...0xDFFF).contains(low) {
                return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            }
            position = saved
        }
        return high
    }
}
