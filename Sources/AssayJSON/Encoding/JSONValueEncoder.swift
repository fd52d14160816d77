#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Encodes `Encodable` values as a ``JSONValue``: the inverse of ``JSONValueDecoder`` with its
/// defaults, so that a value decoded from JSON encodes back to the same JSON.
///
/// <!-- snippet: doc-json-value-encoder -->
/// ```swift
/// struct Point: Codable { var x: Int; var label: String? }
/// let value = try JSONValueEncoder().encode([Point(x: 1, label: "a"), Point(x: 2, label: nil)])
/// print(value.jsonString())  // [{"x":1,"label":"a"},{"x":2}]
/// ```
///
/// Keys keep the order the value encodes them in. Integers are kept exactly (`UInt64` too); a `Float`
/// is written as its shortest decimal (`0.1`, not `0.10000000149011612`); a `Decimal` exactly; a
/// `Date` as an RFC 3339 string by default. A floating-point value that is not finite has no JSON
/// form: `EncodingError.invalidValue`.
public struct JSONValueEncoder: Sendable {
    /// How dates are written.
    public enum DateEncodingStrategy: Sendable {
        /// RFC 3339 date-time strings in UTC (`2024-02-29T12:00:00Z`, fractions of a second when the
        /// date has them), as ``JSONValueDecoder/DateDecodingStrategy/rfc3339`` reads them. The default.
        case rfc3339
        /// Numbers of seconds since 1970-01-01T00:00:00Z.
        case secondsSince1970
        /// Numbers of milliseconds since 1970-01-01T00:00:00Z.
        case millisecondsSince1970
        /// `Date`'s own `Encodable` conformance.
        case deferredToDate
    }

    /// How dates are written; ``DateEncodingStrategy/rfc3339`` by default.
    public var dateEncodingStrategy: DateEncodingStrategy = .rfc3339

    /// Makes an encoder with the defaults.
    public init() {}

    /// The value as JSON.
    ///
    /// - Throws: `EncodingError.invalidValue` for a number that is not finite, or a value that
    ///   encodes nothing; what the value's own `encode(to:)` throws.
    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let node = EncodingNode()
        try ValueEncoder(node: node, codingPath: [], options: self).encodeValue(value)
        guard let result = node.build() else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "\(T.self) encoded nothing"))
        }
        return result
    }
}

/// A value being encoded: set once, or an object or array whose members are nodes themselves, so that
/// a nested container written after it was made is still seen.
private final class EncodingNode {
    enum Kind {
        case unset, value, object, array
    }

    /// What the node is; its members or elements are kept in the node's own arrays, appended to in
    /// place (an enum payload would be copied out and back for every member: quadratic).
    private(set) var kind: Kind = .unset
    private var value: JSONValue = .null
    private var keys: [String] = []
    private var members: [String: EncodingNode] = [:]
    private var elements: [EncodingNode] = []

    func set(_ newValue: JSONValue) {
        kind = .value
        value = newValue
    }

    func makeObject() {
        guard kind != .object else { return }
        kind = .object
        (keys, members, elements) = ([], [:], [])
    }

    func makeArray() {
        guard kind != .array else { return }
        kind = .array
        (keys, members, elements) = ([], [:], [])
    }

    func build() -> JSONValue? {
        switch kind {
        case .unset: return nil
        case .value: return value
        case .object: return .object(JSONObject(keys.map { key in (key, members[key]?.build() ?? .null) }))
        case .array: return .array(elements.map { $0.build() ?? .null })
        }
    }

    /// The member `key` of an object, made (or replaced) now.
    func member(_ key: String) -> EncodingNode {
        makeObject()
        let node = EncodingNode()
        if members.updateValue(node, forKey: key) == nil { keys.append(key) }
        return node
    }

    /// A new element at the end of an array.
    func appendElement() -> EncodingNode {
        makeArray()
        let node = EncodingNode()
        elements.append(node)
        return node
    }

