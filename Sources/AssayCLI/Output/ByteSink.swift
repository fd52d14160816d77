import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A buffered byte stream: a file descriptor, or memory (for tests).
///
/// Writes are buffered and flushed in large blocks. The first write error is kept (``failure``) and
/// later writes are dropped, so the caller checks once, at the end, instead of after every line.
/// A sink may be shared between threads: every access holds its lock (the command line writes
/// only from its main thread, so the lock is never contended there).
public final class ByteSink: @unchecked Sendable {
    private let lock = NSLock()
    private enum Target {
        case descriptor(Int32)
        case memory
    }

    private let target: Target
    private var buffer: [UInt8] = []
    private var stored: [UInt8] = []
    private let flushThreshold: Int
    private var firstFailure: String?
    /// The first write error, as text (`"No space left on device"`), or `nil`.
    public var failure: String? { lock.withLock { firstFailure } }

    /// A sink that writes to a file descriptor it does not own.
    public init(fileDescriptor: Int32, flushThreshold: Int = 1 << 16) {
        self.target = .descriptor(fileDescriptor)
        self.flushThreshold = flushThreshold
        buffer.reserveCapacity(flushThreshold + 4096)
    }

    /// A sink that keeps everything in memory; read it with ``contents``.
    public init() {
        self.target = .memory
        self.flushThreshold = 1 << 16
    }

    /// Everything written so far to an in-memory sink.
    public var contents: [UInt8] {
        lock.withLock {
            flushLocked()
            return stored
        }
    }

    /// Everything written so far to an in-memory sink, as text.
    public var text: String { String(decoding: contents, as: UTF8.self) }

    /// Appends bytes.
    public func write<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        lock.lock()
        defer { lock.unlock() }
        guard firstFailure == nil else { return }
        // A block's whole report (a few hundred kilobytes) goes out as it is, not copied first.
        if case .descriptor(let descriptor) = target, bytes.count >= flushThreshold,
            bytes.withContiguousStorageIfAvailable({ (bytes: UnsafeBufferPointer<UInt8>) -> Bool in
                flushLocked()
                if firstFailure == nil { writeAll(descriptor, UnsafeRawBufferPointer(bytes)) }
                return true
            }) != nil
        {
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= flushThreshold { flushLocked() }
    }

    /// Appends text as UTF-8.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { write($0) }
    }

    /// Writes out what is buffered.
    public func flush() { lock.withLock { flushLocked() } }

    private func flushLocked() {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        guard firstFailure == nil else { return }
        switch target {
        case .memory:
            stored.append(contentsOf: buffer)
        case .descriptor(let descriptor):
            buffer.withUnsafeBytes { writeAll(descriptor, $0) }
        }
    }

    /// Writes all of `raw` to `descriptor`, again after an interruption; keeps the first failure.
    private func writeAll(_ descriptor: Int32, _ raw: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < raw.count {
            let written = systemWrite(descriptor, raw.baseAddress! + offset, raw.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                firstFailure = String(cString: strerror(errno))
                return
            }
            offset += written
        }
    }
}

@inline(__always)
func systemWrite(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(descriptor, pointer, count)
    #else
    return Darwin.write(descriptor, pointer, count)
    #endif
}
