#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One document's text cut from a YAML stream, or a document too large to hold.
enum YAMLChunk {
    /// The text of a document (with the directives, comments and markers around it), and the number
    /// of lines before it in the stream, as libyaml counts lines.
    case text([UInt8], lineOffset: Int)
    /// A document longer than the limit: its first line and its length so far, not held.
    case overLimit(line: Int, length: Int)
}

/// Reads a YAML stream a document at a time, so that a long stream is validated as it comes and
/// memory holds one document.
///
/// The stream is cut before each line that starts a document (`---` at the start of a line, followed
/// by a space, a tab or the line's end) and after each line that ends one (`...`). YAML forbids those
/// two markers at the start of a line inside a document, even inside a block or quoted scalar
/// (`c-forbidden`), so no document is cut in two; what comes before the first content of a
/// document (directives, comments, blank lines) stays with it. Each piece is then parsed on its own
/// (``YAMLInput/documents(_:lineOffset:)``). A document is known to be complete when the next one
/// starts, `...` ends it, or the stream ends.
struct YAMLStreamReader: ~Copyable {
    private let descriptor: Int32
    private let closesDescriptor: Bool
    /// The longest document held, in bytes; a longer one is skipped to its end and reported.
    let maximumBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private var chunk: [UInt8] = []
    private var hasContent = false
    /// Whether the piece holds a directive before its content: parsed even without a document, so
    /// that a directive with none after it is reported as the whole stream would report it.
    private var hasDirective = false
    /// The lines (libyaml's count) of the pieces handed out.
    private var linesBefore = 0
    /// The piece being skipped for its size: its first line and length so far.
    private var skipping: (line: Int, length: Int)?
    private var isFirstLine = true
    /// Whether no document has begun in the stream yet: libyaml reads a `...` there as the start
    /// of a (malformed) document, so it does not end a piece.
    private var atStreamStart = true
    /// Whether the last piece read ended inside a line (a line longer than the limit).
    private var isMidLine = false
    /// The input's name in messages.
    let path: String

    init(descriptor: Int32, closesDescriptor: Bool, path: String, maximumBytes: Int) {
        self.path = path
        self.descriptor = descriptor
        self.closesDescriptor = closesDescriptor
        self.maximumBytes = maximumBytes
    }

    deinit {
        if closesDescriptor { close(descriptor) }
    }

    /// The next document, or `nil` at the end of the stream. `beforeWaiting` runs before a read that
    /// would wait for input.
    mutating func next(beforeWaiting: () -> Void) throws(CLIError) -> YAMLChunk? {
        while true {
            let startsLine = !isMidLine
            guard let line = try nextLine(beforeWaiting: beforeWaiting) else {
                return finishChunk()
            }
            if !startsLine {
                append(line)
                continue
            }
            if let piece = add(line) { return piece }
        }
    }

    /// Adds a line (with its line break); returns a piece when the line completes one.
    private mutating func add(_ line: ArraySlice<UInt8>) -> YAMLChunk? {
        var marker = line
        if isFirstLine, marker.starts(with: [0xEF, 0xBB, 0xBF]) { marker = marker.dropFirst(3) }
        isFirstLine = false
        if Self.isMarker(marker, 0x2D) {  // ---
            let finished = hasContent ? finishChunk() : nil
            append(line)
            hasContent = true
            atStreamStart = false
            return finished
        }
        append(line)
        if Self.isMarker(marker, 0x2E), !atStreamStart {  // ...
            return finishChunk()
        }
        if !hasContent, !Self.isPreamble(marker) {
            hasContent = true
            atStreamStart = false
        } else if !hasContent, marker.first == 0x25 {  // %
            hasDirective = true
        }
        return nil
    }

    private mutating func append(_ line: ArraySlice<UInt8>) {
        if var skipped = skipping {
            skipped.length += line.count
            skipping = skipped
            linesBefore += Self.lineBreaks(in: line)
            return
        }
        if chunk.count + line.count > maximumBytes {
            skipping = (linesBefore + 1, chunk.count + line.count)
            linesBefore += Self.lineBreaks(in: chunk) + Self.lineBreaks(in: line)
            chunk = []
            return
        }
        chunk.append(contentsOf: line)
    }

