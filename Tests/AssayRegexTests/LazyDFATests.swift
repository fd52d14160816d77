import Foundation
import Testing

@testable import AssayRegex

@Suite struct LazyDFATests {
    static let patterns = [
        "^[A-Z0-9][A-Z0-9 -]{1,8}[A-Z0-9]$", "^a*$", "a|b", "^(ab|a)c$", "x+y", "^$", "$", "^", "", "colou?r",
        "^[^a-c]+$", "\\d{3}-\\d{4}", "^(a|b)*abb$", "[é-ü]", "^\\p{L}+$", "^.{2,3}$", "(?:)", "a{0}b",
        "^(postgres|sqlite)://", "\\s", "^\\S+@\\S+$", "b$", "^a|b$", "^[a-z]{1,80}$", "^[a-z][a-z0-9-]{0,31}$",
        "(a|b)*a(a|b){5}", "^(?:[\\p{L}\\p{M}]+[ '-]?)+$", "😀+$", "^[^😀]$", "a$|^b", "(^|x)y($|z)", "[\\s\\S]",
        "^(\\d{1,3}\\.){3}\\d{1,3}$", "^.*$", "^(?:a|ab)(?:c|bcd)(?:d*)$", "\\u{10FFFF}", "^\\P{Lu}*$",
    ]
    static let inputs = [
        "", "a", "b", "ab", "abc", "ac", "aac", "xy", "xxxy", "color", "colour", "colouur", "def", "abd",
        "555-1234", "abb", "aabb", "babb", "é", "ü", "e", "Ωmega", "ab1", "SW1A 1AA", "sw1a", "12345",
        "12345678901", "postgres://x", "mysql://x", "a b", "ann@example.com", "@", "ba", "x\u{1F600}y",
        "vip", "churn-risk", "9lives", "😀", "😀😀", "a😀", "\n", "a\nb", "Jean-Luc O'Neil", "Zoë Ångström",
        "192.168.0.1", "1.2.3", "abcd", "abbcdd", "bbbbbbbbbab", "aaaaaa", "ababab", "\u{10FFFF}", "ÀÉ",
        "yz", "xy", "x", "xyz", String(repeating: "a", count: 81), String(repeating: "q", count: 80),
    ]

