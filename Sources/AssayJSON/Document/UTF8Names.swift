/// A list of names as UTF-8 in one buffer, for matching the keys of a parsed document without
/// making strings: its storage is raw memory, so reading it costs no reference counting. The owner
/// (a compiled keyword) frees it with ``deallocate()`` when it goes, and no copy outlives the owner.
@usableFromInline package struct UTF8Names: @unchecked Sendable {
    /// The names' bytes, one after another.
    @usableFromInline let bytes: UnsafeMutablePointer<UInt8>
    /// Where each name starts in `bytes`, an entry for the end of the last name, and after it the
    /// number of different names (``distinctCount``).
    @usableFromInline let starts: UnsafeMutablePointer<Int>
    /// The number of names.
    @usableFromInline package let count: Int

    /// For lists of more than eight names, an open-addressing table of name positions by hash
    /// (-1 for an empty slot), with a power-of-two size; `nil` for short lists, which are scanned.
    @usableFromInline let buckets: UnsafeMutablePointer<Int32>?
    @usableFromInline let bucketMask: Int
    /// A bit per name, chosen by its length and first byte (``signature(_:)``): a key whose bit is
    /// clear is none of the names of a scanned list, answered without comparing it to any. Most keys
    /// a keyword looks up are not among its names (each `properties` sees every member of the
    /// object); a hashed list's table answers a miss as fast.
    @usableFromInline let signatures: UInt64

    package init(_ names: [String]) {
        let total = names.reduce(0) { $0 + $1.utf8.count }
        bytes = .allocate(capacity: max(total, 1))
        starts = .allocate(capacity: names.count + 2)
        count = names.count
        var offset = 0
        starts[0] = 0
        for (position, name) in names.enumerated() {
            for byte in name.utf8 {
                bytes[offset] = byte
                offset += 1
            }
            starts[position + 1] = offset
        }
        var signatures: UInt64 = 0
        for position in 0..<names.count {
            signatures |= Self.signature(
                UnsafeBufferPointer(start: bytes + starts[position], count: starts[position + 1] - starts[position]))
        }
        self.signatures = signatures
        guard names.count > 8 else {
            buckets = nil
            bucketMask = 0
            // By bytes: two spellings of one text (NFC and NFD) are two names.
            var distinct = 0
            for position in 0..<names.count {
                let (start, length) = (starts[position], starts[position + 1] - starts[position])
                let repeated = (0..<position).contains { other in
                    starts[other + 1] - starts[other] == length
                        && (length == 0 || sameBytes(bytes + starts[other], bytes + start, length))
                }
                if !repeated { distinct += 1 }
            }
            starts[names.count + 1] = distinct
            return
        }
        var size = 16
        while size < names.count * 2 { size *= 2 }
        let table = UnsafeMutablePointer<Int32>.allocate(capacity: size)
        table.initialize(repeating: -1, count: size)
        var distinct = 0
        for position in 0..<names.count {
            let name = UnsafeBufferPointer(
                start: bytes + starts[position], count: starts[position + 1] - starts[position])
            var slot = Self.hash(name) & (size - 1)
            var repeated = false
            while table[slot] >= 0 {
                let other = Int(table[slot])
                let length = starts[other + 1] - starts[other]
                if length == name.count
                    && (length == 0 || sameBytes(bytes + starts[other], bytes + starts[position], length))
                {
                    repeated = true
                }
                slot = (slot + 1) & (size - 1)
            }
            table[slot] = Int32(position)
            if !repeated { distinct += 1 }
        }
        buckets = table
        bucketMask = size - 1
        starts[names.count + 1] = distinct
    }

    /// The number of different names (a list may repeat one), kept in ``starts`` after the ends of
    /// the names rather than in a field: a list is passed to every key lookup, and a seventh word
    /// would take it out of registers.
    @inlinable package var distinctCount: Int { starts[count + 1] }

    /// Frees the storage; the owner calls it once, when no copy is used any more.
    package func deallocate() {
        bytes.deallocate()
        starts.deallocate()
        buckets?.deallocate()
    }

    /// A hash of a name from its length and its first and last four bytes (fewer when shorter),
    /// read as two loads, then mixed by one multiplication: names that agree there collide and are
    /// told apart by comparing them, so a lookup stays within the list's own names.
    @inlinable static func hash(_ key: UnsafeBufferPointer<UInt8>) -> Int {
        let count = key.count
        var word = UInt64(truncatingIfNeeded: count)
        if let bytes = key.baseAddress, count > 0 {
            if count >= 4 {
                let head = UnsafeRawPointer(bytes).loadUnaligned(as: UInt32.self)
                let tail = UnsafeRawPointer(bytes + count - 4).loadUnaligned(as: UInt32.self)
                word ^= UInt64(head) << 8 ^ UInt64(tail) << 29
            } else {
                word ^= UInt64(bytes[0]) << 8 | UInt64(bytes[count >> 1]) << 16 | UInt64(bytes[count - 1]) << 24
            }
        }
        let mixed = word &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> 32 ^ mixed)
    }

    /// The bit of ``signatures`` for a name or key: one of 64, from its length and first byte.
    @inlinable @inline(__always) static func signature(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let first = key.isEmpty ? 0 : UInt64(key[0])
        return 1 &<< ((UInt64(truncatingIfNeeded: key.count) &* 7 &+ first) & 63)
    }

    /// Whether one of the names has exactly the bytes of `key` (through the hash table when there
    /// is one).
    @inlinable
    package func contains(_ key: UnsafeBufferPointer<UInt8>) -> Bool { position(of: key, from: 0) != nil }

    /// ``position(of:from:)`` for a string's UTF-8 (no copy for a native string).
    @inlinable
    package func position(of key: String, from start: Int) -> Int? {
        var key = key
        return key.withUTF8 { position(of: $0, from: start) }
    }

    /// The bytes of name `position`.
    @inlinable @inline(__always) package subscript(position: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes + starts[position], count: starts[position + 1] - starts[position])
    }

    /// Whether name `position` has exactly the bytes of `key`.
    @inlinable @inline(__always)
    package func name(_ position: Int, equals key: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = starts[position]
        let length = starts[position + 1] - start
        guard length == key.count, let other = key.baseAddress else { return length == key.count }
        return sameBytes(bytes + start, other, length)
    }

    /// The position of the name whose bytes are exactly `key`, searching from `start` to the end
    /// and then from the beginning: keys met in the order of the list are found at the first try,
    /// which is inlined at the call; long lists answer a miss there through their hash table.
    @inlinable @inline(__always)
    package func position(of key: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        if start < count && name(start, equals: key) { return start }
        return search(key, from: start)
    }

    /// Whether `key` may be one of the names: `false` only when it is none (a short list's
    /// ``signatures`` say so), answered inline, without the call a miss of ``position(of:from:)``
    /// makes — for a caller most of whose keys are not names (a `properties` of a few names that
    /// sees every member of an object).
    @inlinable @inline(__always)
    package func mayContain(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
        buckets != nil || signatures & Self.signature(key) != 0
    }

    /// ``position(of:from:)-(UnsafeBufferPointer<UInt8>,_)`` after its first try.
    @usableFromInline @inline(never)
    func search(_ key: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        if let buckets {
            var slot = Self.hash(key) & bucketMask
            while buckets[slot] >= 0 {
                if name(Int(buckets[slot]), equals: key) { return Int(buckets[slot]) }
                slot = (slot + 1) & bucketMask
            }
            return nil
        }
        guard signatures & Self.signature(key) != 0 else { return nil }
        let start = start < count ? start : 0
        for position in start..<count where name(position, equals: key) { return position }
        for position in 0..<start where name(position, equals: key) { return position }
        return nil
    }
}

