#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The parsed form of a JSON text: a flat array of 64-bit entries (a "tape"), one or two per value,
/// that points into the source bytes for strings and numbers. Containers record where they end, so
/// a value is skipped in one step.
///
/// Entry layout: the top byte is a tag, the low 56 bits a payload.
/// - `null`, `true`, `false`: one entry.
/// - integer: the entry, then the `Int64` bits.
/// - number text: payload = source offset; then the length.
/// - raw string (no escapes): payload = source offset of the first byte inside the quotes; then the length.
/// - escaped string: payload = source offset; then (offset in `strings` << 32) | decoded length.
/// - array/object start: payload = index of the end entry; then the element (member) count.
/// - array/object end: payload = index of the start entry.
/// - dead key: a key dropped by a duplicate-key policy, laid out as a string; skip it and its value.
@usableFromInline enum Tag: UInt8 {
    case null = 0, `true`, `false`, integer, numberText, rawString, escapedString
    case arrayStart, arrayEnd, objectStart, objectEnd, deadKey
}

@inlinable @inline(__always) func entry(_ tag: Tag, _ payload: Int = 0) -> UInt64 {
    UInt64(tag.rawValue) << 56 | UInt64(truncatingIfNeeded: payload) & 0x00FF_FFFF_FFFF_FFFF
}

/// Raw values equal case indices (0, 1, …), so the top byte is the case itself.
@inlinable @inline(__always) func tag(of entry: UInt64) -> Tag {
    unsafeBitCast(UInt8(truncatingIfNeeded: entry >> 56), to: Tag.self)
}

@inlinable @inline(__always) func payload(of entry: UInt64) -> Int { Int(entry & 0x00FF_FFFF_FFFF_FFFF) }

/// The bytes, the tape and the decoded escaped strings of one parsed document; unchanged after
/// parsing, unless nothing else holds it and a document is parsed again into its storage
/// (``reset(bytes:entries:strings:)``). The entries live in a buffer the tape owns and frees.
final class Tape: @unchecked Sendable {
    // Variables only for ``reset(bytes:entries:strings:)``, which runs when nothing else holds the
    // tape (and to set them first): read without exclusivity checks.
    /// The source: offsets on the tape count from the slice's start.
    @exclusivity(unchecked) private(set) var bytes: ArraySlice<UInt8> = []
    @exclusivity(unchecked) private(set) var entries = UnsafeMutableBufferPointer<UInt64>(start: nil, count: 0)
    @exclusivity(unchecked) private(set) var strings: [UInt8] = []
    /// How many entries the buffer has room for.
    @exclusivity(unchecked) private(set) var capacity = 0

    /// The first source byte: the storage of `bytes` itself, which `bytes` keeps alive and
    /// unchanged (an array's storage is copied, never changed, while another reference holds it),
    /// or a copy when the slice has no contiguous storage. Read without a closure per string.
    @exclusivity(unchecked) private var base: UnsafePointer<UInt8> = TapeView.empty.source
    @exclusivity(unchecked) private var ownedCopy: UnsafeMutablePointer<UInt8>?
    /// The tape as raw pointers (see ``TapeView``).
    @exclusivity(unchecked) private(set) var view = TapeView.empty

    init(bytes: ArraySlice<UInt8>, entries: EntryBuffer.Finished, strings: [UInt8]) {
        reset(bytes: bytes, entries: entries, strings: strings)
    }

    /// Index memory kept for the next document parsed into this tape.
    @exclusivity(unchecked) private var scratch = IndexScratch()

    deinit {
        EntryBuffer.free(entries.baseAddress)
        ownedCopy?.deallocate()
        scratch.free()
    }

    /// Gives the index memory to a parser (the tape keeps none until ``keep(_:)``). Only when
    /// nothing else holds the tape.
    func takeScratch() -> IndexScratch {
        defer { scratch = IndexScratch() }
        return scratch
    }

    /// Keeps a parser's index memory for the next document, or frees it when it is over
    /// ``IndexScratch/largestKept`` bytes.
    func keep(_ scratch: IndexScratch) {
        var scratch = scratch
        if scratch.bytes > IndexScratch.largestKept { scratch.free() }
        self.scratch.free()
        self.scratch = scratch
    }

