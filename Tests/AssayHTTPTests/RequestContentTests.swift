import AssayCodable
import AssayCore
import AssayHTTP
import AssayJSON
import AssaySchema
import Testing

@Validatable
private struct Account: Codable {
    @Normalize(.trimmed) @Validate(.length(2...20)) var login: String
    @Validate(.length(8...)) var password: String
    @Validate(.range(1...), on: [.update]) var version: Int = 0
}

@Suite("Request bodies")
struct RequestBodyTests {
    func body(_ text: String, contentType: String? = "application/json", language: String? = nil, limit: Int = 1024)
        -> RequestContent
    {
        RequestContent(
            Array(text.utf8), contentType: contentType, acceptLanguage: language, instance: "/accounts",
            options: RequestContentOptions(maximumBodySize: limit))
    }

    func problem(_ run: () throws -> Void) -> ProblemDetails? {
        do {
            try run()
            return nil
        } catch {
            return error as? ProblemDetails
        }
    }

    @Test("a valid body decodes, normalised; the operation's rules run only for it")
    func decodes() throws {
        let valid = #"{"login": " ann ", "password": "correct horse"}"#
        #expect(try body(valid).decode(Account.self).value.login == "ann")
        #expect(try body(valid).decode(Account.self, for: .insert).value.login == "ann")
        let update = problem { _ = try body(valid).decode(Account.self, for: .update) }
        #expect(update?.status == 422)
        #expect(update?.errors.map(\.pointer) == ["/version"])
        // One pass: the operation's rules are reported with the others, not after they pass.
        let both = problem {
            _ = try body(#"{"login": "a", "password": "correct horse"}"#).decode(Account.self, for: .update)
        }
        #expect(both?.errors.map(\.pointer) == ["/login", "/version"])
    }

    @Test("every failure at once, in the client's language, the password never echoed")
    func failures() throws {
        let found = problem {
            _ = try body(#"{"login": "a", "password": "hunter2"}"#, language: "ru").decode(Account.self)
        }
        let problem = try #require(found)
        #expect(problem.status == 422)
        #expect(problem.language == .russian)
        #expect(problem.instance == "/accounts")
        #expect(problem.errors.map(\.pointer) == ["/login", "/password"])
        #expect(problem.errors.allSatisfy { $0.params["line"] == 1 })
        #expect(!String(decoding: problem.body(), as: UTF8.self).contains("hunter2"))
    }

    @Test("an array body reports every bad element")
    func arrays() throws {
        let list = #"[{"login": "ann", "password": "correct horse"}, {"login": "b", "password": "x"}, {"login": "c"}]"#
        let found = problem { _ = try body(list).decode([Account].self) }
        #expect(found?.errors.map(\.pointer) == ["/1/login", "/1/password", "/2/login", "/2/password"])
        #expect(try body("[]").decode([Account].self).value.isEmpty)
    }

    @Test("media type, size and syntax are checked before any rule")
    func statuses() {
        let valid = #"{"login": "ann", "password": "correct horse"}"#
        #expect(problem { _ = try body(valid, contentType: "text/plain").decode(Account.self) }?.status == 415)
        #expect(problem { _ = try body(valid, contentType: nil).decode(Account.self) }?.status == 415)
        #expect(
            problem { _ = try body(valid, contentType: "application/json; charset=utf-16").decode(Account.self) }?
                .status == 415)
        #expect(problem { _ = try body(valid, limit: 10).decode(Account.self) }?.status == 413)
        let malformed = problem { _ = try body("{\n  \"login\": }").decode(Account.self) }
        #expect(malformed?.status == 400)
        #expect(malformed?.errors.first?.params["line"] == 2)
        #expect(problem { _ = try body("").decode(Account.self) }?.status == 400)
        let notUTF8 = RequestContent([0x22, 0xFF, 0x22], contentType: "application/json", acceptLanguage: nil)
        #expect(problem { _ = try notUTF8.decode(String.self) }?.status == 400)
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(problem { _ = try body(deep, limit: 1 << 20).decode([JSONValue].self) }?.status == 400)
    }

    @Test("the answer's language: the request's Accept-Language, else the options' default")
    func language() {
        let options = RequestContentOptions(defaultLanguage: .russian)
        #expect(options.language(for: nil) == .russian)
        #expect(options.language(for: "de-CH") == .russian)
        #expect(options.language(for: "zh-CN, ru;q=0.5") == .simplifiedChinese)
    }

    @Test("JSON media types: application/json and +json, UTF-8 only")
    func mediaTypes() {
        #expect(RequestContent.isJSON("application/json"))
        #expect(RequestContent.isJSON("Application/JSON; charset=UTF-8"))
        #expect(RequestContent.isJSON("application/merge-patch+json"))
        #expect(RequestContent.isJSON("application/problem+json; charset=\"utf-8\""))
        #expect(!RequestContent.isJSON("text/json"))
        #expect(!RequestContent.isJSON("application/jsonx"))
        #expect(!RequestContent.isJSON("application/json; charset=latin1"))
        #expect(!RequestContent.isJSON(nil))
        #expect(RequestContent.isJSON(" application/json ; charset = utf-8 "))
        #expect(RequestContent.isJSON("application/json;"))
        #expect(RequestContent.isJSON("application/vnd.api+json"))
        #expect(!RequestContent.isJSON("application/+json"))
        #expect(!RequestContent.isJSON("application/json garbage"))
        #expect(!RequestContent.isJSON("application"))
        #expect(!RequestContent.isJSON(""))
    }

    @Test("a JSON Schema route reports every failure; a valid body comes back")
    func schema() throws {
        let schema = try JSONSchema(
            parsing: #"{"type": "object", "properties": {"n": {"minimum": 1}, "s": {"maxLength": 2}}}"#)
        let found = problem { _ = try body(#"{"n": 0, "s": "abc"}"#).validate(against: schema) }
        #expect(found?.status == 422)
        #expect(found?.errors.map(\.pointer) == ["/n", "/s"])
        #expect(try body(#"{"n": 2}"#).validate(against: schema).value == ["n": 2])
    }

    @Test("errors of a handler: Assay's become problems, others are not answered as if they were")
    func handlerErrors() {
        struct Other: Error {}
        let taken = ValidationError(ValidationIssue(code: .notUnique, path: ["login"], phase: .save))
        #expect(RequestContent.problem(for: taken, language: .english, instance: nil)?.status == 409)
        #expect(RequestContent.problem(for: Other(), language: .english, instance: nil) == nil)
        #expect(body("{}").problem(for: Other()).status == 500)
    }
}
