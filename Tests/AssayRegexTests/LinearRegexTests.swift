import Testing

@testable import AssayRegex

@Suite struct LinearRegexTests {
    /// (pattern, input, matches)
    static let cases: [(String, String, Bool)] = [
        ("abc", "xxabcxx", true),
        ("^abc$", "abc", true),
        ("^abc$", "abcd", false),
        ("a|b|c", "zzc", true),
        ("^(ab|cd)+$", "abcdab", true),
        ("^(ab|cd)+$", "abcda", false),
        ("^a*$", "", true),
        ("^a+$", "", false),
        ("^a?b$", "b", true),
        ("^a{2}$", "aa", true),
        ("^a{2}$", "aaa", false),
        ("^a{2,}$", "aaaa", true),
        ("^a{2,3}$", "aaaa", false),
        ("^a{0}$", "", true),
        ("^a+?$", "aaa", true),
        ("^.$", "\n", false),
        ("^.$", "é", true),
        ("^.$", "😀", true),
        ("^[a-c]+$", "abcabc", true),
        ("^[^a-c]+$", "xyz", true),
        ("^[^a-c]+$", "xaz", false),
        ("^[\\d]+$", "123", true),
        ("^\\d+$", "١٢٣", false),
        ("^\\w+$", "snake_case1", true),
        ("^\\w+$", "кириллица", false),
        ("^\\W+$", "!?", true),
        ("^\\s+$", " \t\u{A0}\u{3000}\u{FEFF}", true),
        ("^\\S+$", "a b", false),
        ("\\bfoo\\b", "a foo b", true),
        ("\\bfoo\\b", "afoob", false),
        ("\\Bfoo", "afoo", true),
        ("^\\p{L}+$", "Ελληνικά", true),
        ("^\\p{Letter}+$", "漢字", true),
        ("^\\p{Lu}", "Abc", true),
        ("^\\p{Lu}", "abc", false),
        ("^\\P{L}+$", "123", true),
        ("^[\\p{L}\\p{M} ]+$", "अजय कुमार", true),
        ("^\\p{Nd}+$", "١٢٣", true),
        ("^\\p{General_Category=Decimal_Number}$", "7", true),
        ("^\\p{gc=Lu}$", "a", false),
        ("^\\p{Any}$", "\u{10FFFF}", true),
        ("^\\p{Script=Greek}+$", "Ωμέγα", true),
        ("^\\p{Script=Greek}+$", "Omega", false),
        ("^\\p{sc=Grek}$", "\u{2126}", true),  // OHM SIGN is Greek
        ("^\\p{sc=Cyrillic}+$", "Жизнь", true),
        ("^\\p{sc=Cyrl}$", "\u{1D2B}", true),  // MODIFIER LETTER CYRILLIC EN, in a Latin block
        ("^\\p{Script=Latin}+$", "Ωmega", false),
        ("^\\P{Script=Latin}+$", "漢字", true),
        ("^\\p{Script=Han}+$", "漢字", true),
        ("^\\p{Script=Common}$", "\u{30FB}", true),  // KATAKANA MIDDLE DOT: Common, used by several
        ("^\\p{Script=Hiragana}$", "\u{30FB}", false),
        ("^\\p{Script_Extensions=Hiragana}$", "\u{30FB}", true),
        ("^\\p{scx=Hani}$", "\u{30FB}", true),
        ("^\\p{Script=Inherited}$", "\u{342}", true),  // COMBINING GREEK PERISPOMENI
        ("^\\p{Script=Greek}$", "\u{342}", false),
        ("^\\p{scx=Greek}$", "\u{342}", true),
        ("^\\p{sc=Zinh}$", "\u{951}", true),  // DEVANAGARI STRESS SIGN UDATTA
        ("^\\p{scx=Deva}$", "\u{951}", true),
        ("^\\p{Script=Unknown}$", "\u{10FFFF}", true),
        ("^\\p{sc=Zzzz}$", "a", false),
        ("^[\\p{sc=Latn}\\p{sc=Grek}]+$", "alphaβ", true),
        ("^[\\w-]+$", "a-b_c", true),
        ("^[a\\-z]+$", "-", true),
        ("^[-a]+$", "-a", true),
        ("^[a-]+$", "a-", true),
        ("^\\u0041$", "A", true),
        ("^\\u{1F600}$", "😀", true),
        ("^\\uD83D\\uDE00$", "😀", true),
        ("^\\x41$", "A", true),
        ("^\\t\\n$", "\t\n", true),
        ("^\\cJ$", "\n", true),
        ("^\\0$", "\u{0}", true),
        ("^\\.$", ".", true),
        ("^\\.$", "a", false),
        ("^\\/$", "/", true),
        ("^(?:ab)+$", "abab", true),
        ("^(?<year>\\d{4})-\\d{2}$", "2024-01", true),
        ("^[\\b]$", "\u{8}", true),
        ("^$", "", true),
        ("", "anything", true),
        ("^(a|)+$", "aaa", true),
        ("^(a*)*$", "aaaa", true),
        ("^(a*)*b$", "aaaac", false),
        ("^[^]$", "a", true),
        ("^[^]$", "\n", true),
        ("^[]$", "", false),
    ]

