import AssayCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A parsed JSON text, navigable without building a tree.
///
/// Parsing produces a compact flat index of the text (a "tape") that points into the original
/// bytes; ``root`` navigates it as ``JSONNode``s, and ``value`` builds an owned ``JSONValue`` tree
/// when one is needed. This is the fast path for reading and validating: no allocation per value.
///
/// <!-- snippet: doc-json-document -->
/// ```swift
/// let document = try JSONDocument(parsing: Array(#"{"name":"John","age":35}"#.utf8))
/// print(document.root["age"]?.int ?? 0)  // 35
/// print(document.root["name"]?.string ?? "")  // John
/// ```
public struct JSONDocument: Sendable {
    var tape: Tape

    /// Parses UTF-8 bytes.
    ///
    /// - Throws: ``JSONParseError`` with the reason, byte offset, line, column and an excerpt.
    public init(parsing bytes: [UInt8], options: JSONParserOptions = .default) throws(JSONParseError) {
        try self.init(parsing: bytes[...], options: options)
    }

    /// Parses a slice of a larger buffer (a line of a file read whole) without copying it; the
    /// document keeps the buffer alive.
    ///
    /// - Throws: ``JSONParseError``, located within the slice.
    public init(parsing bytes: ArraySlice<UInt8>, options: JSONParserOptions = .default) throws(JSONParseError) {
        var parsed = try Self.parse(bytes, options, into: nil, scratch: IndexScratch())
        parsed.scratch.free()
        tape = Tape(bytes: bytes, entries: parsed.entries, strings: parsed.strings)
    }

    /// Parses a slice as ``init(parsing:options:)-(ArraySlice<UInt8>,_)`` does, into the memory of
    /// `recycled` when nothing else holds that document: its tape is written again instead of freed
    /// and another allocated, for a loop over many documents that keeps none of them. `recycled` is
    /// taken either way (`nil` after); give the document back once done with it. A tape of more
    /// than ``largestRecycledEntries`` entries is freed rather than kept for the next.
    ///
    /// - Throws: ``JSONParseError``, as the other initializer.
    package init(
        parsing bytes: ArraySlice<UInt8>, options: JSONParserOptions, recycling recycled: inout JSONDocument?
    ) throws(JSONParseError) {
        guard recycled != nil, isKnownUniquelyReferenced(&recycled!.tape),
            recycled.unsafelyUnwrapped.tape.capacity <= Self.largestRecycledEntries
        else {
            recycled = nil
            try self.init(parsing: bytes, options: options)
            return
        }
        let reused = recycled.unsafelyUnwrapped.tape
        recycled = nil
        let buffer = reused.takeEntries(minimumCapacity: TapeParser.expectedEntries(bytes.count))
        // On failure the parser frees the buffer and the scratch, and the tape, holding none, is
        // freed with `reused`.
        let parsed = try Self.parse(bytes, options, into: buffer, scratch: reused.takeScratch())
        reused.reset(bytes: bytes, entries: parsed.entries, strings: parsed.strings)
        reused.keep(parsed.scratch)
        self.init(tape: reused)
    }

    /// The most entries (8 bytes each) a recycled tape keeps for the next document: 512 KB.
    package static let largestRecycledEntries = 1 << 16

    private init(tape: Tape) { self.tape = tape }

    private struct Parsed {
        let entries: EntryBuffer.Finished
        let strings: [UInt8]
        /// The parser's index memory, for the caller to free or keep.
        var scratch: IndexScratch
    }

    @inline(__always) private static func parse(
        _ bytes: ArraySlice<UInt8>, _ options: JSONParserOptions, into buffer: EntryBuffer?, scratch: IndexScratch
    ) throws(JSONParseError) -> Parsed {
        var failure: JSONParseError?
        let parsed: Parsed? = bytes.withUnsafeBufferPointer { input in
            var parser = TapeParser(input: input, options: options, entries: buffer, scratch: scratch)
            do throws(JSONParseError) {
                try parser.parse()
            } catch {
                parser.entries.discard()
                parser.scratch.free()
                failure = error
                return nil
            }
            // A document parsed on its own is kept: its tape holds no more room than it needs twice.
            if buffer == nil { parser.entries.shrink() }
            return Parsed(entries: parser.entries.finish(), strings: parser.strings, scratch: parser.scratch)
        }
        guard let parsed else { throw failure.unsafelyUnwrapped }
        return parsed
    }

