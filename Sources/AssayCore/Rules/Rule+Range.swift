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
    /// not). Reports ``IssueCode/notMultiple``; a factor that is not a positive decimal fails every
    /// value, naming it. Exported as `multipleOf`.
    public static func multipleOf(_ factor: String) -> Rule {
        let parsed = DecimalDivisibility.Parts(factor).flatMap { !$0.isNegative && !$0.isZero ? $0 : nil }
        let parameters: [String: IssueValue] = ["multipleOf": .decimal(factor)]
        return Rule(.multipleOf(.decimal(factor))) { value, context in
            guard let parsed else {
                context.report(.notMultiple, value: Double(value), parameters: parameters)
                return
            }
            let finite = value.isFinite
            let decimal = finite ? DecimalDivisibility.Parts("\(Double(value))") : nil
            if decimal.map({ DecimalDivisibility.isMultiple($0, of: parsed) }) != true {
                context.report(.notMultiple, value: Double(value), parameters: parameters)
            }
        }
    }
}
