#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Parses UTF-8 bytes into a ``Tape``: strict RFC 8259, iterative (an explicit stack, so depth
/// costs no machine stack), and allocation-free per token.
struct TapeParser {
    let input: UnsafeBufferPointer<UInt8>
    let options: JSONParserOptions
    var entries: EntryBuffer
    var strings: [UInt8] = []
    var position = 0
    /// The fingerprints of the keys of the open objects, innermost last (see ``checkDuplicateKeys``).
    var keySignatures = ScratchStack<UInt64>()

    init(input: UnsafeBufferPointer<UInt8>, options: JSONParserOptions) {
        self.input = input
        self.options = options
        entries = EntryBuffer(capacity: input.count / 3 + 16)
    }

    private func fail(_ reason: JSONParseError.Reason, _ detail: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(reason, detail, at: offset ?? position, in: input)
    }

    private func describe(_ offset: Int) -> String {
        guard offset < input.count else { return "the end of the input" }
        let byte = input[offset]
        if byte < 0x20 { return "control character U+" + String(byte, radix: 16, uppercase: true).leftPadded(4) }
        if byte >= 0x80 {
            var end = offset + 1
            while end < input.count, input[end] & 0xC0 == 0x80 { end += 1 }
            return "\"" + String(decoding: UnsafeBufferPointer(rebasing: input[offset..<end]), as: UTF8.self) + "\""
        }
        return "\"" + String(UnicodeScalar(byte)) + "\""
    }

    @inline(__always) private mutating func skipWhitespace() {
        while position < input.count {
            let byte = input[position]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            position += 1
        }
    }

