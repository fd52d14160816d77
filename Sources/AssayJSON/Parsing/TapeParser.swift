#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Parses UTF-8 bytes into a ``Tape``: strict RFC 8259, iterative (an explicit stack, so depth
/// costs no machine stack), and allocation-free per token.
///
/// The main loop (``parseValues(_:)``) keeps its state — the read position, the tape being written,
/// the open containers and the key fingerprints — in local variables, handed to the helpers it
/// inlines as `inout` arguments: a store to the tape through a pointer could otherwise be the store
/// of a field of `self`, and every field would be read from memory again after each one. Helpers
/// that are not inlined get copies and hand back what they changed, so the locals never escape.
struct TapeParser {
    let input: UnsafeBufferPointer<UInt8>
    let options: JSONParserOptions
    var entries: EntryBuffer
    var strings: [UInt8] = []
    var position = 0
    /// The fingerprints (``signature(_:_:)``) of the keys of the open objects, innermost last.
    var keySignatures = ScratchStack<UInt64>()
    /// Memory for ``parseIndexed(level:)``: the caller's to free (or to give to the next parser).
    var scratch: IndexScratch

    /// A parser of `input` that writes into `entries` when given (a recycled buffer), else into a
    /// buffer of its own, and indexes it in `scratch`.
    init(
        input: UnsafeBufferPointer<UInt8>, options: JSONParserOptions, entries: EntryBuffer? = nil,
        scratch: IndexScratch = IndexScratch()
    ) {
        self.input = input
        self.options = options
        self.entries = entries ?? EntryBuffer(capacity: Self.expectedEntries(input.count))
        self.scratch = scratch
    }

    /// Room for the entries of a typical document of `bytes` bytes.
    static func expectedEntries(_ bytes: Int) -> Int { bytes / 3 + 16 }

