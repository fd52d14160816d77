internal import CAssayStructure

/// Entries written into room an ``EntryBuffer`` made before (``EntryBuffer/reserve(_:)``): no
/// check and no growth per entry.
struct ReservedEntries: EntryAppending {
    let base: UnsafeMutablePointer<UInt64>
    var count: Int

    @inline(__always) mutating func append(_ value: UInt64) {
        base[count] = value
        count &+= 1
    }
}

/// Memory for the walk over a structural index (positions, keys' fingerprints, open containers),
/// which a recycled tape keeps for the next document (up to ``largestKept`` bytes).
struct IndexScratch {
    private(set) var memory: UnsafeMutableRawPointer?
    private(set) var bytes = 0

    /// The most bytes a tape keeps from one document to the next.
    static let largestKept = 1 << 18

    /// At least `count` bytes, aligned for 8-byte values; what was in them is not kept.
    mutating func reserve(_ count: Int) -> UnsafeMutableRawPointer {
        if count > bytes || memory == nil {
            memory?.deallocate()
            bytes = max(count, 1024)
            memory = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: MemoryLayout<UInt64>.alignment)
        }
        return memory.unsafelyUnwrapped
    }

    /// Frees the memory (the scratch is empty after).
    mutating func free() {
        memory?.deallocate()
        memory = nil
        bytes = 0
    }
}

/// The parse of a text through its structural index: a first pass (`assay_structural_index`, in C,
/// 64 bytes at a time with AVX2 or SSSE3) finds every structural character, quote and token start
/// and checks UTF-8, and a walk over those positions writes the tape — the same tape the main loop
/// writes, entry for entry — without looking at the bytes between them (whitespace, or the inside
/// of a string that has no escapes).
///
/// The walk accepts only what the main loop accepts, and gives up at anything else (an error, a
/// byte order mark, an input too deep): the parser then reads the text again with the main loop,
/// which finds the error and reports it as it always does. So an error costs two passes, and a
/// valid text one index and one walk.
extension TapeParser {
    /// Whether this processor builds structural indexes (x86-64 with SSSE3).
    static let indexAvailable = assay_structural_index_available() != 0

    /// The largest input read through an index (its positions take four bytes a byte at most);
    /// larger inputs are read by the main loop alone.
    static let largestIndexedInput = 1 << 20

    /// Parses the input through its structural index; `false`, with nothing written (the tape,
    /// the decoded strings and the position as they were before), when the walk gave up. `level`
    /// 1 builds the index with SSSE3 even where AVX2 is there (for tests); 0 with the best the
    /// processor has.
    mutating func parseIndexed(level: Int32 = 0) -> Bool {
        let end = input.count
        guard let base = input.baseAddress, end > 0, end < 1 << 32 else { return false }
        if options.skipsByteOrderMark, end >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF { return false }
        // One block: the keys' fingerprints (a key takes three positions: its quotes and its
        // colon), the open containers (at most one a byte, and no more than the depth allowed) and
        // the positions (at most one a byte).
        let keyRoom = end / 3 &+ 1
        let openRoom = min(end, options.maximumDepth) &+ 1
        let positionRoom = end &+ Int(ASSAY_STRUCTURE_SLACK)
        let raw = scratch.reserve(keyRoom &* 8 &+ openRoom &* 8 &+ positionRoom &* 4)
        let keys = raw.bindMemory(to: UInt64.self, capacity: keyRoom)
        let open = (raw + (keyRoom &* 8)).bindMemory(to: Int.self, capacity: openRoom)
        let positions = (raw + (keyRoom &* 8 &+ openRoom &* 8)).bindMemory(to: UInt32.self, capacity: positionRoom)
        let found = assay_structural_index_at_level(level, base, end, positions)
        guard found.flags & ASSAY_STRUCTURE_INVALID == 0 else { return false }
        // Valid UTF-8 throughout (the index checks it): every string in it is (its quotes cannot cut a
        // sequence), and a non-ASCII byte outside strings starts or continues a token the walk does
        // not accept. Each position writes at most two entries.
        let total = found.count
        entries.reserve(total &* 2)
        let room = Room(keys: keys, keyRoom: keyRoom, open: open)
        let accepted =
            found.flags & ASSAY_STRUCTURE_BACKSLASH != 0
            ? walk(UnsafePointer(positions), total, room, Escapes.self)
            : walk(UnsafePointer(positions), total, room, NoEscapes.self)
        guard accepted else {
            entries.removeAll()
            strings.removeAll(keepingCapacity: true)
            position = 0
            return false
        }
        position = end
        return true
    }

