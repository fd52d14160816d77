/// JSON Pointer text (RFC 6901) built as UTF-8 bytes and made a `String` once: the locations of
/// issues and schema errors, built for every error reported, without a temporary string per token.
package struct PointerText {
    /// The text so far.
    package private(set) var bytes: [UInt8] = []

    /// Empty text with room for `capacity` bytes.
    package init(capacity: Int = 64) { bytes.reserveCapacity(capacity) }

    /// Appends `text` as it is (a URI and `#` before a pointer).
    package mutating func append(raw text: String) { bytes.append(contentsOf: text.utf8) }

    /// Appends `/` and `token` escaped: `~` as `~0`, `/` as `~1`.
    package mutating func append(token: String) {
        bytes.append(UInt8(ascii: "/"))
        var token = token
        token.withUTF8 { utf8 in
            guard utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
                bytes.append(contentsOf: utf8)
                return
            }
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "~"): bytes.append(contentsOf: [UInt8(ascii: "~"), UInt8(ascii: "0")])
                case UInt8(ascii: "/"): bytes.append(contentsOf: [UInt8(ascii: "~"), UInt8(ascii: "1")])
                default: bytes.append(byte)
                }
            }
        }
    }

    /// Appends `/` and the decimal digits of `index`.
    package mutating func append(index: Int) {
        bytes.append(UInt8(ascii: "/"))
        appendDecimal(index, to: &bytes)
    }

    /// Appends `/` and `component` (a key escaped, or an index).
    package mutating func append(_ component: PathComponent) {
        switch component {
        case .key(let key): append(token: key)
        case .index(let index): append(index: index)
        }
    }

    /// The text.
    package var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Appends the decimal digits of `value` (an index, a line or document number) without making a
/// string.
package func appendDecimal(_ value: Int, to out: inout [UInt8]) {
    guard value >= 0 else {
        out.append(contentsOf: String(value).utf8)
        return
    }
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    var count = 0
    var rest = value
    withUnsafeMutableBytes(of: &digits) { raw in
        let buffer = raw.bindMemory(to: UInt8.self)
        repeat {
            buffer[23 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            count += 1
        } while rest > 0
        // A typed buffer: appended with one copy, not byte by byte.
        out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[(24 - count)...]))
    }
}
