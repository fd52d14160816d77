/// A regular expression that ``LinearRegex`` cannot compile: a syntax error, or a feature that a
/// linear-time engine does not run (backreferences).
public struct RegexSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The pattern that failed.
    public let pattern: String
    /// The offset of the problem in the pattern, in Unicode scalars.
    public let offset: Int
    /// What is wrong, in English, e.g. `"backreferences are not supported by the linear-time engine"`.
    public let reason: String
    /// Whether the pattern is valid ECMA-262 but uses a feature this engine refuses
    /// (backreferences, or an automaton over the size limit) rather than being malformed.
    public let isUnsupportedFeature: Bool

    /// `invalid regular expression "…" at offset N: reason`.
    public var description: String {
        "invalid regular expression \"\(pattern)\" at offset \(offset): \(reason)"
    }
}
