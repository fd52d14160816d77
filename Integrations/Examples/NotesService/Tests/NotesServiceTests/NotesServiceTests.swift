import AssayCore
import AssayOpenAPI
import Foundation
import Hummingbird
import HummingbirdTesting
import OpenAPIRuntime
import OpenAPIURLSession
import Testing

// The generated types, server protocol and client are the module's own, internal.
@testable import NotesService

/// The notes service (swift-openapi-generator's server, AssayServerMiddleware in front) on a real
/// Hummingbird server on 127.0.0.1, called through the client swift-openapi-generator wrote from the
/// same document (kept in the module's `Generated/` beside the server's code), with
/// AssayClientMiddleware, over URLSession.
@Suite("Notes service: generated server and client, checked on both sides")
struct NotesServiceTests {
    static func withService(
        _ router: Router<BasicRequestContext>, _ body: @Sendable (URL) async throws -> Void
    ) async throws {
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            try await body(URL(string: "http://127.0.0.1:\(port)")!)
        }
    }

    static func client(_ url: URL, checksRequests: Bool = true) throws -> Client {
        Client(
            serverURL: url, transport: URLSessionTransport(),
            middlewares: [
                AssayClientMiddleware(
                    contract: try NotesService.contract(), validatesRequests: checksRequests, validatesResponses: true)
            ])
    }

    /// A `ValidationError` the generated client wrapped in its `ClientError`.
    static func validationError(_ error: any Error) -> ValidationError? {
        (error as? ClientError)?.underlyingError as? ValidationError
    }

    @Test("valid calls: create, read back, list by tag")
    func validCalls() async throws {
        try await Self.withService(try NotesService.router()) { url in
            let client = try Self.client(url)
            let created = try await client.createNote(body: .json(.init(title: "Milk", tags: ["shopping"])))
            let note = try created.created.body.json
            #expect(note.title == "Milk" && note.tags == ["shopping"])
            let read = try await client.getNote(path: .init(id: note.id))
            #expect(try read.ok.body.json == note)
            let listed = try await client.listNotes(query: .init(limit: 10, tag: "shopping"))
            #expect(try listed.ok.body.json == [note])
            // Not found is an answer the document has.
            let missing = try await client.getNote(path: .init(id: 999))
            #expect(try missing.notFound.body.application_problem_plus_json.status == 404)
        }
    }

    @Test("a bad request: refused by the client before it is sent, or answered 422 by the server")
    func badRequests() async throws {
        try await Self.withService(try NotesService.router()) { url in
            let bad = Components.Schemas.NewNote(title: "", body: nil, tags: ["Shopping", "ok", "ok"])
            do {
                _ = try await Self.client(url).createNote(body: .json(bad))
                Issue.record("the client sent a note the document refuses")
            } catch {
                let failures = Self.validationError(error)?.errors.map(\.path.jsonPointer)
                #expect(Set(failures ?? []) == ["/title", "/tags/0", "/tags"])
            }
            // Sent anyway, the server's middleware answers every failure at once.
            let answered = try await Self.client(url, checksRequests: false).createNote(body: .json(bad))
            let problem = try answered.unprocessableContent.body.application_problem_plus_json
            #expect(Set(problem.errors?.map(\.pointer) ?? []) == ["/title", "/tags/0", "/tags"])
            let query = try await Self.client(url, checksRequests: false).listNotes(query: .init(limit: 500))
            #expect(
                try query.unprocessableContent.body.application_problem_plus_json.errors?.map(\.pointer) == [
                    "/query/limit"
                ])
            let path = try await Self.client(url, checksRequests: false).getNote(path: .init(id: 0))
            #expect(
                try path.unprocessableContent.body.application_problem_plus_json.errors?.map(\.pointer) == ["/path/id"])
        }
    }

    /// A server whose handler breaks the document: a tag the pattern refuses.
    struct BrokenAPI: APIProtocol {
        func createNote(_ input: Operations.createNote.Input) async throws -> Operations.createNote.Output {
            .created(.init(body: .json(.init(id: 1, title: "x", tags: ["Not A Tag"]))))
        }
        func listNotes(_ input: Operations.listNotes.Input) async throws -> Operations.listNotes.Output {
            .ok(.init(body: .json([])))
        }
        func getNote(_ input: Operations.getNote.Input) async throws -> Operations.getNote.Output {
            .ok(.init(body: .json(.init(id: 0, title: "", tags: []))))
        }
    }

    @Test("a response that breaks the document: the client middleware throws where")
    func brokenResponses() async throws {
        let router = Router()
        try BrokenAPI().registerHandlers(on: router)
        try await Self.withService(router) { url in
            let client = try Self.client(url)
            do {
                _ = try await client.getNote(path: .init(id: 1))
                Issue.record("the client read a response the document refuses")
            } catch {
                #expect(Set(Self.validationError(error)?.errors.map(\.path.jsonPointer) ?? []) == ["/id", "/title"])
            }
            do {
                _ = try await client.createNote(body: .json(.init(title: "x")))
                Issue.record("the client read a response the document refuses")
            } catch {
                #expect(Self.validationError(error)?.errors.map(\.path.jsonPointer) == ["/tags/0"])
            }
        }
        // With the server middleware in front (responses checked), the broken answer is a 500.
        let checked = Router()
        try BrokenAPI().registerHandlers(
            on: checked,
            middlewares: [AssayServerMiddleware(contract: try NotesService.contract(), validatesResponses: true)])
        try await Self.withService(checked) { url in
            let answer = try await Self.client(url).getNote(path: .init(id: 1))
            guard case .undocumented(let status, _) = answer else {
                Issue.record("the broken response reached the client: \(answer)")
                return
            }
            #expect(status == 500)
        }
    }
}