    mutating func parse() throws(JSONParseError) {
        guard input.count <= options.maximumBytes else {
            throw fail(
                .sizeLimitExceeded, "the input is \(input.count) bytes long, over the limit of \(options.maximumBytes)",
                at: options.maximumBytes)
        }
        if options.skipsByteOrderMark, input.count >= 3, input[0] == 0xEF, input[1] == 0xBB, input[2] == 0xBF {
            position = 3
        }
        skipWhitespace()
        guard position < input.count else { throw fail(.empty, "no JSON value in the input") }
        // Small scratch buffers on the machine stack; they move to the heap only for deep or wide input.
        try withUnsafeTemporaryAllocation(of: Int.self, capacity: 64) { (stackBuffer) throws(JSONParseError) in
            try withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 64) {
                (signatureBuffer) throws(JSONParseError) in
                var stack = ScratchStack(inline: stackBuffer)
                keySignatures = ScratchStack(inline: signatureBuffer)
                defer {
                    stack.release()
                    keySignatures.release()
                }
                try parseValues(&stack)
            }
        }
    }

    private mutating func parseValues(_ stack: inout ScratchStack<Int>) throws(JSONParseError) {
        // The innermost open container's count of values so far, kept here rather than on the tape
        // (where an increment per value would wait on the one before): written to the container's
        // second entry when a child container opens or it closes, read back when the child closes.
        var count: UInt64 = 0
        while true {
            skipWhitespace()
            guard position < input.count else { throw fail(.unexpectedEnd, "the input ends where a value should be") }
            var completed = true
            switch input[position] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = input[position] == UInt8(ascii: "{")
                guard stack.count < options.maximumDepth else {
                    throw fail(.depthLimitExceeded, "arrays and objects nested deeper than \(options.maximumDepth)")
                }
                if let parent = stack.last { entries[parent + 1] = count }
                count = 0
                stack.append(entries.count)
                entries.append(entry(isObject ? .objectStart : .arrayStart))
                entries.append(0)
                position += 1
                skipWhitespace()
                if position < input.count, input[position] == UInt8(ascii: isObject ? "}" : "]") {
                    position += 1
                    try close(stack.removeLast())
                    if let parent = stack.last { count = entries[parent + 1] }
                } else {
                    if isObject { try parseKey() }
                    completed = false
                }
            case UInt8(ascii: "\""):
                try parseString(asKey: false)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try parsePlainNumber()
            case UInt8(ascii: "t"):
                try parseLiteral("true", .true)
            case UInt8(ascii: "f"):
                try parseLiteral("false", .false)
            case UInt8(ascii: "n"):
                try parseLiteral("null", .null)
            case UInt8(ascii: "N"), UInt8(ascii: "I"):
                throw nonStandardOrUnexpected()
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                throw fail(.unexpectedCharacter, "expected a value, found \(describe(position))")
            default:
                throw unexpected("expected a value")
            }
            guard completed else { continue }
            // After a value: count it in its container, then a comma or the container's end.
            while true {
                guard let top = stack.last else {
                    skipWhitespace()
                    if position < input.count {
                        if let bad = invalidUTF8(at: position) { throw bad }
                        throw fail(.trailingContent, "unexpected \(describe(position)) after the JSON value")
                    }
                    return
                }
                count &+= 1
                skipWhitespace()
                guard position < input.count else {
                    throw fail(
                        .unexpectedEnd,
                        "the input ends inside an \(tag(of: entries[top]) == .objectStart ? "object" : "array")")
                }
                let isObject = tag(of: entries[top]) == .objectStart
                let byte = input[position]
                if byte == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                    if position < input.count, input[position] == UInt8(ascii: isObject ? "}" : "]") {
                        throw fail(
                            .trailingComma, "trailing comma before \"\(isObject ? "}" : "]")\"", at: position - 1)
                    }
                    if isObject { try parseKey() }
                    break
                }
                if byte == UInt8(ascii: isObject ? "}" : "]") {
                    position += 1
                    entries[top + 1] = count
                    try close(stack.removeLast())
                    if let parent = stack.last { count = entries[parent + 1] }
                    continue
                }
                throw unexpected(
                    "expected \",\" or \"\(isObject ? "}" : "]")\" after \(isObject ? "a member" : "an element")")
            }
        }
    }

    /// An error for the byte at `position`: invalid UTF-8 when it starts no valid sequence, else an
    /// unexpected character.
    private func unexpected(_ expectation: String) -> JSONParseError {
        if let bad = invalidUTF8(at: position) { return bad }
        return fail(.unexpectedCharacter, "\(expectation), found \(describe(position))")
    }

    /// The UTF-8 error at `offset`, if the bytes there are not UTF-8 (outside strings every
    /// non-ASCII byte is an error; this picks the clearer message).
    private func invalidUTF8(at offset: Int) -> JSONParseError? {
        guard offset < input.count, input[offset] >= 0x80 else { return nil }
        let end = min(input.count, offset + 4)
        guard let bad = firstInvalidUTF8(in: UnsafeBufferPointer(rebasing: input[offset..<end])) else { return nil }
        return fail(
            .invalidUTF8, "invalid UTF-8 byte 0x" + String(input[offset + bad], radix: 16, uppercase: true),
            at: offset + bad)
    }

    private func nonStandardOrUnexpected() -> JSONParseError {
        for literal in ["NaN", "Infinity", "-Infinity"] {
            let bytes = Array(literal.utf8)
            if position + bytes.count <= input.count, Array(input[position..<position + bytes.count]) == bytes {
                return fail(.nonStandardLiteral, "\(literal) is not a JSON value")
            }
        }
        return unexpected("expected a value")
    }

    private mutating func parseLiteral(_ literal: StaticString, _ tag: Tag) throws(JSONParseError) {
        let length = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        guard position + length <= input.count else {
            throw fail(.invalidLiteral, "expected \(literal), found \(describe(position))")
        }
        for offset in 0..<length where input[position + offset] != start[offset] {
            throw fail(.invalidLiteral, "expected \(literal)", at: position + offset)
        }
        position += length
        entries.append(entry(tag))
    }

    private mutating func parseKey() throws(JSONParseError) {
        guard position < input.count else { throw fail(.unexpectedEnd, "the input ends where a key should be") }
        guard input[position] == UInt8(ascii: "\"") else { throw unexpected("expected a key in double quotes") }
        try parseString(asKey: true)
        if position < input.count, input[position] == UInt8(ascii: ":") {
            position += 1
            return
        }
        skipWhitespace()
        guard position < input.count, input[position] == UInt8(ascii: ":") else {
            throw unexpected("expected \":\" after a key")
        }
        position += 1
    }

    // MARK: Strings

    /// The index of the first quote, backslash or control character at or after `start` (or the
    /// input's end), read eight bytes at a time; the bytes passed over are or-ed into `highBits`, so
    /// that non-ASCII text is seen.
    @inline(__always) private func scanPlainRun(from start: Int, _ highBits: inout UInt64) -> Int {
        var index = start
        let end = input.count
        let base = input.baseAddress!
        while index + 8 <= end {
            // Little-endian, so that the lowest bits are the first byte.
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let quote = word ^ 0x2222_2222_2222_2222
            let backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
            let special =
                (((quote &- 0x0101_0101_0101_0101) & ~quote)
                    | ((backslash &- 0x0101_0101_0101_0101) & ~backslash)
                    | ((word &- 0x2020_2020_2020_2020) & ~word)) & 0x8080_8080_8080_8080
            if special == 0 {
                highBits |= word
                index += 8
                continue
            }
            // The lowest flagged byte is exact (borrows only run upward): stop there.
            let ordinary = special.trailingZeroBitCount >> 3
            highBits |= word & ((1 &<< UInt64(ordinary &* 8)) &- 1)
            return index + ordinary
        }
        while index < end {
            let byte = base[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { return index }
            highBits |= UInt64(byte)
            index += 1
        }
        return index
    }

    /// Reads the string whose opening quote is at `position`. One without escapes or control
    /// characters (most strings) is scanned and recorded here, inline, with non-ASCII text then
    /// checked as UTF-8; any other goes on from where the scan stopped in ``parseEscapedString``.
    @inline(__always) private mutating func parseString(asKey: Bool) throws(JSONParseError) {
        let start = position + 1
        var highBits: UInt64 = 0
        let index = scanPlainRun(from: start, &highBits)
        guard index < input.count, input[index] == UInt8(ascii: "\"") else {
            try parseEscapedString(asKey: asKey, stoppedAt: index, highBits: highBits)
            return
        }
        if highBits & 0x8080_8080_8080_8080 != 0 { try Self.validateUTF8(start..<index, of: input) }
        entries.append(entry(.rawString, start))
        entries.append(UInt64(index &- start))
        if asKey { keySignatures.append(Self.signature(input.baseAddress! + start, index &- start)) }
        position = index + 1
    }

    /// The rest of a string whose plain scan stopped at `stop` (not a closing quote): escapes are
    /// decoded into `strings`; the input's end or a control character is an error.
    private mutating func parseEscapedString(asKey: Bool, stoppedAt stop: Int, highBits: UInt64)
        throws(JSONParseError)
    {
        let open = position
        let start = position + 1
        let end = input.count
        var index = stop
        guard index < end else { throw fail(.unexpectedEnd, "the string is not closed", at: open) }
        guard input[index] == UInt8(ascii: "\\") else {
            throw fail(.controlCharacterInString, "\(describe(index)) must be escaped in a string", at: index)
        }
        // Escapes: decode into `strings`. The rest of the string is validated as UTF-8 as it is copied.
        if highBits & 0x8080_8080_8080_8080 != 0 { try Self.validateUTF8(start..<index, of: input) }
        let decodedStart = strings.count
        strings.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<index]))
        while true {
            guard index < end else { throw fail(.unexpectedEnd, "the string is not closed", at: open) }
            let byte = input[index]
            switch byte {
            case UInt8(ascii: "\""):
                let length = strings.count - decodedStart
                entries.append(entry(.escapedString, open + 1))
                entries.append(UInt64(decodedStart) << 32 | UInt64(length))
                if asKey {
                    keySignatures.append(
                        strings.withUnsafeBufferPointer { Self.signature($0.baseAddress! + decodedStart, length) })
                }
                position = index + 1
                return
            case UInt8(ascii: "\\"):
                index = try decodeEscape(at: index)
            case 0..<0x20:
                throw fail(.controlCharacterInString, "\(describe(index)) must be escaped in a string", at: index)
            case 0x80...:
                // Copy a whole UTF-8 sequence after checking it.
                let sequenceEnd = min(end, index + 4)
                let valid = firstInvalidUTF8(in: UnsafeBufferPointer(rebasing: input[index..<sequenceEnd]))
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                if let valid, valid < length {
                    throw fail(
                        .invalidUTF8,
                        "invalid UTF-8 byte 0x" + String(input[index + valid], radix: 16, uppercase: true),
                        at: index + valid)
                }
                strings.append(contentsOf: UnsafeBufferPointer(rebasing: input[index..<index + length]))
                index += length
            default:
                strings.append(byte)
                index += 1
            }
        }
    }

    /// Checks `range` of `input` as UTF-8 (static: the parser is not copied to call it).
    private static func validateUTF8(_ range: Range<Int>, of input: UnsafeBufferPointer<UInt8>) throws(JSONParseError) {
        if let bad = firstInvalidUTF8(in: UnsafeBufferPointer(rebasing: input[range])) {
            let offset = range.lowerBound + bad
            throw JSONParseError(
                .invalidUTF8, "invalid UTF-8 byte 0x" + String(input[offset], radix: 16, uppercase: true), at: offset,
                in: input)
        }
    }

    /// A cheap fingerprint of a key: its length and its first and last bytes. Keys with different
    /// fingerprints differ; equal fingerprints are compared byte by byte.
    @inline(__always) static func signature(_ pointer: UnsafePointer<UInt8>, _ length: Int) -> UInt64 {
        guard length > 0 else { return 0 }
        return UInt64(length) << 16 | UInt64(pointer[0]) << 8 | UInt64(pointer[length - 1])
    }

    /// Decodes the escape at `index` (a backslash) into `strings`; returns the index after it.
    private mutating func decodeEscape(at index: Int) throws(JSONParseError) -> Int {
        guard index + 1 < input.count else { throw fail(.unexpectedEnd, "the string is not closed", at: index) }
        let simple: UInt8
        switch input[index + 1] {
        case UInt8(ascii: "\""): simple = 0x22
        case UInt8(ascii: "\\"): simple = 0x5C
        case UInt8(ascii: "/"): simple = 0x2F
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            let first = try hex4(at: index + 2, escapeAt: index)
            var next = index + 6
            var scalarValue = first
            if (0xD800...0xDBFF).contains(first) {
                if next + 6 <= input.count, input[next] == UInt8(ascii: "\\"), input[next + 1] == UInt8(ascii: "u"),
                    let second = try? hex4(at: next + 2, escapeAt: next), (0xDC00...0xDFFF).contains(second)
                {
                    scalarValue = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                    next += 6
                } else {
                    scalarValue = try unpaired(first, at: index)
                }
            } else if (0xDC00...0xDFFF).contains(first) {
                scalarValue = try unpaired(first, at: index)
            }
            appendUTF8(Unicode.Scalar(scalarValue)!)
            return next
        default:
            throw fail(.invalidEscape, "\\\(describe(index + 1).trimmingQuotes) is not a JSON escape", at: index)
        }
        strings.append(simple)
        return index + 2
    }

    private func unpaired(_ value: UInt32, at index: Int) throws(JSONParseError) -> UInt32 {
        guard options.unpairedSurrogates == .replace else {
            throw fail(
                .unpairedSurrogate,
                "\\u" + String(value, radix: 16, uppercase: true) + " is half of a surrogate pair with no other half",
                at: index)
        }
        return 0xFFFD
    }

    private func hex4(at index: Int, escapeAt escape: Int) throws(JSONParseError) -> UInt32 {
        guard index + 4 <= input.count else { throw fail(.invalidEscape, "\\u needs four hex digits", at: escape) }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = input[index + offset]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw fail(.invalidEscape, "\\u needs four hex digits", at: escape)
            }
            value = value << 4 | digit
        }
        return value
    }

    private mutating func appendUTF8(_ scalar: Unicode.Scalar) {
        for unit in UTF8.encode(scalar)! { strings.append(unit) }
    }

    // MARK: Numbers

    /// The common numbers read inline: an integer of at most 18 digits, with or without a fraction,
    /// without an exponent. Anything else (a leading zero before a digit, an exponent, a long
    /// integer, an error) is left to ``parseNumber()``, which reads it again from the start.
    @inline(__always) private mutating func parsePlainNumber() throws(JSONParseError) {
        let base = input.baseAddress!
        let end = input.count
        let start = position
        var index = start
        let negative = base[index] == UInt8(ascii: "-")
        if negative { index &+= 1 }
        guard index < end else { return try parseNumber() }
        var magnitude: UInt64 = 0
        let digitsStart = index
        if base[index] == UInt8(ascii: "0") {
            index &+= 1
        } else {
            while index < end {
                let digit = base[index] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                magnitude = magnitude &* 10 &+ UInt64(digit)
                index &+= 1
            }
        }
        let digits = index &- digitsStart
        guard digits > 0, digits <= 18 else { return try parseNumber() }
        guard index < end else {
            position = index
            entries.append(entry(.integer))
            entries.append(UInt64(bitPattern: negative ? -Int64(magnitude) : Int64(magnitude)))
            return
        }
        var next = base[index]
        if next == UInt8(ascii: ".") {
            index &+= 1
            let fractionStart = index
            while index < end, base[index] &- UInt8(ascii: "0") < 10 { index &+= 1 }
            guard index > fractionStart else { return try parseNumber() }
            next = index < end ? base[index] : 0
            guard next | 0x20 != UInt8(ascii: "e") else { return try parseNumber() }
            position = index
            entries.append(entry(.numberText, start))
            entries.append(UInt64(index &- start))
            return
        }
        // A digit after a leading zero is an error, an exponent needs the full reading.
        guard next &- UInt8(ascii: "0") >= 10, next | 0x20 != UInt8(ascii: "e") else { return try parseNumber() }
        position = index
        entries.append(entry(.integer))
        entries.append(UInt64(bitPattern: negative ? -Int64(magnitude) : Int64(magnitude)))
    }

    private mutating func parseNumber() throws(JSONParseError) {
        let start = position
        var index = position
        let end = input.count
        let negative = input[index] == UInt8(ascii: "-")
        if negative {
            index += 1
            if index < end, input[index] == UInt8(ascii: "I") {
                position = start
                throw nonStandardOrUnexpected()
            }
        }
        guard index < end, input[index] >= 0x30 && input[index] <= 0x39 else {
            throw fail(.invalidNumber, "\"-\" must be followed by a digit", at: start)
        }
        var magnitude: UInt64 = 0
        var digits = 0
        if input[index] == 0x30 {
            index += 1
            if index < end, input[index] >= 0x30 && input[index] <= 0x39 {
                throw fail(.leadingZero, "numbers cannot have leading zeros", at: start)
            }
            digits = 1
        } else {
            while index < end, input[index] >= 0x30 && input[index] <= 0x39 {
                magnitude = magnitude &* 10 &+ UInt64(input[index] - 0x30)
                digits += 1
                index += 1
            }
        }
        var isInteger = true
        if index < end, input[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            let fractionStart = index
            while index < end, input[index] >= 0x30 && input[index] <= 0x39 { index += 1 }
            if index == fractionStart {
                throw fail(.invalidNumber, "a decimal point must be followed by a digit", at: index)
            }
        }
        if index < end, input[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            let mantissa = (negative ? start + 1 : start)..<index
            index += 1
            let negativeExponent = index < end && input[index] == UInt8(ascii: "-")
            if index < end, input[index] == UInt8(ascii: "+") || input[index] == UInt8(ascii: "-") { index += 1 }
            let exponentStart = index
            while index < end, input[index] >= 0x30 && input[index] <= 0x39 { index += 1 }
            if index == exponentStart { throw fail(.invalidNumber, "an exponent needs digits", at: index) }
            let fits = JSONNumber.exponentIsKept(
                input, mantissa: mantissa, exponent: exponentStart..<index, negativeExponent: negativeExponent)
            if !fits {
                throw fail(
                    .invalidNumber,
                    "a number's exponent beyond ±\(JSONNumber.maximumExponent) cannot be kept exactly",
                    at: exponentStart)
            }
        }
        position = index
        if isInteger && digits <= 18 {
            let value = negative ? -Int64(magnitude) : Int64(magnitude)
            entries.append(entry(.integer))
            entries.append(UInt64(bitPattern: value))
        } else {
            entries.append(entry(.numberText, start))
            entries.append(UInt64(index - start))
        }
    }

    // MARK: Containers

    private mutating func close(_ start: Int) throws(JSONParseError) {
        let isObject = tag(of: entries[start]) == .objectStart
        let end = entries.count
        entries.append(entry(isObject ? .objectEnd : .arrayEnd, start))
        entries[start] = entry(isObject ? .objectStart : .arrayStart, end)
        if isObject {
            let count = Int(entries[start + 1])
            if count > 1 {
                try checkDuplicateKeys(objectStart: start, count: count)
            } else {
                keySignatures.removeLast(count)
            }
        }
    }

    /// Checks the keys of the object that just closed; their fingerprints are the last `count`
    /// entries of `keySignatures`, in order, and are removed.
    private mutating func checkDuplicateKeys(objectStart start: Int, count: Int) throws(JSONParseError) {
        let end = payload(of: entries[start])
        let first = keySignatures.count - count
        defer { keySignatures.removeLast(count) }
        let mine = UnsafeBufferPointer(rebasing: keySignatures.buffer[first..<keySignatures.count])
        var found = false
        if count <= 32 {
            // An open-addressing table of 64 fingerprints on the stack, its used slots in one word:
            // each key is one probe in the common case, and equal fingerprints are found exactly.
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 64) { table in
                var occupied: UInt64 = 0
                for signature in mine {
                    var slot = Int(truncatingIfNeeded: (signature &* 0x9E37_79B9_7F4A_7C15) >> 58)
                    while occupied & (1 &<< UInt64(slot)) != 0 {
                        if table[slot] == signature {
                            found = true
                            return
                        }
                        slot = (slot &+ 1) & 63
                    }
                    occupied |= 1 &<< UInt64(slot)
                    table[slot] = signature
                }
            }
        } else {
            var seen = Set<UInt64>()
            for signature in mine where !seen.insert(signature).inserted {
                found = true
                break
            }
        }
        guard found else { return }
        // A fingerprint matched: find the equal keys through a hash of their bytes, so the cost stays
        // linear however many keys share a fingerprint (200,000 keys `k000001…` share a handful) or a
        // name (50,000 copies of one key). Each name has one live entry, the one kept so far.
        let keepsLast = options.duplicateKeys == .lastWins
        var kept: [Int: Int] = [:]  // hash → the live key of a name with that hash
        var collisions: [Int: [Int]] = [:]  // hash → the live keys of other names with that hash
        var killed = false
        var index = start + 2
        while index < end {
            let key = index
            index = nextValue(after: index + 2)
            let hash = withKeyBytes(key) { bytes in
                var hasher = Hasher()
                hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
                return hasher.finalize()
            }
            guard let other = kept[hash] else {
                kept[hash] = key
                continue
            }
            var earlier: Int?
            if keysEqual(other, key) {
                earlier = other
                if keepsLast { kept[hash] = key }
            } else if let chain = collisions[hash], let slot = chain.firstIndex(where: { keysEqual($0, key) }) {
                earlier = chain[slot]
                if keepsLast { collisions[hash]![slot] = key }
            } else {
                collisions[hash, default: []].append(key)
            }
            guard let earlier else { continue }
            switch options.duplicateKeys {
            case .reject:
                let offset = payload(of: entries[key]) - 1
                let name = withKeyBytes(key) { String(decoding: $0, as: UTF8.self) }
                throw fail(.duplicateKey, "the key \"\(name)\" appears twice in one object", at: offset)
            case .firstWins: kill(key)
            case .lastWins: kill(earlier)
            }
            killed = true
        }
        guard killed else { return }
        var alive = 0
        index = start + 2
        while index < end {
            if tag(of: entries[index]) != .deadKey { alive += 1 }
            index = nextValue(after: index + 2)
        }
        entries[start + 1] = UInt64(alive)
    }

    private mutating func kill(_ key: Int) {
        guard tag(of: entries[key]) != .deadKey else { return }
        let escapedMarker: Int = tag(of: entries[key]) == .escapedString ? 1 << 55 : 0
        entries[key] = entry(.deadKey, payload(of: entries[key]) | escapedMarker)
    }

    private func nextValue(after index: Int) -> Int {
        let current = entries[index]
        switch tag(of: current) {
        case .null, .true, .false, .arrayEnd, .objectEnd: return index + 1
        case .integer, .numberText, .rawString, .escapedString, .deadKey: return index + 2
        case .arrayStart, .objectStart: return payload(of: current) + 1
        }
    }

    /// The start and length of the key at `key`, in the input or in `strings`.
    @inline(__always) private func keySpan(_ key: Int) -> (pointer: UnsafePointer<UInt8>, length: Int) {
        let current = entries[key]
        if tag(of: current) == .rawString {
            return (input.baseAddress! + payload(of: current), Int(entries[key + 1]))
        }
        let packed = entries[key + 1]
        let start = Int(packed >> 32)
        let length = Int(packed & 0xFFFF_FFFF)
        return strings.withUnsafeBufferPointer { ($0.baseAddress! + start, length) }
    }

    private func withKeyBytes<R>(_ key: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        strings.withUnsafeBufferPointer { _ in
            let span = keySpan(key)
            return body(UnsafeBufferPointer(start: span.pointer, count: span.length))
        }
    }

    /// Lengths first (read from the tape), bytes only when they match.
    @inline(__always) private func keysEqual(_ a: Int, _ b: Int) -> Bool {
        strings.withUnsafeBufferPointer { _ in
            let first = keySpan(a)
            let second = keySpan(b)
            guard first.length == second.length else { return false }
            return first.length == 0 || memcmp(first.pointer, second.pointer, first.length) == 0
        }
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }

    fileprivate var trimmingQuotes: String {
        hasPrefix("\"") && hasSuffix("\"") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}