    @Test(arguments: cases)
    func matchesLikeECMAScript(_ pattern: String, _ input: String, _ expected: Bool) throws {
        let regex = try LinearRegex(pattern)
        #expect(regex.firstMatchExists(in: input) == expected)
    }

    static let malformed: [String] = [
        "(", ")", "(?", "[a", "a{2,1}", "*", "+a", "a**", "\\", "[z-a]", "\\p{Nope}", "\\p{L", "\\u{110000}",
        "\\a", "\\e", "(?<>a)", "(?<a b>x)", "(?x)", "\\c1", "\\xZZ", "\\00",
        // Script names are exact, with the property named: no lone script, no loose matching.
        "\\p{Script=Klingon}", "\\p{Greek}", "\\p{script=Greek}", "\\p{Script=greek}", "\\p{Block=Greek}",
    ]

    /// The Script tables partition the code points: every scalar value has exactly one script
    /// (code points not yet assigned are `Unknown`).
    @Test func everyCodePointHasExactlyOneScript() {
        var ranges: [(start: UInt32, end: UInt32)] = []
        for list in UnicodeScripts.script {
            for index in stride(from: 0, to: list.count, by: 2) {
                ranges.append((list[index], index + 1 < list.count ? list[index + 1] : 0x11_0000))
            }
        }
        ranges.sort { $0.start < $1.start }
        var next: UInt32 = 0
        for range in ranges {
            #expect(range.start == next, "gap or overlap at U+\(String(range.start, radix: 16))")
            next = range.end
        }
        #expect(next == 0x11_0000)
        #expect(Set(UnicodeScripts.extensionsThatDiffer.keys).isSubset(of: Set(UnicodeScripts.script.indices)))
        #expect(Set(UnicodeScripts.names.values) == Set(UnicodeScripts.script.indices))
    }

    @Test(arguments: malformed)
    func rejectsMalformedPatternsWithAPosition(_ pattern: String) {
        do {
            _ = try LinearRegex(pattern)
            Issue.record("compiled \(pattern)")
        } catch {
            #expect(!error.isUnsupportedFeature)
            #expect(error.offset >= 0 && error.offset <= pattern.unicodeScalars.count)
            #expect(error.description.hasPrefix("invalid regular expression"))
        }
    }

    @Test(arguments: ["(a)\\1", "(?<n>a)\\k<n>", "(?<n>a)(?=\\k<n>)", "a{100001}"])
    func refusesWhatALinearEngineCannotRun(_ pattern: String) {
        do {
            _ = try LinearRegex(pattern)
            Issue.record("compiled \(pattern)")
        } catch {
            #expect(error.isUnsupportedFeature, "\(error)")
        }
    }

    /// `format: "regex"` checks a string without making its automata: the same patterns pass and
    /// fail, with the same error, as when they are compiled whole.
    @Test func checkingThatAPatternCompilesAgreesWithCompilingIt() {
        let patterns =
            Self.malformed + LazyDFATests.patterns + [
                "(a)\\1", "(?<n>a)\\k<n>", "a{100001}", "(a{1000}){1000}", "[^x]{0,99999}y", "^[^x]{0,4000}y$",
                "(?<=a)b", "\\bword\\b", "^(?=.*[A-Z])(?=.*\\d).{8,}$",
            ]
        for pattern in patterns {
            for size in [LinearRegex.defaultMaximumProgramSize, 50] {
                var compiled: RegexSyntaxError?
                var checked: RegexSyntaxError?
                do { _ = try LinearRegex(pattern, maximumProgramSize: size) } catch { compiled = error }
                do { try LinearRegex.checkCompiles(pattern, maximumProgramSize: size) } catch { checked = error }
                #expect(checked?.description == compiled?.description, "\(pattern), size \(size)")
                #expect(checked?.isUnsupportedFeature == compiled?.isUnsupportedFeature, "\(pattern)")
            }
        }
    }

    @Test func refusesPatternsThatExpandTooFar() {
        #expect(throws: RegexSyntaxError.self) { try LinearRegex("(a{1000}){1000}") }
    }

