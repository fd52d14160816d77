import AssayCore
import AssayJSON
import AssaySchema
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OpenAPIHummingbird
import OpenAPIRuntime
import OpenAPIURLSession
import Testing

@testable import AssayOpenAPI

/// The middlewares between a real Hummingbird server on 127.0.0.1 (swift-openapi-hummingbird's
/// transport) and a real URLSession client (swift-openapi-urlsession's), each operation's handler
/// and call wrapped in its middleware the way generated code wraps them.
@Suite("OpenAPI middleware over loopback")
struct AssayOpenAPITests {
    static let contract: OpenAPIContract = {
        let path = Bundle.module.path(forResource: "shop", ofType: "yaml")!
        return try! OpenAPIContract(contentsOf: path)
    }()

    static let ann = #"{"name": "Ann Lee", "age": 30, "email": "ann@example.com"}"#

    /// What the handlers were asked to do.
    actor Calls {
        var operations: [String] = []
        func record(_ operation: String) { operations.append(operation) }
    }

    /// The server's routes: each handler answers as the operation says, but `getClient` for id 13
    /// answers a client the document refuses (an age of 500).
    static func router(validatesResponses: Bool, calls: Calls) -> Router<BasicRequestContext> {
        let router = Router()
        let middleware = AssayServerMiddleware(contract: contract, validatesResponses: validatesResponses)
        func register(
            _ operationID: String, _ method: HTTPRequest.Method, _ path: String,
            _ handler:
                @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (
                    HTTPResponse, HTTPBody?
                )
        ) {
            router.register(
                { request, body, metadata in
                    try await middleware.intercept(
                        request, body: body, metadata: metadata, operationID: operationID,
                        next: { request, body, metadata in
                            await calls.record(operationID)
                            return try await handler(request, body, metadata)
                        })
                }, method: method, path: path)
        }
        register("createClient", .post, "/clients") { _, body, _ in
            let text = try await String(collecting: body!, upTo: 1 << 20)
            return json(201, text)
        }
        register("listClients", .get, "/clients") { _, _, _ in json(200, "[\(ann)]") }
        register("searchClients", .get, "/search/{ids}") { _, _, _ in json(200, "[\(ann)]") }
        register("getClient", .get, "/clients/{id}") { _, _, metadata in
            if metadata.pathParameters["id"] == "14" {
                // Text where the document allows only JSON.
                return (HTTPResponse(status: .ok, headerFields: [.contentType: "text/plain"]), HTTPBody("Ann Lee"))
            }
            return metadata.pathParameters["id"] == "13"
                ? json(200, #"{"name": "Old Tom", "age": 500, "email": "tom@example.com"}"#) : json(200, ann)
        }
        return router
    }

    @Sendable static func json(_ status: Int, _ text: String) -> (HTTPResponse, HTTPBody?) {
        (HTTPResponse(status: .init(code: status), headerFields: [.contentType: "application/json"]), HTTPBody(text))
    }

    /// A client of the live server: requests sent through the client middleware, or straight.
    struct Client {
        let transport = URLSessionTransport()
        let baseURL: URL
        let middleware: AssayClientMiddleware?

        func send(
            _ operationID: String, _ method: HTTPRequest.Method, _ path: String, body: String? = nil,
            headers: HTTPFields = [:]
        ) async throws -> (status: Int, body: JSONValue?, language: String?) {
            var fields = headers
            if body != nil { fields[.contentType] = fields[.contentType] ?? "application/json" }
            let request = HTTPRequest(method: method, scheme: nil, authority: nil, path: path, headerFields: fields)
            let next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) = {
                try await transport.send($0, body: $1, baseURL: $2, operationID: operationID)
            }
            let response: HTTPResponse
            let responseBody: HTTPBody?
            if let middleware {
                (response, responseBody) = try await middleware.intercept(
                    request, body: body.map { HTTPBody($0) }, baseURL: baseURL, operationID: operationID, next: next)
            } else {
                (response, responseBody) = try await next(request, body.map { HTTPBody($0) }, baseURL)
            }
            var bytes: [UInt8] = []
            if let responseBody { bytes = try await [UInt8](collecting: responseBody, upTo: 1 << 20) }
            return (
                response.status.code, bytes.isEmpty ? nil : try JSONValue(parsing: bytes),
                response.headerFields[HTTPField.Name("Content-Language")!]
            )
        }
    }

