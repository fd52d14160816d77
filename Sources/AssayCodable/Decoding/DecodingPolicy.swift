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
        /// Report each as an `IssueCode.unknownKey` error, as ``reject`` does; and when the value
        /// fails in any other way, report every key it has as well. This is JSON Schema's
        /// `unevaluatedProperties: false` beside a union (`assay generate swift` writes it for
        /// `{"oneOf": [{"type": "null"}, {"type": "object", …}], "unevaluatedProperties": false}`):
        /// no member of a value that matched no alternative was evaluated, so each is reported.
        case rejectUnevaluated

        /// Whether a key the type does not declare is an error.
        var rejects: Bool { self == .reject || self == .rejectUnevaluated }
    }

    /// What to do with keys the type does not declare; ``UnknownKeys/ignore`` by default.
    public var unknownKeys: UnknownKeys
    /// The most errors one decode collects, and apart from them the most warnings; 1,000 by
    /// default. Past the cap of errors decoding stops; warnings past theirs are counted and dropped
    /// while decoding goes on (so a lossy array still keeps its valid elements). Either way the
    /// aggregate error is marked truncated (`ValidationError.isTruncated`) with the counts dropped,
    /// and memory stays bounded on huge payloads.
    public var maximumIssues: Int
    /// Whether every array of models drops its invalid elements (reporting each as a warning)
    /// instead of failing; per property, `@Lossy` asks for the same.
    public var lossyCollections: Bool
    /// The operation the value is decoded for: `.insert` for a create request's body, `.update` for
    /// an update's. Its rules (declared `on:` it) run while decoding, with the rules of every
    /// operation, so that one decode reports them all; `nil`, the default, runs the rules of every
    /// operation only.
    public var operation: ValidationOperation?

    /// Makes a policy; every argument has the default described on its property.
    public init(
        unknownKeys: UnknownKeys = .ignore, maximumIssues: Int = 1_000, lossyCollections: Bool = false,
        operation: ValidationOperation? = nil
    ) {
        self.unknownKeys = unknownKeys
        self.maximumIssues = max(1, maximumIssues)
        self.lossyCollections = lossyCollections
        self.operation = operation
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

    /// Hands the warnings of a value that decoded to the run (see ``Context/add(_:)``).
    static func addWarnings(_ issues: [ValidationIssue], of decoder: any Decoder) {
        guard !issues.isEmpty else { return }
        context(of: decoder).add(issues)
    }

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

    /// The policy of a decode run and where its warnings go: the `userInfo` sink of another
    /// decoder (shared, so locked), or, for the `decodeValidated` entry points of AssayJSON's decoder,
    /// the context itself (one run on one thread: no lock, and nothing to make for a run without
    /// warnings).
    @usableFromInline
    final class Context {
        @usableFromInline let policy: ValidatedDecodingPolicy
        let sink: WarningSink?
        /// The warnings added when there is no sink.
        private(set) var collected: [ValidationIssue] = []

        @usableFromInline
        init(policy: ValidatedDecodingPolicy, sink: WarningSink?) {
            self.policy = policy
            self.sink = sink
        }

        /// Adds the warnings of a value that decoded.
        func add(_ issues: [ValidationIssue]) {
            guard !issues.isEmpty else { return }
            if let sink { sink.add(issues) } else { collected += issues }
        }

        /// Every warning added, in order.
        var warnings: [ValidationIssue] { sink?.warnings ?? collected }

        /// The model whose rules ran last in this run (a model checks itself at the end of its
        /// `init(from:)`, after the models nested in it): tells the entry points whether the root
        /// checked itself, or is a `Validatable` type whose decoding does not (its rules are then
        /// run after decoding: never a value handed back as valid unchecked).
        private var lastValidated: ObjectIdentifier?

        /// Notes that a model of type `type` ran its rules.
        @usableFromInline
        func markValidated(_ type: Any.Type) {
            if let sink { sink.markValidated(type) } else { lastValidated = ObjectIdentifier(type) }
        }

        /// Whether the last model that ran its rules is of type `type`.
        @usableFromInline
        func lastValidated(is type: Any.Type) -> Bool {
            (sink?.lastValidated ?? lastValidated) == ObjectIdentifier(type)
        }
    }

    /// `value` checked by its rules (for the policy's operation) when it is a `Validatable` type
    /// that did not check itself while decoding; other values as they are.
    ///
    /// - Throws: `ValidationError` with the value's issues, at `path`.
    @usableFromInline
    static func checked<T>(_ value: T, context: Context, at path: IssuePath = .root) throws(ValidationError) -> T {
        guard let model = value as? any Validatable, !context.lastValidated(is: T.self) else { return value }
        func run<Model: Validatable>(_ model: Model) -> (model: Model, issues: [ValidationIssue]) {
            let result = Model.validation.run(on: model, operation: context.policy.operation, path: path)
            return (result.model, result.issues)
        }
        let result = run(model)
        try ValidationError(result.issues).throwIfErrors()
        let warnings = result.issues.filter { $0.severity != .error }
        if !warnings.isEmpty { context.add(warnings) }
        return result.model as? T ?? value
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

    private var validated: ObjectIdentifier?

    /// The model whose rules ran last in the run (see `ValidatedDecoding.Context`).
    var lastValidated: ObjectIdentifier? {
        lock.lock()
        defer { lock.unlock() }
        return validated
    }

    /// Notes that a model of type `type` ran its rules.
    func markValidated(_ type: Any.Type) {
        lock.lock()
        validated = ObjectIdentifier(type)
        lock.unlock()
    }
}
