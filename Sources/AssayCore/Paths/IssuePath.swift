/// One step in a path to a value: a key of an object or an index of an array.
public enum PathComponent: Hashable, Sendable, CustomStringConvertible {
    /// A key of an object or a property of a type.
    case key(String)
    /// A zero-based index into an array.
    case index(Int)

    /// The key, or the index as text.
    public var description: String {
        switch self {
        case .key(let key): return key
        case .index(let index): return String(index)
        }
    }
}

/// The location of a value inside a larger value, as typed components.
///
/// Render it as a JSON Pointer (RFC 6901, `/clients/1/age`) or as a coding path (`clients[1].age`):
///
/// <!-- snippet: doc-issue-path -->
/// ```swift
/// let path: IssuePath = ["clients", 1, "age"]
/// print(path.jsonPointer)  // /clients/1/age
/// print(path.codingPath)  // clients[1].age
/// ```
public struct IssuePath: Hashable, Sendable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// The components, outermost first.
    public var components: [PathComponent]

    /// Makes a path from components, outermost first.
    public init(_ components: [PathComponent] = []) { self.components = components }

    /// The path of the root value.
    public static let root = IssuePath()

    /// Makes a path from literals: strings are keys, integers are indices.
    public init(arrayLiteral elements: PathComponentLiteral...) {
        self.components = elements.map(\.component)
    }

    /// Whether this is the root path.
    public var isRoot: Bool { components.isEmpty }

    /// The last key of the path, if its last component is a key.
    public var lastKey: String? {
        if case .key(let key) = components.last { return key }
        return nil
    }

    /// This path followed by `component`.
    public func appending(_ component: PathComponent) -> IssuePath {
        var copy = self
        copy.components.append(component)
        return copy
    }

    /// This path followed by `key`.
    public func appending(key: String) -> IssuePath { appending(.key(key)) }

    /// This path followed by `index`.
    public func appending(index: Int) -> IssuePath { appending(.index(index)) }

    /// The path of a `Codable` coding path: integer keys are indices, the others keys.
    public init(codingPath: [any CodingKey]) {
        self.init(codingPath.map { key in key.intValue.map { .index($0) } ?? .key(key.stringValue) })
    }

    /// This path followed by `other`.
    public func appending(contentsOf other: IssuePath) -> IssuePath {
        IssuePath(components + other.components)
    }

    /// `prefix` followed by this path.
    public func prefixed(by prefix: IssuePath) -> IssuePath {
        IssuePath(prefix.components + components)
    }

    /// The path as a JSON Pointer (RFC 6901): `""` for the root, `/a/0/b~1c` otherwise.
    public var jsonPointer: String {
        PointerText.string(components)
    }

    /// The path as a Swift coding path: `clients[1].age`; keys that are not identifiers are quoted
    /// (`["first name"]`). The root renders as an empty string.
    public var codingPath: String {
        var result = ""
        for component in components {
            switch component {
            case .index(let index): result += "[\(index)]"
            case .key(let key):
                if Self.isIdentifier(key) {
                    if !result.isEmpty { result += "." }
                    result += key
                } else {
                    result += "[\"" + key.replacingEvery("\\", with: "\\\\").replacingEvery("\"", with: "\\\"") + "\"]"
                }
            }
        }
        return result
    }

    /// The JSON Pointer.
    public var description: String { jsonPointer }

    /// Parses a JSON Pointer; returns `nil` when `pointer` is not one. Components made only of
    /// digits become indices.
    public init?(jsonPointer pointer: String) {
        guard let tokens = PointerText.tokens(of: pointer) else { return nil }
        var components: [PathComponent] = []
        for key in tokens {
            if let index = Int(key), index >= 0, String(index) == key {
                components.append(.index(index))
            } else {
                components.append(.key(key))
            }
        }
        self.init(components)
    }

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first == "_" || first.properties.isXIDStart else { return false }
        return key.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isXIDContinue }
    }
}

/// A literal usable in an ``IssuePath`` array literal: a string key or an integer index.
public struct PathComponentLiteral: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, Sendable {
    /// The component.
    public let component: PathComponent
    /// A key.
    public init(stringLiteral value: String) { component = .key(value) }
    /// An index.
    public init(integerLiteral value: Int) { component = .index(value) }
}
