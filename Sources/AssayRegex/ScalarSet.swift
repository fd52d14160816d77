/// A set of Unicode scalars: ranges and Unicode properties, optionally negated, with an ASCII bitmap
/// for the common case.
struct ScalarSet: Sendable {
    enum Item: Sendable {
        case range(UInt32, UInt32)
        case property(UnicodePropertyTest, negated: Bool)
    }

    private(set) var items: [Item] = []
    var isNegated = false
    private var asciiLow: UInt64 = 0
    private var asciiHigh: UInt64 = 0

    init(items: [Item] = [], negated: Bool = false) {
        self.items = items
        self.isNegated = negated
        rebuildBitmap()
    }

    static func scalar(_ value: UInt32) -> ScalarSet { ScalarSet(items: [.range(value, value)]) }

    /// Which ASCII scalars the set holds, as two 64-bit masks (0–63, 64–127), negation applied.
    var asciiMembers: (low: UInt64, high: UInt64) {
        isNegated ? (~asciiLow, ~asciiHigh) : (asciiLow, asciiHigh)
    }

    /// The one scalar the set holds, where it is a single scalar written as such (`a`, `\$`, `\u00e9`).
    var singleScalar: Unicode.Scalar? {
        guard !isNegated, items.count == 1, case .range(let low, let high) = items[0], low == high else { return nil }
        return Unicode.Scalar(low)
    }

    /// Adds an item; the ASCII bitmap is updated for this item alone, so a class of n items is
    /// built in O(n) (rebuilding the bitmap for every item made large classes quadratic).
    mutating func add(_ item: Item) {
        items.append(item)
        mark(item)
    }

    mutating func add(contentsOf other: ScalarSet) {
        if other.isNegated {
            // Only class escapes (\D, \W, \S, \P{…}) are negated sets added to a class: one property item.
            if other.items.contains(where: { if case .range = $0 { true } else { false } }) {
                add(.property(.predicate(other.withoutNegation), negated: true))
            } else {
                for case .property(let test, let negated) in other.items { add(.property(test, negated: !negated)) }
            }
        } else {
            for item in other.items { add(item) }
        }
    }

    private var withoutNegation: ScalarSet {
        var copy = self
        copy.isNegated = false
        return copy
    }

    private mutating func rebuildBitmap() {
        asciiLow = 0
        asciiHigh = 0
        for item in items { mark(item) }
    }

    /// Sets the bits of the ASCII scalars `item` holds.
    private mutating func mark(_ item: Item) {
        switch item {
        case .range(let low, let high):
            guard low < 128, low <= high else { return }
            for value in low...min(high, 127) { setBit(value) }
        case .property(let test, let negated):
            for value in UInt32(0)..<128 where test.matches(Unicode.Scalar(value)!) != negated { setBit(value) }
        }
    }

    @inline(__always) private mutating func setBit(_ value: UInt32) {
        if value < 64 { asciiLow |= 1 << UInt64(value) } else { asciiHigh |= 1 << UInt64(value - 64) }
    }