    /// Issue 23: `[^x]{0,99999}y` compiled to 200,000 instructions (11 s to match 16 K characters).
    /// The automaton is capped (10,000 by default), the cap an option, crossing it a clear error.
    @Test func countedRepetitionsAreCappedByAnOption() throws {
        do {
            _ = try LinearRegex("[^x]{0,99999}y")
            Issue.record("compiled")
        } catch {
            #expect(error.isUnsupportedFeature)
            #expect(
                error.reason == "the pattern expands to more than 10000 instructions, the limit on a pattern's size")
        }
        let roomy = try LinearRegex("[^x]{0,99999}y", maximumProgramSize: 300_000)
        #expect(roomy.programSize > 100_000)
        #expect(roomy.firstMatchExists(in: "aay"))
        let fits = try LinearRegex("^[^x]{0,4000}y$")
        #expect(fits.programSize <= LinearRegex.defaultMaximumProgramSize)
        #expect(fits.firstMatchExists(in: String(repeating: "a", count: 4_000) + "y"))
        #expect(!fits.firstMatchExists(in: String(repeating: "a", count: 4_001) + "y"))
        // Nested counts of nothing compile to nothing, at once (they looped 10¹⁰ times).
        #expect(try LinearRegex("((a{0}){99999}){99999}b").firstMatchExists(in: "b"))
    }

    /// Issue 23: each range added to a class rebuilt the class's ASCII bitmap from every range so far
    /// (a 12 KB class took 24 s). Large classes now build in linear time, and still match exactly.
    @Test func largeClassesCompileAndMatch() throws {
        let ranges = (0..<3_000).map { index -> String in
            let low = 0x4E00 + index * 4
            return "\\u" + String(low, radix: 16) + "-\\u" + String(low + 1, radix: 16)
        }
        let regex = try LinearRegex("^[a-c" + ranges.joined() + "]+$")
        #expect(regex.firstMatchExists(in: "abc\u{4E00}\u{4E01}\u{4E04}"))
        #expect(!regex.firstMatchExists(in: "\u{4E02}"))
        #expect(!regex.firstMatchExists(in: "d"))
        let negated = try LinearRegex("^[^\\d\\sA-Z" + ranges.joined() + "]$")
        #expect(negated.firstMatchExists(in: "a"))
        #expect(!negated.firstMatchExists(in: "7") && !negated.firstMatchExists(in: " "))
        #expect(!negated.firstMatchExists(in: "Q") && !negated.firstMatchExists(in: "\u{4E05}"))
        #expect(negated.firstMatchExists(in: "\u{4E06}"))
        #expect(try LinearRegex("^[\\W]$").firstMatchExists(in: "-"))
        #expect(try !LinearRegex("^[\\W]$").firstMatchExists(in: "_"))
    }

    /// The pattern that a backtracking engine takes exponential time on finishes (no timing
    /// assertion: the point is that the call returns, with the right answer).
    @Test func catastrophicPatternsRunInLinearTime() throws {
        let input = String(repeating: "a", count: 100_000) + "!"
        #expect(try LinearRegex("^(a+)+$").firstMatchExists(in: input) == false)
        #expect(try LinearRegex("^(a|a)*$").firstMatchExists(in: input) == false)
        #expect(try LinearRegex("(a*)*b").firstMatchExists(in: input) == false)
        #expect(try LinearRegex("^(a|aa)+$").firstMatchExists(in: String(repeating: "a", count: 100_000)) == true)
        #expect(try LinearRegex("(x+x+)+y").firstMatchExists(in: String(repeating: "x", count: 50_000)) == false)
    }

    @Test func deeplyNestedGroupsAreRefusedNotOverflowed() {
        let deep = String(repeating: "(", count: 10_000) + "a" + String(repeating: ")", count: 10_000)
        #expect(throws: RegexSyntaxError.self) { try LinearRegex(deep) }
        let fine = String(repeating: "(", count: 100) + "a" + String(repeating: ")", count: 100)
        #expect((try? LinearRegex(fine))?.firstMatchExists(in: "a") == true)
    }
}

