import AssayCodable
import AssayCore
import AssayJSON
import AssaySchema

/// How an HTTP adapter reads and checks request bodies: the size limit, the decoding policy, the
/// languages and what a problem may echo.
public struct RequestContentOptions: Sendable {
    /// The largest body read, in bytes; a larger one is answered 413. 1 MiB by default.
    public var maximumBodySize: Int
    /// Unknown keys, lossy collections and the most issues one body reports.
    public var decodingPolicy: ValidatedDecodingPolicy
    /// The JSON parser's limits (nesting depth, number and string lengths).
    public var parserOptions: JSONParserOptions
    /// Sensitive keys and the message catalog of problems.
    public var problems: ProblemOptions
    /// The language of clients that ask for none Assay has messages in.
    public var defaultLanguage: Language

    /// Makes options; every argument has the default described on its property.
    public init(
        maximumBodySize: Int = 1 << 20, decodingPolicy: ValidatedDecodingPolicy = .default,
        parserOptions: JSONParserOptions = .default, problems: ProblemOptions = ProblemOptions(),
        defaultLanguage: Language = .english
    ) {
        self.maximumBodySize = max(0, maximumBodySize)
        self.decodingPolicy = decodingPolicy
        self.parserOptions = parserOptions
        self.problems = problems
        self.defaultLanguage = defaultLanguage
    }

    /// The language to answer a request in: its `Accept-Language` against the problems' catalog,
    /// ``defaultLanguage`` when it asks for none Assay has.
    public func language(for acceptLanguage: String?) -> Language {
        AcceptLanguage(acceptLanguage).language(in: problems.catalog, default: defaultLanguage)
    }
}

/// A request's body with what the checks need from its head: the framework-neutral core of the
/// Hummingbird and Vapor adapters, which read the bytes and headers and send the problem back.
///
/// Every failure is a ``ProblemDetails`` thrown in the client's language: a body whose media type is
/// not JSON 415, a body that is not JSON (or not UTF-8, or nested too deeply) 400 with its line and
/// column, rules that failed 422 with every failure, a conflict with stored data 409.
///
/// <!-- snippet: doc-request-content -->
/// ```swift
/// let body = RequestContent(
///     Array(#"{"name": "A", "age": 200, "email": "ann@example.com"}"#.utf8),
///     contentType: "application/json", acceptLanguage: "ru", instance: "/clients")
/// do {
///     _ = try body.decode(Client.self, for: .insert)
/// } catch let problem {
///     print(problem.status, problem.errors.map(\.pointer))  // 422 ["/name", "/age"]
/// }
/// ```
public struct RequestContent: Sendable {
    /// The body.
    public private(set) var bytes: [UInt8]
    /// What the request's head says, in one reference: the content is passed and copied on every
    /// request, and the language is worked out only when a problem needs it.
    @usableFromInline let head: Head

    /// The request's `Content-Type`, as sent.
    public var contentType: String? { head.contentType }
    /// The language of problems, from the request's `Accept-Language` (worked out when asked for:
    /// a body that passes never needs it).
    public var language: Language { head.options.language(for: head.acceptLanguage) }
    /// The request's path (the problems' `instance`).
    public var instance: String? { head.instance }
    /// The options.
    public var options: RequestContentOptions { head.options }

    /// The head's fields a body's checks use.
    @usableFromInline
    final class Head: Sendable {
        let contentType: String?
        let acceptLanguage: String?
        let instance: String?
        @usableFromInline let options: RequestContentOptions

        init(contentType: String?, acceptLanguage: String?, instance: String?, options: RequestContentOptions) {
            self.contentType = contentType
            self.acceptLanguage = acceptLanguage
            self.instance = instance
            self.options = options
        }
    }

