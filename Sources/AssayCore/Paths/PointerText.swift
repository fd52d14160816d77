/// JSON Pointer text (RFC 6901): the locations of issues and schema errors, built for every error
/// reported, each written straight into the new string's storage, sized once for the worst case
/// (every byte escaped), with no buffer between and no temporary string per token.
package enum PointerText {
    /// The JSON Pointer of `tokens` (each escaped), with `last` after them when given, after
    /// `prefix` taken as it is (a URI and `#`).
    package static func string(prefix: [UInt8] = [], tokens: [String], last: String? = nil) -> String {
        var capacity = prefix.count
        for token in tokens { capacity += 1 + 2 * token.utf8.count }
        if let last { capacity += 1 + 2 * last.utf8.count }
        guard capacity > 0 else { return "" }
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            var end = 0
            for byte in prefix {
                buffer[end] = byte
                end += 1
            }
            for token in tokens { end = write(token, into: buffer, at: end) }
            if let last { end = write(last, into: buffer, at: end) }
            return end
        }
    }

    /// The JSON Pointer of `components`: keys escaped, indices in decimal (or `indexToken` in their
    /// place, `*` for a path with its indices folded).
    package static func string(_ components: [PathComponent], indexToken: String? = nil) -> String {
        var capacity = 0
        for component in components {
            switch component {
            case .key(let key): capacity += 1 + 2 * key.utf8.count
            // `/` and at most 20 characters, never escaped; or the token in their place.
            case .index: capacity += indexToken.map { 1 + 2 * $0.utf8.count } ?? 21
            }
        }
        guard capacity > 0 else { return "" }
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            var end = 0
            for component in components {
                switch component {
                case .key(let key): end = write(key, into: buffer, at: end)
                case .index(let index):
                    if let indexToken {
                        end = write(indexToken, into: buffer, at: end)
                    } else {
                        end = writeIndex(index, into: buffer, at: end)
                    }
                }
            }
            return end
        }
    }

    /// Writes `/` and `index` in decimal (at most 21 bytes) into `buffer` from `start`, without
    /// making a string; returns where it ended.
    @inline(__always)
    private static func writeIndex(_ index: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        buffer[start] = UInt8(ascii: "/")
        guard index >= 0 else { return write(String(index), into: buffer, at: start) }
        return start + 1 + writeDecimal(index, to: buffer.baseAddress! + start + 1)
    }

    /// Writes `/` and `token` escaped (`~` as `~0`, `/` as `~1`) into `buffer` from `start`;
    /// returns where it ended. `buffer` has room for `1 + 2 * token.utf8.count` bytes there (or for
    /// the bytes written, when no byte of `token` is escaped).
    @inline(__always)
    private static func write(_ token: String, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        buffer[start] = UInt8(ascii: "/")
        func copy(_ bytes: some Sequence<UInt8>) -> Int {
            var end = start + 1
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "~"):
                    buffer[end] = UInt8(ascii: "~")
                    buffer[end + 1] = UInt8(ascii: "0")
                    end += 2
                case UInt8(ascii: "/"):
                    buffer[end] = UInt8(ascii: "~")
                    buffer[end + 1] = UInt8(ascii: "1")
                    end += 2
                default:
                    buffer[end] = byte
                    end += 1
                }
            }
            return end
        }
        // Native strings (all of a schema's and a document's) lend their bytes; others are read
        // through their UTF-8 view.
        return token.utf8.withContiguousStorageIfAvailable { copy($0) } ?? copy(token.utf8)
    }

    /// The tokens of the JSON Pointer `pointer`, unescaped (`~1` → `/`, `~0` → `~`; `""` has
    /// none); `nil` when it does not start with `/` or has a `~` before anything but `0` or `1`.
    /// A token without `~` is taken as it is; one with is unescaped byte by byte (the escapes are
    /// ASCII, so the bytes stay UTF-8) and made a string once: appended a scalar at a time, a schema
    /// whose keys are paths (`/users/{id}`) spent a third of its compile here.
    package static func tokens(of pointer: String) -> [String]? {
        if pointer.isEmpty { return [] }
        guard pointer.utf8.first == UInt8(ascii: "/") else { return nil }
        var tokens: [String] = []
        for raw in pointer.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            guard raw.contains(UInt8(ascii: "~")) else {
                tokens.append(String(Substring(raw)))
                continue
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(raw.count)
            var escaped = false
            for byte in raw {
                if escaped {
                    switch byte {
                    case UInt8(ascii: "0"): bytes.append(UInt8(ascii: "~"))
                    case UInt8(ascii: "1"): bytes.append(UInt8(ascii: "/"))
                    default: return nil
                    }
                    escaped = false
                } else if byte == UInt8(ascii: "~") {
                    escaped = true
                } else {
                    bytes.append(byte)
                }
            }
            if escaped { return nil }
            tokens.append(String(decoding: bytes, as: UTF8.self))
        }
        return tokens
    }
}

/// Appends the decimal digits of `value` (an index, a line or document number) without making a
/// string.
package func appendDecimal(_ value: Int, to out: inout [UInt8]) {
    guard value >= 0 else {
        out.append(contentsOf: String(value).utf8)
        return
    }
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
        // A typed buffer: appended with one copy, not byte by byte.
        let count = writeDecimal(value, to: buffer.baseAddress!)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
    }
}

/// Writes the decimal digits of `value` (not negative; at most 19 of them) from `start`; returns
/// how many it wrote. Counted by comparisons, written two at a time (one division by 100 a pair,
/// then one by 10): a line number of five digits in about half the instructions of a digit at a
/// time.
@inline(__always)
package func writeDecimal(_ value: Int, to start: UnsafeMutablePointer<UInt8>) -> Int {
    var digits = 1
    var bound = 10
    while digits < 19, value >= bound {
        digits &+= 1
        bound = bound &* 10
    }
    var rest = UInt(bitPattern: value)
    var position = digits
    while rest >= 100 {
        let pair = rest % 100
        rest /= 100
        position &-= 2
        let tens = pair / 10
        start[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: tens)
        start[position &+ 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair &- tens &* 10)
    }
    if rest >= 10 {
        let tens = rest / 10
        start[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: tens)
        start[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest &- tens &* 10)
    } else {
        start[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
    }
    return digits
}
