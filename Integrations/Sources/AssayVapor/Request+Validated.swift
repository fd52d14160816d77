import AssayCodable
public import AssayCore
public import AssayHTTP
public import AssayJSON
public import AssaySchema
public import Vapor

extension Request {
    /// Reads the body, up to ``AssayHTTP/RequestContentOptions/maximumBodySize``, with the headers the
    /// checks need: for a handler that wants the warnings of a decode too
    /// (`try await req.readContent().decode(Client.self)`).
    ///
    /// A route whose body Vapor collects (the default) has it cut at the route's own limit first
    /// (`app.routes.defaultMaxBodySize`, 16 KiB unless set); a route declared `body: .stream` is
    /// read here, up to the options' limit.
    ///
    /// - Throws: `ProblemDetails`: 415 for a body that is not JSON by its media type, 413 for one
    ///   over the limit.
    public func readContent(options: RequestContentOptions = RequestContentOptions()) async throws -> RequestContent {
        let contentType = headers.first(name: .contentType)
        let acceptLanguage = self.acceptLanguage
        let head = RequestContent(
            [], contentType: contentType, acceptLanguage: acceptLanguage, instance: url.path, options: options)
        // The media type first: a body that is not JSON is not read at all.
        guard RequestContent.isJSON(contentType) else {
            throw ProblemDetails.unsupportedMediaType(contentType, language: head.language, instance: head.instance)
        }
        // Made only for a body over the limit: the language is worked out when a problem needs it.
        var tooLarge: ProblemDetails {
            .contentTooLarge(limit: options.maximumBodySize, language: head.language, instance: head.instance)
        }
        var buffer: ByteBuffer?
        if let collected = body.data {
            buffer = collected
        } else {
            do {
                buffer = try await body.collect(max: options.maximumBodySize).get()
            } catch let error as AbortError where error.status == .payloadTooLarge {
                throw tooLarge
            }
        }
        guard (buffer?.readableBytes ?? 0) <= options.maximumBodySize else { throw tooLarge }
        let bytes = buffer.flatMap { $0.getBytes(at: $0.readerIndex, length: $0.readableBytes) } ?? []
        return head.withBody(bytes)
    }

    /// Decodes the body as `type` and validates it: every failure at once, in the client's language.
    /// Vapor's `req.content.decode(_:)` stops at the first failure and knows no rules; this is its
    /// validated counterpart.
    ///
    /// <!-- snippet: adapter-vapor -->
    /// ```swift
    /// app.middleware = Middlewares()
    /// app.middleware.use(ProblemMiddleware(environment: app.environment))  // in place of ErrorMiddleware
    /// app.post("clients") { req async throws -> Client in
    ///     try await req.decodeValidated(Client.self, for: .insert)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: A `Decodable` type, usually declared with `@Validatable`.
    ///   - operation: The operation whose rules run too (`.insert` for a create, `.update` for an
    ///     update); `nil` for the rules of every operation only.
    ///   - options: The size limit, decoding policy and languages.
    /// - Throws: `ProblemDetails`, which ``ProblemMiddleware`` sends as `application/problem+json`:
    ///   415, 413, 400 for a body that is not JSON, 422 (or 409) with every rule that failed.
    @inlinable
    public func decodeValidated<T: Decodable>(
        _ type: T.Type, for operation: ValidationOperation? = nil,
        options: RequestContentOptions = RequestContentOptions()
    ) async throws -> T {
        try await readContent(options: options).decode(type, for: operation).value
    }

    /// Decodes a body that is an array, element by element, and validates it: every bad element is
    /// reported, not only the first.
    ///
    /// - Throws: `ProblemDetails`: 415, 413, 400, or 422 (409) with every failure.
    @inlinable
    public func decodeValidated<Element: Decodable>(
        _ type: [Element].Type, for operation: ValidationOperation? = nil,
        options: RequestContentOptions = RequestContentOptions()
    ) async throws -> [Element] {
        try await readContent(options: options).decode(type, for: operation).value
    }

    /// Validates the body against a compiled JSON Schema, for a route with no Swift type.
    ///
    /// - Returns: The body, valid.
    /// - Throws: `ProblemDetails`: 415, 413, 400, or 422 with every failure.
    public func validated(against schema: JSONSchema, options: RequestContentOptions = RequestContentOptions())
        async throws -> JSONValue
    {
        try await readContent(options: options).validate(against: schema).value
    }

    /// The request's `Accept-Language`, its fields joined into one list (RFC 9110 §5.3).
    var acceptLanguage: String? {
        let values = headers[.acceptLanguage]
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }
}

extension ProblemDetails {
    /// The problem as a Vapor response: `application/problem+json` with `Content-Language` and
    /// `Vary: Accept-Language`.
    public func response() -> Response {
        var fields = HTTPHeaders()
        for (name, value) in headers { fields.add(name: name, value: value) }
        return Response(
            status: HTTPResponseStatus(statusCode: status), headers: fields, body: Response.Body(data: Data(body())))
    }
}
