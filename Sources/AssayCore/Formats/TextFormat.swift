import AssayRegex

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The text formats of JSON Schema 2020-12 (`format`), checked by one implementation wherever Assay
/// meets them: a schema's `format` keyword when formats are asserted, and a rule's
/// `Rule.format(_:)`, which exports as that keyword.
///
/// <!-- snippet: doc-text-format -->
/// ```swift
/// print(TextFormat.dateTime.isValid("2026-11-26T08:00:00Z"))  // true
/// print(TextFormat.ipv4.isValid("256.0.0.1"))  // false
/// ```
///
/// In a schema, formats apply to strings only: a number with `format: "email"` is valid, as the
/// specification says.
public enum TextFormat: String, Sendable, CaseIterable {
    case email
    case idnEmail = "idn-email"
    case hostname
    case idnHostname = "idn-hostname"
    case ipv4
    case ipv6
    case uri
    case uriReference = "uri-reference"
    case iri
    case iriReference = "iri-reference"
    case uriTemplate = "uri-template"
    case jsonPointer = "json-pointer"
    case relativeJSONPointer = "relative-json-pointer"
    case date
    case time
    case dateTime = "date-time"
    case duration
    case uuid
    case regex

    /// The known format nearest to `name` (a misspelling such as `date_time` or `e-mail`): the one
    /// fewest edits away, compared without case and with `_` read as `-`, if it is at most a third
    /// of the name's length away (and at least 2); `nil` when none is that near.
    public static func nearest(to name: String) -> TextFormat? {
        let typed = Array(name.lowercased().replacingEvery("_", with: "-").unicodeScalars.prefix(64))
        var best: (format: TextFormat, distance: Int)?
        for format in allCases {
            let distance = editDistance(typed, Array(format.rawValue.unicodeScalars))
            if distance < (best?.distance ?? Int.max) { best = (format, distance) }
        }
        guard let best, best.distance <= max(2, typed.count / 3) else { return nil }
        return best.format
    }

    /// Levenshtein distance (insertions, deletions, substitutions), in O(m × n).
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// Whether `text` is valid for the format.
    public func isValid(_ text: String) -> Bool {
        var utf8 = text
        if let decided = utf8.withUTF8({ verdict(utf8: $0) }) { return decided }
        switch self {
        case .date, .time, .dateTime, .uuid: return false  // always decided on the bytes, above
        case .email: return EmailAddressValidator(options: Self.asciiEmail).isValid(text)
        case .idnEmail: return Self.isIDNEmail(text)
        case .hostname: return Hostname.isValid(text, international: false, idna: true)
        case .idnHostname: return Hostname.isValid(text, international: true, idna: true)
        case .ipv4: return IPAddress.isValidIPv4(text)
        case .ipv6: return IPAddress.isValidIPv6(text)
        case .uri: return URIValidator.isValidURI(text)
        case .uriReference: return URIValidator.isValidURIReference(text)
        case .iri: return URIValidator.isValidIRI(text)
        case .iriReference: return URIValidator.isValidIRIReference(text)
        case .uriTemplate: return Self.isURITemplate(text)
        case .jsonPointer: return Self.isJSONPointer(text[...])
        case .relativeJSONPointer: return Self.isRelativeJSONPointer(text)
        case .duration: return Self.isDuration(text)
        case .regex: return Self.isECMARegex(text)
        }
    }

    /// The verdict from the text's UTF-8 bytes alone, for the formats that need no `String`: dates,
    /// times and durations, UUIDs, IP addresses, URIs and IRIs, JSON Pointers, ASCII host names and
    /// plain ASCII email addresses, and any `email` beyond ASCII (`nil` for the rest — a quoted
    /// local part, an internationalized name, a `regex`, a `uri-template` —: ask ``isValid(_:)``).
    /// Validation of parsed documents checks strings in place through it.
    package func verdict(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        switch self {
        case .date: return RFC3339.date(utf8: bytes) != nil
        case .time: return RFC3339.time(utf8: bytes) != nil
        case .dateTime: return RFC3339.dateTime(utf8: bytes) != nil
        case .uuid: return isUUID(utf8: bytes)
        case .email:
            if EmailAddressValidator.isPlainASCIIAddress(bytes) { return true }
            // `email` is RFC 5321's: a byte beyond ASCII is never part of one.
            return bytes.contains { $0 >= 0x80 } ? false : nil
        case .idnEmail: return EmailAddressValidator.isPlainASCIIAddress(bytes) ? true : nil
        case .ipv4: return IPAddress.isValidIPv4(utf8: bytes)
        case .ipv6: return IPAddress.isValidIPv6(utf8: bytes)
        case .uri: return URIValidator.isValidURI(utf8: bytes)
        case .uriReference: return URIValidator.isValidURIReference(utf8: bytes)
        case .iri: return URIValidator.isValidIRI(utf8: bytes)
        case .iriReference: return URIValidator.isValidIRIReference(utf8: bytes)
        case .hostname, .idnHostname: return Hostname.plainASCIIVerdict(bytes)
        case .jsonPointer: return Self.isJSONPointer(utf8: bytes[...])
        case .relativeJSONPointer: return Self.isRelativeJSONPointer(utf8: bytes)
        case .duration: return Self.isDuration(utf8: bytes)
        default: return nil
        }
    }

