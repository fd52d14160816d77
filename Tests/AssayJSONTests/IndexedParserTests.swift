import Testing

@testable import AssayJSON

/// The parser reads a text through its structural index (`parseIndexed`: a first pass that finds
/// every structural character, quote and token start, then a walk over those positions) and falls
/// back to its main loop at anything the walk does not accept. These tests hold the walk to the
/// main loop: on every text the main loop parses, the walk parses it too and writes the same tape
/// and decoded strings; on every text the main loop rejects, the walk gives up (so the error is
/// always the main loop's); and `parse()` as a whole gives what the main loop gives.
@Suite(.enabled(if: TapeParser.indexAvailable, "the structural index needs x86-64 with SSSE3"))
struct IndexedParserTests {
    enum Walk: Equatable {
        case parsed(entries: [UInt64], strings: [UInt8])
        case declined
    }

    static func walk(_ bytes: [UInt8], _ options: JSONParserOptions, level: Int32 = 0) -> Walk {
        bytes.withUnsafeBufferPointer { input in
            var parser = TapeParser(input: input, options: options)
            defer {
                parser.entries.discard()
                parser.scratch.free()
            }
            guard parser.parseIndexed(level: level) else {
                // Nothing is left behind for the main loop.
                #expect(parser.entries.count == 0 && parser.strings.isEmpty && parser.position == 0)
                return .declined
            }
            return .parsed(entries: (0..<parser.entries.count).map { parser.entries[$0] }, strings: parser.strings)
        }
    }

    /// What parsing `bytes` whole gives (`parse()`, index first), as ``ParserRunTests/Outcome``.
    static func parseWhole(_ bytes: [UInt8], _ options: JSONParserOptions) -> ParserRunTests.Outcome {
        bytes.withUnsafeBufferPointer { input in
            var parser = TapeParser(input: input, options: options)
            defer { parser.scratch.free() }
            do throws(JSONParseError) { try parser.parse() } catch {
                parser.entries.discard()
                return .failed(reason: error.reason, offset: error.offset, detail: error.detail)
            }
            let entries = (0..<parser.entries.count).map { parser.entries[$0] }
            parser.entries.discard()
            return .parsed(entries: entries, strings: parser.strings)
        }
    }

