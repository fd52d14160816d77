import AssayRegex
import Foundation
import Testing

@testable import AssayCore

@Suite struct RuleTests {
    @Test func evaluateReturnsTheValueOrThrowsEveryIssue() throws {
        let age = Rule<Int>.range(1...150)
        #expect(try age.evaluate(35) == 35)
        do {
            try age.evaluate(150_000)
            Issue.record("150000 passed")
        } catch {
            #expect(error.issues.map(\.code) == [.tooLarge])
            #expect(error.issues[0].value == .integer(150_000))
            #expect(error.issues[0].valueType == "Int")
            #expect(error.issues[0].parameters == ["minimum": 1, "maximum": 150])
        }
    }

    @Test func nilPassesEveryRuleButRequired() throws {
        let optionalName: String? = nil
        #expect(try Rule<String>.length(2...).optional.evaluate(optionalName) == nil)
        #expect(try Rule<String>.notBlank.optional.evaluate(optionalName) == nil)
        #expect(throws: ValidationError.self) { try Rule<String>.notBlank.optional.evaluate(" ") }
        #expect(Rule<String>.length(2...).optional.isValid(nil))
        let required = Rule<String?>.required()
        #expect(required.issues(for: nil).map(\.code) == [.missing])
        #expect(required.isValid("x"))
    }

    @Test func rangeBounds() {
        #expect(Rule<Int>.range(1...3).isValid(1))
        #expect(Rule<Int>.range(1...3).isValid(3))
        #expect(!Rule<Int>.range(1..<3).isValid(3))
        #expect(Rule<Int>.range(1...).isValid(.max))
        #expect(!Rule<Int>.range(...0).isValid(1))
        #expect(!Rule<Int>.range(..<0).isValid(0))
        let exclusive = Rule<Double>.range(minimum: 0, maximum: 1, exclusiveMinimum: true, exclusiveMaximum: true)
        #expect(exclusive.issues(for: 0).map(\.messageKey) == ["tooSmall.exclusive"])
        #expect(exclusive.issues(for: 1).map(\.messageKey) == ["tooLarge.exclusive"])
        #expect(exclusive.isValid(0.5))
        #expect(exclusive.issues(for: 0)[0].message(in: .english) == "Value must be greater than 0")
    }

    @Test func nanAndInfinityNeverPassARange() {
        let rule = Rule<Double>.range(0...10)
        #expect(rule.issues(for: .nan).map(\.code) == [.tooSmall])
        #expect(!rule.isValid(.infinity))
        #expect(!Rule<Double>.finite.isValid(.nan))
        #expect(Rule<Double>.finite.isValid(1e308))
    }

    @Test func dateRanges() {
        let start = Date(timeIntervalSince1970: 0)
        let end = Date(timeIntervalSince1970: 86_400 * 365)
        let rule = Rule<Date>.range(start...end)
        #expect(rule.isValid(Date(timeIntervalSince1970: 1000)))
        let late = rule.issues(for: Date(timeIntervalSince1970: 86_400 * 400))
        #expect(late.map(\.code) == [.tooLarge])
        #expect(late[0].coreDataCode == 1630)
        #expect(late[0].message(in: .english) == "Value must be between 1970-01-01 and 1971-01-01")
    }

    @Test func stringRangesUseComparable() {
        #expect(Rule<String>.range("a"..."m").isValid("hello"))
        #expect(!Rule<String>.range("a"..."m").isValid("zebra"))
    }

    @Test func lengthCountsScalarsByDefaultAndGraphemesOnRequest() {
        let decomposed = "e\u{301}"  // é as e + combining acute: 2 scalars, 1 grapheme
        #expect(!Rule<String>.length(...1).isValid(decomposed))
        #expect(Rule<String>.length(...1, unit: .graphemeClusters).isValid(decomposed))
        #expect(Rule<String>.length(4...4, unit: .utf8).isValid("ёё"))
        #expect(Rule<String>.length(2...2, unit: .utf16).isValid("😀"))
        #expect(Rule<String>.length(1...1).isValid("😀"))
        let issue = Rule<String>.length(2...5).issues(for: "abcdefg")[0]
        #expect(issue.code == .tooLong)
        #expect(issue.parameters["length"] == 7)
        #expect(issue.message(in: .english) == "Value must be between 2 and 5 characters long")
    }

