import AssayJSON
import AssaySchema
import ClientsService
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// The example service through a real server on 127.0.0.1 and a real client; every response is
/// checked against the service's own `/openapi.json` with Assay.
@Suite("Clients service over loopback")
struct ClientsServiceTests {
    /// One exchange: what was asked and what came back.
    struct Answer {
        var status: Int
        var contentType: String?
        var language: String?
        var body: JSONValue
        var text: String
    }

    /// A client of the live server that checks each response against the OpenAPI document.
    struct Client {
        let client: any TestClientProtocol
        let document: JSONValue

        func send(
            _ method: HTTPRequest.Method, _ uri: String, body: String? = nil, language: String? = nil,
            contentType: String = "application/json", operation: (path: String, method: String)
        ) async throws -> Answer {
            var headers: HTTPFields = [.contentType: contentType]
            if let language { headers[.acceptLanguage] = language }
            return try await client.execute(
                uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }
            ) { response in
                let bytes = Array(response.body.readableBytesView)
                let answer = Answer(
                    status: Int(response.status.code), contentType: response.headers[.contentType],
                    language: response.headers[.contentLanguage], body: (try? JSONValue(parsing: bytes)) ?? .null,
                    text: String(decoding: bytes, as: UTF8.self))
                let failures = conformance(of: answer, to: operation)
                #expect(failures.isEmpty, "\(method) \(uri): \(failures)")
                return answer
            }
        }

