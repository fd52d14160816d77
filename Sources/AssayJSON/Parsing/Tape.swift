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
enum Tag: UInt8 {
    case null = 0, `true`, `false`, integer, numberText, rawString, escapedString
    case arrayStart, arrayEnd, objectStart, objectEnd, deadKey
}

@inline(__always) func entry(_ tag: Tag, _ payload: Int = 0) -> UInt64 {
    UInt64(tag.rawValue) << 56 | UInt64(truncatingIfNeeded: payload) & 0x00FF_FFFF_FFFF_FFFF
}

/// Raw values equal case indices (0, 1, …), so the top byte is the case itself.
@inline(__always) func tag(of entry: UInt64) -> Tag {
    unsafeBitCast(UInt8(truncatingIfNeeded: entry >> 56), to: Tag.self)
}

@inline(__always) func payload(of entry: UInt64) -> Int { Int(entry & 0x00FF_FFFF_FFFF_FFFF) }

/// The bytes, the tape and the decoded escaped strings of one parsed document; immutable after
/// parsing (the entries live in a buffer the tape owns and frees).
final class Tape: @unchecked Sendable {
    /// The source: offsets on the tape count from the slice's start.
    let bytes: ArraySlice<UInt8>
    let entries: UnsafeMutableBufferPointer<UInt64>
    let strings: [UInt8]

    /// The first source byte: the storage of `bytes` itself, which `bytes` keeps alive and
    /// unchanged (an array's storage is copied, never changed, while another reference holds it),
    /// or a copy when the slice has no contiguous storage. Read without a closure per string.
    private let base: UnsafePointer<UInt8>
    private let ownedCopy: UnsafeMutablePointer<UInt8>?

    init(bytes: ArraySlice<UInt8>, entries: UnsafeMutableBufferPointer<UInt64>, strings: [UInt8]) {
        self.bytes = bytes
        self.entries = entries
        self.strings = strings
        if let storage = bytes.withContiguousStorageIfAvailable({ $0.baseAddress }), let storage {
            base = storage
            ownedCopy = nil
        } else {
            let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(bytes.count, 1))
            _ = UnsafeMutableBufferPointer(start: copy, count: bytes.count).initialize(from: bytes)
            base = UnsafePointer(copy)
            ownedCopy = copy
        }
    }

    deinit {
        entries.baseAddress?.deallocate()
        ownedCopy?.deallocate()
    }

    /// The index after the value at `index`.
    @inline(__always) func next(after index: Int) -> Int {
        let current = entries[index]
        switch tag(of: current) {
        case .null, .true, .false: return index + 1
        case .integer, .numberText, .rawString, .escapedString, .deadKey: return index + 2
        case .arrayStart, .objectStart: return payload(of: current) + 1
        case .arrayEnd, .objectEnd: return index + 1
        }
    }

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
        let end = payload(of: entries[object])
        let first = object + 2
        if hint > first && hint < end {
            if let found = scanMembers(named: key, from: hint, to: end) { return found }
            return scanMembers(named: key, from: first, to: hint)
        }
        return scanMembers(named: key, from: first, to: end)
    }

    /// The value index of the live member named `key` among the members whose key entries lie in
    /// `position..<end`.
    @inline(__always)
    private func scanMembers(named key: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int? {
        var position = start
        let source = base
        while position < end {
            let valueIndex = position + 2
            let current = entries[position]
            let currentTag = tag(of: current)
            if currentTag != .deadKey {
                let length: Int
                let packed = entries[position + 1]
                if currentTag == .rawString {
                    length = Int(packed)
                    if length == key.count
                        && (length == 0 || sameBytes(source + payload(of: current), key.baseAddress!, length))
                    {
                        return valueIndex
                    }
                } else {
                    length = Int(packed & 0xFFFF_FFFF)
                    if length == key.count
                        && (length == 0
                            || strings.withUnsafeBufferPointer {
                                sameBytes($0.baseAddress! + Int(packed >> 32), key.baseAddress!, length)
                            })
                    {
                        return valueIndex
                    }
                }
            }
            position = next(after: valueIndex)
        }
        return nil
    }

    /// Whether the strings at `first` and `second` have the same UTF-8.
    func sameString(at first: Int, and second: Int) -> Bool {
        withStringBytes(at: first) { a in
            withStringBytes(at: second) { b in
                a.count == b.count && (a.count == 0 || sameBytes(a.baseAddress!, b.baseAddress!, a.count))
            }
        }
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
