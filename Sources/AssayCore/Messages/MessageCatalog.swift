/// Message templates by language and key.
///
/// The built-in catalog (``builtIn``) has a template for every code Assay reports, in English,
/// Russian and Simplified Chinese. An app overrides or extends it with its own templates, per call
/// or for a task:
///
/// <!-- snippet: doc-message-catalog -->
/// ```swift
/// let german = Language("de") ?? .english
/// let catalog = MessageCatalog.builtIn.merging(
///     MessageCatalog([
///         .english: ["tooLong": "{subject} is too long"],
///         german: ["tooLong": "{subject} ist zu lang"],
///     ]))
/// print(issue.message(in: german, catalog: catalog))  // Code ist zu lang
/// MessageCatalog.withCurrent(catalog) {
///     print(issue.message(in: .english))  // Code is too long: every message rendered inside uses it
/// }
/// ```
///
/// A key not found in the requested language falls back to English; a key not found at all falls
/// back to the code's generic message. Field names are translated too: an entry `label.age`
/// (`"возраст"`) names the field `age` in messages of that language.
public struct MessageCatalog: Sendable {
    /// Templates by language, then by key.
    public private(set) var templates: [Language: [String: String]]

    /// Makes a catalog from templates by language, then by key.
    public init(_ templates: [Language: [String: String]]) { self.templates = templates }

    /// The catalog Assay ships: English, Russian and Simplified Chinese.
    public static let builtIn = MessageCatalog([
        .english: BuiltInMessages.english,
        .russian: BuiltInMessages.russian,
        .simplifiedChinese: BuiltInMessages.simplifiedChinese,
    ])

    @TaskLocal static var taskCatalog: MessageCatalog?

    /// The catalog used when a call names none: the one bound for the task, else ``builtIn``.
    public static var current: MessageCatalog { taskCatalog ?? builtIn }

    /// Runs `operation` with `catalog` as ``current`` for this task and the tasks it creates.
    public static func withCurrent<R>(_ catalog: MessageCatalog, operation: () throws -> R) rethrows -> R {
        try $taskCatalog.withValue(catalog, operation: operation)
    }

    /// Whether the catalog has any message in `language`.
    public func hasMessages(in language: Language) -> Bool { !(templates[language]?.isEmpty ?? true) }

    /// This catalog with the templates of `other` added, `other` winning where both have a key.
    public func merging(_ other: MessageCatalog) -> MessageCatalog {
        var copy = self
        for (language, entries) in other.templates {
            copy.templates[language, default: [:]].merge(entries) { _, new in new }
        }
        return copy
    }

    /// The template for `key` in `language`: falls back to English, then to the code's identifier,
    /// then to a generic message.
    public func template(for key: String, code: IssueCode, in language: Language) -> String {
        resolvedTemplate(for: key, code: code, in: language).text
    }

    /// The template and the language it was found in (English when `language` lacks the key), so
    /// the whole message renders in one language.
    func resolvedTemplate(for key: String, code: IssueCode, in language: Language) -> (text: String, language: Language)
    {
        func lookUp(_ candidate: Language) -> (text: String, language: Language)? {
            guard let entries = templates[candidate] else { return nil }
            return (entries[key] ?? entries[code.identifier] ?? entries["invalid"]).map { ($0, candidate) }
        }
        return lookUp(language) ?? lookUp(.english) ?? ("{subject} is invalid", .english)
    }

