/// Syntax checks for IP addresses as text.
public enum IPAddress {
    /// Whether `text` is an IPv4 address in dotted-decimal form: four decimal numbers 0–255 without
    /// leading zeros (`192.168.0.1`; not `192.168.00.1`, `1.2.3`, or `256.1.1.1`).
    public static func isValidIPv4<S: StringProtocol>(_ text: S) -> Bool {
        var text = String(text)
        return text.withUTF8 { isValidIPv4(utf8: $0) }
    }

    /// ``isValidIPv4(_:)`` on UTF-8: four decimal octets of one to three ASCII digits, without
    /// leading zeros, at most 255, separated by dots.
    package static func isValidIPv4(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var parts = 0
        var index = 0
        while index <= bytes.count {
            var value = 0
            var digits = 0
            let start = index
            while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 {
                value = value * 10 + Int(bytes[index] - 0x30)
                digits += 1
                index += 1
                if digits > 3 { return false }
            }
            guard digits > 0, value <= 255, !(digits > 1 && bytes[start] == 0x30) else { return false }
            parts += 1
            if index == bytes.count { return parts == 4 }
            guard bytes[index] == UInt8(ascii: "."), parts < 4 else { return false }
            index += 1
        }
        return false
    }

    /// Whether `text` is an IPv6 address in the text forms of RFC 4291 section 2.2: eight groups of
    /// one to four hex digits, one `::` for a run of zero groups, and an IPv4 address in place of the
    /// last two groups. Zone identifiers (`%eth0`) and brackets are not accepted.
    public static func isValidIPv6<S: StringProtocol>(_ text: S) -> Bool {
        let string = String(text)
        guard string.utf8.count <= 45, string.unicodeScalars.allSatisfy(\.isASCII) else { return false }
        var groups = 0
        var head = Substring(string)
        var tail = Substring("")
        var compressed = false
        if let range = string.range(of: "::") {
            compressed = true
            head = string[..<range.lowerBound]
            tail = string[range.upperBound...]
            if tail.contains("::") { return false }
        }
        func count(_ part: Substring, allowIPv4: Bool) -> Int? {
            if part.isEmpty { return 0 }
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            var total = 0
            for (index, piece) in pieces.enumerated() {
                if allowIPv4 && index == pieces.count - 1 && piece.contains(".") {
                    guard isValidIPv4(piece) else { return nil }
                    total += 2
                } else {
                    guard (1...4).contains(piece.count), piece.allSatisfy(\.isHexDigit) else { return nil }
                    total += 1
                }
            }
            return total
        }
        guard let headCount = count(head, allowIPv4: !compressed) else { return false }
        guard let tailCount = count(tail, allowIPv4: true) else { return false }
        groups = headCount + tailCount
        return compressed ? groups <= 7 : groups == 8
    }
}
