import AssayCore
import AssayJSON

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ProblemDetails {
    /// The problem for rules that failed: status 422 (Unprocessable Content), or 409 (Conflict)
    /// when an error is about the stored data rather than the request alone — a value that must be
    /// unique and is taken, a related record that does not exist, a delete that is denied (see
    /// ``isConflict(_:)``). Every error becomes an entry of ``errors``, in order; warnings are left
    /// out. Values under ``ProblemOptions/sensitiveKeys`` are never echoed.
    ///
    /// - Parameters:
    ///   - validation: The failure.
    ///   - language: The language of the messages: usually ``AcceptLanguage/language(in:default:)``
    ///     of the request's `Accept-Language`.
    ///   - options: Sensitive keys and the message catalog.
    ///   - instance: The request's path, or another URI of this occurrence.
    public init(
        validation: ValidationError, language: Language = .english, options: ProblemOptions = ProblemOptions(),
        instance: String? = nil
    ) {
        let issues = validation.errors.map { options.isSensitive($0.path) ? $0.redacted() : $0 }
        let conflict = issues.contains(where: Self.isConflict)
        let status = conflict ? 409 : 422
        let entries = issues.map { issue -> FieldError in
            var params: [(String, JSONValue)] = issue.parameters.sorted { $0.key < $1.key }.compactMap { key, value in
                Self.json(value).map { (key, $0) }
            }
            if let value = issue.value, value != .redacted, let json = Self.json(value) {
                params.append(("value", json))
            }
            return FieldError(
                pointer: issue.path.jsonPointer, code: issue.code.identifier,
                detail: issue.message(in: language, catalog: options.catalog), params: JSONObject(params))
        }
        let count = entries.count + validation.droppedErrorCount
        self.init(
            title: ProblemText.title(conflict ? .conflict : .validation, in: language), status: status,
            detail: ProblemText.errorCount(count, truncated: validation.isTruncated, in: language),
            instance: instance, errors: entries, language: language)
    }

    /// Whether an issue is about the stored data rather than the request alone: a unique value
    /// taken (`notUnique`; not an array of the request holding one element twice, which is 422),
    /// a delete denied (`deleteDenied`), a related or updated record that does not exist
    /// (AssayGRDB's `relationship.missing` and `notFound` messages), a record staged twice.
    public static func isConflict(_ issue: ValidationIssue) -> Bool {
        // Duplicate elements of an array in the request (`uniqueItems`, `.unique`) are the
        // request's own fault: 422.
        (issue.code == .notUnique && issue.messageKey != "notUnique.elements") || issue.code == .deleteDenied
            || ["relationship.missing", "notFound", "record.stagedTwice", "deleteDenied.relationship"].contains(
                issue.messageKey)
    }

    /// 400 Bad Request for a body that is not JSON, with where it stops being JSON: one entry with
    /// code `malformed` and the line, column and byte offset as parameters.
    public static func malformedJSON(_ error: JSONParseError, language: Language = .english, instance: String? = nil)
        -> ProblemDetails
    {
        let entry = FieldError(
            pointer: "", code: IssueCode.malformed.identifier,
            detail: "line \(error.line), column \(error.column): \(error.detail)",
            params: [
                "reason": .string(error.reason.identifier), "line": .number(JSONNumber(error.line)),
                "column": .number(JSONNumber(error.column)), "offset": .number(JSONNumber(error.offset)),
            ])
        return ProblemDetails(
            title: ProblemText.title(.malformed, in: language), status: 400,
            detail: ProblemText.malformed(line: error.line, column: error.column, in: language), instance: instance,
            errors: [entry], language: language)
    }

    /// 415 Unsupported Media Type for a body whose `Content-Type` is not JSON (`received` is what
    /// the request said, `nil` when it said nothing).
    public static func unsupportedMediaType(_ received: String?, language: Language = .english, instance: String? = nil)
        -> ProblemDetails
    {
        ProblemDetails(
            title: ProblemText.title(.unsupportedMediaType, in: language), status: 415,
            detail: ProblemText.mediaType(received, in: language), instance: instance, language: language)
    }

    /// 413 Content Too Large for a body over `limit` bytes.
    public static func contentTooLarge(limit: Int, language: Language = .english, instance: String? = nil)
        -> ProblemDetails
    {
        ProblemDetails(
            title: ProblemText.title(.tooLarge, in: language), status: 413,
            detail: ProblemText.tooLarge(limit, in: language), instance: instance, language: language)
    }

    /// A parameter's value as JSON; `nil` for a redacted one.
    static func json(_ value: IssueValue) -> JSONValue? {
        switch value {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .integer(let number): .number(JSONNumber(number))
        case .number(let number): JSONNumber(number).map(JSONValue.number) ?? .string(String(number))
        case .decimal(let text): JSONNumber(text: text).map(JSONValue.number) ?? .string(text)
        case .string(let text): .string(text)
        case .date(let date): .string(date.formatted(.iso8601))
        case .list(let items): .array(items.compactMap(json))
        case .redacted: nil
        case .other(let text): .string(text)
        }
    }
}

/// The titles and details of problems, in Assay's three languages (English for any other).
enum ProblemText {
    enum Kind {
        case validation, conflict, malformed, unsupportedMediaType, tooLarge
    }

    static func title(_ kind: Kind, in language: Language) -> String {
        switch (kind, language) {
        case (.validation, .russian): "Запрос не прошёл проверку"
        case (.validation, .simplifiedChinese): "请求未通过验证"
        case (.validation, _): "The request is not valid"
        case (.conflict, .russian): "Запрос противоречит сохранённым данным"
        case (.conflict, .simplifiedChinese): "请求与已存储的数据冲突"
        case (.conflict, _): "The request conflicts with stored data"
        case (.malformed, .russian): "Тело запроса — не JSON"
        case (.malformed, .simplifiedChinese): "请求体不是有效的 JSON"
        case (.malformed, _): "The body is not valid JSON"
        case (.unsupportedMediaType, .russian): "Неподдерживаемый тип содержимого"
        case (.unsupportedMediaType, .simplifiedChinese): "不支持的媒体类型"
        case (.unsupportedMediaType, _): "Unsupported media type"
        case (.tooLarge, .russian): "Тело запроса слишком велико"
        case (.tooLarge, .simplifiedChinese): "请求体过大"
        case (.tooLarge, _): "The body is too large"
        }
    }

    static func errorCount(_ count: Int, truncated: Bool, in language: Language) -> String {
        let more = truncated ? "+" : ""
        return switch language {
        case .russian: "Ошибок: \(count)\(more)"
        case .simplifiedChinese: "错误数：\(count)\(more)"
        default: "Errors: \(count)\(more)"
        }
    }

    static func malformed(line: Int, column: Int, in language: Language) -> String {
        switch language {
        case .russian: "Строка \(line), столбец \(column)"
        case .simplifiedChinese: "第 \(line) 行，第 \(column) 列"
        default: "Line \(line), column \(column)"
        }
    }

    static func mediaType(_ received: String?, in language: Language) -> String {
        let got = received ?? "—"
        return switch language {
        case .russian: "Ожидается application/json, получено: \(got)"
        case .simplifiedChinese: "应为 application/json，收到：\(got)"
        default: "Expected application/json, got: \(got)"
        }
    }

    static func tooLarge(_ limit: Int, in language: Language) -> String {
        switch language {
        case .russian: "Не более \(limit) байт"
        case .simplifiedChinese: "最多 \(limit) 字节"
        default: "At most \(limit) bytes"
        }
    }
}
