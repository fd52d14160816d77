#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One line of an NDJSON (JSON Lines) stream.
public struct NDJSONRecord: Sendable {
    /// The 1-based line number in the stream.
    public let line: Int
    /// The byte offset of the line's first byte in the stream.
    public let offset: Int
    /// The line's bytes, without its line terminator (`\n` or `\r\n`) or a leading byte order mark;
    /// empty for a line longer than the reader's ``NDJSONReader/maximumLineBytes``, which is not held.
    public let bytes: [UInt8]
    /// The line's length in bytes (without its line terminator): `bytes.count`, or more for a line
    /// longer than the reader's limit.
    public let length: Int
    /// The reader's limit when the line crossed it.
    private let crossedLimit: Int?

    /// Makes a record.
    public init(line: Int, offset: Int, bytes: [UInt8]) {
        self.line = line
        self.offset = offset
        self.bytes = bytes
        self.length = bytes.count
        self.crossedLimit = nil
    }

    /// A line that was longer than `limit`, skipped without being held.
    init(line: Int, offset: Int, skippedLength: Int, limit: Int) {
        self.line = line
        self.offset = offset
        self.bytes = []
        self.length = skippedLength
        self.crossedLimit = limit
    }

    /// Whether the line was longer than the reader's ``NDJSONReader/maximumLineBytes`` (so
    /// ``bytes`` is empty and ``parse(options:)`` throws).
    public var isOverLimit: Bool { crossedLimit != nil }

    /// Parses the line. A failure reports the stream's line number and the column in the line.
    ///
    /// - Throws: ``JSONParseError`` located in the stream; its reason is
    ///   ``JSONParseError/Reason/sizeLimitExceeded`` for a line over the reader's limit.
    public func parse(options: JSONParserOptions = .default) throws(JSONParseError) -> JSONDocument {
        if let crossedLimit {
            throw JSONParseError(
                reason: .sizeLimitExceeded, detail: NDJSONReader.overLimitDetail(length: length, limit: crossedLimit),
                offset: offset + crossedLimit, line: line, column: 1, excerpt: "")
        }
        do {
            return try JSONDocument(parsing: bytes, options: options)
        } catch {
            throw error.relocated(line: line, offset: offset)
        }
    }
}

/// Why an NDJSON stream could not be read (the file, not its contents).
public struct NDJSONReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, or `-` for standard input.
    public let path: String
    /// What went wrong, e.g. `No such file or directory`.
    public let reason: String
    /// `path: reason`.
    public var description: String { "\(path): \(reason)" }
}

/// Reads NDJSON (JSON Lines) from a file or standard input, one line at a time, in constant memory.
///
/// Lines are numbered from 1; `\r\n` endings, a byte order mark at the start, a missing final line
/// break and blank lines (only spaces, tabs or `\r`) are handled — blank lines are skipped but
/// counted. Records are raw lines: parse each with ``NDJSONRecord/parse(options:)``, so one malformed
/// line is reported with its line number while the stream goes on.
///
/// <!-- snippet: doc-ndjson-reader -->
/// ```swift
/// var reader = try NDJSONReader(path: "Examples/seeds/clients.ndjson")
/// while let record = try reader.next() {
///     do {
///         let document = try record.parse()
///         _ = document
///     } catch {
///         print("line \(record.line): \(error.detail)")
///     }
/// }
/// ```
///
/// Memory stays at the read buffer plus the longest line, whatever the stream's length, and a line
/// longer than ``maximumLineBytes`` is not held: ``next()`` skips it (its record ``NDJSONRecord/isOverLimit``)
/// and ``nextBlock()`` hands it over in pieces (``NDJSONBlock/longLine``), so that it can still be
/// copied somewhere. The reader owns its file descriptor (it cannot be copied) and closes it when it
/// goes away.
public struct NDJSONReader: ~Copyable, Sendable {
    /// The longest line held whole, in bytes (without its terminator); a longer one is skipped or
    /// handed over in pieces, never held. Default ``JSONParserOptions/defaultMaximumBytes``, the
    /// parser's own limit; set both together. At least 1.
    public var maximumLineBytes = JSONParserOptions.defaultMaximumBytes {
        didSet { maximumLineBytes = max(1, maximumLineBytes) }
    }
    /// The line being handed over in pieces: its number, where it starts, its length so far.
    private var longLine: (line: Int, offset: Int, length: Int)?
    /// Whether the long line's last byte so far is `\r`.
    private var longLineEndsWithReturn = false
    private let descriptor: Int32
    private let closesDescriptor: Bool
    /// The path being read, or `-` for standard input.
    public let path: String
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEndOfFile = false
    private var lineNumber = 0
    private var streamOffset = 0
    private var isFirstLine = true

