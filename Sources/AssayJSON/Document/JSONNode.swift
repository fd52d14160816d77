/// A value inside a ``JSONDocument``, read in place: no tree is built.
///
/// Every accessor is safe: asking a number for its string, an array for a key, or an index past
/// the end gives `nil`, never a trap.
public struct JSONNode: Sendable {
    let tape: Tape
    let index: Int

    /// The kind of the value.
    public var kind: JSONKind {
        switch tag(of: tape.entries[index]) {
        case .null: return .null
        case .true, .false: return .boolean
        case .integer: return .integer
        case .numberText: return tape.number(at: index).isInteger ? .integer : .number
        case .rawString, .escapedString, .deadKey: return .string
        case .arrayStart, .arrayEnd: return .array
        case .objectStart, .objectEnd: return .object
        }
    }

    /// Whether the value is `null`.
    public var isNull: Bool { tag(of: tape.entries[index]) == .null }

    /// The Boolean, if the value is one.
    public var bool: Bool? {
        switch tag(of: tape.entries[index]) {
        case .true: return true
        case .false: return false
        default: return nil
        }
    }

    /// The number, if the value is one.
    public var number: JSONNumber? {
        switch tag(of: tape.entries[index]) {
        case .integer, .numberText: return tape.number(at: index)
        default: return nil
        }
    }

    /// The number as an `Int`, if it is an integer in range.
    public var int: Int? {
        if tag(of: tape.entries[index]) == .integer { return Int(exactly: Int64(bitPattern: tape.entries[index + 1])) }
        return number?.int
    }

    /// The number as the nearest `Double`, if it is a number in `Double`'s range.
    public var double: Double? {
        if tag(of: tape.entries[index]) == .integer { return Double(Int64(bitPattern: tape.entries[index + 1])) }
        return number?.double
    }

    /// The string, if the value is one.
    public var string: String? {
        switch tag(of: tape.entries[index]) {
        case .rawString, .escapedString: return tape.string(at: index)
        default: return nil
        }
    }

    /// The number of elements of an array or members of an object; `nil` for other values.
    public var count: Int? {
        switch tag(of: tape.entries[index]) {
        case .arrayStart, .objectStart: return Int(tape.entries[index + 1])
        default: return nil
        }
    }

    /// The elements of an array (empty for other values).
    public var elements: [JSONNode] {
        guard tag(of: tape.entries[index]) == .arrayStart else { return [] }
        var result: [JSONNode] = []
        result.reserveCapacity(Int(tape.entries[index + 1]))
        let end = payload(of: tape.entries[index])
        var position = index + 2
        while position < end {
            result.append(JSONNode(tape: tape, index: position))
            position = tape.next(after: position)
        }
        return result
    }

    /// The members of an object in document order (empty for other values).
    public var members: [(key: String, value: JSONNode)] {
        var result: [(key: String, value: JSONNode)] = []
        forEachMember { key, value in result.append((tape.string(at: key), value)) }
        return result
    }

    /// Calls `body` with the tape index of each live key and its value.
    func forEachMember(_ body: (Int, JSONNode) -> Void) {
        guard tag(of: tape.entries[index]) == .objectStart else { return }
        let end = payload(of: tape.entries[index])
        var position = index + 2
        while position < end {
            let valueIndex = position + 2
            if tag(of: tape.entries[position]) != .deadKey { body(position, JSONNode(tape: tape, index: valueIndex)) }
            position = tape.next(after: valueIndex)
        }
    }

    /// The value of `key` in an object; `nil` when absent or when this is not an object.
    public subscript(key: String) -> JSONNode? {
        guard tag(of: tape.entries[index]) == .objectStart else { return nil }
        var wanted = key
        return wanted.withUTF8 { keyBytes -> JSONNode? in
            guard let position = tape.member(named: keyBytes, inObjectAt: index) else { return nil }
            return JSONNode(tape: tape, index: position)
        }
    }

    /// The element at `position` of an array; `nil` when out of range or when this is not an array.
    public subscript(position: Int) -> JSONNode? {
        guard tag(of: tape.entries[index]) == .arrayStart, position >= 0, position < Int(tape.entries[index + 1])
        else { return nil }
        var current = index + 2
        for _ in 0..<position { current = tape.next(after: current) }
        return JSONNode(tape: tape, index: current)
    }

    /// The value as an owned tree.
    ///
    /// Built without recursion, so a document nested as deep as the parser allows is built on a
    /// thread with a small stack too.
    public var value: JSONValue {
        if let scalar = scalarValue(at: index) { return scalar }
        var stack = [OpenContainer(tape: tape, at: index)]
        while true {
            let top = stack.count - 1
            let position = stack[top].position
            if position < stack[top].end {
                var valueIndex = position
                if stack[top].isObject {
                    if tag(of: tape.entries[position]) == .deadKey {
                        stack[top].position = tape.next(after: position + 2)
                        continue
                    }
                    stack[top].key = tape.string(at: position)
                    valueIndex = position + 2
                }
                stack[top].position = tape.next(after: valueIndex)
                if let scalar = scalarValue(at: valueIndex) {
                    stack[top].append(scalar)
                } else {
                    stack.append(OpenContainer(tape: tape, at: valueIndex))
                }
                continue
            }
            let closed = stack.removeLast().value
            if stack.isEmpty { return closed }
            stack[stack.count - 1].append(closed)
        }
    }

    /// The value at tape index `at` when it is not a container; `nil` for an array or object.
    private func scalarValue(at position: Int) -> JSONValue? {
        switch tag(of: tape.entries[position]) {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .integer, .numberText: return .number(tape.number(at: position))
        case .rawString, .escapedString, .deadKey: return .string(tape.string(at: position))
        case .arrayStart, .objectStart: return nil
        case .arrayEnd, .objectEnd: return .null
        }
    }
}

/// An array or object being built by ``JSONNode/value``: where its next child is, and what it holds.
private struct OpenContainer {
    let isObject: Bool
    let end: Int
    var position: Int
    var elements: [JSONValue] = []
    var members: [JSONObject.Element] = []
    /// The key of the member whose value is being built.
    var key = ""

    init(tape: Tape, at index: Int) {
        isObject = tag(of: tape.entries[index]) == .objectStart
        end = payload(of: tape.entries[index])
        position = index + 2
        if isObject {
            members.reserveCapacity(Int(tape.entries[index + 1]))
        } else {
            elements.reserveCapacity(Int(tape.entries[index + 1]))
        }
    }

    mutating func append(_ child: JSONValue) {
        if isObject { members.append((key, child)) } else { elements.append(child) }
    }

    var value: JSONValue { isObject ? .object(JSONObject(uniqueMembers: members)) : .array(elements) }
}

extension JSONValue {
    /// Parses UTF-8 bytes into a tree.
    ///
    /// - Throws: ``JSONParseError`` with the reason and the location.
    public init(parsing bytes: [UInt8], options: JSONParserOptions = .default) throws(JSONParseError) {
        self = try JSONDocument(parsing: bytes, options: options).value
    }

    /// Parses a string into a tree.
    ///
    /// - Throws: ``JSONParseError`` with the reason and the location.
    public init(parsing text: String, options: JSONParserOptions = .default) throws(JSONParseError) {
        self = try JSONDocument(parsing: Array(text.utf8), options: options).value
    }
}