    static func withServer(
        validatesResponses: Bool = true, clientMiddleware: AssayClientMiddleware? = nil,
        _ body: @Sendable (Client, Calls) async throws -> Void
    ) async throws {
        let calls = Calls()
        let app = Application(router: router(validatesResponses: validatesResponses, calls: calls))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await body(
                Client(baseURL: URL(string: "http://127.0.0.1:\(port)")!, middleware: clientMiddleware), calls)
        }
    }

    static func pointers(_ problem: JSONValue?) -> [String] {
        guard case .array(let errors)? = problem?["errors"] else { return [] }
        return errors.compactMap { if case .string(let pointer)? = $0["pointer"] { pointer } else { nil } }
    }

    static let requestID: HTTPFields = [HTTPField.Name("X-Request-ID")!: "6f1c9a52-3c1e-4c1a-9a53-2f4b3a1c9e10"]

    @Test("a valid request reaches the handler and its answer comes back")
    func validRequest() async throws {
        try await Self.withServer { client, calls in
            let created = try await client.send(
                "createClient", .post, "/clients?dryRun=true", body: Self.ann, headers: Self.requestID)
            #expect(created.status == 201)
            #expect(created.body?["name"] == "Ann Lee")
            let listed = try await client.send("listClients", .get, "/clients?limit=5&tag=ab&tag=cd")
            #expect(listed.status == 200)
            let one = try await client.send("getClient", .get, "/clients/7")
            #expect(one.status == 200)
            #expect(await calls.operations == ["createClient", "listClients", "getClient"])
        }
    }

    @Test("every failure of body, query, header and path at once, as problem details in the asked language")
    func invalidRequests() async throws {
        try await Self.withServer { client, calls in
            let bad = #"{"name": "A", "age": 500, "email": "Hello", "nickname": "x"}"#
            let created = try await client.send(
                "createClient", .post, "/clients?dryRun=maybe", body: bad,
                headers: [.acceptLanguage: "ru"])
            #expect(created.status == 422)
            #expect(
                Set(Self.pointers(created.body)) == [
                    "/name", "/age", "/email", "/nickname", "/query/dryRun", "/header/X-Request-ID",
                ])
            #expect(created.language == "ru")

            let listed = try await client.send("listClients", .get, "/clients?limit=0&tag=a&tag=abc")
            #expect(listed.status == 422)
            #expect(Set(Self.pointers(listed.body)) == ["/query/limit", "/query/tag/0"])
            // One exploded value holds its comma: "a,b" is one tag, refused by nothing but its length.
            let comma = try await client.send("listClients", .get, "/clients?tag=a,b&tag=c")
            #expect(Self.pointers(comma.body) == ["/query/tag/1"])
            let word = try await client.send("listClients", .get, "/clients?limit=five")
            #expect(Self.pointers(word.body) == ["/query/limit"])

            let path = try await client.send("getClient", .get, "/clients/0")
            #expect(path.status == 422)
            #expect(Self.pointers(path.body) == ["/path/id"])

            let malformed = try await client.send(
                "createClient", .post, "/clients", body: #"{"name": "#, headers: Self.requestID)
            #expect(malformed.status == 400)
            let missing = try await client.send("createClient", .post, "/clients", headers: Self.requestID)
            #expect(missing.status == 422)
            #expect(Self.pointers(missing.body) == [""])
            let text = try await client.send(
                "createClient", .post, "/clients", body: "name=Ann",
                headers: Self.requestID + [HTTPField(name: .contentType, value: "text/plain")])
            #expect(text.status == 415)
            #expect(await calls.operations.isEmpty)
        }
    }

    @Test("parameters read as their style and explode write them: label, form, pipes, deepObject, cookie, JSON")
    func parameterStyles() async throws {
        try await Self.withServer { client, calls in
            let point: HTTPFields = [HTTPField.Name("X-Point")!: "x=1,y=2", .cookie: "theme=dark; session=0a1b2c3d"]
            // `|`, `[` and `]` percent-encoded, as a client sends them.
            let search = "/search/.1.2?tags=ab,c&range=1%7C5&filter%5Bname%5D=Ann&filter%5Bage%5D=3"
            let valid = try await client.send(
                "searchClients", .get, search + "&where=%7B%22field%22%3A%22a%2Cb%22%7D", headers: point)
            #expect(valid.status == 200, "\(valid.body?.jsonString() ?? "")")
            // An encoded separator stays in its value: "a%2Cb" is one tag (too long), not two.
            let encoded = try await client.send("searchClients", .get, "/search/.1?tags=abcd,a%2Cbc", headers: point)
            #expect(Set(Self.pointers(encoded.body)) == ["/query/tags/0", "/query/tags/1"])
            let bad = try await client.send(
                "searchClients", .get,
                "/search/.1.0?tags=ab,long&range=1%7C-5%7C9&filter%5Bname%5D=&filter%5Bage%5D=old&where=%7B%7D",
                headers: [HTTPField.Name("X-Point")!: "x=1,y=two", .cookie: "session=nothex"])
            #expect(bad.status == 422)
            #expect(
                Set(Self.pointers(bad.body)) == [
                    "/path/ids/1", "/query/tags/1", "/query/range", "/query/range/1", "/query/filter/name",
                    "/query/filter/age", "/header/X-Point/y", "/cookie/session", "/query/where/field",
                ], "\(bad.body?.jsonString() ?? "")")
            // A path parameter not in its style's form is missing.
            let unlabelled = try await client.send("searchClients", .get, "/search/1", headers: point)
            #expect(Self.pointers(unlabelled.body) == ["/path/ids"])
            let noCookie = try await client.send("searchClients", .get, "/search/.1", headers: [:])
            #expect(Self.pointers(noCookie.body) == ["/cookie/session"], "\(noCookie.body?.jsonString() ?? "")")
            #expect(await calls.operations == ["searchClients"])
        }
    }

    @Test("a response the document refuses is a 500 from the server, or the client's ValidationError")
    func brokenResponses() async throws {
        try await Self.withServer { client, _ in
            let broken = try await client.send("getClient", .get, "/clients/13")
            #expect(broken.status == 500)
            #expect(Self.pointers(broken.body) == ["/age"])
            let text = try await client.send("getClient", .get, "/clients/14")
            #expect(text.status == 500)
        }
        let middleware = AssayClientMiddleware(
            contract: Self.contract, validatesRequests: false, validatesResponses: true)
        try await Self.withServer(validatesResponses: false, clientMiddleware: middleware) { client, calls in
            let error = await #expect(throws: ValidationError.self) {
                _ = try await client.send("getClient", .get, "/clients/13")
            }
            #expect(error?.errors.map(\.path.jsonPointer) == ["/age"])
            let text = await #expect(throws: ValidationError.self) {
                _ = try await client.send("getClient", .get, "/clients/14")
            }
            #expect(text?.errors.map(\.code) == [.malformed])
            #expect(await calls.operations == ["getClient", "getClient"])
            // The server's answer to a bad request is a problem, which the document allows for 4XX.
            let problem = try await client.send("getClient", .get, "/clients/0")
            #expect(problem.status == 422)
            #expect(await calls.operations == ["getClient", "getClient"])
        }
    }

    @Test("the client refuses a bad request before sending it")
    func clientRequests() async throws {
        let middleware = AssayClientMiddleware(contract: Self.contract)
        try await Self.withServer(clientMiddleware: middleware) { client, calls in
            let error = await #expect(throws: ValidationError.self) {
                _ = try await client.send("createClient", .post, "/clients?dryRun=1", body: #"{"name": "Ann"}"#)
            }
            // Required members missing are reported at their own pointers.
            #expect(
                Set(error?.errors.map(\.path.jsonPointer) ?? []) == [
                    "/age", "/email", "/query/dryRun", "/header/X-Request-ID",
                ])
            let path = await #expect(throws: ValidationError.self) {
                _ = try await client.send("getClient", .get, "/clients/abc")
            }
            #expect(path?.errors.map(\.path.jsonPointer) == ["/path/id"])
            #expect(await calls.operations.isEmpty)
            let fine = try await client.send("createClient", .post, "/clients", body: Self.ann, headers: Self.requestID)
            #expect(fine.status == 201)
        }
    }

    @Test("documents the contract cannot use are refused with the place")
    func refusals() throws {
        func refusal(_ text: String) -> OpenAPIContractError? {
            do {
                _ = try OpenAPIContract(document: try JSONValue(parsing: Array(text.utf8)))
                return nil
            } catch let error as OpenAPIContractError {
                return error
            } catch {
                return nil
            }
        }
        #expect(refusal(#"{"type": "object"}"#)?.message == "not an OpenAPI 3.0 or 3.1 document")
        let twice = refusal(
            #"{"openapi": "3.1.0", "paths": {"/a": {"get": {"operationId": "x"}}, "/b": {"get": {"operationId": "x"}}}}"#
        )
        #expect(twice?.message.contains("operationId x is also the operation at") == true)
        let dangling = refusal(
            ##"{"openapi": "3.1.0", "paths": {"/a": {"get": {"operationId": "x", "parameters": [{"$ref": "#/components/parameters/P"}]}}}}"##
        )
        #expect(dangling?.pointer == "/paths/~1a/get/parameters/0/$ref")
        let uncompiled = refusal(
            ##"{"openapi": "3.1.0", "paths": {"/a": {"get": {"operationId": "x", "parameters": [{"name": "q", "in": "query", "schema": {"$ref": "#/nowhere"}}]}}}}"##
        )
        #expect(uncompiled != nil)
        #expect(throws: OpenAPIContractError.self) { try OpenAPIContract(contentsOf: "/nonexistent/openapi.yaml") }
    }

    @Test("an OpenAPI 3.0 document's nullable and boolean exclusive bounds mean what 3.0 says")
    func version30() throws {
        let document = try JSONValue(
            parsing: Array(
                #"""
                {"openapi": "3.0.3", "paths": {}, "components": {"schemas": {"S": {"type": "object", "properties": {
                  "a": {"type": "string", "nullable": true, "enum": ["x"]},
                  "b": {"type": "number", "minimum": 0, "exclusiveMinimum": true},
                  "c": {"type": "number", "maximum": 5, "exclusiveMaximum": false},
                  "d": {"type": "array", "items": {"type": "integer", "nullable": true}},
                  "e": {"const": {"minimum": 1, "exclusiveMinimum": true}},
                  "nullable": {"type": "boolean"}}}}}}
                """#.utf8))
        let read = OpenAPIContract.readingVersion30Schemas(document)
        let schema = try JSONSchema(read, at: "/components/schemas/S")
        #expect(schema.validate(["a": nil, "b": 1, "c": 5, "d": [1, nil]] as JSONValue).isValid)
        #expect(!schema.validate(["b": 0] as JSONValue).isValid)
        #expect(!schema.validate(["c": 6] as JSONValue).isValid)
        #expect(!schema.validate(["a": "y"] as JSONValue).isValid)
        #expect(read["components"]?["schemas"]?["S"]?["properties"]?["b"] == ["type": "number", "exclusiveMinimum": 0])
        // Data is not a schema: a const keeps its members; a property named `nullable` is a property.
        #expect(
            schema.validate(["e": ["minimum": 1, "exclusiveMinimum": true], "nullable": true] as JSONValue).isValid)
        #expect(!schema.validate(["e": ["exclusiveMinimum": 1]] as JSONValue).isValid)
        #expect(!schema.validate(["nullable": nil] as JSONValue).isValid)
    }
}

/// Path parameters read as each `style` and `explode` write them: the OpenAPI specification's table
/// of style examples (`color` as `["blue", "black", "brown"]` and as `{"R": 100, "G": 200, "B": 150}`).
@Suite("Path parameters in every style")
struct PathStyleTests {
    static let colors: JSONValue = ["blue", "black", "brown"]
    static let rgb: JSONValue = ["R": 100, "G": 200, "B": 150]

    static func parameter(_ style: OpenAPIContract.Style, explode: Bool, object: Bool) -> OpenAPIContract.Parameter {
        OpenAPIContract.Parameter(
            name: "color", location: .path, required: true, schema: nil,
            kind: object ? .object(["R": .integer, "G": .integer, "B": .integer]) : .array(.string), style: style,
            explode: explode)
    }

    static let cases: [(style: OpenAPIContract.Style, explode: Bool, object: Bool, text: String)] = [
        (.simple, false, false, "blue,black,brown"), (.simple, true, false, "blue,black,brown"),
        (.simple, false, true, "R,100,G,200,B,150"), (.simple, true, true, "R=100,G=200,B=150"),
        (.label, false, false, ".blue,black,brown"), (.label, true, false, ".blue.black.brown"),
        (.label, false, true, ".R,100,G,200,B,150"), (.label, true, true, ".R=100.G=200.B=150"),
        (.matrix, false, false, ";color=blue,black,brown"),
        (.matrix, true, false, ";color=blue;color=black;color=brown"),
        (.matrix, false, true, ";color=R,100,G,200,B,150"), (.matrix, true, true, ";R=100;G=200;B=150"),
    ]

    @Test(arguments: cases.indices)
    func theSpecificationsExamples(_ index: Int) {
        let example = Self.cases[index]
        let parameter = Self.parameter(example.style, explode: example.explode, object: example.object)
        let value = OpenAPIContract.Operation.pathValue(example.text, of: parameter)
        #expect(value == (example.object ? Self.rgb : Self.colors), "\(example)")
    }

    @Test func anEncodedSeparatorStaysInItsValue() {
        let parameter = Self.parameter(.label, explode: true, object: true)
        #expect(OpenAPIContract.Operation.pathValue(".R=1%2E5.G=2", of: parameter) == ["R": 1.5, "G": 2])
        #expect(OpenAPIContract.Operation.pathValue("R=1", of: parameter) == nil)  // not in label form: missing
    }
}

/// A path's parameters read by the operation's template, as the client middleware reads them:
/// whole segments, and parts of one between literal text.
@Suite("Path parameters read by the template")
struct PathTemplateTests {
    typealias Operation = OpenAPIContract.Operation

    @Test func wholeSegmentsAndPartsOfOne() {
        #expect(Operation.pathValues(template: "/clients/{id}", path: "/clients/42") == ["id": "42"])
        #expect(Operation.pathValues(template: "/files/{name}.json", path: "/files/report.json") == ["name": "report"])
        #expect(
            Operation.pathValues(template: "/v{major}.{minor}/items/{id}", path: "/v2.10/items/a%2Eb")
                == ["major": "2", "minor": "10", "id": "a%2Eb"])
        // A parameter ends where the text after it first appears; the last takes what is left.
        #expect(Operation.pathValues(template: "/{a}-{b}", path: "/x-y-z") == ["a": "x", "b": "y-z"])
        #expect(Operation.pathValues(template: "/files/{name}.json", path: "/files/.json") == ["name": ""])
    }

    @Test func aPathOfAnotherShapeHasNoValues() {
        #expect(Operation.pathValues(template: "/files/{name}.json", path: "/files/report.xml").isEmpty)
        #expect(Operation.pathValues(template: "/files/{name}.json", path: "/files/a/b.json").isEmpty)
        #expect(Operation.pathValues(template: "/v{major}.{minor}", path: "/v2").isEmpty)
        #expect(Operation.pathValues(template: "/{a}{b}", path: "/xy").isEmpty)
    }
}
