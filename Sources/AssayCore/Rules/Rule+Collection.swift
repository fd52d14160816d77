extension Rule where Value: Collection & Sendable {
    /// The collection's element count lies in `bounds`: `.count(1...15)`.
    @inlinable
    public static func count(_ bounds: ClosedRange<Int>) -> Rule {
        count(minimum: bounds.lowerBound, maximum: bounds.upperBound)
    }

    /// The collection has at least `bounds.lowerBound` elements.
    @inlinable
    public static func count(_ bounds: PartialRangeFrom<Int>) -> Rule { count(minimum: bounds.lowerBound) }

    /// The collection has at most `bounds.upperBound` elements.
    @inlinable
    public static func count(_ bounds: PartialRangeThrough<Int>) -> Rule { count(maximum: bounds.upperBound) }

    /// The element count lies between optional bounds, both inclusive. Reports ``IssueCode/tooFew``
    /// or ``IssueCode/tooMany`` with `minimum`, `maximum` and `count` parameters.
    @inlinable
    public static func count(minimum: Int? = nil, maximum: Int? = nil) -> Rule {
        var parameters: [String: IssueValue] = [:]
        if let minimum { parameters["minimum"] = .integer(minimum) }
        if let maximum { parameters["maximum"] = .integer(maximum) }
        let both = minimum != nil && maximum != nil
        let exact = both && minimum == maximum
        let frozen = parameters
        return Rule(RuleDescriptor("count", parameters: parameters)) { value, context in
            let count = value.count
            let tooFew = minimum.map { count < $0 } ?? false
            guard tooFew || (maximum.map { count > $0 } ?? false) else { return }
            var found = frozen
            found["count"] = .integer(count)
            let key = exact ? "count.exact" : both ? "count" : nil
            context.report(tooFew ? .tooFew : .tooMany, parameters: found, messageKey: key)
        }
    }

    /// Every element passes `rule`; each element's issues are reported at its index.
    @inlinable
    public static func each(_ rule: Rule<Value.Element>) -> Rule {
        Rule(RuleDescriptor("each", children: [rule.descriptor])) { value, context in
            for (offset, element) in value.enumerated() {
                context.check(element, with: rule, at: .index(offset))
            }
        }
    }
}

extension Rule where Value: Collection & Sendable, Value.Element: Hashable {
    /// No element appears twice. Reports one ``IssueCode/notUnique`` issue naming the first duplicate.
    @inlinable
    public static var unique: Rule {
        Rule(RuleDescriptor("unique")) { value, context in
            let count = value.count
            guard count > 1 else { return }
            if count <= 16 {
                // Few elements: comparing pairs costs less than hashing them all into a set. The
                // duplicate reported is the same: the first element equal to an earlier one.
                var later = value.index(after: value.startIndex)
                while later != value.endIndex {
                    var earlier = value.startIndex
                    while earlier != later {
                        if value[earlier] == value[later] {
                            context.report(
                                .notUnique, value: value[later], parameters: ["duplicate": IssueValue(value[later])],
                                messageKey: "notUnique.elements")
                            return
                        }
                        value.formIndex(after: &earlier)
                    }
                    value.formIndex(after: &later)
                }
                return
            }
            var seen = Set<Value.Element>()
            for element in value where !seen.insert(element).inserted {
                context.report(
                    .notUnique, value: element, parameters: ["duplicate": IssueValue(element)],
                    messageKey: "notUnique.elements")
                return
            }
        }
    }
}

extension Rule where Value: Hashable & Sendable {
    /// The value is one of `allowed`. Reports ``IssueCode/notAllowed`` with the `allowed` list.
    @inlinable
    public static func oneOf(_ allowed: [Value]) -> Rule {
        let set = Set(allowed)
        let parameters: [String: IssueValue] = ["allowed": .list(allowed.map { IssueValue($0) })]
        return Rule(RuleDescriptor("oneOf", parameters: parameters)) { value, context in
            if !set.contains(value) { context.report(.notAllowed, value: value, parameters: parameters) }
        }
    }
}
