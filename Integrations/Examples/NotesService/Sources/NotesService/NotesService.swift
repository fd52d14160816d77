import AssayHummingbird
import AssayOpenAPI
import Foundation
import Hummingbird
import OpenAPIHummingbird
import OpenAPIRuntime
import Synchronization

/// The notes service: the handlers of the protocol swift-openapi-generator wrote from
/// `openapi.yaml` (the `Generated/` folder), notes kept in memory. The handlers check nothing
/// themselves: `AssayServerMiddleware` holds every request to the same document first, so a
/// handler only ever sees a body, a path and a query the document allows.
final class NotesAPI: APIProtocol {
    private struct Store {
        var notes: [Int: Components.Schemas.Note] = [:]
        var nextID = 1
    }

    private let store = Mutex(Store())

    init() {}

    func createNote(_ input: Operations.createNote.Input) async throws -> Operations.createNote.Output {
        guard case .json(let new) = input.body else { preconditionFailure("the document's only body is JSON") }
        let note = store.withLock { store in
            let note = Components.Schemas.Note(id: store.nextID, title: new.title, body: new.body, tags: new.tags ?? [])
            store.notes[note.id] = note
            store.nextID += 1
            return note
        }
        return .created(.init(body: .json(note)))
    }

    func listNotes(_ input: Operations.listNotes.Input) async throws -> Operations.listNotes.Output {
        let limit = input.query.limit ?? 20
        let notes = store.withLock { store in
            store.notes.values.filter { note in input.query.tag.map { note.tags.contains($0) } ?? true }
                .sorted { $0.id > $1.id }.prefix(limit)
        }
        return .ok(.init(body: .json(Array(notes))))
    }

    func getNote(_ input: Operations.getNote.Input) async throws -> Operations.getNote.Output {
        guard let note = store.withLock({ $0.notes[input.path.id] }) else {
            return .notFound(
                .init(
                    body: .application_problem_plus_json(
                        .init(
                            _type: "about:blank", title: "Not Found", status: 404,
                            detail: "There is no note \(input.path.id).", instance: "/notes/\(input.path.id)"))))
        }
        return .ok(.init(body: .json(note)))
    }
}

/// The service's document and routes.
package enum NotesService {
    /// Where `openapi.yaml` is: the document the generated code was written from, which the
    /// middleware reads.
    package static var documentPath: String {
        get throws {
            guard let path = Bundle.module.path(forResource: "openapi", ofType: "yaml") else {
                throw OpenAPIContractError(pointer: "", message: "openapi.yaml is not in the bundle")
            }
            return path
        }
    }

    /// The document, compiled.
    package static func contract() throws -> OpenAPIContract {
        try OpenAPIContract(contentsOf: documentPath)
    }

    /// The generated routes on a router, every request checked against the document first (and,
    /// in a debug build, every response).
    package static func router() throws -> Router<BasicRequestContext> {
        let router = Router()
        let documentPath = try NotesService.documentPath
        // README: openapi-server
        let contract = try OpenAPIContract(contentsOf: documentPath)  // openapi.yaml, as the generator read it
        router.add(middleware: MethodNotAllowedMiddleware(routes: contract.routes))  // 405, not 404
        try NotesAPI().registerHandlers(on: router, middlewares: [AssayServerMiddleware(contract: contract)])
        // README: end
        return router
    }
}
