import AssayHTTP
import AssayJSON
import AssayVapor
import IntegrationTestSupport
import NIOCore
import Testing
import Vapor
import VaporTesting

/// The Vapor adapter through a real server on 127.0.0.1 and a real HTTP client (VaporTesting's
/// running mode, AsyncHTTPClient): every case of `HTTPCase.all`.
@Suite("Vapor adapter over loopback")
struct AdapterTests {
    static func configure(_ app: Application) {
        let options = TestRoutes.options
        app.middleware = Middlewares()
        app.middleware.use(ProblemMiddleware(environment: app.environment, options: options))
        // Vapor's own limit on collected bodies, as the adapter's.
        app.routes.defaultMaxBodySize = ByteCount(integerLiteral: options.maximumBodySize)
        app.post("signup") { req async throws -> Response in
            let signup = try await req.decodeValidated(Signup.self, for: .insert, options: options)
            return Response(status: .ok, body: .init(data: Data(TestRoutes.echo(signup))))
        }
        app.put("signup") { req async throws -> Response in
            let signup = try await req.decodeValidated(Signup.self, for: .update, options: options)
            return Response(status: .ok, body: .init(data: Data(TestRoutes.echo(signup))))
        }
        app.post("signups") { req async throws -> Response in
            let signups = try await req.decodeValidated([Signup].self, for: .insert, options: options)
            return Response(status: .ok, body: .init(string: "\(signups.count)"))
        }
        app.post("events") { req async throws -> Response in
            let event = try await req.validated(against: TestRoutes.eventSchema, options: options)
            return Response(status: .ok, body: .init(data: Data(event.jsonBytes())))
        }
        app.post("taken") { _ async throws -> Response in throw TestRoutes.takenError }
        app.get("busy") { _ async throws -> Response in
            throw Abort(.serviceUnavailable, headers: ["Retry-After": "5"], reason: "Maintenance")
        }
    }

    @Test("Vapor's own errors become problems, with their headers")
    func abortErrors() async throws {
        try await withApp(configure: { Self.configure($0) }) { app in
            try await app.testing(method: .running(hostname: "127.0.0.1", port: 0)).test(
                .GET, "busy", headers: ["Accept-Language": "ru"]
            ) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers.first(name: "Retry-After") == "5")
                #expect(response.headers.first(name: "Content-Type") == ProblemDetails.mediaType)
                #expect(response.headers.first(name: "Content-Language") == "ru")
                #expect(response.body.string.contains(#""detail":"Maintenance""#))
            }
        }
    }

    @Test("each case answers as expected", arguments: HTTPCase.all)
    func answers(_ testCase: HTTPCase) async throws {
        try await withApp(configure: { Self.configure($0) }) { app in
            var headers = HTTPHeaders()
            for (name, value) in testCase.headers { headers.add(name: name, value: value) }
            try await app.testing(method: .running(hostname: "127.0.0.1", port: 0)).test(
                HTTPMethod(rawValue: testCase.method), testCase.path, headers: headers,
                body: ByteBuffer(bytes: testCase.body)
            ) { response in
                let failures = testCase.failures(
                    status: Int(response.status.code), header: { response.headers.first(name: $0) },
                    body: Array(response.body.readableBytesView))
                #expect(failures.isEmpty, "\(testCase): \(failures)")
            }
        }
    }

    @Test("a streamed route reads the body up to the adapter's limit")
    func streamedBody() async throws {
        try await withApp(configure: { app in
            app.middleware = Middlewares()
            app.middleware.use(ProblemMiddleware(environment: app.environment, options: TestRoutes.options))
            app.on(.POST, "stream", body: .stream) { req async throws -> Response in
                _ = try await req.decodeValidated(Signup.self, options: TestRoutes.options)
                return Response(status: .ok)
            }
        }) { app in
            let tester = try app.testing(method: .running(hostname: "127.0.0.1", port: 0))
            let large = Array(#"{"name": ""#.utf8) + [UInt8](repeating: 65, count: 20_000) + Array(#""}"#.utf8)
            try await tester.test(
                .POST, "stream", headers: ["Content-Type": "application/json"], body: ByteBuffer(bytes: large)
            ) { response in
                #expect(response.status == .payloadTooLarge)
                #expect(response.headers.first(name: "Content-Type") == ProblemDetails.mediaType)
            }
            try await tester.test(
                .POST, "stream", headers: ["Content-Type": "application/json", "Accept-Language": "zh-CN"],
                body: ByteBuffer(string: #"{"name": "Ann Lee"}"#)
            ) { response in
                #expect(response.status == .unprocessableEntity)
                #expect(response.headers.first(name: "Content-Language") == "zh-Hans")
            }
        }
    }
}