    /// RFC 6531: the local part may hold any non-ASCII code point (`UTF8-non-ascii`), controls and
    /// noncharacters included; the domain is an internationalized host name.
    static func isIDNEmail(_ text: String) -> Bool {
        guard let at = text.lastIndex(of: "@") else { return false }
        let local = String(String.UnicodeScalarView(text[..<at].unicodeScalars.map { $0.isASCII ? $0 : "x" }))
        return EmailAddressValidator(options: .rfc).isValid(local + text[at...])
    }

    private static let asciiEmail = EmailAddressValidator.Options(
        allowsInternational: false, allowsQuotedLocalPart: true, allowsDomainLiteral: true)

    static func isJSONPointer(_ text: Substring) -> Bool {
        var text = String(text)
        return text.withUTF8 { isJSONPointer(utf8: $0[...]) }
    }

    /// RFC 6901: empty, or `/`-separated tokens in which `~` is followed by `0` or `1`.
    static func isJSONPointer(utf8 bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard let first = bytes.first else { return true }
        guard first == UInt8(ascii: "/") else { return false }
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "~") {
                guard index + 1 < bytes.endIndex,
                    bytes[index + 1] == UInt8(ascii: "0") || bytes[index + 1] == UInt8(ascii: "1")
                else { return false }
                index += 2
            } else {
                index += 1
            }
        }
        return true
    }

    static func isRelativeJSONPointer(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isRelativeJSONPointer(utf8: $0) }
    }

    /// A non-negative integer without leading zeros, an optional index adjustment (`+N` or `-N`,
    /// draft 2020-12's relative JSON pointer), then `#` or a JSON pointer.
    static func isRelativeJSONPointer(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func integer(from start: Int) -> Int? {
            var end = start
            while end < bytes.count, bytes[end] >= 0x30 && bytes[end] <= 0x39 { end += 1 }
            guard end > start, end - start == 1 || bytes[start] != 0x30 else { return nil }
            return end
        }
        guard var index = integer(from: 0) else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            guard let end = integer(from: index + 1) else { return false }
            index = end
        }
        if index == bytes.count - 1 && bytes[index] == UInt8(ascii: "#") { return true }
        return isJSONPointer(utf8: bytes[index...])
    }

    static func isDuration(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isDuration(utf8: $0) }
    }

    /// RFC 3339 appendix A's `duration`: `P` then date parts (`Y`, `M`, `D` in order) and/or `T` and
    /// time parts (`H`, `M`, `S` in order), each unit once, consecutive in its chain, or weeks alone
    /// (`PnW`).
    static func isDuration(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "P") else { return false }
        /// The units of `range` (digits then a unit, repeated) as positions in `order`: in order,
        /// each once, consecutive; `nil` when not.
        func units(_ range: Range<Int>, _ order: [UInt8]) -> Int? {
            var count = 0
            var last = -1
            var first = -1
            var digits = 0
            for index in range {
                let byte = bytes[index]
                if byte >= 0x30 && byte <= 0x39 {
                    digits += 1
                    continue
                }
                guard digits > 0, let position = order.firstIndex(of: byte), position > last else { return nil }
                if first < 0 { first = position } else if position != last + 1 { return nil }
                last = position
                count += 1
                digits = 0
            }
            return digits == 0 ? count : nil
        }
        if bytes[bytes.count - 1] == UInt8(ascii: "W") { return units(1..<bytes.count, [UInt8(ascii: "W")]) == 1 }
        let t = bytes[1...].firstIndex(of: UInt8(ascii: "T"))
        guard let dateUnits = units(1..<(t ?? bytes.count), Array("YMD".utf8)) else { return false }
        if let t {
            guard let timeUnits = units((t + 1)..<bytes.count, Array("HMS".utf8)), timeUnits > 0 else { return false }
            return true
        }
        return dateUnits > 0
    }

    /// RFC 6570 level 4 syntax: literals, and expressions `{op? varspec,…}` with prefix (`:n`) or
    /// explode (`*`) modifiers.
    static func isURITemplate(_ text: String) -> Bool {
        var inside = false
        var expression = ""
        for scalar in text.unicodeScalars {
            if inside {
                if scalar == "}" {
                    guard isTemplateExpression(expression) else { return false }
                    inside = false
                    expression = ""
                } else if scalar == "{" {
                    return false
                } else {
                    expression.unicodeScalars.append(scalar)
                }
            } else if scalar == "{" {
                inside = true
            } else if scalar == "}" || scalar == " " || scalar == "\"" || scalar == "<" || scalar == ">"
                || scalar == "\\" || scalar == "^" || scalar == "`" || scalar == "|" || scalar.value < 0x20
                || scalar.value == 0x7F
            {
                return false
            }
        }
        return !inside
    }

    private static func isTemplateExpression(_ expression: String) -> Bool {
        var body = Substring(expression)
        if let first = body.first, "+#./;?&=,!@|".contains(first) { body = body.dropFirst() }
        guard !body.isEmpty else { return false }
        for spec in body.split(separator: ",", omittingEmptySubsequences: false) {
            var name = spec
            if name.hasSuffix("*") {
                name = name.dropLast()
            } else if let colon = name.firstIndex(of: ":") {
                let length = name[name.index(after: colon)...]
                guard !length.isEmpty, length.count <= 4, length.allSatisfy({ $0.isASCII && $0.isNumber }),
                    length.first != "0"
                else { return false }
                name = name[..<colon]
            }
            guard !name.isEmpty, !name.hasPrefix("."), !name.hasSuffix("."), !name.contains(".."),
                name.unicodeScalars.allSatisfy({
                    ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
                        || $0 == "." || $0 == "%"
                })
            else { return false }
        }
        return true
    }

    /// ECMA-262 pattern syntax. Backreferences are valid ECMA-262 (the linear engine refuses to run
    /// them, but they are not malformed).
    static func isECMARegex(_ text: String) -> Bool {
        do {
            // Compiled, not made into automata: a string is checked, never matched against.
            try LinearRegex.checkCompiles(text)
            return true
        } catch {
            return error.isUnsupportedFeature
        }
    }
}

