import AssayCore
import AssayHTTP
import AssayJSON
import Testing

@Suite("Accept-Language")
struct AcceptLanguageTests {
    @Test("weights order the ranges; regions and scripts reach Assay's languages")
    func negotiation() {
        #expect(AcceptLanguage("ru-RU").language() == .russian)
        #expect(AcceptLanguage("zh-CN").language() == .simplifiedChinese)
        #expect(AcceptLanguage("zh-Hans-SG, en;q=0.1").language() == .simplifiedChinese)
        #expect(AcceptLanguage("en;q=0.5, ru;q=0.9").language() == .russian)
        #expect(AcceptLanguage("de-CH, fr;q=0.9, ru;q=0.8, en;q=0.7").language() == .russian)
        // Equal weights keep the header's order.
        #expect(AcceptLanguage("ru;q=0.5, zh;q=0.5").language() == .russian)
        #expect(AcceptLanguage("zh;q=0.5, ru;q=0.5").language() == .simplifiedChinese)
    }

    @Test("Traditional Chinese is never answered in Simplified Chinese")
    func traditionalChinese() {
        #expect(AcceptLanguage("zh-TW").language() == .english)
        #expect(AcceptLanguage("zh-Hant, ru;q=0.3").language() == .russian)
        #expect(AcceptLanguage("zh-HK").language(default: .russian) == .russian)
    }

    @Test("q=0 refuses a language; * takes the default unless it is refused")
    func exclusionsAndWildcard() {
        #expect(AcceptLanguage("*").language(default: .russian) == .russian)
        #expect(AcceptLanguage("en;q=0, *").language() == .russian)
        #expect(AcceptLanguage("ru;q=0, en;q=0, *").language() == .simplifiedChinese)
        #expect(AcceptLanguage("ru;q=0").language(default: .english) == .english)
        #expect(AcceptLanguage("ru;q=0").ranges.isEmpty)
        #expect(AcceptLanguage("ru;q=0").excluded == [.russian])
    }

    @Test("no header, an empty one, or malformed members: the default, nothing thrown")
    func malformed() {
        #expect(AcceptLanguage(nil).language() == .english)
        #expect(AcceptLanguage("").language(default: .simplifiedChinese) == .simplifiedChinese)
        for header in ["ru;q=2", "ru;q=abc", "ru;q=-1", "r@u", "123", ";;;", ",,,", "ru;q=0.0001", "-ru", "ru--RU"] {
            #expect(AcceptLanguage(header).language() == .english, "\(header)")
        }
        // A malformed member does not spoil the others.
        #expect(AcceptLanguage("r@u, ru;q=0.4").language() == .russian)
        #expect(AcceptLanguage(" ru-RU ; q=0.7 ").ranges == [AcceptLanguage.Range(tag: "ru-RU", quality: 0.7)])
    }

    @Test("an app's own catalog adds languages to choose from")
    func appCatalog() {
        let catalog = MessageCatalog.builtIn.merging(
            MessageCatalog([Language("de")!: ["tooShort": "{subject} ist zu kurz"]]))
        #expect(AcceptLanguage("de-DE, ru;q=0.5").language(in: catalog) == Language("de"))
        #expect(AcceptLanguage("de-DE, ru;q=0.5").language() == .russian)
    }
}

@Suite("RFC 9457 problem details")
struct ProblemDetailsTests {
    private func issue(
        _ code: IssueCode, _ key: String, _ parameters: [String: IssueValue] = [:], value: IssueValue? = nil,
        messageKey: String? = nil
    ) -> ValidationIssue {
        ValidationIssue(
            code: code, path: IssuePath.root.appending(key: key), parameters: parameters, value: value,
            messageKey: messageKey)
    }

    @Test("every failure, with its pointer, code, message and parameters; 422")
    func validationFailure() throws {
        var error = ValidationError()
        error.append(issue(.tooShort, "name", ["minimum": 2], value: "A"))
        error.append(
            ValidationIssue(
                code: .tooLarge, path: IssuePath.root.appending(key: "address").appending(key: "number"),
                parameters: ["maximum": 9999], value: 10000))
        let problem = ProblemDetails(validation: error, language: .english, instance: "/clients")
        #expect(problem.status == 422)
        #expect(problem.type == "about:blank")
        #expect(problem.title == "The request is not valid")
        #expect(problem.detail == "Errors: 2")
        #expect(problem.errors.map(\.pointer) == ["/name", "/address/number"])
        #expect(problem.errors.map(\.code) == ["tooShort", "tooLarge"])
        #expect(problem.errors[0].detail == "Name must be at least 2 characters long")
        #expect(problem.errors[0].params == ["minimum": 2, "value": "A"])
        let body = try JSONValue(parsing: problem.body())
        #expect(body.object?.keys == ["type", "title", "status", "detail", "instance", "errors"])
        #expect(body["status"] == 422)
        #expect(body["instance"] == "/clients")
        #expect(body["errors"]?[1]?["pointer"] == "/address/number")
        #expect(problem.headers.map(\.name) == ["Content-Type", "Content-Language", "Vary"])
        #expect(problem.headers[0].value == "application/problem+json")
    }

