#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Removes the run's temporary files when the process is stopped by SIGINT, SIGTERM or SIGHUP, so
/// that every destination is left as it was; then exits with status 128 + the signal's number
/// (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP) after one line on standard error. SIGPIPE is
/// ignored, so that writing to a closed pipe is a write error the run stops on (exit status 2),
/// with its temporary files removed, rather than a silent death that leaves them behind.
///
/// The handler only calls `unlink`, `write` and `_exit`, which are safe in a signal handler; the
/// paths it removes are kept as C strings in a fixed table, registered and unregistered by the main
/// thread.
public enum SignalCleanup {
    private static let capacity = 64
    nonisolated(unsafe) private static let paths: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let table = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        table.initialize(repeating: nil, count: capacity)
        return table
    }()
    nonisolated(unsafe) private static var installed = false

    /// Installs the handlers (once). The `assay` executable calls it before it runs a command.
    public static func install() {
        guard !installed else { return }
        installed = true
        _ = paths
        signal(SIGPIPE, SIG_IGN)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            // A signal the parent made the process ignore (SIGINT of a background job, SIGHUP under
            // nohup) stays ignored; a blocked one (a mask inherited from a parent's thread) is unblocked.
            var previous = sigaction()
            sigaction(signalNumber, nil, &previous)
            #if canImport(Glibc)
            let handler = previous.__sigaction_handler.sa_handler
            #else
            let handler = previous.__sigaction_u.__sa_handler
            #endif
            let ignored = unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
            if ignored && signalNumber != SIGTERM { continue }
            sigaddset(&unblocked, signalNumber)
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = handle
            #else
            action.__sigaction_u.__sa_handler = handle
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signalNumber, &action, nil)
        }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    }

    /// Runs `body` with SIGINT, SIGTERM and SIGHUP held back on the calling thread; one that arrives
    /// meanwhile is handled when `body` returns. A temporary file is created and registered inside
    /// it, so that no signal finds it created and not yet registered (the handler would leave it
    /// behind); threads started inside it inherit the mask, so that these signals reach the main
    /// thread only.
    static func deferringSignals<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        var held = sigset_t()
        sigemptyset(&held)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&held, signalNumber) }
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &held, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    /// Records a temporary file to remove on a signal; returns its slot (-1 when the table is full,
    /// and then the file is only removed by the run itself).
    static func register(_ path: String) -> Int {
        for slot in 0..<capacity where paths[slot] == nil {
            paths[slot] = strdup(path)
            return slot
        }
        return -1
    }

    /// The path in `slot`, for the handler.
    fileprivate static func path(at slot: Int) -> UnsafeMutablePointer<CChar>? { paths[slot] }

    /// Forgets a temporary file (renamed into place or removed).
    static func unregister(_ slot: Int) {
        guard slot >= 0, slot < capacity, let path = paths[slot] else { return }
        paths[slot] = nil
        free(path)
    }
}

private func handle(_ signalNumber: Int32) {
    for slot in 0..<64 {
        if let path = SignalCleanup.path(at: slot) { unlink(path) }
    }
    let message: StaticString
    switch signalNumber {
    case SIGINT: message = "assay: interrupted (SIGINT); output files were left as they were\n"
    case SIGTERM: message = "assay: terminated (SIGTERM); output files were left as they were\n"
    default: message = "assay: hung up (SIGHUP); output files were left as they were\n"
    }
    _ = write(2, message.utf8Start, message.utf8CodeUnitCount)
    _exit(128 + signalNumber)
}
