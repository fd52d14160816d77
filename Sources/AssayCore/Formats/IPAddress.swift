/// Syntax checks for IP addresses as text.
package enum IPAddress {
    /// Whether `text` is an IPv4 address in dotted-decimal form: four decimal numbers 0–255 without
    /// leading zeros (`192.168.0.1`; not `192.168.00.1`, `1.2.3`, or `256.1.1.1`).
    package static func isValidIPv4<S: StringProtocol>(_ text: S) -> Bool {
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
    package static func isValidIPv6<S: StringProtocol>(_ text: S) -> Bool {
        var text = String(text)
        return text.withUTF8 { isValidIPv6(utf8: $0) }
    }

    /// ``isValidIPv6(_:)`` on UTF-8.
    package static func isValidIPv6(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count <= 45, bytes.allSatisfy({ $0 < 0x80 }) else { return false }
        var compression: Int?
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: ":") && bytes[index + 1] == UInt8(ascii: ":") {
                compression = index
                break
            }
            index += 1
        }
        var head = 0..<bytes.count
        var tail = bytes.count..<bytes.count
        if let compression {
            head = 0..<compression
            tail = (compression + 2)..<bytes.count
            var next = tail.lowerBound
            while next + 1 < tail.upperBound {
                if bytes[next] == UInt8(ascii: ":") && bytes[next + 1] == UInt8(ascii: ":") { return false }
                next += 1
            }
        }
        /// The groups `range` holds (an IPv4 address at the end, when allowed, counts two).
        func groups(_ range: Range<Int>, allowIPv4: Bool) -> Int? {
            if range.isEmpty { return 0 }
            var total = 0
            var start = range.lowerBound
            while true {
                let end = bytes[start..<range.upperBound].firstIndex(of: UInt8(ascii: ":")) ?? range.upperBound
                let piece = bytes[start..<end]
                if allowIPv4 && end == range.upperBound && piece.contains(UInt8(ascii: ".")) {
                    guard isValidIPv4(utf8: UnsafeBufferPointer(rebasing: piece)) else { return nil }
                    total += 2
                } else {
                    guard (1...4).contains(piece.count), piece.allSatisfy(isHexDigit) else { return nil }
                    total += 1
                }
                if end == range.upperBound { return total }
                start = end + 1
            }
        }
        guard let headGroups = groups(head, allowIPv4: compression == nil),
            let tailGroups = groups(tail, allowIPv4: true)
        else { return false }
        let total = headGroups + tailGroups
        return compression != nil ? total <= 7 : total == 8
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "f"))
    }
}
