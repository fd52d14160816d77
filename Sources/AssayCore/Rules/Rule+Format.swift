extension Rule where Value: StringProtocol & Sendable {
    /// The string is an email address (RFC 5321/5322, with RFC 6531 internationalised addresses by
    /// default). Reports `invalidFormat("email")` with a specific `reason` (an ``EmailRejection``).
    public static func email(_ options: EmailAddressValidator.Options = .default) -> Rule {
        let validator = EmailAddressValidator(options: options)
        return Rule(.email(options)) { value, context in
            if let rejection = validator.rejection(for: String(value)) {
                context.report(
                    .invalidFormat("email"), value: String(value),
                    parameters: ["format": "email", "reason": .string(rejection.identifier)],
                    messageKey: "invalidFormat.email")
            }
        }
    }

    /// The string is an absolute URL with one of `schemes` and a host (RFC 3986 syntax).
    /// Reports `invalidFormat("url")`.
    public static func url(schemes: Set<String> = ["http", "https"]) -> Rule {
        let parameters: [String: IssueValue] = [
            "format": "url", "schemes": .list(schemes.sorted().map { .string($0) }),
        ]
        let schemes = Set(schemes.map { $0.lowercased() })
        return Rule(.url(schemes: schemes.sorted())) { value, context in
            if !URIValidator.isValidURL(String(value), schemes: schemes) {
                context.report(.invalidFormat("url"), value: String(value), parameters: parameters)
            }
        }
    }

    /// The string is a UUID in its canonical text form, `8-4-4-4-12` hexadecimal digits in either
    /// case. Reports `invalidFormat("uuid")`.
    public static var uuid: Rule {
        Rule(.format(.uuid)) { value, context in
            if !isUUID(value) {
                context.report(.invalidFormat("uuid"), value: String(value), parameters: ["format": "uuid"])
            }
        }
    }
}

/// Whether `text` is a UUID in canonical text form (`8-4-4-4-12` hex digits, either case).
package func isUUID<S: StringProtocol>(_ text: S) -> Bool {
    var text = String(text)
    return text.withUTF8 { isUUID(utf8: $0) }
}

/// Whether `bytes` are a UUID's 36 characters: hex digits in groups of 8-4-4-4-12.
package func isUUID(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard bytes.count == 36, bytes[8] == UInt8(ascii: "-"), bytes[13] == UInt8(ascii: "-"),
        bytes[18] == UInt8(ascii: "-"), bytes[23] == UInt8(ascii: "-"), let base = bytes.baseAddress
    else { return false }
    // Eight bytes at a time (words at 0, 8, 16, 24 and 28 cover all 36); the lanes of the four
    // hyphens, checked above, count as hex.
    func word(_ offset: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
    }
    let lanes: UInt64 = 0x8080_8080_8080_8080
    return hexLanes(word(0)) == lanes
        && hexLanes(word(8)) | 0x0000_8000_0000_0080 == lanes
        && hexLanes(word(16)) | 0x8000_0000_0080_0000 == lanes
        && hexLanes(word(24)) == lanes
        && hexLanes(word(28)) == lanes
}

/// The high bit of each byte of `word` that is an ASCII hex digit (0-9, a-f, A-F), computed for
/// all eight bytes at once: no carry crosses a byte, since every sum stays below 0x100 for ASCII
/// bytes, and non-ASCII bytes are cleared at the end.
@inline(__always) func hexLanes(_ word: UInt64) -> UInt64 {
    let high: UInt64 = 0x8080_8080_8080_8080
    let ascii = ~word & high
    let low7 = word & 0x7F7F_7F7F_7F7F_7F7F
    // Digits: (byte ^ 0x30) < 10.
    let digitOffset = low7 ^ 0x3030_3030_3030_3030
    let digit = ~(digitOffset &+ 0x7676_7676_7676_7676) & high
    // Letters: (byte | 0x20) in 0x61...0x66.
    let lower = low7 | 0x2020_2020_2020_2020
    let atLeastA = (lower &+ 0x1F1F_1F1F_1F1F_1F1F) & high
    let aboveF = (lower &+ 0x1919_1919_1919_1919) & high
    return (digit | (atLeastA & ~aboveF)) & ascii
}

extension Rule where Value: StringProtocol & Sendable {
    /// The text is valid for a JSON Schema format, checked by the same code as a schema's `format`
    /// keyword (``TextFormat``), and exported as that keyword. Reports
    /// ``IssueCode/invalidFormat(_:)`` with the format's name.
    ///
    /// <!-- snippet: doc-format-rule -->
    /// ```swift
    /// let signup = Rule<String>.format(.dateTime)
    /// print(signup.isValid("2026-11-26T08:00:00Z"))  // true
    /// ```
    public static func format(_ format: TextFormat) -> Rule {
        let parameters: [String: IssueValue] = ["format": .string(format.rawValue)]
        return Rule(.format(format)) { value, context in
            if !format.isValid(String(value)) {
                context.report(.invalidFormat(format.rawValue), value: String(value), parameters: parameters)
            }
        }
    }
}
