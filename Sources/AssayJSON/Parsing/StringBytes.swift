/// The bytes among the eight of `word` (the first byte lowest) that a JSON string cannot hold as
/// they are — a quote, a backslash, a control character — marked by their high bit (0x80 in each
/// such byte's place). The lowest marked byte is exact (borrows only run upward); those above it
/// may be marked in error, so only the first is used.
@usableFromInline @inline(__always)
func bytesToEscape(in word: UInt64) -> UInt64 {
    let quote = word ^ 0x2222_2222_2222_2222
    let backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
    return
        (((quote &- 0x0101_0101_0101_0101) & ~quote)
        | ((backslash &- 0x0101_0101_0101_0101) & ~backslash)
        | ((word &- 0x2020_2020_2020_2020) & ~word)) & 0x8080_8080_8080_8080
}

/// The index of the first quote, backslash or control character in `base[start..<end]`, or `end`:
/// eight bytes at a time.
@inlinable @inline(__always)
package func firstByteToEscape(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
    var index = start
    while index &+ 8 <= end {
        // Little-endian, so that the lowest bits are the first byte.
        let marked = bytesToEscape(
            in: UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)))
        if marked != 0 { return index &+ marked.trailingZeroBitCount >> 3 }
        index &+= 8
    }
    while index < end {
        let byte = base[index]
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { return index }
        index &+= 1
    }
    return end
}

/// Writes the escape of `byte` (a quote, a backslash or a control character, which a JSON string
/// cannot hold as it is) at `target`: `\n`, `\r`, `\t`, `\b`, `\f` in short form, a quote and a
/// backslash after a backslash, others as `\u00XX`. Returns how many bytes it wrote (2 or 6).
/// The one table of escapes for every writer of JSON strings.
@inlinable @inline(__always)
package func writeEscape(of byte: UInt8, to target: UnsafeMutablePointer<UInt8>) -> Int {
    target[0] = UInt8(ascii: "\\")
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"): target[1] = byte
    case 0x0A: target[1] = UInt8(ascii: "n")
    case 0x0D: target[1] = UInt8(ascii: "r")
    case 0x09: target[1] = UInt8(ascii: "t")
    case 0x08: target[1] = UInt8(ascii: "b")
    case 0x0C: target[1] = UInt8(ascii: "f")
    default:
        let digits: StaticString = "0123456789abcdef"
        target[1] = UInt8(ascii: "u")
        target[2] = UInt8(ascii: "0")
        target[3] = UInt8(ascii: "0")
        target[4] = digits.utf8Start[Int(byte >> 4)]
        target[5] = digits.utf8Start[Int(byte & 0xF)]
        return 6
    }
    return 2
}
