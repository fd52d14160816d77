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
        bytes.append(contentsOf: String(index).utf8)
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
