import AssayOpenAPI
import Foundation
import Hummingbird
import OpenAPIHummingbird
import OpenAPIRuntime
import OpenAPIURLSession

// The code of AssayOpenAPI's documentation, compiled by this package's build. Generated code's
// `registerHandlers(on:serverURL:configuration:middlewares:)` and `Client(serverURL:transport:
// middlewares:)` take the middlewares; here a handler is registered on the transport by hand, as
// the generated code registers it.
enum OpenAPISnippets {
    static func server(router: Router<BasicRequestContext>) throws {
        // README: openapi-server
        let contract = try OpenAPIContract(contentsOf: "Sources/Server/openapi.yaml")
        let middleware = AssayServerMiddleware(contract: contract)
        // Generated code: try handler.registerHandlers(on: router, middlewares: [middleware])
        router.register(
            { request, body, metadata in
                try await middleware.intercept(request, body: body, metadata: metadata, operationID: "createClient") {
                    _, body, _ in (HTTPResponse(status: .created), body)
                }
            }, method: .post, path: "/clients")
        // README: end
    }

    static func client() throws -> AssayClientMiddleware {
        // README: openapi-client
        let contract = try OpenAPIContract(contentsOf: "openapi.yaml")
        // Generated code: Client(serverURL: url, transport: URLSessionTransport(), middlewares: [checks])
        let checks = AssayClientMiddleware(contract: contract, validatesResponses: true)
        // README: end
        return checks
    }
}
