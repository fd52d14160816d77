import Testing

@testable import AssayRegex

@Suite struct RegexOptionsTests {
    /// (pattern, input, flags, V8's verdict with those flags and `u`: node 20, `new RegExp(p, f + "u").test(s)`)
    static let cases: [(String, String, String, Bool)] = [
        ("^abc$", "ABC", "i", true),
        ("^abc$", "ABC", "", false),
        ("k", "\u{212A}", "i", true),
        ("^\\w$", "\u{17F}", "i", true),
        ("^\\w$", "\u{17F}", "", false),
        ("\\W", "S", "i", false),
        ("\\W", "\u{17F}", "i", false),
        ("[^k]", "K", "i", false),
        ("[^k]", "\u{212A}", "i", false),
        ("^\\p{Lu}$", "a", "i", true),
        ("^\\P{Lu}$", "A", "i", true),
        ("^\\P{Ll}$", "a", "i", true),
        ("\u{DF}", "\u{1E9E}", "i", true),
        ("\u{3C3}", "\u{3C2}", "i", true),
        ("\u{3A3}", "\u{3C2}", "i", true),
        ("\u{130}", "i", "i", false),
        ("i", "\u{130}", "i", false),
        ("a\\b", "a\u{17F}", "i", false),
        ("a\\b", "a\u{17F}", "", true),
        ("^[\\u0100-\\u017F]+$", "\u{100}\u{101}K", "i", false),
        ("^[^\\W]$", "\u{212A}", "i", true),
        ("^[\\W]$", "\u{212A}", "i", false),
        ("\\u{10400}", "\u{10428}", "i", true),
        ("^b", "a\u{A}b", "m", true),
        ("^b", "a\u{A}b", "", false),
        ("a$", "a\u{A}b", "m", true),
        ("a$", "a\u{2028}b", "m", true),
        ("^$", "\u{A}", "m", true),
        ("^$", "\u{D}\u{A}", "m", true),
        ("^.$", "\u{A}", "s", true),
        ("^.$", "\u{A}", "", false),
        ("^.$", "\u{2029}", "s", true),
        ("(?<=^|,)x", "a,x", "m", true),
        ("^x", "\u{A}x", "im", true),
        ("^[a-z]{2}-\\d+$", "AB-12", "i", true),
        ("[^a-z]", "\u{3A9}", "i", true),
        ("^\\S+$", "\u{17F}", "i", true),
        ("^[\\w-]+$", "K-\u{17F}", "i", true),
        ("^[\\s\\S]$", "\u{A}", "", true),
        ("x(?=$)", "x\u{A}y", "m", true),
        ("(?<!^)y", "\u{A}y", "m", false),
        ("\\By", "\u{A}y", "m", false),
        ("^\\d$", "\u{661}", "i", false),
    ]

    @Test(arguments: cases)
    func flagsMatchAsV8Does(pattern: String, input: String, flags: String, expected: Bool) throws {
        let options = try #require(LinearRegex.Options(flags: flags))
        let regex = try LinearRegex(pattern, options: options)
        #expect(regex.firstMatchExists(in: input) == expected, "/\(pattern)/\(flags)u on \(input.debugDescription)")
        #expect(regex.firstMatchExistsWithPikeVM(in: input.unicodeScalars) == expected)
        #expect(regex.firstMatchExists(in: input.unicodeScalars, engine: .bitParallel) == expected)
    }

    @Test func flagsAreReadAsRegExpTakesThem() {
        #expect(LinearRegex.Options(flags: "") == [])
        #expect(LinearRegex.Options(flags: "ims") == [.ignoreCase, .multiline, .dotAll])
        #expect(LinearRegex.Options(flags: "gu") == [])
        #expect(LinearRegex.Options(flags: "ii") == nil)
        #expect(LinearRegex.Options(flags: "v") == nil)
        #expect(LinearRegex.Options(flags: "x") == nil)
        #expect(LinearRegex.Options([.dotAll, .ignoreCase]).flags == "is")
    }

    @Test func ignoringCaseKeepsLargeClassesCheap() throws {
        // A class too large to close scalar by scalar tests a scalar's case variants as it is read.
        let regex = try LinearRegex("^[\\u{100}-\\u{10FFFF}]+$", options: .ignoreCase)
        #expect(regex.firstMatchExists(in: "ĀāΩ"))
        #expect(!regex.firstMatchExists(in: "Āa"))
        // k folds like K (U+212A), which the class holds.
        #expect(regex.firstMatchExists(in: "Āk"))
    }

    @Test func optionsAreKept() throws {
        let regex = try LinearRegex("a", options: [.multiline])
        #expect(regex.options == .multiline)
        #expect(try LinearRegex("a").options == [])
    }
}

@Suite struct FirstMatchTests {
    /// The matched text of the first match, as `RegExp.prototype.exec` gives it (node 20).
    static let cases: [(pattern: String, flags: String, input: String, match: String?)] = [
        ("\\d+", "", "order 66, item 7", "66"),
        ("a+?", "", "xaaa", "a"),
        ("a*?b", "", "aab", "aab"),
        ("(?:a|ab)(?:c|bcd)", "", "abcd", "abcd"),
        ("(?:|a){0,2}", "", "aa", "aa"),
        ("(?:a??){2}", "", "aa", ""),
        ("(?<=\\$)\\d+(?=\\.)", "", "cost $42.50", "42"),
        ("^b", "m", "a\nb", "b"),
        ("k+", "i", "xK\u{212A}k!", "K\u{212A}k"),
        ("é", "", "cafe\u{301} café", "é"),
        ("\\bword\\b", "", "swordfish word", "word"),
        ("x", "", "abc", nil),
    ]

    @Test(arguments: cases)
    func findsTheMatchV8Finds(pattern: String, flags: String, input: String, match: String?) throws {
        let regex = try LinearRegex(pattern, options: try #require(LinearRegex.Options(flags: flags)))
        let range = regex.firstMatch(in: input)
        #expect(
            range.map { String(input.unicodeScalars[$0]) } == match, "/\(pattern)/\(flags) on \(input.debugDescription)"
        )
    }

    @Test func rangesOfASubstringAreItsOwn() throws {
        let text = "id: ab-12, id: cd-34"
        let tail = text[text.firstIndex(of: ",")!...]
        let regex = try LinearRegex("[a-z]{2}-\\d+")
        let range = try #require(regex.firstMatch(in: tail))
        #expect(tail[range] == "cd-34")
        #expect(text[range] == "cd-34")
    }
}
