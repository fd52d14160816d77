/// Allocation-free traversal of a document for other Assay modules (the schema validator reads
/// documents in place through these).
extension JSONNode {
    /// Whether the value is an object.
    package var isObject: Bool { tag(of: tape.entries[index]) == .objectStart }

    /// Whether the value is an array.
    package var isArray: Bool { tag(of: tape.entries[index]) == .arrayStart }

    /// Whether the value is a string.
    package var isString: Bool {
        switch tag(of: tape.entries[index]) {
        case .rawString, .escapedString: return true
        default: return false
        }
    }

    /// Whether the value is a number.
    package var isNumber: Bool {
        switch tag(of: tape.entries[index]) {
        case .integer, .numberText: return true
        default: return false
        }
    }

    /// Whether the value is a number with no fractional part.
    package var isIntegralNumber: Bool {
        switch tag(of: tape.entries[index]) {
        case .integer: return true
        case .numberText: return tape.number(at: index).isInteger
        default: return false
        }
    }

    /// Calls `body` with each element in order until it returns `false`; returns whether every
    /// call returned `true` (also for a value that is not an array).
    package func allElements(_ body: (Int, JSONNode) -> Bool) -> Bool {
        guard tag(of: tape.entries[index]) == .arrayStart else { return true }
        let end = payload(of: tape.entries[index])
        var position = index + 2
        var offset = 0
        while position < end {
            if !body(offset, JSONNode(tape: tape, index: position)) { return false }
            offset += 1
            position = tape.next(after: position)
        }
        return true
    }

    /// Calls `body` with each live member's key (its UTF-8 bytes, valid only during the call) and
    /// value until it returns `false`; returns whether every call returned `true`.
    package func allMembers(_ body: (UnsafeBufferPointer<UInt8>, JSONNode) -> Bool) -> Bool {
        guard tag(of: tape.entries[index]) == .objectStart else { return true }
        let end = payload(of: tape.entries[index])
        var position = index + 2
        while position < end {
            let valueIndex = position + 2
            if tag(of: tape.entries[position]) != .deadKey {
                let keep = tape.withStringBytes(at: position) { body($0, JSONNode(tape: tape, index: valueIndex)) }
                if !keep { return false }
            }
            position = tape.next(after: valueIndex)
        }
        return true
    }

    /// The value of the member whose key has exactly these UTF-8 bytes.
    package func member(utf8 key: UnsafeBufferPointer<UInt8>) -> JSONNode? {
        guard tag(of: tape.entries[index]) == .objectStart,
            let position = tape.member(named: key, inObjectAt: index)
        else { return nil }
        return JSONNode(tape: tape, index: position)
    }

    /// Whether the object has a member named by each of `names` (UTF-8 bytes). Each search starts
    /// after the member found for the name before, so names listed in the order the members are
    /// written are each found at the first comparison.
    package func hasMembers(utf8 names: [[UInt8]]) -> Bool {
        guard tag(of: tape.entries[index]) == .objectStart else { return false }
        var hint = index + 2
        for name in names {
            let found = name.withUnsafeBufferPointer { tape.member(named: $0, inObjectAt: index, from: hint) }
            guard let found else { return false }
            hint = tape.next(after: found)
        }
        return true
    }

    /// The number when it is an integer stored in 64 bits on the tape; `nil` otherwise.
    package var int64: Int64? {
        tag(of: tape.entries[index]) == .integer ? Int64(bitPattern: tape.entries[index + 1]) : nil
    }

    /// Calls `body` with the UTF-8 of the string, or returns `nil` when the value is not a string.
    package func withStringUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        switch tag(of: tape.entries[index]) {
        case .rawString, .escapedString: return tape.withStringBytes(at: index, body)
        default: return nil
        }
    }

    /// Whether the object has a member named `key` (code point for code point).
    package func hasMember(_ key: String) -> Bool {
        var key = key
        return key.withUTF8 { member(utf8: $0) != nil }
    }
}
