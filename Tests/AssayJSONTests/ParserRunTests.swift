import Testing

@testable import AssayJSON

/// The parser reads long arrays of numbers (from their third element) in a loop of their own
/// (`readNumbers`) and leaves everything else to its main loop. These tests parse texts both ways — with that loop and with
/// the main loop alone — and require the same tape, the same decoded strings, or the same error
/// (reason, offset and message): generated texts full of what the loop stops at (numbers of every
/// form, other values among the numbers, whitespace, trailing commas, errors), and each of them
/// mutated.
@Suite struct ParserRunTests {
    /// What one parse gave: the tape's entries and decoded strings, or the error.
    enum Outcome: Equatable {
        case parsed(entries: [UInt64], strings: [UInt8])
        case failed(reason: JSONParseError.Reason, offset: Int, detail: String)
    }

    static func parse(_ bytes: [UInt8], _ options: JSONParserOptions, runs: Bool) -> Outcome {
        bytes.withUnsafeBufferPointer { input in
            var parser = TapeParser(input: input, options: options)
            do throws(JSONParseError) {
                if runs { try parser.parse(NumberRuns.self) } else { try parser.parse(MainLoopOnly.self) }
            } catch {
                parser.entries.discard()
                return .failed(reason: error.reason, offset: error.offset, detail: error.detail)
            }
            let entries = (0..<parser.entries.count).map { parser.entries[$0] }
            parser.entries.discard()
            return .parsed(entries: entries, strings: parser.strings)
        }
    }

    static let scalars: [String] = [
        "0", "-0", "7", "-12", "123456789012345678", "1234567890123456789", "-1234567890123456789", "0.5", "-3.25",
        "12.0", "1e5", "1E+2", "-2.5e-3", "true", "false", "null", "\"\"", "\"abc\"", "\"a b c d e f g h i j\"",
        "\"é\"", "\"日本語のテキスト\"", "\"a\\nb\"", "\"\\u0041\"", "\"\\uD83D\\uDE00\"",
        "\"with \\\"quote\\\" inside\"", "[]", "{}",
    ]
    /// Scalars that are errors, or start like a plain value and are not one.
    static let brokenScalars: [String] = [
        "01", "-", "-a", "1.", "1.e3", ".5", "00", "1x", "1.5x", "-.5", "1e", "0x1", "tru", "fals", "nul", "truex",
        "nulll", "True",
        "\"tab\there\"", "\"unterminated", "NaN", "-Infinity",
    ]
    static let keys: [String] = [
        "\"a\"", "\"b\"", "\"id\"", "\"name\"", "\"\"", "\"ключ\"", "\"a\\u0062\"", "\"ab\"", "\"k\\\"q\"",
        "\"long key with spaces\"", "\"c\"", "\"d\"", "\"e\"",
    ]
    static let gaps = ["", "", "", "", " ", "\n", "\t ", "\r\n  "]

    /// Numbers of every form: the common ones the loop reads, and those it leaves to the main loop.
    static let numbers: [String] = [
        "0", "-0", "7", "-12", "330.34", "-557.1", "0.25", "-0.0", "123456789012345678", "-123456789012345678",
        "1234567890123456789", "12345678901234567890.5", "1e5", "-2.5E-3", "1.5e+300", "0.000001", "99999999.99",
    ]

    static func value(_ random: inout SplitMix, depth: Int) -> String {
        if random.below(40) == 0 { return random.pick(brokenScalars) }
        guard depth < 4, random.below(4) == 0 else { return random.pick(scalars) }
        return container(&random, depth: depth + 1)
    }

    static func container(_ random: inout SplitMix, depth: Int) -> String {
        var parts: [String] = []
        let kind = random.below(3)
        let isObject = kind == 0
        if kind == 2 {
            // An array of numbers, now and then with something else among them.
            for _ in 0..<random.below(30) {
                parts.append(random.below(25) == 0 ? value(&random, depth: depth) : random.pick(numbers))
            }
        }
        for _ in 0..<(kind == 2 ? 0 : random.below(9)) {
            if isObject {
                let colon = random.below(60) == 0 ? "" : ":"
                let key = random.below(60) == 0 ? random.pick(["a", "'a'", "1"]) : random.pick(keys)
                parts.append(
                    key + random.pick(gaps) + colon + random.pick(gaps) + value(&random, depth: depth))
            } else {
                parts.append(value(&random, depth: depth))
            }
        }
        var text = isObject ? "{" : "["
        for (offset, part) in parts.enumerated() {
            if offset > 0 { text += random.below(80) == 0 ? "" : random.pick(gaps) + "," + random.pick(gaps) }
            text += part
        }
        if !parts.isEmpty, random.below(60) == 0 { text += "," }
        return text + random.pick(gaps) + (isObject ? "}" : "]")
    }

