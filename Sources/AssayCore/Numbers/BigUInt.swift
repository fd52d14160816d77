/// A small arbitrary-precision unsigned integer, for exact comparison and divisibility of decimal
/// numbers that do not fit 64 bits (JSON numbers, and the factors of `Rule.multipleOf`). Little-endian 32-bit limbs, no leading zero limbs.
package struct BigUInt: Hashable, Sendable, Comparable {
    package private(set) var limbs: [UInt32]

    package init(_ value: UInt64 = 0) {
        limbs = []
        var v = value
        while v > 0 {
            limbs.append(UInt32(truncatingIfNeeded: v))
            v >>= 32
        }
    }

    /// Parses ASCII decimal digits.
    package init<C: Collection>(decimalDigits digits: C) where C.Element == UInt8 {
        self.init()
        var chunk: UInt64 = 0
        var chunkLength = 0
        for digit in digits {
            chunk = chunk * 10 + UInt64(digit &- 0x30)
            chunkLength += 1
            if chunkLength == 9 {
                multiply(by: 1_000_000_000, adding: UInt32(chunk))
                chunk = 0
                chunkLength = 0
            }
        }
        if chunkLength > 0 {
            var scale: UInt32 = 1
            for _ in 0..<chunkLength { scale *= 10 }
            multiply(by: scale, adding: UInt32(chunk))
        }
    }

    package var isZero: Bool { limbs.isEmpty }

    package mutating func multiply(by factor: UInt32, adding addend: UInt32 = 0) {
        var carry = UInt64(addend)
        for index in limbs.indices {
            let product = UInt64(limbs[index]) * UInt64(factor) + carry
            limbs[index] = UInt32(truncatingIfNeeded: product)
            carry = product >> 32
        }
        if carry > 0 { limbs.append(UInt32(carry)) }
        normalize()
    }

    /// Multiplies by 10^power.
    package mutating func multiplyByPowerOfTen(_ power: Int) {
        var remaining = power
        while remaining >= 9 {
            multiply(by: 1_000_000_000)
            remaining -= 9
        }
        if remaining > 0 {
            var scale: UInt32 = 1
            for _ in 0..<remaining { scale *= 10 }
            multiply(by: scale)
        }
    }

    private mutating func normalize() {
        while limbs.last == 0 { limbs.removeLast() }
    }

    package var bitWidth: Int {
        guard let last = limbs.last else { return 0 }
        return (limbs.count - 1) * 32 + (32 - last.leadingZeroBitCount)
    }

    package func bit(_ index: Int) -> Bool {
        let limb = index / 32
        return limb < limbs.count && (limbs[limb] >> UInt32(index % 32)) & 1 == 1
    }

    package static func < (lhs: BigUInt, rhs: BigUInt) -> Bool {
        if lhs.limbs.count != rhs.limbs.count { return lhs.limbs.count < rhs.limbs.count }
        for index in stride(from: lhs.limbs.count - 1, through: 0, by: -1) where lhs.limbs[index] != rhs.limbs[index] {
            return lhs.limbs[index] < rhs.limbs[index]
        }
        return false
    }

    package mutating func subtract(_ other: BigUInt) {
        var borrow: Int64 = 0
        for index in limbs.indices {
            var difference = Int64(limbs[index]) - borrow - (index < other.limbs.count ? Int64(other.limbs[index]) : 0)
            if difference < 0 {
                difference += 1 << 32
                borrow = 1
            } else {
                borrow = 0
            }
            limbs[index] = UInt32(difference)
        }
        normalize()
    }

    package mutating func shiftLeftOne(insertingBit bit: Bool) {
        var carry: UInt32 = bit ? 1 : 0
        for index in limbs.indices {
            let next = limbs[index] >> 31
            limbs[index] = (limbs[index] << 1) | carry
            carry = next
        }
        if carry > 0 { limbs.append(carry) }
        normalize()
    }

    /// Divides by a small nonzero `divisor` in place; returns the remainder.
    package mutating func divide(by divisor: UInt32) -> UInt32 {
        var remainder: UInt64 = 0
        for index in limbs.indices.reversed() {
            let current = remainder << 32 | UInt64(limbs[index])
            limbs[index] = UInt32(current / UInt64(divisor))
            remainder = current % UInt64(divisor)
        }
        normalize()
        return UInt32(remainder)
    }

    /// The number of trailing zero bits (how often 2 divides it); 0 for zero.
    package var trailingZeroBitCount: Int {
        guard let first = limbs.firstIndex(where: { $0 != 0 }) else { return 0 }
        return first * 32 + limbs[first].trailingZeroBitCount
    }

    /// `self mod divisor` by binary long division; `divisor` must not be zero.
    package func remainder(dividingBy divisor: BigUInt) -> BigUInt {
        precondition(!divisor.isZero)
        if self < divisor { return self }
        var remainder = BigUInt()
        for index in stride(from: bitWidth - 1, through: 0, by: -1) {
            remainder.shiftLeftOne(insertingBit: bit(index))
            if !(remainder < divisor) { remainder.subtract(divisor) }
        }
        return remainder
    }
}
