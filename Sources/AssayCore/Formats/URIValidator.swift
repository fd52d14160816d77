/// Syntax checks for URIs after RFC 3986.
package enum URIValidator {
    /// Whether `text` is an absolute URI (`scheme:hier-part[?query][#fragment]`) per RFC 3986:
    /// a scheme, only allowed ASCII characters, valid percent-encodings, and a valid authority
    /// (user info, a host name, an IPv4 address or a bracketed IPv6 address, a numeric port).
    package static func isValidURI(_ text: String) -> Bool { utf8(text) { isValidURI(utf8: $0) } }

    /// Whether `text` is a URI reference (RFC 3986 section 4.1): an absolute URI or a relative
    /// reference such as `../a/b?c#d`, `//host/path` or `#fragment`.
    package static func isValidURIReference(_ text: String) -> Bool { utf8(text) { isValidURIReference(utf8: $0) } }

    /// Whether `text` is an absolute IRI (RFC 3987): a URI that may also contain non-ASCII characters
    /// (not white space or controls).
    package static func isValidIRI(_ text: String) -> Bool { utf8(text) { isValidIRI(utf8: $0) } }

    /// Whether `text` is an IRI reference (RFC 3987): an IRI or a relative reference, non-ASCII allowed.
    package static func isValidIRIReference(_ text: String) -> Bool { utf8(text) { isValidIRIReference(utf8: $0) } }

    /// ``isValidURI(_:)`` on the UTF-8 of the text (valid UTF-8), without making a `String`.
    package static func isValidURI(utf8 text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let colon = text.firstIndex(of: UInt8(ascii: ":")), isScheme(text, 0..<colon) else { return false }
        return isValidReferenceTail(text, (colon + 1)..<text.count, requireAuthorityForm: false, allowNonASCII: false)
    }

    /// ``isValidURIReference(_:)`` on the UTF-8 of the text.
    package static func isValidURIReference(utf8 text: UnsafeBufferPointer<UInt8>) -> Bool {
        isValidReference(text, allowNonASCII: false)
    }

    /// ``isValidIRI(_:)`` on the UTF-8 of the text.
    package static func isValidIRI(utf8 text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let colon = text.firstIndex(of: UInt8(ascii: ":")), isScheme(text, 0..<colon) else { return false }
        return isValidReferenceTail(text, (colon + 1)..<text.count, requireAuthorityForm: false, allowNonASCII: true)
    }

    /// ``isValidIRIReference(_:)`` on the UTF-8 of the text.
    package static func isValidIRIReference(utf8 text: UnsafeBufferPointer<UInt8>) -> Bool {
        isValidReference(text, allowNonASCII: true)
    }

    private static func utf8(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        var text = text
        return text.withUTF8(body)
    }

    private static func isValidReference(_ text: UnsafeBufferPointer<UInt8>, allowNonASCII: Bool) -> Bool {
        if let colon = text.firstIndex(of: UInt8(ascii: ":")) {
            let head = text[0..<colon]
            if !head.contains(UInt8(ascii: "/")) && !head.contains(UInt8(ascii: "?"))
                && !head.contains(UInt8(ascii: "#"))
            {
                // A colon before any slash: it must be a scheme (a relative path cannot have one there).
                guard isScheme(text, 0..<colon) else { return false }
                return isValidReferenceTail(
                    text, (colon + 1)..<text.count, requireAuthorityForm: false, allowNonASCII: allowNonASCII)
            }
        }
        return isValidReferenceTail(text, 0..<text.count, requireAuthorityForm: false, allowNonASCII: allowNonASCII)
    }

    /// Whether `text` is a URL a person would follow: an absolute URI whose scheme is in `schemes`
    /// (lowercased) and which has a non-empty host.
    package static func isValidURL(_ text: String, schemes: Set<String> = ["http", "https"]) -> Bool {
        guard isValidURI(text), let colon = text.firstIndex(of: ":") else { return false }
        guard schemes.contains(text[..<colon].lowercased()) else { return false }
        let rest = text[text.index(after: colon)...]
        guard rest.hasPrefix("//") else { return false }
        let authority = rest.dropFirst(2).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        let host =
            hostAndPort.hasPrefix("[")
            ? hostAndPort : hostAndPort.split(separator: ":", omittingEmptySubsequences: false).first ?? ""
        return !host.isEmpty
    }

    /// Whether `text` is a scheme: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
    package static func isScheme(_ text: Substring) -> Bool {
        var text = text
        return text.withUTF8 { isScheme($0, $0.indices) }
    }

    /// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
    static func isScheme(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard let first = range.first, isLetter(text[first]) else { return false }
        for index in range {
            let byte = text[index]
            guard
                isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: ".")
            else { return false }
        }
        return true
    }

    /// Checks what follows the scheme's colon (or a relative reference when no scheme), in `range`.
    static func isValidReferenceTail(
        _ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, requireAuthorityForm: Bool, allowNonASCII: Bool
    ) -> Bool {
        var end = range.upperBound
        if let hash = text[range].firstIndex(of: UInt8(ascii: "#")) {
            guard isValidComponent(text, (hash + 1)..<end, allowed: fragmentAllowed, allowNonASCII: allowNonASCII)
            else {
                return false
            }
            end = hash
        }
        if let mark = text[range.lowerBound..<end].firstIndex(of: UInt8(ascii: "?")) {
            guard isValidComponent(text, (mark + 1)..<end, allowed: fragmentAllowed, allowNonASCII: allowNonASCII)
            else {
                return false
            }
            end = mark
        }
        var path = range.lowerBound..<end
        if end - range.lowerBound >= 2 && text[range.lowerBound] == UInt8(ascii: "/")
            && text[range.lowerBound + 1] == UInt8(ascii: "/")
        {
            let start = range.lowerBound + 2
            let authorityEnd = text[start..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
            guard isValidAuthority(text, start..<authorityEnd, allowNonASCII: allowNonASCII) else { return false }
            path = authorityEnd..<end
        } else if requireAuthorityForm {
            return false
        }
        return isValidComponent(text, path, allowed: pathAllowed, allowNonASCII: allowNonASCII)
    }

    static func isValidAuthority(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, allowNonASCII: Bool) -> Bool {
        var hostPort = range
        if let at = text[range].lastIndex(of: UInt8(ascii: "@")) {
            guard isValidComponent(text, range.lowerBound..<at, allowed: userInfoAllowed, allowNonASCII: allowNonASCII)
            else { return false }
            hostPort = (at + 1)..<range.upperBound
        }
        var port = hostPort.upperBound..<hostPort.upperBound
        if hostPort.first.map({ text[$0] == UInt8(ascii: "[") }) == true {
            guard let close = text[hostPort].firstIndex(of: UInt8(ascii: "]")) else { return false }
            if close + 1 < hostPort.upperBound {
                guard text[close + 1] == UInt8(ascii: ":") else { return false }
                port = (close + 2)..<hostPort.upperBound
            }
            let inner = (hostPort.lowerBound + 1)..<close
            let literal = String(decoding: UnsafeBufferPointer(rebasing: text[inner]), as: UTF8.self)
            guard IPAddress.isValidIPv6(literal) || isIPvFuture(text, inner) else { return false }
        } else {
            var host = hostPort
            if let colon = text[hostPort].lastIndex(of: UInt8(ascii: ":")) {
                host = hostPort.lowerBound..<colon
                port = (colon + 1)..<hostPort.upperBound
            }
            guard isValidComponent(text, host, allowed: componentAllowed, allowNonASCII: allowNonASCII) else {
                return false
            }
        }
        return text[port].allSatisfy(isDigit)
    }

    /// `"v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`.
    private static func isIPvFuture(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard let first = range.first, text[first] | 0x20 == UInt8(ascii: "v"),
            let dot = text[range].firstIndex(of: UInt8(ascii: "."))
        else { return false }
        let version = text[(first + 1)..<dot]
        let rest = text[(dot + 1)..<range.upperBound]
        return !version.isEmpty && version.allSatisfy(isHexDigit) && !rest.isEmpty
            && rest.allSatisfy { isUnreserved($0) || isSubDelimiter($0) || $0 == UInt8(ascii: ":") }
    }

    /// Unreserved characters and sub-delimiters: what every component allows (a host's name).
    static let componentAllowed = ASCIISet(where: { isUnreserved($0) || isSubDelimiter($0) })
    static let pathAllowed = componentAllowed.union(ASCIISet("/:@"))
    static let fragmentAllowed = componentAllowed.union(ASCIISet("/?:@"))
    static let userInfoAllowed = componentAllowed.union(ASCIISet(":"))

    /// The ASCII bytes of `allowed` (unreserved characters and sub-delimiters, and what the
    /// component adds), valid percent-encodings, and with `allowNonASCII` any non-ASCII character
    /// but white space and controls.
    static func isValidComponent(
        _ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, allowed: ASCIISet, allowNonASCII: Bool
    ) -> Bool {
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = text[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < range.upperBound, isHexDigit(text[index + 1]), isHexDigit(text[index + 2]) else {
                    return false
                }
                index += 3
                continue
            }
            if byte < 0x80 {
                guard allowed.contains(byte) else { return false }
                index += 1
                continue
            }
            guard allowNonASCII else { return false }
            var decoder = UTF8()
            var bytes = text[index..<range.upperBound].makeIterator()
            guard case .scalarValue(let scalar) = decoder.decode(&bytes) else { return false }
            guard !scalar.properties.isWhitespace, scalar.properties.generalCategory != .control else { return false }
            index += UTF8.width(scalar)
        }
        return true
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }

    static func isSubDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="):
            return true
        default: return false
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "f"))
    }
}

/// A set of ASCII bytes as two words: a byte's membership is a shift and a mask.
struct ASCIISet: Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    /// The bytes of `characters` (ASCII).
    init(_ characters: String) {
        for byte in characters.utf8 where byte < 0x80 { insert(byte) }
    }

    /// The ASCII bytes for which `belongs` holds.
    init(where belongs: (UInt8) -> Bool) {
        for byte in UInt8(0)..<0x80 where belongs(byte) { insert(byte) }
    }

    private mutating func insert(_ byte: UInt8) {
        if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
    }

    func union(_ other: ASCIISet) -> ASCIISet {
        var union = self
        union.low |= other.low
        union.high |= other.high
        return union
    }

    /// Whether `byte` is in the set (never for a byte beyond ASCII).
    @inline(__always) func contains(_ byte: UInt8) -> Bool {
        if byte < 64 { return low &>> UInt64(byte) & 1 != 0 }
        return byte < 128 && high &>> UInt64(byte &- 64) & 1 != 0
    }
}