    /// The size of each read.
    public static let chunkSize = 1 << 18
    /// This reader's read size: ``chunkSize``, or smaller where a test asks (lines then span reads
    /// with a few bytes of input, and every read allocates less).
    let readSize: Int

    /// Opens a file.
    ///
    /// - Throws: ``NDJSONReadError`` when the file cannot be opened or is a directory.
    public init(path: String) throws(NDJSONReadError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw NDJSONReadError(path: path, reason: Self.errorText(errno)) }
        var info = stat()
        if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw NDJSONReadError(path: path, reason: "is a directory")
        }
        self.descriptor = descriptor
        self.closesDescriptor = true
        self.path = path
        self.readSize = Self.chunkSize
        self.buffer = .unfilled(readSize)
    }

    /// Reads an already open file descriptor (standard input is 0), closing it when done if asked.
    public init(fileDescriptor: Int32, path: String = "-", closeWhenDone: Bool = false) {
        self.init(fileDescriptor: fileDescriptor, path: path, closeWhenDone: closeWhenDone, readSize: Self.chunkSize)
    }

    /// A reader whose reads are `readSize` bytes (at least 16): for tests and fuzzing.
    init(fileDescriptor: Int32, path: String = "-", closeWhenDone: Bool = false, readSize: Int) {
        self.descriptor = fileDescriptor
        self.closesDescriptor = closeWhenDone
        self.path = path
        self.readSize = max(16, readSize)
        self.buffer = .unfilled(self.readSize)
    }

    /// A reader of standard input.
    public static func standardInput() -> NDJSONReader { NDJSONReader(fileDescriptor: 0) }

    deinit {
        if closesDescriptor { close(descriptor) }
    }

    /// The next non-blank line, or `nil` at the end of the stream.
    ///
    /// - Throws: ``NDJSONReadError`` when reading fails.
    public mutating func next() throws(NDJSONReadError) -> NDJSONRecord? {
        while true {
            if longLine != nil {
                // A line over the limit: read to its end, holding a chunk at a time.
                var part = try continueLongLine()
                while !part.isLast { part = try continueLongLine() }
                return NDJSONRecord(
                    line: part.line, offset: part.offset, skippedLength: part.length, limit: maximumLineBytes)
            }
            guard let (lineStart, lineEnd, consumed) = try nextLineBounds() else {
                if longLine != nil { continue }
                return nil
            }
            lineNumber += 1
            let offset = streamOffset
            streamOffset += consumed
            let first = isFirstLine
            isFirstLine = false
            let content = buffer.withUnsafeBufferPointer {
                Self.record(in: $0, from: lineStart, to: lineEnd, firstInStream: first)
            }
            guard let content else { continue }
            return NDJSONRecord(
                line: lineNumber, offset: offset + (content.lowerBound - lineStart), bytes: Array(buffer[content]))
        }
    }

    /// The next run of whole lines as one block (about ``chunkSize`` bytes, more for a longer line),
    /// or `nil` at the end of the stream: for checking lines on several threads. Lines are numbered
    /// as ``next()`` numbers them, and the two may be mixed.
    ///
    /// - Throws: ``NDJSONReadError`` when reading fails.
    public mutating func nextBlock() throws(NDJSONReadError) -> NDJSONBlock? {
        try nextBlock(polling: false, whileWaiting: { _ in false })
    }

    /// The next run of whole lines, as ``nextBlock()``; while a read would wait for input (a pipe
    /// whose writer paused), `whileWaiting` runs: the moment to hand on the results of the lines
    /// read so far, so that a slow producer sees each one as it comes. It runs at once (round 0),
    /// then every millisecond while input has still not come and it returns `true` (work is still
    /// under way); when it returns `false`, the reader waits for input.
    ///
    /// - Throws: ``NDJSONReadError`` when reading fails.
    public mutating func nextBlock(whileWaiting: (_ round: Int) -> Bool) throws(NDJSONReadError) -> NDJSONBlock? {
        try nextBlock(polling: true, whileWaiting: whileWaiting)
    }

    private mutating func nextBlock(polling: Bool, whileWaiting: (Int) -> Bool) throws(NDJSONReadError)
        -> NDJSONBlock?
    {
        let descriptor = self.descriptor
        func beforeReading() {
            guard polling else { return }
            var round = 0
            while Self.wouldWait(descriptor, milliseconds: round == 0 ? 0 : 1) {
                if !whileWaiting(round) { return }
                round += 1
            }
        }
        if longLine != nil {
            let part = try continueLongLine(beforeReading: beforeReading)
            return NDJSONBlock(firstLine: part.line, bytes: part.bytes, startsStream: false, longLine: part)
        }
        if !atEndOfFile, !buffer[start..<end].contains(0x0A) {
            if end - start > maximumLineBytes {
                let part = startLongLine()
                return NDJSONBlock(firstLine: part.line, bytes: part.bytes, startsStream: false, longLine: part)
            }
            if let block = try readBlockInPlace(beforeReading: beforeReading) { return block }
        }
        var searchFrom = start
        while true {
            let lastNewline = buffer[searchFrom..<end].lastIndex(of: 0x0A)
            if lastNewline != nil || (atEndOfFile && start < end) {
                let blockEnd = lastNewline.map { $0 + 1 } ?? end
                let block = NDJSONBlock(
                    firstLine: lineNumber + 1, bytes: Array(buffer[start..<blockEnd]), startsStream: isFirstLine)
                lineNumber += block.lineCount
                streamOffset += blockEnd - start
                start = blockEnd
                isFirstLine = false
                return block
            }
            if atEndOfFile { return nil }
            if end - start > maximumLineBytes {
                let part = startLongLine()
                return NDJSONBlock(firstLine: part.line, bytes: part.bytes, startsStream: false, longLine: part)
            }
            let searched = end - start
            try readMore(beforeReading: beforeReading)
            searchFrom = start + searched
        }
    }

    /// Starts handing over the partial line in the buffer, longer than ``maximumLineBytes``: its first
    /// piece is what the buffer holds (without a byte order mark at the stream's start), copied out
    /// only when `keepingBytes`.
    private mutating func startLongLine(keepingBytes: Bool = true) -> NDJSONLongLinePart {
        var first = start
        if isFirstLine, end - start >= 3, buffer[start] == 0xEF, buffer[start + 1] == 0xBB, buffer[start + 2] == 0xBF {
            first += 3
        }
        lineNumber += 1
        let part = NDJSONLongLinePart(
            line: lineNumber, offset: streamOffset + (first - start), length: end - first, isFirst: true,
            isLast: false, bytes: keepingBytes ? Array(buffer[first..<end]) : [])
        longLine = (part.line, part.offset, part.length)
        longLineEndsWithReturn = buffer[end - 1] == 0x0D
        streamOffset += end - start
        start = 0
        end = 0
        // The buffer grew to hold the line up to the limit; that memory goes back.
        if buffer.count > 2 * readSize { buffer = .unfilled(readSize) }
        isFirstLine = false
        return part
    }

    /// The next piece of the line being handed over: one read, up to its line break or the stream's end.
    private mutating func continueLongLine(beforeReading: () -> Void = {}) throws(NDJSONReadError)
        -> NDJSONLongLinePart
    {
        guard let (line, offset, length) = longLine else { preconditionFailure("no long line") }
        var failure: Int32?
        var got = 0
        let chunk = [UInt8](unsafeUninitializedCapacity: readSize) { target, count in
            while true {
                beforeReading()
                let result = read(descriptor, target.baseAddress!, readSize)
                if result < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                } else {
                    got = result
                }
                break
            }
            count = got
        }
        if let failure { throw NDJSONReadError(path: path, reason: Self.errorText(failure)) }
        if got == 0 {
            atEndOfFile = true
            longLine = nil
            return NDJSONLongLinePart(
                line: line, offset: offset, length: length - (longLineEndsWithReturn ? 1 : 0), isFirst: false,
                isLast: true, bytes: [])
        }
        let newline = chunk.firstIndex(of: 0x0A)
        if newline != 0 { longLineEndsWithReturn = chunk[(newline ?? got) - 1] == 0x0D }
        guard let newline else {
            longLine = (line, offset, length + got)
            streamOffset += got
            return NDJSONLongLinePart(
                line: line, offset: offset, length: length + got, isFirst: false, isLast: false, bytes: chunk)
        }
        // The rest of the read is the start of the next lines: into the (empty) buffer.
        let rest = got - (newline + 1)
        if rest > 0 {
            buffer.withUnsafeMutableBufferPointer { target in
                chunk.withUnsafeBufferPointer {
                    target.baseAddress!.initialize(from: $0.baseAddress! + newline + 1, count: rest)
                }
            }
        }
        start = 0
        end = rest
        streamOffset += newline + 1
        longLine = nil
        return NDJSONLongLinePart(
            line: line, offset: offset, length: length + newline - (longLineEndsWithReturn ? 1 : 0), isFirst: false,
            isLast: true, bytes: Array(chunk[..<newline]))
    }

    /// The detail of the error for a line of `length` bytes over `limit`.
    static func overLimitDetail(length: Int, limit: Int) -> String {
        "the line is \(length) bytes long, over the limit of \(limit)"
    }

    /// A block read straight into its own storage, without passing through ``buffer``: the partial
    /// line left in the buffer, then reads until one brings a line break (or the chunk is full, or
    /// the stream ends), cut after the last line break; the bytes after it go back into the buffer.
    /// `nil` when the chunk holds no line break (a line longer than a chunk, left in the buffer for
    /// the general path) or the stream is empty.
    private mutating func readBlockInPlace(beforeReading: () -> Void) throws(NDJSONReadError) -> NDJSONBlock? {
        let leftover = end - start
        let capacity = readSize + leftover
        var lastBreak = -1
        var failure: Int32?
        var bytes = [UInt8](unsafeUninitializedCapacity: capacity) { target, count in
            let base = target.baseAddress!
            if leftover > 0 {
                buffer.withUnsafeBufferPointer { base.initialize(from: $0.baseAddress! + start, count: leftover) }
            }
            count = leftover
            while count < capacity {
                beforeReading()
                let got = read(descriptor, base + count, capacity - count)
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if got == 0 {
                    atEndOfFile = true
                    return
                }
                // The last line break of what arrived, searched from its end (it is near the end).
                let arrived = count
                var index = count + got - 1
                while index >= arrived && base[index] != 0x0A { index -= 1 }
                count += got
                if index >= arrived {
                    lastBreak = index
                    return
                }
            }
        }
        if let failure { throw NDJSONReadError(path: path, reason: Self.errorText(failure)) }
        start = 0
        end = 0
        if lastBreak < 0 && !atEndOfFile {
            // No line break in a whole chunk: back into the buffer, which grows as the line needs.
            if buffer.count < bytes.count + readSize {
                buffer.append(contentsOf: repeatElement(0, count: bytes.count + readSize - buffer.count))
            }
            buffer.withUnsafeMutableBufferPointer { target in
                bytes.withUnsafeBufferPointer { target.baseAddress!.initialize(from: $0.baseAddress!, count: $0.count) }
            }
            end = bytes.count
            return nil
        }
        if bytes.isEmpty { return nil }
        if lastBreak >= 0 {
            // The partial line after the last break waits in the buffer for the next block.
            let tail = bytes.count - (lastBreak + 1)
            if tail > 0 {
                buffer.withUnsafeMutableBufferPointer { target in
                    bytes.withUnsafeBufferPointer {
                        target.baseAddress!.initialize(from: $0.baseAddress! + lastBreak + 1, count: tail)
                    }
                }
                end = tail
                bytes.removeLast(tail)
            }
        }
        let block = NDJSONBlock(firstLine: lineNumber + 1, bytes: bytes, startsStream: isFirstLine)
        lineNumber += block.lineCount
        streamOffset += bytes.count
        isFirstLine = false
        return block
    }

    /// The bytes consumed so far.
    public var offset: Int { streamOffset }

    /// The record in the line `start..<end` (without its `\n`): without a final `\r`, and without a
    /// byte order mark on the stream's first line; `nil` for a blank line (spaces, tabs, `\r`).
    static func record(in buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, firstInStream: Bool)
        -> Range<Int>?
    {
        var contentStart = start
        var contentEnd = end
        if contentEnd > contentStart, buffer[contentEnd - 1] == 0x0D { contentEnd -= 1 }
        if firstInStream, contentEnd - contentStart >= 3, buffer[contentStart] == 0xEF,
            buffer[contentStart + 1] == 0xBB, buffer[contentStart + 2] == 0xBF
        {
            contentStart += 3
        }
        for index in contentStart..<contentEnd {
            switch buffer[index] {
            case 0x20, 0x09, 0x0D: continue
            default: return contentStart..<contentEnd
            }
        }
        return nil
    }

    /// The bounds of the next line in `buffer` (without `\n`) and the bytes it consumed (with `\n`).
    private mutating func nextLineBounds() throws(NDJSONReadError) -> (Int, Int, Int)? {
        var searchFrom = start
        while true {
            if searchFrom < end {
                let found = buffer.withUnsafeBufferPointer { pointer -> Int? in
                    guard let hit = memchr(pointer.baseAddress! + searchFrom, 0x0A, end - searchFrom) else {
                        return nil
                    }
                    return pointer.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                }
                if let newline = found {
                    let lineStart = start
                    start = newline + 1
                    return (lineStart, newline, newline + 1 - lineStart)
                }
            }
            if atEndOfFile {
                guard start < end else { return nil }
                let lineStart = start
                start = end
                return (lineStart, end, end - lineStart)
            }
            if end - start > maximumLineBytes {
                _ = startLongLine(keepingBytes: false)  // ``next()`` reads it to its end
                return nil
            }
            let searched = end - start
            try readMore()
            searchFrom = start + searched
        }
    }

    /// Moves the partial line to the front of the buffer, grows the buffer for long lines, and reads
    /// more (or notes the end of the stream).
    private mutating func readMore(beforeReading: () -> Void = {}) throws(NDJSONReadError) {
        if start > 0 {
            buffer.withUnsafeMutableBufferPointer { pointer in
                _ = memmove(pointer.baseAddress!, pointer.baseAddress! + start, end - start)
            }
            end -= start
            start = 0
        }
        if buffer.count - end < readSize / 2 {
            buffer.append(contentsOf: repeatElement(0, count: max(readSize, buffer.count)))
        }
        while true {
            beforeReading()
            // A chunk at most, so that a line is seen to cross the limit within a chunk of it.
            let count = buffer.withUnsafeMutableBufferPointer { pointer in
                read(descriptor, pointer.baseAddress! + end, min(pointer.count - end, readSize))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw NDJSONReadError(path: path, reason: Self.errorText(errno))
            }
            if count == 0 { atEndOfFile = true } else { end += count }
            return
        }
    }

    /// Whether a read of `descriptor` would wait: nothing to read yet, and not at its end, after
    /// waiting up to `milliseconds` for it.
    static func wouldWait(_ descriptor: Int32, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) == 0
    }

    static func errorText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

