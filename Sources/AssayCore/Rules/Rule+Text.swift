extension Rule where Value: StringProtocol & Sendable {
    /// The string's length lies in `bounds`: `.length(2...100)`.
    ///
    /// - Parameters:
    ///   - bounds: The shortest and longest allowed lengths.
    ///   - unit: What to count; Unicode scalars by default (as JSON Schema counts).
    public static func length(_ bounds: ClosedRange<Int>, unit: LengthUnit = .unicodeScalars) -> Rule {
        length(minimum: bounds.lowerBound, maximum: bounds.upperBound, unit: unit)
    }

    /// The string is at least `bounds.lowerBound` long: `.length(8...)`.
    public static func length(_ bounds: PartialRangeFrom<Int>, unit: LengthUnit = .unicodeScalars) -> Rule {
        length(minimum: bounds.lowerBound, unit: unit)
    }

    /// The string is at most `bounds.upperBound` long: `.length(...500)`.
    public static func length(_ bounds: PartialRangeThrough<Int>, unit: LengthUnit = .unicodeScalars) -> Rule {
        length(maximum: bounds.upperBound, unit: unit)
    }

    /// The string's length lies between optional bounds, both inclusive. Reports ``IssueCode/tooShort``
    /// or ``IssueCode/tooLong`` with `minimum`, `maximum`, `length` and `unit` parameters.
    public static func length(minimum: Int? = nil, maximum: Int? = nil, unit: LengthUnit = .unicodeScalars) -> Rule {
        var parameters: [String: IssueValue] = ["unit": .string(unit.description)]
        if let minimum { parameters["minimum"] = .integer(minimum) }
        if let maximum { parameters["maximum"] = .integer(maximum) }
        let both: String? = minimum != nil && maximum != nil ? (minimum == maximum ? "length.exact" : "length") : nil
        let shortKey = both ?? "tooShort"
        let longKey = both ?? "tooLong"
        let frozen = parameters
        return Rule(RuleDescriptor("length", parameters: parameters)) { value, context in
            let length = unit.count(value)
            var found = frozen
            found["length"] = .integer(length)
            if let minimum, length < minimum {
                context.report(.tooShort, value: String(value), parameters: found, messageKey: shortKey)
            } else if let maximum, length > maximum {
                context.report(.tooLong, value: String(value), parameters: found, messageKey: longKey)
            }
        }
    }

    /// The string is not empty and not only white space (after trimming it).
    public static var notBlank: Rule {
        Rule(RuleDescriptor("notBlank")) { value, context in
            if value.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) {
                context.report(.blank, value: String(value))
            }
        }
    }

    /// Every character of the string is in `allowed`: `.charset(.letters + .marks + .spaces)`.
    /// Reports ``IssueCode/invalidCharacters`` with the first character that is not allowed.
    public static func charset(_ allowed: CharacterClass) -> Rule {
        Rule(RuleDescriptor("charset", parameters: ["class": .string(allowed.description)])) { value, context in
            if let bad = value.unicodeScalars.first(where: { !allowed.contains($0) }) {
                context.report(
                    .invalidCharacters, value: String(value), parameters: ["character": .string(String(bad))])
            }
        }
    }

    /// The string matches the ECMA-262 regular expression `source` somewhere (anchor it with `^…$`
    /// to match it whole), in time linear in the string's length (see ``LinearRegex``).
    ///
    /// - Throws: ``RegexSyntaxError`` when `source` is not a regular expression this engine runs,
    ///   with the offset and reason.
    public static func pattern(_ source: String) throws(RegexSyntaxError) -> Rule {
        let regex = try LinearRegex(source)
        return pattern(regex)
    }

    /// The string matches a compiled regular expression somewhere.
    public static func pattern(_ regex: LinearRegex) -> Rule {
        let parameters: [String: IssueValue] = ["pattern": .string(regex.source)]
        return Rule(RuleDescriptor("pattern", parameters: parameters)) { value, context in
            if !regex.firstMatchExists(in: value.unicodeScalars) {
                context.report(.patternMismatch, value: String(value), parameters: parameters)
            }
        }
    }
}
