import AssayCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `Decoder` reading one ``JSONNode`` in place.
struct NodeDecoder: Decoder {
    let node: JSONNode
    let state: DecodingState
    let codingPath: [any CodingKey]
    /// The path in JSON terms (actual keys, after key conversion), for errors.
    let path: IssuePath

    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var mode: CoercionMode { state.options.mode }

    func failure(_ expected: String, found: JSONNode? = nil) -> DecodingFailure {
        let actual = found ?? node
        let description: String
        switch actual.kind {
        case .string: description = "string \(actual.value.jsonString())"
        case .null: description = "null"
        case .array, .object: description = "an \(actual.kind)"
        default: description = "\(actual.kind) \(actual.value.jsonString())"
        }
        let code: IssueCode = actual.isNull ? .missing : .typeMismatch
        return DecodingFailure(
            code: code, path: path, expected: expected, found: actual,
            detail: "expected \(expected), found \(description)")
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard node.kind == .object else { throw failure("an object") }
        return KeyedDecodingContainer(KeyedNodeContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard node.kind == .array else { throw failure("an array") }
        return UnkeyedNodeContainer(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleNodeContainer(decoder: self) }

    func child(_ node: JSONNode, key: any CodingKey, component: PathComponent) -> NodeDecoder {
        NodeDecoder(node: node, state: state, codingPath: codingPath + [key], path: path.appending(component))
    }

    private func record(_ to: String) {
        state.coercions.append(JSONValue.coercion(at: path, from: node.value, to: to))
    }

    // MARK: Scalars

    func decodeString() throws -> String {
        if let text = node.string { return text }
        if mode == .lax, let number = node.number {
            record("string")
            return number.description
        }
        throw failure("String")
    }

    func decodeBool() throws -> Bool {
        if let value = node.bool { return value }
        if mode == .lax, let value = node.value.bool(.lax) {
            record("boolean")
            return value
        }
        throw failure("Bool")
    }

    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        if let value = node.int {
            guard let converted = T(exactly: value) else { throw failure(String(describing: T.self)) }
            return converted
        }
        if let number = node.number {
            // Integers beyond Int (a UInt64 above Int.max) parse from their exact digits.
            if number.isInteger, let converted = T(number.description) { return converted }
            throw failure(String(describing: T.self))
        }
        if mode == .lax, let text = node.string, let number = JSONNumber(text: text), number.isInteger,
            let converted = number.int.flatMap({ T(exactly: $0) }) ?? T(number.description)
        {
            record("integer")
            return converted
        }
        throw failure(String(describing: T.self))
    }

    func decodeFloatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type) throws -> T {
        if let value = node.double { return T(value) }
        if mode == .lax, let text = node.string, let value = JSONNumber(text: text)?.double {
            record("number")
            return T(value)
        }
        throw failure(String(describing: T.self))
    }

    func decodeNil() -> Bool { node.isNull }

    // MARK: Values

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is String.Type: return try decodeString() as! T
        case is Int.Type: return try decodeInteger(Int.self) as! T
        case is Double.Type: return try decodeFloatingPoint(Double.self) as! T
        case is Bool.Type: return try decodeBool() as! T
        case is Date.Type: return try decodeDate() as! T
        case is Decimal.Type:
            guard let number = node.number ?? (mode == .lax ? node.string.flatMap { JSONNumber(text: $0) } : nil),
                let decimal = number.decimal
            else { throw failure("Decimal") }
            return decimal as! T
        case is JSONValue.Type: return node.value as! T
        default: return try T(from: self)
        }
    }

    func decodeDate() throws -> Date {
        switch state.options.dateDecodingStrategy {
        case .rfc3339:
            guard let text = node.string else { throw failure("a date-time string") }
            guard let date = RFC3339.dateTime(text) else {
                throw DecodingFailure(
                    code: .invalidFormat("date-time"), path: path, expected: "date-time", found: node,
                    detail: "\(node.value.jsonString()) is not an RFC 3339 date-time")
            }
            return date
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try decodeFloatingPoint(Double.self))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try decodeFloatingPoint(Double.self) / 1000)
        case .deferredToDate:
            return try Date(from: self)
        case .custom(let read):
            return try read(self)
        }
    }
}