    /// The first byte of `bytes`, and the copy it is in when the slice has no contiguous storage.
    private static func source(of bytes: ArraySlice<UInt8>) -> (UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>?) {
        if let storage = bytes.withContiguousStorageIfAvailable({ $0.baseAddress }), let storage {
            return (storage, nil)
        }
        let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(bytes.count, 1))
        _ = UnsafeMutableBufferPointer(start: copy, count: bytes.count).initialize(from: bytes)
        return (UnsafePointer(copy), copy)
    }

    private static func view(
        _ entries: UnsafeMutableBufferPointer<UInt64>, _ base: UnsafePointer<UInt8>, _ strings: [UInt8]
    ) -> TapeView {
        // `strings` is never changed, so its storage stays where it is while the tape holds it.
        let stringsBase = strings.withUnsafeBufferPointer { $0.baseAddress } ?? base
        return TapeView(entries: UnsafePointer(entries.baseAddress!), source: base, strings: stringsBase)
    }

    /// Gives the entry buffer to a parser that writes the next document into it (the tape is left
    /// with none, and frees none, until ``reset(bytes:entries:strings:)``). Only when nothing else
    /// holds the tape.
    func takeEntries(minimumCapacity: Int) -> EntryBuffer {
        let buffer = EntryBuffer(reusing: entries.baseAddress!, capacity: capacity, minimumCapacity: minimumCapacity)
        entries = UnsafeMutableBufferPointer(start: nil, count: 0)
        capacity = 0
        return buffer
    }

    /// Makes this the tape of a document (another one, parsed into the buffer
    /// ``takeEntries(minimumCapacity:)`` gave away, when the tape is reused).
    func reset(bytes: ArraySlice<UInt8>, entries: EntryBuffer.Finished, strings: [UInt8]) {
        ownedCopy?.deallocate()
        self.bytes = bytes
        self.entries = entries.buffer
        self.capacity = entries.capacity
        self.strings = strings
        (base, ownedCopy) = Self.source(of: bytes)
        view = Self.view(entries.buffer, base, strings)
    }

    /// The index after the value at `index`.
    @inline(__always) func next(after index: Int) -> Int { view.next(after: index) }

    /// The string at `index` (a raw or escaped string entry, or a dead key).
    func string(at index: Int) -> String {
        withStringBytes(at: index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether the string entry at `index` refers to the source bytes (no escapes). Dead keys keep
    /// a marker in bit 55 of their payload when they were escaped.
    func isRaw(_ index: Int) -> Bool {
        let current = entries[index]
        switch tag(of: current) {
        case .rawString: return true
        case .deadKey: return current & (1 << 55) == 0
        default: return false
        }
    }

    /// The bytes of the string at `index`, for comparisons without building a `String`.
    func withStringBytes<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if isRaw(index) {
            let start = payload(of: entries[index]) & 0x007F_FFFF_FFFF_FFFF
            let length = Int(entries[index + 1])
            return body(UnsafeBufferPointer(start: base + start, count: length))
        }
        let packed = entries[index + 1]
        let start = Int(packed >> 32)
        let length = Int(packed & 0xFFFF_FFFF)
        return strings.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<start + length])) }
    }

    /// The tape index of the value of the live member named `key` in the object at `object`.
    /// Lengths are compared first (they are on the tape), bytes only when they match.
    func member(named key: UnsafeBufferPointer<UInt8>, inObjectAt object: Int) -> Int? {
        member(named: key, inObjectAt: object, from: object + 2)
    }

    /// ``member(named:inObjectAt:)`` starting at the key entry `hint` (a member of that object, or
    /// its end) and wrapping around to the object's first member: a decoder reading the members in
    /// the order they are written finds each one at the first comparison.
    func member(named key: UnsafeBufferPointer<UInt8>, inObjectAt object: Int, from hint: Int) -> Int? {
        view.member(named: key, inObjectAt: object, from: hint)
    }

    /// The string at `index`, or `nil` when the value there is not a string.
    @inline(__always) func stringIfString(at index: Int) -> String? {
        switch tag(of: entries[index]) {
        case .rawString, .escapedString: return string(at: index)
        default: return nil
        }
    }

    /// The integer at `index` when it is one stored in 64 bits; `nil` otherwise (other numbers
    /// take the exact path).
    @inline(__always) func smallInteger(at index: Int) -> Int? {
        guard tag(of: entries[index]) == .integer else { return nil }
        return Int(exactly: Int64(bitPattern: entries[index + 1]))
    }

    /// The Boolean at `index`, or `nil`.
    @inline(__always) func boolIfBool(at index: Int) -> Bool? {
        switch tag(of: entries[index]) {
        case .true: return true
        case .false: return false
        default: return nil
        }
    }

    /// Whether the value at `index` is `null`.
    @inline(__always) func isNull(at index: Int) -> Bool { tag(of: entries[index]) == .null }

    /// The number at `index` (an integer or number-text entry).
    func number(at index: Int) -> JSONNumber {
        let current = entries[index]
        if tag(of: current) == .integer { return JSONNumber(storage: .integer(Int64(bitPattern: entries[index + 1]))) }
        let start = payload(of: current)
        let length = Int(entries[index + 1])
        return JSONNumber(literal: UnsafeBufferPointer(start: base + start, count: length))
    }
}

