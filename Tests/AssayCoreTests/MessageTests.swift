import Foundation
import Testing

@testable import AssayCore

@Suite struct MessageTests {
    @Test func theEnvironmentsLanguage() {
        #expect(Language.preferred(in: ["LANG": "ru_RU.UTF-8"]) == .russian)
        #expect(Language.preferred(in: ["LC_MESSAGES": "zh_CN.UTF-8", "LANG": "ru"]) == .simplifiedChinese)
        #expect(Language.preferred(in: ["LC_ALL": "C", "LANG": "ru"]) == .english)
        #expect(Language.preferred(in: ["LC_ALL": "", "LANG": "ru"]) == .russian)
        #expect(Language.preferred(in: [:]) == .english)
    }

    /// Apple platforms rank languages (`Locale.preferredLanguages`), Linux names one in the
    /// environment: both through a `LanguageSource`, injected here; the first language with messages
    /// wins, an app's catalog included.
    @Test func languagesFromASource() throws {
        let apple = LanguageSource.preferredLanguages(["de-CH", "ru-RU", "en"])
        #expect(apple.language() == .russian, "no German messages: the next preferred language")
        let german = try #require(Language("de"))
        let withGerman = MessageCatalog.builtIn.merging(MessageCatalog([german: ["tooLarge": "{subject} ist zu groß"]]))
        #expect(apple.language(in: withGerman) == german)
        #expect(LanguageSource.preferredLanguages(["fr", "es"]).language() == .english)
        #expect(LanguageSource.environment(["LC_ALL": "C", "LANG": "ru"]).language() == .english)
        #expect(LanguageSource.environment(["LANG": "zh_CN.UTF-8"]).language() == .simplifiedChinese)
        #expect(LanguageSource.environment([:]).language() == .english)

        let issue = try #require(Rule<Int>.range(...10).issues(for: 12).first)
        Language.withSource(.preferredLanguages(["ja", "zh-Hans-CN"])) {
            #expect(Language.current == .simplifiedChinese)
            #expect(issue.message == "值不能大于 10")
            // A language bound to the task still comes first.
            Language.withCurrent(.russian) { #expect(Language.current == .russian) }
        }
        MessageCatalog.withCurrent(withGerman) {
            Language.withSource(apple) { #expect(issue.message == "Value ist zu groß") }
        }
    }

    @Test func rangeInThreeLanguages() throws {
        let issue = try #require(Rule<Int>.range(16...50).issues(for: 12, label: "Age").first)
        #expect(issue.message(in: .english) == "Age must be between 16 and 50")
        #expect(issue.message(in: .russian) == "Значение поля «Age» должно быть от 16 до 50")
        #expect(issue.message(in: .simplifiedChinese) == "Age必须在 16 到 50 之间")
    }

    @Test func subjectWithoutLabel() throws {
        let issue = try #require(Rule<Int>.range(...10).issues(for: 12).first)
        #expect(issue.message(in: .english) == "Value must be at most 10")
        #expect(issue.message(in: .russian) == "Значение должно быть не больше 10")
        #expect(issue.message(in: .simplifiedChinese) == "值不能大于 10")
    }

    /// Templates are filled on their bytes: text around placeholders in any script, an unclosed
    /// brace, an unknown placeholder, plural forms, and keys capitalized whatever their first letter.
    @Test func templatesRenderOnTheirBytes() {
        let catalog = MessageCatalog([
            .english: [
                "a": "Größe {subject}: {minimum} {minimum|item|items} — {nothing} {open", "b": "{subject}",
                "c": "no placeholders", "d": "{minimum|one}|{minimum}",
            ]
        ])
        func render(_ key: String, _ name: String, _ minimum: Int) -> String {
            let issue = ValidationIssue(
                code: .tooShort, path: IssuePath([.key(name)]), parameters: ["minimum": .integer(minimum)],
                messageKey: key)
            return issue.message(in: .english, catalog: catalog)
        }
        #expect(render("a", "zoë", 1) == "Größe Zoë: 1 item — {nothing} {open")
        #expect(render("a", "éclair", 3) == "Größe Éclair: 3 items — {nothing} {open")
        #expect(render("b", "_id", 0) == "_id")
        #expect(render("b", "Name", 0) == "Name")
        #expect(render("b", "日本", 0) == "日本")
        #expect(render("c", "x", 0) == "no placeholders")
        #expect(render("d", "x", 2) == "one|2")
    }

    @Test func keyIsCapitalizedInEnglishOnly() throws {
        let issue = ValidationIssue(code: .missing, path: ["name"])
        #expect(issue.message(in: .english) == "Name is required")
        #expect(issue.message(in: .russian) == "Значение поля «name» обязательно")
        #expect(issue.message(in: .simplifiedChinese) == "name为必填项")
    }

    @Test(arguments: [
        (1, "не менее 1 символа"), (2, "не менее 2 символов"), (5, "не менее 5 символов"), (11, "не менее 11 символов"),
        (21, "не менее 21 символа"), (22, "не менее 22 символов"), (112, "не менее 112 символов"),
    ])
    func russianPluralForms(_ minimum: Int, _ expected: String) throws {
        let issue = try #require(Rule<String>.length(minimum...).issues(for: "").first)
        #expect(issue.message(in: .russian) == "Значение должно содержать \(expected)")
    }

    @Test func englishPluralForms() throws {
        let one = try #require(Rule<String>.length(1...).issues(for: "").first)
        #expect(one.message(in: .english) == "Value must be at least 1 character long")
        let two = try #require(Rule<String>.length(2...).issues(for: "").first)
        #expect(two.message(in: .english) == "Value must be at least 2 characters long")
        let exact = try #require(Rule<String>.length(3...3).issues(for: "ab").first)
        #expect(exact.message(in: .english) == "Value must be exactly 3 characters long")
        #expect(exact.message(in: .russian) == "Значение должно содержать ровно 3 символа")
    }

    @Test func customMessagePerRuleWinsInEveryLanguage() throws {
        let rule = Rule<Int>.range(16...50).message([
            .english: "Player's age should be in [{minimum}, {maximum}].",
            .russian: "Возраст игрока должен быть в пределах [{minimum}, {maximum}].",
        ])
        let issue = try #require(rule.issues(for: 60).first)
        #expect(issue.message(in: .english) == "Player's age should be in [16, 50].")
        #expect(issue.message(in: .russian) == "Возраст игрока должен быть в пределах [16, 50].")
        #expect(issue.message(in: .simplifiedChinese) == "Player's age should be in [16, 50].", "falls back to English")
        #expect(issue.code == .tooLarge, "the code stays")
    }

    @Test func appCatalogOverridesAndAddsLanguages() throws {
        let german = try #require(Language("de-DE"))
        let catalog = MessageCatalog.builtIn.merging(
            MessageCatalog([
                .english: ["tooShort": "{subject} is too short (min {minimum})"],
                german: ["subject.none": "Wert", "tooShort": "{subject} ist zu kurz", "label.name": "Der Name"],
                .russian: ["label.name": "имя"],
            ]))
        let issue = try #require(Rule<String>.length(5...).issues(for: "ab").first)
        #expect(issue.message(in: .english, catalog: catalog) == "Value is too short (min 5)")
        #expect(issue.message(in: german, catalog: catalog) == "Wert ist zu kurz")
        let named = try #require(Rule<String>.length(5...).issues(for: "ab", at: ["name"]).first)
        #expect(named.message(in: german, catalog: catalog) == "Der Name ist zu kurz")
        #expect(
            named.message(in: .russian, catalog: catalog) == "Значение поля «имя» должно содержать не менее 5 символов")
        let other = try #require(Rule<Int>.range(...1).issues(for: 2).first)
        #expect(
            other.message(in: german, catalog: catalog) == "Value must be at most 1",
            "unknown keys fall back to English")
        MessageCatalog.withCurrent(catalog) {
            #expect(issue.message(in: .english) == "Value is too short (min 5)")
        }
    }