/// Host names after RFC 1123 (and, for `idn-hostname`, the IDNA2008 rules the test suite checks).
package enum Hostname {
    /// The verdict of ``isValid(_:international:idna:)`` (with IDNA) for a name of ASCII letters,
    /// digits, hyphens and dots with no label in IDNA's reserved form (`??--`, which includes
    /// `xn--`): labels of 1 to 63 characters that neither start nor end with a hyphen, 253 in all.
    /// `nil` for any other name (non-ASCII, or a label that needs the IDNA checks).
    static func plainASCIIVerdict(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard !bytes.isEmpty else { return false }
        var labelStart = 0
        var index = 0
        while index <= bytes.count {
            if index == bytes.count || bytes[index] == UInt8(ascii: ".") {
                let length = index - labelStart
                guard length > 0, length <= 63 else { return false }
                if bytes[labelStart] == UInt8(ascii: "-") || bytes[index - 1] == UInt8(ascii: "-") { return false }
                if length >= 4 && bytes[labelStart + 2] == UInt8(ascii: "-")
                    && bytes[labelStart + 3] == UInt8(ascii: "-")
                {
                    return nil
                }
                labelStart = index + 1
            } else {
                let byte = bytes[index]
                let lower = byte | 0x20
                guard
                    (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")) || (byte >= 0x30 && byte <= 0x39)
                        || byte == UInt8(ascii: "-")
                else { return byte >= 0x80 ? nil : false }
            }
            index += 1
        }
        return bytes.count <= 253
    }

    /// `idna: false` checks RFC 1123 alone (drafts 4 and 6 test that: `a--b` is a valid name there).
    package static func isValid(_ text: String, international: Bool, idna: Bool) -> Bool {
        var name = text
        if international {
            // IDNA label separators: ideographic full stop and its fullwidth and halfwidth forms.
            name = String(
                String.UnicodeScalarView(
                    name.unicodeScalars.map { ["\u{3002}", "\u{FF0E}", "\u{FF61}"].contains($0) ? "." : $0 }))
        }
        guard !name.isEmpty else { return false }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        var asciiLength = 0
        var unicodeLabels: [String] = []
        for label in labels {
            guard !label.isEmpty else { return false }
            let isASCII = label.unicodeScalars.allSatisfy(\.isASCII)
            var unicodeLabel = String(label)
            if isASCII {
                guard label.utf8.count <= 63 else { return false }
                asciiLength += label.utf8.count + 1
                guard
                    label.unicodeScalars.allSatisfy({
                        $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-"
                    }),
                    label.first != "-", label.last != "-"
                else { return false }
                let lower = label.lowercased()
                if !idna { continue }
                if lower.hasPrefix("xn--") {
                    guard let decoded = Punycode.decode(String(lower.dropFirst(4))), !decoded.isEmpty,
                        !decoded.unicodeScalars.allSatisfy(\.isASCII),
                        "xn--" + Punycode.encode(decoded) == lower
                    else { return false }
                    unicodeLabel = decoded
                } else if label.utf8.dropFirst(2).starts(with: "--".utf8) {
                    return false
                } else {
                    continue
                }
            } else {
                guard international else { return false }
                let encoded = "xn--" + Punycode.encode(String(label))
                guard encoded.utf8.count <= 63 else { return false }
                asciiLength += encoded.utf8.count + 1
            }
            guard isValidUnicodeLabel(unicodeLabel) else { return false }
            unicodeLabels.append(unicodeLabel)
        }
        guard asciiLength - 1 <= 253 else { return false }
        if idna, unicodeLabels.contains(where: { $0.unicodeScalars.contains { Bidi.isRightToLeft(Bidi.category($0)) } })
        {
            // A Bidi domain name: every label must satisfy the Bidi rule (RFC 5893 section 2).
            let all = labels.map { label -> String in
                let lower = label.lowercased()
                if lower.hasPrefix("xn--"), let decoded = Punycode.decode(String(lower.dropFirst(4))) { return decoded }
                return String(label)
            }
            return all.allSatisfy(Bidi.satisfiesRule)
        }
        return true
    }

    /// IDNA2008 (RFC 5891, 5892) checks on a label in Unicode form.
    static func isValidUnicodeLabel(_ label: String) -> Bool {
        let scalars = Array(label.unicodeScalars)
        guard let first = scalars.first, let last = scalars.last else { return false }
        if first == "-" || last == "-" { return false }
        if scalars.count >= 4 && scalars[2] == "-" && scalars[3] == "-" { return false }
        // A label must not start with a combining mark.
        switch first.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return false
        default: break
        }
        var hasArabicIndic = false
        var hasExtendedArabicIndic = false
        for (index, scalar) in scalars.enumerated() {
            let value = scalar.value
            // DISALLOWED code points the suite exercises, and anything that is not a letter, mark,
            // digit or hyphen.
            if [0x00DF, 0x03C2, 0x06FD, 0x06FE, 0x0F0B, 0x3007].contains(value) { continue }  // PVALID exceptions
            if [0x0640, 0x07FA, 0x302E, 0x302F, 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x303B].contains(value) {
                return false
            }
            switch value {
            case 0x00B7:  // MIDDLE DOT: only between two 'l'.
                guard index > 0, index < scalars.count - 1, scalars[index - 1] == "l", scalars[index + 1] == "l" else {
                    return false
                }
                continue
            case 0x0375:  // GREEK LOWER NUMERAL SIGN: followed by Greek.
                guard index < scalars.count - 1, isGreek(scalars[index + 1]) else { return false }
                continue
            case 0x05F3, 0x05F4:  // HEBREW GERESH and GERSHAYIM: preceded by Hebrew.
                guard index > 0, isHebrew(scalars[index - 1]) else { return false }
                continue
            case 0x30FB:  // KATAKANA MIDDLE DOT: some Hiragana, Katakana or Han in the label.
                guard scalars.contains(where: { isJapanese($0) && $0.value != 0x30FB }) else { return false }
                continue
            case 0x0660...0x0669: hasArabicIndic = true
            case 0x06F0...0x06F9: hasExtendedArabicIndic = true
            case 0x200D:  // ZERO WIDTH JOINER: after a virama.
                guard index > 0, scalars[index - 1].properties.canonicalCombiningClass.rawValue == 9 else {
                    return false
                }
                continue
            case 0x200C:  // ZERO WIDTH NON-JOINER: after a virama, or between joining letters.
                guard index > 0 else { return false }
                if scalars[index - 1].properties.canonicalCombiningClass.rawValue == 9 { continue }
                guard index < scalars.count - 1, Bidi.isJoining(scalars[index - 1]), Bidi.isJoining(scalars[index + 1])
                else { return false }
                continue
            default: break
            }
            if scalar == "-" { continue }
            let category = scalar.properties.generalCategory
            switch category {
            case .lowercaseLetter, .otherLetter, .modifierLetter, .nonspacingMark, .spacingMark, .enclosingMark,
                .decimalNumber:
                continue
            case .uppercaseLetter, .titlecaseLetter:
                return false
            default:
                return false
            }
        }
        return !(hasArabicIndic && hasExtendedArabicIndic)
    }

    private static func isGreek(_ scalar: Unicode.Scalar) -> Bool {
        (0x0370...0x03FF).contains(scalar.value) || (0x1F00...0x1FFF).contains(scalar.value)
    }

    private static func isHebrew(_ scalar: Unicode.Scalar) -> Bool { (0x0590...0x05FF).contains(scalar.value) }

    private static func isJapanese(_ scalar: Unicode.Scalar) -> Bool {
        (0x3040...0x309F).contains(scalar.value) || (0x30A0...0x30FF).contains(scalar.value)
            || (0x4E00...0x9FFF).contains(scalar.value) || (0x3400...0x4DBF).contains(scalar.value)
    }
}