/// A parsed document's tape as raw pointers, for reading it across modules without calls or
/// reference counting: the schema evaluator walks documents through it. Valid
/// only while the document it came from is alive (``JSONNode/withTapeView(_:)``).
@frozen
@usableFromInline package struct TapeView: @unchecked Sendable {
    @usableFromInline let entries: UnsafePointer<UInt64>
    @usableFromInline let source: UnsafePointer<UInt8>
    @usableFromInline let strings: UnsafePointer<UInt8>

    @usableFromInline init(entries: UnsafePointer<UInt64>, source: UnsafePointer<UInt8>, strings: UnsafePointer<UInt8>)
    {
        self.entries = entries
        self.source = source
        self.strings = strings
    }

    /// A view of no document, for a holder that has none yet; reading through it is an error.
    package static var empty: TapeView {
        let nothing = UnsafePointer<UInt8>(bitPattern: 0x10)!
        return TapeView(entries: UnsafePointer(bitPattern: 0x10)!, source: nothing, strings: nothing)
    }

    /// The raw tag of the entry at `index` (``Tag``'s raw value: 0 `null`, 1 `true`, 2 `false`,
    /// 3 integer, 4 number literal, 5 and 6 strings, 7 array, 9 object), for a table lookup.
    @inlinable @inline(__always) package func tagByte(_ index: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: entries[index] >> 56)
    }

    /// Whether the value at `index` is an object.
    @inlinable @inline(__always) package func isObject(_ index: Int) -> Bool {
        tag(of: entries[index]) == .objectStart
    }

    /// Whether the value at `index` is an array.
    @inlinable @inline(__always) package func isArray(_ index: Int) -> Bool { tag(of: entries[index]) == .arrayStart }

    /// Whether the value at `index` is a string.
    @inlinable @inline(__always) package func isString(_ index: Int) -> Bool {
        let current = tag(of: entries[index])
        return current == .rawString || current == .escapedString
    }

    /// Whether the value at `index` is `null`.
    @inlinable @inline(__always) package func isNull(_ index: Int) -> Bool { tag(of: entries[index]) == .null }

    /// Whether the value at `index` is `true` or `false`.
    @inlinable @inline(__always) package func isBool(_ index: Int) -> Bool {
        let current = tag(of: entries[index])
        return current == .true || current == .false
    }

    /// Whether the value at `index` is an integer stored in 64 bits on the tape.
    @inlinable @inline(__always) package func isInt64(_ index: Int) -> Bool { tag(of: entries[index]) == .integer }

    /// Whether the value at `index` is a number kept as its literal (a fraction, an exponent or
    /// more than 18 digits).
    @inlinable @inline(__always) package func isNumberText(_ index: Int) -> Bool {
        tag(of: entries[index]) == .numberText
    }

    /// The integer at `index`; only for a value for which ``isInt64(_:)`` holds.
    @inlinable @inline(__always) package func int64(_ index: Int) -> Int64 { Int64(bitPattern: entries[index + 1]) }

    /// The source bytes of the number literal at `index`; only where ``isNumberText(_:)`` holds.
    @inlinable @inline(__always) package func numberLiteral(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: source + payload(of: entries[index]), count: Int(entries[index + 1]))
    }

    /// The elements of the array or the members of the object at `index`.
    @inlinable @inline(__always) package func count(_ index: Int) -> Int { Int(entries[index + 1]) }

    /// The index of the first element, or of the first member's key, of the container at `index`.
    @inlinable @inline(__always) package func firstChild(_ index: Int) -> Int { index + 2 }

    /// The index of the end entry of the container at `index`: its children lie before it.
    @inlinable @inline(__always) package func end(_ index: Int) -> Int { payload(of: entries[index]) }

    /// Whether the key entry at `index` is one a duplicate-key policy dropped (skip it and its value).
    @inlinable @inline(__always) package func isDeadKey(_ index: Int) -> Bool { tag(of: entries[index]) == .deadKey }

    /// The index after the value at `index`.
    @inlinable @inline(__always) package func next(after index: Int) -> Int {
        let current = entries[index]
        switch tag(of: current) {
        case .null, .true, .false, .arrayEnd, .objectEnd: return index + 1
        case .integer, .numberText, .rawString, .escapedString, .deadKey: return index + 2
        case .arrayStart, .objectStart: return payload(of: current) + 1
        }
    }

    /// The UTF-8 of the string or live key at `index` (a string entry; not a dead key).
    @inlinable @inline(__always) package func stringBytes(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let current = entries[index]
        let packed = entries[index + 1]
        if tag(of: current) == .rawString {
            return UnsafeBufferPointer(start: source + payload(of: current), count: Int(packed))
        }
        return UnsafeBufferPointer(start: strings + Int(packed >> 32), count: Int(packed & 0xFFFF_FFFF))
    }

    /// For an array of at most 16 elements, all strings: whether no two have the same UTF-8, compared
    /// pair by pair on the tape (lengths first); `true` for fewer than two elements. `nil` for a
    /// longer array or one holding anything else (the general comparison decides those).
    package func distinctStrings(inArrayAt array: Int) -> Bool? {
        let count = Int(entries[array + 1])
        guard count <= 16 else { return nil }
        guard count > 1 else { return true }
        return withUnsafeTemporaryAllocation(of: UnsafeBufferPointer<UInt8>.self, capacity: 16) { strings in
            var position = array + 2
            for offset in 0..<count {
                let kind = tag(of: entries[position])
                guard kind == .rawString || kind == .escapedString else { return nil }
                strings[offset] = stringBytes(position)
                position += 2
            }
            for later in 1..<count {
                let second = strings[later]
                for earlier in 0..<later where strings[earlier].count == second.count {
                    if second.isEmpty || sameBytes(strings[earlier].baseAddress!, second.baseAddress!, second.count) {
                        return false
                    }
                }
            }
            return true
        }
    }

    /// Calls `body` with each live member's key (its UTF-8) and value index, in order, of the object at
    /// `object`, until it returns `false`; returns whether every call returned `true`.
    @inlinable @inline(__always)
    package func allMembers(inObjectAt object: Int, _ body: (UnsafeBufferPointer<UInt8>, Int) -> Bool) -> Bool {
        var member = object + 2
        let end = payload(of: entries[object])
        while member < end {
            let value = member + 2
            if tag(of: entries[member]) != .deadKey && !body(stringBytes(member), value) { return false }
            member = next(after: value)
        }
        return true
    }

    /// The value index of the live member named `key` in the object at `object`, searching from the
    /// key entry `hint` (a member of that object or its end) to the end, then from the first member.
    @inlinable package func member(named key: UnsafeBufferPointer<UInt8>, inObjectAt object: Int, from hint: Int)
        -> Int?
    {
        let end = payload(of: entries[object])
        let first = object + 2
        if hint > first && hint < end {
            if let found = scanMembers(named: key, from: hint, to: end) { return found }
            return scanMembers(named: key, from: first, to: hint)
        }
        return scanMembers(named: key, from: first, to: end)
    }

    @inlinable @inline(__always)
    func scanMembers(named key: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int? {
        var position = start
        while position < end {
            let valueIndex = position + 2
            if tag(of: entries[position]) != .deadKey {
                let name = stringBytes(position)
                if name.count == key.count
                    && (name.count == 0 || sameBytes(name.baseAddress!, key.baseAddress!, name.count))
                {
                    return valueIndex
                }
            }
            position = next(after: valueIndex)
        }
        return nil
    }

    /// Whether the object at `object` has a member named by each of `names`: for a few names, each
    /// search starting after the member found for the name before; for more, in one pass over the
    /// members (``hasMembersInOnePass(_:inObjectAt:)``).
    @inlinable @inline(__always)
    package func hasMembers(_ names: UTF8Names, inObjectAt object: Int) -> Bool {
        names.count <= 4 ? hasMembersByName(names, inObjectAt: object) : hasMembersInOnePass(names, inObjectAt: object)
    }

    /// ``hasMembers(_:inObjectAt:)`` a search per name, each starting after the member found for
    /// the name before.
    @inlinable package func hasMembersByName(_ names: UTF8Names, inObjectAt object: Int) -> Bool {
        var hint = object + 2
        for position in 0..<names.count {
            guard let found = member(named: names[position], inObjectAt: object, from: hint) else { return false }
            hint = next(after: found)
        }
        return true
    }

    /// ``hasMembers(_:inObjectAt:)`` in one pass: each live key looked up among the names (through
    /// their hash table when the list has one), each name found counted once, until all are. Linear
    /// in the members and the names, where a search per name costs their product (`required` with
    /// dozens of names, in another order than the object's).
    @usableFromInline package func hasMembersInOnePass(_ names: UTF8Names, inObjectAt object: Int) -> Bool {
        let wanted = names.distinctCount
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: (names.count + 63) / 64) { seen in
            seen.initialize(repeating: 0)
            var found = 0
            var next = 0
            _ = allMembers(inObjectAt: object) { key, _ in
                // Live keys are distinct, so no two match copies of the same name.
                guard let position = names.position(of: key, from: next) else { return true }
                next = position + 1
                let bit = UInt64(1) &<< UInt64(position & 63)
                if seen[position >> 6] & bit == 0 {
                    seen[position >> 6] |= bit
                    found += 1
                }
                return found < wanted
            }
            return found == wanted
        }
    }
}
