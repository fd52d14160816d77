import Foundation

/// A syntax validator for email addresses after RFC 5321 (`Mailbox`), RFC 5322 (`atext`) and
/// RFC 6531/6532 (internationalised addresses), that names the reason for every rejection.
///
/// By default it accepts internationalised addresses (UTF-8 local parts, IDNA domain labels) and
/// rejects quoted local parts and domain literals, which forms rarely want; ``Options`` turns each on
/// or off:
///
/// <!-- snippet: doc-email -->
/// ```swift
/// let validator = EmailAddressValidator()
/// print(validator.rejection(for: "john@doe.test") as Any)  // nil: valid
/// print(validator.rejection(for: "john..doe@doe.test") as Any)  // Optional(consecutiveDots)
/// print(validator.rejection(for: "почта@пример.рф") as Any)  // nil: valid (RFC 6531)
/// let ascii = EmailAddressValidator(options: .ascii)
/// print(ascii.rejection(for: "почта@пример.рф") as Any)  // Optional(nonASCIINotAllowed)
/// ```
///
/// It checks syntax only: whether the domain exists or accepts mail takes a network, which a
/// validator of untrusted input should not touch.
public struct EmailAddressValidator: Sendable {
    /// What the validator accepts beyond a plain `local@domain.example`.
    public struct Options: Hashable, Sendable {
        /// UTF-8 in the local part and IDNA U-labels in the domain (RFC 6531). On by default.
        public var allowsInternational: Bool
        /// A quoted local part, `"john doe"@example.com` (RFC 5321 `Quoted-string`). Off by default.
        public var allowsQuotedLocalPart: Bool
        /// A domain literal, `user@[192.0.2.1]` or `user@[IPv6:2001:db8::1]`. Off by default.
        public var allowsDomainLiteral: Bool

        /// Makes options.
        public init(
            allowsInternational: Bool = true, allowsQuotedLocalPart: Bool = false, allowsDomainLiteral: Bool = false
        ) {
            self.allowsInternational = allowsInternational
            self.allowsQuotedLocalPart = allowsQuotedLocalPart
            self.allowsDomainLiteral = allowsDomainLiteral
        }

        /// Internationalised addresses; no quoted local parts or domain literals.
        public static let `default` = Options()
        /// ASCII only; no quoted local parts or domain literals.
        public static let ascii = Options(allowsInternational: false)
        /// Everything the RFCs allow: internationalised, quoted local parts, domain literals.
        public static let rfc = Options(
            allowsInternational: true, allowsQuotedLocalPart: true, allowsDomainLiteral: true)
    }

    /// The options.
    public var options: Options

    /// Makes a validator.
    public init(options: Options = .default) { self.options = options }

    /// Whether `address` is a valid address under the options.
    public func isValid(_ address: String) -> Bool { rejection(for: address) == nil }

    /// The reason `address` is rejected, or `nil` when it is valid.
    public func rejection(for address: String) -> EmailRejection? {
        var utf8 = address
        if utf8.withUTF8(Self.isPlainASCIIAddress) { return nil }
        return fullRejection(for: address)
    }

