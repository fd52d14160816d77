#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Rule where Value: Comparable & Sendable {
    /// The value lies in `bounds`, both ends included: `.range(16...50)`, `.range(start...end)` for dates.
    @inlinable
    public static func range(_ bounds: ClosedRange<Value>) -> Rule {
        range(minimum: bounds.lowerBound, maximum: bounds.upperBound)
    }

    /// The value lies in `bounds`, the upper end excluded: `.range(0.0..<1.0)`.
    @inlinable
    public static func range(_ bounds: Range<Value>) -> Rule {
        range(minimum: bounds.lowerBound, maximum: bounds.upperBound, exclusiveMaximum: true)
    }

    /// The value is at least `bounds.lowerBound`: `.range(18...)`.
    @inlinable
    public static func range(_ bounds: PartialRangeFrom<Value>) -> Rule {
        range(minimum: bounds.lowerBound)
    }

    /// The value is at most `bounds.upperBound`: `.range(...100)`.
    @inlinable
    public static func range(_ bounds: PartialRangeThrough<Value>) -> Rule {
        range(maximum: bounds.upperBound)
    }

    /// The value is below `bounds.upperBound`: `.range(..<100)`.
    @inlinable
    public static func range(_ bounds: PartialRangeUpTo<Value>) -> Rule {
        range(maximum: bounds.upperBound, exclusiveMaximum: true)
    }

    /// The value lies between optional bounds, each inclusive unless marked exclusive.
    ///
    /// Values that compare false with everything (a floating-point NaN) fail. Reports ``IssueCode/tooSmall``
    /// or ``IssueCode/tooLarge`` with the `minimum` and `maximum` parameters; for dates the messages
    /// speak of "on or after" and "on or before".
    @inlinable
    public static func range(
        minimum: Value? = nil, maximum: Value? = nil, exclusiveMinimum: Bool = false, exclusiveMaximum: Bool = false
    ) -> Rule {
        var parameters: [String: IssueValue] = [:]
        if let minimum { parameters["minimum"] = IssueValue(minimum) }
        if let maximum { parameters["maximum"] = IssueValue(maximum) }
        if exclusiveMinimum { parameters["exclusiveMinimum"] = true }
        if exclusiveMaximum { parameters["exclusiveMaximum"] = true }
        let prefix = Value.self is Date.Type ? "date." : ""
        let bothInclusive = minimum != nil && maximum != nil && !exclusiveMinimum && !exclusiveMaximum
        let lowKey = prefix + (bothInclusive ? "range" : exclusiveMinimum ? "tooSmall.exclusive" : "tooSmall")
        let highKey = prefix + (bothInclusive ? "range" : exclusiveMaximum ? "tooLarge.exclusive" : "tooLarge")
        let frozen = parameters
        return Rule(
            .range(
                minimum: parameters["minimum"], maximum: parameters["maximum"], exclusiveMinimum: exclusiveMinimum,
                exclusiveMaximum: exclusiveMaximum)
        ) { value, context in
            if let minimum {
                let ok = exclusiveMinimum ? minimum < value : minimum <= value
                if !ok {
                    // A value unordered with the minimum (NaN) is also not ≤ the maximum; report it once.
                    context.report(.tooSmall, value: value, parameters: frozen, messageKey: lowKey)
                    return
                }
            }
            if let maximum {
                let ok = exclusiveMaximum ? value < maximum : value <= maximum
                if !ok { context.report(.tooLarge, value: value, parameters: frozen, messageKey: highKey) }
            }
        }
    }
}

extension Rule where Value: BinaryFloatingPoint & Sendable {
    /// The value is a finite number (neither NaN nor infinite).
    @inlinable
    public static var finite: Rule {
        Rule(.finite) { value, context in
            if !value.isFinite {
                context.report(.notAllowed, value: Double(value), messageKey: "notAllowed.not")
            }
        }
    }
}

