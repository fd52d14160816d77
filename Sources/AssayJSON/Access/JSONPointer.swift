import AssayCore

/// A JSON Pointer (RFC 6901) that could not be used.
public struct JSONPointerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The pointer.
    public let pointer: String
    /// What is wrong, in English.
    public let reason: String
    /// `JSON Pointer "…": reason`.
    public var description: String { "JSON Pointer \"\(pointer)\": \(reason)" }
}

extension JSONValue {
    /// The value at a JSON Pointer (`""` is the whole value, `/a/0/b~1c` a nested one); `nil` when the
    /// pointer is malformed or leads nowhere. Array tokens must be canonical indices (`0`, `12`; not
    /// `01` or `-`).
    public subscript(pointer pointer: String) -> JSONValue? {
        guard let tokens = try? Self.tokens(of: pointer) else { return nil }
        var current = self
        for token in tokens {
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let elements):
                guard let index = Self.arrayIndex(token), index < elements.count else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The value at `path` (keys and indices).
    public subscript(path path: IssuePath) -> JSONValue? { self[pointer: path.jsonPointer] }

    /// Sets the value at a JSON Pointer. The parent must exist; an object gains or replaces the key,
    /// an array replaces an element, or appends with the token `-` or the index equal to its count.
    ///
    /// - Throws: ``JSONPointerError`` when the pointer is malformed or its parent is missing or not a
    ///   container; the value is unchanged then.
    public mutating func set(_ newValue: JSONValue, at pointer: String) throws(JSONPointerError) {
        let tokens = try Self.tokens(of: pointer)
        try Self.set(newValue, in: &self, tokens: tokens[...], pointer: pointer)
    }

    /// Removes and returns the value at a JSON Pointer; `nil` when nothing is there.
    @discardableResult
    public mutating func remove(at pointer: String) -> JSONValue? {
        guard let tokens = try? Self.tokens(of: pointer), let last = tokens.last else { return nil }
        let parentPointer = tokens.dropLast().map(Self.escape).map { "/" + $0 }.joined()
        guard var parent = self[pointer: parentPointer] else { return nil }
        let removed: JSONValue?
        switch parent {
        case .object(var object):
            removed = object[last]
            object[last] = nil
            parent = .object(object)
        case .array(var elements):
            guard let index = Self.arrayIndex(last), index < elements.count else { return nil }
            removed = elements.remove(at: index)
            parent = .array(elements)
        default:
            return nil
        }
        try? set(parent, at: parentPointer)
        return removed
    }

    private static func set(
        _ newValue: JSONValue, in value: inout JSONValue, tokens: ArraySlice<String>, pointer: String
    ) throws(JSONPointerError) {
        guard let token = tokens.first else {
            value = newValue
            return
        }
        let rest = tokens.dropFirst()
        switch value {
        case .object(var object):
            if rest.isEmpty {
                object[token] = newValue
            } else {
                guard var child = object[token] else {
                    throw JSONPointerError(pointer: pointer, reason: "no member \"\(token)\"")
                }
                try set(newValue, in: &child, tokens: rest, pointer: pointer)
                object[token] = child
            }
            value = .object(object)
        case .array(var elements):
            if token == "-" || arrayIndex(token) == elements.count, rest.isEmpty {
                elements.append(newValue)
            } else {
                guard let index = arrayIndex(token), index < elements.count else {
                    throw JSONPointerError(pointer: pointer, reason: "no element \"\(token)\"")
                }
                try set(newValue, in: &elements[index], tokens: rest, pointer: pointer)
            }
            value = .array(elements)
        default:
            throw JSONPointerError(pointer: pointer, reason: "\"\(token)\" is inside a \(value.kind), not a container")
        }
    }

    /// The unescaped tokens of a JSON Pointer (`""` has none), read by ``PointerText/tokens(of:)``.
    package static func tokens(of pointer: String) throws(JSONPointerError) -> [String] {
        guard pointer.isEmpty || pointer.hasPrefix("/") else {
            throw JSONPointerError(pointer: pointer, reason: "must start with \"/\"")
        }
        guard let tokens = PointerText.tokens(of: pointer) else {
            throw JSONPointerError(pointer: pointer, reason: "\"~\" must be followed by 0 or 1")
        }
        return tokens
    }

    /// `token` escaped for a JSON Pointer (`~` → `~0`, `/` → `~1`); most tokens need nothing, and cost
    /// one scan.
    package static func escape(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        return token.replacingEvery("~", with: "~0").replacingEvery("/", with: "~1")
    }

    static func arrayIndex(_ token: String) -> Int? {
        guard !token.isEmpty, token.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            token == "0" || token.utf8.first != 0x30
        else { return nil }
        return Int(token)
    }
}
