import AssayRegex
import Foundation
import Testing

@testable import AssayCore

/// A small deterministic generator (SplitMix64), so a failure can be replayed from its seed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

enum Hostile {
    /// Scalars from the places that break validators: controls, combining marks, bidi controls,
    /// the BOM, private use, noncharacters, the replacement character, the last scalar, emoji
    /// sequences, CJK, and the ASCII that email and regex syntax care about.
    static let pools: [[UInt32]] = [
        Array(0x00...0x20) + [0x7F, 0x85, 0xA0],
        Array(0x21...0x7E),
        [0x300, 0x301, 0x36F, 0x489, 0x93F, 0xE31, 0x200B, 0x200C, 0x200D, 0x2028, 0x2029, 0x202E, 0xFEFF],
        [0xE000, 0xF8FF, 0xFDD0, 0xFFFE, 0xFFFF, 0xFFFD, 0x10FFFF, 0x1F600, 0x1F468, 0x1F3FB, 0xE0041],
        [0x4E00, 0x9FFF, 0x3000, 0x0416, 0x05D0, 0x0627, 0x0915, 0xAC00, 0x03A9, 0x00E9],
    ]

    static func string(_ rng: inout SeededGenerator, maxLength: Int = 40) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...maxLength, using: &rng) {
            let pool = pools.randomElement(using: &rng)!
            text.unicodeScalars.append(Unicode.Scalar(pool.randomElement(using: &rng)!)!)
        }
        return text
    }

    static func mutatedEmail(_ rng: inout SeededGenerator) -> String {
        var scalars = Array("user.name+tag@sub.example.com".unicodeScalars)
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let insert = Array(string(&rng, maxLength: 2).unicodeScalars)
            let at = Int.random(in: 0...scalars.count, using: &rng)
            if Bool.random(using: &rng), at < scalars.count { scalars.remove(at: at) }
            scalars.insert(contentsOf: insert, at: min(at, scalars.count))
        }
        return String(String.UnicodeScalarView(scalars))
    }
}

@Suite struct RobustnessTests {
    static let stringRules: [Rule<String>] = {
        var rules: [Rule<String>] = [
            .length(2...100), .length(0...0, unit: .graphemeClusters), .length(1..., unit: .utf8),
            .length(...3, unit: .utf16), .notBlank, .charset(.letters + .marks + .spaces), .charset(.alphanumerics),
            .charset(.punctuation + .digits + .whitespace), .email(), .email(.ascii), .email(.rfc), .url(), .uuid,
            .oneOf(["a", "b"]), .range("b"..."y"), .custom("x") { $0.count.isMultiple(of: 2) },
            .not(.length(3...)), .or(.uuid, .email()), .and(.notBlank, .length(1...5)),
        ]
        for pattern in ["^(a+)+$", "\\p{L}+", "^[\\w.-]+@\\S+$", "\\b\\d{3}\\b", "^.*$", "[^\\s]", "(x|y|)*z"] {
            rules.append(try! .pattern(pattern))
        }
        return rules
    }()

