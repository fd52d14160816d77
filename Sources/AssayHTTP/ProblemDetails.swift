import AssayCore
import AssayJSON

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An RFC 9457 problem details object (`application/problem+json`): what an HTTP API answers when a
/// request fails, with one entry per failure in ``errors``.
///
/// Build one from what went wrong — ``init(validation:language:options:instance:)`` for rules that
/// failed, ``malformedJSON(_:language:instance:)``, ``unsupportedMediaType(_:language:instance:)``,
/// ``contentTooLarge(limit:language:instance:)`` — then send ``body()`` with ``headers``. The
/// framework-neutral part of Assay's HTTP adapters: it depends on no server.
///
/// <!-- snippet: doc-problem-details -->
/// ```swift
/// var error = ValidationError()
/// error.append(
///     ValidationIssue(
///         code: .tooShort, path: IssuePath.root.appending(key: "name"),
///         parameters: ["minimum": 2], value: "A"))
/// let problem = ProblemDetails(validation: error, language: AcceptLanguage("ru").language())
/// print(problem.status)  // 422
/// print(problem.errors[0].pointer)  // /name
/// print(String(decoding: problem.body(), as: UTF8.self).contains("\"code\":\"tooShort\""))  // true
/// ```
public struct ProblemDetails: Error, Sendable, Hashable {
    /// A URI that names the kind of problem; `about:blank` when the status says it all.
    public var type: String
    /// A short summary of the kind of problem, in ``language``.
    public var title: String
    /// The HTTP status code.
    public var status: Int
    /// What happened this time, in ``language``.
    public var detail: String?
    /// A URI of this occurrence (usually the request's path).
    public var instance: String?
    /// One entry per failure.
    public var errors: [FieldError]
    /// The language of ``title``, ``detail`` and the errors' messages: `Content-Language`.
    public var language: Language

    /// One failure: where in the request, which rule, and a message.
    public struct FieldError: Sendable, Hashable {
        /// The JSON Pointer (RFC 6901) of the value in the request body; `""` for the whole body.
        public var pointer: String
        /// Assay's stable issue code (`tooShort`, `notUnique`, `malformed`…).
        public var code: String
        /// The message, in the problem's language.
        public var detail: String
        /// The rule's parameters (`minimum`, `pattern`…), for a client that words its own message.
        public var params: JSONObject

        /// Makes an entry.
        public init(pointer: String, code: String, detail: String, params: JSONObject = [:]) {
            self.pointer = pointer
            self.code = code
            self.detail = detail
            self.params = params
        }
    }

    /// The media type of the body: `application/problem+json`.
    public static let mediaType = "application/problem+json"

    /// Makes a problem.
    public init(
        type: String = "about:blank", title: String, status: Int, detail: String? = nil, instance: String? = nil,
        errors: [FieldError] = [], language: Language = .english
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.instance = instance
        self.errors = errors
        self.language = language
    }

    /// The response headers besides the body's length: `Content-Type`, `Content-Language`, and
    /// `Vary: Accept-Language` (the body depends on that request header).
    public var headers: [(name: String, value: String)] {
        [
            ("Content-Type", Self.mediaType), ("Content-Language", language.identifier),
            ("Vary", "Accept-Language"),
        ]
    }

    /// The problem as JSON: the members of RFC 9457 in its order, then `errors`.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("type", .string(type)), ("title", .string(title)), ("status", .number(JSONNumber(status))),
        ]
        if let detail { members.append(("detail", .string(detail))) }
        if let instance { members.append(("instance", .string(instance))) }
        let entries = errors.map { error -> JSONValue in
            .object([
                "pointer": .string(error.pointer), "code": .string(error.code), "detail": .string(error.detail),
                "params": .object(error.params),
            ])
        }
        members.append(("errors", .array(entries)))
        return .object(JSONObject(members))
    }

    /// The body to send: ``json`` as UTF-8.
    public func body() -> [UInt8] { json.jsonBytes() }
}

/// How ``ProblemDetails/init(validation:language:options:instance:)`` renders a validation failure.
public struct ProblemOptions: Sendable {
    /// Keys whose values are never echoed: an issue at or under such a key has its value replaced by
    /// `IssueValue.redacted` before its message is rendered, and no `value` parameter. Compared
    /// without case. Default: `password`, `passphrase`, `secret`, `token`, `apiKey`, `accessToken`,
    /// `refreshToken`, `creditCard`, `cardNumber`, `cvv`, `ssn`.
    public var sensitiveKeys: Set<String>
    /// The message catalog (an app's own messages and languages): the one given, else
    /// `MessageCatalog.current` as it is when read — when a problem is rendered.
    public var catalog: MessageCatalog {
        get { chosenCatalog ?? .current }
        set { chosenCatalog = newValue }
    }
    private var chosenCatalog: MessageCatalog?

    /// Makes options: the keys (compared without case; ``defaultSensitiveKeys`` when `nil`) and the
    /// catalog (`MessageCatalog.current` when a problem is rendered, when `nil`).
    public init(sensitiveKeys: Set<String>? = nil, catalog: MessageCatalog? = nil) {
        // The default set (already lowercase) is taken as it is, and the task's catalog is read
        // only for a problem: options are made for every request, and most requests pass.
        self.sensitiveKeys = sensitiveKeys.map { Set($0.map { $0.lowercased() }) } ?? Self.defaultSensitiveKeys
        self.chosenCatalog = catalog
    }

    /// The keys treated as sensitive unless told otherwise.
    public static let defaultSensitiveKeys: Set<String> = [
        "password", "passphrase", "secret", "token", "apikey", "accesstoken", "refreshtoken", "creditcard",
        "cardnumber", "cvv", "ssn",
    ]

    /// Whether a key names a sensitive value.
    func isSensitive(_ path: IssuePath) -> Bool {
        path.components.contains { component in
            if case .key(let key) = component { return sensitiveKeys.contains(key.lowercased()) }
            return false
        }
    }
}