    /// Fills the placeholders of `template` from `issue`.
    public func render(_ template: String, for issue: ValidationIssue, in language: Language) -> String {
        // One scan of the template's bytes: text between placeholders is copied as it is (braces are
        // ASCII, so every cut falls between whole characters), into bytes made a string once.
        var text = template
        return text.withUTF8 { bytes -> String in
            guard var open = bytes.firstIndex(of: UInt8(ascii: "{")) else { return template }
            // The language's entries, looked up once for every placeholder that reads them.
            let entries = templates[language]
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + 32)
            var copied = 0
            while let close = bytes[open...].firstIndex(of: UInt8(ascii: "}")) {
                output.append(contentsOf: bytes[copied..<open])
                let body = UnsafeBufferPointer(rebasing: bytes[(open + 1)..<close])
                output.append(contentsOf: placeholder(body, issue: issue, language: language, entries: entries).utf8)
                copied = close + 1
                guard let next = bytes[copied...].firstIndex(of: UInt8(ascii: "{")) else { break }
                open = next
            }
            output.append(contentsOf: bytes[copied...])
            return String(decoding: output, as: UTF8.self)
        }
    }

    /// The text of the placeholder `{body}`; `entries` are the templates of `language`.
    private func placeholder(
        _ body: UnsafeBufferPointer<UInt8>, issue: ValidationIssue, language: Language, entries: [String: String]?
    ) -> String {
        if body.contains(UInt8(ascii: "|")) {
            // `{count|one form|other forms}`: cut on the bytes (a bar is ASCII).
            let parts = body.split(separator: UInt8(ascii: "|"), omittingEmptySubsequences: false).map {
                String(decoding: $0, as: UTF8.self)
            }
            let number = parameter(parts[0], issue: issue)
            return PluralRule.choose(Array(parts.dropFirst()), for: number, in: language)
        }
        // The names every message uses, told apart on the bytes: no string is made for them.
        if Self.bytes(body, are: "subject") { return subject(for: issue, in: language, entries: entries) }
        if Self.bytes(body, are: "value") { return issue.value.map { format($0, in: language) } ?? "" }
        let body = String(decoding: body, as: UTF8.self)
        if body.utf8.first == UInt8(ascii: "@") {
            // A parameter whose value names another message, e.g. `{@reason}` → key `reason.<value>`.
            let parameterName = String(body.dropFirst())
            guard let value = issue.parameters[parameterName] else { return "" }
            let key = "\(parameterName).\(value.description)"
            if let text = templates[language]?[key] ?? templates[.english]?[key] {
                return render(text, for: issue, in: language)
            }
            return value.description
        }
        switch body {
        case "value": return issue.value.map { format($0, in: language) } ?? ""
        case "key": return issue.key ?? ""
        case "path": return issue.path.jsonPointer
        case "code": return issue.code.description
        default:
            if let value = issue.parameters[body] { return format(value, in: language) }
            return "{\(body)}"
        }
    }

    /// Whether `bytes` are those of `text`.
    @inline(__always)
    private static func bytes(_ bytes: UnsafeBufferPointer<UInt8>, are text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount else { return false }
        let expected = text.utf8Start
        for index in 0..<bytes.count where bytes[index] != expected[index] { return false }
        return true
    }

    private func parameter(_ name: String, issue: ValidationIssue) -> IssueValue? {
        name == "value" ? issue.value : issue.parameters[name]
    }

    /// Strings render as they are; inside a list (the allowed values of a rule) they are quoted.
    private func format(_ value: IssueValue, in language: Language) -> String {
        guard case .list(let values) = value else { return value.description }
        let separator = language == .simplifiedChinese ? "、" : ", "
        return values.map { element in
            if case .string(let text) = element { return quoted(text, in: language) }
            return format(element, in: language)
        }.joined(separator: separator)
    }

    private func quoted(_ text: String, in language: Language) -> String {
        let (open, close) =
            templates[language]?["quotes"].flatMap { pair -> (String, String)? in
                let scalars = Array(pair)
                return scalars.count == 2 ? (String(scalars[0]), String(scalars[1])) : nil
            } ?? ("\u{201C}", "\u{201D}")
        return open + text + close
    }

    private func subject(for issue: ValidationIssue, in language: Language, entries: [String: String]?) -> String {
        let name = issue.label ?? issue.key
        let entries = entries ?? templates[.english] ?? [:]
        guard let name, !name.isEmpty else {
            return entries["subject.none"] ?? templates[.english]?["subject.none"] ?? "Value"
        }
        let template = entries["subject"] ?? "{label}"
        // An app catalog may name the field in each language: key `label.<label or key>`.
        let translated = entries["label." + name]
        let label = translated ?? (language == .english && issue.label == nil ? Self.capitalizingFirst(name) : name)
        return template == "{label}" ? label : template.replacingEvery("{label}", with: label)
    }

    static func capitalizingFirst(_ text: String) -> String {
        // Most field names start with an ASCII letter: no Unicode case mapping needed.
        if let byte = text.utf8.first, byte < 0x80 {
            guard byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") else { return text }
            var bytes = Array(text.utf8)
            bytes[0] -= 0x20
            return String(decoding: bytes, as: UTF8.self)
        }
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }
}

/// Plural forms by language, after the Unicode CLDR rules for integers.
enum PluralRule {
    static func choose(_ forms: [String], for number: IssueValue?, in language: Language) -> String {
        guard !forms.isEmpty else { return "" }
        let n: Int
        switch number {
        case .integer(let value): n = abs(value)
        case .number(let value) where value == value.rounded() && abs(value) < 1e15: n = Int(abs(value))
        default: return forms.last!
        }
        let index: Int
        switch language.identifier {
        case "ru", "uk", "be":
            // one: n%10 == 1 && n%100 != 11; few: n%10 in 2...4 && n%100 not in 12...14; many: others.
            if n % 10 == 1 && n % 100 != 11 {
                index = 0
            } else if (2...4).contains(n % 10) && !(12...14).contains(n % 100) {
                index = 1
            } else {
                index = 2
            }
        case "zh-Hans", "zh-Hant", "ja", "ko":
            index = 0
        default:
            index = n == 1 ? 0 : 1
        }
        return forms[min(index, forms.count - 1)]
    }
}