    /// Takes a body read by an adapter.
    ///
    /// - Parameters:
    ///   - bytes: The body, already read up to ``RequestContentOptions/maximumBodySize``.
    ///   - contentType: The `Content-Type` header.
    ///   - acceptLanguage: The `Accept-Language` header.
    ///   - instance: The request's path.
    ///   - options: Limits, policy and languages.
    public init(
        _ bytes: [UInt8], contentType: String?, acceptLanguage: String?, instance: String? = nil,
        options: RequestContentOptions = RequestContentOptions()
    ) {
        self.bytes = bytes
        self.head = Head(
            contentType: contentType, acceptLanguage: acceptLanguage, instance: instance, options: options)
    }

    /// The same request with `bytes` as its body: for an adapter that checks the head (the media
    /// type, the language) before it reads the body.
    public func withBody(_ bytes: [UInt8]) -> RequestContent {
        var content = self
        content.bytes = bytes
        return content
    }

    /// Decodes and validates the body as `type`: every failure at once. When `operation` is given
    /// (`.insert` for a create, `.update` for an update) the rules declared for it run too, in the
    /// same pass (``RequestContentOptions/decodingPolicy``'s operation otherwise).
    ///
    /// - Throws: ``ProblemDetails``: 415, 413, 400, 422 or 409.
    ///
    /// Inlinable, so that the decode is specialised for `T` where it is called.
    @inlinable
    public func decode<T: Decodable>(_ type: T.Type, for operation: ValidationOperation? = nil)
        throws(ProblemDetails) -> Decoded<T>
    {
        let document = try parsed()
        let decoded: Decoded<T>
        do {
            var policy = head.options.decodingPolicy
            policy.operation = operation ?? policy.operation
            // The operation's rules run while decoding, with the others.
            decoded = try JSONValueDecoder().decodeValidated(T.self, from: document, policy: policy)
        } catch {
            throw problem(for: Self.inDocumentOrder(error))
        }
        return decoded
    }

    /// The issues in the order of their values in the body (a nested model's issues are found
    /// before its parent's rules run); issues with no location keep their place after them.
    @usableFromInline
    static func inDocumentOrder(_ error: ValidationError) -> ValidationError {
        func position(_ issue: ValidationIssue) -> (Int, Int) {
            guard case .integer(let line)? = issue.parameters["line"],
                case .integer(let column)? = issue.parameters["column"]
            else { return (Int.max, Int.max) }
            return (line, column)
        }
        let sorted = error.issues.enumerated().sorted { left, right in
            let (a, b) = (position(left.element), position(right.element))
            return a != b ? a < b : left.offset < right.offset
        }.map(\.element)
        var ordered = ValidationError(sorted, limit: error.limit, warningLimit: error.warningLimit)
        ordered.countDropped(errors: error.droppedErrorCount, warnings: error.droppedWarningCount)
        if error.isTruncated && !ordered.isTruncated { ordered.markTruncated() }
        return ordered
    }

    /// Decodes and validates the body as an array, element by element: every bad element is
    /// reported, not only the first (see ``decode(_:for:)``).
    ///
    /// - Throws: ``ProblemDetails``: 415, 413, 400, 422 or 409.
    @inlinable
    public func decode<Element: Decodable>(_ type: [Element].Type, for operation: ValidationOperation? = nil)
        throws(ProblemDetails) -> Decoded<[Element]>
    {
        let document = try parsed()
        do {
            var policy = head.options.decodingPolicy
            policy.operation = operation ?? policy.operation
            return try JSONValueDecoder().decodeValidated([Element].self, from: document, policy: policy)
        } catch {
            throw problem(for: Self.inDocumentOrder(error))
        }
    }

    /// Validates the body against a compiled JSON Schema, for a route with no Swift type.
    ///
    /// - Returns: The body, valid.
    /// - Throws: ``ProblemDetails``: 415, 413, 400 or 422 with every failure the schema reports.
    public func validate(against schema: JSONSchema) throws(ProblemDetails) -> JSONDocument {
        let document = try parsed()
        let result = schema.validate(document, limit: .first(options.decodingPolicy.maximumIssues))
        guard result.isValid else {
            var error = ValidationError(result.issues, limit: options.decodingPolicy.maximumIssues)
            if result.isTruncated && !error.isTruncated { error.markTruncated() }
            throw problem(for: error)
        }
        return document
    }

