/// Why an email address was rejected: one specific reason, with a stable ``identifier`` and a
/// message in every built-in language (catalog key `reason.<identifier>`).
public struct EmailRejection: Error, Hashable, Sendable, CustomStringConvertible {
    /// The reason's stable name, e.g. `"localPartTooLong"`.
    public let identifier: String

    private init(_ identifier: String) { self.identifier = identifier }

    /// The reason's name.
    public var description: String { identifier }

    /// The address is empty.
    public static let empty = EmailRejection("empty")
    /// There is no `@`.
    public static let missingAtSign = EmailRejection("missingAtSign")
    /// Nothing before the `@`.
    public static let emptyLocalPart = EmailRejection("emptyLocalPart")
    /// The local part is over 64 octets (RFC 5321 §4.5.3.1.1).
    public static let localPartTooLong = EmailRejection("localPartTooLong")
    /// The address is over 254 octets (RFC 5321's 256-octet path less the angle brackets).
    public static let addressTooLong = EmailRejection("addressTooLong")
    /// The local part starts with a dot.
    public static let leadingDot = EmailRejection("leadingDot")
    /// The local part ends with a dot.
    public static let trailingDot = EmailRejection("trailingDot")
    /// Two dots in a row in the local part.
    public static let consecutiveDots = EmailRejection("consecutiveDots")
    /// A character the local part may not hold unquoted (RFC 5322 `atext`, RFC 6531 UTF-8).
    public static let invalidLocalCharacter = EmailRejection("invalidLocalCharacter")
    /// A quoted local part (`"john doe"@example.com`) where the options do not allow one.
    public static let quotedLocalPartNotAllowed = EmailRejection("quotedLocalPartNotAllowed")
    /// A quoted local part that is not a valid RFC 5321 `Quoted-string`.
    public static let invalidQuotedString = EmailRejection("invalidQuotedString")
    /// Nothing after the `@`.
    public static let emptyDomain = EmailRejection("emptyDomain")
    /// The domain is over 253 octets (in its ASCII form).
    public static let domainTooLong = EmailRejection("domainTooLong")
    /// An empty label: two dots in a row, or a dot at the start or end of the domain.
    public static let emptyLabel = EmailRejection("emptyLabel")
    /// A label over 63 octets (in its ASCII form).
    public static let labelTooLong = EmailRejection("labelTooLong")
    /// A label that starts with a hyphen.
    public static let labelStartsWithHyphen = EmailRejection("labelStartsWithHyphen")
    /// A label that ends with a hyphen.
    public static let labelEndsWithHyphen = EmailRejection("labelEndsWithHyphen")
    /// A character a domain label may not hold.
    public static let invalidDomainCharacter = EmailRejection("invalidDomainCharacter")
    /// The top-level domain is all digits (`user@example.123`).
    public static let numericTopLevelDomain = EmailRejection("numericTopLevelDomain")
    /// A domain literal (`user@[192.0.2.1]`) where the options do not allow one.
    public static let domainLiteralNotAllowed = EmailRejection("domainLiteralNotAllowed")
    /// A domain literal that is not an IPv4 address or `IPv6:` and an IPv6 address.
    public static let invalidDomainLiteral = EmailRejection("invalidDomainLiteral")
    /// A non-ASCII character in ASCII-only mode.
    public static let nonASCIINotAllowed = EmailRejection("nonASCIINotAllowed")
    /// An `xn--` label that is not valid Punycode, or decodes to a label that is not a valid U-label
    /// (IDNA 2008: a code point the protocol disallows — upper case, a compatibility form —, not in
    /// NFC, hyphens at either end or in the third and fourth places).
    public static let invalidPunycode = EmailRejection("invalidPunycode")
    /// A label with `--` in its third and fourth places that is not an `xn--` A-label.
    public static let reservedHyphens = EmailRejection("reservedHyphens")
    /// A control character anywhere.
    public static let controlCharacter = EmailRejection("controlCharacter")
    /// An invisible format character anywhere (Unicode category Cf: zero-width spaces and joiners,
    /// bidirectional overrides and isolates such as U+202E, U+FEFF, U+0604): it would make two
    /// addresses that look the same differ, or show an address in another order than it is.
    public static let invisibleCharacter = EmailRejection("invisibleCharacter")
    /// A combining mark (Unicode M*) first in the local part: with nothing of its own to combine
    /// with, it renders on the character before the address.
    public static let leadingCombiningMark = EmailRejection("leadingCombiningMark")
    /// White space outside a quoted local part.
    public static let whitespace = EmailRejection("whitespace")
}
