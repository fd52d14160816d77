import AssayJSON
import AssaySchema
import Foundation

#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// A block of whole NDJSON lines (``NDJSONBlock``) and what checking them produced.
final class LineBatch: @unchecked Sendable {
    let sequence: Int
    let block: NDJSONBlock
    /// How the block's input reports (its file name).
    let reporter: Reporter
    /// The report of every document, in order.
    var output: [UInt8] = []
    /// Each non-blank line as written (without its `\n`) and whether it is valid.
    var lines: [(range: Range<Int>, valid: Bool)] = []
    var documents = 0
    var invalid = 0
    var errors = 0
    /// Documents not validated because they crossed a limit (counted among the invalid too).
    var overLimit = 0
    /// The invalid documents, when the checker collects them (their `record` a range of ``bytes``).
    var failed: [FailedDocument] = []

    init(sequence: Int, block: NDJSONBlock, reporter: Reporter) {
        self.sequence = sequence
        self.block = block
        self.reporter = reporter
    }

    var bytes: [UInt8] { block.bytes }

    /// Checks every record with `checker`'s schema and limits, reporting with the block's reporter:
    /// what a worker does. `messages` are the messages the worker rendered so far (one memo for all
    /// its batches: records fail in the same few ways over the whole input), made again when the
    /// block reports in another language.
    func process(with checker: DocumentChecker, messages: inout SchemaMessageMemo?) {
        var checker = checker
        checker.reporter = reporter
        if let part = block.longLine {
            // A piece of a line over the limit: reported once, with its last piece.
            guard part.isLast else { return }
            var overLimit = 0
            var failed: FailedDocument?
            let found = checker.checkLongLine(
                line: part.line, length: part.length, into: &output, overLimit: &overLimit, failed: &failed)
            (documents, invalid, errors, self.overLimit) = (1, 1, found, overLimit)
            if let failed { self.failed = [failed] }
            return
        }
        // Counted in locals, stored once: the closure would otherwise check exclusive access to
        // this object's properties at run time for every line.
        var output: [UInt8] = []
        var lines: [(range: Range<Int>, valid: Bool)] = []
        var failedDocuments: [FailedDocument] = []
        var (documents, invalid, errors, overLimit) = (0, 0, 0, 0)
        // A valid line's report is a fifth to a half of a benchmark record: room for that up front
        // instead of reallocations (and copies) per block.
        output.reserveCapacity(block.bytes.count / 2)
        let bytes = block.bytes
        // Read through a constant: a `var` captured by the closure is copied (every reference in it
        // retained and released) for each line.
        let lineChecker = checker
        if messages?.language != reporter.language {
            messages = SchemaMessageMemo(language: reporter.language)
        }
        let messages = messages
        // The document of the line before, whose memory the next line's parse takes over.
        var spare: JSONDocument?
        block.forEachRecord { line, record, written in
            var failed: FailedDocument?
            let found = lineChecker.checkLine(
                bytes[record], line: line, into: &output, overLimit: &overLimit, failed: &failed,
                messages: messages, recycling: &spare)
            if var failed {
                failed.record = record
                failedDocuments.append(failed)
            }
            documents += 1
            if found > 0 {
                invalid += 1
                errors += found
            }
            lines.append((written, found == 0))
        }
        (self.output, self.lines, self.failed) = (output, lines, failedDocuments)
        (self.documents, self.invalid, self.errors, self.overLimit) = (documents, invalid, errors, overLimit)
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

    /// Starts `workers` threads, each checking with its own `makeChecker()` (so that threads share
    /// no schema objects). The calling thread only reads, submits and delivers: when it also checked
    /// batches, the workers emptied the queue while it was busy and sat idle (a third of their time
    /// with two workers on two cores), since no new batch was read until it finished its own.
    init(workers: Int, makeChecker: @escaping @Sendable () -> DocumentChecker) {
        self.limit = workers * 3
        for _ in 0..<workers {
            let thread = Thread { [self] in work(with: makeChecker()) }
            thread.stackSize = 1 << 24
            running += 1
            // Started with SIGINT, SIGTERM and SIGHUP held back, which it inherits: they reach the
            // main thread, where the files they remove are registered with them held back.
            SignalCleanup.deferringSignals { thread.start() }
        }
    }

    private func work(with checker: DocumentChecker) {
        // This worker's own: records fail in the same few ways, and a message is rendered once.
        var messages: SchemaMessageMemo?
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
            batch.process(with: checker, messages: &messages)
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

    /// Hands the finished batches to `deliver`, in order. Returns whether batches are still in flight.
    func handOutFinished(deliver: (LineBatch) -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while let ready = takeReady() {
            condition.unlock()
            deliver(ready)
            condition.lock()
        }
        return inFlight > 0
    }

    /// Waits for every queued batch and hands them to `deliver`, in order; the workers go on.
    func drain(deliver: (LineBatch) -> Void) {
        condition.lock()
        handOut(while: { inFlight > 0 }, deliver: deliver)
        condition.unlock()
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
