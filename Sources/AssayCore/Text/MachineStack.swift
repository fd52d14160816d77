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

    /// ``limit()`` for the calling thread, asked of the system once per thread and kept in a
    /// thread-specific slot after: on the main thread of a Linux process, the system's answer reads
    /// `/proc/self/maps`, far too slow to ask for every document.
    package static func cachedLimit() -> UInt {
        if let stored = pthread_getspecific(limitKey) { return UInt(bitPattern: stored) }
        // 1 stands for "unknown" (0): no address is below it either.
        let value = max(limit(), 1)
        pthread_setspecific(limitKey, UnsafeRawPointer(bitPattern: value))
        return value
    }

    private static let limitKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Whether locals may live in AddressSanitizer's fake stacks in this process, so that only
    /// ``currentAddress()`` tells where the stack is; otherwise the address of any local of the
    /// caller's frame does, without a call. Ask once, not at every check.
    package static var hasFakeStacks: Bool { FakeStacks.sanitizer != nil }

    /// An address in the caller's frame (close enough to the stack pointer), on the thread's own
    /// stack even under AddressSanitizer, whose fake stacks (`detect_stack_use_after_return`) keep
    /// locals in frames on the heap: there it is the real stack address of the local's fake frame.
    @inline(never)
    package static func currentAddress() -> UInt {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { pointer in
            if let fakeStacks = FakeStacks.sanitizer, let real = fakeStacks.realAddress(of: pointer) { return real }
            return UInt(bitPattern: pointer)
        }
    }
}

/// AddressSanitizer's fake stacks, found by name (present only in a sanitized process).
private struct FakeStacks: @unchecked Sendable {
    typealias Current = @convention(c) () -> UnsafeMutableRawPointer?
    typealias Lookup =
        @convention(c) (
            UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
            UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        ) -> UnsafeMutableRawPointer?

    /// `__asan_get_current_fake_stack`: the thread's fake stack, or nil when it has none.
    let current: Current
    /// `__asan_addr_is_in_fake_stack`: for an address in a fake frame, the real stack address that
    /// frame stands for.
    let lookup: Lookup

    static let sanitizer: FakeStacks? = {
        #if canImport(Darwin)
        let everywhere = RTLD_DEFAULT
        #elseif canImport(Glibc) || canImport(Musl)
        let everywhere = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
        #endif
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        guard let current = dlsym(everywhere, "__asan_get_current_fake_stack"),
            let lookup = dlsym(everywhere, "__asan_addr_is_in_fake_stack")
        else { return nil }
        return FakeStacks(
            current: unsafeBitCast(current, to: Current.self), lookup: unsafeBitCast(lookup, to: Lookup.self))
        #else
        return nil
        #endif
    }()

    /// The real stack address for `pointer` when it is in one of this thread's fake frames.
    func realAddress<T>(of pointer: UnsafeMutablePointer<T>) -> UInt? {
        guard let stack = current(), let real = lookup(stack, UnsafeMutableRawPointer(pointer), nil, nil) else {
            return nil
        }
        return UInt(bitPattern: real)
    }
}