    /// The byte count settles most strings before their scalars are counted; at the edges of that
    /// shortcut (1 to 4 bytes per scalar) the answer is still the scalar count's.
    @Test(arguments: [
        ("ab", true), ("abc", true), ("a", false), ("abcd", false), ("é", false), ("éé", true), ("日本", true),
        ("日本語", true), ("日本語x", false), ("😀", false), ("😀😀😀", true), ("😀😀😀😀", false), ("e\u{301}", true),
        ("", false),
    ])
    func lengthAtTheEdgesOfTheByteShortcut(text: String, valid: Bool) {
        #expect(Rule<String>.length(2...3).isValid(text) == valid)
        #expect(Rule<Substring>.length(2...3).isValid(Substring(text)) == valid)
    }

    @Test func notBlankTrims() {
        #expect(Rule<String>.notBlank.issues(for: " \t\n\u{3000}").map(\.code) == [.blank])
        #expect(Rule<String>.notBlank.issues(for: "").map(\.code) == [.blank])
        #expect(Rule<String>.notBlank.isValid(" a "))
    }

    @Test func charsetAcceptsEveryAlphabet() {
        let names = Rule<String>.charset(.letters + .marks + .spaces)
        for name in [
            "John Doe", "Анна Каренина", "王小明", "José García", "अजय कुमार", "สมชาย ใจดี", "Ζωή", "محمد علي", "김민준",
        ] {
            #expect(names.isValid(name), "\(name)")
        }
        let bad = names.issues(for: "R2-D2")
        #expect(bad.map(\.code) == [.invalidCharacters])
        #expect(bad[0].parameters["character"] == "2")
        #expect(!names.isValid("john@doe"))
        #expect(!names.isValid("a\\b"))
        #expect(Rule<String>.charset(.asciiLetters + .characters("-'")).isValid("O'Brien-Smith"))
        #expect(Rule<String>.charset(.range("a"..."f")).isValid("cafe"))
        #expect(!Rule<String>.charset(.range("a"..."f")).isValid("cafg"))
    }

    @Test func characterClassesAgreeWithTheirPatterns() throws {
        // The ASCII bits a class works out when it is made, and its predicate beyond ASCII, against
        // the ECMA-262 pattern it exports, for the first 12,288 scalars.
        let classes: [CharacterClass] = [
            .letters, .marks, .digits, .asciiDigits, .asciiLetters, .spaces, .whitespace, .punctuation,
            .alphanumerics, .characters("-'_\\"), .range("a"..."f"), .letters + .marks + .spaces,
            .asciiDigits + .characters("."),
        ]
        for set in classes {
            let regex = try LinearRegex("^[\(set.patternFragment)]$")
            var disagreements: [UInt32] = []
            for value in UInt32(0)..<0x3000 {
                guard let scalar = Unicode.Scalar(value) else { continue }
                if set.contains(scalar) != regex.firstMatchExists(in: String(scalar)) { disagreements.append(value) }
            }
            #expect(disagreements.isEmpty, "\(set): \(disagreements.prefix(10).map { String($0, radix: 16) })")
        }
    }

    @Test func characterClassesExportPatterns() throws {
        let set: CharacterClass = .letters + .marks + .spaces + .characters("-'")
        #expect(set.patternFragment == "\\p{L}\\p{M}\\p{Zs}\\-'")
        let regex = try LinearRegex("^[\(set.patternFragment)]*$")
        #expect(regex.firstMatchExists(in: "Jean-Luc O'Neil"))
        #expect(!regex.firstMatchExists(in: "R2"))
    }

    @Test func patternSearchesLikeECMAScript() throws {
        let rule = try Rule<String>.pattern("^[A-Z]{2}\\d{4}$")
        #expect(rule.isValid("AB1234"))
        let issue = rule.issues(for: "ab1234")[0]
        #expect(issue.code == .patternMismatch)
        #expect(issue.parameters["pattern"] == "^[A-Z]{2}\\d{4}$")
        #expect(try Rule<String>.pattern("b").isValid("abc"), "unanchored patterns match anywhere")
    }