    private func rawContains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        for item in items {
            switch item {
            case .range(let low, let high): if value >= low && value <= high { return true }
            case .property(let test, let negated): if test.matches(scalar) != negated { return true }
            }
        }
        return false
    }

    @inline(__always)
    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        let found: Bool
        if value < 64 {
            found = asciiLow & (1 << UInt64(value)) != 0
        } else if value < 128 {
            found = asciiHigh & (1 << UInt64(value - 64)) != 0
        } else {
            found = rawContains(scalar)
        }
        return found != isNegated
    }

    // ECMA-262 class escapes.
    static let digits = ScalarSet(items: [.range(0x30, 0x39)])
    static let wordCharacters = ScalarSet(items: [
        .range(0x30, 0x39), .range(0x41, 0x5A), .range(0x61, 0x7A), .range(0x5F, 0x5F),
    ])
    /// WhiteSpace and LineTerminator of ECMA-262.
    static let whitespace = ScalarSet(items: [
        .range(0x09, 0x0D), .range(0x20, 0x20), .range(0xA0, 0xA0), .range(0x1680, 0x1680),
        .range(0x2000, 0x200A), .range(0x2028, 0x2029), .range(0x202F, 0x202F), .range(0x205F, 0x205F),
        .range(0x3000, 0x3000), .range(0xFEFF, 0xFEFF),
    ])
    /// Everything but line terminators (what `.` matches).
    static let dot = ScalarSet(
        items: [.range(0x0A, 0x0A), .range(0x0D, 0x0D), .range(0x2028, 0x2029)], negated: true)

    /// ECMA-262's WordCharacters under the `i` and `u` flags: with ſ (U+017F) and K (U+212A), which
    /// fold to `s` and `k`.
    static let wordCharactersIgnoringCase = ScalarSet(items: [
        .range(0x30, 0x39), .range(0x41, 0x5A), .range(0x61, 0x7A), .range(0x5F, 0x5F), .range(0x17F, 0x17F),
        .range(0x212A, 0x212A),
    ])
    /// Every scalar (`.` with the `s` flag).
    static let all = ScalarSet(items: [], negated: true)

    /// Whether `\b` holds between `before` and `after` (`nil` at either end of the input).
    static func isWordBoundary(_ before: Unicode.Scalar?, _ after: Unicode.Scalar?, ignoringCase: Bool) -> Bool {
        isWordCharacter(before, ignoringCase: ignoringCase) != isWordCharacter(after, ignoringCase: ignoringCase)
    }

    static func isWordCharacter(_ scalar: Unicode.Scalar?, ignoringCase: Bool = false) -> Bool {
        guard let scalar else { return false }
        if ignoringCase && (scalar.value == 0x17F || scalar.value == 0x212A) { return true }
        return wordCharacters.contains(scalar)
    }

    /// The largest set of ranges whose scalars are closed under case folding one by one; larger sets
    /// test a scalar's case variants as it is matched.
    private static let maximumEnumeratedForCase = 512

    /// The set as the `i` flag reads it (ECMA-262's Canonicalize under `u`): every scalar whose simple
    /// case folding is that of a member (`[a-c]` → `[a-cA-C]`, `k` → `kK\u{212A}`). Negation is part of
    /// the set closed (`\P{Lu}` holds `A`, since it holds `a`); the result is not negated.
    func closedUnderCaseFolding() -> ScalarSet {
        var ranges: [(UInt32, UInt32)] = []
        var total: UInt32 = 0
        if !isNegated {
            for item in items {
                guard case .range(let low, let high) = item, low <= high else { break }
                total += high - low + 1
                guard total <= UInt32(Self.maximumEnumeratedForCase) else { break }
                ranges.append((low, high))
            }
        }
        guard ranges.count == items.count else {
            return ScalarSet(items: [.property(.caseless(self), negated: false)])
        }
        var closed = ScalarSet()
        for (low, high) in ranges {
            closed.add(.range(low, high))
            for value in low...high {
                for other in UnicodeCaseFolding.equivalents(of: value) where other != value {
                    closed.add(.range(other, other))
                }
            }
        }
        return closed
    }
}

extension UnicodeCaseFolding {
    /// Each scalar that simple case folding relates to others → all of them, itself included (`k` →
    /// `K`, `k`, U+212A).
    private static let classes: [UInt32: [UInt32]] = {
        var membersOfFold: [UInt32: [UInt32]] = [:]
        for index in Swift.stride(from: 0, to: simpleFolds.count, by: 2) {
            membersOfFold[simpleFolds[index + 1], default: [simpleFolds[index + 1]]].append(simpleFolds[index])
        }
        var classes: [UInt32: [UInt32]] = [:]
        for members in membersOfFold.values {
            for member in members { classes[member] = members }
        }
        return classes
    }()