    /// The walk's scratch memory: the keys' fingerprints and the open containers' first entries.
    struct Room {
        let keys: UnsafeMutablePointer<UInt64>
        let keyRoom: Int
        let open: UnsafeMutablePointer<Int>
    }

    /// Whether `byte` may follow a number or a literal: whitespace, an operator or a quote (anything
    /// else would continue the token, which the main loop reports as an error).
    @inline(__always) private static func endsToken(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"), UInt8(ascii: ","),
            UInt8(ascii: ":"), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "{"),
            UInt8(ascii: "\""):
            return true
        default:
            return false
        }
    }

    /// Whether `literal` is at `index`, followed by the input's end or a byte that ends a token.
    @inline(__always) private static func isLiteral(
        _ literal: StaticString, _ base: UnsafePointer<UInt8>, _ end: Int, at index: Int
    ) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard index &+ length <= end else { return false }
        let expected = literal.utf8Start
        for offset in 0..<length where base[index &+ offset] != expected[offset] { return false }
        return index &+ length == end || endsToken(base[index &+ length])
    }

    /// Reads the string whose quotes are at `open` and `close` as the main loop does (with its
    /// escapes and checks) into the tape and the keys: the walk's way when the input has a
    /// backslash. `false` when the string has an error or does not end at `close`.
    private mutating func readFullString(
        asKey: Bool, open: Int, close: Int, _ out: inout ReservedEntries, _ room: Room, _ keyCount: inout Int
    ) -> Bool {
        entries.count = out.count
        var buffer = entries
        var keys = ScratchStack(
            inline: UnsafeMutableBufferPointer(start: room.keys, count: room.keyRoom), count: keyCount)
        var cursor = open
        do throws(JSONParseError) { try readString(asKey: asKey, &cursor, &buffer, &keys) } catch { return false }
        out.count = buffer.count
        keyCount = keys.count
        return cursor == close &+ 1
    }

    /// The main loop's walk (``parseValues(_:_:)``), step for step, over the structural positions
    /// instead of the bytes: a string is its two quotes (read in full, with its escapes, when the
    /// input has a backslash), a number or a literal its first byte. Returns `false` where the main
    /// loop would throw, and wherever else it is not sure to write what the main loop writes.
    private mutating func walk<Strings: StringReading>(
        _ positions: UnsafePointer<UInt32>, _ total: Int, _ room: Room, _: Strings.Type
    ) -> Bool {
        let base = input.baseAddress!
        let end = input.count
        let maximumDepth = options.maximumDepth
        var out = ReservedEntries(base: entries.base, count: entries.count)
        defer { entries.count = out.count }
        let keys = room.keys
        var keyCount = 0
        let open = room.open
        var depth = 0
        var at = 0
        var count: UInt64 = 0
        var inObject = false
        while true {
            readValue: do {
                guard at < total else { return false }
                let index = Int(truncatingIfNeeded: positions[at])
                let byte = base[index]
                switch byte {
                case UInt8(ascii: "\""):
                    guard at &+ 1 < total else { return false }
                    let close = Int(truncatingIfNeeded: positions[at &+ 1])
                    if Strings.mayHaveEscapes {
                        guard readFullString(asKey: false, open: index, close: close, &out, room, &keyCount) else {
                            return false
                        }
                    } else {
                        out.append(entry(.rawString, index &+ 1))
                        out.append(UInt64(close &- index &- 1))
                    }
                    at &+= 2
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    if at &+ 1 < total {
                        let stop = Int(truncatingIfNeeded: positions[at &+ 1])
                        if Self.readShortNumber(base, end, index, stop, &out)
                            || Self.readLongDecimal(base, index, stop, &out)
                        {
                            at &+= 1
                            break
                        }
                    }
                    var cursor = index
                    if !Self.readCommonNumber(base, end, &cursor, &out) {
                        guard let number = try? parseNumber(at: index) else { return false }
                        cursor = number.end
                        out.append(number.first)
                        out.append(number.second)
                    }
                    guard cursor == end || Self.endsToken(base[cursor]) else { return false }
                    at &+= 1
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let isObject = byte == UInt8(ascii: "{")
                    guard depth < maximumDepth else { return false }
                    if depth > 0 { out.base[open[depth &- 1] &+ 1] = count }
                    open[depth] = out.count
                    depth &+= 1
                    out.append(entry(isObject ? .objectStart : .arrayStart))
                    out.append(0)
                    at &+= 1
                    if at < total,
                        base[Int(truncatingIfNeeded: positions[at])]
                            == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
                    {
                        at &+= 1
                        depth &-= 1
                        let start = open[depth]
                        out.base[start] = entry(isObject ? .objectStart : .arrayStart, out.count)
                        out.append(entry(isObject ? .objectEnd : .arrayEnd, start))
                        break
                    }
                    count = 0
                    inObject = isObject
                    if isObject { break readValue }
                    continue
                case UInt8(ascii: "t"):
                    guard Self.isLiteral("true", base, end, at: index) else { return false }
                    out.append(entry(.true))
                    at &+= 1
                case UInt8(ascii: "f"):
                    guard Self.isLiteral("false", base, end, at: index) else { return false }
                    out.append(entry(.false))
                    at &+= 1
                case UInt8(ascii: "n"):
                    guard Self.isLiteral("null", base, end, at: index) else { return false }
                    out.append(entry(.null))
                    at &+= 1
                default:
                    return false
                }
                // After a value: count it in its container, then a comma or the container's end. (A
                // comma before a container's end needs no check: no value or key starts with one.)
                while true {
                    guard depth > 0 else { return at == total }
                    count &+= 1
                    guard at < total else { return false }
                    let byte = base[Int(truncatingIfNeeded: positions[at])]
                    at &+= 1
                    let start: Int
                    if inObject {
                        if byte == UInt8(ascii: ",") { break readValue }
                        guard byte == UInt8(ascii: "}") else { return false }
                        depth &-= 1
                        start = open[depth]
                        out.base[start &+ 1] = count
                        out.base[start] = entry(.objectStart, out.count)
                        out.append(entry(.objectEnd, start))
                        let members = Int(truncatingIfNeeded: count)
                        keyCount &-= members
                        if members > 1 {
                            let mine = UnsafeBufferPointer(start: keys + keyCount, count: members)
                            let found =
                                members <= 32 ? Self.fingerprintsRepeat(mine) : Self.manyFingerprintsRepeat(mine)
                            if found {
                                entries.count = out.count
                                do throws(JSONParseError) { try resolveDuplicateKeys(objectStart: start) } catch {
                                    return false
                                }
                            }
                        }
                    } else {
                        if byte == UInt8(ascii: ",") {
                            // From the third element on, a long array of numbers is read by
                            // `walkNumbers`, as the main loop's `readNumbers` reads it.
                            guard count >= 2, at < total else { break }
                            let next = base[Int(truncatingIfNeeded: positions[at])]
                            guard next &- UInt8(ascii: "0") < 10 || next == UInt8(ascii: "-") else { break }
                            let run = Self.walkNumbers(base, end, positions, from: at, total, out)
                            out = run.out
                            guard run.values > 0 else { break }
                            // At the separator after the last number, counted there as any value is.
                            at = run.at
                            count &+= UInt64(run.values &- 1)
                            continue
                        }
                        guard byte == UInt8(ascii: "]") else { return false }
                        depth &-= 1
                        start = open[depth]
                        out.base[start &+ 1] = count
                        out.base[start] = entry(.arrayStart, out.count)
                        out.append(entry(.arrayEnd, start))
                    }
                    if depth > 0 {
                        let parent = open[depth &- 1]
                        count = out.base[parent &+ 1]
                        inObject = tag(of: out.base[parent]) == .objectStart
                    }
                }
                continue
            }
            // A key and its colon.
            guard at &+ 2 < total else { return false }
            let index = Int(truncatingIfNeeded: positions[at])
            guard base[index] == UInt8(ascii: "\"") else { return false }
            let close = Int(truncatingIfNeeded: positions[at &+ 1])
            if Strings.mayHaveEscapes {
                guard readFullString(asKey: true, open: index, close: close, &out, room, &keyCount) else {
                    return false
                }
            } else {
                out.append(entry(.rawString, index &+ 1))
                out.append(UInt64(close &- index &- 1))
                keys[keyCount] = Self.signature(base + (index &+ 1), close &- index &- 1)
                keyCount &+= 1
            }
            guard base[Int(truncatingIfNeeded: positions[at &+ 2])] == UInt8(ascii: ":") else { return false }
            at &+= 3
        }
    }
}

