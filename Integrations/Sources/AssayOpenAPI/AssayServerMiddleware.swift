import AssayCore
public import AssayHTTP
import AssayJSON
public import HTTPTypes
public import OpenAPIRuntime

/// A swift-openapi-runtime `ServerMiddleware` that checks each request against its operation in
/// the OpenAPI document — the JSON body against its schema, path, query and header parameters
/// against theirs — and answers every failure at once as RFC 9457 problem details, in the language
/// of the request's `Accept-Language`, before the handler runs.
///
/// <!-- snippet: openapi-server -->
/// ```swift
/// let contract = try OpenAPIContract(contentsOf: documentPath)  // openapi.yaml, as the generator read it
/// router.add(middleware: MethodNotAllowedMiddleware(routes: contract.routes))  // 405, not 404
/// try NotesAPI().registerHandlers(on: router, middlewares: [AssayServerMiddleware(contract: contract)])
/// ```
///
/// Statuses: 422 with an entry per failure (a body member at its JSON Pointer, a parameter at
/// `/query/NAME`, `/path/NAME` or `/header/NAME`), 400 for a body that is not JSON, 413 for one
/// over `RequestContentOptions.maximumBodySize` (AssayHTTP), 415 for a body that is not JSON where the
/// operation takes only JSON. A body of another media type the operation accepts is left to the
/// handler. With ``validatesResponses``, a JSON response its schema refuses becomes a 500 whose
/// problem lists the failures (pointers into the response's body): a broken contract is caught
/// where it is made.
public struct AssayServerMiddleware: ServerMiddleware {
    /// The document's operations.
    public var contract: OpenAPIContract
    /// Whether responses are checked too: by default in debug builds only.
    public var validatesResponses: Bool
    /// Limits, languages and problem options (AssayHTTP's).
    public var options: RequestContentOptions

    /// Whether this is a debug build: responses are checked by default then.
    public static var isDebugBuild: Bool {
        #if DEBUG
        true
        #else
        false
        #endif
    }

    /// Makes the middleware.
    public init(
        contract: OpenAPIContract, validatesResponses: Bool = isDebugBuild,
        options: RequestContentOptions = RequestContentOptions()
    ) {
        self.contract = contract
        self.validatesResponses = validatesResponses
        self.options = options
    }

    /// Checks the request, runs the handler when it passes, and checks its response.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let contentType = request.headerFields[.contentType]
        let content = RequestContent(
            [], contentType: contentType, acceptLanguage: request.headerFields[.acceptLanguage],
            instance: OpenAPIContract.Operation.split(request.path ?? "").path, options: options)
        guard let operation = contract.operations[operationID] else {
            // Fail closed: a document that is not the server's checks nothing.
            return Self.answer(
                ProblemDetails(
                    title: "Internal Server Error", status: 500,
                    detail: "The operation \(operationID) is not in the OpenAPI document the server checks against.",
                    instance: content.instance, language: content.language))
        }
        let limit = options.decodingPolicy.maximumIssues
        var issues = operation.parameterIssues(request, pathParameters: metadata.pathParameters, limit: limit)
        var forwarded = body
        if let expected = operation.requestBody, expected.acceptsJSON {
            var bytes: [UInt8] = []
            if let body {
                guard let collected = try await BodyCheck.collect(body, upTo: options.maximumBodySize) else {
                    return Self.answer(
                        .contentTooLarge(
                            limit: options.maximumBodySize, language: content.language, instance: content.instance))
                }
                bytes = collected
                forwarded = HTTPBody(bytes)
            }
            if bytes.isEmpty && contentType == nil {
                if expected.required { issues.append(ValidationIssue(code: .missing, path: .root)) }
            } else if RequestContent.isJSON(contentType) {
                switch BodyCheck.issues(bytes, schema: expected.schema, options: options.parserOptions, limit: limit) {
                case .failure(let error):
                    return Self.answer(.malformedJSON(error, language: content.language, instance: content.instance))
                case .success(let found): issues += found
                }
            } else if operation.requestBody?.acceptsOnlyJSON == true {
                return Self.answer(
                    .unsupportedMediaType(contentType, language: content.language, instance: content.instance))
            }
        }
        if !issues.isEmpty {
            return Self.answer(content.problem(for: ValidationError(issues, limit: limit)))
        }
        let (response, responseBody) = try await next(request, forwarded, metadata)
        guard validatesResponses, let expected = operation.response(for: response.status.code), expected.acceptsJSON,
            let responseBody
        else { return (response, responseBody) }
        guard RequestContent.isJSON(response.headerFields[.contentType]) else {
            guard expected.acceptsOnlyJSON else { return (response, responseBody) }
            return Self.answer(
                ProblemDetails(
                    title: "Internal Server Error", status: 500,
                    detail:
                        "The response (\(response.status.code)) is not JSON, which is all the OpenAPI document allows.",
                    instance: content.instance, language: content.language))
        }
        let schema = expected.schema
        guard let bytes = try await BodyCheck.collect(responseBody, upTo: options.maximumBodySize) else {
            return Self.answer(
                ProblemDetails(
                    title: "Internal Server Error", status: 500,
                    detail: "The response is larger than the \(options.maximumBodySize) bytes it may be checked at.",
                    instance: content.instance, language: content.language))
        }
        let found: [ValidationIssue]
        switch BodyCheck.issues(bytes, schema: schema, options: options.parserOptions, limit: limit) {
        case .failure(let error): found = [BodyCheck.malformedIssue(error)]
        case .success(let issues): found = issues
        }
        guard found.isEmpty else {
            var problem = content.problem(for: ValidationError(found, limit: limit))
            problem.status = 500
            problem.title = "Internal Server Error"
            problem.detail =
                "The response (\(response.status.code)) breaks the OpenAPI document: \(problem.detail ?? "")"
            return Self.answer(problem)
        }
        return (response, HTTPBody(bytes))
    }

    /// A problem as the response.
    static func answer(_ problem: ProblemDetails) -> (HTTPResponse, HTTPBody?) {
        var fields = HTTPFields()
        for (name, value) in problem.headers {
            if let name = HTTPField.Name(name) { fields[name] = value }
        }
        return (HTTPResponse(status: .init(code: problem.status), headerFields: fields), HTTPBody(problem.body()))
    }
}