    @Test("messages, title and Content-Language in the client's language")
    func languages() {
        var error = ValidationError()
        error.append(issue(.tooShort, "name", ["minimum": 2], value: "A"))
        let russian = ProblemDetails(validation: error, language: AcceptLanguage("ru-RU").language())
        #expect(russian.title == "Запрос не прошёл проверку")
        #expect(russian.detail == "Ошибок: 1")
        #expect(russian.errors[0].detail.contains("не менее 2 символов"))
        #expect(russian.headers[1].value == "ru")
        let chinese = ProblemDetails(validation: error, language: AcceptLanguage("zh-Hans").language())
        #expect(chinese.title == "请求未通过验证")
        #expect(chinese.errors[0].detail.contains("至少需要 2 个字符"))
        #expect(chinese.headers[1].value == "zh-Hans")
    }

    @Test("options with no catalog of their own use the task's catalog as it is when the problem is rendered")
    func catalogReadWhenRendered() {
        var error = ValidationError()
        error.append(issue(.tooShort, "name", ["minimum": 2], value: "A"))
        let options = ProblemOptions()  // made outside the task's catalog, as options for a route are
        let shouting = MessageCatalog.builtIn.merging(MessageCatalog([.english: ["tooShort": "TOO SHORT"]]))
        let inside = MessageCatalog.withCurrent(shouting) { ProblemDetails(validation: error, options: options) }
        #expect(inside.errors[0].detail == "TOO SHORT")
        #expect(ProblemDetails(validation: error, options: options).errors[0].detail != "TOO SHORT")
        // A catalog given is used wherever the problem is rendered.
        let given = ProblemOptions(catalog: shouting)
        #expect(ProblemDetails(validation: error, options: given).errors[0].detail == "TOO SHORT")
        #expect(given.catalog.hasMessages(in: .russian))
    }

    @Test("a sensitive value is never echoed: not in a message, not in the parameters")
    func sensitiveValues() throws {
        var error = ValidationError()
        error.append(issue(.patternMismatch, "password", ["pattern": "^[a-z]+$"], value: "hunter2-SECRET"))
        error.append(
            ValidationIssue(
                code: .notAllowed, path: IssuePath.root.appending(key: "auth").appending(key: "Token"),
                parameters: ["allowed": .list(["a", "b"])], value: "tok-SECRET"))
        error.append(issue(.tooShort, "name", ["minimum": 2], value: "A"))
        let problem = ProblemDetails(validation: error)
        let body = String(decoding: problem.body(), as: UTF8.self)
        #expect(!body.contains("SECRET"))
        #expect(problem.errors[0].params["value"] == nil)
        #expect(problem.errors[0].params["pattern"] == "^[a-z]+$")
        #expect(problem.errors[2].params["value"] == "A")
        // A key of the app's own.
        let custom = ProblemDetails(validation: error, options: ProblemOptions(sensitiveKeys: ["name"]))
        #expect(custom.errors[2].params["value"] == nil)
        #expect(String(decoding: custom.body(), as: UTF8.self).contains("hunter2-SECRET"))
    }

    @Test("stored data in the way: 409; warnings left out; a cut-short error says so")
    func conflictsAndCounts() {
        var taken = ValidationError()
        taken.append(issue(.tooShort, "name", ["minimum": 2], value: "A"))
        taken.append(issue(.notUnique, "email", value: "a@example.com"))
        let conflict = ProblemDetails(validation: taken)
        #expect(conflict.status == 409)
        #expect(conflict.title == "The request conflicts with stored data")
        #expect(conflict.errors.count == 2)
        var missing = ValidationError()
        missing.append(issue(.missing, "teamID", messageKey: "relationship.missing"))
        #expect(ProblemDetails(validation: missing).status == 409)
        // Duplicates within the request's own array are not stored data in the way.
        var duplicates = ValidationError()
        duplicates.append(issue(.notUnique, "tags", messageKey: "notUnique.elements"))
        #expect(ProblemDetails(validation: duplicates).status == 422)
        var warnings = ValidationError(limit: 1)
        warnings.append(ValidationIssue(code: .coerced, severity: .warning))
        warnings.append(issue(.tooShort, "a", ["minimum": 2], value: "A"))
        warnings.append(issue(.tooShort, "b", ["minimum": 2], value: "B"))
        let cut = ProblemDetails(validation: warnings)
        #expect(cut.errors.map(\.pointer) == ["/a"])
        #expect(cut.detail == "Errors: 2+")
    }

    @Test("malformed JSON 400 with its place; 415; 413")
    func transportFailures() throws {
        do {
            _ = try JSONDocument(parsing: Array("{\n  \"a\": [1, 2,]\n}".utf8))
            Issue.record("parsed")
        } catch {
            let problem = ProblemDetails.malformedJSON(error, language: .russian, instance: "/clients")
            #expect(problem.status == 400)
            #expect(problem.detail == "Строка 2, столбец 13")
            #expect(problem.errors.first?.code == "malformed")
            #expect(problem.errors.first?.params["line"] == 2)
            #expect(problem.errors.first?.params["column"] == 13)
        }
        let media = ProblemDetails.unsupportedMediaType("text/plain")
        #expect(media.status == 415)
        #expect(media.detail == "Expected application/json, got: text/plain")
        #expect(try JSONValue(parsing: media.body())["errors"] == [])
        let large = ProblemDetails.contentTooLarge(limit: 1_048_576, language: .simplifiedChinese)
        #expect(large.status == 413)
        #expect(large.title == "请求体过大")
    }
}
