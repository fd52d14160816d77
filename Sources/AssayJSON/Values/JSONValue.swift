/// A JSON value: null, a Boolean, a number, a string, an array, or an object.
///
/// `JSONValue` is an owned, immutable-by-value tree: build one from a literal, parse one with
/// ``init(parsing:options:)-([UInt8],_)``, read it safely (see ``subscript(_:)-(String)``),
/// change it with JSON Pointers, and write it back with ``jsonString(_:)``.
///
/// Equality and hashing are JSON Schema's: numbers compare by value (`1 == 1.0`), objects regardless
/// of key order, arrays element by element.
///
/// <!-- snippet: doc-json-value -->
/// ```swift
/// let value: JSONValue = ["name": "John Doe", "age": 35, "tags": ["a", "b"]]
/// print(value["age"]?.int ?? 0)  // 35
/// print(value["missing"]?.string as Any)  // nil: never a trap
/// print(value.jsonString(.sortedKeys))  // {"age":35,"name":"John Doe","tags":["a","b"]}
/// ```
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept exactly.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its keys in document order.
    case object(JSONObject)

    /// The kind of the value.
    public var kind: JSONKind {
        switch self {
        case .null: return .null
        case .bool: return .boolean
        case .number(let number): return number.isInteger ? .integer : .number
        case .string: return .string
        case .array: return .array
        case .object: return .object
        }
    }

    /// JSON Schema equality: numbers by value, objects regardless of key order, strings code point by
    /// code point (`"\u00e9"` and `"e\u0301"` differ, unlike Swift's `String` equality).
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(var a), .string(var b)):
            // Code point for code point: the same UTF-8 bytes (no copies for native strings).
            guard a.utf8.count == b.utf8.count else { return false }
            return a.withUTF8 { first in b.withUTF8 { second in first.elementsEqual(second) } }
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a == b
        default: return false
        }
    }

    /// Hashes consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .number(let n): hasher.combine(n)
        case .string(let s): hasher.combine(s)
        case .array(let a): hasher.combine(a)
        case .object(let o): hasher.combine(o)
        }
    }
}

/// The kinds of JSON value, as JSON Schema names them (`integer` is a number with no fraction).
public enum JSONKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `null`.
    case null
    /// `true` or `false`.
    case boolean
    /// A number that is an integer (`1`, `1.0`).
    case integer
    /// Any other number.
    case number
    /// A string.
    case string
    /// An array.
    case array
    /// An object.
    case object

    /// The JSON Schema type name.
    public var description: String { rawValue }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
    /// A Boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer.
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    /// A number, as the shortest decimal that round-trips to the literal.
    public init(floatLiteral value: Double) { self = .number(JSONNumber(floatLiteral: value)) }
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object, keys in the literal's order (a repeated key keeps its last value).
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var object = JSONObject()
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
}
