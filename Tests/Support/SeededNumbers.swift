/// A seeded linear congruential generator for tests that try many generated inputs: the same
/// numbers on every run, so a failure can be repeated.
public struct SeededNumbers {
    private var state: UInt64

    /// A generator that starts from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next number, in `0..<bound`.
    public mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}