extension JSONParseError {
    /// The error moved to `line` of a stream whose line starts at byte `offset`.
    func relocated(line: Int, offset: Int) -> JSONParseError {
        JSONParseError(
            reason: reason, detail: detail, offset: self.offset + offset, line: line, column: column, excerpt: excerpt)
    }
}

/// A run of whole lines of an NDJSON stream, read at once by ``NDJSONReader/nextBlock()``.
public struct NDJSONBlock: Sendable {
    /// The 1-based number of the block's first line in the stream.
    public let firstLine: Int
    /// The lines, each with its `\n` (the stream's last line may lack one).
    public let bytes: [UInt8]
    /// Whether the block starts the stream (where a byte order mark is skipped).
    public let startsStream: Bool
    /// Set when the block is a piece of a line longer than the reader's
    /// ``NDJSONReader/maximumLineBytes``: ``bytes`` then holds that piece (no line break), and
    /// ``forEachRecord(_:)`` calls nothing.
    public let longLine: NDJSONLongLinePart?

    init(firstLine: Int, bytes: [UInt8], startsStream: Bool, longLine: NDJSONLongLinePart? = nil) {
        self.firstLine = firstLine
        self.bytes = bytes
        self.startsStream = startsStream
        self.longLine = longLine
    }

    /// The number of lines in the block.
    var lineCount: Int {
        bytes.withUnsafeBufferPointer { buffer in
            guard var position = buffer.baseAddress else { return 0 }
            let end = position + buffer.count
            var lines = 0
            while position < end, let next = memchr(position, 0x0A, end - position) {
                lines += 1
                position = UnsafePointer(next.assumingMemoryBound(to: UInt8.self)) + 1
            }
            return position < end ? lines + 1 : lines
        }
    }

