#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A language that messages are rendered in, identified by a BCP 47 tag such as `"ru"` or `"zh-Hans"`.
///
/// Assay ships messages in ``english``, ``russian`` and ``simplifiedChinese``; apps may add any other
/// language through a ``MessageCatalog``. The language of a call is, in order: the one passed to it,
/// the one bound with ``withCurrent(_:operation:)`` for the current task, the one the environment names
/// (`LC_ALL`, `LC_MESSAGES`, `LANG`), or English.
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

    /// The language messages are rendered in when a call names none: the task's, else the
    /// environment's.
    public static var current: Language { taskLanguage ?? environment }

    /// Runs `operation` with `language` as ``current`` for this task and the tasks it creates.
    public static func withCurrent<R>(_ language: Language, operation: () throws -> R) rethrows -> R {
        try $taskLanguage.withValue(language, operation: operation)
    }
}