    @Test func invalidPatternIsAnErrorWhenTheRuleIsBuilt() {
        #expect(throws: RegexSyntaxError.self) { try Rule<String>.pattern("(unclosed") }
        #expect(throws: RegexSyntaxError.self) { try Rule<String>.pattern("a{3,1}") }
        #expect(throws: RegexSyntaxError.self) { try Rule<String>.pattern("*") }
    }

    @Test func formats() {
        #expect(Rule<String>.email().isValid("john@doe.test"))
        #expect(
            Rule<String>.email(.ascii).issues(for: "коля@пример.рф")[0].parameters["reason"] == "nonASCIINotAllowed")
        #expect(Rule<String>.url().isValid("https://example.com/path?q=1#frag"))
        #expect(Rule<String>.url().isValid("http://[::1]:8080/"))
        #expect(!Rule<String>.url().isValid("ftp://example.com"))
        #expect(Rule<String>.url(schemes: ["ftp"]).isValid("ftp://example.com"))
        #expect(!Rule<String>.url().isValid("https://exa mple.com"))
        #expect(!Rule<String>.url().isValid("https://"))
        #expect(!Rule<String>.url().isValid("example.com"))
        #expect(!Rule<String>.url().isValid("https://example.com/%zz"))
        #expect(Rule<String>.url().issues(for: "nope")[0].coreDataCode == 1690)
        #expect(Rule<String>.uuid.isValid("123e4567-e89b-12d3-a456-426614174000"))
        #expect(Rule<String>.uuid.isValid("123E4567-E89B-12D3-A456-426614174000"))
        #expect(!Rule<String>.uuid.isValid("123e4567e89b12d3a456426614174000"))
        #expect(!Rule<String>.uuid.isValid("123e4567-e89b-12d3-a456-42661417400g"))
        // Every character just outside the hex ranges, at every position.
        let valid = Array("123e4567-e89b-12d3-a456-426614174000".utf8)
        for position in valid.indices where ![8, 13, 18, 23].contains(position) {
            for byte: UInt8 in [0x2F, 0x3A, 0x40, 0x47, 0x60, 0x67, 0xC1, 0x00] {
                var bytes = valid
                bytes[position] = byte
                #expect(!isUUID(String(decoding: bytes, as: UTF8.self)), "byte \(byte) at \(position)")
            }
        }
        #expect(!isUUID("123e4567+e89b-12d3-a456-426614174000"))
        #expect(isUUID("ABCDEF00-abcd-0123-9999-fedcbaFEDCBA"))
        // The word-at-a-time check against the definition, for every byte value at every position.
        func reference(_ bytes: [UInt8]) -> Bool {
            bytes.count == 36
                && bytes.indices.allSatisfy { position in
                    let byte = bytes[position]
                    if [8, 13, 18, 23].contains(position) { return byte == UInt8(ascii: "-") }
                    return (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
                }
        }
        var disagreements = 0
        for position in valid.indices {
            for byte in UInt8(0)...0xFF {
                var bytes = valid
                bytes[position] = byte
                if bytes.withUnsafeBufferPointer({ isUUID(utf8: $0) }) != reference(bytes) { disagreements += 1 }
            }
        }
        #expect(disagreements == 0)
        #expect(Array("ABCDEF00-abcd-0123-9999-fedcbaFEDCBA".utf8).withUnsafeBufferPointer { isUUID(utf8: $0) })
    }

