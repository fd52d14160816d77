import AssayHummingbird
import AssaySchema
import HTTPTypes
import Hummingbird

extension Client: ResponseEncodable {}

enum HummingbirdSnippets {
    static func routes(eventSchema: JSONSchema) -> Router<BasicRequestContext> {
        // README: adapter-hummingbird
        let router = Router()
        router.add(middleware: ProblemMiddleware())  // the ValidationErrors of handlers too
        router.post("clients") { request, context -> Client in
            // Every failure at once, the create rules included: 422 in the client's language.
            try await request.decodeValidated(as: Client.self, context: context, for: .insert)
        }
        router.post("events") { request, context -> HTTPResponse.Status in
            // A route with no Swift type: its JSON Schema, compiled once.
            _ = try await request.validated(against: eventSchema, context: context)
            return .accepted
        }
        // README: end
        return router
    }
}
