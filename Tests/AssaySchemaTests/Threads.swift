import Foundation

/// Runs `body` on a thread of its own with a stack of `stackSize` bytes, waits for it, and rethrows
/// what it threw: for depths that must fit whatever a build's frames cost (a debug build under
/// AddressSanitizer takes several times the stack of a release build per level), and for the small
/// stacks of secondary threads.
func onThread(stackSize: Int, _ body: @escaping @Sendable () throws -> Void) throws {
    final class Outcome: @unchecked Sendable {
        var error: (any Error)?
    }
    let outcome = Outcome()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        do { try body() } catch { outcome.error = error }
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
    if let error = outcome.error { throw error }
}