    var count: Int { kind == .array ? elements.count : keys.count }
}

private struct ValueEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let options: JSONValueEncoder
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeArray()
        return UnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(encoder: self) }

    func child(_ node: EncodingNode, key: any CodingKey) -> ValueEncoder {
        ValueEncoder(node: node, codingPath: codingPath + [key], options: options)
    }

    func invalid(_ value: Any, _ description: String) -> EncodingError {
        EncodingError.invalidValue(value, EncodingError.Context(codingPath: codingPath, debugDescription: description))
    }

    func number<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F) throws -> JSONValue {
        guard value.isFinite, let number = JSONNumber(text: value.description) else {
            throw invalid(value, "\(value) is not a finite number: JSON has no form for it")
        }
        return .number(number)
    }

    func integer<I: BinaryInteger>(_ value: I) -> JSONValue {
        if let small = Int(exactly: value) { return .number(JSONNumber(small)) }
        return .number(JSONNumber(text: String(value)) ?? JSONNumber(0))
    }

    /// Encodes a value into this encoder's node: scalars directly, dates and decimals as the decoder
    /// reads them, anything else by its own `encode(to:)`.
    func encodeValue<T: Encodable>(_ value: T) throws {
        switch value {
        case let value as JSONValue: node.set(value)
        case let value as String: node.set(.string(value))
        case let value as Bool: node.set(.bool(value))
        case let value as Int: node.set(.number(JSONNumber(value)))
        case let value as any BinaryInteger: node.set(integer(value))
        case let value as Double: node.set(try number(value))
        case let value as Float: node.set(try number(value))
        case let value as Decimal:
            guard let number = JSONNumber(text: "\(value)"), value.isFinite else {
                throw invalid(value, "\(value) is not a finite number: JSON has no form for it")
            }
            node.set(.number(number))
        case let value as Date: try encodeDate(value)
        default: try value.encode(to: self)
        }
    }

    func encodeDate(_ date: Date) throws {
        switch options.dateEncodingStrategy {
        case .rfc3339: node.set(.string(Self.rfc3339(date)))
        case .secondsSince1970: node.set(try number(date.timeIntervalSince1970))
        case .millisecondsSince1970: node.set(try number(date.timeIntervalSince1970 * 1000))
        case .deferredToDate: try date.encode(to: self)
        }
    }

    /// `2024-02-29T12:00:00Z`, with up to six digits of fraction when the date has one.
    static func rfc3339(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        var seconds = interval.rounded(.down)
        var micros = Int(((interval - seconds) * 1_000_000).rounded())
        if micros == 1_000_000 {
            seconds += 1
            micros = 0
        }
        let whole = Int(seconds)
        var days = whole / 86_400
        var secondOfDay = whole % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
        text += "\(pad(secondOfDay / 3_600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
        if micros > 0 {
            var fraction = pad(micros, 6)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "Z"
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    func set(_ value: JSONValue, _ key: Key) { encoder.node.member(key.stringValue).set(value) }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.number(JSONNumber(value)), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try encoder.child(encoder.node.member(key.stringValue), key: key).encodeValue(value)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.child(encoder.node.member(key.stringValue), key: key).encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        encoder.child(encoder.node.member(key.stringValue), key: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.child(encoder.node.member(key.stringValue), key: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let key = JSONValueCodingKey(stringValue: "super")
        return encoder.child(encoder.node.member(key.stringValue), key: key)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.child(encoder.node.member(key.stringValue), key: key)
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: ValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.node.count }

    func next() -> ValueEncoder {
        let key = JSONValueCodingKey(intValue: count)
        return encoder.child(encoder.node.appendElement(), key: key)
    }

    mutating func encodeNil() throws { next().node.set(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws { try next().encodeValue(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        next().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { next().unkeyedContainer() }

    mutating func superEncoder() -> any Encoder { next() }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let encoder: ValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.node.set(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.encodeValue(value) }
}

/// A coding key for positions and `super`.
private struct JSONValueCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