    @Test func everyStringRuleSurvivesHostileStrings() {
        var rng = SeededGenerator(seed: 20_261_122)
        var rejected = Array(repeating: 0, count: Self.stringRules.count)
        for _ in 0..<1_500 {
            let text = Bool.random(using: &rng) ? Hostile.string(&rng) : Hostile.mutatedEmail(&rng)
            for (index, rule) in Self.stringRules.enumerated() {
                let issues = rule.issues(for: text, at: ["field"])
                for issue in issues {
                    #expect(issue.path.jsonPointer == "/field")
                    for language in Language.builtIn { #expect(!issue.message(in: language).isEmpty) }
                }
                // The three ways to ask agree: issues, the verdict and the throwing check.
                let valid = rule.isValid(text)
                #expect(valid == !issues.contains { $0.severity == .error })
                #expect(valid == ((try? rule.evaluate(text)) != nil))
                if !valid { rejected[index] += 1 }
            }
        }
        // The hostile strings reach every rule's failing side.
        for (index, count) in rejected.enumerated() {
            #expect(count > 0, "\(Self.stringRules[index].kind) rejected no hostile string")
        }
    }

    @Test func numbersAtTheEdges() {
        let ints: [Int] = [.min, .min + 1, -1, 0, 1, .max - 1, .max]
        for value in ints {
            #expect(Rule<Int>.range(-5...5).isValid(value) == (-5...5).contains(value))
            #expect((try? Rule<Int>.range(Int.min...Int.max).evaluate(value)) == value)
            #expect(Rule<Int>.oneOf([0, 1]).isValid(value) == (value == 0 || value == 1))
            #expect(Rule<Int>.custom("even") { $0 % 2 == 0 }.isValid(value) == value.isMultiple(of: 2))
            #expect(Rule<Int>.multipleOf(3).isValid(value) == value.isMultiple(of: 3))
        }
        #expect(Rule<Int>.range(Int.min...Int.max).isValid(.min))
        var rng = SeededGenerator(seed: 7)
        let doubles: [Double] =
            [
                .nan, .infinity, -.infinity, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
                .leastNormalMagnitude / 4,
            ]
            + (0..<2_000).map { _ in Double(bitPattern: rng.next()) }
        for value in doubles {
            let issues = Rule<Double>.range(-1e6...1e6).issues(for: value)
            #expect(issues.isEmpty == (-1e6...1e6).contains(value), "\(value)")
            #expect(issues.count <= 1, "a value out of range is reported once, NaN included")
            for issue in issues { #expect(!issue.message(in: .english).isEmpty) }
            #expect(Rule<Double>.finite.isValid(value) == value.isFinite)
            #expect(ValidationError(issues).json(in: .english).hasPrefix("{"))
        }
    }

    @Test func invalidUTF8DecodesToReplacementCharactersAndIsChecked() {
        let bytes: [UInt8] = [0x61, 0xFF, 0xC3, 0x28, 0xED, 0xA0, 0x80, 0xF4, 0x90, 0x80, 0x80, 0x40, 0x62]
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.unicodeScalars.contains("\u{FFFD}"))
        #expect(!Rule<String>.email().isValid(text))
        #expect(!Rule<String>.charset(.letters).isValid(text))
        #expect(Rule<String>.length(1...).isValid(text))
    }

    @Test func randomRegexSyntaxCompilesOrFailsCleanly() {
        var rng = SeededGenerator(seed: 42)
        let alphabet = Array("ab.*+?|()[]{}^$\\-,0123dwsbpPuxcLk<>=!:".unicodeScalars)
        var compiled = 0
        var rejected = 0
        for _ in 0..<5_000 {
            var pattern = ""
            for _ in 0..<Int.random(in: 0...16, using: &rng) {
                pattern.unicodeScalars.append(alphabet.randomElement(using: &rng)!)
            }
            do {
                let regex = try LinearRegex(pattern)
                compiled += 1
                for _ in 0..<3 { _ = regex.firstMatchExists(in: Hostile.string(&rng, maxLength: 30)) }
            } catch {
                rejected += 1
                #expect(error.offset >= 0 && error.offset <= pattern.unicodeScalars.count, "\(error)")
                #expect(!error.reason.isEmpty)
            }
        }
        #expect(compiled > 0 && rejected > 0)
    }

    @Test func hugeStringsGetAnAnswer() throws {
        let huge = String(repeating: "a", count: 10_000_000)
        #expect(Rule<String>.length(...100).issues(for: huge).first?.parameters["length"] == 10_000_000)
        #expect(Rule<String>.email().issues(for: huge).first?.parameters["reason"] == "missingAtSign")
        #expect(Rule<String>.email().issues(for: huge + "@x.com").first?.parameters["reason"] == "localPartTooLong")
        #expect(Rule<String>.charset(.letters).isValid(huge))
        #expect(!Rule<String>.uuid.isValid(huge))
        // The regex engine is linear; a megabyte keeps the debug-build test quick.
        let large = String(repeating: "a", count: 1_000_000)
        #expect(try Rule<String>.pattern("^a*$").isValid(large))
        #expect(try !Rule<String>.pattern("^(a+)+b$").isValid(large))
        #expect(!Rule<String>.url().isValid("https://" + large + " "))
    }

    @Test func enormousAggregatesAreBounded() {
        let rule = Rule<[Int]>.each(.range(0...0))
        let issues = rule.issues(for: Array(1...100_000))
        #expect(issues.count == 100_000)
        let capped = ValidationError(issues, limit: 1_000)
        #expect(capped.issues.count == 1_000)
        #expect(capped.isTruncated)
    }
}
