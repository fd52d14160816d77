extension Rule where Value: StringProtocol & Sendable {
    /// The string is an email address (RFC 5321/5322, with RFC 6531 internationalised addresses by
    /// default). Reports `invalidFormat("email")` with a specific `reason` (an ``EmailRejection``).
    public static func email(_ options: EmailAddressValidator.Options = .default) -> Rule {
        let validator = EmailAddressValidator(options: options)
        let format = options.allowsInternational ? "idn-email" : "email"
        return Rule(RuleDescriptor("format", parameters: ["format": .string(format)])) { value, context in
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
        return Rule(RuleDescriptor("format", parameters: ["format": "uri"])) { value, context in
            if !URIValidator.isValidURL(String(value), schemes: schemes) {
                context.report(.invalidFormat("url"), value: String(value), parameters: parameters)
            }
        }
    }

    /// The string is a UUID in its canonical text form, `8-4-4-4-12` hexadecimal digits in either
    /// case. Reports `invalidFormat("uuid")`.
    public static var uuid: Rule {
        Rule(RuleDescriptor("format", parameters: ["format": "uuid"])) { value, context in
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
        bytes[18] == UInt8(ascii: "-"), bytes[23] == UInt8(ascii: "-")
    else { return false }
    guard let base = bytes.baseAddress else { return false }
    // The five groups of hex digits, without a branch per byte: 0-9, or a-f in either case
    // (| 0x20 lowers an ASCII letter).
    var allHex = true
    for (start, count) in [(0, 8), (9, 4), (14, 4), (19, 4), (24, 12)] {
        for offset in start..<start + count {
            let byte = base[offset]
            allHex = allHex && (byte &- 0x30 < 10 || (byte | 0x20) &- 0x61 < 6)
        }
    }
    return allHex
}
