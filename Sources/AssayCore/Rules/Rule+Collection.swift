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
        return Rule(.count(minimum: minimum, maximum: maximum)) { value, context in
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
        Rule(.each(rule.nestedKind)) { value, context in
            for (offset, element) in value.enumerated() {
                context.check(element, with: rule, at: .index(offset))
            }
        }
    }
}

extension Rule {
    /// Every value of the dictionary passes `rule`; each value's issues are reported at its key, the
    /// keys taken in code point order (a dictionary keeps none of its own) when issues are located —
    /// a pass that only tells whether there is one takes them as they come, without sorting.
    @inlinable
    public static func values<Element>(_ rule: Rule<Element>) -> Rule where Value == [String: Element] {
        Rule(.values(rule.nestedKind)) { value, context in
            guard context.locatesIssues else {
                // A first pass only asks whether there is an issue: no order to keep, no sort.
                for member in value { context.check(member.value, with: rule, at: .key(member.key)) }
                return
            }
            for key in codePointOrder(value.keys) { context.check(value[key]!, with: rule, at: .key(key)) }
        }
    }
}

extension Rule {
    /// Every key of the dictionary passes `rule`, a rule on text: `.keys(.matches("^[a-z]+$"))`.
    /// Each key's issues are reported at that key, the keys taken in code point order when issues
    /// are located. JSON Schema states it as `propertyNames`, which is also what
    /// `patternProperties` of one pattern beside `additionalProperties: false` requires of the keys.
    @inlinable
    public static func keys<Element>(_ rule: Rule<String>) -> Rule where Value == [String: Element] {
        Rule(.keys(rule.nestedKind)) { value, context in
            guard context.locatesIssues else {
                for key in value.keys { context.check(key, with: rule, at: .key(key)) }
                return
            }
            for key in codePointOrder(value.keys) { context.check(key, with: rule, at: .key(key)) }
        }
    }
}

extension Rule where Value: Collection & Sendable, Value.Element: Hashable {
    /// No element appears twice. Reports one ``IssueCode/notUnique`` issue naming the first duplicate.
    /// Strings are compared code point by code point, as JSON Schema's `uniqueItems` compares them:
    /// `"é"` written precomposed and decomposed are two elements.
    @inlinable
    public static var unique: Rule {
        // Decided once: a dynamic cast per collection checked would cost every other element type.
        let elementsAreStrings = Value.Element.self == String.self
        return Rule(.unique) { value, context in
            if elementsAreStrings {
                var seen = Set<[UInt8]>()
                for element in value {
                    let string = element as! String
                    guard !seen.insert(Array(string.utf8)).inserted else { continue }
                    context.report(
                        .notUnique, value: string, parameters: ["duplicate": .string(string)],
                        messageKey: "notUnique.elements")
                    return
                }
                return
            }
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
    /// Strings are compared code point by code point, as JSON Schema's `enum` compares them.
    @inlinable
    public static func oneOf(_ allowed: [Value]) -> Rule {
        let listed = allowed.map { IssueValue.data($0) }
        let parameters: [String: IssueValue] = ["allowed": .list(listed)]
        if let strings = allowed as? [String] {
            let set = Set(strings.map { Array($0.utf8) })
            return Rule(.oneOf(listed)) { value, context in
                if let string = value as? String, !set.contains(Array(string.utf8)) {
                    context.report(.notAllowed, value: value, parameters: parameters)
                }
            }
        }
        let set = Set(allowed)
        return Rule(.oneOf(listed)) { value, context in
            if !set.contains(value) { context.report(.notAllowed, value: value, parameters: parameters) }
        }
    }
}

extension Rule where Value: Equatable & Sendable {
    /// The value equals `expected` (strings code point by code point). Reports
    /// ``IssueCode/notAllowed`` with the `expected` parameter. Exported as `const`.
    public static func const(_ expected: Value) -> Rule {
        let parameters: [String: IssueValue] = ["expected": IssueValue.data(expected)]
        return Rule(.const(IssueValue.data(expected))) { value, context in
            if !codePointEqual(value, expected) {
                context.report(.notAllowed, value: value, parameters: parameters, messageKey: "schema.const")
            }
        }
    }
}

/// Equality as JSON Schema has it: strings code point by code point (Swift's `==` on strings is
/// canonical equivalence, which takes `"é"` composed for `"é"` decomposed), any other value by its
/// own `==`.
func codePointEqual<V: Equatable>(_ first: V, _ second: V) -> Bool {
    if let text = first as? String, let other = second as? String { return text.utf8.elementsEqual(other.utf8) }
    return first == second
}

/// A dictionary's keys in code point order (the order JSON Schema's output and Assay's issues
/// take; a dictionary keeps none of its own).
@usableFromInline
func codePointOrder<Keys: Sequence<String>>(_ keys: Keys) -> [String] {
    keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
}