    @Test func templateEdgeCases() throws {
        let issue = try #require(Rule<Int>.range(16...50).issues(for: 60, label: "Age").first)
        let catalog = MessageCatalog.builtIn
        #expect(catalog.render("no placeholders", for: issue, in: .english) == "no placeholders")
        #expect(catalog.render("", for: issue, in: .english) == "")
        #expect(catalog.render("{maximum}", for: issue, in: .english) == "50")
        #expect(catalog.render("{maximum}{minimum}!", for: issue, in: .english) == "5016!")
        #expect(catalog.render("≤ {maximum} – «{subject}»", for: issue, in: .english) == "≤ 50 – «Age»")
        #expect(catalog.render("{unknown} stays", for: issue, in: .english) == "{unknown} stays")
        #expect(catalog.render("open {maximum", for: issue, in: .english) == "open {maximum")
        #expect(catalog.render("{maximum} then open {", for: issue, in: .english) == "50 then open {")
        #expect(catalog.render("{}", for: issue, in: .english) == "{}")
        #expect(catalog.render("{maximum|year|years}", for: issue, in: .english) == "years")
        #expect(catalog.render("{maximum|год|года|лет}", for: issue, in: .russian) == "лет")
        let labelled = MessageCatalog([.english: ["subject": "the field {label} ({label})"]])
        #expect(labelled.render("{subject}!", for: issue, in: .english) == "the field Age (Age)!")
    }

