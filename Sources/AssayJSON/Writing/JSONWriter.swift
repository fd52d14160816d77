/// How ``JSONValue`` is written as text.
public struct JSONWritingOptions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int
    /// Makes options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Two-space indentation, a line per element and member, `": "` between key and value.
    public static let prettyPrinted = JSONWritingOptions(rawValue: 1 << 0)
    /// Object members ordered by key (by UTF-8 bytes), for stable output.
    public static let sortedKeys = JSONWritingOptions(rawValue: 1 << 1)
    /// Every non-ASCII character escaped as `\uXXXX` (surrogate pairs above U+FFFF).
    public static let asciiOnly = JSONWritingOptions(rawValue: 1 << 2)
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON text.
    public func jsonString(_ options: JSONWritingOptions = []) -> String {
        String(decoding: jsonBytes(options), as: UTF8.self)
    }

    /// The value as compact JSON text, UTF-8 encoded.
    public func jsonBytes(_ options: JSONWritingOptions = []) -> [UInt8] {
        var writer = JSONWriter(options: options)
        writer.write(self, indent: 0)
        return writer.output
    }

    /// The value as compact JSON.
    public var description: String { jsonString() }
}

struct JSONWriter {
    let options: JSONWritingOptions
    var output: [UInt8] = []

    init(options: JSONWritingOptions) {
        self.options = options
        output.reserveCapacity(256)
    }

    /// An array or object being written: its children and the next one to write.
    private enum OpenContainer {
        case array([JSONValue], next: Int)
        case object([JSONObject.Element], next: Int)
    }

    /// Writes `value` without recursion (a value nested as deep as the parser allows is written on a
    /// thread with a small stack too).
    mutating func write(_ value: JSONValue, indent: Int) {
        var stack: [OpenContainer] = []
        var pending: JSONValue? = value
        while true {
            if let value = pending {
                pending = nil
                switch value {
                case .null: output.append(contentsOf: "null".utf8)
                case .bool(let b): output.append(contentsOf: (b ? "true" : "false").utf8)
                case .number(let n): output.append(contentsOf: n.description.utf8)
                case .string(let s): writeString(s)
                case .array(let elements):
                    if elements.isEmpty {
                        output.append(contentsOf: "[]".utf8)
                    } else {
                        output.append(UInt8(ascii: "["))
                        stack.append(.array(elements, next: 0))
                    }
                case .object(let object):
                    if object.isEmpty {
                        output.append(contentsOf: "{}".utf8)
                    } else {
                        output.append(UInt8(ascii: "{"))
                        let members =
                            options.contains(.sortedKeys)
                            ? object.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) } : Array(object)
                        stack.append(.object(members, next: 0))
                    }
                }
            }
            guard let top = stack.popLast() else { return }
            switch top {
            case .array(let elements, let next) where next < elements.count:
                if next > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + stack.count + 1)
                pending = elements[next]
                stack.append(.array(elements, next: next + 1))
            case .object(let members, let next) where next < members.count:
                if next > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + stack.count + 1)
                writeString(members[next].key)
                output.append(UInt8(ascii: ":"))
                if options.contains(.prettyPrinted) { output.append(UInt8(ascii: " ")) }
                pending = members[next].value
                stack.append(.object(members, next: next + 1))
            case .array:
                newline(indent + stack.count)
                output.append(UInt8(ascii: "]"))
            case .object:
                newline(indent + stack.count)
                output.append(UInt8(ascii: "}"))
            }
        }
    }

    private mutating func newline(_ indent: Int) {
        guard options.contains(.prettyPrinted) else { return }
        output.append(0x0A)
        for _ in 0..<indent { output.append(contentsOf: [0x20, 0x20]) }
    }

    static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func escapeUnit(_ unit: UInt16) {
        output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u")])
        for shift in stride(from: 12, through: 0, by: -4) { output.append(Self.hex[Int(unit >> UInt16(shift)) & 0xF]) }
    }

    mutating func writeString(_ string: String) {
        guard options.contains(.asciiOnly) else {
            JSONValue.appendQuoted(string, to: &output)
            return
        }
        output.append(UInt8(ascii: "\""))
        for scalar in string.unicodeScalars {
            switch scalar.value {
            case 0x22: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case 0x5C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20: escapeUnit(UInt16(scalar.value))
            case 0x80...:
                for unit in String(scalar).utf16 { escapeUnit(unit) }
            default: output.append(contentsOf: UTF8.encode(scalar)!)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

extension JSONValue {
    /// Appends `string` as a JSON string literal in UTF-8, escaping only what RFC 8259 requires
    /// (quote, backslash, control characters; `\n`, `\r`, `\t`, `\b`, `\f` in short form), copying
    /// runs of other bytes whole. Shared with the command line's JSON Lines writer.
    package static func appendQuoted(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        appendEscaped(string, to: &output)
        output.append(UInt8(ascii: "\""))
    }

    /// Appends what ``appendQuoted(_:to:)`` writes between the quotes: for a writer whose fixed
    /// text already holds them (`","code":"`).
    package static func appendEscaped(_ string: String, to output: inout [UInt8]) {
        var string = string
        string.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            let end = bytes.count
            // Runs of bytes that need no escape, found eight bytes at a time, copied whole.
            var start = 0
            var index = firstByteToEscape(base, from: 0, to: end)
            while index < end {
                let byte = base[index]
                output.append(contentsOf: UnsafeBufferPointer(start: base + start, count: index - start))
                start = index + 1
                index = firstByteToEscape(base, from: start, to: end)
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 6) { escape in
                    let count = writeEscape(of: byte, to: escape.baseAddress!)
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: escape[..<count]))
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(start: base + start, count: end - start))
        }
    }
}
