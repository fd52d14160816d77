/// A message given by a rule or an app, in one or several languages.
///
/// Placeholders in braces are filled from the issue: `{subject}` (the value's name), any parameter
/// of the rule (`{minimum}`, `{maximum}`, `{pattern}` …), `{value}` (the offending value),
/// `{key}` and `{path}`. A plural choice `{minimum|character|characters}` picks a form by the number
/// (English: one, other; Russian: one, few, many; Chinese: a single form).
///
/// <!-- snippet: doc-message-template -->
/// ```swift
/// let rule = Rule<Int>.range(16...50)
///     .message([
///         .english: "Player's age should be in [16, 50].",
///         .russian: "Возраст игрока должен быть от 16 до 50.",
///     ])
/// print(rule.issues(for: 12)[0].message(in: .english))  // Player's age should be in [16, 50].
/// ```
public struct MessageTemplate: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByDictionaryLiteral {
    /// The texts by language.
    public var texts: [Language: String]

    /// Makes a template in several languages.
    public init(_ texts: [Language: String]) { self.texts = texts }

    /// Makes a template used for every language.
    public init(_ text: String) { texts = [.english: text] }

    /// Makes a template used for every language.
    public init(stringLiteral value: String) { self.init(value) }

    /// Makes a template from a literal of texts by language.
    public init(dictionaryLiteral elements: (Language, String)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// The text for `language`, else English, else any text.
    public func text(in language: Language) -> String? {
        resolved(in: language)?.text
    }

    func resolved(in language: Language) -> (text: String, language: Language)? {
        if let text = texts[language] { return (text, language) }
        if let text = texts[.english] { return (text, .english) }
        return texts.first.map { ($0.value, $0.key) }
    }
}
