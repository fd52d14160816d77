/// Syntax checks for URIs after RFC 3986.
public enum URIValidator {
    /// Whether `text` is an absolute URI (`scheme:hier-part[?query][#fragment]`) per RFC 3986:
    /// a scheme, only allowed ASCII characters, valid percent-encodings, and a valid authority
    /// (user info, a host name, an IPv4 address or a bracketed IPv6 address, a numeric port).
    public static func isValidURI(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let scheme = text[..<colon]
        guard isScheme(scheme) else { return false }
        return isValidReferenceTail(text[text.index(after: colon)...], requireAuthorityForm: false)
    }

    /// Whether `text` is a URI reference (RFC 3986 section 4.1): an absolute URI or a relative
    /// reference such as `../a/b?c#d`, `//host/path` or `#fragment`.
    public static func isValidURIReference(_ text: String) -> Bool {
        isValidReference(text, allowNonASCII: false)
    }

    /// Whether `text` is an absolute IRI (RFC 3987): a URI that may also contain non-ASCII characters
    /// (not white space or controls).
    public static func isValidIRI(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), isScheme(text[..<colon]) else { return false }
        return isValidReferenceTail(text[text.index(after: colon)...], requireAuthorityForm: false, allowNonASCII: true)
    }

    /// Whether `text` is an IRI reference (RFC 3987): an IRI or a relative reference, non-ASCII allowed.
    public static func isValidIRIReference(_ text: String) -> Bool {
        isValidReference(text, allowNonASCII: true)
    }

    private static func isValidReference(_ text: String, allowNonASCII: Bool) -> Bool {
        if let colon = text.firstIndex(of: ":") {
            let head = text[..<colon]
            if !head.contains("/") && !head.contains("?") && !head.contains("#") {
                // A colon before any slash: it must be a scheme (a relative path cannot have one there).
                guard isScheme(head) else { return false }
                return isValidReferenceTail(
                    text[text.index(after: colon)...], requireAuthorityForm: false, allowNonASCII: allowNonASCII)
            }
        }
        return isValidReferenceTail(text[...], requireAuthorityForm: false, allowNonASCII: allowNonASCII)
    }

    /// Whether `text` is a URL a person would follow: an absolute URI whose scheme is in `schemes`
    /// (lowercased) and which has a non-empty host.
    public static func isValidURL(_ text: String, schemes: Set<String> = ["http", "https"]) -> Bool {
        guard isValidURI(text), let colon = text.firstIndex(of: ":") else { return false }
        guard schemes.contains(text[..<colon].lowercased()) else { return false }
        let rest = text[text.index(after: colon)...]
        guard rest.hasPrefix("//") else { return false }
        let authority = rest.dropFirst(2).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        let host = hostAndPort.hasPrefix("[") ? hostAndPort : hostAndPort.split(separator: ":").first ?? ""
        return !host.isEmpty
    }

    static func isScheme<S: StringProtocol>(_ scheme: S) -> Bool {
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else {
            return false
        }
        return scheme.unicodeScalars.allSatisfy { scalar in
            guard scalar.isASCII else { return false }
            return scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || "+-.".unicodeScalars.contains(scalar)
        }
    }

    /// Checks what follows the scheme's colon (or a relative reference when no scheme).
    static func isValidReferenceTail(_ rest: Substring, requireAuthorityForm: Bool, allowNonASCII: Bool = false) -> Bool
    {
        var remainder = rest
        var fragment: Substring? = nil
        if let hash = remainder.firstIndex(of: "#") {
            fragment = remainder[remainder.index(after: hash)...]
            remainder = remainder[..<hash]
        }
        var query: Substring? = nil
        if let mark = remainder.firstIndex(of: "?") {
            query = remainder[remainder.index(after: mark)...]
            remainder = remainder[..<mark]
        }
        if let fragment, !isValidComponent(fragment, extra: "/?:@", allowNonASCII: allowNonASCII) { return false }
        if let query, !isValidComponent(query, extra: "/?:@", allowNonASCII: allowNonASCII) { return false }
        var path = remainder
        if remainder.hasPrefix("//") {
            let afterSlashes = remainder.dropFirst(2)
            let authority = afterSlashes.prefix { $0 != "/" }
            path = afterSlashes[authority.endIndex...]
            guard isValidAuthority(authority, allowNonASCII: allowNonASCII) else { return false }
        } else if requireAuthorityForm {
            return false
        }
        return isValidComponent(path, extra: "/:@", allowNonASCII: allowNonASCII)
    }

    static func isValidAuthority(_ authority: Substring, allowNonASCII: Bool = false) -> Bool {
        var hostPort = authority
        if let at = authority.lastIndex(of: "@") {
            guard isValidComponent(authority[..<at], extra: ":", allowNonASCII: allowNonASCII) else { return false }
            hostPort = authority[authority.index(after: at)...]
        }
        var host = hostPort
        var port: Substring = ""
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { return false }
            host = hostPort[...close]
            let after = hostPort[hostPort.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return false }
                port = after.dropFirst()
            }
            let inner = host.dropFirst().dropLast()
            guard IPAddress.isValidIPv6(inner) || isIPvFuture(inner) else { return false }
        } else {
            if let colon = hostPort.lastIndex(of: ":") {
                host = hostPort[..<colon]
                port = hostPort[hostPort.index(after: colon)...]
            }
            guard isValidComponent(host, extra: "", allowNonASCII: allowNonASCII) else { return false }
        }
        return port.allSatisfy { $0.isASCII && $0.isNumber }
    }

    private static func isIPvFuture(_ text: Substring) -> Bool {
        guard text.first == "v" || text.first == "V", let dot = text.firstIndex(of: ".") else { return false }
        let version = text[text.index(after: text.startIndex)..<dot]
        let rest = text[text.index(after: dot)...]
        return !version.isEmpty && version.allSatisfy(\.isHexDigit) && !rest.isEmpty
            && rest.unicodeScalars.allSatisfy { isUnreserved($0) || isSubDelimiter($0) || $0 == ":" }
    }

    /// Unreserved characters, sub-delimiters, `extra`, and valid percent-encodings.
    static func isValidComponent(_ text: Substring, extra: String, allowNonASCII: Bool = false) -> Bool {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "%" {
                guard index + 2 < scalars.count, scalars[index + 1].properties.isASCIIHexDigit,
                    scalars[index + 2].properties.isASCIIHexDigit
                else { return false }
                index += 3
                continue
            }
            let allowed =
                isUnreserved(scalar) || isSubDelimiter(scalar) || extra.unicodeScalars.contains(scalar)
                || (allowNonASCII && !scalar.isASCII && !scalar.properties.isWhitespace
                    && scalar.properties.generalCategory != .control)
            guard allowed else { return false }
            index += 1
        }
        return true
    }

    static func isUnreserved(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", ".", "_", "~": return true
        default: return false
        }
    }

    static func isSubDelimiter(_ scalar: Unicode.Scalar) -> Bool {
        "!$&'()*+,;=".unicodeScalars.contains(scalar)
    }
}
