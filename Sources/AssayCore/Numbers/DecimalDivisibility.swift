/// Whether one decimal number divides another, exactly: the one implementation behind JSON Schema's
/// `multipleOf` (AssayJSON's `JSONNumber.isMultiple(of:)`) and ``Rule/multipleOf(_:)-(String)``.
package enum DecimalDivisibility {
    /// A decimal number as the ASCII digits of its significand (no leading or trailing zeros; empty
    /// for zero) and the power of ten they are multiplied by.
    package struct Parts: Sendable, Equatable {
        package var isNegative: Bool
        package var digits: [UInt8]
        package var exponent: Int

        package init(isNegative: Bool, digits: [UInt8], exponent: Int) {
            self.isNegative = isNegative
            self.digits = digits
            self.exponent = exponent
        }

        /// Reads a decimal written as text (`"0.01"`, `"-12.5e3"`, `"5"`), or `nil` when it is not
        /// one or its exponent is beyond ±100,000.
        package init?(_ text: String) {
            var digits: [UInt8] = []
            var exponent = 0
            var seenPoint = false
            var seenDigit = false
            let bytes = Array(text.utf8)
            var index = 0
            isNegative = bytes.first == UInt8(ascii: "-")
            if isNegative || bytes.first == UInt8(ascii: "+") { index = 1 }
            while index < bytes.count {
                let byte = bytes[index]
                if byte >= 0x30 && byte <= 0x39 {
                    seenDigit = true
                    if !(digits.isEmpty && byte == 0x30) { digits.append(byte) }
                    if seenPoint { exponent -= 1 }
                } else if byte == UInt8(ascii: "."), !seenPoint {
                    seenPoint = true
                } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                    guard let power = Int(String(decoding: bytes[(index + 1)...], as: UTF8.self)),
                        abs(power) <= 100_000
                    else { return nil }
                    exponent += power
                    break
                } else {
                    return nil
                }
                index += 1
            }
            guard seenDigit else { return nil }
            // Trailing zeros move into the exponent.
            while let last = digits.last, last == 0x30 {
                digits.removeLast()
                exponent += 1
            }
            self.digits = digits
            self.exponent = digits.isEmpty ? 0 : exponent
        }

        /// Whether the number is zero.
        package var isZero: Bool { digits.isEmpty }
    }

    /// Whether `dividend` ÷ `divisor` is an integer, computed exactly for every pair of decimals
    /// (`0.07` is a multiple of `0.01`; `1e-10000` is not a multiple of `7`, `7e10000` is). `false`
    /// for a zero divisor; signs do not matter.
    ///
    /// The numbers are never expanded by their exponents: with `dividend` = A·10ᵖ and `divisor` =
    /// B·10^q (A and B integers), for p ≥ q, A·10^(p−q) is a multiple of B exactly when A is a
    /// multiple of B without its factors 2 and 5, and A·10^(p−q) holds as many factors 2 and 5 as B;
    /// for p < q, B·10^(q−p) exceeds A unless q − p is below A's digit count. So the cost depends on
    /// the digits written, not on the exponents (`1e999999999` costs no more than `1`).
    package static func isMultiple(_ dividend: Parts, of divisor: Parts) -> Bool {
        if divisor.digits.isEmpty { return false }
        if dividend.digits.isEmpty { return true }
        let value = BigUInt(decimalDigits: dividend.digits)
        var divisorValue = BigUInt(decimalDigits: divisor.digits)
        guard dividend.exponent >= divisor.exponent else {
            // A must be a multiple of B·10^shift; that is larger than A once 10^shift is.
            let shift = divisor.exponent - dividend.exponent
            guard shift < dividend.digits.count else { return false }
            divisorValue.multiplyByPowerOfTen(shift)
            return value.remainder(dividingBy: divisorValue).isZero
        }
        // A·10^shift, where shift may be huge: its factors 2 and 5 number shift plus A's own.
        let shift = dividend.exponent - divisor.exponent
        let twos = divisorValue.trailingZeroBitCount
        for _ in 0..<twos { _ = divisorValue.divide(by: 2) }
        var fives = 0
        while true {
            var copy = divisorValue
            guard copy.divide(by: 5) == 0 else { break }
            divisorValue = copy
            fives += 1
        }
        if twos > shift, value.trailingZeroBitCount < twos - shift { return false }
        if fives > shift {
            var copy = value
            for _ in 0..<(fives - shift) where copy.divide(by: 5) != 0 { return false }
        }
        return value.remainder(dividingBy: divisorValue).isZero
    }
}