    /// The body parsed, after its media type and size are checked.
    ///
    /// - Throws: ``ProblemDetails``: 415 for a media type that is not JSON, 413 for a body over the
    ///   limit, 400 for a body that is not JSON.
    public func parsed() throws(ProblemDetails) -> JSONDocument {
        let options = head.options
        guard Self.isJSON(head.contentType) else {
            throw ProblemDetails.unsupportedMediaType(contentType, language: language, instance: instance)
        }
        guard bytes.count <= options.maximumBodySize else {
            throw ProblemDetails.contentTooLarge(
                limit: options.maximumBodySize, language: language, instance: instance)
        }
        do {
            return try JSONDocument(parsing: bytes, options: options.parserOptions)
        } catch {
            throw ProblemDetails.malformedJSON(error, language: language, instance: instance)
        }
    }

    /// The problem for an error thrown while handling the request: a ``ProblemDetails`` as it is, a
    /// `ValidationError` 422 or 409 in the request's language; `nil` for any other error.
    public func problem(for error: any Error) -> ProblemDetails {
        let language = language
        return Self.problem(for: error, language: language, options: options.problems, instance: instance)
            ?? ProblemDetails(
                title: "Internal Server Error", status: 500, instance: instance, language: language)
    }

    /// The problem for an error, if it is one of Assay's: a ``ProblemDetails`` as it is, a
    /// `ValidationError` 422 or 409 (see ``ProblemDetails/init(validation:language:options:instance:)``).
    public static func problem(
        for error: any Error, language: Language, options: ProblemOptions = ProblemOptions(), instance: String?
    ) -> ProblemDetails? {
        switch error {
        case let problem as ProblemDetails: problem
        case let validation as ValidationError:
            ProblemDetails(validation: validation, language: language, options: options, instance: instance)
        default: nil
        }
    }

    /// Whether a `Content-Type` is JSON: `application/json` or a `+json` type such as
    /// `application/merge-patch+json`, with no charset but UTF-8 (RFC 8259 allows no other).
    public static func isJSON(_ contentType: String?) -> Bool {
        guard var contentType else { return false }
        if contentType == "application/json" { return true }
        // Read as bytes, ASCII case folded: every request asks, most with `application/json`.
        return contentType.withUTF8 { bytes in
            var index = 0
            func skipSpaces() { while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 } }
            func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }
            /// The next token, up to `;`, `=`, `/` or a space, ASCII-lowercased.
            func token() -> [UInt8] {
                var token: [UInt8] = []
                while index < bytes.count {
                    let byte = bytes[index]
                    if byte == 0x3B || byte == 0x3D || byte == 0x2F || byte == 0x20 || byte == 0x09 { break }
                    token.append(lower(byte))
                    index += 1
                }
                return token
            }
            skipSpaces()
            guard token() == Array("application".utf8), index < bytes.count, bytes[index] == 0x2F else { return false }
            index += 1
            let subtype = token()
            guard subtype == Array("json".utf8) || subtype.count > 5 && subtype.suffix(5) == Array("+json".utf8)[...]
            else { return false }
            skipSpaces()
            // Parameters: only a charset matters, and only UTF-8 is JSON (RFC 8259).
            while index < bytes.count {
                guard bytes[index] == 0x3B else { return false }
                index += 1
                skipSpaces()
                if index == bytes.count { break }  // `application/json;`
                let name = token()
                skipSpaces()
                guard index < bytes.count, bytes[index] == 0x3D else { return false }
                index += 1
                skipSpaces()
                var value: [UInt8] = []
                while index < bytes.count, bytes[index] != 0x3B {
                    if bytes[index] != 0x22 { value.append(lower(bytes[index])) }
                    index += 1
                }
                while let last = value.last, last == 0x20 || last == 0x09 { value.removeLast() }
                if name == Array("charset".utf8), value != Array("utf-8".utf8), value != Array("utf8".utf8) {
                    return false
                }
            }
            return true
        }
    }
}