    /// Every rule, without the plain-ASCII fast path (which tests compare with it).
    func fullRejection(for address: String) -> EmailRejection? {
        let scalars = Array(address.unicodeScalars)
        if scalars.isEmpty { return .empty }
        for scalar in scalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { return .controlCharacter }
            if !options.allowsInternational && !scalar.isASCII { return .nonASCIINotAllowed }
            if !scalar.isASCII && scalar.properties.generalCategory == .format { return .invisibleCharacter }
        }
        let localEnd: Int
        let isQuoted = scalars[0] == "\""
        if isQuoted {
            guard let end = quotedStringEnd(scalars) else {
                return options.allowsQuotedLocalPart ? .invalidQuotedString : .quotedLocalPartNotAllowed
            }
            localEnd = end
            guard localEnd < scalars.count, scalars[localEnd] == "@" else {
                return localEnd < scalars.count ? .invalidQuotedString : .missingAtSign
            }
        } else {
            guard let at = scalars.firstIndex(of: "@") else { return .missingAtSign }
            localEnd = at
        }
        let local = scalars[..<localEnd]
        let domain = scalars[(localEnd + 1)...]
        if local.isEmpty { return .emptyLocalPart }
        if isQuoted {
            if !options.allowsQuotedLocalPart { return .quotedLocalPartNotAllowed }
        } else if let problem = dotStringProblem(local) {
            return problem
        }
        if utf8Count(local) > 64 { return .localPartTooLong }
        if domain.isEmpty { return .emptyDomain }
        if let problem = domain.first == "[" ? domainLiteralProblem(domain) : domainProblem(domain) { return problem }
        if utf8Count(scalars[...]) > 254 { return .addressTooLong }
        return nil
    }

    /// Whether `bytes` are a plain ASCII address that every option set accepts: a dot-atom local part
    /// of at most 64 bytes, one `@`, a domain of letter-digit-hyphen labels (1–63 bytes, no hyphen at
    /// either end, no `--` at positions 3–4, which IDNA reserves), at most 253 bytes with a top-level
    /// label that is not all digits, 254 bytes in all. `false` means only "not on this fast path":
    /// the full check then decides, and names the reason.
    package static func isPlainASCIIAddress(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = bytes.count
        guard count >= 3, count <= 254 else { return false }
        // Local part, up to the first `@`: atext and single dots, not at either end. (A second `@`
        // is no domain byte, so the domain loop turns it away.)
        var at = 0
        var previousDot = true
        while at < count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "@") { break }
            if byte == UInt8(ascii: ".") {
                if previousDot { return false }
                previousDot = true
            } else {
                guard isPlainAtext(byte) else { return false }
                previousDot = false
            }
            at += 1
        }
        guard at > 0, at <= 64, at < count - 1, !previousDot else { return false }
        // Domain: labels of letters, digits and inner hyphens.
        guard count - at - 1 <= 253 else { return false }
        var labelStart = at + 1
        var allDigits = true
        var index = at + 1
        while index <= count {
            if index == count || bytes[index] == UInt8(ascii: ".") {
                let length = index - labelStart
                guard length >= 1, length <= 63, bytes[labelStart] != UInt8(ascii: "-"),
                    bytes[index - 1] != UInt8(ascii: "-")
                else { return false }
                if length >= 4, bytes[labelStart + 2] == UInt8(ascii: "-"), bytes[labelStart + 3] == UInt8(ascii: "-") {
                    return false
                }
                if index == count { return !allDigits }
                labelStart = index + 1
                allDigits = true
            } else {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): break
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"):
                    allDigits = false
                default: return false
                }
            }
            index += 1
        }
        return false
    }

    /// Whether `byte` is RFC 5322 `atext` (``isAtext(_:)`` for ASCII): a bit per ASCII value in two
    /// constant words, so the check reads no table.
    @inline(__always) package static func isPlainAtext(_ byte: UInt8) -> Bool {
        let low: UInt64 = 0xA3FF_ACFA_0000_0000  // ! # $ % & ' * + - / 0-9 = ?
        let high: UInt64 = 0x7FFF_FFFF_C7FF_FFFE  // A-Z ^ _ ` a-z { | } ~
        if byte < 64 { return low >> UInt64(byte) & 1 != 0 }
        return byte < 128 && high >> UInt64(byte &- 64) & 1 != 0
    }

    /// The index after the closing quote of a quoted string starting at 0, or `nil` when malformed.
    private func quotedStringEnd(_ scalars: [Unicode.Scalar]) -> Int? {
        var index = 1
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "\"": return index + 1
            case "\\":
                // quoted-pairSMTP: a backslash and one printable ASCII character (%d32-126).
                guard index + 1 < scalars.count, (0x20...0x7E).contains(scalars[index + 1].value) else { return nil }
                index += 2
            default:
                // qtextSMTP: %d32-33 / %d35-91 / %d93-126, and UTF-8 non-ASCII when international.
                let value = scalar.value
                let ascii = value == 32 || value == 33 || (35...91).contains(value) || (93...126).contains(value)
                guard ascii || (!scalar.isASCII && options.allowsInternational && !Self.isWhitespace(scalar))
                else { return nil }
                index += 1
            }
        }
        return nil
    }

    private func dotStringProblem(_ local: ArraySlice<Unicode.Scalar>) -> EmailRejection? {
        if local.first == "." { return .leadingDot }
        if let first = local.first, !first.isASCII, Self.isMark(first) { return .leadingCombiningMark }
        if local.last == "." { return .trailingDot }
        var previousWasDot = false
        for scalar in local {
            if scalar == "." {
                if previousWasDot { return .consecutiveDots }
                previousWasDot = true
                continue
            }
            previousWasDot = false
            if Self.isAtext(scalar) { continue }
            if Self.isWhitespace(scalar) { return .whitespace }
            if !scalar.isASCII && options.allowsInternational && Self.isPrintableNonASCII(scalar) { continue }
            return scalar == "\"" && options.allowsQuotedLocalPart ? .invalidQuotedString : .invalidLocalCharacter
        }
        return nil
    }

    /// White space, without a Unicode property lookup for ASCII.
    @inline(__always)
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == " " || (0x09...0x0D).contains(scalar.value) }
        return scalar.properties.isWhitespace
    }

    /// RFC 5322 `atext`: letters, digits and ``!#$%&'*+-/=?^_`{|}~``.
    static func isAtext(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": return true
        default: return "!#$%&'*+-/=?^_`{|}~".unicodeScalars.contains(scalar)
        }
    }

    /// UTF8-non-ascii that is printable: not white space, a control, a format character such as a
    /// zero-width joiner at the edges, a surrogate, a private-use or an unassigned code point.
    static func isPrintableNonASCII(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .surrogate, .unassigned, .privateUse, .lineSeparator, .paragraphSeparator, .spaceSeparator:
            return false
        default:
            return true
        }
    }

    private func domainLiteralProblem(_ domain: ArraySlice<Unicode.Scalar>) -> EmailRejection? {
        guard options.allowsDomainLiteral else { return .domainLiteralNotAllowed }
        guard domain.last == "]", domain.count >= 2 else { return .invalidDomainLiteral }
        let inner = String(String.UnicodeScalarView(domain.dropFirst().dropLast()))
        if IPAddress.isValidIPv4(inner) { return nil }
        if inner.hasPrefix("IPv6:"), IPAddress.isValidIPv6(inner.dropFirst(5)) { return nil }
        return .invalidDomainLiteral
    }

    private func domainProblem(_ domain: ArraySlice<Unicode.Scalar>) -> EmailRejection? {
        var labels: [ArraySlice<Unicode.Scalar>] = []
        var start = domain.startIndex
        for index in domain.indices where domain[index] == "." {
            labels.append(domain[start..<index])
            start = index + 1
        }
        labels.append(domain[start...])
        var asciiLength = labels.count - 1
        for label in labels {
            if label.isEmpty { return .emptyLabel }
            switch labelProblem(label) {
            case .failure(let problem): return problem
            case .success(let length): asciiLength += length
            }
        }
        if asciiLength > 253 { return .domainTooLong }
        if let last = labels.last, last.allSatisfy({ ("0"..."9").contains($0) }) { return .numericTopLevelDomain }
        return nil
    }

    /// Checks one label; on success returns its length in ASCII (A-label) form.
    private func labelProblem(_ label: ArraySlice<Unicode.Scalar>) -> Result<Int, EmailRejection> {
        for scalar in label {
            if Self.isWhitespace(scalar) { return .failure(.whitespace) }
        }
        if label.first == "-" { return .failure(.labelStartsWithHyphen) }
        if label.last == "-" { return .failure(.labelEndsWithHyphen) }
        let isASCII = label.allSatisfy(\.isASCII)
        if isASCII {
            for scalar in label {
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", "-": continue
                default: return .failure(.invalidDomainCharacter)
                }
            }
            if label.count > 63 { return .failure(.labelTooLong) }
            if label.count >= 4, label[label.startIndex + 2] == "-", label[label.startIndex + 3] == "-" {
                let prefix = String(String.UnicodeScalarView(label.prefix(2))).lowercased()
                guard prefix == "xn" else { return .failure(.reservedHyphens) }
                // DNS names are case-insensitive: `XN--BCHER-KVA` is `xn--bcher-kva`.
                let encoded = String(String.UnicodeScalarView(label.dropFirst(4))).lowercased()
                // An A-label is ASCII, so ASCII mode accepts it too; it must decode to a valid U-label.
                guard let decoded = Punycode.decode(encoded), Self.isALabelOfValidULabel(decoded),
                    uLabelCharactersValid(Array(decoded.unicodeScalars)[...])
                else { return .failure(.invalidPunycode) }
            }
            return .success(label.count)
        }
        guard options.allowsInternational else { return .failure(.nonASCIINotAllowed) }
        guard uLabelCharactersValid(label) else { return .failure(.invalidDomainCharacter) }
        // In NFC, as IDNA reads it: `xń--` (n and a combining acute) is `xń--`, hyphens third and fourth.
        let composed = Array(
            String(String.UnicodeScalarView(label)).precomposedStringWithCanonicalMapping.unicodeScalars)
        if composed.count >= 4, composed[2] == "-", composed[3] == "-" { return .failure(.reservedHyphens) }
        let aLabelLength = 4 + Punycode.encode(String(String.UnicodeScalarView(label))).utf8.count
        if aLabelLength > 63 { return .failure(.labelTooLong) }
        return .success(aLabelLength)
    }

    /// Whether `decoded`, the U-label an A-label decodes to, is one IDNA 2008 allows (RFC 5891 §5.4,
    /// RFC 5892): not ASCII only; every code point stable under NFKC case folding (so no upper case,
    /// no compatibility forms, nothing default-ignorable), bar the six RFC 5892 §2.6 lists as PVALID;
    /// in NFC; no hyphen at either end or in the third and fourth places. A U-label written as such
    /// is mapped first (UTS 46: `Пример` is `пример`), so only A-labels, which must be exact, are held
    /// to this.
    static func isALabelOfValidULabel(_ decoded: String) -> Bool {
        let scalars = Array(decoded.unicodeScalars)
        guard !scalars.allSatisfy(\.isASCII), scalars.first != "-", scalars.last != "-" else { return false }
        if scalars.count >= 4, scalars[2] == "-", scalars[3] == "-" { return false }
        for scalar in scalars where scalar.properties.changesWhenNFKCCaseFolded {
            switch scalar.value {
            case 0x00DF, 0x03C2, 0x06FD, 0x06FE, 0x0F0B, 0x3007: continue  // RFC 5892 §2.6: PVALID
            default: return false
            }
        }
        return Array(decoded.precomposedStringWithCanonicalMapping.unicodeScalars) == scalars
    }

    /// Whether `scalar` is a combining mark (Mn, Mc, Me).
    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// An approximation of IDNA 2008's PVALID code points: letters, combining marks (not first),
    /// decimal digits and the hyphen.
    private func uLabelCharactersValid(_ label: ArraySlice<Unicode.Scalar>) -> Bool {
        guard let first = label.first else { return false }
        switch first.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return false
        default: break
        }
        for scalar in label {
            if scalar == "-" { continue }
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber:
                continue
            default:
                return false
            }
        }
        return true
    }

    private func utf8Count(_ scalars: ArraySlice<Unicode.Scalar>) -> Int {
        scalars.reduce(0) { $0 + UTF8.width($1) }
    }
}
