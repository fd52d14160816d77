import AssayCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One step of the path to a nested value, linked to its parent; built only for nested values, so
/// decoding a scalar field allocates no path.
final class PathLink {
    let parent: PathLink?
    let key: any CodingKey
    let component: PathComponent

    init(parent: PathLink?, key: any CodingKey, component: PathComponent) {
        self.parent = parent
        self.key = key
        self.component = component
    }

    static func codingPath(_ link: PathLink?) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        var current = link
        while let step = current {
            keys.append(step.key)
            current = step.parent
        }
        return keys.reversed()
    }

    static func path(_ link: PathLink?) -> IssuePath {
        var components: [PathComponent] = []
        var current = link
        while let step = current {
            components.append(step.component)
            current = step.parent
        }
        return IssuePath(components.reversed())
    }
}

/// A `Decoder` reading one ``JSONNode`` in place. Three words (the tape is the state's), so that
/// passing it as `any Decoder` to a nested type's `init(from:)` needs no box on the heap.
struct NodeDecoder: Decoder {
    /// The tape index of the value.
    let index: Int
    let state: DecodingState
    let link: PathLink?

    init(node: JSONNode, state: DecodingState, link: PathLink?) {
        self.index = node.index
        self.state = state
        self.link = link
    }

    /// The value this decoder reads.
    var node: JSONNode { JSONNode(tape: state.tape, index: index) }

    var codingPath: [any CodingKey] { PathLink.codingPath(link) }
    /// The path in JSON terms (actual keys, after key conversion), for errors.
    var path: IssuePath { PathLink.path(link) }
    var userInfo: [CodingUserInfoKey: Any] { state.userInfo }
    var mode: CoercionMode { state.options.mode }

