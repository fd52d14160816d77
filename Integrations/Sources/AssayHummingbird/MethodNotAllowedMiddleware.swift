public import AssayHTTP
public import HTTPTypes
public import Hummingbird

/// Answers a method a path does not have with 405 and `Allow` (RFC 9110), as problem details,
/// rather than the router's 404: the path exists. Give it the routes as an OpenAPI document states
/// them (`/clients/{id}`; `:id` is read the same way), or from AssayOpenAPI's
/// `OpenAPIContract.routes`.
///
/// <!-- snippet: adapter-method-not-allowed -->
/// ```swift
/// router.add(
///     middleware: MethodNotAllowedMiddleware(
///         routes: [
///             ("/clients", [.post]), ("/clients/{id}", [.get, .patch]), ("/clients/validate", [.post]),
///             ("/openapi.json", [.get]),
///         ], options: options))
/// ```
public struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Each path's components (`*` for a parameter) with its methods.
    let routes: [(pattern: [Substring], methods: [HTTPRequest.Method])]
    let options: RequestContentOptions

    /// Makes the middleware.
    ///
    /// - Parameters:
    ///   - routes: Each path (`/clients/{id}`) with the methods it has.
    ///   - options: The languages and problem options of the answer.
    public init(
        routes: [(path: String, methods: [HTTPRequest.Method])],
        options: RequestContentOptions = RequestContentOptions()
    ) {
        self.routes = routes.map { route in
            (
                route.path.split(separator: "/").map { $0.hasPrefix("{") || $0.hasPrefix(":") ? "*" : $0 },
                route.methods
            )
        }
        self.options = options
    }

    /// Passes the request on; a 404 for a path that has other methods becomes a 405.
    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let components = request.uri.path.split(separator: "/")
            // The route the router would take: literal components before parameters.
            let route = routes.filter { route in
                route.pattern.count == components.count
                    && zip(route.pattern, components).allSatisfy { $0 == "*" || $0 == $1 }
            }.min { $0.pattern.filter { $0 == "*" }.count < $1.pattern.filter { $0 == "*" }.count }
            guard let route, !route.methods.contains(request.method) else { throw error }
            let language = options.language(for: request.headers[.acceptLanguage])
            let allowed = route.methods.map(\.rawValue).joined(separator: ", ")
            var response = ProblemDetails(
                title: "Method Not Allowed", status: 405, detail: "\(request.method) is not one of: \(allowed)",
                instance: request.uri.path, language: language
            ).response()
            response.headers[.allow] = allowed
            return response
        }
    }
}
