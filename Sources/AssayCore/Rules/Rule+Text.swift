import AssayRegex

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
        let countsScalars = unit == .unicodeScalars
        return Rule(.length(minimum: minimum, maximum: maximum, unit: unit)) { value, context in
            if countsScalars {
                // A scalar takes 1 to 4 UTF-8 bytes: the byte count (known without a walk) settles
                // most strings without counting their scalars.
                let bytes = value.utf8.count
                if minimum.map({ (bytes + 3) / 4 >= $0 }) ?? true, maximum.map({ bytes <= $0 }) ?? true { return }
            }
            let length = unit.count(value)
            let tooShort = minimum.map { length < $0 } ?? false
            guard tooShort || (maximum.map { length > $0 } ?? false) else { return }
            // The parameters are built only for an issue: this runs for every value checked.
            var found = frozen
            found["length"] = .integer(length)
            if tooShort {
                context.report(.tooShort, value: String(value), parameters: found, messageKey: shortKey)
            } else {
                context.report(.tooLong, value: String(value), parameters: found, messageKey: longKey)
            }
        }
    }

    /// The string is not empty and not only white space (after trimming it).
    public static var notBlank: Rule {
        Rule(.notBlank) { value, context in
            if value.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) {
                context.report(.blank, value: String(value))
            }
        }
    }

    /// Every character of the string is in `allowed`: `.charset(.letters + .marks + .spaces)`.
    /// Reports ``IssueCode/invalidCharacters`` with the first character that is not allowed.
    public static func charset(_ allowed: CharacterClass) -> Rule {
        return Rule(.charset(name: allowed.description, pattern: "^[\(allowed.patternFragment)]*$")) { value, context in
            if let bad = value.unicodeScalars.first(where: { !allowed.contains($0) }) {
                context.report(
                    .invalidCharacters, value: String(value), parameters: ["character": .string(String(bad))])
            }
        }
    }

    /// The string matches the ECMA-262 regular expression `source` somewhere (anchor it with `^…$`
    /// to match it whole), in time linear in the string's length (see AssayRegex's `LinearRegex`).
    ///
    /// - Throws: `RegexSyntaxError` (AssayRegex) when `source` is not a regular expression this engine runs,
    ///   with the offset and reason.
    public static func pattern(_ source: String) throws(RegexSyntaxError) -> Rule {
        let regex = try LinearRegex(source)
        return pattern(regex)
    }

    /// ``pattern(_:)-(String)`` that does not throw, for places where a `try` cannot go (attributes,
    /// stored-property initialisers): a `source` that is not a regular expression makes every value
    /// fail with `custom("invalidPattern")`, naming the syntax error, so the mistake is seen at once.
    public static func matches(_ source: String) -> Rule {
        do {
            return try pattern(source)
        } catch {
            let parameters: [String: IssueValue] = ["pattern": .string(source), "detail": .string("\(error)")]
            return Rule(.invalidPattern(source)) { _, context in
                context.report(
                    .custom("invalidPattern"), parameters: parameters,
                    message: "the rule's pattern {pattern} is not a regular expression: {detail}")
            }
        }
    }

    /// The string matches a compiled regular expression somewhere.
    public static func pattern(_ regex: LinearRegex) -> Rule {
        let parameters: [String: IssueValue] = ["pattern": .string(regex.source)]
        return Rule(.pattern(regex.source)) { value, context in
            if !regex.firstMatchExists(in: value.unicodeScalars) {
                context.report(.patternMismatch, value: String(value), parameters: parameters)
            }
        }
    }
}
