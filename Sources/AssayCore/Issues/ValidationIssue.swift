#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One validation failure (or warning), as data.
///
/// An issue says *what* failed (``code``), *where* (``path``, ``object``, ``key``), *which rule*
/// (``ruleLocation``, ``parameters``), *with what* (``value``, ``valueType``), *how bad*
/// (``severity``), *when* (``phase``), and renders a message in any supported language:
///
/// <!-- snippet: doc-validation-issue -->
/// ```swift
/// do {
///     try Rule<Int>.range(16...50).evaluate(12)
/// } catch {
///     let issue = error.issues[0]
///     print(issue.code)  // tooSmall
///     print(issue.message(in: .russian))  // Значение должно быть от 16 до 50
/// }
/// ```
public struct ValidationIssue: Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public var code: IssueCode
    /// Where the value is, relative to the root of what was validated.
    public var path: IssuePath
    /// The object the value belongs to, where there is one.
    public var object: ObjectReference?
    /// Where the rule that failed is declared: a JSON Schema keyword location
    /// (`/properties/age/maximum`) or a Swift rule (`Client.age: range`).
    public var ruleLocation: String?
    /// The absolute location of the rule, e.g. the keyword location resolved against the schema's URI.
    public var absoluteRuleLocation: String?
    /// The rule's parameters, e.g. `["minimum": 16, "maximum": 50]`.
    public var parameters: [String: IssueValue]
    /// The offending value, or ``IssueValue/redacted`` when it is sensitive.
    public var value: IssueValue?
    /// The type of the offending value, e.g. `"Int"` or `"string"`.
    public var valueType: String?
    /// Whether this issue makes the value invalid or is only reported.
    public var severity: Severity
    /// When the issue was found.
    public var phase: Phase
    /// The key of the message template in a ``MessageCatalog``, e.g. `"range"`.
    public var messageKey: String
    /// A message given by the rule itself, which wins over the catalogs.
    public var customMessage: MessageTemplate?
    /// A human name for the value in messages, e.g. `"Age"`; defaults to the last key of ``path``.
    public var label: String?

    /// Makes an issue. Most issues are made by rules; make one yourself in custom validators.
    public init(
        code: IssueCode,
        path: IssuePath = .root,
        object: ObjectReference? = nil,
        ruleLocation: String? = nil,
        absoluteRuleLocation: String? = nil,
        parameters: [String: IssueValue] = [:],
        value: IssueValue? = nil,
        valueType: String? = nil,
        severity: Severity = .error,
        phase: Phase = .property,
        messageKey: String? = nil,
        message: MessageTemplate? = nil,
        label: String? = nil
    ) {
        self.code = code
        self.path = path
        self.object = object
        self.ruleLocation = ruleLocation
        self.absoluteRuleLocation = absoluteRuleLocation
        self.parameters = parameters
        self.value = value
        self.valueType = valueType
        self.severity = severity
        self.phase = phase
        self.messageKey = messageKey ?? code.identifier
        self.customMessage = message
        self.label = label
    }

    /// The property the issue is about: the last key of ``path``.
    public var key: String? { path.lastKey }

    /// Whether the issue makes the value invalid.
    public var isError: Bool { severity == .error }

    /// The Core Data error number for this issue: 1610/1620 numbers too large/small, 1630/1640 dates
    /// too late/soon, 1650 invalid date, 1660/1670 string too long/short, 1680 pattern, 1690 URI,
    /// 1570 missing, 1551 not unique, 1580/1590 too few/many, 1600 delete denied, 1550 otherwise.
    public var coreDataCode: Int {
        let isDate: Bool = {
            if case .date = value { return true }
            if case .date = parameters["minimum"] { return true }
            if case .date = parameters["maximum"] { return true }
            return false
        }()
        switch code {
        case .tooLarge: return isDate ? 1630 : 1610
        case .tooSmall: return isDate ? 1640 : 1620
        case .tooLong: return 1660
        case .tooShort: return 1670
        case .patternMismatch: return 1680
        case .missing, .blank: return 1570
        case .notUnique: return 1551
        case .tooFew: return 1580
        case .tooMany: return 1590
        case .deleteDenied: return 1600
        default:
            guard code.isInvalidFormat else { return 1550 }
            switch code.argument {
            case "uri", "url", "iri", "uri-reference", "iri-reference": return 1690
            case "date", "date-time", "time": return 1650
            default: return 1550
            }
        }
    }

    /// The message template in `language`: the rule's own message, else the catalog's.
    public func messageTemplate(in language: Language = .current, catalog: MessageCatalog = .current) -> String {
        resolvedTemplate(in: language, catalog: catalog).text
    }

    /// The template and the language it is in (English when `language` has none).
    package func resolvedTemplate(in language: Language, catalog: MessageCatalog) -> (text: String, language: Language)
    {
        if let customMessage, let resolved = customMessage.resolved(in: language) { return resolved }
        return catalog.resolvedTemplate(for: messageKey, code: code, in: language)
    }

    /// The message rendered in `language` with the parameters filled in. When neither the rule nor
    /// the catalog has a template in `language`, the whole message is rendered in English.
    public func message(in language: Language = .current, catalog: MessageCatalog = .current) -> String {
        let (template, resolvedLanguage) = resolvedTemplate(in: language, catalog: catalog)
        return catalog.render(template, for: self, in: resolvedLanguage)
    }

    /// The message in the current language (see ``Language/current``).
    public var message: String { message() }

    /// The issue with its value replaced by ``IssueValue/redacted``.
    public func redacted() -> ValidationIssue {
        var copy = self
        if copy.value != nil { copy.value = .redacted }
        return copy
    }

    /// `pointer: message`, or only the message at the root.
    public var description: String {
        path.isRoot ? message : "\(path.jsonPointer): \(message)"
    }
}
