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
        return Rule(RuleDescriptor("range", parameters: parameters)) { value, context in
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
        Rule(RuleDescriptor("finite")) { value, context in
            if !value.isFinite {
                context.report(.notAllowed, value: Double(value), messageKey: "notAllowed.not")
            }
        }
    }
}
