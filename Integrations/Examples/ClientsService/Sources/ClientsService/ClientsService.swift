import AssayCodable
import AssayCore
import AssayGRDB
import AssayHTTP
import AssayHummingbird
import AssayJSON
import Foundation
import GRDB
import HTTPTypes
import Hummingbird

extension Client: ResponseEncodable {}

/// The example service: clients over HTTP, kept in SQLite, every request checked with the rules
/// declared once on ``Client``.
///
/// - `POST /clients`: creates a client (the create rules; an email taken is 409).
/// - `PATCH /clients/{id}`: changes some fields (a JSON merge patch; the update rules).
/// - `GET /clients/{id}`: a client, its row checked again as it is read.
/// - `POST /clients/validate?field=email`: checks one value of one field, as a form does while the
///   user types.
/// - `GET /openapi.json`: the OpenAPI 3.1 document, its schemas exported from the model.
public struct ClientsService: Sendable {
    /// The database.
    public let database: DatabaseQueue
    /// The body limit, languages and decoding policy of every route.
    public let options: RequestContentOptions

    /// Opens (creating if needed) the database at `path`, or one in memory for `nil`, and brings its
    /// table up to date.
    ///
    /// - Throws: A database error when the file cannot be opened or created.
    public init(path: String?, options: RequestContentOptions = RequestContentOptions(maximumBodySize: 64 * 1024))
        throws
    {
        database = try path.map { try DatabaseQueue(path: $0) } ?? DatabaseQueue()
        self.options = options
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "client") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("age", .integer).notNull()
                t.column("email", .text).notNull()
            }
            try Client.createStoreIndexes(db)
        }
        try migrator.migrate(database)
    }

    /// The routes, behind the middleware that answers Assay's errors as problem details.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: ProblemMiddleware(options: options))
        // README: adapter-method-not-allowed
        router.add(
            middleware: MethodNotAllowedMiddleware(
                routes: [
                    ("/clients", [.post]), ("/clients/{id}", [.get, .patch]), ("/clients/validate", [.post]),
                    ("/openapi.json", [.get]),
                ], options: options))
        // README: end
        router.post("clients") { request, context in try await create(request, context: context) }
        router.patch("clients/:id") { request, context in try await update(request, context: context) }
        router.get("clients/:id") { request, context in try await read(request, context: context) }
        router.post("clients/validate") { request, context in try await check(request, context: context) }
        let document = OpenAPIDocument.clients.jsonBytes([.prettyPrinted, .sortedKeys])
        router.get("openapi.json") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: document)))
        }
        return router
    }

    func create(_ request: Request, context: BasicRequestContext) async throws -> EditedResponse<Client> {
        var client = try await request.decodeValidated(
            as: Client.self, context: context, for: .insert, options: options)
        client.id = nil
        // The insert checks the store's rules (the email is unique) before it writes.
        let saved = try await database.write { [client] db in
            var client = client
            try client.insert(db)
            return client
        }
        return EditedResponse(status: .created, headers: [.location: "/clients/\(saved.id ?? 0)"], response: saved)
    }

    func update(_ request: Request, context: BasicRequestContext) async throws -> Client {
        let id = try context.parameters.require("id", as: Int64.self)
        let body = try await request.readContent(context: context, options: options)
        let patch: JSONValue
        do {
            patch = try body.parsed().value
        } catch {
            throw ProblemError(error)
        }
        guard case .object = patch else {
            throw ProblemError(
                ProblemDetails(
                    title: "The body is not a JSON object", status: 400,
                    detail: "A merge patch (RFC 7396) is an object of the fields to change",
                    instance: body.instance, language: body.language))
        }
        let stored = try await found(id, in: body)
        var merged = Self.merge(patch, into: try JSONValue(parsing: Array(JSONEncoder().encode(stored))))
        if case .object(var members) = merged {
            members["id"] = nil
            merged = .object(members)
        }
        let mergedBody = RequestContent(
            merged.jsonBytes(), contentType: "application/json", acceptLanguage: request.headers[.acceptLanguage],
            instance: body.instance, options: options)
        var client: Client
        do {
            client = try mergedBody.decode(Client.self, for: .update).value
        } catch {
            throw ProblemError(error)
        }
        client.id = id
        try await database.write { [client] db in try client.update(db) }
        return client
    }

    func read(_ request: Request, context: BasicRequestContext) async throws -> Client {
        let id = try context.parameters.require("id", as: Int64.self)
        let body = RequestContent(
            [], contentType: nil, acceptLanguage: request.headers[.acceptLanguage], instance: request.uri.path,
            options: options)
        return try await found(id, in: body)
    }

    /// The client with row id `id`, its row checked as it is read.
    ///
    /// - Throws: ``ProblemError`` 404 when there is none, 500 when its row breaks the rules (written
    ///   by another program): never served as if it were valid.
    func found(_ id: Int64, in body: RequestContent) async throws -> Client {
        let client: Client?
        do {
            client = try await database.read { db in try Client.fetchOneValidated(db, key: id) }
        } catch let error as ValidationError {
            var problem = ProblemDetails(validation: error, language: body.language, instance: body.instance)
            problem.type = "urn:assay:problem:stored-record-invalid"
            problem.status = 500
            problem.title = "The stored client breaks the rules"
            throw ProblemError(problem)
        }
        guard let client else {
            throw ProblemError(
                ProblemDetails(
                    title: "Not Found", status: 404, detail: "No client has the id \(id)", instance: body.instance,
                    language: body.language))
        }
        return client
    }

    func check(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let body = try await request.readContent(context: context, options: options)
        guard let field = request.uri.queryParameters["field"].map(String.init) else {
            throw ProblemError(
                ProblemDetails(
                    title: "Bad Request", status: 400, detail: "The query names no field (?field=email)",
                    instance: body.instance, language: body.language))
        }
        let value: JSONValue
        do {
            value = try body.parsed().value
        } catch {
            throw ProblemError(error)
        }
        let proposed: Any =
            switch value {
            case .string(let text): text
            case .number(let number): number.int.map { $0 as Any } ?? number.double as Any
            default: value
            }
        let normalized: Any
        do {
            normalized = try Client.validate(proposed, forKey: field)
        } catch {
            throw ProblemError(body.problem(for: error))
        }
        let echoed: JSONValue =
            switch normalized {
            case let text as String: .string(text)
            case let number as Int: .number(JSONNumber(number))
            default: value
            }
        let answer: JSONValue = .object(["field": .string(field), "valid": true, "value": echoed])
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.jsonBytes())))
    }

    /// RFC 7396: members of `patch` replace those of `target`, `null` removes one, objects merge.
    static func merge(_ patch: JSONValue, into target: JSONValue) -> JSONValue {
        guard case .object(let changes) = patch else { return patch }
        var result: JSONObject
        if case .object(let members) = target { result = members } else { result = [:] }
        for (key, value) in changes {
            if value == .null {
                result[key] = nil
            } else {
                result[key] = merge(value, into: result[key] ?? .null)
            }
        }
        return .object(result)
    }
}
