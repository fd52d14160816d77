import AssayCodable
public import AssayCore
public import AssayHTTP
public import AssayJSON
public import AssaySchema
public import HTTPTypes
public import Hummingbird
import NIOCore

extension Request {
    /// Reads the body, up to ``AssayHTTP/RequestContentOptions/maximumBodySize``, with the headers the
    /// checks need: for a handler that wants the warnings of a decode too
    /// (`try await request.readContent(context: context).decode(Client.self)`).
    ///
    /// - Throws: ``ProblemError``: 415 for a body that is not JSON by its media type, 413 for one
    ///   over the limit.
    public func readContent(context: some RequestContext, options: RequestContentOptions = RequestContentOptions())
        async throws -> RequestContent
    {
        let head = RequestContent(
            [], contentType: headers.joinedValue(of: .contentType), acceptLanguage: acceptLanguage, instance: uri.path,
            options: options)
        // The media type first: a body that is not JSON is not read at all.
        guard RequestContent.isJSON(head.contentType) else {
            throw ProblemError(
                .unsupportedMediaType(head.contentType, language: head.language, instance: head.instance))
        }
        var buffer: ByteBuffer
        do {
            buffer = try await body.collect(upTo: options.maximumBodySize)
        } catch is NIOTooManyBytesError {
            throw ProblemError(
                .contentTooLarge(limit: options.maximumBodySize, language: head.language, instance: head.instance))
        }
        let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
        return head.withBody(bytes)
    }

    /// Decodes the body as `type` and validates it: every failure at once, in the client's language.
    ///
    /// <!-- snippet: adapter-hummingbird -->
    /// ```swift
    /// let router = Router()
    /// router.add(middleware: ProblemMiddleware())  // the ValidationErrors of handlers too
    /// router.post("clients") { request, context -> Client in
    ///     // Every failure at once, the create rules included: 422 in the client's language.
    ///     try await request.decodeValidated(as: Client.self, context: context, for: .insert)
    /// }
    /// router.post("events") { request, context -> HTTPResponse.Status in
    ///     // A route with no Swift type: its JSON Schema, compiled once.
    ///     _ = try await request.validated(against: eventSchema, context: context)
    ///     return .accepted
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: A `Decodable` type, usually declared with `@Validatable`.
    ///   - context: The request's context.
    ///   - operation: The operation whose rules run too (`.insert` for a create, `.update` for an
    ///     update); `nil` for the rules of every operation only.
    ///   - options: The size limit, decoding policy and languages.
    /// - Throws: ``ProblemError``, which Hummingbird sends as `application/problem+json`: 415 for a
    ///   body that is not JSON by its media type, 413 over the size limit, 400 for a body that is not
    ///   JSON, 422 (or 409) with every rule that failed.
    @inlinable
    public func decodeValidated<T: Decodable>(
        as type: T.Type, context: some RequestContext, for operation: ValidationOperation? = nil,
        options: RequestContentOptions = RequestContentOptions()
    ) async throws -> T {
        let body = try await readContent(context: context, options: options)
        do {
            return try body.decode(type, for: operation).value
        } catch {
            throw ProblemError(error)
        }
    }

    /// Decodes a body that is an array, element by element, and validates it: every bad element is
    /// reported, not only the first.
    ///
    /// - Throws: ``ProblemError``: 415, 413, 400, or 422 (409) with every failure.
    @inlinable
    public func decodeValidated<Element: Decodable>(
        as type: [Element].Type, context: some RequestContext, for operation: ValidationOperation? = nil,
        options: RequestContentOptions = RequestContentOptions()
    ) async throws -> [Element] {
        let body = try await readContent(context: context, options: options)
        do {
            return try body.decode(type, for: operation).value
        } catch {
            throw ProblemError(error)
        }
    }

    /// Validates the body against a compiled JSON Schema, for a route with no Swift type.
    ///
    /// - Returns: The body, valid.
    /// - Throws: ``ProblemError``: 415, 413, 400, or 422 with every failure.
    public func validated(
        against schema: JSONSchema, context: some RequestContext,
        options: RequestContentOptions = RequestContentOptions()
    ) async throws -> JSONValue {
        let body = try await readContent(context: context, options: options)
        do {
            return try body.validate(against: schema).value
        } catch {
            throw ProblemError(error)
        }
    }

    /// The request's `Accept-Language` header.
    var acceptLanguage: String? { headers.joinedValue(of: .acceptLanguage) }
}

extension HTTPFields {
    /// The value of the field `name`, the values of several such fields joined with ", ": what the
    /// fields' subscript answers, without its lazy joining, which cost about 0.7 µs a header in the
    /// load benchmark's single-client route (`http-bench --handler-only`), as much as a third of
    /// decoding the body.
    func joinedValue(of name: HTTPField.Name) -> String? {
        var value: String?
        for field in self where field.name == name {
            if let earlier = value { value = earlier + ", " + field.value } else { value = field.value }
        }
        return value
    }
}

/// A problem as a Hummingbird error: the adapter's methods throw it, and Hummingbird sends it as
/// `application/problem+json` with `Content-Language` and `Vary: Accept-Language` — with or
/// without ``ProblemMiddleware``.
public struct ProblemError: HTTPResponseError, CustomStringConvertible {
    /// The problem.
    public var problem: ProblemDetails

    /// Wraps a problem.
    public init(_ problem: ProblemDetails) { self.problem = problem }

    /// The problem's status.
    public var status: HTTPResponse.Status { HTTPResponse.Status(code: problem.status) }

    /// The problem as a response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        problem.response()
    }

    /// The status, title and detail.
    public var description: String { "\(problem.status) \(problem.title)\(problem.detail.map { ": \($0)" } ?? "")" }
}

extension ProblemDetails {
    /// The problem as a Hummingbird response: `application/problem+json` with `Content-Language`
    /// and `Vary: Accept-Language`.
    public func response() -> Response {
        var fields = HTTPFields()
        for (name, value) in headers {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        let bytes = body()
        fields[.contentLength] = String(bytes.count)
        return Response(
            status: HTTPResponse.Status(code: status), headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