    /// Hands out the piece gathered so far: `nil` when it holds no document (only comments, blank
    /// lines or markers, which the lines are counted past).
    private mutating func finishChunk() -> YAMLChunk? {
        defer { (hasContent, hasDirective) = (false, false) }
        if let skipped = skipping {
            skipping = nil
            return .overLimit(line: skipped.line, length: skipped.length)
        }
        guard hasContent || hasDirective else {
            linesBefore += Self.lineBreaks(in: chunk)
            chunk = []
            return nil
        }
        let piece = YAMLChunk.text(chunk, lineOffset: linesBefore)
        linesBefore += Self.lineBreaks(in: chunk)
        chunk = []
        return piece
    }

    /// Whether `line` is `---` or `...` (`byte` three times) followed by a space, a tab or its end.
    static func isMarker(_ line: ArraySlice<UInt8>, _ byte: UInt8) -> Bool {
        guard line.count >= 3, line.prefix(3).allSatisfy({ $0 == byte }) else { return false }
        let next = line.dropFirst(3).first
        return next == nil || next == 0x20 || next == 0x09 || next == 0x0A || next == 0x0D
    }

    /// Whether a line can come before a document's content and be passed over when no document
    /// follows: blank, a comment or a directive, indented with spaces only. Anything else — a tab
    /// (which libyaml may refuse), a line that libyaml would count as several (a CR, NEL, LS or PS
    /// inside it) — is taken for content and parsed, so that nothing the whole stream would report
    /// is passed over.
    static func isPreamble(_ line: ArraySlice<UInt8>) -> Bool {
        var body = line
        if body.last == 0x0A { body = body.dropLast() }
        if body.last == 0x0D { body = body.dropLast() }
        let indented = body.drop { $0 == 0x20 }
        guard let first = indented.first else { return true }
        if body.contains(where: { $0 == 0x0D || $0 == 0x85 || $0 == 0xA8 || $0 == 0xA9 }) { return false }
        return first == 0x23 || body.first == 0x25  // # or %
    }

    /// Line breaks as libyaml counts them: LF, CR, CR LF, NEL, LS and PS.
    static func lineBreaks(in bytes: some Collection<UInt8>) -> Int {
        var count = 0
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for byte in bytes {
            switch byte {
            case 0x0A where previous != 0x0D: count += 1
            case 0x0D: count += 1
            case 0x85 where previous == 0xC2: count += 1  // U+0085
            case 0xA8 where previous == 0x80 && beforePrevious == 0xE2: count += 1  // U+2028
            case 0xA9 where previous == 0x80 && beforePrevious == 0xE2: count += 1  // U+2029
            default: break
            }
            beforePrevious = previous
            previous = byte
        }
        return count
    }

    /// The next line with its `\n` (the last one may have none), or `nil` at the end.
    private mutating func nextLine(beforeWaiting: () -> Void) throws(CLIError) -> ArraySlice<UInt8>? {
        // The bytes after `start` already searched for a line break: a long line is searched once,
        // not again after every read (which would cost its length squared).
        var searched = 0
        while true {
            if let newline = buffer[(start + searched)...].firstIndex(of: 0x0A) {
                let line = buffer[start...newline]
                start = newline + 1
                isMidLine = false
                return line
            }
            // A line longer than the limit is passed on in pieces: the document is skipped anyway.
            if atEnd || buffer.count - start > maximumBytes {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                start = buffer.count
                isMidLine = !atEnd
                return line
            }
            searched = buffer.count - start
            try readMore(beforeWaiting: beforeWaiting)
        }
    }

    private mutating func readMore(beforeWaiting: () -> Void) throws(CLIError) {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        if poll(&entry, 1, 0) == 0 { beforeWaiting() }
        let chunkSize = 1 << 16
        let used = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunkSize))
        while true {
            let got = buffer.withUnsafeMutableBufferPointer { read(descriptor, $0.baseAddress! + used, chunkSize) }
            if got < 0 {
                if errno == EINTR { continue }
                buffer.removeLast(chunkSize)
                throw CLIError.io("\(path): cannot be read: \(String(cString: strerror(errno)))")
            }
            buffer.removeLast(chunkSize - got)
            if got == 0 { atEnd = true }
            return
        }
    }
}
