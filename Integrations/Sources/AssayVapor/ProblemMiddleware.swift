import AssayCore
public import AssayHTTP
public import Vapor

/// Vapor's error middleware with problem details: every error of a route becomes an
/// `application/problem+json` response in the client's language — a `ValidationError` (from a
/// store's save, a `validate(for:)`) 422 or 409 with every failure, a `ProblemDetails` as it is, an
/// `AbortError` a problem of its status and reason (a body over Vapor's limit 413), anything else
/// 500 with its description only outside production.
///
/// Use it in place of Vapor's `ErrorMiddleware`:
///
/// <!-- snippet: adapter-vapor -->
/// ```swift
/// app.middleware = Middlewares()
/// app.middleware.use(ProblemMiddleware(environment: app.environment))  // in place of ErrorMiddleware
/// app.post("clients") { req async throws -> Client in
///     try await req.decodeValidated(Client.self, for: .insert)
/// }
/// ```
public struct ProblemMiddleware: AsyncMiddleware {
    /// Sensitive keys, the message catalog and the default language.
    public let options: RequestContentOptions
    /// Whether the descriptions of unexpected errors are hidden (in production).
    public let hidesInternalErrors: Bool

    /// Makes the middleware.
    ///
    /// - Parameters:
    ///   - environment: The app's environment: in production an unexpected error's description is
    ///     not sent.
    ///   - options: Sensitive keys, the message catalog and the default language.
    public init(environment: Environment, options: RequestContentOptions = RequestContentOptions()) {
        self.options = options
        self.hidesInternalErrors = environment.isRelease
    }

    /// Runs the route, answering its errors as problems.
    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch {
            let language = options.language(for: request.acceptLanguage)
            let response = problem(for: error, request: request, language: language).response()
            // An abort's own headers (`Allow`, `Retry-After`…) go with its problem.
            if let abort = error as? any AbortError {
                for (name, value) in abort.headers where !response.headers.contains(name: name) {
                    response.headers.add(name: name, value: value)
                }
            }
            return response
        }
    }

    func problem(for error: any Error, request: Request, language: Language) -> ProblemDetails {
        let instance = request.url.path
        if let problem = RequestContent.problem(
            for: error, language: language, options: options.problems, instance: instance)
        {
            return problem
        }
        if let abort = error as? any AbortError {
            if abort.status == .payloadTooLarge {
                return .contentTooLarge(
                    limit: request.application.routes.defaultMaxBodySize.value, language: language,
                    instance: instance)
            }
            let reason = abort.reason == abort.status.reasonPhrase ? nil : abort.reason
            return ProblemDetails(
                title: abort.status.reasonPhrase, status: Int(abort.status.code), detail: reason, instance: instance,
                language: language)
        }
        request.logger.report(error: error)
        return ProblemDetails(
            title: HTTPResponseStatus.internalServerError.reasonPhrase, status: 500,
            detail: hidesInternalErrors ? nil : String(describing: error), instance: instance, language: language)
    }
}