        /// What in an answer the document does not describe: its status, its media type, or its body.
        func conformance(of answer: Answer, to operation: (path: String, method: String)) -> [String] {
            guard case .object(let responses)? = document["paths"]?[operation.path]?[operation.method]?["responses"]
            else { return ["no such operation in the document"] }
            guard case .object(let content)? = responses[String(answer.status)]?["content"] else {
                return ["status \(answer.status) is not in the document: \(answer.text)"]
            }
            // The media type without its parameters (`; charset=utf-8`).
            let mediaType = answer.contentType?.split(separator: ";").first.map(String.init)
            guard let mediaType, let schema = content[mediaType]?["schema"] else {
                return ["media type \(answer.contentType ?? "none") is not in the document"]
            }
            // The whole document is the schema's resource, so that its `$ref`s resolve.
            guard case .object(var root) = document else { return ["the document is not an object"] }
            root["$ref"] = schema["$ref"] ?? .null
            do {
                let compiled = try JSONSchema(.object(root), options: .init(assertFormats: true))
                let result = compiled.validate(answer.body)
                return result.errors.map { "\($0.instanceLocation.jsonPointer): \($0.message)" }
            } catch {
                return ["the schema does not compile: \(error)"]
            }
        }
    }

    func withService(
        _ body: @Sendable (Client, ClientsService) async throws -> Void
    ) async throws {
        let service = try ClientsService(path: nil)
        let app = Application(router: service.router())
        try await app.test(.live) { client in
            let document = try await client.execute(uri: "/openapi.json", method: .get) { response in
                #expect(response.status == .ok)
                return try JSONValue(parsing: Array(response.body.readableBytesView))
            }
            try await body(Client(client: client, document: document), service)
        }
    }

    static let ann = #"{"name": "  Ann Lee ", "age": 30, "email": " Ann@Example.com "}"#

    @Test("create, read, update: the rules of each operation, uniqueness as 409")
    func lifecycle() async throws {
        try await withService { client, _ in
            let created = try await client.send(.post, "/clients", body: Self.ann, operation: ("/clients", "post"))
            #expect(created.status == 201)
            #expect(created.body["name"] == "Ann Lee")
            #expect(created.body["email"] == "ann@example.com")
            guard case .number(let number)? = created.body["id"], let id = number.int else {
                Issue.record("no id: \(created.text)")
                return
            }
            let read = try await client.send(.get, "/clients/\(id)", operation: ("/clients/{id}", "get"))
            #expect(read.status == 200)
            #expect(read.body == created.body)

            // The same email, written differently: normalised, then found taken.
            let again = try await client.send(
                .post, "/clients", body: #"{"name": "Ann Other", "age": 40, "email": "ANN@example.com"}"#,
                language: "ru", operation: ("/clients", "post"))
            #expect(again.status == 409)
            #expect(again.language == "ru")
            #expect(again.text.contains(#""code":"notUnique""#))

            // A minor cannot be created, but an existing client's age may be set to 16 (update rules).
            let minor = try await client.send(
                .post, "/clients", body: #"{"name": "Kid", "age": 16, "email": "kid@example.com"}"#,
                operation: ("/clients", "post"))
            #expect(minor.status == 422)
            #expect(minor.text.contains(#""pointer":"/age""#))
            let patched = try await client.send(
                .patch, "/clients/\(id)", body: #"{"age": 16}"#, contentType: "application/merge-patch+json",
                operation: ("/clients/{id}", "patch"))
            #expect(patched.status == 200)
            #expect(patched.body["age"] == 16)
            #expect(patched.body["name"] == "Ann Lee")

            let broken = try await client.send(
                .patch, "/clients/\(id)", body: #"{"age": 200, "name": "X"}"#, language: "zh-CN",
                operation: ("/clients/{id}", "patch"))
            #expect(broken.status == 422)
            #expect(broken.language == "zh-Hans")
            #expect(broken.text.contains(#""pointer":"/name""#) && broken.text.contains(#""pointer":"/age""#))

            let missing = try await client.send(
                .patch, "/clients/999", body: #"{"age": 20}"#, operation: ("/clients/{id}", "patch"))
            #expect(missing.status == 404)
            let notNumber = try await client.send(.get, "/clients/abc", operation: ("/clients/{id}", "get"))
            #expect(notNumber.status == 400)
        }
    }

    @Test("a row that breaks the rules is reported, never served as valid")
    func invalidRow() async throws {
        try await withService { client, service in
            // Written by another program, past the rules.
            try await service.database.write { db in
                try db.execute(sql: "INSERT INTO client (id, name, age, email) VALUES (7, 'Bob', 300, 'nope')")
            }
            let answer = try await client.send(.get, "/clients/7", operation: ("/clients/{id}", "get"))
            #expect(answer.status == 500)
            #expect(answer.text.contains(#""pointer":"/age""#) && answer.text.contains(#""pointer":"/email""#))
            #expect(!answer.text.contains(#""name":"Bob""#))
        }
    }

    @Test("one field checked as the user types")
    func fieldCheck() async throws {
        try await withService { client, _ in
            let operation = ("/clients/validate", "post")
            let good = try await client.send(
                .post, "/clients/validate?field=email", body: #"" Ann@Example.com ""#, operation: operation)
            #expect(good.status == 200)
            #expect(good.body["value"] == "ann@example.com")
            let bad = try await client.send(
                .post, "/clients/validate?field=email", body: #""ann@""#, language: "ru", operation: operation)
            #expect(bad.status == 422)
            #expect(bad.language == "ru")
            let age = try await client.send(.post, "/clients/validate?field=age", body: "200", operation: operation)
            #expect(age.status == 422)
            let wrongType = try await client.send(
                .post, "/clients/validate?field=age", body: #""old""#, operation: operation)
            #expect(wrongType.status == 422)
            let noField = try await client.send(.post, "/clients/validate", body: "1", operation: operation)
            #expect(noField.status == 400)
        }
    }

    @Test("bodies that are not JSON, or too large, or of another type")
    func hostileBodies() async throws {
        try await withService { client, _ in
            let operation = ("/clients", "post")
            let malformed = try await client.send(.post, "/clients", body: #"{"name": "#, operation: operation)
            #expect(malformed.status == 400)
            let empty = try await client.send(.post, "/clients", body: "", operation: operation)
            #expect(empty.status == 400)
            let text = try await client.send(
                .post, "/clients", body: Self.ann, contentType: "text/plain", operation: operation)
            #expect(text.status == 415)
            let large = try await client.send(
                .post, "/clients", body: #"{"name": ""# + String(repeating: "a", count: 100_000) + #""}"#,
                operation: operation)
            #expect(large.status == 413)
            let deep = try await client.send(
                .post, "/clients", body: String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000),
                operation: operation)
            #expect(deep.status == 400)
        }
    }

    @Test("a method the path does not have is 405 with Allow")
    func methodNotAllowed() async throws {
        let service = try ClientsService(path: nil)
        let app = Application(router: service.router())
        try await app.test(.live) { client in
            try await client.execute(uri: "/clients", method: .delete) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "POST")
            }
            try await client.execute(uri: "/clients/3", method: .put) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET, PATCH")
            }
            try await client.execute(uri: "/nowhere", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/problem+json")
            }
        }
    }

    @Test("the OpenAPI document's Client schema is the model's exported schema")
    func openAPI() async throws {
        try await withService { client, _ in
            #expect(client.document["openapi"] == "3.1.0")
            let schema = client.document["components"]?["schemas"]?["Client"]
            #expect(schema?["properties"]?["email"] != nil)
            #expect(schema?["required"] == ["name", "age", "email"])
            // A create's body states the insert rule (18 and over); an update's requires nothing.
            let create = try JSONSchema(client.document["components"]?["schemas"]?["ClientCreate"] ?? false)
            #expect(!create.isValid(["name": "Kid", "age": 16, "email": "kid@example.com"]))
            #expect(create.isValid(["name": "Ann", "age": 18, "email": "ann@example.com"]))
            #expect(client.document["components"]?["schemas"]?["ClientPatch"]?["required"] == nil)
        }
    }
}
