/// How the parser treats what RFC 8259 leaves to implementations.
///
/// Everything RFC 8259 forbids is always rejected: trailing commas, leading zeros, `NaN` and
/// `Infinity`, unescaped control characters, invalid UTF-8, comments, single quotes. What it leaves
/// open is set here.
public struct JSONParserOptions: Sendable, Hashable {
    /// The deepest nesting of arrays and objects accepted; deeper input is a
    /// ``JSONParseError/Reason/depthLimitExceeded`` error, never a stack overflow. Default 512,
    /// at most ``maximumAllowedDepth``.
    public var maximumDepth: Int {
        didSet { maximumDepth = min(max(1, maximumDepth), Self.maximumAllowedDepth) }
    }
    /// What to do when an object has the same key twice. Default ``DuplicateKeyPolicy/reject``.
    public var duplicateKeys: DuplicateKeyPolicy
    /// What to do with a `\u` escape of half a surrogate pair. Default ``UnpairedSurrogatePolicy/reject``.
    public var unpairedSurrogates: UnpairedSurrogatePolicy
    /// The largest input accepted, in bytes; a longer one is a
    /// ``JSONParseError/Reason/sizeLimitExceeded`` error before any of it is parsed. Default 1 GiB
    /// (``defaultMaximumBytes``), at most ``maximumAllowedBytes``.
    public var maximumBytes: Int {
        didSet { maximumBytes = min(max(0, maximumBytes), Self.maximumAllowedBytes) }
    }
    /// Whether a UTF-8 byte order mark at the start is skipped (RFC 8259 §8.1 allows a parser to
    /// ignore it) rather than rejected. Default `true`.
    public var skipsByteOrderMark: Bool

    /// The largest ``maximumDepth``: values are also compared and hashed recursively, so the limit
    /// keeps those operations within a thread's stack (building a value's tree and writing it do not
    /// recurse; schema evaluation stops with an error when the stack runs short).
    public static let maximumAllowedDepth = 1_000

    /// The default ``maximumBytes``: 1 GiB.
    public static let defaultMaximumBytes = 1 << 30

    /// The largest ``maximumBytes``: 4 GiB − 1, as the parsed form records offsets in 32 bits.
    public static let maximumAllowedBytes = Int(UInt32.max)

    /// Makes options.
    public init(
        maximumDepth: Int = 512, duplicateKeys: DuplicateKeyPolicy = .reject,
        unpairedSurrogates: UnpairedSurrogatePolicy = .reject, skipsByteOrderMark: Bool = true,
        maximumBytes: Int = JSONParserOptions.defaultMaximumBytes
    ) {
        self.maximumDepth = min(max(1, maximumDepth), Self.maximumAllowedDepth)
        self.maximumBytes = min(max(0, maximumBytes), Self.maximumAllowedBytes)
        self.duplicateKeys = duplicateKeys
        self.unpairedSurrogates = unpairedSurrogates
        self.skipsByteOrderMark = skipsByteOrderMark
    }

    /// The defaults: depth 512, at most 1 GiB, duplicate keys and unpaired surrogates rejected, a BOM skipped.
    public static let `default` = JSONParserOptions()
}

/// What the parser does when an object has the same key twice (RFC 8259: names SHOULD be unique).
public enum DuplicateKeyPolicy: Sendable, Hashable {
    /// A ``JSONParseError/Reason/duplicateKey`` error.
    case reject
    /// The first member with the key is kept; later ones are dropped.
    case firstWins
    /// The last member with the key is kept (what most parsers do silently).
    case lastWins
}

/// What the parser does with `\uD800` and other halves of a surrogate pair that are not paired.
public enum UnpairedSurrogatePolicy: Sendable, Hashable {
    /// A ``JSONParseError/Reason/unpairedSurrogate`` error: the string cannot be UTF-8.
    case reject
    /// Replaced by U+FFFD REPLACEMENT CHARACTER.
    case replace
}