    func failure(_ expected: String, found: JSONNode? = nil, at path: IssuePath? = nil) -> DecodingFailure {
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
            code: code, path: path ?? self.path, expected: expected, found: actual,
            detail: "expected \(expected), found \(description)")
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try keyedNodeContainer(keyedBy: type))
    }

    /// The keyed container of the object read, unwrapped (``NodeDecoderHandle`` hands it to
    /// AssayCodable's models, which read their fields from it without the type-erasing box).
    func keyedNodeContainer<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedNodeContainer<Key> {
        guard tag(of: state.tape.entries[index]) == .objectStart else { throw failure("an object") }
        return KeyedNodeContainer<Key>(decoder: self)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard node.kind == .array else { throw failure("an array") }
        return UnkeyedNodeContainer(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleNodeContainer(decoder: self) }

    func child(_ node: JSONNode, key: any CodingKey, component: PathComponent) -> NodeDecoder {
        NodeDecoder(node: node, state: state, link: PathLink(parent: link, key: key, component: component))
    }

    // MARK: Scalars (of `node`; `at` names the path when `node` is a member read without a child decoder)

    func decodeString(_ node: JSONNode, at component: PathComponent? = nil) throws -> String {
        if let text = node.string { return text }
        if mode == .lax, let number = node.number {
            record(node, to: "string", at: component)
            return number.description
        }
        throw failure("String", found: node, at: component.map { path.appending($0) })
    }

    func decodeBool(_ node: JSONNode, at component: PathComponent? = nil) throws -> Bool {
        if let value = node.bool { return value }
        if mode == .lax, let value = node.value.bool(.lax) {
            record(node, to: "boolean", at: component)
            return value
        }
        throw failure("Bool", found: node, at: component.map { path.appending($0) })
    }

    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type, _ node: JSONNode, at component: PathComponent? = nil)
        throws -> T
    {
        if let value = node.int, let converted = T(exactly: value) { return converted }
        if let number = node.number, number.isInteger, node.int == nil, let converted = T(number.description) {
            // Integers beyond Int (a UInt64 above Int.max) parse from their exact digits.
            return converted
        }
        if mode == .lax, let text = node.string, let number = JSONNumber(text: text), number.isInteger,
            let converted = number.int.flatMap({ T(exactly: $0) }) ?? T(number.description)
        {
            record(node, to: "integer", at: component)
            return converted
        }
        throw failure(String(describing: T.self), found: node, at: component.map { path.appending($0) })
    }

    func decodeFloatingPoint<T: BinaryFloatingPoint>(
        _ type: T.Type, _ node: JSONNode, at component: PathComponent? = nil
    ) throws -> T {
        if let value = node.double { return T(value) }
        if mode == .lax, let text = node.string, let value = JSONNumber(text: text)?.double {
            record(node, to: "number", at: component)
            return T(value)
        }
        throw failure(String(describing: T.self), found: node, at: component.map { path.appending($0) })
    }

    private func record(_ node: JSONNode, to target: String, at component: PathComponent?) {
        let location = component.map { path.appending($0) } ?? path
        state.coercions.append(JSONValue.coercion(at: location, from: node.value, to: target))
    }

    /// Decodes `node` (this decoder's node, or a member of it at `component`) as `T`, reading the
    /// standard scalar types directly and creating a child decoder only for other types.
    func decode<T: Decodable>(_ type: T.Type, _ node: JSONNode, key: (any CodingKey)?, component: PathComponent?) throws
        -> T
    {
        if T.self == String.self { return try decodeString(node, at: component) as! T }
        if T.self == Int.self { return try decodeInteger(Int.self, node, at: component) as! T }
        if T.self == Double.self { return try decodeFloatingPoint(Double.self, node, at: component) as! T }
        if T.self == Bool.self { return try decodeBool(node, at: component) as! T }
        if T.self == JSONValue.self { return node.value as! T }
        if T.self == [String].self { return try decodeArray(node, at: component) { try decodeString($0) } as! T }
        if T.self == [Int].self {
            return try decodeArray(node, at: component) { try decodeInteger(Int.self, $0) } as! T
        }
        if T.self == [Double].self {
            return try decodeArray(node, at: component) { try decodeFloatingPoint(Double.self, $0) } as! T
        }
        let decoder = key.map { child(node, key: $0, component: component!) } ?? self
        if T.self == Date.self { return try decoder.decodeDate() as! T }
        if T.self == Decimal.self {
            guard let number = node.number ?? (mode == .lax ? node.string.flatMap { JSONNumber(text: $0) } : nil),
                let decimal = number.decimal
            else { throw decoder.failure("Decimal") }
            return decimal as! T
        }
        return try T(from: decoder)
    }

    /// Arrays of scalars without a container per array or a decoder per element; an element's
    /// error names its index.
    private func decodeArray<E>(
        _ node: JSONNode, at component: PathComponent?, _ element: (JSONNode) throws -> E
    ) throws -> [E] {
        guard node.kind == .array else {
            throw failure("an array", found: node, at: component.map { path.appending($0) })
        }
        var result: [E] = []
        result.reserveCapacity(node.count ?? 0)
        let tape = node.tape
        let end = payload(of: tape.entries[node.index])
        var position = node.index + 2
        var index = 0
        while position < end {
            do {
                result.append(try element(JSONNode(tape: tape, index: position)))
            } catch var failure as DecodingFailure {
                // The path is built only for an error.
                let base = component.map { path.appending($0) } ?? path
                failure.path = base.appending(index: index)
                throw failure
            }
            position = tape.next(after: position)
            index += 1
        }
        return result
    }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        try decode(type, node, key: nil, component: nil)
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
            return Date(timeIntervalSince1970: try decodeFloatingPoint(Double.self, node))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try decodeFloatingPoint(Double.self, node) / 1000)
        case .deferredToDate:
            return try Date(from: self)
        case .custom(let read):
            return try read(self)
        }
    }
}