    /// The lazy DFA answers as the Pike VM and the bit-parallel runner do, through every entry
    /// point: a `String` (its UTF-8 read in place), scalars, and ASCII bytes.
    @Test func agreesWithTheOtherAutomata() throws {
        for pattern in Self.patterns {
            let regex = try LinearRegex(pattern)
            #expect(regex.usesLazyDFA, "\(pattern)")
            // Twice: the second time every transition is already in the cache.
            for _ in 0..<2 {
                for input in Self.inputs {
                    let expected = regex.firstMatchExistsWithPikeVM(in: input.unicodeScalars)
                    #expect(regex.firstMatchExists(in: input) == expected, "\(pattern) on \(input)")
                    #expect(
                        regex.firstMatchExists(in: input.unicodeScalars, engine: .lazyDFA) == expected,
                        "\(pattern) on \(input)")
                    #expect(
                        regex.firstMatchExists(in: input.unicodeScalars) == expected, "\(pattern) on \(input)")
                    if regex.usesBitParallelRunner {
                        #expect(
                            regex.firstMatchExists(in: input.unicodeScalars, engine: .bitParallel) == expected,
                            "\(pattern) on \(input)")
                    }
                    if input.utf8.allSatisfy({ $0 < 0x80 }) {
                        var copy = input
                        #expect(copy.withUTF8 { regex.firstMatchExists(inASCII: $0) } == expected)
                    }
                }
            }
        }
    }

    /// The automaton frozen when a pattern is compiled (its states on ASCII, read without a lock)
    /// answers as the Pike VM wherever it answers, whatever budget it was made with; where the
    /// budget left a transition out, or the text is not ASCII, it leaves the answer to the caches.
    @Test func theFrozenAutomatonAgreesWhereverItAnswers() throws {
        for pattern in Self.patterns {
            let regex = try LinearRegex(pattern)
            let dfa = try #require(regex.lazyDFA, "\(pattern)")
            let made = LazyDFA.freezingBudget(programSize: dfa.shape.program.count)
            let limits: [(budget: Int, entries: Int)] = [
                (0, .max), (1, .max), (3, .max), (10, .max), (40, .max), (200, .max), (made, 0), (made, 10), (made, 50),
                (made, LazyDFA.frozenEntries(programSize: dfa.shape.program.count)),
            ]
            for (budget, entries) in limits {
                guard let frozen = DFACache().frozen(dfa.shape, budget: budget, maximumEntries: entries) else {
                    continue
                }
                // A row per state, of a column per class and one for bytes beyond ASCII, and the
                // row where transitions not held lead.
                let states = frozen.table.count / (dfa.shape.classCount + 1) - 1
                #expect(frozen.unknown == states * (dfa.shape.classCount + 1))
                #expect(states * dfa.shape.classCount <= max(entries, dfa.shape.classCount))
                for input in Self.inputs {
                    let expected = regex.firstMatchExistsWithPikeVM(in: input.unicodeScalars)
                    var copy = input
                    if let answer = copy.withUTF8({ frozen.run(bytes: $0) }) {
                        #expect(answer == expected, "\(pattern) on \(input), budget \(budget)")
                    } else {
                        #expect(!frozen.isComplete || input.utf8.contains { $0 >= 0x80 }, "\(pattern) on \(input)")
                    }
                    // Through the automaton as matching uses it: the frozen states, then the caches.
                    #expect(copy.withUTF8 { dfa.run(bytes: $0, latin1: false) } == expected)
                    #expect(copy.withUTF8 { dfa.runOnCache(bytes: $0, latin1: false) } == expected)
                }
            }
        }
        // The patterns of real schemas are frozen whole: every ASCII text is answered without a lock.
        let whole = [
            "^[a-z]{1,80}$", "^[a-z][a-z0-9-]{0,31}$", "^(\\d{1,3}\\.){3}\\d{1,3}$", "colou?r", "^[0-9a-f]{32}$",
        ]
        for pattern in whole {
            let dfa = try #require(LinearRegex(pattern).lazyDFA)
            #expect(dfa.frozen?.isComplete == true, "\(pattern)")
        }
        // An automaton of 2¹⁵ states keeps no more than its share, in proportion to its program.
        let exponential = try #require(LinearRegex("^(a|b)*a(a|b){14}$").lazyDFA)
        let kept = try #require(exponential.frozen)
        #expect(!kept.isComplete)
        let states = kept.table.count / (exponential.shape.classCount + 1) - 1
        let share = LazyDFA.frozenEntries(programSize: exponential.shape.program.count)
        #expect(states * exponential.shape.classCount <= share)
    }

    /// `firstMatchExists(utf8:)`, which validation calls, answers as the Pike VM everywhere; the frozen
    /// automaton it asks first (`frozenMatchExists(utf8:)`) answers as the Pike VM wherever it answers, on ASCII and UTF-8 text alike; it answers every
    /// ASCII text of a pattern frozen whole, and text beyond ASCII once the answer is settled
    /// before the first such byte (a match found, or none possible), and leaves the rest to the
    /// other entry points.
    @Test func theFrozenAnswerOnUTF8AgreesWhereverItIsGiven() throws {
        var answered = 0
        for pattern in Self.patterns {
            let regex = try LinearRegex(pattern)
            for input in Self.inputs + ["ab😀", "é9", "9é", "x😀", "colour é", "Zoë"] {
                var copy = input
                // The entry point validation calls answers everywhere, as the Pike VM does.
                #expect(
                    copy.withUTF8 { regex.firstMatchExists(utf8: $0) }
                        == regex.firstMatchExistsWithPikeVM(in: input.unicodeScalars), "\(pattern) on \(input)")
                guard let answer = copy.withUTF8({ regex.frozenMatchExists(utf8: $0) }) else { continue }
                answered += 1
                #expect(answer == regex.firstMatchExistsWithPikeVM(in: input.unicodeScalars), "\(pattern) on \(input)")
            }
        }
        #expect(answered > Self.patterns.count * Self.inputs.count / 2)
        func frozen(_ pattern: String, _ input: String) throws -> Bool? {
            var copy = input
            let regex = try LinearRegex(pattern)
            return copy.withUTF8 { regex.frozenMatchExists(utf8: $0) }
        }
        #expect(try frozen("^[a-z][a-z0-9-]{0,31}$", "churn-risk") == true)
        #expect(try frozen("^[a-z][a-z0-9-]{0,31}$", "9lives") == false)
        #expect(try frozen("colou?r", "colour é") == true)  // matched before the é
        #expect(try frozen("^[0-9]", "xé") == false)  // no match possible before the é
        #expect(try frozen("^[0-9]", "é9") == nil)  // the é decides: left to the caches
    }

    /// Bytes beyond ASCII given to `firstMatchExists(inASCII:)` are Latin-1 scalars, not UTF-8.
    @Test func latin1Bytes() throws {
        let regex = try LinearRegex("^\\u00E9+$")
        let bytes: [UInt8] = [0xE9, 0xE9]
        #expect(bytes.withUnsafeBufferPointer { regex.firstMatchExists(inASCII: $0) })
    }

    /// A pattern whose deterministic automaton has 2¹⁵ states — the fifteenth scalar from the end
    /// must be an `a` — on 40,000 random scalars: the cache is cleared again and again instead of
    /// growing past its limit, and every answer is still the Pike VM's.
    @Test func memoryStaysBoundedWhereTheAutomatonIsExponential() throws {
        let regex = try LinearRegex("^(a|b)*a(a|b){14}$")
        var generator = SystemRandomNumberGenerator()
        let random = String((0..<40_000).map { _ in Bool.random(using: &generator) ? "a" : "b" })
        for tail in ["a" + String(repeating: "b", count: 14), "b" + String(repeating: "a", count: 14)] {
            let input = random + tail
            #expect(regex.firstMatchExists(in: input) == tail.hasPrefix("a"))
            #expect(regex.firstMatchExistsWithPikeVM(in: input.unicodeScalars) == tail.hasPrefix("a"))
        }
        #expect(regex.lazyDFAClearings > 0)
    }

    /// The same beyond ASCII, where transitions are remembered in a map whose room is counted too:
    /// remembering one must not clear the cache under the state just made (the regex fuzz target's
    /// finding, kept in Fuzz/Regressions/regex/transition-after-clearing, which this replays).
    @Test func transitionsBeyondASCIISurviveAFullCache() throws {
        let regex = try LinearRegex("^(é|b)*é(é|b){14}$")
        var generator = SystemRandomNumberGenerator()
        let random = String((0..<20_000).map { _ in Bool.random(using: &generator) ? "é" : "b" })
        for tail in ["é" + String(repeating: "b", count: 14), "b" + String(repeating: "é", count: 14)] {
            #expect(regex.firstMatchExists(in: random + tail) == tail.hasPrefix("é"))
        }
        #expect(regex.lazyDFAClearings > 0)
        let pattern = String(
            decoding: [0x28, 0x3F, 0x3A] + [UInt8](repeating: 0x11, count: 8) + Array("xz|".utf8) + [0xF9]
                + Array("?){448}".utf8) + [0x8E, 0x9D, 0x86, 0x9B, 0x90, 0, 0, 0] + [UInt8](repeating: 0xFF, count: 9)
                + Array("ydo\\\\".utf8), as: UTF8.self)
        let subject = String(
            decoding: [0x11, 0x11, 0x11] + Array("47}".utf8) + [0x8E, 0x9D, 0x86, 0x9B, 0x90] + Array(":".utf8)
                + [0x11] + Array("z".utf8) + [UInt8](repeating: 0x11, count: 7) + Array("xz|".utf8) + [0xF9]
                + Array("?){448}".utf8) + [0x8E, 0x9D, 0x86, 0x9B, 0x90, 0, 0, 0] + [UInt8](repeating: 0xFF, count: 7)
                + Array("WpO".utf8), as: UTF8.self)
        if let found = try? LinearRegex(pattern) {
            #expect(found.firstMatchExists(in: subject) == found.firstMatchExistsWithPikeVM(in: subject.unicodeScalars))
        }
    }

    /// Threads matching one pattern at once each get a cache of their own (or the non-caching
    /// automata when all are taken) and the same answers.
    @Test func threadsShareOnePattern() async throws {
        let regex = try LinearRegex("^[a-z]+(-[a-z0-9]+)*@[a-z]+\\.[a-z]{2,}$")
        let inputs = ["ann@example.com", "ann-2@example.org", "Ann@example.com", "ann@example.c", "a-b-c@x.io"]
        let expected = inputs.map { regex.firstMatchExistsWithPikeVM(in: $0.unicodeScalars) }
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<2_000 {
                        let index = round % inputs.count
                        if regex.firstMatchExists(in: inputs[index]) != expected[index] { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
        #expect(expected == [true, true, false, false, true])
    }

    /// Word boundaries and lookarounds need the scalars on both sides of a position: those patterns
    /// run on the other automata.
    @Test func boundariesAndLookaroundsDoNotUseIt() throws {
        #expect(!(try LinearRegex("\\bword\\b")).usesLazyDFA)
        #expect(try LinearRegex("\\bword\\b").usesPositionalDFA)
        #expect(!(try LinearRegex("a(?=b)")).usesLazyDFA)
        #expect(try LinearRegex("^[a-z]{1,80}$").usesLazyDFA)
    }
}

@Suite struct PositionalDFATests {
    static let patterns = [
        "^(?=.*[A-Z])(?=.*\\d).{8,}$", "^((\\.(?!\\.)\\/)?\\w+\\/?)+$", "foo(?!bar)", "(?<=\\$)\\d+", "(?<!\\$)\\b\\d+",
        "(?<=(?<!a)b)c", "a(?=b(?=c))", "(?=a)", "(?!a)", "^(?<=^)a", "a(?<=a)", "(?<=a.c)d", "^(?:(?!ab).)*$",
        "\\b(?=\\w{3}\\b)\\w+", "^(?=😀).$", "(?<=^|,)x(?=,|$)", "^(?!$)", "(?<=\\p{Lu})\\p{Ll}", "((?<=a)|(?<=b))c",
        "^(?=[^!*,;{}[\\]~\\n]+$)(?=(.*\\w)).+$", "\\bword\\b", "\\Bfoo", "^\\b$", "\\b", "\\B", "a\\b", "😀\\b",
        "(?=$)", "(?<=^)", "x(?=$)|^y",
    ]
    static let inputs = [
        "", "a", "ab", "abc", "abd", "bc", "xbc", "Passw0rdX", "password1", "./abc/def", "../abc", "foobar",
        "foobaz", "cost $42", "cost 42", "a foo b", "afoo", "word", "a word.", "swordfish", "a,x,b", "a,xy,b",
        "😀", "😀😀", "a😀", "Ab", "aB c", "cc", "ab abc abcd", "xxabx", "!abc", "y", "x", "\n", "Zoë",
    ]

    /// The positional DFA (over the lookarounds' tables and word boundaries, each table itself on a
    /// DFA) answers as the Pike VM does with every table on the Pike VM too.
    @Test func agreesWithThePikeVM() throws {
        for pattern in Self.patterns {
            let regex = try LinearRegex(pattern)
            #expect(regex.usesPositionalDFA, "\(pattern)")
            for _ in 0..<2 {
                for input in Self.inputs {
                    let expected = regex.firstMatchExistsWithPikeVM(in: input.unicodeScalars)
                    #expect(regex.firstMatchExists(in: input) == expected, "\(pattern) on \(input)")
                }
            }
        }
    }

    /// Lookaheads read only at the start of an anchored pattern are each decided by one forward run,
    /// and the pattern runs as a plain DFA for their answers; elsewhere the tables are computed.
    @Test func lookaheadsAtTheStartAreDecidedOnce() throws {
        let atStart = [
            "^(?=.*[A-Z])(?=.*\\d).{8,}$", "^(?=[^!*,;{}[\\]~\\n]+$)(?=(.*\\w)).+$", "^(?!$)", "^(?=😀).$",
            "^(?!.*ab)(?=.*c)", "^(?:(?=a)|(?!b))x", "^(?=a$)|^b", "^(?=(?:a|bc)+$).*",
        ]
        let elsewhere = [
            "^a(?=b)", "^(?:(?=a).)*$", "(?=a)", "^(?<=^)a", "^(?=a(?=b))", "^(?=a)(?=b)(?=c)(?=d)", "^\\b(?=a)",
        ]
        for pattern in atStart + elsewhere {
            let regex = try LinearRegex(pattern)
            #expect(regex.decidesLookaheadsAtStart == atStart.contains(pattern), "\(pattern)")
            for input in Self.inputs + ["Passw0rdXY", "xx", "bx", "ax", "a", "bc", "bcbc", "abc"] {
                let expected = regex.firstMatchExistsWithPikeVM(in: input.unicodeScalars)
                #expect(regex.firstMatchExists(in: input) == expected, "\(pattern) on \(input)")
                if input.unicodeScalars.allSatisfy({ $0.value < 0x100 }) {
                    let latin1 = input.unicodeScalars.map { UInt8($0.value) }
                    #expect(latin1.withUnsafeBufferPointer { regex.firstMatchExists(inASCII: $0) } == expected)
                }
            }
        }
    }

    /// Seven lookarounds need more context bits than a positional DFA reads: the Pike VM runs it.
    @Test func manyLookaroundsRunOnThePikeVM() throws {
        let regex = try LinearRegex("(?=a)(?=a)(?=a)(?=a)(?=a)(?=a)(?=a)a")
        #expect(!regex.usesPositionalDFA)
        #expect(regex.firstMatchExists(in: "xa"))
        #expect(!regex.firstMatchExists(in: "xb"))
    }
}

@Suite struct LiteralPatternTests {
    static let patterns = ["^x-", "^\\$ref$", "json", "yaml$", "^é", "😀", "a\\.b", "^[a]$", "ab", "^abc$", "\\u00e9t"]
    static let inputs = [
        "", "x", "x-", "x-foo", "y-x-", "$ref", "$refs", " $ref", "a.json", "jso", "jsonjson", "my.yaml", "yaml.bak",
        "é", "éa", "e\u{301}", "a😀b", "😀", "a.b", "axb", "a", "aa", "ab", "aab", "abab", "abc", "abcd", "été", "et",
    ]

    /// Plain-text patterns compare bytes, with the answers of the automata.
    @Test func agreeWithThePikeVM() throws {
        for pattern in Self.patterns {
            let regex = try LinearRegex(pattern)
            #expect(regex.usesLiteral, "\(pattern)")
            for input in Self.inputs {
                let expected = regex.firstMatchExistsWithPikeVM(in: input.unicodeScalars)
                #expect(regex.firstMatchExists(in: input) == expected, "\(pattern) on \(input)")
                if input.unicodeScalars.allSatisfy({ $0.value < 0x100 }) {
                    let latin1 = input.unicodeScalars.map { UInt8($0.value) }
                    #expect(latin1.withUnsafeBufferPointer { regex.firstMatchExists(inASCII: $0) } == expected)
                }
            }
        }
        // An unanchored literal longer than 32 scalars runs on the DFA: searching for it at every
        // start would cost its length a byte on hostile text.
        let long = String(repeating: "a", count: 40) + "b"
        #expect(try LinearRegex("^" + long).usesLiteral)
        #expect(!(try LinearRegex(long)).usesLiteral)
        #expect(!(try LinearRegex(long)).firstMatchExists(in: String(repeating: "a", count: 10_000)))
        for pattern in ["^$", "a|b", "a*", "^a.b$", "(?:ab)c", "[ab]", "a\\b", "(?=a)a"] {
            #expect(!(try LinearRegex(pattern)).usesLiteral, "\(pattern)")
        }
    }
}