    /// Compares the walk and the whole parse with the main loop on `bytes`; returns a description
    /// of the disagreement, if any, and whether the main loop parsed the text.
    static func compare(_ bytes: [UInt8], _ options: JSONParserOptions) -> (problem: String?, parsed: Bool) {
        let reference = ParserRunTests.parse(bytes, options, runs: false)
        let walked = walk(bytes, options)
        let text = String(decoding: bytes.prefix(200), as: UTF8.self).debugDescription
        if parseWhole(bytes, options) != reference { return ("parse() differs from the main loop: \(text)", false) }
        // The index built with SSSE3 (where the best is AVX2) leads the walk to the same result.
        if walk(bytes, options, level: 1) != walked { return ("the SSSE3 index differs: \(text)", false) }
        switch reference {
        case .parsed(let entries, let strings):
            // The one text the walk leaves to the main loop on purpose: one that starts with a byte
            // order mark (the first line of a file, at most).
            if walked == .declined, options.skipsByteOrderMark, bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                return (nil, true)
            }
            guard walked == .parsed(entries: entries, strings: strings) else {
                return ("the walk \(walked == .declined ? "gave up on" : "wrote another tape for") \(text)", true)
            }
            return (nil, true)
        case .failed:
            return walked == .declined ? (nil, false) : ("the walk accepted an invalid text: \(text)", false)
        }
    }

    @Test func theWalkWritesWhatTheMainLoopWritesAndGivesUpOnEveryError() {
        var random = SplitMix(seed: 2048)
        let policies: [DuplicateKeyPolicy] = [.reject, .firstWins, .lastWins]
        var compared = 0
        var parsed = 0
        var problems: [String] = []
        for round in 0..<8_000 {
            let text = Array(ParserRunTests.container(&random, depth: 0).utf8)
            let options = JSONParserOptions(duplicateKeys: policies[round % 3])
            let once = ParserRunTests.mutate(text, &random)
            for bytes in [text, once, ParserRunTests.mutate(once, &random)] {
                let result = Self.compare(bytes, options)
                compared += 1
                if result.parsed { parsed += 1 }
                if let problem = result.problem, problems.count < 5 { problems.append(problem) }
            }
        }
        #expect(compared == 24_000)
        #expect(parsed > 3_000 && parsed < 21_000, "\(parsed) of \(compared) parsed")
        #expect(problems.isEmpty, "\(problems)")
    }

    /// Quotes after runs of backslashes, strings and tokens across the first pass's 64-byte blocks:
    /// every offset of a block, every run length from none to five.
    @Test func blockEdgesAndBackslashRuns() {
        var problems: [String] = []
        var parsed = 0
        for offset in 0..<130 {
            let padding = String(repeating: "a", count: offset)
            for run in 0...5 {
                let backslashes = String(repeating: "\\", count: run)
                let texts = [
                    "[\"\(padding)\(backslashes)\",1]", "[\"\(padding)\(backslashes)\"]",
                    "\"\(padding)\(backslashes)\"",
                    "{\"\(padding)\":\"\(backslashes)\(backslashes)\"}",
                    "[\(String(repeating: " ", count: offset))\"\(backslashes)x\", 12.5 , true]",
                    "{\"k\(padding)\":[-1,2e3,null,\"\\\\\(backslashes)\\\"\"]}",
                    "[\(padding.isEmpty ? "" : "1,")\(String(repeating: "0,", count: offset / 2))\"\\u00e9\(backslashes)\"]",
                    "\(String(repeating: "[", count: offset % 40))\(backslashes)\(String(repeating: "]", count: offset % 40))",
                    "[\"\(padding)\u{0001}\"]", "[\"\(padding)é\(backslashes)\"] ", "[1\(padding)]",
                    "[true\(String(repeating: " ", count: offset))]",
                    "[\"\(padding)\",tru\(backslashes)]", "{\"a\":1}\(String(repeating: " ", count: offset))x",
                ]
                for text in texts {
                    let result = Self.compare(Array(text.utf8), .default)
                    if result.parsed { parsed += 1 }
                    if let problem = result.problem, problems.count < 5 { problems.append(problem) }
                }
            }
        }
        #expect(parsed > 2_000, "\(parsed) parsed")
        #expect(problems.isEmpty, "\(problems)")
    }

    /// The corpus of RFC 8259 cases, each at the start of the input and after 60 spaces (across a
    /// block's end), and invalid UTF-8 in and out of strings.
    @Test func theRFC8259Corpus() {
        var problems: [String] = []
        let texts =
            RFC8259Corpus.accepted.map { Array($0.utf8) } + RFC8259Corpus.rejected.map { Array($0.0.utf8) }
            + RFC8259Corpus.invalidUTF8
        for bytes in texts {
            for prefix in [[], [UInt8](repeating: 0x20, count: 60)] {
                for options in [JSONParserOptions.default, JSONParserOptions(duplicateKeys: .lastWins)] {
                    if let problem = Self.compare(prefix + bytes, options).problem { problems.append(problem) }
                }
            }
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    /// Short numbers are checked and summed eight bytes at a time when they end right at the next
    /// position: random tokens of the characters numbers are made of, in every place a number goes
    /// (an array's run, after whitespace, a member's value, the end of a text).
    @Test func shortNumbersOfEveryShape() {
        var random = SplitMix(seed: 1_234)
        let alphabet = Array("0123456789000.-eE+".utf8)
        var problems: [String] = []
        var parsed = 0
        for _ in 0..<30_000 {
            let token = String(decoding: (0..<1 + random.below(20)).map { _ in random.pick(alphabet) }, as: UTF8.self)
            for text in [
                "[1,2,\(token),3]", "[\(token)]", "{\"a\":\(token)}", "[\(token) ,1]", "\(token)", "[1,2,3,\(token)]",
            ] {
                let result = Self.compare(Array(text.utf8), .default)
                if result.parsed { parsed += 1 }
                if let problem = result.problem, problems.count < 5 { problems.append(problem) }
            }
        }
        #expect(parsed > 12_000, "\(parsed) parsed")
        #expect(problems.isEmpty, "\(problems)")
    }

    /// Numbers of 7 to 19 bytes after the sign (across the eight bytes the walk reads at once and
    /// the 18 digits the main loop sums) are read by the walk as the main loop reads them: every
    /// length with the point at every place or none, each with a sign or not, a leading zero, and
    /// a second point, an exponent, a sign, a letter or a space at a random place, in every place
    /// a number goes and at the end of the text.
    @Test func longerNumbersOfEveryShape() {
        var random = SplitMix(seed: 5_813)
        var tokens: [String] = []
        for length in 7...19 {
            for point in 0...length {
                for _ in 0..<3 {
                    var digits = (0..<length).map { _ in UInt8(ascii: "0") + UInt8(random.below(10)) }
                    if point < length { digits[point] = UInt8(ascii: ".") }
                    let text = String(decoding: digits, as: UTF8.self)
                    tokens += [text, "-" + text]
                    var leadingZero = digits
                    leadingZero[0] = UInt8(ascii: "0")
                    tokens.append(String(decoding: leadingZero, as: UTF8.self))
                    var changed = digits
                    changed[random.below(length)] = random.pick(Array(".eE+-a ".utf8))
                    tokens.append(String(decoding: changed, as: UTF8.self))
                }
            }
        }
        tokens += [
            "9223372036854775807", "-9223372036854775808", "1234567890123456", "-9999999999999999", "0.00000000",
        ]
        var problems: [String] = []
        var parsed = 0
        for token in tokens {
            for text in [
                "[1,2,\(token),3]", "[\(token)]", "{\"a\":\(token)}", "[\(token) ,1]", "\(token)", "[1,2,3,\(token)]",
                "{\"a\":\(token),\"b\":[\(token),\(token)]}",
            ] {
                let result = Self.compare(Array(text.utf8), .default)
                if result.parsed { parsed += 1 }
                if let problem = result.problem, problems.count < 5 { problems.append(problem) }
            }
        }
        #expect(parsed > tokens.count * 3, "\(parsed) of \(tokens.count * 7) parsed")
        #expect(problems.isEmpty, "\(problems)")
    }

    /// The index checks UTF-8 (16 and 32 bytes at a time): every sequence of one to three bytes
    /// that starts with a byte of 0x80 or more (its later bytes continuations, a letter, or a
    /// lead), and 200,000 random four-byte ones, in a string at offsets that cross the 16-, 32- and
    /// 64-byte chunks, in texts of 5 to 147 bytes (one block or up to three). The walk accepts the
    /// text exactly when the sequence is UTF-8
    /// (`firstInvalidUTF8`, itself held to the standard library's decoder), with either index.
    @Test func utf8AtEveryOffset() {
        let later = [UInt8](0x80...0xFF) + [0x41]
        let last = [UInt8](0x80...0xBF) + [0x41, 0xC3, 0xE0, 0xF0, 0xFF]
        var sequences: [[UInt8]] = []
        for first in UInt8(0x80)...0xFF {
            sequences.append([first])
            for second in later {
                sequences.append([first, second])
                for third in last { sequences.append([first, second, third]) }
            }
        }
        var random = SplitMix(seed: 3_629)
        for _ in 0..<200_000 {
            sequences.append([
                UInt8(0xF0 + random.below(8)), UInt8(0x80 + random.below(64)), UInt8(0x80 + random.below(64)),
                random.pick([UInt8(0x80 + random.below(64)), 0x41, 0xC0]),
            ])
        }
        var problems: [String] = []
        var valid = 0
        for (number, sequence) in sequences.enumerated() {
            let text: [UInt8] = [0x5B, 0x22] + [UInt8](repeating: 0x61, count: number % 140) + sequence + [0x22, 0x5D]
            let expected = sequence.withUnsafeBufferPointer { firstInvalidUTF8(in: $0) } == nil
            if expected { valid += 1 }
            for level: Int32 in [0, 1] where (Self.walk(text, .default, level: level) != .declined) != expected {
                if problems.count < 5 { problems.append("\(sequence) at \(number % 140), level \(level)") }
            }
        }
        #expect(sequences.count > 1_300_000 && valid > 90_000, "\(valid) of \(sequences.count) valid")
        #expect(problems.isEmpty, "\(problems)")
    }

    /// A document parsed on its own keeps no more tape than twice its entries (and a little), though
    /// the walk reserves two entries an offset: 100,000 empty strings in an array (300,001 offsets,
    /// 600,002 entries reserved) take 200,003 entries.
    @Test func aDocumentKeepsLittleMoreTapeThanItNeeds() throws {
        let text = "[" + Array(repeating: "\"\"", count: 100_000).joined(separator: ",") + "]"
        let document = try JSONDocument(parsing: text)
        #expect(document.tape.entries.count == 200_003)
        #expect(document.tape.capacity <= 2 * 200_003 + 64)
        #expect(Self.walk(Array(text.utf8), .default) != .declined)
    }

    /// Limits hold on the walk as on the main loop: depth, and escapes and control characters in
    /// long inputs.
    @Test func depthAndLongInputs() {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        let limited = JSONParserOptions(maximumDepth: 10)
        let long =
            "["
            + (0..<20_000).map { "{\"id\":\($0),\"name\":\"n\\u00e9\($0)\",\"v\":[\($0).5,true,null]}" }
            .joined(separator: ",") + "]"
        for (text, options) in [(deep, JSONParserOptions.default), (deep, limited), (long, .default), (long, limited)] {
            let result = Self.compare(Array(text.utf8), options)
            #expect(result.problem == nil, "\(result.problem ?? "")")
        }
        #expect(Self.walk(Array(long.utf8), .default) != .declined)
    }
}
