import AssayCodable
import AssayCore
import AssayHTTP
import AssayJSON
import AssaySchema

/// A sign-up form: what both adapters' test apps decode. Nested fields, a sensitive one, and a rule
/// that applies to updates only.
@Validatable
public struct Signup: Codable, Sendable {
    /// 2–50 characters, trimmed.
    @Normalize(.trimmed) @Validate(.length(2...50))
    public var name: String
    /// 18–120.
    @Validate(.range(18...120))
    public var age: Int
    /// An email address.
    @Normalize(.trimmed) @Validate(.email())
    public var email: String
    /// At least 8 characters; never echoed in a problem.
    @Validate(.length(8...))
    public var password: String
    /// A nested model.
    public var address: Address
    /// 3–20 characters, checked for updates only.
    @Validate(.length(3...20), on: [.update])
    public var nickname: String = ""
}

/// A nested model: its failures are located under `/address`.
@Validatable
public struct Address: Codable, Sendable {
    /// Not empty.
    @Validate(.length(1...))
    public var city: String
    /// Five digits.
    @Validate(.matches("^[0-9]{5}$"))
    public var zip: String
}

/// What the test apps of both adapters serve, the same on each: each route's behaviour is one
/// call of the adapter.
public enum TestRoutes {
    /// The body limit of the test apps: small, so that the 413 case is cheap.
    public static let options = RequestContentOptions(maximumBodySize: 4096)