extension TapeParser {
    /// Reads the number that fills `start..<stop` exactly (the next position is right after it)
    /// when it is one of the common forms with four to eight bytes after its sign — an integer, or
    /// digits with one decimal point — checked and summed eight bytes at a time (a shorter one costs
    /// less byte by byte); appends what ``readCommonNumber(_:_:_:_:)`` would append. `false`, having
    /// written nothing, for anything else (which that reads then, and may still accept).
    @inline(__always) static func readShortNumber<Out: EntryAppending>(
        _ base: UnsafePointer<UInt8>, _ end: Int, _ start: Int, _ stop: Int, _ out: inout Out
    ) -> Bool {
        let negative = base[start] == UInt8(ascii: "-")
        let digitsStart = negative ? start &+ 1 : start
        let length = stop &- digitsStart
        guard length >= 4, length <= 8, digitsStart &+ 8 <= end else { return false }
        // The number's bytes, first byte lowest, then '0's up to eight.
        let word = UInt64(littleEndian: UnsafeRawPointer(base + digitsStart).loadUnaligned(as: UInt64.self))
        let unused = UInt64(8 &- length) &* 8
        let bytes = (word &<< unused) &>> unused | (0x3030_3030_3030_3030 << (UInt64(length) &* 8))
        // The first decimal point, if any (the lowest zero byte of `bytes ^ "........"` is exact),
        // made a '0' so that all eight bytes must then be digits (a second point is not).
        let points = bytes ^ 0x2E2E_2E2E_2E2E_2E2E
        let zeros = (points &- 0x0101_0101_0101_0101) & ~points & 0x8080_8080_8080_8080
        let point = zeros == 0 ? length : zeros.trailingZeroBitCount >> 3
        let digits = zeros == 0 ? bytes : bytes &+ (2 &<< (UInt64(point) &* 8))
        guard digits & 0xF0F0_F0F0_F0F0_F0F0 == 0x3030_3030_3030_3030,
            (digits &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0 == 0x3030_3030_3030_3030
        else { return false }
        // A leading zero stands alone before the point or the end; a point has digits on both sides.
        if bytes & 0xFF == 0x30, length > 1, point != 1 { return false }
        if point < length {
            guard point >= 1, point <= length &- 2 else { return false }
            out.append(entry(.numberText, start))
            out.append(UInt64(truncatingIfNeeded: stop &- start))
            return true
        }
        // Eight digits, the first in memory most significant: leading zeros below, then summed in
        // pairs, fours and eights.
        var value = (digits &- 0x3030_3030_3030_3030) &<< unused
        value = value &* 10 &+ (value &>> 8)
        value =
            ((value & 0x0000_00FF_0000_00FF) &* (100 &+ (1_000_000 &<< 32))
                &+ ((value &>> 16) & 0x0000_00FF_0000_00FF) &* (1 &+ (10_000 &<< 32))) &>> 32
        let magnitude = Int64(truncatingIfNeeded: value)
        out.append(entry(.integer))
        out.append(UInt64(bitPattern: negative ? -magnitude : magnitude))
        return true
    }

    /// Reads the number that fills `start..<stop` exactly when it is digits with one decimal point
    /// and 9 to 16 bytes after its sign (a coordinate, a price with many places): checked as two
    /// words that overlap for a shorter one, the point made a '0' so that every byte must then be
    /// a digit; appends what ``readCommonNumber(_:_:_:_:)`` appends for it (its text: a fraction's
    /// value is not computed when it is read). `false`, having written nothing, for anything else.
    @inline(__always) static func readLongDecimal<Out: EntryAppending>(
        _ base: UnsafePointer<UInt8>, _ start: Int, _ stop: Int, _ out: inout Out
    ) -> Bool {
        let digitsStart = base[start] == UInt8(ascii: "-") ? start &+ 1 : start
        let length = stop &- digitsStart
        // Both loads lie within the number: it has at least nine bytes.
        guard length >= 9, length <= 16 else { return false }
        let raw = UnsafeRawPointer(base)
        var first = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: digitsStart, as: UInt64.self))
        var last = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: stop &- 8, as: UInt64.self))
        // The lowest '.' of a word is exact (borrows only run upward); the first word's, or else
        // the last word's (which starts `length - 8` bytes in).
        func lowestPoint(_ word: UInt64) -> Int {
            let points = word ^ 0x2E2E_2E2E_2E2E_2E2E
            let zeros = (points &- 0x0101_0101_0101_0101) & ~points & 0x8080_8080_8080_8080
            return zeros == 0 ? 8 : zeros.trailingZeroBitCount >> 3
        }
        let inFirst = lowestPoint(first)
        let point = inFirst < 8 ? inFirst : (length &- 8) &+ lowestPoint(last)
        // A point with digits on both sides; a leading zero stands alone before it.
        guard point >= 1, point <= length &- 2 else { return false }
        if first & 0xFF == 0x30, point != 1 { return false }
        if point < 8 { first &+= 2 &<< UInt64(point &* 8) }
        if point >= length &- 8 { last &+= 2 &<< UInt64((point &- (length &- 8)) &* 8) }
        func allDigits(_ word: UInt64) -> Bool {
            word & 0xF0F0_F0F0_F0F0_F0F0 == 0x3030_3030_3030_3030
                && (word &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0 == 0x3030_3030_3030_3030
        }
        guard allDigits(first), allDigits(last) else { return false }
        out.append(entry(.numberText, start))
        out.append(UInt64(truncatingIfNeeded: stop &- start))
        return true
    }

    /// Reads the numbers of an array from the position `start` on (each a number of a common form,
    /// ``readCommonNumber(_:_:_:_:)``, that ends where the next position is, separated by commas):
    /// a tight loop, out of line, as ``readNumbers(_:_:from:_:)`` is for the main loop. It stops
    /// before anything else, which the walk then reads. Returns the position after the last number
    /// read (its separator), how many were read, and the tape.
    @inline(never) fileprivate static func walkNumbers(
        _ base: UnsafePointer<UInt8>, _ end: Int, _ positions: UnsafePointer<UInt32>, from start: Int, _ total: Int,
        _ out: ReservedEntries
    ) -> (at: Int, values: Int, out: ReservedEntries) {
        var out = out
        var at = start
        var values = 0
        // `at` is the position of a number's first byte, after a comma (at `at - 1`) from the second
        // on; the position after it, if any, its separator. A number not read leaves the walk at
        // the comma before it (when it is not the first).
        while true {
            let separator = at &+ 1
            guard separator < total else { return (at &- 1, values, out) }
            var cursor = Int(truncatingIfNeeded: positions[at])
            let next = Int(truncatingIfNeeded: positions[separator])
            // Nothing appended when the number has another form; a number that does not end at
            // the separator (whitespace, or a byte that continues it) is left to the walk too.
            if !readShortNumber(base, end, cursor, next, &out) {
                let mark = out.count
                guard readCommonNumber(base, end, &cursor, &out) else { return (at &- 1, values, out) }
                guard cursor == next else {
                    out.count = mark
                    return (at &- 1, values, out)
                }
            }
            values &+= 1
            guard base[next] == UInt8(ascii: ","), separator &+ 1 < total else { return (separator, values, out) }
            let following = base[Int(truncatingIfNeeded: positions[separator &+ 1])]
            guard following &- UInt8(ascii: "0") < 10 || following == UInt8(ascii: "-") else {
                return (separator, values, out)
            }
            at = separator &+ 1
        }
    }
}

/// How the walk reads strings, chosen once a text (a type, so that each way is compiled on its own).
protocol StringReading {
    /// Whether a string may have escapes (the input has a backslash), and is read in full.
    static var mayHaveEscapes: Bool { get }
}

/// The input has a backslash: strings are read in full.
enum Escapes: StringReading {
    static var mayHaveEscapes: Bool { true }
}

/// The input has no backslash: a string is the bytes between its quotes.
enum NoEscapes: StringReading {
    static var mayHaveEscapes: Bool { false }
}
