import AssayOpenAPI
import Foundation
import OpenAPIRuntime
import OpenAPIURLSession

// The code of AssayOpenAPI's documentation, compiled by this package's build (the server's is the
// notes service's own, Examples/NotesService).
enum OpenAPISnippets {
    static func client() throws -> AssayClientMiddleware {
        // README: openapi-client
        let contract = try OpenAPIContract(contentsOf: "openapi.yaml")
        // Generated code: Client(serverURL: url, transport: URLSessionTransport(), middlewares: [checks])
        let checks = AssayClientMiddleware(contract: contract, validatesResponses: true)
        // README: end
        return checks
    }
}
