import AssayCore
import AssayJSON
import AssayOpenAPI
import ClientsService
import Foundation
import Hummingbird
import HummingbirdTesting
import OpenAPIRuntime
import OpenAPIURLSession
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The clients service called through a client swift-openapi-generator wrote from the service's
/// own `/openapi.json` (kept as `openapi.json`, with the code in `Generated/`), with
/// AssayClientMiddleware checking requests and responses against the document the service serves.
@Suite("Clients service through a generated client")
struct ClientsServiceClientTests {
    static let snapshot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "openapi.json")

    /// The live service, its document as it serves it, and a generated client with the middleware.
    static func withClient(
        checksRequests: Bool = true, _ body: @Sendable (Client, JSONValue) async throws -> Void
    ) async throws {
        let service = try ClientsService(path: nil)
        try await Application(router: service.router()).test(.live) { client in
            let port = try #require(client.port)
            let url = URL(string: "http://127.0.0.1:\(port)")!
            let (data, _) = try await URLSession.shared.data(from: url.appending(path: "openapi.json"))
            let document = try JSONValue(parsing: Array(data))
            let middleware = AssayClientMiddleware(
                contract: try OpenAPIContract(document: document), validatesRequests: checksRequests,
                validatesResponses: true)
            try await body(
                Client(serverURL: url, transport: URLSessionTransport(), middlewares: [middleware]), document)
        }
    }

    @Test("the generated client was written from the document the service serves now")
    func documentUnchanged() async throws {
        try await Self.withClient { _, document in
            let kept = try JSONValue(parsing: Array(Data(contentsOf: Self.snapshot)))
            #expect(
                kept == document,
                "the service's /openapi.json changed: run Integrations/scripts/generate-openapi.sh")
        }
    }

    @Test("create, read, conflict: what the service answers, as the generated types")
    func calls() async throws {
        try await Self.withClient { client, _ in
            let ann = Components.Schemas.ClientCreate(age: .init(value1: 30), email: "ann@example.com", name: "Ann Lee")
            let created = try await client.createClient(body: .json(ann))
            let stored = try created.created.body.json
            #expect(stored.name == "Ann Lee" && stored.email == "ann@example.com")
            let id = try #require(stored.id)
            let read = try await client.getClient(path: .init(id: Int64(id)))
            #expect(try read.ok.body.json == stored)
            let again = try await client.createClient(body: .json(ann))
            #expect(try again.conflict.body.application_problem_plus_json.status == 409)
        }
    }

    @Test("a bad client: refused before it is sent, or, sent anyway, 422 with every failure")
    func badRequests() async throws {
        let bad = Components.Schemas.ClientCreate(age: .init(value1: 16), email: "ann@", name: "A")
        try await Self.withClient { client, _ in
            do {
                _ = try await client.createClient(body: .json(bad))
                Issue.record("the client sent a body the document refuses")
            } catch {
                let failure = (error as? ClientError)?.underlyingError as? ValidationError
                #expect(Set(failure?.errors.map(\.path.jsonPointer) ?? []) == ["/name", "/age", "/email"])
            }
        }
        try await Self.withClient(checksRequests: false) { client, _ in
            let answer = try await client.createClient(body: .json(bad))
            let problem = try answer.unprocessableContent.body.application_problem_plus_json
            #expect(Set(problem.errors.map(\.pointer)) == ["/name", "/age", "/email"])
        }
    }
}
