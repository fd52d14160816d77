@testable import AssayRegex

/// A backtracking matcher over the parsed pattern, as ECMA-262 defines matching (captures aside,
/// which neither whether there is a match nor where the first one is depends on): the `regex`
/// target's reference for what the linear engine computes another way — lookarounds, the
/// backtracking order of the first match, the empty check. Exponential on some patterns, so it
/// gives up (`nil`) after a budget of steps, or where its recursion would go deeper than
/// ``maximumDepth`` (nested counted repetitions of empty groups, `((){4}){214}`, nest a continuation
/// per iteration: found by the target itself, as a stack overflow of the reference under ASan).
final class ReferenceMatcher {
    let input: [Unicode.Scalar]
    private var steps = 0
    private let budget: Int
    /// The deepest nesting of `match` calls tried (each a few frames, larger under ASan, and larger
    /// again without the optimiser: CI's smoke run builds the targets for debugging).
    #if DEBUG
    static let maximumDepth = 400
    #else
    static let maximumDepth = 2_000
    #endif
    private var depth = 0

    init(_ input: [Unicode.Scalar], budget: Int = 200_000) {
        self.input = input
        self.budget = budget
    }

    /// Whether `node` matches somewhere in the input; `nil` when the budget ran out.
    func matchesSomewhere(_ node: RegexNode) -> Bool? {
        firstMatch(node).map { $0 != nil }
    }

    /// The first match, as `RegExp.prototype.exec` finds it: the leftmost start, and there the end
    /// the first success in backtracking order reaches. `.some(nil)` when there is none, `nil` when
    /// the budget ran out.
    func firstMatch(_ node: RegexNode) -> Range<Int>?? {
        for start in 0...input.count {
            var end = 0
            guard
                let found = match(
                    node, start,
                    { position in
                        end = position
                        return true
                    })
            else { return nil }
            if found { return .some(start..<end) }
        }
        return .some(nil)
    }

    /// Whether `node` matches from `position` with a continuation that accepts the end.
    private func match(_ node: RegexNode, _ position: Int, _ next: (Int) -> Bool?) -> Bool? {
        steps += 1
        if steps > budget || depth >= Self.maximumDepth { return nil }
        depth += 1
        defer { depth -= 1 }
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
        case .wordBoundary(let negated, let ignoringCase):
            let before = position > 0 ? input[position - 1] : nil
            let after = position < input.count ? input[position] : nil
            let boundary =
                ScalarSet.isWordCharacter(before, ignoringCase: ignoringCase)
                != ScalarSet.isWordCharacter(after, ignoringCase: ignoringCase)
            return boundary != negated ? next(position) : false
        case .concatenation(let nodes):
            return sequence(nodes[...], position, next)
        case .alternation(let nodes):
            for node in nodes {
                guard let found = match(node, position, next) else { return nil }
                if found { return true }
            }
            return false
        case .repetition(let inner, let min, let max, let greedy):
            return repeating(inner, min: min, max: max, greedy: greedy, count: 0, position, next)
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

    /// `inner` repeated, `count` times so far; an iteration past `min` that matches nothing fails
    /// (ECMA-262's RepeatMatcher). Greedy, one more iteration is tried before what follows; lazy,
    /// after it.
    private func repeating(
        _ inner: RegexNode, min: Int, max: Int?, greedy: Bool, count: Int, _ position: Int, _ next: (Int) -> Bool?
    ) -> Bool? {
        if let max, count >= max { return next(position) }
        func more() -> Bool? {
            match(inner, position) { after in
                if after == position && count >= min { return false }
                return self.repeating(inner, min: min, max: max, greedy: greedy, count: count + 1, after, next)
            }
        }
        if !greedy && count >= min {
            guard let done = next(position) else { return nil }
            if done { return true }
            return more()
        }
        guard let found = more() else { return nil }
        if found { return true }
        return count >= min ? next(position) : false
    }
}