/// Whether `length` bytes at `first` and `second` are equal, compared a word at a time: a short
/// run as two overlapping loads of 2, 4 or 8 bytes (a call to `memcmp` costs more than a key's
/// few bytes), a long one eight bytes at a time and its last eight.
@inlinable @inline(__always)
package func sameBytes(_ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>, _ length: Int) -> Bool {
    func load<T: FixedWidthInteger>(_ pointer: UnsafePointer<UInt8>, _ offset: Int, as type: T.Type) -> T {
        UnsafeRawPointer(pointer + offset).loadUnaligned(as: T.self)
    }
    func same<T: FixedWidthInteger>(_ type: T.Type, _ offset: Int) -> Bool {
        load(first, offset, as: T.self) == load(second, offset, as: T.self)
    }
    switch length {
    case 0: return true
    case 1: return first[0] == second[0]
    case 2...3: return same(UInt16.self, 0) && same(UInt16.self, length - 2)
    case 4...7: return same(UInt32.self, 0) && same(UInt32.self, length - 4)
    case 8...16: return same(UInt64.self, 0) && same(UInt64.self, length - 8)
    default:
        var offset = 0
        while offset + 8 <= length {
            if !same(UInt64.self, offset) { return false }
            offset += 8
        }
        return same(UInt64.self, length - 8)
    }
}
