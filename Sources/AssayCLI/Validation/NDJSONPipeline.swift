import Foundation

#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// A run of whole NDJSON lines, read as one block, and what checking them produced.
final class LineBatch: @unchecked Sendable {
    let sequence: Int
    let bytes: [UInt8]
    /// The 1-based number of the batch's first line.
    let firstLine: Int
    /// Whether the batch starts the stream (a byte order mark there is skipped).
    let startsStream: Bool
    /// The report of every document, in order.
    var output: [UInt8] = []
    /// Each non-blank line (without its terminator) and whether it is valid.
    var lines: [(range: Range<Int>, valid: Bool)] = []
    var documents = 0
    var invalid = 0
    var errors = 0

    init(sequence: Int, bytes: [UInt8], firstLine: Int, startsStream: Bool) {
        self.sequence = sequence
        self.bytes = bytes
        self.firstLine = firstLine
        self.startsStream = startsStream
    }

    /// Checks every line: what a worker does.
    func process(with checker: DocumentChecker) {
        var line = firstLine
        var start = 0
        if startsStream, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        let count = bytes.count
        bytes.withUnsafeBufferPointer { buffer in
            while start < count {
                let end =
                    memchr(buffer.baseAddress! + start, 0x0A, count - start).map {
                        buffer.baseAddress!.distance(to: $0.assumingMemoryBound(to: UInt8.self))
                    } ?? count
                var contentEnd = end
                if contentEnd > start, buffer[contentEnd - 1] == 0x0D { contentEnd -= 1 }
                if !Self.isBlank(buffer, start, contentEnd) {
                    let found = checker.checkLine(bytes[start..<contentEnd], line: line, into: &output)
                    documents += 1
                    if found > 0 {
                        invalid += 1
                        errors += found
                    }
                    lines.append((start..<end, found == 0))
                }
                line += 1
                start = end + 1
            }
        }
    }

    private static func isBlank(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var index = start
        while index < end {
            switch buffer[index] {
            case 0x20, 0x09, 0x0D: index += 1
            default: return false
            }
        }
        return true
    }
}

/// Cuts a byte stream into batches of whole lines, about `blockSize` bytes each (a longer line makes
/// a longer batch).
struct LineBatchReader {
    let descriptor: Int32
    let path: String
    let blockSize: Int
    private var carry: [UInt8] = []
    private var atEnd = false
    private var nextLine = 1
    private var nextSequence = 0
    /// Bytes read so far.
    private(set) var bytesRead = 0

    init(descriptor: Int32, path: String, blockSize: Int = 1 << 20) {
        self.descriptor = descriptor
        self.path = path
        self.blockSize = blockSize
    }

    /// The number of line feeds in `bytes`, found with `memchr`.
    static func lineFeeds(in bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            guard var position = buffer.baseAddress else { return 0 }
            let end = position + buffer.count
            var found = 0
            while position < end, let next = memchr(position, 0x0A, end - position) {
                found += 1
                position = UnsafePointer(next.assumingMemoryBound(to: UInt8.self)) + 1
            }
            return found
        }
    }

    /// The next batch, or `nil` at the end of the stream.
    mutating func next() throws(CLIError) -> LineBatch? {
        guard !atEnd || !carry.isEmpty else { return nil }
        var buffer = carry
        carry = []
        var searchFrom = 0
        while true {
            if !atEnd {
                let used = buffer.count
                buffer.append(contentsOf: repeatElement(0, count: blockSize))
                let got = try FileReading.read(descriptor, into: &buffer, at: used, count: blockSize, path: path)
                buffer.removeSubrange((used + got)...)
                bytesRead += got
                if got == 0 { atEnd = true }
            }
            if let newline = buffer[searchFrom...].lastIndex(of: 0x0A) {
                if newline + 1 < buffer.count {
                    carry = Array(buffer[(newline + 1)...])
                    buffer.removeSubrange((newline + 1)...)
                }
                break
            }
            searchFrom = buffer.count
            if atEnd { break }
        }
        guard !buffer.isEmpty else { return nil }
        let batch = LineBatch(
            sequence: nextSequence, bytes: buffer, firstLine: nextLine, startsStream: nextSequence == 0)
        nextSequence += 1
        nextLine += Self.lineFeeds(in: buffer)
        return batch
    }
}

/// Checks batches on worker threads and hands them back in input order, with a bounded number in
/// flight so memory stays flat whatever the input's size.
final class OrderedWorkPool: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [LineBatch] = []
    private var completed: [Int: LineBatch] = [:]
    private var nextToHandOut = 0
    private var inFlight = 0
    private var closed = false
    private var running = 0
    private let limit: Int
    private let checker: DocumentChecker

    /// Starts `workers` threads, each checking with its own `makeChecker()` (so that threads share
    /// no schema objects); the calling thread uses `checker` when it helps.
    init(workers: Int, checker: DocumentChecker, makeChecker: @escaping @Sendable () -> DocumentChecker) {
        self.limit = workers * 3
        self.checker = checker
        for _ in 0..<workers {
            let thread = Thread { [self] in work(with: makeChecker()) }
            thread.stackSize = 1 << 24
            running += 1
            thread.start()
        }
    }

    private func work(with checker: DocumentChecker) {
        while true {
            condition.lock()
            while queue.isEmpty && !closed { condition.wait() }
            if queue.isEmpty {
                running -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            let batch = queue.removeFirst()
            condition.unlock()
            batch.process(with: checker)
            condition.lock()
            completed[batch.sequence] = batch
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Queues a batch; while too many are in flight, hands finished ones to `deliver`, in order.
    func submit(_ batch: LineBatch, deliver: (LineBatch) -> Void) {
        condition.lock()
        handOut(while: { inFlight >= limit }, deliver: deliver)
        queue.append(batch)
        inFlight += 1
        condition.broadcast()
        var ready: [LineBatch] = []
        while let next = takeReady() { ready.append(next) }
        condition.unlock()
        ready.forEach(deliver)
    }

    /// Waits for every queued batch and hands them to `deliver`, in order; then stops the workers.
    func finish(deliver: (LineBatch) -> Void) {
        condition.lock()
        closed = true
        condition.broadcast()
        handOut(while: { inFlight > 0 }, deliver: deliver)
        while running > 0 { condition.wait() }
        condition.unlock()
    }

    /// While `busy` holds, hands finished batches to `deliver` in order (without the lock) or waits
    /// for one. Called and returns with the lock held.
    private func handOut(while busy: () -> Bool, deliver: (LineBatch) -> Void) {
        while busy() {
            if let ready = takeReady() {
                condition.unlock()
                deliver(ready)
                condition.lock()
            } else if !queue.isEmpty {
                // Rather than wait, the calling thread checks a queued batch itself.
                let batch = queue.removeFirst()
                condition.unlock()
                batch.process(with: checker)
                condition.lock()
                completed[batch.sequence] = batch
            } else {
                condition.wait()
            }
        }
    }

    /// Must hold the lock.
    private func takeReady() -> LineBatch? {
        guard let ready = completed.removeValue(forKey: nextToHandOut) else { return nil }
        nextToHandOut += 1
        inFlight -= 1
        return ready
    }
}