    /// Byte edits that land in and around runs: removed, doubled or replaced bytes, invalid UTF-8,
    /// control characters, a cut end.
    static func mutate(_ bytes: [UInt8], _ random: inout SplitMix) -> [UInt8] {
        guard !bytes.isEmpty else { return bytes }
        var bytes = bytes
        let at = random.below(bytes.count)
        switch random.below(5) {
        case 0: bytes.remove(at: at)
        case 1: bytes.insert(bytes[at], at: at)
        case 2:
            bytes[at] = random.pick([
                0x22, 0x2C, 0x3A, 0x5C, 0x7D, 0x5D, 0x7B, 0x20, 0x01, 0x80, 0xFF, 0x30, 0x2D, 0x2E, 0x65,
            ])
        case 3:
            bytes.insert(contentsOf: random.pick([[0xC3], [0xED, 0xA0, 0x80], [0xE6, 0x97], [0xF4, 0x90]]), at: at)
        default: bytes.removeSubrange(at...)
        }
        return bytes
    }

    @Test func runsWriteWhatTheMainLoopWrites() {
        var random = SplitMix(seed: 25)
        let policies: [DuplicateKeyPolicy] = [.reject, .firstWins, .lastWins]
        var compared = 0
        var parsed = 0
        var disagreements: [String] = []
        for round in 0..<6_000 {
            let text = Array(Self.container(&random, depth: 0).utf8)
            let options = JSONParserOptions(duplicateKeys: policies[round % 3])
            for bytes in [text, Self.mutate(text, &random), Self.mutate(Self.mutate(text, &random), &random)] {
                let withRuns = Self.parse(bytes, options, runs: true)
                let without = Self.parse(bytes, options, runs: false)
                compared += 1
                if case .parsed = without { parsed += 1 }
                if withRuns != without, disagreements.count < 5 {
                    disagreements.append(String(decoding: bytes, as: UTF8.self).debugDescription)
                }
            }
        }
        #expect(compared == 18_000)
        // Both kinds are well represented: the comparison covers tapes and errors.
        #expect(parsed > 2_000 && parsed < 16_000, "\(parsed) of \(compared) parsed")
        #expect(disagreements.isEmpty, "first texts parsed differently: \(disagreements)")
    }

    /// Runs that fill a tape past its first capacity, runs at the end of the input, nested.
    @Test func longRunsAndRunsAtTheEnd() {
        let numbers = "[" + (0..<5_000).map { $0 % 2 == 0 ? "\($0)" : "-\($0).25" }.joined(separator: ",") + "]"
        let texts = [
            numbers, "[1,2,3", "[1,2,3,", "[1,2,3]   ", "[1 , 2,\n3 ]", "[[1,2],[3,4],[-5.5,6]]", "[1", "[-", "[1,",
            "{\"a\":[1,2,3,4],\"b\":[3]}", "[1,2,3,4,5,-", "[1,2,3,4,5,1e", "[1,2,3,4,5,0.5e3,6,7]",
            "[1,2,3,4,5,\"x\"]",
            "[1,2,3,4,5,]", "[1,2,3,4 5]", "[0,0,0,01]", "[1,2,3,4,-0.5,-]",
        ]
        for text in texts {
            let bytes = Array(text.utf8)
            #expect(
                Self.parse(bytes, .default, runs: true) == Self.parse(bytes, .default, runs: false),
                "\(text.prefix(40))")
        }
        guard case .parsed(let entries, _) = Self.parse(Array(numbers.utf8), .default, runs: true) else {
            Issue.record("the array was not parsed")
            return
        }
        #expect(entries.count == 2 + 5_000 * 2 + 1)
    }
}

extension SplitMix {
    /// A number below `n`: deterministic, so a failure names a text that can be rebuilt.
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }
}