/// The tape being written: a growable buffer of entries without the checks of `Array.append`.
/// Its memory comes from `malloc` (the C allocator answers a plain request faster than an aligned
/// one) and is freed with `free`, by ``discard()`` or by the ``Tape`` it is handed to.
struct EntryBuffer {
    private(set) var base: UnsafeMutablePointer<UInt64>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(16, capacity)
        base = Self.reallocate(nil, capacity: self.capacity)
    }

    @inline(__always) mutating func append(_ value: UInt64) {
        if count == capacity { grow() }
        base[count] = value
        count += 1
    }

    private mutating func grow() {
        capacity *= 2
        base = Self.reallocate(base, capacity: capacity)
    }

    private static func reallocate(_ old: UnsafeMutablePointer<UInt64>?, capacity: Int) -> UnsafeMutablePointer<UInt64>
    {
        // Out of memory ends the process, as any Swift allocation does.
        guard let raw = realloc(old, capacity * MemoryLayout<UInt64>.stride) else { fatalError("out of memory") }
        return raw.bindMemory(to: UInt64.self, capacity: capacity)
    }

    @inline(__always) subscript(index: Int) -> UInt64 {
        get { base[index] }
        nonmutating set { base[index] = newValue }
    }

    /// Hands the entries to a ``Tape``, which frees them with ``free(_:)``.
    func finish() -> UnsafeMutableBufferPointer<UInt64> { UnsafeMutableBufferPointer(start: base, count: count) }

    /// Frees the entries when parsing failed.
    func discard() { Self.free(base) }

    /// Frees entries made by an entry buffer.
    static func free(_ entries: UnsafeMutablePointer<UInt64>?) {
        #if canImport(Glibc)
        Glibc.free(entries)
        #elseif canImport(Musl)
        Musl.free(entries)
        #else
        Darwin.free(entries)
        #endif
    }
}

