#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A language that messages are rendered in, identified by a BCP 47 tag such as `"ru"` or `"zh-Hans"`.
///
/// Assay ships messages in ``english``, ``russian`` and ``simplifiedChinese``; apps may add any other
/// language through a ``MessageCatalog``. The language of a call is, in order: the one passed to it,
/// the one bound with ``withCurrent(_:operation:)`` for the current task, else the one a
/// ``LanguageSource`` prefers — ``LanguageSource/system`` unless ``withSource(_:operation:)`` binds
/// another: the user's preferred languages on Apple platforms (`Locale.preferredLanguages`), the
/// environment (`LC_ALL`, `LC_MESSAGES`, `LANG`) elsewhere — or English.
public struct Language: Hashable, Sendable, CustomStringConvertible {
    /// The normalised tag, e.g. `"en"`, `"ru"`, `"zh-Hans"`.
    public let identifier: String

    /// English (`en`), the fallback for every message.
    public static let english = Language(normalized: "en")
    /// Russian (`ru`).
    public static let russian = Language(normalized: "ru")
    /// Simplified Chinese (`zh-Hans`).
    public static let simplifiedChinese = Language(normalized: "zh-Hans")

    /// The languages Assay has built-in messages for.
    public static let builtIn: [Language] = [.english, .russian, .simplifiedChinese]

    private init(normalized: String) { identifier = normalized }

    /// Makes a language from a tag or a POSIX locale name: `"ru"`, `"ru_RU.UTF-8"`, `"zh-CN"`,
    /// `"zh_Hans"`, `"en-US"`. Chinese for mainland China and Singapore, and `zh` alone, mean
    /// Simplified Chinese; `zh-Hant`, `zh-TW` and `zh-HK` stay Traditional (`zh-Hant`).
    /// Returns `nil` for an empty or malformed tag.
    public init?(_ tag: String) {
        var base = tag
        if let dot = base.firstIndex(of: ".") { base = String(base[..<dot]) }
        if let at = base.firstIndex(of: "@") { base = String(base[..<at]) }
        let parts = base.split(whereSeparator: { $0 == "_" || $0 == "-" }).map(String.init)
        guard let first = parts.first?.lowercased(), (2...3).contains(first.count),
            first.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return nil }
        if first == "c" || first == "posix" { return nil }
        if first == "zh" {
            let rest = parts.dropFirst().map { $0.lowercased() }
            if rest.contains("hant") || rest.contains("tw") || rest.contains("hk") || rest.contains("mo") {
                identifier = "zh-Hant"
            } else {
                identifier = "zh-Hans"
            }
        } else {
            identifier = first
        }
    }

    /// The tag.
    public var description: String { identifier }

    @TaskLocal static var taskLanguage: Language?

    /// The language of the process's environment (`LC_ALL`, then `LC_MESSAGES`, then `LANG`), or English.
    public static let environment: Language = preferred(in: ProcessInfo.processInfo.environment)

    /// The language an environment asks for: the first of `LC_ALL`, `LC_MESSAGES` and `LANG` that is
    /// set and not empty decides (`C`, `POSIX` and malformed values mean English); none set, English.
    public static func preferred(in environment: [String: String]) -> Language {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[name], !value.isEmpty {
                return Language(value) ?? .english
            }
        }
        return .english
    }

    @TaskLocal static var taskSource: LanguageSource?

    /// The language messages are rendered in when a call names none: the task's, else the one the
    /// task's ``LanguageSource`` (``LanguageSource/system`` by default) prefers among those the
    /// current ``MessageCatalog`` has messages for.
    public static var current: Language {
        taskLanguage ?? (taskSource ?? .system).language(in: .current)
    }

    /// Runs `operation` with `source` deciding ``current`` for this task and the tasks it creates
    /// (when no language is bound with ``withCurrent(_:operation:)``).
    public static func withSource<R>(_ source: LanguageSource, operation: () throws -> R) rethrows -> R {
        try $taskSource.withValue(source, operation: operation)
    }

    /// Runs `operation` with `language` as ``current`` for this task and the tasks it creates.
    public static func withCurrent<R>(_ language: Language, operation: () throws -> R) rethrows -> R {
        try $taskLanguage.withValue(language, operation: operation)
    }
}

/// Where the language of messages comes from when neither a call nor its task names one: a ranked
/// list of language tags, of which the first with messages in the current ``MessageCatalog`` wins.
///
/// <!-- snippet: doc-language-source -->
/// ```swift
/// // What an app on Apple platforms gets by default, written out:
/// let source = LanguageSource.preferredLanguages(["de-CH", "ru-RU", "en"])
/// print(source.language())  // ru: Assay has no German messages, unless a catalog adds them
/// ```
public struct LanguageSource: Sendable {
    /// The tags, most preferred first (BCP 47 tags or POSIX locale names).
    public let preferredTags: [String]
    /// The tags read once: a language each, English for `C` and `POSIX`, malformed ones left out.
    private let languages: [Language]

    /// A source of these tags, most preferred first.
    public init(preferredTags: [String]) {
        self.preferredTags = preferredTags
        var languages: [Language] = []
        for tag in preferredTags {
            if let language = Language(tag) {
                languages.append(language)
            } else if let bare = tag.split(separator: ".").first?.uppercased(), bare == "C" || bare == "POSIX" {
                languages.append(.english)
                break  // English has every message: nothing after it is reached
            }
        }
        self.languages = languages
    }

    /// The platform's: on Apple platforms the user's preferred languages in the order the system
    /// ranks them (`Locale.preferredLanguages`, which apps there have instead of locale variables);
    /// elsewhere the process's environment (``environment(_:)``). Read once, at first use.
    public static let system: LanguageSource = {
        #if canImport(Darwin)
        return .preferredLanguages(Locale.preferredLanguages)
        #else
        return .environment(ProcessInfo.processInfo.environment)
        #endif
    }()

    /// The variables of an environment: the first of `LC_ALL`, `LC_MESSAGES` and `LANG` that is set
    /// and not empty (`C` and `POSIX` mean English), as ``Language/preferred(in:)`` reads them.
    public static func environment(_ variables: [String: String]) -> LanguageSource {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = variables[name], !value.isEmpty { return LanguageSource(preferredTags: [value]) }
        }
        return LanguageSource(preferredTags: [])
    }

    /// A ranked list of tags, as `Locale.preferredLanguages` gives them: `["de-CH", "ru-RU", "en"]`.
    public static func preferredLanguages(_ tags: [String]) -> LanguageSource {
        LanguageSource(preferredTags: tags)
    }

    /// The language these tags choose: the first whose language `catalog` has messages for, English
    /// when none has (or a tag is `C` or `POSIX`, which mean English).
    public func language(in catalog: MessageCatalog = .current) -> Language {
        languages.first { catalog.hasMessages(in: $0) } ?? .english
    }
}
