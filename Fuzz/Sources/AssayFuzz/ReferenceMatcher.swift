@testable import AssayRegex

/// A backtracking matcher over the parsed pattern, as ECMA-262 defines matching (for the question
/// "is there a match", which captures do not change): the `regex` target's reference for what the
/// linear engine computes another way, lookarounds above all. Exponential on some patterns, so it
/// gives up (`nil`) after a budget of steps.
final class ReferenceMatcher {
    let input: [Unicode.Scalar]
    private var steps = 0
    private let budget: Int

    init(_ input: [Unicode.Scalar], budget: Int = 200_000) {
        self.input = input
        self.budget = budget
    }

    /// Whether `node` matches somewhere in the input; `nil` when the budget ran out.
    func matchesSomewhere(_ node: RegexNode) -> Bool? {
        for start in 0...input.count {
            guard let found = match(node, start, { _ in true }) else { return nil }
            if found { return true }
        }
        return false
    }

    /// Whether `node` matches from `position` with a continuation that accepts the end.
    private func match(_ node: RegexNode, _ position: Int, _ next: (Int) -> Bool?) -> Bool? {
        steps += 1
        if steps > budget { return nil }
        switch node {
        case .empty:
            return next(position)
        case .set(let set):
            guard position < input.count, set.contains(input[position]) else { return false }
            return next(position + 1)
        case .startAnchor:
            return position == 0 ? next(position) : false
        case .endAnchor:
            return position == input.count ? next(position) : false
        case .wordBoundary(let negated):
            let before = position > 0 ? input[position - 1] : nil
            let after = position < input.count ? input[position] : nil
            let boundary = ScalarSet.isWordCharacter(before) != ScalarSet.isWordCharacter(after)
            return boundary != negated ? next(position) : false
        case .concatenation(let nodes):
            return sequence(nodes[...], position, next)
        case .alternation(let nodes):
            for node in nodes {
                guard let found = match(node, position, next) else { return nil }
                if found { return true }
            }
            return false
        case .repetition(let inner, let min, let max):
            return repeating(inner, min: min, max: max, count: 0, position, next)
        case .lookaround(let inner, let behind, let negated):
            var holds: Bool
            if behind {
                holds = false
                for start in stride(from: position, through: 0, by: -1) {
                    guard let found = match(inner, start, { $0 == position }) else { return nil }
                    if found {
                        holds = true
                        break
                    }
                }
            } else {
                guard let found = match(inner, position, { _ in true }) else { return nil }
                holds = found
            }
            return holds != negated ? next(position) : false
        }
    }

    private func sequence(_ nodes: ArraySlice<RegexNode>, _ position: Int, _ next: (Int) -> Bool?) -> Bool? {
        guard let first = nodes.first else { return next(position) }
        let rest = nodes.dropFirst()
        return match(first, position) { after in self.sequence(rest, after, next) }
    }

    /// `inner` repeated, `count` times so far; an iteration past `min` that matches nothing ends the
    /// loop (ECMA-262's RepeatMatcher).
    private func repeating(
        _ inner: RegexNode, min: Int, max: Int?, count: Int, _ position: Int, _ next: (Int) -> Bool?
    ) -> Bool? {
        if let max, count >= max { return next(position) }
        let more = match(inner, position) { after in
            if after == position && count >= min { return false }
            return self.repeating(inner, min: min, max: max, count: count + 1, after, next)
        }
        guard let more else { return nil }
        if more { return true }
        return count >= min ? next(position) : false
    }
}
