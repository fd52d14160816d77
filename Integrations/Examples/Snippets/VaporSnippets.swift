import AssayCodable
import AssayVapor
import Vapor

// The code of the adapters' documentation (AssayHTTP's "Hummingbird and Vapor" article), compiled
// by this package's build: scripts/sync-readme-snippets.py copies each marked block into the
// documents, and the core package's ReadmeTests holds them to it.

// A file that imports Vapor, whose own `Validatable` does not get in the way of Assay's.
// README: adapter-model
@Validatable
struct Client: Codable {
    @Normalize(.trimmed) @Validate(.length(2...100)) var name: String
    @Validate(.range(1...150)) @Validate(.range(18...), on: [.insert]) var age: Int
    @Normalize(.trimmed, .lowercased) @Validate(.email()) var email: String
}
// README: end

extension Client: Content {}

enum VaporSnippets {
    static func configure(_ app: Application) {
        // README: adapter-vapor
        app.middleware = Middlewares()
        app.middleware.use(ProblemMiddleware(environment: app.environment))  // in place of ErrorMiddleware
        app.post("clients") { req async throws -> Client in
            try await req.decodeValidated(Client.self, for: .insert)
        }
        // README: end
    }
}
