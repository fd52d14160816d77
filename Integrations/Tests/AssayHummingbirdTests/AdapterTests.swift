import AssayHTTP
import AssayHummingbird
import AssayJSON
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IntegrationTestSupport
import NIOCore
import Testing

/// The Hummingbird adapter through a real server on 127.0.0.1 and a real HTTP client
/// (HummingbirdTesting's live mode): every case of `HTTPCase.all`.
@Suite("Hummingbird adapter over loopback")
struct AdapterTests {
    static func router() -> Router<BasicRequestContext> {
        let options = TestRoutes.options
        let router = Router()
        router.add(middleware: ProblemMiddleware(options: options))
        router.post("signup") { request, context in
            let signup = try await request.decodeValidated(
                as: Signup.self, context: context, for: .insert, options: options)
            return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(bytes: TestRoutes.echo(signup))))
        }
        router.put("signup") { request, context in
            let signup = try await request.decodeValidated(
                as: Signup.self, context: context, for: .update, options: options)
            return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(bytes: TestRoutes.echo(signup))))
        }
        router.post("signups") { request, context in
            let signups = try await request.decodeValidated(
                as: [Signup].self, context: context, for: .insert, options: options)
            return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "\(signups.count)")))
        }
        router.post("events") { request, context in
            let event = try await request.validated(against: TestRoutes.eventSchema, context: context, options: options)
            return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(bytes: event.jsonBytes())))
        }
        router.post("taken") { _, _ -> Response in throw TestRoutes.takenError }
        return router
    }

    @Test("each case answers as expected", arguments: HTTPCase.all)
    func answers(_ testCase: HTTPCase) async throws {
        let app = Application(router: Self.router())
        try await app.test(.live) { client in
            var headers = HTTPFields()
            for (name, value) in testCase.headers {
                headers.append(HTTPField(name: HTTPField.Name(name)!, value: value))
            }
            try await client.execute(
                uri: testCase.path, method: HTTPRequest.Method(testCase.method)!, headers: headers,
                body: ByteBuffer(bytes: testCase.body)
            ) { response in
                let body = Array(response.body.readableBytesView)
                let failures = testCase.failures(
                    status: Int(response.status.code), header: { response.headers[HTTPField.Name($0)!] }, body: body)
                #expect(failures.isEmpty, "\(testCase): \(failures)")
            }
        }
    }

    @Test("without the middleware the adapter's problems are still problem details")
    func withoutMiddleware() async throws {
        let router = Router()
        router.post("signup") { request, context in
            _ = try await request.decodeValidated(as: Signup.self, context: context)
            return Response(status: .ok)
        }
        let app = Application(router: router)
        try await app.test(.live) { client in
            try await client.execute(
                uri: "/signup", method: .post, headers: [.contentType: "application/json", .acceptLanguage: "ru"],
                body: ByteBuffer(string: #"{"name": "A"}"#)
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect(response.headers[.contentType] == ProblemDetails.mediaType)
                #expect(response.headers[.contentLanguage] == "ru")
                let problem = try JSONValue(parsing: Array(response.body.readableBytesView))
                guard case .object(let members) = problem, case .array(let errors)? = members["errors"] else {
                    Issue.record("not a problem: \(problem)")
                    return
                }
                // The short name, and the four missing fields.
                #expect(errors.count == 5)
            }
        }
    }
}
