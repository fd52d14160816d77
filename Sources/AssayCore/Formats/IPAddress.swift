/// Syntax checks for IP addresses as text.
public enum IPAddress {
    /// Whether `text` is an IPv4 address in dotted-decimal form: four decimal numbers 0–255 without
    /// leading zeros (`192.168.0.1`; not `192.168.00.1`, `1.2.3`, or `256.1.1.1`).
    public static func isValidIPv4<S: StringProtocol>(_ text: S) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        for part in parts {
            guard (1...3).contains(part.utf8.count), part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return false
            }
            if part.utf8.count > 1 && part.utf8.first == 0x30 { return false }
            guard let value = Int(part), value <= 255 else { return false }
        }
        return true
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