    /// The schema of `POST /events`, a route with no Swift type.
    public static let eventSchema: JSONSchema = try! JSONSchema(
        parsing: #"""
            {"type": "object", "required": ["kind", "at"],
             "properties": {"kind": {"enum": ["start", "stop"]}, "at": {"type": "integer", "minimum": 0},
                            "tags": {"type": "array", "items": {"type": "string", "maxLength": 5}}}}
            """#)

    /// What `POST /taken` throws from its handler: a unique value taken, as a store's save reports it.
    public static let takenError = ValidationError(
        ValidationIssue(code: .notUnique, path: ["email"], phase: .save, messageKey: "notUnique"))

    /// The answer of a route that decoded a sign-up: its normalised name and email.
    public static func echo(_ signup: Signup) -> [UInt8] {
        JSONValue.object(["name": .string(signup.name), "email": .string(signup.email)]).jsonBytes()
    }
}

/// One request to a test app and what its answer must be.
public struct HTTPCase: Sendable, CustomStringConvertible {
    /// What the case checks.
    public var name: String
    /// The request's method.
    public var method: String
    /// The request's path.
    public var path: String
    /// The request's headers.
    public var headers: [(String, String)]
    /// The request's body.
    public var body: [UInt8]
    /// The status expected.
    public var status: Int
    /// The pointers of the problem's errors, in order; `nil` to leave them unchecked.
    public var pointers: [String]?
    /// The `Content-Language` expected, and the problem's language.
    public var language: String
    /// Text the body must hold.
    public var contains: [String]
    /// Text the body must not hold.
    public var lacks: [String]

    /// The case's name.
    public var description: String { name }

    init(
        _ name: String, _ method: String = "POST", _ path: String = "/signup",
        contentType: String? = "application/json", language header: String? = nil, body: [UInt8], status: Int,
        pointers: [String]? = nil, language: String = "en", contains: [String] = [], lacks: [String] = []
    ) {
        self.name = name
        self.method = method
        self.path = path
        var headers: [(String, String)] = []
        if let contentType { headers.append(("Content-Type", contentType)) }
        if let header { headers.append(("Accept-Language", header)) }
        self.headers = headers
        self.body = body
        self.status = status
        self.pointers = pointers
        self.language = language
        self.contains = contains
        self.lacks = lacks
    }

    /// Every case both adapters must answer alike.
    public static let all: [HTTPCase] = {
        let valid =
            #"{"name": "  Ann Lee ", "age": 30, "email": "ann@example.com", "password": "correct horse", "address": {"city": "Oslo", "zip": "01234"}}"#
        let bad =
            #"{"name": "A", "age": 12, "email": "not-an-email", "password": "hunter2", "address": {"city": "", "zip": "12"}}"#
        let badPointers = ["/name", "/age", "/email", "/password", "/address/city", "/address/zip"]
        var deep = [UInt8](repeating: UInt8(ascii: "["), count: 1500)
        deep += [UInt8](repeating: UInt8(ascii: "]"), count: 1500)
        return [
            HTTPCase(
                "a valid body decodes, normalised", body: Array(valid.utf8), status: 200,
                contains: [#""name":"Ann Lee""#]),
            HTTPCase(
                "every failure at once, nested paths included", body: Array(bad.utf8), status: 422,
                pointers: badPointers,
                contains: [#""code":"tooShort""#, #""title":"The request is not valid""#, "Errors: 6"],
                lacks: ["hunter2"]),
            HTTPCase(
                "Russian for Accept-Language: ru-RU", language: "ru-RU, en;q=0.5", body: Array(bad.utf8), status: 422,
                pointers: badPointers, language: "ru", contains: ["Запрос не прошёл проверку"], lacks: ["hunter2"]),
            {
                // Accept-Language sent as two fields: read as one list (RFC 9110 §5.3), so `ru` wins.
                var split = HTTPCase(
                    "Accept-Language in two fields, read as one list", language: "de;q=0.9", body: Array(bad.utf8),
                    status: 422, pointers: badPointers, language: "ru", contains: ["Запрос не прошёл проверку"])
                split.headers.append(("Accept-Language", "ru"))
                return split
            }(),
            HTTPCase(
                "Simplified Chinese for Accept-Language: zh-Hans", language: "zh-Hans", body: Array(bad.utf8),
                status: 422, pointers: badPointers, language: "zh-Hans", contains: ["请求未通过验证"]),
            HTTPCase(
                "the update's own rules run for an update", "PUT", body: Array(valid.utf8), status: 422,
                pointers: ["/nickname"]),
            HTTPCase(
                "the update's own rules are reported with the others", "PUT", body: Array(bad.utf8), status: 422,
                pointers: badPointers + ["/nickname"]),
            HTTPCase(
                "malformed JSON is 400 with its line and column", body: Array("{\"name\": \"Ann\",\n \"age\": }".utf8),
                status: 400, pointers: [""], contains: [#""line":2"#, #""code":"malformed""#]),
            HTTPCase("an empty body is 400", body: [], status: 400, pointers: [""]),
            HTTPCase(
                "a body that is not UTF-8 is 400", body: [0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D], status: 400,
                pointers: [""]),
            HTTPCase("deeply nested JSON is 400, not a crash", body: deep, status: 400, pointers: [""]),
            HTTPCase(
                "a body that is not JSON by its media type is 415", contentType: "text/plain",
                body: Array(valid.utf8), status: 415, contains: ["text/plain"]),
            HTTPCase("a body with no media type is 415", contentType: nil, body: Array(valid.utf8), status: 415),
            HTTPCase(
                "a charset other than UTF-8 is 415", contentType: "application/json; charset=latin1",
                body: Array(valid.utf8), status: 415),
            HTTPCase(
                "a body over the limit is 413",
                body: Array(#"{"name": ""#.utf8) + [UInt8](repeating: 65, count: 8000) + Array(#""}"#.utf8),
                status: 413, contains: ["4096"]),
            HTTPCase(
                "an array body reports every bad element", "POST", "/signups",
                body: Array("[\(valid), \(bad), \(valid)]".utf8), status: 422,
                pointers: badPointers.map { "/1" + $0 }),
            HTTPCase(
                "an array body of valid elements decodes", "POST", "/signups",
                body: Array("[\(valid), \(valid)]".utf8), status: 200, contains: ["2"]),
            HTTPCase(
                "a JSON Schema route reports every failure", "POST", "/events",
                body: Array(#"{"kind": "pause", "at": -1, "tags": ["ok", "toolong"]}"#.utf8), status: 422,
                pointers: ["/kind", "/at", "/tags/1"]),
            HTTPCase(
                "a JSON Schema route passes a valid body", "POST", "/events",
                body: Array(#"{"kind": "start", "at": 5}"#.utf8), status: 200, contains: [#""kind":"start""#]),
            HTTPCase(
                "a taken unique value thrown by the handler is 409", "POST", "/taken", body: Array(valid.utf8),
                status: 409, pointers: ["/email"], contains: [#""code":"notUnique""#]),
        ]
    }()

    /// What is wrong with an answer: nothing when it is as expected.
    public func failures(status: Int, header: (String) -> String?, body: [UInt8]) -> [String] {
        var failures: [String] = []
        if status != self.status { failures.append("status \(status), expected \(self.status)") }
        let text = String(decoding: body, as: UTF8.self)
        for needle in contains where !text.contains(needle) { failures.append("body lacks \(needle): \(text)") }
        for needle in lacks where text.contains(needle) { failures.append("body holds \(needle): \(text)") }
        guard self.status >= 400 else { return failures }
        if header("Content-Type") != ProblemDetails.mediaType {
            failures.append("Content-Type \(header("Content-Type") ?? "none")")
        }
        if header("Content-Language") != language {
            failures.append("Content-Language \(header("Content-Language") ?? "none"), expected \(language)")
        }
        if header("Vary")?.contains("Accept-Language") != true { failures.append("no Vary: Accept-Language") }
        guard case .object(let problem)? = try? JSONValue(parsing: body) else {
            return failures + ["the body is not a JSON object: \(text)"]
        }
        if problem["status"] != .number(JSONNumber(self.status)) {
            failures.append("problem status \(String(describing: problem["status"]))")
        }
        if case .string? = problem["title"] {} else { failures.append("no title") }
        if let pointers {
            guard case .array(let errors)? = problem["errors"] else { return failures + ["no errors array"] }
            let found = errors.compactMap { error -> String? in
                if case .object(let members) = error, case .string(let pointer)? = members["pointer"] { return pointer }
                return nil
            }
            if found != pointers { failures.append("pointers \(found), expected \(pointers)") }
        }
        return failures
    }
}
