/// Allocation-free traversal of a document for other Assay modules (the schema validator reads
/// documents in place through these).
extension JSONNode {
    /// The document's tape as raw pointers; valid while this node (which keeps the document
    /// alive) is.
    package var tapeView: TapeView { tape.view }

    /// This value's index on ``tapeView``.
    package var tapeIndex: Int { index }

    /// The value at `index` on the same document's tape.
    package func node(atTapeIndex index: Int) -> JSONNode { JSONNode(tape: tape, index: index) }

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
        return tape.view.allMembers(inObjectAt: index) { key, value in body(key, JSONNode(tape: tape, index: value)) }
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
    package func hasMembers(_ names: UTF8Names) -> Bool {
        tag(of: tape.entries[index]) == .objectStart && tape.view.hasMembers(names, inObjectAt: index)
    }

    /// For an array of at most 16 elements, all strings: whether no two are equal, their UTF-8
    /// compared pairwise (equality as JSON Schema defines it for strings). `nil` for other values,
    /// longer arrays and arrays holding anything else.
    package var distinctStrings: Bool? {
        guard tag(of: tape.entries[index]) == .arrayStart else { return nil }
        return tape.view.distinctStrings(inArrayAt: index)
    }

    /// For an array whose elements are all integers kept on the tape (at most 18 digits): whether
    /// no two are equal, found by sorting a copy of them. `nil` for other values and for arrays
    /// holding anything else (a number literal such as `1.0` equals the integer `1`, so it takes
    /// the general comparison).
    package var distinctIntegers: Bool? {
        guard tag(of: tape.entries[index]) == .arrayStart else { return nil }
        let count = Int(tape.entries[index + 1])
        guard count > 1 else { return true }
        let entries = tape.entries
        // Integers take two entries each, so the elements are at fixed strides when all are integers.
        guard payload(of: entries[index]) == index + 2 + 2 * count else { return nil }
        return withUnsafeTemporaryAllocation(of: Int64.self, capacity: count) { buffer -> Bool? in
            var values = buffer
            var position = index + 2
            for offset in 0..<count {
                guard tag(of: entries[position]) == .integer else { return nil }
                values[offset] = Int64(bitPattern: entries[position + 1])
                position += 2
            }
            values.sort()
            for offset in 1..<count where values[offset] == values[offset - 1] { return false }
            return true
        }
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

extension JSONDocument {
    /// The document of `value`, its tape built straight from the tree (no JSON text written or
    /// parsed): what the schema evaluator reads any instance as. Strings and number literals go to
    /// the document's bytes as they are (raw strings, the numbers' literals); integers of up to 18
    /// digits are kept on the tape, as the parser keeps them. `nil` when the value nests deeper than
    /// ``JSONParserOptions/maximumAllowedDepth``, as the parser would refuse it.
    package init?(writing value: JSONValue) {
        var builder = TapeBuilder()
        guard builder.build(value) else {
            builder.entries.discard()
            return nil
        }
        tape = Tape(bytes: builder.source[...], entries: builder.entries.finish(), strings: [])
    }
}

/// Builds a tape from a `JSONValue` without recursion (a value nested as deep as the parser allows
/// is built on a thread with a small stack too).
private struct TapeBuilder {
    var entries = EntryBuffer(capacity: 64)
    var source: [UInt8] = []

    /// An array or object being written: its members are read in place (`frames[top]`), so moving
    /// to the next one copies no container.
    private struct Frame {
        var elements: [JSONValue] = []
        var object = JSONObject()
        let isObject: Bool
        var next = 0
        let count: Int
        let start: Int
    }

    mutating func build(_ root: JSONValue) -> Bool {
        var frames: [Frame] = []
        frames.reserveCapacity(8)
        source.reserveCapacity(512)
        guard open(root, &frames) else { return false }
        while let top = frames.indices.last {
            let next = frames[top].next
            guard next < frames[top].count else {
                let start = frames[top].start
                let isObject = frames[top].isObject
                frames.removeLast()
                close(start, isObject ? .objectStart : .arrayStart, isObject ? .objectEnd : .arrayEnd)
                continue
            }
            frames[top].next = next + 1
            let value: JSONValue
            if frames[top].isObject {
                let member = frames[top].object[next]
                appendString(member.key)
                value = member.value
            } else {
                value = frames[top].elements[next]
            }
            guard open(value, &frames) else { return false }
        }
        return true
    }

    /// Writes a scalar, or opens a container on `frames`; `false` past the parser's depth.
    private mutating func open(_ value: JSONValue, _ frames: inout [Frame]) -> Bool {
        switch value {
        case .null: entries.append(entry(.null))
        case .bool(let flag): entries.append(entry(flag ? .true : .false))
        case .number(let number): appendNumber(number)
        case .string(let text): appendString(text)
        case .array(let elements):
            return push(
                Frame(elements: elements, isObject: false, count: elements.count, start: entries.count), &frames)
        case .object(let object):
            return push(Frame(object: object, isObject: true, count: object.count, start: entries.count), &frames)
        }
        return true
    }

    /// Opens `frame`'s container on the tape and on `frames`; `false` past the parser's depth.
    private mutating func push(_ frame: Frame, _ frames: inout [Frame]) -> Bool {
        guard frames.count < JSONParserOptions.maximumAllowedDepth else { return false }
        entries.append(entry(frame.isObject ? .objectStart : .arrayStart))
        entries.append(UInt64(frame.count))
        frames.append(frame)
        return true
    }

    private mutating func close(_ start: Int, _ open: Tag, _ end: Tag) {
        let index = entries.count
        entries.append(entry(end, start))
        entries[start] = entry(open, index)
    }

    private mutating func appendString(_ text: String) {
        let start = source.count
        source.append(contentsOf: text.utf8)
        entries.append(entry(.rawString, start))
        entries.append(UInt64(source.count - start))
    }

    /// An integer of at most 18 digits on the tape, as the parser keeps it; any other number as
    /// its literal.
    private mutating func appendNumber(_ number: JSONNumber) {
        if let value = number.int64, value > -1_000_000_000_000_000_000, value < 1_000_000_000_000_000_000 {
            entries.append(entry(.integer))
            entries.append(UInt64(bitPattern: value))
            return
        }
        let start = source.count
        number.appendLiteral(to: &source)
        entries.append(entry(.numberText, start))
        entries.append(UInt64(source.count - start))
    }
}

extension JSONNode {
    /// The value, or an excerpt of it when it is large, so that what an error shows of a failing
    /// value is bounded whatever the document's size: a string longer than `stringBytes` bytes is
    /// cut at a character boundary and ends with `…`; an array or object keeps its first `children`
    /// elements or members, then a last element (or a member named `…`) saying how many more there
    /// are; containers nested more than `depth` levels below are shown as `"[…]"` or `"{…}"`.
    package func excerpt(stringBytes: Int = 512, children: Int = 32, depth: Int = 8) -> JSONValue {
        excerpt(at: index, stringBytes: stringBytes, children: children, depth: depth)
    }

    private func excerpt(at position: Int, stringBytes: Int, children: Int, depth: Int) -> JSONValue {
        let view = tape.view
        switch tag(of: tape.entries[position]) {
        case .rawString, .escapedString, .deadKey:
            let bytes = view.stringBytes(position)
            guard bytes.count > stringBytes else { return .string(tape.string(at: position)) }
            return .string(cutText(bytes, at: stringBytes))
        case .arrayStart:
            guard depth > 0 else { return .string("[…]") }
            var elements: [JSONValue] = []
            var element = view.firstChild(position)
            let end = view.end(position)
            while element < end && elements.count < children {
                elements.append(excerpt(at: element, stringBytes: stringBytes, children: children, depth: depth - 1))
                element = view.next(after: element)
            }
            let more = view.count(position) - elements.count
            if more > 0 { elements.append(.string("… \(more) more")) }
            return .array(elements)
        case .objectStart:
            guard depth > 0 else { return .string("{…}") }
            // One walk: the first `children` members kept, the rest only counted.
            var members: [(String, JSONValue)] = []
            var total = 0
            _ = view.allMembers(inObjectAt: position) { key, value in
                total += 1
                if members.count < children {
                    members.append(
                        (
                            String(decoding: key, as: UTF8.self),
                            excerpt(at: value, stringBytes: stringBytes, children: children, depth: depth - 1)
                        ))
                }
                return true
            }
            var object = JSONObject(members)
            if total > members.count { object["…"] = .string("\(total - members.count) more") }
            return .object(object)
        default:
            return JSONNode(tape: tape, index: position).value
        }
    }
}

extension JSONValue {
    /// The value, or an excerpt of it when it is large, cut as ``JSONNode/excerpt(stringBytes:children:depth:)``
    /// cuts a document's value: for a value that is not on a tape (one nested too deep to be
    /// written to one). Reads at most `depth` levels, so a value of any depth costs a bounded walk.
    package func excerpt(stringBytes: Int = 512, children: Int = 32, depth: Int = 8) -> JSONValue {
        switch self {
        case .string(var text):
            guard text.utf8.count > stringBytes else { return self }
            return .string(text.withUTF8 { cutText($0, at: stringBytes) })
        case .array(let elements):
            guard depth > 0 else { return .string("[…]") }
            var kept = elements.prefix(children).map {
                $0.excerpt(stringBytes: stringBytes, children: children, depth: depth - 1)
            }
            if elements.count > kept.count { kept.append(.string("… \(elements.count - kept.count) more")) }
            return .array(kept)
        case .object(let object):
            guard depth > 0 else { return .string("{…}") }
            var kept = JSONObject(
                object.prefix(children).map {
                    ($0.key, $0.value.excerpt(stringBytes: stringBytes, children: children, depth: depth - 1))
                })
            if object.count > kept.count { kept["…"] = .string("\(object.count - kept.count) more") }
            return .object(kept)
        default:
            return self
        }
    }
}

/// The first `limit` bytes of a string's UTF-8 `bytes` (more than `limit` of them), cut back to
/// the start of a character, and `…`: how an excerpt shortens a long string, on a tape or not.
private func cutText(_ bytes: UnsafeBufferPointer<UInt8>, at limit: Int) -> String {
    var end = limit
    while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<end]), as: UTF8.self) + "…"
}