    private func fail(_ reason: JSONParseError.Reason, _ detail: String, at offset: Int) -> JSONParseError {
        JSONParseError(reason, detail, at: offset, in: input)
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

    /// Moves `index` past spaces, tabs and line breaks. Every token's first byte is above 0x20, so
    /// one comparison ends the common case (minified JSON has no whitespace).
    @inline(__always) static func skipWhitespace(
        _ base: UnsafePointer<UInt8>, _ end: Int, _ index: inout Int
    ) {
        while index < end {
            let byte = base[index]
            guard byte <= 0x20, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            index &+= 1
        }
    }

    /// Parses the input: through its structural index (``parseIndexed(level:)``) where the processor
    /// can build one and the input is not over ``largestIndexedInput``, else — and whenever that
    /// walk stops at anything it does not accept — by the main loop, which finds and reports every
    /// error.
    mutating func parse() throws(JSONParseError) {
        if Self.indexAvailable, input.count <= Self.largestIndexedInput, input.count <= options.maximumBytes,
            parseIndexed()
        {
            return
        }
        try parse(NumberRuns.self)
    }

    /// Parses with long arrays of numbers read by ``readNumbers(_:_:from:_:)`` (`NumberRuns`, what
    /// ``parse()`` does) or by the main loop alone (`MainLoopOnly`, for the test that compares the
    /// two). A type, not a flag: each way is compiled on its own, with the choice constant.
    mutating func parse<Way: ArrayReading>(_ way: Way.Type) throws(JSONParseError) {
        guard input.count <= options.maximumBytes else {
            throw fail(
                .sizeLimitExceeded, "the input is \(input.count) bytes long, over the limit of \(options.maximumBytes)",
                at: options.maximumBytes)
        }
        guard let base = input.baseAddress, input.count > 0 else {
            throw fail(.empty, "no JSON value in the input", at: 0)
        }
        if options.skipsByteOrderMark, input.count >= 3, input[0] == 0xEF, input[1] == 0xBB, input[2] == 0xBF {
            position = 3
        }
        Self.skipWhitespace(base, input.count, &position)
        guard position < input.count else { throw fail(.empty, "no JSON value in the input", at: position) }
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
                try parseValues(&stack, way)
            }
        }
    }

    private mutating func parseValues<Way: ArrayReading>(
        _ containers: inout ScratchStack<Int>, _: Way.Type
    ) throws(JSONParseError) {
        let base = input.baseAddress!
        let end = input.count
        let maximumDepth = options.maximumDepth
        // The loop's state, in locals (see the type's comment); written back however the loop ends.
        var index = position
        var out = entries
        var open = containers
        var keys = keySignatures
        defer {
            position = index
            entries = out
            containers = open
            keySignatures = keys
        }
        // The innermost open container's count of values so far and its kind, kept here rather than
        // on the tape (where an increment per value would wait on the one before): the count is
        // written to the container's second entry when a child container opens or it closes, and
        // both are read back from the tape when a child closes.
        var count: UInt64 = 0
        var inObject = false
        while true {
            // A value, then what follows it; a key, at the end, when one comes next. (Each piece is
            // written once, so that all of it is inlined here.)
            readValue: do {
                Self.skipWhitespace(base, end, &index)
                guard index < end else { throw failure(.valueMissing, at: index) }
                let byte = base[index]
                switch byte {
                case UInt8(ascii: "\""):
                    try readString(asKey: false, &index, &out, &keys)
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    // The common numbers here; anything else (a leading zero before a digit, an
                    // exponent, a long integer, an error) is read again in full by `parseNumber(at:)`.
                    if Self.readCommonNumber(base, end, &index, &out) { break }
                    let start = index
                    let number = try parseNumber(at: start)
                    index = number.end
                    out.append(number.first)
                    out.append(number.second)
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let isObject = byte == UInt8(ascii: "{")
                    guard open.count < maximumDepth else { throw failure(.tooDeep, at: index) }
                    if open.count > 0 { out[open.top &+ 1] = count }
                    open.append(out.count)
                    out.append(entry(isObject ? .objectStart : .arrayStart))
                    out.append(0)
                    index &+= 1
                    Self.skipWhitespace(base, end, &index)
                    if index < end, base[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        // Empty: closed at once, no keys to check.
                        index &+= 1
                        let start = open.removeLast()
                        out[start] = entry(isObject ? .objectStart : .arrayStart, out.count)
                        out.append(entry(isObject ? .objectEnd : .arrayEnd, start))
                        break
                    }
                    count = 0
                    inObject = isObject
                    if isObject { break readValue }
                    continue
                case UInt8(ascii: "t"):
                    try readLiteral("true", .true, &index, &out)
                case UInt8(ascii: "f"):
                    try readLiteral("false", .false, &index, &out)
                case UInt8(ascii: "n"):
                    try readLiteral("null", .null, &index, &out)
                case UInt8(ascii: "N"), UInt8(ascii: "I"):
                    throw failure(.nonStandardValue, at: index)
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    throw failure(.endForValue, at: index)
                default:
                    throw failure(.notAValue, at: index)
                }
                // After a value: count it in its container, then a comma or the container's end.
                while true {
                    guard open.count > 0 else {
                        Self.skipWhitespace(base, end, &index)
                        if index < end { throw failure(.trailingContent, at: index) }
                        return
                    }
                    count &+= 1
                    Self.skipWhitespace(base, end, &index)
                    guard index < end else { throw failure(.endInside(object: inObject), at: index) }
                    let closing = inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                    let byte = base[index]
                    if byte == UInt8(ascii: ",") {
                        // The third element of an array on: a long array of numbers is read by
                        // `readNumbers` (a call would cost a pair of coordinates more than it saves).
                        if Way.readsNumberRuns, !inObject, count >= 2, index &+ 1 < end,
                            base[index &+ 1] &- UInt8(ascii: "0") < 10 || base[index &+ 1] == UInt8(ascii: "-")
                        {
                            let run = Self.readNumbers(base, end, from: index, out)
                            out = run.out
                            if run.values > 0 {
                                // On after the last number read, counted there as any value is.
                                index = run.index
                                count &+= UInt64(run.values &- 1)
                                continue
                            }
                        }
                        index &+= 1
                        Self.skipWhitespace(base, end, &index)
                        if index < end, base[index] == closing {
                            throw failure(.trailingComma(object: inObject), at: index - 1)
                        }
                        if inObject { break readValue }
                        break
                    }
                    guard byte == closing else { throw failure(.separatorMissing(object: inObject), at: index) }
                    index &+= 1
                    let start = open.removeLast()
                    out[start &+ 1] = count
                    out[start] = entry(inObject ? .objectStart : .arrayStart, out.count)
                    out.append(entry(inObject ? .objectEnd : .arrayEnd, start))
                    if inObject {
                        try closeObject(start, count: Int(count), &out, &keys)
                    }
                    if open.count > 0 {
                        let parent = open.top
                        count = out[parent &+ 1]
                        inObject = tag(of: out[parent]) == .objectStart
                    }
                }
                continue
            }
            // A key and its colon (whitespace before the key is skipped).
            guard index < end, base[index] == UInt8(ascii: "\"") else { throw failure(.keyMissing, at: index) }
            try readString(asKey: true, &index, &out, &keys)
            if index < end, base[index] == UInt8(ascii: ":") {
                index &+= 1
            } else {
                Self.skipWhitespace(base, end, &index)
                guard index < end, base[index] == UInt8(ascii: ":") else { throw failure(.colonMissing, at: index) }
                index &+= 1
            }
        }
    }

    /// The errors the main loop finds, described out of line: their messages are built only when
    /// one is thrown, and the loop stays small enough for its helpers to be inlined into it.
    private enum Failure {
        case valueMissing, tooDeep, nonStandardValue, endForValue, notAValue, trailingContent
        case endInside(object: Bool), trailingComma(object: Bool), separatorMissing(object: Bool)
        case keyMissing, colonMissing
        /// `literal` does not follow at the index (the error is located at its first wrong byte).
        case literal(StaticString)
    }

    @inline(never) private func failure(_ failure: Failure, at index: Int) -> JSONParseError {
        switch failure {
        case .valueMissing:
            return fail(.unexpectedEnd, "the input ends where a value should be", at: index)
        case .tooDeep:
            return fail(.depthLimitExceeded, "arrays and objects nested deeper than \(options.maximumDepth)", at: index)
        case .nonStandardValue:
            return nonStandardOrUnexpected(at: index)
        case .endForValue:
            return fail(.unexpectedCharacter, "expected a value, found \(describe(index))", at: index)
        case .notAValue:
            return unexpected("expected a value", at: index)
        case .trailingContent:
            if let bad = invalidUTF8(at: index) { return bad }
            return fail(.trailingContent, "unexpected \(describe(index)) after the JSON value", at: index)
        case .endInside(let object):
            return fail(.unexpectedEnd, "the input ends inside an \(object ? "object" : "array")", at: index)
        case .trailingComma(let object):
            return fail(.trailingComma, "trailing comma before \"\(object ? "}" : "]")\"", at: index)
        case .separatorMissing(let object):
            return unexpected(
                "expected \",\" or \"\(object ? "}" : "]")\" after \(object ? "a member" : "an element")", at: index)
        case .keyMissing:
            guard index < input.count else {
                return fail(.unexpectedEnd, "the input ends where a key should be", at: index)
            }
            return unexpected("expected a key in double quotes", at: index)
        case .colonMissing:
            return unexpected("expected \":\" after a key", at: index)
        case .literal(let literal):
            let length = literal.utf8CodeUnitCount
            guard index + length <= input.count else {
                return fail(.invalidLiteral, "expected \(literal), found \(describe(index))", at: index)
            }
            let expected = UnsafeBufferPointer(start: literal.utf8Start, count: length)
            let wrong = (0..<length).first { input[index + $0] != expected[$0] } ?? 0
            return fail(.invalidLiteral, "expected \(literal)", at: index + wrong)
        }
    }

    /// An error for the byte at `index`: invalid UTF-8 when it starts no valid sequence, else an
    /// unexpected character.
    private func unexpected(_ expectation: String, at index: Int) -> JSONParseError {
        if let bad = invalidUTF8(at: index) { return bad }
        return fail(.unexpectedCharacter, "\(expectation), found \(describe(index))", at: index)
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

    private func nonStandardOrUnexpected(at index: Int) -> JSONParseError {
        for literal in ["NaN", "Infinity", "-Infinity"] {
            let bytes = Array(literal.utf8)
            if index + bytes.count <= input.count, Array(input[index..<index + bytes.count]) == bytes {
                return fail(.nonStandardLiteral, "\(literal) is not a JSON value", at: index)
            }
        }
        return unexpected("expected a value", at: index)
    }

    /// Reads the number at `index` when it has one of the common forms — an integer of at most 18
    /// digits, with or without a fraction, without an exponent — and appends its two entries;
    /// returns `false`, having read and written nothing, for any other number or an error.
    @inline(__always) static func readCommonNumber<Out: EntryAppending>(
        _ base: UnsafePointer<UInt8>, _ end: Int, _ index: inout Int, _ out: inout Out
    ) -> Bool {
        let start = index
        var cursor = start
        let negative = base[start] == UInt8(ascii: "-")
        if negative { cursor &+= 1 }
        var magnitude: UInt64 = 0
        let digitsStart = cursor
        if cursor < end, base[cursor] == UInt8(ascii: "0") {
            cursor &+= 1
        } else {
            while cursor < end {
                let digit = base[cursor] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                magnitude = magnitude &* 10 &+ UInt64(digit)
                cursor &+= 1
            }
        }
        let digits = cursor &- digitsStart
        guard digits > 0, digits <= 18 else { return false }
        let next = cursor < end ? base[cursor] : 0
        if next == UInt8(ascii: ".") {
            cursor &+= 1
            let fractionStart = cursor
            while cursor < end, base[cursor] &- UInt8(ascii: "0") < 10 { cursor &+= 1 }
            guard cursor > fractionStart, cursor == end || base[cursor] | 0x20 != UInt8(ascii: "e") else {
                return false
            }
            index = cursor
            out.append(entry(.numberText, start))
            out.append(UInt64(cursor &- start))
            return true
        }
        // Not a digit after a leading zero (an error), not an exponent.
        guard next &- UInt8(ascii: "0") >= 10, next | 0x20 != UInt8(ascii: "e") else { return false }
        index = cursor
        out.append(entry(.integer))
        out.append(UInt64(bitPattern: negative ? -Int64(magnitude) : Int64(magnitude)))
        return true
    }

    /// Reads the numbers of an array that follow the comma at `comma`, as long as they have a
    /// common form (``readCommonNumber(_:_:_:_:)``) and are separated by commas: a tight loop, out
    /// of line, that keeps its few values in registers where the main loop cannot (its state is
    /// more than x86-64 has registers for). A number of a long array — readings, vectors, series —
    /// costs about three quarters of the instructions it costs in the main loop.
    ///
    /// It stops before anything else: another kind of value, a number of another form, an error
    /// of any kind, which the main loop then reads from the comma before it as it would have
    /// without the run (every error is found and reported by the main loop). Returns the index
    /// after the last number read (at its comma, the array's end or whatever follows it), how many
    /// were read, and the tape.
    @inline(never) private static func readNumbers(
        _ base: UnsafePointer<UInt8>, _ end: Int, from comma: Int, _ out: EntryBuffer
    ) -> (index: Int, values: Int, out: EntryBuffer) {
        var out = out
        var index = comma
        var values = 0
        // `index` is at a comma after a value.
        while true {
            var cursor = index &+ 1
            skipWhitespace(base, end, &cursor)
            guard cursor < end, base[cursor] &- UInt8(ascii: "0") < 10 || base[cursor] == UInt8(ascii: "-"),
                readCommonNumber(base, end, &cursor, &out)
            else { return (index, values, out) }
            values &+= 1
            skipWhitespace(base, end, &cursor)
            index = cursor
            guard cursor < end, base[cursor] == UInt8(ascii: ",") else { return (index, values, out) }
        }
    }

    @inline(__always) private func readLiteral(
        _ literal: StaticString, _ tag: Tag, _ index: inout Int, _ out: inout EntryBuffer
    ) throws(JSONParseError) {
        let length = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        guard index &+ length <= input.count else { throw failure(.literal(literal), at: index) }
        for offset in 0..<length where input[index &+ offset] != start[offset] {
            throw failure(.literal(literal), at: index)
        }
        index &+= length
        out.append(entry(tag))
    }

    // MARK: Strings

    /// The index of the first quote, backslash or control character at or after `start` (or the
    /// input's end), read eight bytes at a time; the bytes passed over are or-ed into `highBits`, so
    /// that non-ASCII text is seen.
    @inline(__always) private static func scanPlainRun(
        _ base: UnsafePointer<UInt8>, _ end: Int, from start: Int, _ highBits: inout UInt64
    ) -> Int {
        var index = start
        while index &+ 8 <= end {
            // Little-endian, so that the lowest bits are the first byte.
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let special = bytesToEscape(in: word)
            if special == 0 {
                highBits |= word
                index &+= 8
                continue
            }
            // The lowest flagged byte is exact (borrows only run upward): stop there.
            let ordinary = special.trailingZeroBitCount >> 3
            highBits |= word & ((1 &<< UInt64(ordinary &* 8)) &- 1)
            return index &+ ordinary
        }
        while index < end {
            let byte = base[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { return index }
            highBits |= UInt64(byte)
            index &+= 1
        }
        return index
    }

    /// Reads the string whose opening quote is at `index`. One without escapes or control
    /// characters (most strings) is scanned and recorded here, inline, with non-ASCII text then
    /// checked as UTF-8; any other goes on from where the scan stopped in ``parseEscapedString``.
    /// A key's fingerprint is appended to `keys`.
    @inline(__always) mutating func readString(
        asKey: Bool, _ index: inout Int, _ out: inout EntryBuffer, _ keys: inout ScratchStack<UInt64>
    ) throws(JSONParseError) {
        let base = input.baseAddress!
        let start = index &+ 1
        var highBits: UInt64 = 0
        let stop = Self.scanPlainRun(base, input.count, from: start, &highBits)
        guard stop < input.count, base[stop] == UInt8(ascii: "\"") else {
            // Copies in and out: the locals are not handed to a function that is not inlined.
            var entriesCopy = out
            var keysCopy = keys
            let result = parseEscapedString(
                asKey: asKey, open: index, stoppedAt: stop, highBits: highBits, &entriesCopy, &keysCopy)
            out = entriesCopy
            keys = keysCopy
            index = try result.get()
            return
        }
        if highBits & 0x8080_8080_8080_8080 != 0 { try Self.validateUTF8(start..<stop, of: input) }
        out.append(entry(.rawString, start))
        out.append(UInt64(stop &- start))
        if asKey { keys.append(Self.signature(base + start, stop &- start)) }
        index = stop &+ 1
    }

    /// The rest of a string whose plain scan stopped at `stop` (not a closing quote): escapes are
    /// decoded into `strings`; the input's end or a control character is an error. Returns the
    /// index after the closing quote.
    private mutating func parseEscapedString(
        asKey: Bool, open: Int, stoppedAt stop: Int, highBits: UInt64, _ out: inout EntryBuffer,
        _ keys: inout ScratchStack<UInt64>
    ) -> Result<Int, JSONParseError> {
        let start = open + 1
        let end = input.count
        var index = stop
        guard index < end else { return .failure(fail(.unexpectedEnd, "the string is not closed", at: open)) }
        guard input[index] == UInt8(ascii: "\\") else {
            return .failure(
                fail(.controlCharacterInString, "\(describe(index)) must be escaped in a string", at: index))
        }
        // Escapes: decode into `strings`. The rest of the string is validated as UTF-8 as it is copied.
        if highBits & 0x8080_8080_8080_8080 != 0 {
            do throws(JSONParseError) { try Self.validateUTF8(start..<index, of: input) } catch {
                return .failure(error)
            }
        }
        let decodedStart = strings.count
        strings.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<index]))
        while true {
            guard index < end else { return .failure(fail(.unexpectedEnd, "the string is not closed", at: open)) }
            let byte = input[index]
            switch byte {
            case UInt8(ascii: "\""):
                let length = strings.count - decodedStart
                out.append(entry(.escapedString, open + 1))
                out.append(UInt64(decodedStart) << 32 | UInt64(length))
                if asKey {
                    keys.append(
                        strings.withUnsafeBufferPointer { Self.signature($0.baseAddress! + decodedStart, length) })
                }
                return .success(index + 1)
            case UInt8(ascii: "\\"):
                do throws(JSONParseError) { index = try decodeEscape(at: index) } catch { return .failure(error) }
            case 0..<0x20:
                return .failure(
                    fail(.controlCharacterInString, "\(describe(index)) must be escaped in a string", at: index))
            default:
                // The run of plain bytes from here to the next quote, backslash or control
                // character, found eight bytes at a time, checked as UTF-8 when it is not ASCII (as
                // a string without escapes is) and copied at once: a long string after its first
                // escape was copied a byte at a time, 30 instructions each.
                var runHighBits: UInt64 = 0
                let runEnd = Self.scanPlainRun(input.baseAddress!, end, from: index, &runHighBits)
                if runHighBits & 0x8080_8080_8080_8080 != 0 {
                    do throws(JSONParseError) { try Self.validateUTF8(index..<runEnd, of: input) } catch {
                        return .failure(error)
                    }
                }
                strings.append(contentsOf: UnsafeBufferPointer(rebasing: input[index..<runEnd]))
                index = runEnd
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

    /// Reads the number at `start` in full, with its errors: the index after it and its two entries.
    func parseNumber(at start: Int) throws(JSONParseError) -> (end: Int, first: UInt64, second: UInt64) {
        var index = start
        let end = input.count
        let negative = input[index] == UInt8(ascii: "-")
        if negative {
            index += 1
            if index < end, input[index] == UInt8(ascii: "I") { throw nonStandardOrUnexpected(at: start) }
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
        if isInteger && digits <= 18 {
            let value = negative ? -Int64(magnitude) : Int64(magnitude)
            return (index, entry(.integer), UInt64(bitPattern: value))
        }
        return (index, entry(.numberText, start), UInt64(index - start))
    }

    // MARK: Containers

    /// Checks the keys of the object at `start` that just closed with `count` members; their
    /// fingerprints are the last `count` entries of `keys`, in order, and are removed. Keys with
    /// equal fingerprints are compared by their bytes in ``resolveDuplicateKeys(objectStart:)``.
    @inline(__always) mutating func closeObject(
        _ start: Int, count: Int, _ out: inout EntryBuffer, _ keys: inout ScratchStack<UInt64>
    ) throws(JSONParseError) {
        guard count > 1 else {
            keys.removeLast(count)
            return
        }
        let mine = UnsafeBufferPointer(rebasing: keys.buffer[keys.count &- count..<keys.count])
        let found = count <= 32 ? Self.fingerprintsRepeat(mine) : Self.manyFingerprintsRepeat(mine)
        keys.removeLast(count)
        guard found else { return }
        // The slow path reads and changes the tape through `entries` (copied, not handed over; it
        // changes entries in place and does not grow the tape).
        entries = out
        try resolveDuplicateKeys(objectStart: start)
    }

    static func manyFingerprintsRepeat(_ fingerprints: UnsafeBufferPointer<UInt64>) -> Bool {
        var seen = Set<UInt64>(minimumCapacity: fingerprints.count)
        for fingerprint in fingerprints where !seen.insert(fingerprint).inserted { return true }
        return false
    }

    /// Whether two of `fingerprints` (at most 32) are equal: pair by pair for a few (most objects),
    /// through an open-addressing table for more.
    static func fingerprintsRepeat(_ fingerprints: UnsafeBufferPointer<UInt64>) -> Bool {
        let count = fingerprints.count
        if count <= 8 {
            var first = 0
            while first < count &- 1 {
                let fingerprint = fingerprints[first]
                var second = first &+ 1
                while second < count {
                    if fingerprints[second] == fingerprint { return true }
                    second &+= 1
                }
                first &+= 1
            }
            return false
        }
        // 64 slots on the stack, the used ones in one word (at most 32 are): each key is one probe in
        // the common case, and equal fingerprints are found exactly.
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 64) { table in
            var occupied: UInt64 = 0
            for fingerprint in fingerprints {
                var slot = Int(truncatingIfNeeded: (fingerprint &* 0x9E37_79B9_7F4A_7C15) >> 58)
                while occupied & (1 &<< UInt64(slot)) != 0 {
                    if table[slot] == fingerprint { return true }
                    slot = (slot &+ 1) & 63
                }
                occupied |= 1 &<< UInt64(slot)
                table[slot] = fingerprint
            }
            return false
        }
    }

    /// Finds the keys of the object at `start` that are equal (two fingerprints matched) and applies
    /// the duplicate-key policy: an error, or the earlier or later key marked dead.
    mutating func resolveDuplicateKeys(objectStart start: Int) throws(JSONParseError) {
        let end = payload(of: entries[start])
        // Distinct keys share a fingerprint often (`daysUntilStale` and `daysUntilClose`): an object
        // whose keys all differ in a hash of all their bytes is done without the tables below.
        if !keysMayRepeat(start: start, end: end) { return }
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

    /// Whether two keys of the object at `start` (ending at `end`) may be equal: `false` when the
    /// hashes of their bytes (``keyHash(_:_:)``) all differ, found in an open-addressing table of
    /// at least twice as many slots as keys. Equal hashes, or a table whose probes pass four per
    /// key (keys made to crowd it), answer `true`, and the caller compares the keys themselves:
    /// linear either way.
    private func keysMayRepeat(start: Int, end: Int) -> Bool {
        // The member count, written when the object closed; never more than its entries allow (a
        // member takes at least three), and a smaller one would only crowd the table, where the
        // probe limit answers `true`.
        let count = min(Int(truncatingIfNeeded: entries[start + 1] & 0xFFFF_FFFF), (end - start) / 3)
        var size = 64
        while size < 2 * count { size *= 2 }
        return strings.withUnsafeBufferPointer { _ in
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: size) { table in
                table.initialize(repeating: 0)
                let mask = size - 1
                var probes = 0
                var index = start + 2
                while index < end {
                    let span = keySpan(index)
                    let hash = Self.keyHash(span.pointer, span.length) | 1
                    var slot = Int(truncatingIfNeeded: hash >> 32) & mask
                    while table[slot] != 0 {
                        if table[slot] == hash { return true }
                        probes += 1
                        if probes > 4 * count { return true }
                        slot = (slot + 1) & mask
                    }
                    table[slot] = hash
                    index = nextValue(after: index + 2)
                }
                return false
            }
        }
    }

    /// A hash of the `length` bytes at `pointer`, eight at a time (the last eight overlapping the
    /// ones before, a shorter key's in two overlapping loads): equal keys have equal hashes.
    static func keyHash(_ pointer: UnsafePointer<UInt8>, _ length: Int) -> UInt64 {
        let raw = UnsafeRawPointer(pointer)
        func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
            let mixed = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
            return mixed ^ mixed >> 31
        }
        var hash = UInt64(truncatingIfNeeded: length) &* 0x9E37_79B9_7F4A_7C15
        if length >= 8 {
            var offset = 0
            while offset + 8 < length {
                hash = mix(hash, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            return mix(hash, raw.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self))
        }
        let word: UInt64
        if length >= 4 {
            word =
                UInt64(raw.loadUnaligned(as: UInt32.self)) << 32
                | UInt64(raw.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self))
        } else if length >= 2 {
            word =
                UInt64(raw.loadUnaligned(as: UInt16.self)) << 16
                | UInt64(raw.loadUnaligned(fromByteOffset: length - 2, as: UInt16.self))
        } else {
            word = length == 1 ? UInt64(pointer[0]) : 0
        }
        return mix(hash, word)
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

/// How the parser reads long arrays of numbers (see ``TapeParser/parse(_:)``).
protocol ArrayReading {
    static var readsNumberRuns: Bool { get }
}

/// With ``TapeParser``'s `readNumbers`: how documents are parsed.
enum NumberRuns: ArrayReading {
    static var readsNumberRuns: Bool { true }
}

/// With the main loop alone, to compare with ``NumberRuns`` in a test.
enum MainLoopOnly: ArrayReading {
    static var readsNumberRuns: Bool { false }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }

    fileprivate var trimmingQuotes: String {
        hasPrefix("\"") && hasSuffix("\"") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}

/// Where the number readers write their entries: a growing ``EntryBuffer``, or room made before
/// (``ReservedEntries``).
protocol EntryAppending {
    mutating func append(_ value: UInt64)
}

/// The tape being written: a growable buffer of entries without the checks of `Array.append`.
/// Its memory comes from `malloc` (the C allocator answers a plain request faster than an aligned
/// one) and is freed with `free`, by ``discard()`` or by the ``Tape`` it is handed to.
struct EntryBuffer: EntryAppending {
    private(set) var base: UnsafeMutablePointer<UInt64>
    /// How many entries are written (set back only by a writer that wrote into reserved room).
    var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(16, capacity)
        base = Self.reallocate(nil, capacity: self.capacity)
    }

    /// An empty buffer in the memory of an earlier one (`capacity` entries from `base`), made larger
    /// first when that is less than `minimumCapacity`.
    init(reusing base: UnsafeMutablePointer<UInt64>, capacity: Int, minimumCapacity: Int) {
        if capacity >= minimumCapacity {
            self.base = base
            self.capacity = capacity
        } else {
            self.capacity = max(16, minimumCapacity)
            self.base = Self.reallocate(base, capacity: self.capacity)
        }
    }

    /// The entries written and the room the buffer has, for a ``Tape``.
    struct Finished {
        let buffer: UnsafeMutableBufferPointer<UInt64>
        let capacity: Int
    }

    /// Forgets the entries written, keeping the memory.
    mutating func removeAll() { count = 0 }

    /// Makes room for `additional` more entries, which may then be written without a check
    /// (``ReservedEntries``).
    mutating func reserve(_ additional: Int) {
        guard count &+ additional > capacity else { return }
        capacity = max(capacity &* 2, count &+ additional)
        base = Self.reallocate(base, capacity: capacity)
    }

    /// Gives back the room over twice the entries written (plus a little): for a document kept after
    /// parsing, whose tape the walk over the index may have reserved up to four times the room of.
    mutating func shrink() {
        let wanted = count &* 2 &+ 64
        guard capacity > wanted else { return }
        capacity = wanted
        base = Self.reallocate(base, capacity: capacity)
    }

    @inline(__always) mutating func append(_ value: UInt64) {
        if count == capacity {
            // A static call with plain arguments: a buffer held in a local stays in registers.
            capacity &*= 2
            base = Self.reallocate(base, capacity: capacity)
        }
        base[count] = value
        count &+= 1
    }

    @inline(never) private static func reallocate(
        _ old: UnsafeMutablePointer<UInt64>?, capacity: Int
    ) -> UnsafeMutablePointer<UInt64> {
        // Out of memory ends the process, as any Swift allocation does.
        guard let raw = realloc(old, capacity * MemoryLayout<UInt64>.stride) else { fatalError("out of memory") }
        return raw.bindMemory(to: UInt64.self, capacity: capacity)
    }

    @inline(__always) subscript(index: Int) -> UInt64 {
        get { base[index] }
        nonmutating set { base[index] = newValue }
    }

    /// Hands the entries to a ``Tape``, which frees them with ``free(_:)``.
    func finish() -> Finished {
        Finished(buffer: UnsafeMutableBufferPointer(start: base, count: count), capacity: capacity)
    }

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

    /// A stack of the first `count` elements of `inline`, which it does not own.
    init(inline: UnsafeMutableBufferPointer<Element>, count: Int) {
        buffer = inline
        self.count = count
    }

    /// The last element; the stack is not empty.
    @inline(__always) var top: Element { buffer.baseAddress.unsafelyUnwrapped[count &- 1] }

    @inline(__always) mutating func append(_ value: Element) {
        if count == buffer.count {
            // A static call with plain arguments: a stack held in a local stays in registers.
            buffer = Self.grown(buffer, count: count, owned: ownsBuffer)
            ownsBuffer = true
        }
        buffer.baseAddress.unsafelyUnwrapped.advanced(by: count).initialize(to: value)
        count &+= 1
    }

    @inline(__always) mutating func removeLast() -> Element {
        count &-= 1
        return buffer.baseAddress.unsafelyUnwrapped.advanced(by: count).move()
    }

    @inline(__always) mutating func removeLast(_ k: Int) {
        if k > 0 { buffer.baseAddress.unsafelyUnwrapped.advanced(by: count &- k).deinitialize(count: k) }
        count &-= k
    }

    /// A buffer twice as large holding the `count` elements of `buffer`, which is freed if `owned`.
    @inline(never) private static func grown(
        _ buffer: UnsafeMutableBufferPointer<Element>, count: Int, owned: Bool
    ) -> UnsafeMutableBufferPointer<Element> {
        let newBuffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(16, buffer.count * 2))
        if count > 0 { newBuffer.baseAddress!.moveInitialize(from: buffer.baseAddress!, count: count) }
        if owned { buffer.deallocate() }
        return newBuffer
    }

    /// Frees a heap buffer (the elements are plain integers: nothing to deinitialize).
    mutating func release() {
        if ownsBuffer { buffer.deallocate() }
        buffer = UnsafeMutableBufferPointer(start: nil, count: 0)
        ownsBuffer = false
        count = 0
    }
}
