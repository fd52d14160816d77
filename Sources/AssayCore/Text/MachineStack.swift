#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The current thread's machine stack, for recursions over untrusted input that must stop before
/// they overflow it: a thread's stack may be 512 KB (a secondary thread on Apple platforms) or less,
/// whatever depth limits allow.
package enum MachineStack {
    /// What a recursion keeps free below its last check, at most: room for the frames between two
    /// checks and for reporting an error (a quarter of the stack, on a stack smaller than 512 KB).
    package static let margin = 128 << 10

    /// The address below which a recursion growing the stack downwards should stop (the stack's
    /// end plus ``margin``, or a quarter of the stack if less), or 0 when it cannot be known. Costs a system call or two: ask once
    /// per evaluation, and only when it goes deep.
    package static func limit() -> UInt {
        #if canImport(Darwin)
        let thread = pthread_self()
        let high = UInt(bitPattern: pthread_get_stackaddr_np(thread))
        let size = UInt(pthread_get_stacksize_np(thread))
        return high >= size ? high - size + min(UInt(margin), size / 4) : 0
        #elseif canImport(Glibc) || canImport(Musl)
        // pthread_getattr_np is a GNU extension the Glibc module does not declare: found by name.
        typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np") else { return 0 }
        let getAttributes = unsafeBitCast(symbol, to: GetAttributes.self)
        var attributes = pthread_attr_t()
        guard getAttributes(pthread_self(), &attributes) == 0 else { return 0 }
        defer { pthread_attr_destroy(&attributes) }
        var address: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else { return 0 }
        return UInt(bitPattern: address) + UInt(min(margin, size / 4))
        #else
        return 0
        #endif
    }

    /// An address in the caller's frame (close enough to the stack pointer).
    @inline(never)
    package static func currentAddress() -> UInt {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }
}