/// A stack in a caller-provided buffer (on the machine stack) that moves to the heap when it outgrows it.
struct ScratchStack<Element> {
    private(set) var buffer: UnsafeMutableBufferPointer<Element>
    private var ownsBuffer = false
    private(set) var count = 0

    init() { buffer = UnsafeMutableBufferPointer(start: nil, count: 0) }

    init(inline: UnsafeMutableBufferPointer<Element>) { buffer = inline }

    var last: Element? { count > 0 ? buffer[count - 1] : nil }

    @inline(__always) mutating func append(_ value: Element) {
        if count == buffer.count { grow() }
        buffer.baseAddress!.advanced(by: count).initialize(to: value)
        count += 1
    }

    @inline(__always) mutating func removeLast() -> Element {
        count -= 1
        return buffer.baseAddress!.advanced(by: count).move()
    }

    mutating func removeLast(_ k: Int) {
        buffer.baseAddress!.advanced(by: count - k).deinitialize(count: k)
        count -= k
    }

    private mutating func grow() {
        let newBuffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(16, buffer.count * 2))
        if count > 0 { newBuffer.baseAddress!.moveInitialize(from: buffer.baseAddress!, count: count) }
        if ownsBuffer { buffer.deallocate() }
        buffer = newBuffer
        ownsBuffer = true
    }

    /// Frees a heap buffer (the elements are plain integers: nothing to deinitialize).
    mutating func release() {
        if ownsBuffer { buffer.deallocate() }
        buffer = UnsafeMutableBufferPointer(start: nil, count: 0)
        ownsBuffer = false
        count = 0
    }
}