struct KeyedNodeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: NodeDecoder
    /// Members by converted key, built only for `convertFromSnakeCase`.
    let converted: [String: (key: String, node: JSONNode)]?

    init(decoder: NodeDecoder) {
        self.decoder = decoder
        if decoder.state.options.keyDecodingStrategy == .convertFromSnakeCase {
            var table: [String: (key: String, node: JSONNode)] = [:]
            for member in decoder.node.members { table[Self.camelCase(member.key)] = (member.key, member.value) }
            converted = table
        } else {
            converted = nil
        }
    }

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] {
        if let converted { return converted.keys.compactMap { Key(stringValue: $0) } }
        return decoder.node.members.compactMap { Key(stringValue: $0.key) }
    }

    /// The member for `key` and its JSON key; `null` counts as absent in lax mode.
    private func member(_ key: Key) -> (jsonKey: String, node: JSONNode)? {
        let found: (String, JSONNode)?
        if let converted {
            found = converted[key.stringValue].map { ($0.key, $0.node) }
        } else {
            found = decoder.node[key.stringValue].map { (key.stringValue, $0) }
        }
        guard let found else { return nil }
        if decoder.mode == .lax && found.1.isNull { return nil }
        return found
    }

    func contains(_ key: Key) -> Bool { member(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let found = member(key) else { return true }
        return found.node.isNull
    }

    private func child(_ key: Key) throws -> NodeDecoder {
        guard let found = member(key) else {
            throw DecodingFailure(
                code: .missing, path: decoder.path.appending(key: key.stringValue), expected: nil, found: nil,
                detail: "missing key \"\(key.stringValue)\"")
        }
        return decoder.child(found.node, key: key, component: .key(found.jsonKey))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let child = try child(key)
        if child.node.isNull, !(T.self is JSONValue.Type) { throw child.failure(String(describing: T.self)) }
        return try child.decodeValue(type)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let found = member(key), !found.node.isNull else { return nil }
        return try decoder.child(found.node, key: key, component: .key(found.jsonKey)).decodeValue(type)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }

    func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }

    /// Foundation's conversion: `manager_id` → `managerId`; leading and trailing underscores kept.
    static func camelCase(_ key: String) -> String {
        guard key.contains("_") else { return key }
        let leading = key.prefix { $0 == "_" }
        let trailing = key.reversed().prefix { $0 == "_" }
        let core = key.dropFirst(leading.count).dropLast(trailing.count)
        let words = core.split(separator: "_", omittingEmptySubsequences: true)
        guard let first = words.first else { return key }
        let joined =
            first.lowercased()
            + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined()
        return String(leading) + joined + String(trailing)
    }
}

struct UnkeyedNodeContainer: UnkeyedDecodingContainer {
    let decoder: NodeDecoder
    let elements: [JSONNode]
    var currentIndex = 0

    init(decoder: NodeDecoder) {
        self.decoder = decoder
        self.elements = decoder.node.elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> NodeDecoder {
        guard !isAtEnd else {
            throw DecodingFailure(
                code: .missing, path: decoder.path.appending(index: currentIndex), expected: nil, found: nil,
                detail: "the array has only \(elements.count) elements")
        }
        let child = decoder.child(
            elements[currentIndex], key: AnyKey(intValue: currentIndex), component: .index(currentIndex))
        currentIndex += 1
        return child
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return false }
        if elements[currentIndex].isNull {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let child = try next()
        if child.node.isNull, !(T.self is JSONValue.Type) { throw child.failure(String(describing: T.self)) }
        return try child.decodeValue(type)
    }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        if try decodeNil() { return nil }
        return try next().decodeValue(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next() }
}

struct SingleNodeContainer: SingleValueDecodingContainer {
    let decoder: NodeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.decodeNil() }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.decodeBool() }
    func decode(_ type: String.Type) throws -> String { try decoder.decodeString() }
    func decode(_ type: Double.Type) throws -> Double { try decoder.decodeFloatingPoint(Double.self) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.decodeFloatingPoint(Float.self) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.decodeInteger(Int.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.decodeInteger(Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.decodeInteger(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.decodeInteger(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.decodeInteger(Int64.self) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.decodeInteger(UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.decodeInteger(UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.decodeInteger(UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.decodeInteger(UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.decodeInteger(UInt64.self) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}