    @Test func replacingEveryMatchesTheStandardLibrary() {
        let cases: [(String, String, String)] = [
            ("", "~", "~0"), ("abc", "~", "~0"), ("~", "~", "~0"), ("a~b~~c~", "~", "~0"), ("a/b", "/", "~1"),
            ("{label}", "{label}", "Имя"), ("x {label} y {label}", "{label}", "名前"), ("{labe", "{label}", "z"),
            ("«{label}»é", "{label}", "L"), ("a_b__c", "_", ""), ("\\\"", "\\", "\\\\"), ("aaaa", "aa", "b"),
        ]
        for (text, target, replacement) in cases {
            #expect(text.replacingEvery(target, with: replacement) == text.replacing(target, with: replacement))
        }
        // Code points, not characters, are matched: a `~` that a combining mark follows is still
        // escaped (RFC 6901 escapes every `~`), where the standard library sees one character `~́`.
        #expect("a~\u{301}".replacingEvery("~", with: "~0") == "a~0\u{301}")
    }

    @Test func unknownLanguageFallsBackToEnglish() throws {
        let issue = try #require(Rule<Int>.range(1...2).issues(for: 3).first)
        #expect(issue.message(in: try #require(Language("fr"))) == "Value must be between 1 and 2")
    }

    @Test func languageTagsNormalize() {
        #expect(Language("ru_RU.UTF-8") == .russian)
        #expect(Language("zh-CN") == .simplifiedChinese)
        #expect(Language("zh_Hans_SG") == .simplifiedChinese)
        #expect(Language("zh") == .simplifiedChinese)
        #expect(Language("zh-TW")?.identifier == "zh-Hant")
        #expect(Language("en-US") == .english)
        #expect(Language("EN") == .english)
        #expect(Language("C") == nil)
        #expect(Language("") == nil)
        #expect(Language("12") == nil)
    }

    @Test func currentLanguageIsTaskLocal() throws {
        let issue = try #require(Rule<Int>.range(1...2).issues(for: 3).first)
        Language.withCurrent(.simplifiedChinese) {
            #expect(issue.message == "值必须在 1 到 2 之间")
        }
        Language.withCurrent(.russian) {
            #expect(ValidationError([issue]).text() == "Значение должно быть от 1 до 2")
        }
    }

    @Test func datesRenderAsISODates() throws {
        let start = Date(timeIntervalSince1970: 0)
        let issue = try #require(Rule<Date>.range(start...).issues(for: Date(timeIntervalSince1970: -86_400)).first)
        #expect(issue.message(in: .english) == "Value must be on or after 1970-01-01")
        #expect(issue.message(in: .russian) == "Значение должно быть не раньше 1970-01-01")
        #expect(issue.message(in: .simplifiedChinese) == "值不能早于 1970-01-01")
        #expect(issue.coreDataCode == 1640)
    }

    @Test func allowedValuesAreQuotedInLists() throws {
        let issue = try #require(Rule<String>.oneOf(["red", "green"]).issues(for: "blue").first)
        #expect(issue.message(in: .english) == "Value must be one of: “red”, “green”")
        #expect(issue.message(in: .russian) == "Значение должно быть одним из: «red», «green»")
        #expect(issue.message(in: .simplifiedChinese) == "值必须是以下值之一：“red”、“green”")
    }

    /// Every code a built-in rule reports has a message in every built-in language, and every
    /// template's keys exist in all three catalogs.
    @Test func catalogsHaveTheSameKeys() {
        let english = Set(BuiltInMessages.english.keys)
        #expect(Set(BuiltInMessages.russian.keys) == english)
        #expect(Set(BuiltInMessages.simplifiedChinese.keys) == english)
    }

    @Test func everyCodeRendersWithoutPlaceholdersLeft() {
        let codes: [IssueCode] = [
            .tooLong, .tooShort, .tooLarge, .tooSmall, .patternMismatch, .missing, .blank, .typeMismatch, .notAllowed,
            .invalidCharacters, .notUnique, .tooFew, .tooMany, .deleteDenied, .notMultiple, .noMatch, .unstable,
            .malformed, .coerced, .unknownKey, .invalidFormat("email"), .invalidFormat("uuid"), .custom("x"),
        ]
        let parameters: [String: IssueValue] = [
            "minimum": 1, "maximum": 2, "pattern": "p", "expected": "integer", "allowed": .list(["a"]),
            "character": "@", "duplicate": 3, "multipleOf": 5, "count": 2, "passes": 8, "detail": "d", "from": "string",
            "to": "integer", "reason": "empty", "format": "uuid",
        ]
        for code in codes {
            for language in Language.builtIn {
                let message = ValidationIssue(code: code, path: ["field"], parameters: parameters).message(in: language)
                #expect(!message.contains("{") && !message.contains("}"), "\(code) in \(language): \(message)")
                #expect(!message.isEmpty)
            }
        }
    }
}