/// The keyed container of AssayJSON's decoder. AssayCodable's field decoders hold it unwrapped (a
/// `KeyedDecodingContainer` is a resilient type of the standard library, whose layout is unknown at
/// compile time: every copy of a value holding one goes through run-time metadata), and call its
/// methods directly from their inlinable code, hence `@usableFromInline`.
@usableFromInline
package struct KeyedNodeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    // The decoder alone (two references): the standard library's box copies the container for
    // every member it decodes.
    let decoder: NodeDecoder

    init(decoder: NodeDecoder) {
        self.decoder = decoder
    }

    /// The JSON path of the object (actual keys, after key conversion).
    package var path: IssuePath { decoder.path }

    /// The members no lookup has read since ``NodeDecoderHandle/startTrackingReads()``.
    package func unreadKeys() -> [String] { NodeDecoderHandle(decoder).unreadKeys() }

    /// The object as parsed, every member in it.
    package var objectValue: JSONValue { decoder.node.value }

    /// Members by converted key with `convertFromSnakeCase` (made once per object, kept by the
    /// run), else `nil`.
    private var converted: [String: (key: String, node: JSONNode)]? {
        decoder.state.convertsKeys ? decoder.state.convertedMembers(ofObjectAt: decoder.index) : nil
    }

    @usableFromInline package var codingPath: [any CodingKey] { decoder.codingPath }

    @usableFromInline package var allKeys: [Key] {
        if let converted { return converted.keys.compactMap { Key(stringValue: $0) } }
        return decoder.node.members.compactMap { Key(stringValue: $0.key) }
    }

    /// The member for `key` and its JSON key; `null` counts as absent in lax mode.
    @inline(__always) private func member(_ key: Key) -> (jsonKey: String, node: JSONNode)? {
        let found: (String, JSONNode)?
        if let converted {
            found = converted[key.stringValue].map { ($0.key, $0.node) }
        } else {
            found = fastIndex(key).map { (key.stringValue, JSONNode(tape: decoder.state.tape, index: $0)) }
        }
        guard let found else { return nil }
        if decoder.mode == .lax && found.1.isNull { return nil }
        return found
    }

    @usableFromInline package func contains(_ key: Key) -> Bool { member(key) != nil }

    @usableFromInline package func decodeNil(forKey key: Key) throws -> Bool {
        guard let found = member(key) else { return true }
        return found.node.isNull
    }

    private func required(_ key: Key) throws -> (jsonKey: String, node: JSONNode) {
        guard let found = member(key) else {
            throw DecodingFailure(
                code: .missing, path: decoder.path.appending(key: key.stringValue), expected: nil, found: nil,
                detail: "missing key \"\(key.stringValue)\"")
        }
        return found
    }

    @usableFromInline package func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let found = try required(key)
        let component = PathComponent.key(found.jsonKey)
        if found.node.isNull, T.self != JSONValue.self, !(T.self is any NullDecodable.Type) {
            throw decoder.failure(String(describing: T.self), found: found.node, at: decoder.path.appending(component))
        }
        return try decoder.decode(type, found.node, key: key, component: component)
    }

    @usableFromInline package func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let found = member(key), !found.node.isNull else { return nil }
        return try decoder.decode(type, found.node, key: key, component: .key(found.jsonKey))
    }

    /// The tape index of `key`'s value, without building a node; `nil` when snake_case conversion
    /// is on or the key is absent (the general path then decides). The search starts after the
    /// member found last in this object (``DecodingState/hintPosition``), so members read in the
    /// order they are written are found at the first comparison.
    @inline(__always) private func fastIndex(_ key: Key) -> Int? {
        guard !decoder.state.convertsKeys else { return nil }
        var name = key.stringValue
        let state = decoder.state
        let tape = state.tape
        let object = decoder.index
        let hint = state.hintObject == object ? state.hintPosition : 0
        guard let found = name.withUTF8({ tape.member(named: $0, inObjectAt: object, from: hint) }) else {
            return nil
        }
        state.hintObject = object
        state.hintPosition = tape.next(after: found)
        if state.tracksReads { state.markRead(found) }
        return found
    }

    @usableFromInline package func decode(_ type: String.Type, forKey key: Key) throws -> String {
        if let index = fastIndex(key), let value = decoder.state.tape.stringIfString(at: index) { return value }
        let found = try required(key)
        return try decoder.decodeString(found.node, at: .key(found.jsonKey))
    }

    @usableFromInline package func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        if let index = fastIndex(key), let value = decoder.state.tape.smallInteger(at: index) { return value }
        let found = try required(key)
        return try decoder.decodeInteger(Int.self, found.node, at: .key(found.jsonKey))
    }

    @usableFromInline package func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        if let index = fastIndex(key), let value = JSONNode(tape: decoder.state.tape, index: index).double {
            return value
        }
        let found = try required(key)
        return try decoder.decodeFloatingPoint(Double.self, found.node, at: .key(found.jsonKey))
    }

    @usableFromInline package func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        if let index = fastIndex(key), let value = decoder.state.tape.boolIfBool(at: index) { return value }
        let found = try required(key)
        return try decoder.decodeBool(found.node, at: .key(found.jsonKey))
    }

    @usableFromInline package func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        if !decoder.state.convertsKeys {
            guard let index = fastIndex(key) else { return nil }
            let tape = decoder.state.tape
            if tape.isNull(at: index) { return nil }
            if let value = tape.stringIfString(at: index) { return value }
        }
        guard let found = member(key), !found.node.isNull else { return nil }
        return try decoder.decodeString(found.node, at: .key(found.jsonKey))
    }

    @usableFromInline package func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        if !decoder.state.convertsKeys {
            guard let index = fastIndex(key) else { return nil }
            let tape = decoder.state.tape
            if tape.isNull(at: index) { return nil }
            if let value = tape.smallInteger(at: index) { return value }
        }
        guard let found = member(key), !found.node.isNull else { return nil }
        return try decoder.decodeInteger(Int.self, found.node, at: .key(found.jsonKey))
    }

    private func child(_ key: Key) throws -> NodeDecoder {
        let found = try required(key)
        return decoder.child(found.node, key: key, component: .key(found.jsonKey))
    }

    @usableFromInline package func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    @usableFromInline package func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    @usableFromInline package func superDecoder() throws -> any Decoder { decoder }

    @usableFromInline package func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }

    /// Foundation's conversion: `manager_id` → `managerId`; leading and trailing underscores kept.
    static func camelCase(_ key: String) -> String {
        guard key.contains("_") else { return key }
        let leading = key.prefix { $0 == "_" }
        let trailing = key.reversed().prefix { $0 == "_" }
        let core = key.dropFirst(leading.count).dropLast(trailing.count)
        let words = core.split(separator: "_", omittingEmptySubsequences: true)
        guard let first = words.first else { return key }
        let rest = words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
        return String(leading) + first.lowercased() + rest.joined() + String(trailing)
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

    private mutating func next() throws -> (node: JSONNode, index: Int) {
        guard !isAtEnd else {
            throw DecodingFailure(
                code: .missing, path: decoder.path.appending(index: currentIndex), expected: nil, found: nil,
                detail: "the array has only \(elements.count) elements")
        }
        currentIndex += 1
        return (elements[currentIndex - 1], currentIndex - 1)
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
        let (node, index) = try next()
        if node.isNull, T.self != JSONValue.self, !(T.self is any NullDecodable.Type) {
            throw decoder.failure(String(describing: T.self), found: node, at: decoder.path.appending(index: index))
        }
        return try decoder.decode(type, node, key: AnyKey(intValue: index), component: .index(index))
    }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        if try decodeNil() { return nil }
        let (node, index) = try next()
        return try decoder.decode(type, node, key: AnyKey(intValue: index), component: .index(index))
    }

    private mutating func nextDecoder() throws -> NodeDecoder {
        let (node, index) = try next()
        return decoder.child(node, key: AnyKey(intValue: index), component: .index(index))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try nextDecoder().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try nextDecoder().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try nextDecoder() }
}

struct SingleNodeContainer: SingleValueDecodingContainer {
    let decoder: NodeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    var node: JSONNode { decoder.node }

    func decodeNil() -> Bool { node.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.decodeBool(node) }
    func decode(_ type: String.Type) throws -> String { try decoder.decodeString(node) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.decodeFloatingPoint(Double.self, node) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.decodeFloatingPoint(Float.self, node) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.decodeInteger(Int.self, node) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.decodeInteger(Int8.self, node) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.decodeInteger(Int16.self, node) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.decodeInteger(Int32.self, node) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.decodeInteger(Int64.self, node) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.decodeInteger(UInt.self, node) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.decodeInteger(UInt8.self, node) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.decodeInteger(UInt16.self, node) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.decodeInteger(UInt32.self, node) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.decodeInteger(UInt64.self, node) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}

/// A type whose value may be `null` in JSON (`Optional`): a `null` is handed to its own decoding
/// (which makes it `nil`) rather than refused as a missing value — `[Int?]` decodes `[1, null]`.
protocol NullDecodable {}

extension Optional: NullDecodable {}
