import AssayHTTP
import AssayHummingbird
import HTTPTypes
import Hummingbird

/// Answers a method a path does not have with 405 and `Allow` (RFC 9110), rather than the router's
/// 404: the path exists.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Each path pattern (`*` for a parameter) with its methods.
    let routes: [(pattern: [Substring], methods: [HTTPRequest.Method])]
    let options: RequestContentOptions

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
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
