import AssayCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JSON number, kept exactly as written.
///
/// JSON numbers are decimal; binary floating point cannot hold `0.1` or a 200-digit integer.
/// `JSONNumber` keeps the exact decimal value, in canonical form, so that:
///
/// - `1`, `1.0`, `10e-1` and `0.1e1` are equal and hash alike (JSON Schema's equality);
/// - comparisons are exact, even between `1e400` and `1e399` or 200-digit integers;
/// - ``isMultiple(of:)`` is exact: `0.07` is a multiple of `0.01`.
///
/// Read it as ``int``, ``double`` or ``decimal`` — each `nil` when the number does not fit that
/// type exactly (``double`` rounds to the nearest `Double`, `nil` only when out of range).
public struct JSONNumber: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// value = (isNegative ? -1 : 1) × significand × 10^exponent, canonical: the significand has no
    /// trailing decimal zeros (zero is `0 × 10^0`, never negative).
    enum Storage: Hashable, Sendable {
        /// An integer that fits `Int64`.
        case integer(Int64)
        /// A decimal whose significand fits `Int64`: significand × 10^exponent, exponent < 0.
        case decimal(Int64, Int32)
        /// Anything larger: a sign, decimal digits without leading or trailing zeros, an exponent.
        case big(BigDecimal)
    }

    let storage: Storage

    init(storage: Storage) { self.storage = storage }

    /// Makes a number from an integer.
    public init(_ value: Int) { storage = .integer(Int64(value)) }

    /// The value when it is stored as a 64-bit integer (every integer in that range is).
    package var int64: Int64? {
        if case .integer(let value) = storage { return value }
        return nil
    }

    /// Makes a number from a `Double`; `nil` for NaN and infinities, which JSON cannot hold.
    /// The number is the shortest decimal that round-trips to `value` (`0.1` stays `0.1`).
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        if value == value.rounded(), abs(value) < 9.0e18 {
            storage = .integer(Int64(value))
            return
        }
        guard let parsed = JSONNumber(text: value.description) else { return nil }
        self = parsed
    }

    /// Parses a JSON number literal (RFC 8259 grammar); `nil` when `text` is not one.
    public init?(text: String) {
        var bytes = Array(text.utf8)
        let count = bytes.count
        guard
            let number = bytes.withUnsafeMutableBufferPointer({ buffer -> JSONNumber? in
                guard JSONNumber.literalLength(buffer, from: 0) == count else { return nil }
                return JSONNumber(literal: UnsafeBufferPointer(buffer))
            })
        else { return nil }
        self = number
    }

    /// The length of the JSON number literal starting at `start`, or `nil` when none starts there
    /// (or its exponent is beyond ``maximumExponent``).
    static func literalLength(_ bytes: UnsafeMutableBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        let end = bytes.count
        if index < end, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < end else { return nil }
        let mantissaStart = index
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if bytes[index] >= 0x31 && bytes[index] <= 0x39 {
            while index < end, bytes[index] >= 0x30 && bytes[index] <= 0x39 { index += 1 }
        } else {
            return nil
        }
        if index < end, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let digits = index
            while index < end, bytes[index] >= 0x30 && bytes[index] <= 0x39 { index += 1 }
            if index == digits { return nil }
        }
        if index < end, bytes[index] | 0x20 == UInt8(ascii: "e") {
            let mantissa = mantissaStart..<index
            index += 1
            let negativeExponent = index < end && bytes[index] == UInt8(ascii: "-")
            if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digits = index
            while index < end, bytes[index] >= 0x30 && bytes[index] <= 0x39 { index += 1 }
            if index == digits { return nil }
            let fits = exponentIsKept(
                UnsafeBufferPointer(bytes), mantissa: mantissa, exponent: digits..<index,
                negativeExponent: negativeExponent)
            if !fits { return nil }
        }
        return index - start
    }

    /// The largest magnitude of a number's exponent in scientific form (`d.ddd × 10^e`): beyond, a value
    /// could not be kept exactly (exponents are machine integers), so such a number is refused rather
    /// than rounded (`1e1000000000000000` and `1e1000000000000001` would otherwise be equal). The bound
    /// is on the value, not on the literal's exponent field, so every number read is written back in a
    /// form that reads again (`12.5e999999999999999` is `1.25e1000000000000000`, refused).
    public static let maximumExponent = 999_999_999_999_999

    /// Whether the literal whose mantissa (digits and point, no sign) and exponent digits are at these
    /// positions has a scientific exponent within ``maximumExponent``. Linear in the literal; exponents
    /// of up to 12 digits are decided without reading the mantissa (a mantissa has < 2³² digits).
    static func exponentIsKept(
        _ bytes: UnsafeBufferPointer<UInt8>, mantissa: Range<Int>, exponent: Range<Int>, negativeExponent: Bool
    ) -> Bool {
        var significant = exponent.lowerBound
        while significant < exponent.upperBound - 1, bytes[significant] == 0x30 { significant += 1 }
        let count = exponent.upperBound - significant
        if count <= 12 { return true }
        if count > 18 { return false }
        var value = 0
        for index in significant..<exponent.upperBound { value = value * 10 + Int(bytes[index] - 0x30) }
        if negativeExponent { value = -value }
        var point = mantissa.upperBound
        var firstNonZero: Int?
        for index in mantissa {
            if bytes[index] == UInt8(ascii: ".") {
                point = index
            } else if firstNonZero == nil, bytes[index] != 0x30 {
                firstNonZero = index
            }
            if firstNonZero != nil, point != mantissa.upperBound { break }
        }
        guard let first = firstNonZero else { return true }  // zero
        let scientific = first < point ? value + (point - first) - 1 : value - (first - point)
        return abs(scientific) <= maximumExponent
    }

    /// Builds a number from a literal already known to be valid.
    init(literal bytes: UnsafeBufferPointer<UInt8>) {
        if let storage = Self.shortDecimal(bytes) {
            self.init(storage: storage)
            return
        }
        var index = 0
        let negative = bytes[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        var digits: [UInt8] = []
        var fractionDigits = 0
        while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 {
            digits.append(bytes[index])
            index += 1
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 {
                digits.append(bytes[index])
                fractionDigits += 1
                index += 1
            }
        }
        var exponent = 0
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if bytes[index] == UInt8(ascii: "-") {
                exponentNegative = true
                index += 1
            } else if bytes[index] == UInt8(ascii: "+") {
                index += 1
            }
            while index < bytes.count {
                // At most 18 significant digits (``maximumExponent``: the parser refuses more).
                exponent = exponent &* 10 &+ Int(bytes[index] &- 0x30)
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        self.init(negative: negative, digits: digits, exponent: exponent - fractionDigits)
    }

    /// The canonical storage of a literal without an exponent and with at most 18 digits
    /// (`-12.50`, `22.45`, `7`), computed without a digit array; `nil` for any other literal.
    @inline(__always)
    private static func shortDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Storage? {
        guard bytes.count <= 20 else { return nil }
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index = 1 }
        var significand: Int64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x30 && byte <= 0x39 {
                significand = significand &* 10 &+ Int64(byte &- 0x30)
                digits += 1
                if seenPoint { fractionDigits += 1 }
            } else if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else {
                return nil
            }
            index += 1
        }
        guard digits > 0, digits <= 18 else { return nil }
        if significand == 0 { return .integer(0) }
        var exponent = -fractionDigits
        while exponent < 0 && significand % 10 == 0 {
            significand /= 10
            exponent += 1
        }
        if negative { significand = -significand }
        return exponent == 0 ? .integer(significand) : .decimal(significand, Int32(exponent))
    }

    /// Canonicalises sign × digits × 10^exponent.
    init(negative: Bool, digits rawDigits: [UInt8], exponent rawExponent: Int) {
        var start = 0
        while start < rawDigits.count, rawDigits[start] == 0x30 { start += 1 }
        var end = rawDigits.count
        var exponent = rawExponent
        while end > start, rawDigits[end - 1] == 0x30 {
            end -= 1
            exponent += 1
        }
        if start == end {
            storage = .integer(0)
            return
        }
        let digits = rawDigits[start..<end]
        if digits.count <= 19, let significand = Self.accumulate(digits, negative: negative) {
            if exponent == 0 {
                storage = .integer(significand)
                return
            }
            if exponent > 0, exponent <= 18 {
                let (scaled, overflow) = significand.multipliedReportingOverflow(by: Self.powersOfTen[exponent])
                if !overflow {
                    storage = .integer(scaled)
                    return
                }
            } else if exponent < 0, exponent >= Int(Int32.min) {
                storage = .decimal(significand, Int32(exponent))
                return
            }
        }
        storage = .big(BigDecimal(isNegative: negative, digits: Array(digits), exponent: exponent))
    }

    /// The digits as a signed Int64, or `nil` on overflow.
    private static func accumulate(_ digits: ArraySlice<UInt8>, negative: Bool) -> Int64? {
        var value: Int64 = 0
        for digit in digits {
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) =
                negative
                ? shifted.subtractingReportingOverflow(Int64(digit &- 0x30))
                : shifted.addingReportingOverflow(Int64(digit &- 0x30))
            if overflow1 || overflow2 { return nil }
            value = next
        }
        return value
    }

    /// 10^0 … 10^22, each exactly representable as a `Double`.
    static let exactPowersOfTen: [Double] = (0...22).map { power in (0..<power).reduce(1.0) { value, _ in value * 10 } }

    static let powersOfTen: [Int64] = (0...18).map { power in (0..<power).reduce(Int64(1)) { value, _ in value * 10 } }

    /// The sign, the decimal digits without leading or trailing zeros, and the exponent.
    var parts: (isNegative: Bool, digits: [UInt8], exponent: Int) {
        switch storage {
        case .integer(let value):
            if value == 0 { return (false, [], 0) }
            var digits = Array(String(value.magnitude).utf8)
            var exponent = 0
            while digits.last == 0x30 {
                digits.removeLast()
                exponent += 1
            }
            return (value < 0, digits, exponent)
        case .decimal(let significand, let exponent):
            return (significand < 0, Array(String(significand.magnitude).utf8), Int(exponent))
        case .big(let big):
            return (big.isNegative, big.digits, big.exponent)
        }
    }

    /// Whether the number is an integer (`1`, `1.0` and `1e3` are; `1.5` is not).
    public var isInteger: Bool {
        switch storage {
        case .integer: return true
        case .decimal: return false
        case .big(let big): return big.exponent >= 0
        }
    }

    /// Whether the number is negative.
    public var isNegative: Bool { parts.isNegative }

    /// The number as an `Int` when it is an integer in range.
    public var int: Int? {
        if case .integer(let value) = storage { return Int(exactly: value) }
        return nil
    }

    /// The nearest `Double`; `nil` when the number is beyond `Double`'s range (`1e400`).
    public var double: Double? {
        switch storage {
        case .integer(let value): return Double(value)
        case .decimal(let significand, let exponent):
            // Clinger's fast path: both operands exact in a Double, so one division rounds correctly.
            if significand.magnitude < 1 << 53, exponent >= -22 {
                return Double(significand) / Self.exactPowersOfTen[Int(-exponent)]
            }
            return Double(description).flatMap { $0.isFinite ? $0 : nil }
        case .big: return Double(description).flatMap { $0.isFinite ? $0 : nil }
        }
    }

    /// The number as a Foundation `Decimal` (38 significant digits); `nil` when it does not fit exactly.
    public var decimal: Decimal? {
        let (negative, digits, exponent) = parts
        guard digits.count <= 38, (-128 - 38...127).contains(exponent) else { return nil }
        return Decimal(string: (negative ? "-" : "") + String(decoding: digits, as: UTF8.self) + "e" + String(exponent))
    }

    /// The number in JSON: integers without a fraction, others in the shortest exact form
    /// (`0.1`, `1.5e-7`, `1e400`).
    public var description: String {
        switch storage {
        case .integer(let value): return String(value)
        case .decimal, .big:
            let (negative, digits, exponent) = parts
            let sign = negative ? "-" : ""
            let text = String(decoding: digits, as: UTF8.self)
            let pointPosition = digits.count + exponent  // digits before the decimal point
            if exponent >= 0 {
                // Integers keep their digits; only long runs of trailing zeros use an exponent.
                if exponent <= 21 { return sign + text + String(repeating: "0", count: exponent) }
                return sign + scientific(text, pointPosition: pointPosition)
            }
            if pointPosition > 0 {
                let index = text.index(text.startIndex, offsetBy: pointPosition)
                return sign + text[..<index] + "." + text[index...]
            }
            if pointPosition > -6 { return sign + "0." + String(repeating: "0", count: -pointPosition) + text }
            return sign + scientific(text, pointPosition: pointPosition)
        }
    }

    /// Appends ``description``'s UTF-8 to `bytes`, a decimal whose significand fits 64 bits without
    /// making a `String` (its digits by `appendDecimal`, then the point put in).
    package func appendLiteral(to bytes: inout [UInt8]) {
        guard case .decimal(let significand, let exponent) = storage,
            let magnitude = Int(exactly: significand.magnitude)
        else {
            bytes.append(contentsOf: description.utf8)
            return
        }
        if significand < 0 { bytes.append(UInt8(ascii: "-")) }
        let digitsStart = bytes.count
        appendDecimal(magnitude, to: &bytes)
        // Digits before the decimal point (the exponent is negative: at most all of them).
        let pointPosition = bytes.count - digitsStart + Int(exponent)
        if pointPosition > 0 {
            bytes.insert(UInt8(ascii: "."), at: digitsStart + pointPosition)
        } else if pointPosition > -6 {
            // `0.` and as many zeros as the point is before the digits.
            bytes.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: 2 - pointPosition), at: digitsStart)
            bytes[digitsStart + 1] = UInt8(ascii: ".")
        } else {
            bytes.removeSubrange((digitsStart - (significand < 0 ? 1 : 0))...)
            bytes.append(contentsOf: description.utf8)
        }
    }

    private func scientific(_ digits: String, pointPosition: Int) -> String {
        let first = digits.prefix(1)
        let rest = digits.dropFirst()
        return first + (rest.isEmpty ? "" : "." + rest) + "e" + String(pointPosition - 1)
    }

    /// Exact comparison.
    public static func < (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.integer(let a), .integer(let b)): return a < b
        default: return compare(lhs, rhs) < 0
        }
    }

    /// -1, 0 or 1.
    static func compare(_ lhs: JSONNumber, _ rhs: JSONNumber) -> Int {
        if let fast = compareInt64(lhs.storage, rhs.storage) { return fast }
        let a = lhs.parts
        let b = rhs.parts
        let aZero = a.digits.isEmpty
        let bZero = b.digits.isEmpty
        if aZero && bZero { return 0 }
        if a.isNegative != b.isNegative || aZero || bZero {
            let aSign = aZero ? 0 : (a.isNegative ? -1 : 1)
            let bSign = bZero ? 0 : (b.isNegative ? -1 : 1)
            return aSign < bSign ? -1 : (aSign > bSign ? 1 : 0)
        }
        let magnitude = compareMagnitudes(a.digits, a.exponent, b.digits, b.exponent)
        return a.isNegative ? -magnitude : magnitude
    }

    /// Integers and 64-bit decimals compared by scaling to a common exponent, when that fits in
    /// `Int64`; `nil` otherwise (the digit comparison decides).
    private static func compareInt64(_ lhs: Storage, _ rhs: Storage) -> Int? {
        let (a, aExponent): (Int64, Int)
        let (b, bExponent): (Int64, Int)
        switch lhs {
        case .integer(let value): (a, aExponent) = (value, 0)
        case .decimal(let significand, let exponent): (a, aExponent) = (significand, Int(exponent))
        case .big: return nil
        }
        switch rhs {
        case .integer(let value): (b, bExponent) = (value, 0)
        case .decimal(let significand, let exponent): (b, bExponent) = (significand, Int(exponent))
        case .big: return nil
        }
        // Bring both to the smaller exponent: multiply the other by 10^difference.
        guard let x = scaled(a, by: aExponent - min(aExponent, bExponent)),
            let y = scaled(b, by: bExponent - min(aExponent, bExponent))
        else { return nil }
        return x < y ? -1 : (x > y ? 1 : 0)
    }

    private static func scaled(_ value: Int64, by power: Int) -> Int64? {
        guard power > 0 else { return value }
        guard power <= 18 else { return value == 0 ? 0 : nil }
        let (product, overflow) = value.multipliedReportingOverflow(by: powersOfTen[power])
        return overflow ? nil : product
    }

    private static func compareMagnitudes(_ aDigits: [UInt8], _ aExp: Int, _ bDigits: [UInt8], _ bExp: Int) -> Int {
        // Compare the position of the leading digit, then the digits themselves.
        let aMagnitude = aDigits.count + aExp
        let bMagnitude = bDigits.count + bExp
        if aMagnitude != bMagnitude { return aMagnitude < bMagnitude ? -1 : 1 }
        let length = max(aDigits.count, bDigits.count)
        for index in 0..<length {
            let x = index < aDigits.count ? aDigits[index] : 0x30
            let y = index < bDigits.count ? bDigits[index] : 0x30
            if x != y { return x < y ? -1 : 1 }
        }
        return 0
    }

    /// Whether `self` ÷ `divisor` is an integer, computed exactly for every pair of JSON numbers
    /// (`0.07` is a multiple of `0.01`; `1e-10000` is not a multiple of `7`, `7e10000` is). `false`
    /// for a zero divisor.
    ///
    /// The numbers are never expanded by their exponents, so the cost depends on the digits written,
    /// not on the exponents (`1e999999999` costs no more than `1`); the arithmetic is AssayCore's,
    /// shared with the rules' `multipleOf`.
    public func isMultiple(of divisor: JSONNumber) -> Bool {
        if case .integer(let a) = storage, case .integer(let b) = divisor.storage {
            return b != 0 && a % b == 0
        }
        let a = parts
        let b = divisor.parts
        return DecimalDivisibility.isMultiple(
            .init(isNegative: a.isNegative, digits: a.digits, exponent: a.exponent),
            of: .init(isNegative: b.isNegative, digits: b.digits, exponent: b.exponent))
    }
}

/// A number too large for the compact forms: sign, digits, exponent.
final class BigDecimal: Hashable, Sendable {
    let isNegative: Bool
    /// ASCII digits, no leading or trailing zeros, never empty.
    let digits: [UInt8]
    let exponent: Int

    init(isNegative: Bool, digits: [UInt8], exponent: Int) {
        self.isNegative = isNegative
        self.digits = digits
        self.exponent = exponent
    }

    static func == (lhs: BigDecimal, rhs: BigDecimal) -> Bool {
        lhs.isNegative == rhs.isNegative && lhs.exponent == rhs.exponent && lhs.digits == rhs.digits
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(isNegative)
        hasher.combine(exponent)
        hasher.combine(digits)
    }
}

extension JSONNumber: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    /// Makes a number from an integer literal.
    public init(integerLiteral value: Int) { self.init(value) }
    /// Makes a number from a floating-point literal, as its shortest round-tripping decimal.
    public init(floatLiteral value: Double) { self = JSONNumber(value) ?? 0 }
}