extension Rule where Value: BinaryInteger & Sendable {
    /// The integer is a multiple of `factor`, a positive integer: `.multipleOf(5)`. Reports
    /// ``IssueCode/notMultiple`` with the `multipleOf` parameter; a factor that is not positive fails
    /// every value (JSON Schema allows only positive ones). Exported as `multipleOf`.
    public static func multipleOf(_ factor: Int) -> Rule {
        let parameters: [String: IssueValue] = ["multipleOf": .integer(factor)]
        return Rule(.multipleOf(.integer(factor))) { value, context in
            // A factor wider than the type divides only zero.
            let passes =
                factor > 0
                && (Value.Magnitude(exactly: factor.magnitude).map { value.magnitude % $0 == 0 } ?? (value == 0))
            if !passes { context.report(.notMultiple, value: value, parameters: parameters) }
        }
    }
}

extension Rule where Value: BinaryFloatingPoint & Sendable {
    /// The number is a multiple of `factor`, a decimal written as text (`"0.01"`, `"5"`), decided on
    /// the number's shortest decimal form exactly as JSON Schema's `multipleOf` decides on the
    /// number written in JSON: `0.3` is a multiple of `"0.1"` (binary floating point would say it is
    /// not). Reports ``IssueCode/notMultiple``; a factor that is not a positive decimal of at most 18
    /// digits fails every value, naming it. Exported as `multipleOf`.
    public static func multipleOf(_ factor: String) -> Rule {
        let parsed = ExactDecimal(factor).flatMap { $0.isPositive ? $0 : nil }
        let parameters: [String: IssueValue] = ["multipleOf": .decimal(factor)]
        return Rule(.multipleOf(.decimal(factor))) { value, context in
            guard let parsed else {
                context.report(.notMultiple, value: Double(value), parameters: parameters)
                return
            }
            let finite = value.isFinite
            if !finite || ExactDecimal("\(Double(value))").map({ $0.isMultiple(of: parsed) }) != true {
                context.report(.notMultiple, value: Double(value), parameters: parameters)
            }
        }
    }
}

/// A decimal number as its digits and a power of ten, read from text such as `-12.5e3`: what
/// ``Rule/multipleOf(_:)-(String)`` needs to decide divisibility exactly.
struct ExactDecimal {
    /// The significant digits, most significant first, without leading zeros (empty for zero).
    let digits: [UInt8]
    /// The power of ten the digits are multiplied by.
    let exponent: Int
    let isNegative: Bool

    var isPositive: Bool { !isNegative && !digits.isEmpty }

    init?(_ text: String) {
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
                if !(digits.isEmpty && byte == 0x30) { digits.append(byte - 0x30) }
                if seenPoint { exponent -= 1 }
            } else if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                guard let power = Int(String(decoding: bytes[(index + 1)...], as: UTF8.self)), abs(power) < 1_000
                else { return nil }
                exponent += power
                index = bytes.count
                break
            } else {
                return nil
            }
            index += 1
        }
        guard seenDigit else { return nil }
        // Trailing zeros move into the exponent.
        while let last = digits.last, last == 0 {
            digits.removeLast()
            exponent += 1
        }
        self.digits = digits
        self.exponent = digits.isEmpty ? 0 : exponent
    }

    /// Whether `self / factor` is an integer; `factor` positive with at most 18 digits.
    func isMultiple(of factor: ExactDecimal) -> Bool {
        if digits.isEmpty { return true }
        guard factor.digits.count <= 18 else { return false }
        let divisor = factor.digits.reduce(UInt64(0)) { $0 * 10 + UInt64($1) }
        // self = a·10^p, factor = b·10^q (b without trailing zeros): the quotient is a·10^(p−q) / b.
        let shift = exponent - factor.exponent
        // Below zero, b·10^(−shift) would have to divide a, which has no trailing zero.
        if shift < 0 { return false }
        var remainder: UInt64 = 0
        for digit in digits { remainder = (remainder * 10 + UInt64(digit)) % divisor }
        // b = 2^x·5^y·m with x, y < 64: from 64 zeros on, b divides a·10^shift exactly when m divides
        // a, so more zeros change nothing.
        for _ in 0..<min(shift, 64) { remainder = (remainder * 10) % divisor }
        return remainder == 0
    }
}