    /// The scalars whose simple case folding is that of `value`, `value` among them.
    static func equivalents(of value: UInt32) -> [UInt32] {
        classes[value] ?? [value]
    }
}

/// A Unicode property test for `\p{…}`.
enum UnicodePropertyTest: Sendable {
    case categories(Set<Unicode.GeneralCategory>)
    case binary(@Sendable (Unicode.Scalar.Properties) -> Bool)
    case any
    case ascii
    case predicate(ScalarSet)
    /// Code points in an inversion list (``UnicodeScripts``): range starts, then ends, alternately.
    case inversionList([UInt32])
    /// Scalars that fold like a member of the set (a class under the `i` flag).
    case caseless(ScalarSet)

    func matches(_ scalar: Unicode.Scalar) -> Bool {
        switch self {
        case .categories(let set): return set.contains(scalar.properties.generalCategory)
        case .binary(let test): return test(scalar.properties)
        case .any: return true
        case .ascii: return scalar.isASCII
        case .predicate(let set): return set.contains(scalar)
        case .inversionList(let list): return Self.isMember(scalar.value, of: list)
        case .caseless(let set):
            if set.contains(scalar) { return true }
            for other in UnicodeCaseFolding.equivalents(of: scalar.value) where other != scalar.value {
                if let variant = Unicode.Scalar(other), set.contains(variant) { return true }
            }
            return false
        }
    }

