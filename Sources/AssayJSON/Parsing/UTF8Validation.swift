/// Finds the first byte that is not part of well-formed UTF-8 (RFC 3629: no overlong forms, no
/// surrogates, nothing above U+10FFFF), or `nil` when all of `bytes` is UTF-8. ASCII runs are
/// skipped eight bytes at a time, straight to their first non-ASCII byte; a run of non-ASCII
/// characters (Cyrillic, Thai, CJK text) is checked sequence after sequence without going back to
/// the ASCII scan.
func firstInvalidUTF8(in bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    let end = bytes.count
    var index = start
    while index < end {
        if index + 8 <= end {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let high = word & 0x8080_8080_8080_8080
            if high == 0 {
                index += 8
                continue
            }
            // The first byte in memory is the lowest: jump to the first non-ASCII one.
            index += high.trailingZeroBitCount >> 3
        } else if base[index] < 0x80 {
            index += 1
            continue
        }
        repeat {
            let length = utf8SequenceLength(base, at: index, end: end)
            if length == 0 { return index }
            index += length
        } while index < end && base[index] >= 0x80
    }
    return nil
}

/// The length of the well-formed UTF-8 sequence that starts with the non-ASCII byte at `index`,
/// or 0 when none does.
@inline(__always)
private func utf8SequenceLength(_ base: UnsafePointer<UInt8>, at index: Int, end: Int) -> Int {
    let lead = base[index]
    // The common two- and three-byte forms checked with one load: lead and continuation bits as
    // masks, then only the ranges that exclude overlong forms and surrogates.
    if index + 4 <= end {
        let word = UInt32(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt32.self))
        if word & 0x00C0_C0F0 == 0x0080_80E0 {
            let second = word >> 8 & 0xFF
            return (lead != 0xE0 || second >= 0xA0) && (lead != 0xED || second <= 0x9F) ? 3 : 0
        }
        if word & 0xC0E0 == 0x80C0 && lead >= 0xC2 { return 2 }
    }
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0: length = 3; low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: length = 3; high = 0x9F
    case 0xF0: length = 4; low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4: length = 4; high = 0x8F
    default: return 0
    }
    guard index + length <= end else { return 0 }
    let second = base[index + 1]
    guard second >= low && second <= high else { return 0 }
    for offset in 2..<length where base[index + offset] & 0xC0 != 0x80 { return 0 }
    return length
}
