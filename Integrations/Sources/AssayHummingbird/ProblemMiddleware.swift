public import AssayHTTP
public import Hummingbird
import NIOCore

/// Turns the errors of a route into problem details, in the client's language: a `ValidationError`
/// (from a store's save, a `validate(for:)`) 422 or 409 with every failure, a ``ProblemError`` as it
/// is, Hummingbird's `HTTPError` and a body over the size limit as problems of their status. Other
/// errors pass on to Hummingbird unchanged.
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
public struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Sensitive keys, the message catalog and the default language.
    public let options: RequestContentOptions

    /// Makes the middleware.
    public init(options: RequestContentOptions = RequestContentOptions()) {
        self.options = options
    }

    /// Runs the route, answering its Assay errors as problems.
    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            let language = options.language(for: request.acceptLanguage)
            let instance = request.uri.path
            if let problem = RequestContent.problem(
                for: error, language: language, options: options.problems, instance: instance)
            {
                return problem.response()
            }
            switch error {
            case let error as ProblemError:
                return error.problem.response()
            case is NIOTooManyBytesError:
                return ProblemDetails.contentTooLarge(
                    limit: context.maxUploadSize, language: language, instance: instance
                ).response()
            case let error as HTTPError:
                var response = ProblemDetails(
                    title: error.status.reasonPhrase, status: error.status.code, detail: error.body,
                    instance: instance, language: language
                ).response()
                for field in error.headers where response.headers[field.name] == nil {
                    response.headers.append(field)
                }
                return response
            default:
                throw error
            }
        }
    }
}