    /// Whether `value` is in the ranges of `list`: an odd number of its entries are at most `value`.
    static func isMember(_ value: UInt32, of list: [UInt32]) -> Bool {
        var low = 0
        var high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle] <= value { low = middle + 1 } else { high = middle }
        }
        return low % 2 == 1
    }

    /// Resolves `\p{name}` or `\p{name=value}`; `nil` when unknown.
    static func named(_ text: String) -> UnicodePropertyTest? {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        if parts.count == 2 {
            switch parts[0] {
            case "General_Category", "gc": return generalCategory(parts[1])
            case "Script", "sc":
                return UnicodeScripts.names[parts[1]].map { .inversionList(UnicodeScripts.script[$0]) }
            case "Script_Extensions", "scx":
                return UnicodeScripts.names[parts[1]].map { .inversionList(UnicodeScripts.extensions($0)) }
            default: return nil
            }
        }
        if let category = generalCategory(text) { return category }
        switch text {
        case "Any": return .any
        case "ASCII": return .ascii
        case "Assigned": return .binary { $0.generalCategory != .unassigned }
        case "Alphabetic", "Alpha": return .binary { $0.isAlphabetic }
        case "White_Space", "space": return .binary { $0.isWhitespace }
        case "Uppercase", "Upper": return .binary { $0.isUppercase }
        case "Lowercase", "Lower": return .binary { $0.isLowercase }
        case "Math": return .binary { $0.isMath }
        case "Dash": return .binary { $0.isDash }
        case "Hex_Digit", "Hex": return .binary { $0.isHexDigit }
        case "ASCII_Hex_Digit", "AHex": return .binary { $0.isASCIIHexDigit }
        case "Ideographic", "Ideo": return .binary { $0.isIdeographic }
        case "ID_Start", "IDS": return .binary { $0.isIDStart }
        case "ID_Continue", "IDC": return .binary { $0.isIDContinue }
        case "XID_Start", "XIDS": return .binary { $0.isXIDStart }
        case "XID_Continue", "XIDC": return .binary { $0.isXIDContinue }
        case "Emoji": return .binary { $0.isEmoji }
        case "Emoji_Presentation", "EPres": return .binary { $0.isEmojiPresentation }
        case "Diacritic", "Dia": return .binary { $0.isDiacritic }
        case "Noncharacter_Code_Point", "NChar": return .binary { $0.isNoncharacterCodePoint }
        case "Cased": return .binary { $0.isCased }
        case "Case_Ignorable", "CI": return .binary { $0.isCaseIgnorable }
        default: return nil
        }
    }

    private static func generalCategory(_ name: String) -> UnicodePropertyTest? {
        typealias C = Unicode.GeneralCategory
        let letters: Set<C> = [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter]
        let marks: Set<C> = [.nonspacingMark, .spacingMark, .enclosingMark]
        let numbers: Set<C> = [.decimalNumber, .letterNumber, .otherNumber]
        let punctuation: Set<C> = [
            .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation, .otherPunctuation,
        ]
        let symbols: Set<C> = [.mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol]
        let separators: Set<C> = [.spaceSeparator, .lineSeparator, .paragraphSeparator]
        let other: Set<C> = [.control, .format, .surrogate, .privateUse, .unassigned]
        let table: [String: Set<C>] = [
            "L": letters, "Letter": letters,
            "LC": [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter],
            "Cased_Letter": [
                .uppercaseLetter, .lowercaseLetter, .titlecaseLetter,
            ],
            "Lu": [.uppercaseLetter], "Uppercase_Letter": [.uppercaseLetter],
            "Ll": [.lowercaseLetter], "Lowercase_Letter": [.lowercaseLetter],
            "Lt": [.titlecaseLetter], "Titlecase_Letter": [.titlecaseLetter],
            "Lm": [.modifierLetter], "Modifier_Letter": [.modifierLetter],
            "Lo": [.otherLetter], "Other_Letter": [.otherLetter],
            "M": marks, "Mark": marks, "Combining_Mark": marks,
            "Mn": [.nonspacingMark], "Nonspacing_Mark": [.nonspacingMark],
            "Mc": [.spacingMark], "Spacing_Mark": [.spacingMark],
            "Me": [.enclosingMark], "Enclosing_Mark": [.enclosingMark],
            "N": numbers, "Number": numbers,
            "Nd": [.decimalNumber], "Decimal_Number": [.decimalNumber], "digit": [.decimalNumber],
            "Nl": [.letterNumber], "Letter_Number": [.letterNumber],
            "No": [.otherNumber], "Other_Number": [.otherNumber],
            "P": punctuation, "Punctuation": punctuation, "punct": punctuation,
            "Pc": [.connectorPunctuation], "Connector_Punctuation": [.connectorPunctuation],
            "Pd": [.dashPunctuation], "Dash_Punctuation": [.dashPunctuation],
            "Ps": [.openPunctuation], "Open_Punctuation": [.openPunctuation],
            "Pe": [.closePunctuation], "Close_Punctuation": [.closePunctuation],
            "Pi": [.initialPunctuation], "Initial_Punctuation": [.initialPunctuation],
            "Pf": [.finalPunctuation], "Final_Punctuation": [.finalPunctuation],
            "Po": [.otherPunctuation], "Other_Punctuation": [.otherPunctuation],
            "S": symbols, "Symbol": symbols,
            "Sm": [.mathSymbol], "Math_Symbol": [.mathSymbol],
            "Sc": [.currencySymbol], "Currency_Symbol": [.currencySymbol],
            "Sk": [.modifierSymbol], "Modifier_Symbol": [.modifierSymbol],
            "So": [.otherSymbol], "Other_Symbol": [.otherSymbol],
            "Z": separators, "Separator": separators,
            "Zs": [.spaceSeparator], "Space_Separator": [.spaceSeparator],
            "Zl": [.lineSeparator], "Line_Separator": [.lineSeparator],
            "Zp": [.paragraphSeparator], "Paragraph_Separator": [.paragraphSeparator],
            "C": other, "Other": other,
            "Cc": [.control], "Control": [.control], "cntrl": [.control],
            "Cf": [.format], "Format": [.format],
            "Cs": [.surrogate], "Surrogate": [.surrogate],
            "Co": [.privateUse], "Private_Use": [.privateUse],
            "Cn": [.unassigned], "Unassigned": [.unassigned],
        ]
        return table[name].map { .categories($0) }
    }
}
