import AssayJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading whole files and streams with errors that name the file.
enum FileReading {
    /// Opens `path` for reading; refuses directories.
    static func open(_ path: String) throws(CLIError) -> Int32 {
        #if canImport(Glibc)
        let descriptor = Glibc.open(path, O_RDONLY)
        #else
        let descriptor = Darwin.open(path, O_RDONLY)
        #endif
        guard descriptor >= 0 else { throw CLIError.io("\(path): cannot be read: \(lastError())") }
        var info = stat()
        if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw CLIError.io("\(path): is a directory, not a file")
        }
        return descriptor
    }

    /// Checks, before a run starts, that `path` can be read: a regular file is opened and closed; a
    /// FIFO, a device or a descriptor (`/dev/fd/N`) only has its permission checked, since opening
    /// it would wait for a writer, and closing it would end the writer's stream.
    static func checkReadable(_ path: String) throws(CLIError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw CLIError.io("\(path): cannot be read: \(lastError())") }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            throw CLIError.io("\(path): is a directory, not a file")
        case S_IFREG:
            close(try open(path))
        default:
            guard access(path, R_OK) == 0 else { throw CLIError.io("\(path): cannot be read: \(lastError())") }
        }
    }

    /// The size of a regular file, or `nil` for pipes and terminals.
    static func size(of descriptor: Int32) -> Int? {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// The size of the regular file at `path`, or `nil`.
    static func size(ofFile path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Reads up to `count` bytes into `buffer` after `used`; 0 at the end.
    static func read(_ descriptor: Int32, into buffer: inout [UInt8], at used: Int, count: Int, path: String)
        throws(CLIError) -> Int
    {
        while true {
            let got = buffer.withUnsafeMutableBytes { raw in
                #if canImport(Glibc)
                Glibc.read(descriptor, raw.baseAddress! + used, count)
                #else
                Darwin.read(descriptor, raw.baseAddress! + used, count)
                #endif
            }
            if got >= 0 { return got }
            if errno == EINTR { continue }
            throw CLIError.io("\(path): cannot be read: \(lastError())")
        }
    }

    /// Reads everything from an open descriptor.
    static func readAll(_ descriptor: Int32, path: String) throws(CLIError) -> [UInt8] {
        // Not zeroed: what is kept is what the reads wrote (`used` bytes), and the pages a small
        // file leaves untouched stay so.
        var bytes = [UInt8].unfilled(max(size(of: descriptor) ?? 0, 1 << 16) + 1)
        var used = 0
        while true {
            if used == bytes.count { bytes.append(contentsOf: repeatElement(0, count: bytes.count)) }
            let got = try read(descriptor, into: &bytes, at: used, count: bytes.count - used, path: path)
            if got == 0 { break }
            used += got
        }
        bytes.removeSubrange(used...)
        return bytes
    }

    /// Reads a whole file.
    static func readFile(_ path: String) throws(CLIError) -> [UInt8] {
        let descriptor = try open(path)
        defer { close(descriptor) }
        return try readAll(descriptor, path: path)
    }

    static func lastError() -> String { String(cString: strerror(errno)) }
}