@Suite struct BitParallelRunnerTests {
    /// Every pattern small enough for the bit-parallel runner must answer as the Pike VM does.
    @Test func agreesWithThePikeVM() throws {
        let patterns = [
            "^[A-Z0-9][A-Z0-9 -]{1,8}[A-Z0-9]$", "^a*$", "a|b", "^(ab|a)c$", "x+y", "^$", "$", "^", "colou?r",
            "^[^a-c]+$", "\\d{3}-\\d{4}", "^(a|b)*abb$", "[é-ü]", "^\\p{L}+$", "^.{2,3}$", "(?:)", "a{0}b",
            "^(postgres|sqlite)://", "\\s", "^\\S+@\\S+$", "b$", "^a|b$",
        ]
        let inputs = [
            "", "a", "b", "ab", "abc", "ac", "aac", "xy", "xxxy", "color", "colour", "colouur", "def", "abd",
            "555-1234", "abb", "aabb", "babb", "é", "ü", "e", "Ωmega", "ab1", "SW1A 1AA", "sw1a", "12345",
            "12345678901", "postgres://x", "mysql://x", "a b", "ann@example.com", "@", "ba", "x\u{1F600}y",
            "vip", "churn-risk", "9lives",
        ]
        for pattern in patterns {
            let regex = try LinearRegex(pattern)
            #expect(regex.usesBitParallelRunner, "\(pattern)")
            for input in inputs {
                #expect(
                    regex.firstMatchExists(in: input) == regex.firstMatchExistsWithPikeVM(in: input.unicodeScalars),
                    "\(pattern) on \(input)")
            }
        }
    }

    @Test func asciiBytesMatchAsTheirString() throws {
        for pattern in ["^[A-Z0-9][A-Z0-9 -]{1,8}[A-Z0-9]$", "^[a-z][a-z0-9-]{0,31}$", "\\bab", "b+$"] {
            let regex = try LinearRegex(pattern)
            for input in ["", "SW1A 1AA", "vip", "churn-risk", "9lives", "ab", "xab", "abbb", "a b"] {
                var bytes = input
                let viaBytes = bytes.withUTF8 { regex.firstMatchExists(inASCII: $0) }
                #expect(viaBytes == regex.firstMatchExists(in: input), "\(pattern) on \(input)")
            }
        }
    }

    @Test func largePatternsAndWordBoundariesUseThePikeVM() throws {
        #expect(!(try LinearRegex("\\bword\\b")).usesBitParallelRunner)
        #expect(!(try LinearRegex("^[a-z]{1,80}$")).usesBitParallelRunner)
        #expect(!(try LinearRegex("^[a-z][a-z0-9-]{0,31}$")).usesBitParallelRunner)
        #expect(try LinearRegex("^[a-z]{1,80}$").firstMatchExists(in: String(repeating: "q", count: 80)))
    }

    /// Lookarounds, each answer as V8 gives it (`new RegExp(pattern, "u").test(input)`, node 20):
    /// the password rule and `ui5-manifest`'s path pattern among them, nested, with captures inside,
    /// at the ends of the input, over non-BMP scalars.
    static let lookaroundCases: [(String, String, Bool)] = [
        ("^(?=.*[A-Z])(?=.*\\d).{8,}$", "Passw0rdX", true),
        ("^(?=.*[A-Z])(?=.*\\d).{8,}$", "password1", false),
        ("^(?=.*[A-Z])(?=.*\\d).{8,}$", "PASSWORD", false),
        ("^(?=.*[A-Z])(?=.*\\d).{8,}$", "Pa1", false),
        ("^((\\.(?!\\.)\\/)?\\w+\\/?)+$", "./abc/def", true),
        ("^((\\.(?!\\.)\\/)?\\w+\\/?)+$", "../abc", false),
        ("^((\\.(?!\\.)\\/)?\\w+\\/?)+$", "abc/./def", true),
        ("foo(?!bar)", "foobar", false),
        ("foo(?!bar)", "foobaz", true),
        ("foo(?!bar)", "foobarfoo", true),
        ("(?<=\\$)\\d+", "cost $42", true),
        ("(?<=\\$)\\d+", "cost 42", false),
        ("(?<!\\$)\\b\\d+", "cost $42", false),
        ("(?<!\\$)\\b\\d+", "cost 42", true),
        ("^(?!.*(.)\\u0000)", "abc", true),
        ("(?<=(?<!a)b)c", "bc", true),
        ("(?<=(?<!a)b)c", "abc", false),
        ("(?<=(?<!a)b)c", "xbc", true),
        ("a(?=b(?=c))", "abc", true),
        ("a(?=b(?=c))", "abd", false),
        ("(?=a)", "", false),
        ("(?!a)", "", true),
        ("^(?<=^)a", "a", true),
        ("a(?<=a)", "a", true),
        ("(?<=ab)", "ab", true),
        ("(?<=ab)", "a", false),
        ("(?<=a.c)d", "abcd", true),
        ("(?<=a.c)d", "abd", false),
        ("(?<![a-z])\\d", "a1", false),
        ("(?<![a-z])\\d", "-1", true),
        ("^(?:(?!ab).)*$", "xxaxbx", true),
        ("^(?:(?!ab).)*$", "xxabx", false),
        ("\\b(?=\\w{3}\\b)\\w+", "ab abc abcd", true),
        ("\\b(?=\\w{3}\\b)\\w+", "ab abcd", false),
        ("^(?=😀).$", "😀", true),
        ("^(?=.{2}$)..", "😀😀", true),
        ("(?<=^|,)x(?=,|$)", "a,x,b", true),
        ("(?<=^|,)x(?=,|$)", "a,xy,b", false),
        ("^(?!$)", "", false),
        ("^(?!$)", "a", true),
        ("(?<=\\p{Lu})\\p{Ll}", "aB c", false),
        ("(?<=\\p{Lu})\\p{Ll}", "Ab", true),
        ("((?<=a)|(?<=b))c", "bc", true),
        ("((?<=a)|(?<=b))c", "cc", false),
    ]

    @Test(arguments: lookaroundCases)
    func lookaroundsAgreeWithV8(pattern: String, input: String, matches: Bool) throws {
        let regex = try LinearRegex(pattern)
        #expect(regex.firstMatchExists(in: input) == matches)
        #expect(regex.firstMatchExistsWithPikeVM(in: input.unicodeScalars) == matches)
    }

    /// A lookaround costs one run of its automaton over the input, whatever the nesting: the
    /// password rule on 200,000 characters, and lookarounds in a loop that a backtracking engine
    /// would try at every position of every iteration.
    @Test func lookaroundsStayLinear() throws {
        let long = String(repeating: "a", count: 200_000)
        #expect(try LinearRegex("^(?=.*[A-Z])(?=.*\\d).{8,}$").firstMatchExists(in: long) == false)
        #expect(try LinearRegex("^(?:(?!b)(?<=a|^).)*$").firstMatchExists(in: long))
        #expect(try LinearRegex("^(?:(?=(a+)+$)a)*!$").firstMatchExists(in: long) == false)
    }

    @Test func lookaroundsCannotBeQuantified() {
        for pattern in ["a(?=b)*", "(?<=a)+b", "(?!a){2}"] {
            #expect(throws: RegexSyntaxError.self) { try LinearRegex(pattern) }
        }
    }

    /// As V8 (node 20) has it: a group name given twice is a syntax error; a group around a
    /// lookaround may be quantified, the lookaround itself not.
    @Test func groupNamesAndQuantifiedLookaroundGroups() throws {
        #expect(throws: RegexSyntaxError.self) { try LinearRegex("(?<a>x)|(?<a>y)") }
        #expect(throws: RegexSyntaxError.self) { try LinearRegex("(?<a>x)(?<a>y)") }
        #expect(try LinearRegex("(?<a>x)(?<b>y)").firstMatchExists(in: "xy"))
        #expect(try LinearRegex("^((?=a)a)*$").firstMatchExists(in: "aaa"))
        #expect(try LinearRegex("^((?=a)a)*$").firstMatchExists(in: "aab") == false)
        #expect(try LinearRegex("^(?:(?<!b)[ab])+$").firstMatchExists(in: "aab"))
        #expect(try LinearRegex("^(?:(?<!b)[ab])+$").firstMatchExists(in: "aba") == false)
    }

    /// Strict `u`-mode syntax, as V8 has it (`new RegExp(p, "u")` throws on each): a lone `{`, `}` or
    /// `]`, an incomplete quantifier. The one deliberate difference: an escaped ASCII punctuation
    /// character is that character, as real schemas expect (`krakend`'s `^\/[^\*\?\&\%]*(\/\*)?$`).
    @Test func strictSyntaxWithIdentityEscapesOfPunctuation() throws {
        for pattern in ["a{,5}", "^x{", "}", "]", "a{1", "x{2,1}"] {
            #expect(throws: RegexSyntaxError.self, "\(pattern)") { try LinearRegex(pattern) }
        }
        #expect(try LinearRegex("^\\{x\\}\\]$").firstMatchExists(in: "{x}]"))
        let krakend = try LinearRegex("^\\/[^\\*\\?\\&\\%]*(\\/\\*)?$")
        #expect(krakend.firstMatchExists(in: "/users/*"))
        #expect(!krakend.firstMatchExists(in: "/a&b"))
        #expect(try LinearRegex("a\\-b\\_c\\'d\\@").firstMatchExists(in: "a-b_c'd@"))
        for pattern in ["\\a", "\\é", "\\ ", "\\z"] {
            #expect(throws: RegexSyntaxError.self, "\(pattern)") { try LinearRegex(pattern) }
        }
    }
}