    /// Calls `body` for each non-blank line, in order, with its line number, the range of its record
    /// in ``bytes`` (as ``NDJSONReader/next()`` returns it: no line terminator, no byte order mark) and
    /// the range of the line as written (with a final `\r`, without the `\n` or a byte order mark).
    public func forEachRecord(_ body: (_ line: Int, _ record: Range<Int>, _ written: Range<Int>) -> Void) {
        if longLine != nil { return }
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var line = firstLine
            var start = 0
            while start < buffer.count {
                let end =
                    memchr(base + start, 0x0A, buffer.count - start).map {
                        base.distance(to: $0.assumingMemoryBound(to: UInt8.self))
                    } ?? buffer.count
                let first = startsStream && start == 0
                if let record = NDJSONReader.record(in: buffer, from: start, to: end, firstInStream: first) {
                    let writtenStart = first && record.lowerBound == start + 3 ? start + 3 : start
                    body(line, record, writtenStart..<end)
                }
                line += 1
                start = end + 1
            }
        }
    }
}

/// Where a piece of a line longer than ``NDJSONReader/maximumLineBytes`` belongs: the line is handed
/// over in pieces (``NDJSONBlock/longLine``), the first holding what was read up to the limit, the
/// next one read each, the last ending at the line break (or the stream's end). Together the pieces
/// are the line as written, without its `\n` and without a byte order mark at the stream's start.
public struct NDJSONLongLinePart: Sendable {
    /// The 1-based line number.
    public let line: Int
    /// The byte offset of the line's first byte in the stream.
    public let offset: Int
    /// The line's length in bytes up to the end of this piece; in the last piece, the whole line's
    /// without a final `\r` (as ``NDJSONRecord/length`` counts it).
    public let length: Int
    /// Whether this is the line's first piece.
    public let isFirst: Bool
    /// Whether this is the line's last piece.
    public let isLast: Bool
    /// The piece's bytes (the same as the block's).
    let bytes: [UInt8]
}

extension [UInt8] {
    /// Room for `count` bytes, not zeroed, for a reader that only ever reads what its reads wrote
    /// (the NDJSON reader's buffer, a file read whole). Zeroing the reader's first 256 KiB touched
    /// every page of it before any read did: 262,000 instructions and 64 page faults of a run's
    /// start, most of it for nothing on a small file.
    package static func unfilled(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }
}