/// The parts of the Unicode Bidi classes the IDNA Bidi rule needs, by block (the standard library
/// does not expose Bidi_Class).
enum Bidi {
    enum Category { case l, r, al, an, en, nsm, other }

    static func category(_ scalar: Unicode.Scalar) -> Category {
        let value = scalar.value
        switch value {
        case 0x30...0x39, 0x06F0...0x06F9: return .en
        case 0x0660...0x0669, 0x066B, 0x066C: return .an
        default: break
        }
        let category = scalar.properties.generalCategory
        if category == .nonspacingMark || category == .enclosingMark { return .nsm }
        let isLetter: Bool
        switch category {
        case .lowercaseLetter, .uppercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .spacingMark,
            .letterNumber, .otherSymbol:
            isLetter = true
        default: isLetter = false
        }
        guard isLetter else { return .other }
        switch value {
        case 0x0590...0x05FF, 0x07C0...0x07FF, 0xFB1D...0xFB4F: return .r
        case 0x0600...0x06FF, 0x0700...0x074F, 0x0750...0x077F, 0x0780...0x07BF, 0x08A0...0x08FF, 0xFB50...0xFDFF,
            0xFE70...0xFEFF:
            return .al
        default: return .l
        }
    }

    static func isRightToLeft(_ category: Category) -> Bool { category == .r || category == .al || category == .an }

    /// Dual- or right-joining letters (Arabic, Syriac, NKo): what the ZERO WIDTH NON-JOINER rule needs.
    static func isJoining(_ scalar: Unicode.Scalar) -> Bool {
        category(scalar) == .al || (0x07CA...0x07EA).contains(scalar.value)
    }

    /// RFC 5893 section 2, rules 1 to 6.
    static func satisfiesRule(_ label: String) -> Bool {
        let categories = label.unicodeScalars.map(category)
        guard let first = categories.first else { return true }
        let significant = categories.filter { $0 != .nsm }
        guard let last = significant.last else { return false }
        switch first {
        case .r, .al:
            guard categories.allSatisfy({ $0 != .l }) else { return false }
            guard [.r, .al, .en, .an].contains(last) else { return false }
            return !(categories.contains(.en) && categories.contains(.an))
        case .l:
            guard categories.allSatisfy({ $0 != .r && $0 != .al && $0 != .an }) else { return false }
            return last == .l || last == .en
        default:
            return false
        }
    }
}
