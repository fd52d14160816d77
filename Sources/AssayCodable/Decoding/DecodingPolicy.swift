import AssayCore
import AssayJSON
import Foundation

/// How validated decoding treats the payload: unknown keys, collections, and how many issues it
/// collects before it stops.
///
/// Hand a policy to a decoder through its `userInfo` (``ValidatedDecoding/policyKey``); the
/// `decodeValidated` entry points do it for you. Without one, the defaults apply.
public struct ValidatedDecodingPolicy: Sendable, Hashable {
    /// What to do with keys the type does not declare.
    public enum UnknownKeys: Sendable, Hashable {
        /// Ignore them, as `Decodable` does. The default.
        case ignore
        /// Report each as an `IssueCode.unknownKey` warning; the value still decodes.
        case warn
        /// Report each as an `IssueCode.unknownKey` error; the value does not decode.
        case reject
    }

    /// What to do with keys the type does not declare; ``UnknownKeys/ignore`` by default.
    public var unknownKeys: UnknownKeys
    /// The most issues one decode collects; past it decoding stops and the aggregate error is marked
    /// truncated (`ValidationError.isTruncated`), so memory stays bounded on huge
    /// payloads. 1,000 by default.
    public var maximumIssues: Int
    /// Whether every array of models drops its invalid elements (reporting each as a warning)
    /// instead of failing; per property, `@Lossy` asks for the same.
    public var lossyCollections: Bool

    /// Makes a policy; every argument has the default described on its property.
    public init(unknownKeys: UnknownKeys = .ignore, maximumIssues: Int = 1_000, lossyCollections: Bool = false) {
        self.unknownKeys = unknownKeys
        self.maximumIssues = max(1, maximumIssues)
        self.lossyCollections = lossyCollections
    }

    /// The defaults.
    public static let `default` = ValidatedDecodingPolicy()
}

/// The `userInfo` keys of validated decoding.
public enum ValidatedDecoding {
    /// The key of the ``ValidatedDecodingPolicy`` in a decoder's `userInfo`.
    public static let policyKey = CodingUserInfoKey(rawValue: "assay.validatedDecodingPolicy")!
    /// The key of the ``WarningSink`` that collects the warnings of a decode whose value is valid.
    public static let warningsKey = CodingUserInfoKey(rawValue: "assay.validatedDecodingWarnings")!

    static func policy(of decoder: any Decoder) -> ValidatedDecodingPolicy { context(of: decoder).policy }

    static func sink(of decoder: any Decoder) -> WarningSink? { context(of: decoder).sink }

    /// The policy and sink of `decoder`'s `userInfo`, read once per decode run of AssayJSON's
    /// decoder (every model and element reads them).
    static func context(of decoder: any Decoder) -> Context {
        context(of: decoder, handle: NodeDecoderHandle(decoder))
    }

    /// ``context(of:)`` with `decoder` already seen as AssayJSON's (or not, `nil`).
    static func context(of decoder: any Decoder, handle: NodeDecoderHandle?) -> Context {
        if let cached = handle?.runAttachment as? Context { return cached }
        let context = Context(
            policy: decoder.userInfo[policyKey] as? ValidatedDecodingPolicy ?? .default,
            sink: decoder.userInfo[warningsKey] as? WarningSink)
        handle?.runAttachment = context
        return context
    }

    @usableFromInline
    final class Context {
        let policy: ValidatedDecodingPolicy
        let sink: WarningSink?

        @usableFromInline
        init(policy: ValidatedDecodingPolicy, sink: WarningSink?) {
            self.policy = policy
            self.sink = sink
        }
    }
}

/// Collects the warnings (lossy drops, unknown keys, rules of warning severity) of values that
/// decoded, so the `decodeValidated` entry points can return them beside the value.
public final class WarningSink: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [ValidationIssue] = []

    /// Makes an empty sink.
    public init() {}

    /// The warnings collected so far, in order.
    public var warnings: [ValidationIssue] {
        lock.lock()
        defer { lock.unlock() }
        return collected
    }

    /// Adds warnings.
    public func add(_ issues: [ValidationIssue]) {
        guard !issues.isEmpty else { return }
        lock.lock()
        collected.append(contentsOf: issues)
        lock.unlock()
    }
}