    /// Parses the UTF-8 bytes of `data`.
    ///
    /// - Throws: ``JSONParseError``.
    public init(parsing data: Data, options: JSONParserOptions = .default) throws(JSONParseError) {
        try self.init(parsing: [UInt8](data), options: options)
    }

    /// Parses a string.
    ///
    /// - Throws: ``JSONParseError``.
    public init(parsing text: String, options: JSONParserOptions = .default) throws(JSONParseError) {
        try self.init(parsing: Array(text.utf8), options: options)
    }

    /// The top-level value.
    public var root: JSONNode { JSONNode(tape: tape, index: 0) }

    /// The document as an owned tree.
    public var value: JSONValue { root.value }

    /// The parsed bytes.
    public var bytes: ArraySlice<UInt8> { tape.bytes }

    /// The 1-based line and column (in Unicode scalars) of the value at `path`, found by walking the
    /// source text; `nil` when no value is there. Used to locate decoding and validation errors.
    public func location(of path: [JSONPathComponent]) -> (line: Int, column: Int, offset: Int)? {
        guard let offset = byteOffset(of: path) else { return nil }
        return tape.bytes.withUnsafeBufferPointer { buffer in
            let location = SourceLocation.lineAndColumn(offset: offset, in: buffer)
            return (location.line, location.column, offset)
        }
    }

    /// ``location(of:)-([JSONPathComponent])`` of an issue's path.
    package func location(of path: IssuePath) -> (line: Int, column: Int, offset: Int)? {
        location(
            of: path.components.map { component -> JSONPathComponent in
                switch component {
                case .key(let key): return .key(key)
                case .index(let index): return .index(index)
                }
            })
    }

    /// The byte offset where the value at `path` starts.
    func byteOffset(of path: [JSONPathComponent]) -> Int? {
        tape.bytes.withUnsafeBufferPointer { buffer in
            var scanner = SourceScanner(bytes: buffer)
            return scanner.offset(of: path)
        }
    }
}

/// One step of a path into a JSON value: an object key or an array index.
public enum JSONPathComponent: Hashable, Sendable {
    /// An object key.
    case key(String)
    /// An array index.
    case index(Int)
}

/// Walks valid JSON source to find where the value at a path starts (only after a failure, so it
/// favours simplicity over speed).
struct SourceScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    mutating func offset(of path: [JSONPathComponent]) -> Int? {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        skipWhitespace()
        for component in path {
            guard position < bytes.count else { return nil }
            switch component {
            case .key(let key):
                guard bytes[position] == UInt8(ascii: "{") else { return nil }
                position += 1
                while true {
                    skipWhitespace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
                    let name = readString()
                    skipWhitespace()
                    position += 1  // ":"
                    skipWhitespace()
                    if name == key { break }
                    skipValue()
                    skipWhitespace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: ",") else { return nil }
                    position += 1
                }
            case .index(let wanted):
                guard bytes[position] == UInt8(ascii: "[") else { return nil }
                position += 1
                skipWhitespace()
                for _ in 0..<wanted {
                    skipValue()
                    skipWhitespace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: ",") else { return nil }
                    position += 1
                    skipWhitespace()
                }
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") { return nil }
            }
        }
        return position
    }

    private mutating func skipWhitespace() {
        while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
    }

    private mutating func readString() -> String {
        let start = position + 1
        position += 1
        var escaped = false
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\\") {
                escaped = true
                position += 2
                continue
            }
            if byte == UInt8(ascii: "\"") { break }
            position += 1
        }
        let end = min(position, bytes.count)
        position += 1
        let raw = UnsafeBufferPointer(rebasing: bytes[(start - 1)..<min(end + 1, bytes.count)])
        if escaped, let document = try? JSONDocument(parsing: Array(raw)), let text = document.root.string {
            return text
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    private mutating func skipValue() {
        guard position < bytes.count else { return }
        switch bytes[position] {
        case UInt8(ascii: "\""):
            _ = readString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    _ = readString()
                    continue
                }
                if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") { depth += 1 }
                if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    depth -= 1
                    if depth == 0 {
                        position += 1
                        return
                    }
                }
                position += 1
            }
        default:
            while position < bytes.count,
                ![UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x0A, 0x0D, 0x09].contains(
                    bytes[position])
            {
                position += 1
            }
        }
    }
}
