/// Why a JSON text could not be parsed, and exactly where.
///
/// The location is computed only after a failure: ``offset`` (bytes from the start), ``line`` and
/// ``column`` (1-based; the column counts Unicode scalars), and an ``excerpt`` of the line with a
/// caret under the problem:
///
/// ```text
/// line 1, column 9: trailing comma before "]"
/// [1, 2, 3,]
///         ^
/// ```
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem, a stable identifier (`"trailingComma"`, `"invalidUTF8"` …).
    public struct Reason: Hashable, Sendable, CustomStringConvertible {
        /// The reason's name.
        public let identifier: String
        init(_ identifier: String) { self.identifier = identifier }
        /// The reason's name.
        public var description: String { identifier }

        /// The input holds no value at all.
        public static let empty = Reason("empty")
        /// The input ends inside a value.
        public static let unexpectedEnd = Reason("unexpectedEnd")
        /// A character that cannot appear here.
        public static let unexpectedCharacter = Reason("unexpectedCharacter")
        /// A comma before `]` or `}`.
        public static let trailingComma = Reason("trailingComma")
        /// A number that does not follow RFC 8259's grammar.
        public static let invalidNumber = Reason("invalidNumber")
        /// A number with a leading zero (`01`).
        public static let leadingZero = Reason("leadingZero")
        /// `NaN`, `Infinity` or `-Infinity`, which JSON does not have.
        public static let nonStandardLiteral = Reason("nonStandardLiteral")
        /// A misspelt `true`, `false` or `null`.
        public static let invalidLiteral = Reason("invalidLiteral")
        /// An unknown escape or a malformed `\u` escape.
        public static let invalidEscape = Reason("invalidEscape")
        /// A `\u` escape of half a surrogate pair (rejected unless the options replace it).
        public static let unpairedSurrogate = Reason("unpairedSurrogate")
        /// A control character (U+0000–U+001F) inside a string, which must be escaped.
        public static let controlCharacterInString = Reason("controlCharacterInString")
        /// Bytes that are not UTF-8.
        public static let invalidUTF8 = Reason("invalidUTF8")
        /// Arrays and objects nested deeper than the limit.
        public static let depthLimitExceeded = Reason("depthLimitExceeded")
        /// An input longer than ``JSONParserOptions/maximumBytes``.
        public static let sizeLimitExceeded = Reason("sizeLimitExceeded")
        /// A key that appears twice in one object (with ``DuplicateKeyPolicy/reject``).
        public static let duplicateKey = Reason("duplicateKey")
        /// Something after the value.
        public static let trailingContent = Reason("trailingContent")
    }

    /// The kind of problem.
    public let reason: Reason
    /// What is wrong, in English: `trailing comma before "]"`.
    public let detail: String
    /// The offset of the problem in bytes from the start of the input.
    public let offset: Int
    /// The 1-based line.
    public let line: Int
    /// The 1-based column, in Unicode scalars.
    public let column: Int
    /// The line of the problem (at most 100 scalars of it around the column) and a caret under the column.
    public let excerpt: String

    init(_ reason: Reason, _ detail: String, at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        self.reason = reason
        self.detail = detail
        self.offset = offset
        let location = SourceLocation(offset: offset, in: bytes)
        self.line = location.line
        self.column = location.column
        self.excerpt = location.excerpt
    }

    init(reason: Reason, detail: String, offset: Int, line: Int, column: Int, excerpt: String) {
        self.reason = reason
        self.detail = detail
        self.offset = offset
        self.line = line
        self.column = column
        self.excerpt = excerpt
    }

    /// `line L, column C: detail`, then the excerpt.
    public var description: String { "line \(line), column \(column): \(detail)\n\(excerpt)" }
}

/// Line, column and a caret excerpt for a byte offset, computed by scanning from the start.
struct SourceLocation {
    let line: Int
    let column: Int
    let excerpt: String

    /// The 1-based line and column (in scalars) of `offset`, without the excerpt: reads the input only
    /// up to `offset`, however long its line.
    static func lineAndColumn(offset rawOffset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        let offset = min(max(0, rawOffset), bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<offset where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        var column = 1
        for position in lineStart..<offset where bytes[position] & 0xC0 != 0x80 { column += 1 }
        return (line, column)
    }

    init(offset rawOffset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        let offset = min(max(0, rawOffset), bytes.count)
        var line = 1
        var lineStart = 0
        var index = 0
        while index < offset {
            if bytes[index] == 0x0A {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        // The excerpt shows at most 100 scalars around the column, so only a window of the line is
        // decoded (400 bytes hold 100 scalars of any script): a gigabyte line costs no more than a short one.
        let window = 400
        var excerptStart = max(lineStart, offset - window)
        while excerptStart < offset, bytes[excerptStart] & 0xC0 == 0x80 { excerptStart += 1 }
        var lineEnd = offset
        while lineEnd < bytes.count, lineEnd - offset < window, bytes[lineEnd] != 0x0A, bytes[lineEnd] != 0x0D {
            lineEnd += 1
        }
        while lineEnd < bytes.count, lineEnd > offset, bytes[lineEnd] & 0xC0 == 0x80 { lineEnd -= 1 }
        // Columns count scalars: continuation bytes (10xxxxxx) do not start a new one.
        var column = 1
        for position in lineStart..<offset where bytes[position] & 0xC0 != 0x80 { column += 1 }
        var caretColumn = 0
        for position in excerptStart..<offset where bytes[position] & 0xC0 != 0x80 { caretColumn += 1 }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[excerptStart..<lineEnd]), as: UTF8.self)
        var scalars = Array(text.unicodeScalars).map { scalar -> Unicode.Scalar in
            scalar.value < 0x20 || scalar.value == 0x7F ? " " : scalar
        }
        if scalars.count > 100 {
            let from = max(0, min(caretColumn - 50, scalars.count - 100))
            scalars = Array(scalars[from..<min(scalars.count, from + 100)])
            caretColumn -= from
        }
        var excerptLine = ""
        excerptLine.unicodeScalars.append(contentsOf: scalars)
        self.line = line
        self.column = column
        self.excerpt = excerptLine + "\n" + String(repeating: " ", count: max(0, caretColumn)) + "^"
    }
}