    @Test func collections() {
        #expect(Rule<[Int]>.count(1...2).issues(for: []).map(\.code) == [.tooFew])
        #expect(Rule<[Int]>.count(1...2).issues(for: [1, 2, 3]).map(\.code) == [.tooMany])
        #expect(
            Rule<[Int]>.count(1...2).issues(for: [])[0].message(in: .english) == "Value must have between 1 and 2 items"
        )
        #expect(
            Rule<[Int]>.count(...15).issues(for: Array(0..<16))[0].message(in: .russian)
                == "Значение должно содержать не более 15 элементов")
        let unique = Rule<[String]>.unique.issues(for: ["a", "b", "a", "b"])
        #expect(unique.map(\.code) == [.notUnique])
        #expect(unique[0].parameters["duplicate"] == "a")
        // Pairs compared for few elements, a set for many: the same first duplicate either way.
        #expect(Rule<[String]>.unique.issues(for: ["a", "b", "b", "a"])[0].parameters["duplicate"] == "b")
        #expect(Rule<[Int]>.unique.isValid(Array(0..<16)))
        #expect(Rule<[Int]>.unique.issues(for: Array(0..<15) + [3])[0].parameters["duplicate"] == 3)
        #expect(Rule<[Int]>.unique.isValid(Array(0..<40)))
        #expect(Rule<[Int]>.unique.issues(for: Array(0..<40) + [39, 7])[0].parameters["duplicate"] == 39)
        #expect(Rule<[Int]>.unique.isValid([]))
        #expect(Rule<[Int]>.unique.isValid([1]))
        #expect(Rule<Set<Int>>.count(2...).isValid([1, 2]))
    }

    @Test func eachReportsAtTheElementsIndex() {
        let rule = Rule<[String]>.each(.length(2...))
        let issues = rule.issues(for: ["ok", "x", "fine", ""], at: ["tags"])
        #expect(issues.map(\.path.jsonPointer) == ["/tags/1", "/tags/3"])
        let nested = Rule<[[Int]]>.each(.each(.range(0...9)))
        #expect(nested.issues(for: [[1, 2], [3, 40]]).map(\.path.jsonPointer) == ["/1/1"])
    }

    @Test func oneOfListsTheAllowedValues() {
        let rule = Rule<String>.oneOf(["en", "ru", "zh-Hans"])
        #expect(rule.isValid("ru"))
        #expect(rule.issues(for: "fr")[0].parameters["allowed"] == .list(["en", "ru", "zh-Hans"]))
    }

    @Test func combinators() {
        let both = Rule<String>.and(.length(2...), .charset(.asciiLetters))
        #expect(both.issues(for: "1").map(\.code) == [.tooShort, .invalidCharacters], "and keeps every issue")
        let either = Rule<Int>.or(.range(...0), .range(10...))
        #expect(either.isValid(-5))
        #expect(either.isValid(15))
        #expect(either.issues(for: 5).map(\.code) == [.noMatch])
        #expect(
            either.issues(for: 5)[0].message(in: .english) == "Value does not satisfy any of the 2 allowed alternatives"
        )
        let notAdmin = Rule<String>.not(.oneOf(["admin", "root"]))
        #expect(notAdmin.isValid("alice"))
        #expect(notAdmin.issues(for: "root").map(\.code) == [.notAllowed])
        #expect(notAdmin.issues(for: "root")[0].message(in: .english) == "Value is not allowed")
        #expect(Rule<Int>.range(0...).and(.range(...9)).isValid(5))
        #expect(Rule<Int>.range(...0).or(.range(9...)).issues(for: 5).count == 1)
    }

    @Test func customRulesAndContexts() {
        let even = Rule<Int>.custom("even", message: "{subject} must be even") { $0 % 2 == 0 }
        #expect(even.isValid(4))
        let issue = even.issues(for: 3)[0]
        #expect(issue.code == .custom("even"))
        #expect(issue.message(in: .english) == "Value must be even")
        let generic = Rule<Int>.custom("odd") { $0 % 2 == 1 }
        #expect(generic.issues(for: 2)[0].message(in: .english) == "Value is invalid")
        #expect(generic.issues(for: 2)[0].message(in: .russian) == "Значение недопустимо")

        let handWritten = Rule<String>(.custom("noDigits")) { value, context in
            for (offset, scalar) in value.unicodeScalars.enumerated() where ("0"..."9").contains(scalar) {
                context.report(
                    .invalidCharacters, value: value,
                    parameters: ["character": .string(String(scalar)), "offset": .integer(offset)])
            }
        }
        #expect(handWritten.issues(for: "a1b2").count == 2)
    }

    @Test func severityAndRedaction() throws {
        let advice = Rule<String>.length(8...).severity(.warning)
        #expect(advice.isValid("short"), "warnings do not make a value invalid")
        #expect(advice.issues(for: "short")[0].severity == .warning)
        #expect(try advice.evaluate("short") == "short")

        let secret = Rule<String>.length(8...).redacted()
        let issue = secret.issues(for: "hunter2")[0]
        #expect(issue.value == .redacted)
        #expect(!ValidationError([issue]).json(in: .english).contains("hunter2"))
    }

    @Test func kindsDescribeRules() throws {
        #expect(
            Rule<Int>.range(16...50).kind
                == .range(minimum: 16, maximum: 50, exclusiveMinimum: false, exclusiveMaximum: false))
        #expect(Rule<String>.length(2...100).kind == .length(minimum: 2, maximum: 100, unit: .unicodeScalars))
        #expect(try Rule<String>.pattern("^a$").kind == .pattern("^a$"))
        #expect(Rule<String>.email().kind == .email(.default))
        #expect(Rule<String>.uuid.kind == .format(.uuid))
        #expect(
            Rule<String>.and(.notBlank, .length(1...)).kind.description
                == "and(notBlank, length(minimum: 1, unit: unicodeScalars))")
        #expect(Rule<Int>.range(1...2).kind.description == "range(minimum: 1, maximum: 2)")
        #expect(Rule<String>.length(8...).severity(.warning).severity == .warning)
        #expect(Rule<String>.length(8...).severity(.warning).redacted().severity == .warning)
        #expect(Rule<String>.length(8...).severity == .error)
    }

    @Test func multipleOfIsDecidedOnDecimals() {
        #expect(Rule<Int>.multipleOf(5).isValid(-15))
        #expect(!Rule<Int>.multipleOf(5).isValid(7))
        #expect(Rule<UInt8>.multipleOf(1_000).isValid(0))
        #expect(!Rule<UInt8>.multipleOf(1_000).isValid(200))
        #expect(!Rule<Int>.multipleOf(0).isValid(0), "a factor JSON Schema does not allow fails every value")
        #expect(Rule<Double>.multipleOf("0.1").isValid(0.3), "0.3 is a multiple of 0.1 in decimal")
        #expect(!Rule<Double>.multipleOf("0.1").isValid(0.35))
        #expect(Rule<Double>.multipleOf("0.01").isValid(19.99))
        #expect(Rule<Double>.multipleOf("2.5").isValid(1e20))
        #expect(!Rule<Double>.multipleOf("3").isValid(1e-7))
        #expect(!Rule<Double>.multipleOf("0.1").isValid(.nan))
        #expect(!Rule<Double>.multipleOf("x").isValid(1), "a factor that is not a decimal fails every value")
        #expect(Rule<Double>.multipleOf("0.1").issues(for: 0.35).map(\.code) == [.notMultiple])
        // The arithmetic is JSON Schema's (AssayJSON's too): a factor of any length, any exponent.
        #expect(Rule<Double>.multipleOf("0.1234567890123456789").isValid(0), "19 significant digits")
        #expect(Rule<Double>.multipleOf("1e-400").isValid(0.75))
        #expect(!Rule<Double>.multipleOf("7e300").isValid(1e300))
    }

    @Test func constAndFormats() {
        #expect(Rule<String>.const("yes").isValid("yes"))
        #expect(Rule<String>.const("yes").issues(for: "no").map(\.code) == [.notAllowed])
        #expect(Rule<String>.format(.dateTime).isValid("2026-11-26T08:00:00Z"))
        #expect(Rule<String>.format(.ipv4).issues(for: "256.1.1.1").map(\.code) == [.invalidFormat("ipv4")])
        #expect(Rule<String>.format(.hostname).isValid("example.com"))
        #expect(!Rule<String>.format(.duration).isValid("P1Y2"))
        // A URL's host may not be empty, before a port too.
        #expect(!Rule<String>.url().isValid("http://:80/"))
        #expect(Rule<String>.url(schemes: ["HTTPS"]).isValid("https://example.com"))
    }
}
