/// A set of Unicode scalars for `charset(_:)`, built from Unicode properties and combined
/// with `+`.
///
/// <!-- snippet: doc-character-class -->
/// ```swift
/// // Seed 002's names: letters from every alphabet (with their combining marks) and spaces.
/// let nameCharacters: CharacterClass = .letters + .marks + .spaces
/// print(Rule<String>.charset(nameCharacters).isValid("Zoë Ångström"))  // true
/// ```
public struct CharacterClass: Sendable, CustomStringConvertible {
    private let predicate: @Sendable (Unicode.Scalar) -> Bool
    /// Which ASCII scalars are in the class, one bit each (0–63, 64–127), worked out once when the
    /// class is made: most text is ASCII, and Unicode's property tables cost a search a scalar.
    private let asciiLow: UInt64
    private let asciiHigh: UInt64
    /// A readable name, e.g. `letters + spaces`.
    public let description: String
    /// The class as the inside of an ECMA-262 bracket expression with the `u` flag, e.g. `\p{L}`,
    /// so it can be exported as a JSON Schema `pattern`.
    public let patternFragment: String

    /// Makes a class from a predicate, with a name and its ECMA-262 bracket-expression contents.
    public init(
        _ description: String, patternFragment: String, contains predicate: @escaping @Sendable (Unicode.Scalar) -> Bool
    ) {
        var low: UInt64 = 0
        var high: UInt64 = 0
        for value in UInt8(0)..<128 where predicate(Unicode.Scalar(value)) {
            if value < 64 { low |= 1 << value } else { high |= 1 << (value - 64) }
        }
        asciiLow = low
        asciiHigh = high
        self.description = description
        self.patternFragment = patternFragment
        self.predicate = predicate
    }

    /// Whether `scalar` is in the class.
    public func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<64: return asciiLow & (1 << scalar.value) != 0
        case 64..<128: return asciiHigh & (1 << (scalar.value - 64)) != 0
        default: return predicate(scalar)
        }
    }

    /// Letters of every script (Unicode general category L).
    public static let letters = CharacterClass("letters", patternFragment: "\\p{L}") {
        switch $0.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return false
        }
    }

    /// Combining marks (category M), which many scripts (Devanagari, Thai, Arabic vowels) need with letters.
    public static let marks = CharacterClass("marks", patternFragment: "\\p{M}") {
        switch $0.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// Decimal digits of every script (category Nd).
    public static let digits = CharacterClass("digits", patternFragment: "\\p{Nd}") {
        $0.properties.generalCategory == .decimalNumber
    }

    /// The ASCII digits 0–9.
    public static let asciiDigits = CharacterClass("ASCII digits", patternFragment: "0-9") {
        ("0"..."9").contains($0)
    }

    /// The ASCII letters A–Z and a–z.
    public static let asciiLetters = CharacterClass("ASCII letters", patternFragment: "A-Za-z") {
        ("a"..."z").contains($0) || ("A"..."Z").contains($0)
    }

    /// Space separators (category Zs: the space, the no-break space, ideographic space …), not tabs
    /// or line breaks.
    public static let spaces = CharacterClass("spaces", patternFragment: "\\p{Zs}") {
        $0.properties.generalCategory == .spaceSeparator
    }

    /// All white space, line breaks included (Unicode's White_Space property: ECMA-262's `\s` differs
    /// on U+0085 and U+FEFF, so the pattern lists the scalars).
    public static let whitespace = CharacterClass(
        "whitespace", patternFragment: "\\t-\\r \\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000"
    ) {
        $0.properties.isWhitespace
    }

    /// Punctuation (category P).
    public static let punctuation = CharacterClass("punctuation", patternFragment: "\\p{P}") {
        switch $0.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation, .otherPunctuation:
            return true
        default: return false
        }
    }

    /// Letters, marks and numbers of every script.
    public static let alphanumerics = CharacterClass("alphanumerics", patternFragment: "\\p{L}\\p{M}\\p{N}") {
        switch $0.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            return true
        default: return false
        }
    }

    /// Exactly the scalars of `characters`: `.characters("-'")`.
    public static func characters(_ characters: String) -> CharacterClass {
        let set = Set(characters.unicodeScalars)
        let fragment = characters.unicodeScalars.map { scalar -> String in
            "\\^-[]/".unicodeScalars.contains(scalar) ? "\\" + String(scalar) : String(scalar)
        }.joined()
        return CharacterClass("\"\(characters)\"", patternFragment: fragment) { set.contains($0) }
    }

    /// The scalars in `range`: `.range("a"..."f")`.
    public static func range(_ range: ClosedRange<Unicode.Scalar>) -> CharacterClass {
        let fragment = String(format: range.lowerBound) + "-" + String(format: range.upperBound)
        return CharacterClass("\(range.lowerBound)–\(range.upperBound)", patternFragment: fragment) {
            range.contains($0)
        }
    }

    /// The scalars in either class.
    public static func + (lhs: CharacterClass, rhs: CharacterClass) -> CharacterClass {
        CharacterClass(
            "\(lhs.description) + \(rhs.description)", patternFragment: lhs.patternFragment + rhs.patternFragment
        ) { lhs.contains($0) || rhs.contains($0) }
    }
}

extension String {
    fileprivate init(format scalar: Unicode.Scalar) {
        self =
            scalar.isASCII && scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
            ? String(scalar) : "\\u{" + String(scalar.value, radix: 16) + "}"
    }
}
