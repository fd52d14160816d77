#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An output file written to a temporary file beside its destination and renamed over it only when
/// everything was written: readers see the old file or the whole new one, never a part.
final class AtomicFile: @unchecked Sendable {
    let path: String
    private let temporaryPath: String
    private let descriptor: Int32
    let sink: ByteSink
    private var finished = false

    /// Creates the temporary file.
    ///
    /// - Throws: ``CLIError`` naming the file when its folder cannot be written.
    init(path: String) throws(CLIError) {
        self.path = path
        let folder: String
        let name: String
        if let slash = path.lastIndex(of: "/") {
            folder = String(path[...slash])
            name = String(path[path.index(after: slash)...])
        } else {
            folder = ""
            name = path
        }
        guard !name.isEmpty else { throw CLIError.usage("\(path): not a file name") }
        var template = Array("\(folder).\(name).assay-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw CLIError.io("\(path): cannot be written: \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
        self.temporaryPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self.sink = ByteSink(fileDescriptor: descriptor, flushThreshold: 1 << 18)
        fchmod(descriptor, 0o644)
    }

    /// Flushes and syncs the temporary file: after this, only the rename is left (``publish()``).
    ///
    /// - Throws: ``CLIError`` when any write failed (a full disk); the temporary file is removed and
    ///   the destination is left as it was.
    func prepare() throws(CLIError) {
        guard !finished else { return }
        sink.flush()
        if let failure = sink.failure {
            discard()
            throw CLIError.io("\(path): cannot be written: \(failure)")
        }
        if fsync(descriptor) != 0 {
            let reason = String(cString: strerror(errno))
            discard()
            throw CLIError.io("\(path): cannot be written: \(reason)")
        }
    }

    /// Renames the prepared temporary file over the destination.
    ///
    /// - Throws: ``CLIError`` when the rename fails; the temporary file is removed.
    func publish() throws(CLIError) {
        guard !finished else { return }
        finished = true
        close(descriptor)
        if rename(temporaryPath, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw CLIError.io("\(path): cannot be written: \(reason)")
        }
    }

    /// Removes the temporary file; the destination is left as it was.
    func discard() {
        guard !finished else { return }
        finished = true
        discardFile()
    }

    private func discardFile() {
        close(descriptor)
        unlink(temporaryPath)
    }

    deinit { discard() }
}
