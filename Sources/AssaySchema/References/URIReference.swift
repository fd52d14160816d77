import AssayCore

/// A URI reference split into its RFC 3986 parts, with resolution against a base (section 5.2).
struct URIReference: Hashable, Sendable, CustomStringConvertible {
    var scheme: String?
    var authority: String?
    var path: String
    var query: String?
    var fragment: String?

    /// Splits `text` with RFC 3986 appendix B's regular expression, written out by hand. The
    /// delimiters are ASCII: they are found among the UTF-8 bytes, not the characters (a `#` that a
    /// combining mark follows still ends the path), and each search reads a byte at a time.
    init(_ text: String) {
        var rest = Substring(text)
        if let hash = rest.utf8.firstIndex(of: UInt8(ascii: "#")) {
            fragment = String(rest[rest.utf8.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let mark = rest.utf8.firstIndex(of: UInt8(ascii: "?")) {
            query = String(rest[rest.utf8.index(after: mark)...])
            rest = rest[..<mark]
        }
        if let colon = rest.utf8.firstIndex(of: UInt8(ascii: ":")), URIValidator.isScheme(rest[..<colon]) {
            scheme = String(rest[..<colon])
            rest = rest[rest.utf8.index(after: colon)...]
        }
        if rest.utf8.starts(with: "//".utf8) {
            let afterSlashes = rest[rest.utf8.index(rest.startIndex, offsetBy: 2)...]
            let end = afterSlashes.utf8.firstIndex(of: UInt8(ascii: "/")) ?? afterSlashes.endIndex
            authority = String(afterSlashes[..<end])
            rest = afterSlashes[end...]
        }
        path = String(rest)
    }

    var description: String {
        var result = ""
        if let scheme { result += scheme + ":" }
        if let authority { result += "//" + authority }
        result += path
        if let query { result += "?" + query }
        if let fragment { result += "#" + fragment }
        return result
    }

    /// The reference without its fragment.
    var withoutFragment: URIReference {
        var copy = self
        copy.fragment = nil
        return copy
    }

    /// Resolves `reference` against this (absolute) base: RFC 3986 section 5.2.2.
    func resolving(_ reference: URIReference) -> URIReference {
        var target = URIReference("")
        if reference.scheme != nil {
            target = reference
            target.path = Self.removeDotSegments(reference.path)
            return target
        }
        target.scheme = scheme
        if reference.authority != nil {
            target.authority = reference.authority
            target.path = Self.removeDotSegments(reference.path)
            target.query = reference.query
        } else {
            target.authority = authority
            if reference.path.isEmpty {
                target.path = path
                target.query = reference.query ?? query
            } else {
                if reference.path.hasPrefix("/") {
                    target.path = Self.removeDotSegments(reference.path)
                } else {
                    target.path = Self.removeDotSegments(merge(reference.path))
                }
                target.query = reference.query
            }
        }
        target.fragment = reference.fragment
        return target
    }

    func resolving(_ text: String) -> URIReference { resolving(URIReference(text)) }

    private func merge(_ referencePath: String) -> String {
        if authority != nil && path.isEmpty { return "/" + referencePath }
        guard let slash = path.lastIndex(of: "/") else { return referencePath }
        return String(path[...slash]) + referencePath
    }

    static func removeDotSegments(_ input: String) -> String {
        let parts = input.split(separator: "/", omittingEmptySubsequences: false)
        // Most paths have no `.` or `..` segment, and come out as they are.
        guard parts.contains(where: { $0 == "." || $0 == ".." }) else { return input }
        var segments: [Substring] = []
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            switch part {
            case ".":
                if isLast { segments.append("") }
            case "..":
                if segments.count > 1 || (segments.count == 1 && !segments[0].isEmpty) { segments.removeLast() }
                if isLast { segments.append("") }
            default:
                segments.append(part)
            }
        }
        // Joined by hand: the generic `joined(separator:)` of substrings looks its associated types up
        // at run time, 0.26M instructions the first time.
        var output = ""
        for (index, segment) in segments.enumerated() {
            if index > 0 { output.append("/") }
            output.append(contentsOf: segment)
        }
        if input.hasPrefix("/") && !output.hasPrefix("/") { output = "/" + output }
        return output
    }
}
