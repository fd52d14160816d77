#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An output file (`--valid-out`, `--quarantine`), written so that a failure leaves it as it was.
///
/// - A regular file, or a path that does not exist yet, is written to a temporary file beside it and
///   renamed over it only when everything was written: readers see the old file or the whole new
///   one, never a part. A symbolic link to a regular file is followed: its target is replaced and
///   the link stays. A new file gets the mode the umask gives (`0666 & ~umask`); a replaced file
///   keeps its own mode (and owner, where the process may set it).
/// - Anything else — `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, a FIFO, a terminal or another
///   character device — is written in place, as a stream: there is nothing to replace, and renaming
///   a file over `/dev/stdout` would destroy the device node.
///
/// Temporary files are registered with ``SignalCleanup`` while they exist, so SIGINT, SIGTERM and
/// SIGHUP remove them too.
final class OutputFile: @unchecked Sendable {
    let path: String
    let sink: ByteSink
    private let descriptor: Int32
    /// The temporary file and its destination, when the file is replaced rather than streamed.
    private let replacement: (temporary: String, destination: String, slot: Int)?
    private var finished = false
    /// Whether this is the command's standard output (`-`), whose sink it shares.
    let isStandardOutput: Bool

    /// Whether the output is written in place as a stream (standard output, a FIFO, a device)
    /// rather than to a temporary file: what is written is seen at once once flushed.
    var isStream: Bool { replacement == nil }

    /// Standard output (`-`), written through the command's own sink, as a stream.
    init(standardOutput: ByteSink) {
        path = "standard output"
        sink = standardOutput
        descriptor = -1
        replacement = nil
        isStandardOutput = true
    }

    /// Opens the output: a temporary file beside the destination, or the stream itself.
    ///
    /// - Throws: ``CLIError`` naming the file when it cannot be written.
    init(path: String) throws(CLIError) {
        self.path = path
        self.isStandardOutput = false
        func failure(_ reason: String) -> CLIError { CLIError.io("\(path): cannot be written: \(reason)") }
        let resolved = try Self.resolve(path)
        switch resolved {
        case .descriptor(let existing):
            let copy = dup(existing)
            guard copy >= 0 else { throw failure(Self.errorText()) }
            descriptor = copy
            replacement = nil
        case .stream(let target):
            let opened = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC)
            guard opened >= 0 else { throw failure(Self.errorText()) }
            descriptor = opened
            replacement = nil
        case .file(let target, let existing):
            let (folder, name) = Self.split(target)
            guard !name.isEmpty else { throw CLIError.usage("\(path): not a file name") }
            var template = Array("\(folder).\(name).assay-XXXXXX".utf8CString)
            // Created and registered with the signals held back: one that came between the two would
            // find the file and not remove it.
            let (opened, temporary, slot) = SignalCleanup.deferringSignals {
                let opened = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
                // (Failed: the error's text, read before anything else sets `errno`.)
                guard opened >= 0 else { return (opened, Self.errorText(), -1) }
                let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
                return (opened, temporary, SignalCleanup.register(temporary))
            }
            guard opened >= 0 else { throw failure(temporary) }
            if let existing {
                fchmod(opened, existing.st_mode & 0o7777)
                _ = fchown(opened, existing.st_uid, existing.st_gid)
            } else {
                fchmod(opened, 0o666 & ~Self.currentUmask())
            }
            descriptor = opened
            replacement = (temporary, target, slot)
        }
        sink = ByteSink(fileDescriptor: descriptor, flushThreshold: 1 << 18)
    }

    /// Flushes (and, for a file, syncs) what was written: after this, only the rename is left
    /// (``publish()``).
    ///
    /// - Throws: ``CLIError`` when any write failed (a full disk, a closed pipe); a temporary file
    ///   is removed and the destination is left as it was.
    func prepare() throws(CLIError) {
        guard !finished else { return }
        sink.flush()
        if let failure = sink.failure {
            discard()
            throw CLIError.io("\(path): cannot be written: \(failure)")
        }
        if replacement != nil, fsync(descriptor) != 0 {
            let reason = Self.errorText()
            discard()
            throw CLIError.io("\(path): cannot be written: \(reason)")
        }
    }

    /// Renames the prepared temporary file over the destination (a stream is only closed).
    ///
    /// - Throws: ``CLIError`` when the rename fails; the temporary file is removed.
    func publish() throws(CLIError) {
        guard !finished else { return }
        finished = true
        if descriptor >= 0 { close(descriptor) }
        guard let replacement else { return }
        defer { SignalCleanup.unregister(replacement.slot) }
        if rename(replacement.temporary, replacement.destination) != 0 {
            let reason = Self.errorText()
            unlink(replacement.temporary)
            throw CLIError.io("\(path): cannot be written: \(reason)")
        }
    }

    /// Removes the temporary file; the destination is left as it was.
    func discard() {
        guard !finished else { return }
        finished = true
        if descriptor >= 0 { close(descriptor) }
        if let replacement {
            unlink(replacement.temporary)
            SignalCleanup.unregister(replacement.slot)
        }
    }

    deinit { discard() }

    // MARK: Resolving the destination

    enum Destination {
        /// An open descriptor of this process (`/dev/stdout`, `/dev/fd/3`, `/proc/self/fd/1`).
        case descriptor(Int32)
        /// Something that is not a regular file: written in place.
        case stream(String)
        /// A regular file (with its status when it exists), replaced through a temporary file.
        case file(String, stat?)
    }

    /// Where writing to `path` goes: symbolic links followed (at most 40), descriptors of this
    /// process recognised by name, then the kind of file at the end of the chain.
    static func resolve(_ path: String) throws(CLIError) -> Destination {
        var current = path
        for _ in 0..<40 {
            if let descriptor = descriptorNamed(current) { return .descriptor(descriptor) }
            var info = stat()
            guard lstat(current, &info) == 0 else {
                guard errno == ENOENT else { throw CLIError.io("\(path): cannot be written: \(errorText())") }
                return .file(current, nil)
            }
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
                let length = readlink(current, &target, Int(PATH_MAX))
                guard length > 0 else { throw CLIError.io("\(path): cannot be written: \(errorText())") }
                let link = String(decoding: target[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                current = link.hasPrefix("/") ? link : split(current).folder + link
            case S_IFREG:
                return .file(current, info)
            case S_IFDIR:
                throw CLIError.io("\(path): cannot be written: is a directory")
            default:
                return .stream(current)
            }
        }
        throw CLIError.io("\(path): cannot be written: too many levels of symbolic links")
    }

    /// The descriptor a path names: `/dev/stdout` (1), `/dev/stderr` (2), `/dev/fd/N`,
    /// `/proc/self/fd/N` and `/proc/<this process>/fd/N`.
    static func descriptorNamed(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default: break
        }
        for prefix in ["/dev/fd/", "/proc/self/fd/", "/proc/\(getpid())/fd/"] where path.hasPrefix(prefix) {
            return Int32(path.dropFirst(prefix.count))
        }
        return nil
    }

    /// The folder (with its final `/`, or empty) and the name of a path.
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[...slash]), String(path[path.index(after: slash)...]))
    }

    /// The process's umask (read by setting and restoring it, before any worker thread starts).
    private static func currentUmask() -> mode_t {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }

    static func errorText() -> String { String(cString: strerror(errno)) }
}
