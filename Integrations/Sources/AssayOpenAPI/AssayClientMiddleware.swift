import AssayCore
import AssayHTTP
import AssayJSON
import AssaySchema
public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// A swift-openapi-runtime `ClientMiddleware` that checks each request before it is sent and each
/// response before the generated client reads it, against the operation in the OpenAPI document.
/// Every failure is thrown at once, as Assay's aggregate `ValidationError`.
///
/// <!-- snippet: openapi-client -->
/// ```swift
/// let contract = try OpenAPIContract(contentsOf: "openapi.yaml")
/// // Generated code: Client(serverURL: url, transport: URLSessionTransport(), middlewares: [checks])
/// let checks = AssayClientMiddleware(contract: contract, validatesResponses: true)
/// ```
///
/// A request's failures are located as the server middleware locates them (a body member at its
/// JSON Pointer, a parameter at `/query/NAME`, `/path/NAME`, `/header/NAME`); a response's at
/// their pointers in its body. A response that is not JSON where JSON is promised is one
/// `malformed` issue at the root. The generated client wraps the error in its `ClientError`,
/// whose `underlyingError` is the `ValidationError`.
public struct AssayClientMiddleware: ClientMiddleware {
    /// The document's operations.
    public var contract: OpenAPIContract
    /// Whether requests are checked before they are sent.
    public var validatesRequests: Bool
    /// Whether responses are checked: by default in debug builds only.
    public var validatesResponses: Bool
    /// The largest body checked; a larger one is an error.
    public var maximumBodySize: Int
    /// How many issues are kept.
    public var maximumIssues: Int

    /// Makes the middleware.
    public init(
        contract: OpenAPIContract, validatesRequests: Bool = true,
        validatesResponses: Bool = AssayServerMiddleware.isDebugBuild, maximumBodySize: Int = 16 << 20,
        maximumIssues: Int = 1_000
    ) {
        self.contract = contract
        self.validatesRequests = validatesRequests
        self.validatesResponses = validatesResponses
        self.maximumBodySize = maximumBodySize
        self.maximumIssues = maximumIssues
    }

    /// Checks the request, sends it, and checks the response.
    ///
    /// - Throws: `ValidationError` with every failure of the request (nothing is sent) or of the
    ///   response; ``OpenAPIContractError`` for an operation the document does not have.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let operation = contract.operations[operationID] else {
            throw OpenAPIContractError(pointer: "", message: "the document has no operation \(operationID)")
        }
        var sent = body
        if validatesRequests {
            var issues = operation.parameterIssues(request, pathParameters: nil, limit: maximumIssues)
            if let expected = operation.requestBody, expected.acceptsJSON {
                var bytes: [UInt8] = []
                if let body {
                    bytes = try await collect(body)
                    sent = HTTPBody(bytes)
                }
                if body == nil {
                    if expected.required { issues.append(ValidationIssue(code: .missing, path: .root)) }
                } else if RequestContent.isJSON(request.headerFields[.contentType]) {
                    issues += try checked(bytes, against: expected.schema)
                }
            }
            guard issues.isEmpty else { throw ValidationError(issues, limit: maximumIssues) }
        }
        let (response, responseBody) = try await next(request, sent, baseURL)
        guard validatesResponses, let expected = operation.response(for: response.status.code), expected.acceptsJSON
        else { return (response, responseBody) }
        guard RequestContent.isJSON(response.headerFields[.contentType]) else {
            // Only JSON was promised for this status.
            guard expected.acceptsOnlyJSON, responseBody != nil else { return (response, responseBody) }
            throw ValidationError(
                ValidationIssue(
                    code: .malformed,
                    parameters: ["contentType": .string(response.headerFields[.contentType] ?? "none")]))
        }
        var bytes: [UInt8] = []
        if let responseBody { bytes = try await collect(responseBody) }
        let issues = try checked(bytes, against: expected.schema)
        guard issues.isEmpty else { throw ValidationError(issues, limit: maximumIssues) }
        return (response, responseBody == nil ? nil : HTTPBody(bytes))
    }

    private func collect(_ body: HTTPBody) async throws -> [UInt8] {
        guard let bytes = try await BodyCheck.collect(body, upTo: maximumBodySize) else {
            throw ValidationError(
                ValidationIssue(code: .malformed, parameters: ["maximumBodySize": .integer(maximumBodySize)]))
        }
        return bytes
    }

    private func checked(_ bytes: [UInt8], against schema: AssaySchema.JSONSchema?) throws -> [ValidationIssue] {
        switch BodyCheck.issues(bytes, schema: schema, options: JSONParserOptions(), limit: maximumIssues) {
        case .failure(let error): [BodyCheck.malformedIssue(error)]
        case .success(let issues): issues
        }
    }
}
