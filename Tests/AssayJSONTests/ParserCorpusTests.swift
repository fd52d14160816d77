import Testing

@testable import AssayJSON

/// Written from RFC 8259: texts a conforming parser accepts, texts it rejects (with the reason
/// Assay reports), and the cases the RFC leaves to implementations (with Assay's documented choice).
enum RFC8259Corpus {
    static let accepted: [String] = [
        "null", "true", "false", "0", "-0", "1", "-1", "123", "1.5", "-1.5", "0.1", "1e10", "1E10", "1e+10", "1e-10",
        "1.5e3", "-0.0e-0", "\"\"", "\"a\"", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\u0041\"", "\"\\u00e9\"",
        "\"\\uD83D\\uDE00\"", "\"é\"", "\"😀\"", "\"\u{7F}\"", "[]", "{}", "[1]", "[1,2,3]", "{\"a\":1}",
        "{\"a\":{\"b\":[1,{\"c\":null}]}}", " \t\r\n[ 1 , 2 ] \t\r\n", "[[[[[[]]]]]]", "{\"\":0}", "\"\\u0000\"",
        "123456789012345678901234567890", "1e400", "-1e-400", "[\"a\",\"b\",]".replacing(",]", with: "]"),
        "\u{FEFF}[1]",  // a byte order mark, which RFC 8259 §8.1 lets a parser ignore
    ]

    static let rejected: [(String, JSONParseError.Reason)] = [
        ("", .empty), ("   ", .empty), ("[1,]", .trailingComma), ("{\"a\":1,}", .trailingComma),
        ("[,1]", .unexpectedCharacter),
        ("[1,,2]", .unexpectedCharacter), ("01", .leadingZero), ("-01", .leadingZero), ("00", .leadingZero),
        ("1.", .invalidNumber), (".1", .unexpectedCharacter), ("1.e5", .invalidNumber), ("1e", .invalidNumber),
        ("1e+", .invalidNumber), ("-", .invalidNumber), ("+1", .unexpectedCharacter), ("0x10", .trailingContent),
        ("NaN", .nonStandardLiteral), ("Infinity", .nonStandardLiteral), ("-Infinity", .nonStandardLiteral),
        ("[NaN]", .nonStandardLiteral), ("tru", .invalidLiteral), ("nul", .invalidLiteral),
        ("True", .unexpectedCharacter),
        ("nulll", .trailingContent), ("'a'", .unexpectedCharacter), ("\"a", .unexpectedEnd),
        ("\"a\tb\"", .controlCharacterInString),
        ("\"a\nb\"", .controlCharacterInString), ("\"\\x41\"", .invalidEscape), ("\"\\u12\"", .invalidEscape),
        ("\"\\u12G4\"", .invalidEscape), ("\"\\\"", .unexpectedEnd), ("\"\\uD800\"", .unpairedSurrogate),
        ("\"\\uDC00\"", .unpairedSurrogate), ("\"\\uD800\\u0041\"", .unpairedSurrogate), ("[1", .unexpectedEnd),
        ("{", .unexpectedEnd), ("{\"a\"", .unexpectedCharacter), ("{\"a\":", .unexpectedEnd),
        ("{\"a\" 1}", .unexpectedCharacter),
        ("{a:1}", .unexpectedCharacter), ("{1:1}", .unexpectedCharacter), ("[1]]", .trailingContent),
        ("[1] [2]", .trailingContent),
        ("{\"a\":1 \"b\":2}", .unexpectedCharacter), ("[1 2]", .unexpectedCharacter),
        ("/* comment */ 1", .unexpectedCharacter),
        ("1 // comment", .trailingContent), ("{\"a\":1,\"a\":2}", .duplicateKey), ("]", .unexpectedCharacter),
        ("\u{A0}1", .unexpectedCharacter), ("[\"a\"\u{2028}]", .unexpectedCharacter),
    ]

    static let invalidUTF8: [[UInt8]] = [
        [0x22, 0xFF, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xE0, 0x80, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xC3, 0x22], [0x5B, 0xC3, 0x5D], [0x22, 0x80, 0x22],
        [0x22, 0x5C, 0x6E, 0xFE, 0x22], [0x22, 0xF8, 0x88, 0x80, 0x80, 0x80, 0x22],
    ]
}

@Suite struct ParserCorpusTests {
    @Test(arguments: RFC8259Corpus.accepted)
    func acceptsWhatRFC8259Allows(_ text: String) throws {
        _ = try JSONDocument(parsing: text)
    }

    @Test(arguments: RFC8259Corpus.rejected)
    func rejectsWhatRFC8259Forbids(_ text: String, _ reason: JSONParseError.Reason) {
        do {
            _ = try JSONDocument(parsing: text)
            Issue.record("accepted \(text.debugDescription)")
        } catch {
            #expect(error.reason == reason, "\(text.debugDescription): \(error)")
            #expect(error.line >= 1 && error.column >= 1)
            #expect(error.excerpt.contains("^"))
        }
    }

    @Test(arguments: RFC8259Corpus.invalidUTF8)
    func rejectsInvalidUTF8(_ bytes: [UInt8]) {
        #expect(throws: JSONParseError.self) { try JSONDocument(parsing: bytes) }
        do {
            _ = try JSONDocument(parsing: bytes)
        } catch {
            #expect(error.reason == .invalidUTF8, "\(bytes): \(error)")
        }
    }

    /// Text after a string's first escape is copied a run at a time: each ill-formed sequence of
    /// the corpus, long plain text around it, is reported at the same byte and with the same
    /// reason as in the string without the escape.
    @Test func invalidUTF8AfterAnEscape() {
        func failure(_ bytes: [UInt8]) -> (JSONParseError.Reason, Int)? {
            do {
                _ = try JSONDocument(parsing: bytes)
                return nil
            } catch {
                return (error.reason, error.offset)
            }
        }
        let filler = Array(String(repeating: "plain text é ", count: 3).utf8)
        for sequence in RFC8259Corpus.invalidUTF8.map({ Array($0.dropFirst().dropLast()) }) {
            let plain = [0x5B, 0x22] + filler + Array("ab".utf8) + sequence + filler + [0x22, 0x5D]
            let escaped = [0x5B, 0x22] + filler + Array("\\n".utf8) + sequence + filler + [0x22, 0x5D]
            guard let expected = failure(plain), let found = failure(escaped) else {
                Issue.record("\(sequence) accepted")
                continue
            }
            #expect(found.0 == expected.0, "\(sequence)")
            #expect(found.1 == expected.1, "\(sequence)")
        }
        let valid = [0x5B, 0x22] + filler + Array("\\n".utf8) + filler + Array("\\u00e9".utf8) + filler + [0x22, 0x5D]
        let expected =
            String(decoding: filler, as: UTF8.self) + "\n" + String(decoding: filler, as: UTF8.self) + "é"
            + String(decoding: filler, as: UTF8.self)
        #expect((try? JSONValue(parsing: valid)) == [.string(expected)])
    }

    /// The validator's one-load paths for two- and three-byte forms agree with the standard
    /// library's decoder on where the first ill-formed sequence starts: every lead byte 0x80–0xFF
    /// with every second byte and a spread of third and fourth bytes, with and without ASCII after.
    @Test func utf8ValidationAgreesWithTheStandardLibrary() {
        func reference(_ bytes: [UInt8]) -> Int? {
            var iterator = bytes.makeIterator()
            var parser = Unicode.UTF8.ForwardParser()
            var offset = 0
            while true {
                switch parser.parseScalar(from: &iterator) {
                case .valid(let encoded): offset += encoded.count
                case .error: return offset
                case .emptyInput: return nil
                }
            }
        }
        let laterBytes: [UInt8] = [0x41, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
        var mismatches: [[UInt8]] = []
        var checked = 0
        // After one ASCII byte (read one at a time), and after seven and an "é" (the sequence then
        // follows a word read at once and another sequence, in the same non-ASCII run).
        let prefixes: [[UInt8]] = [[0x61], Array(repeating: 0x61, count: 7) + [0xC3, 0xA9]]
        for prefix in prefixes {
            for lead in UInt8(0x80)...0xFF {
                for second in UInt8(0)...0xFF {
                    for third in laterBytes {
                        for tail in [[], [0x80], [0x80, 0x7A, 0x7A, 0x7A], [0x7A, 0x7A, 0x7A, 0x7A]] as [[UInt8]] {
                            let bytes = prefix + [lead, second, third] + tail
                            let found = bytes.withUnsafeBufferPointer { firstInvalidUTF8(in: $0) }
                            if found != reference(bytes) { mismatches.append(bytes) }
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked == prefixes.count * 128 * 256 * laterBytes.count * 4)
        #expect(mismatches.isEmpty, "first disagreements: \(mismatches.prefix(5))")
        // Valid text in every length class, long enough for the word-at-a-time paths.
        let text = Array("aé€😀 Ωмир 中文 ไทย 🇺🇦".utf8)
        #expect(text.withUnsafeBufferPointer { firstInvalidUTF8(in: $0) } == nil)
    }

    @Test func errorsCarryLineColumnAndExcerpt() {
        let text = "{\n  \"name\": \"Анна\",\n  \"tags\": [1, 2,]\n}"
        do {
            _ = try JSONDocument(parsing: text)
            Issue.record("accepted")
        } catch {
            #expect(error.reason == .trailingComma)
            #expect(error.line == 3)
            #expect(error.column == 16)
            #expect(error.excerpt == "  \"tags\": [1, 2,]\n               ^")
            #expect(
                error.description
                    == "line 3, column 16: trailing comma before \"]\"\n  \"tags\": [1, 2,]\n               ^")
            #expect(error.offset == Array(text.utf8).firstIndex(of: UInt8(ascii: "]"))! - 1)
        }
        do {
            _ = try JSONDocument(parsing: "[\"Анна\" x]")
        } catch {
            #expect(error.column == 9, "columns count scalars, not bytes")
        }
    }

    /// Every placement of one duplicate in objects of 2 to 40 keys is found, whether the keys'
    /// fingerprints (length, first and last byte) all differ or all agree; distinct keys pass.
    @Test func duplicateKeysFoundAtEveryPlacement() throws {
        for sameFingerprint in [false, true] {
            for count in 2...40 {
                let keys = (0..<count).map { sameFingerprint ? "x\($0 / 10)\($0 % 10)y" : "k\($0)" }
                func object(_ keys: [String]) -> String {
                    "{" + keys.enumerated().map { "\"\($0.element)\":\($0.offset)" }.joined(separator: ",") + "}"
                }
                #expect(throws: Never.self) { try JSONDocument(parsing: object(keys)) }
                for first in 0..<count {
                    for second in (first + 1)..<count {
                        var duplicated = keys
                        duplicated[second] = keys[first]
                        do {
                            _ = try JSONDocument(parsing: object(duplicated))
                            Issue.record("accepted \(count) keys with \(first) repeated at \(second)")
                        } catch {
                            #expect(error.reason == .duplicateKey)
                        }
                    }
                }
            }
        }
    }

    /// Distinct keys that share a fingerprint (the same length, first and last byte) pass in
    /// objects small and large, beside equal keys spelled with and without escapes, which are found.
    @Test func keysSharingAFingerprint() throws {
        let alike = #""daysUntilStale":14,"daysUntilClose":7"#
        for extra in [0, 5, 30, 31, 40, 200] {
            let others = (0..<extra).map { "\"k\($0)\":\($0)" }
            let distinct = "{" + ([alike] + others).joined(separator: ",") + "}"
            let document = try JSONDocument(parsing: distinct)
            #expect(document.root.count == extra + 2)
            for repeated in [#""daysUntilStale":1"#, #""days\u0055ntilStale":1"#, #""\u0064aysUntilClose":1"#] {
                let text = "{" + ([alike] + others + [repeated]).joined(separator: ",") + "}"
                #expect(throws: JSONParseError.self, "\(extra) \(repeated)") { try JSONDocument(parsing: text) }
                let last = try JSONDocument(parsing: text, options: .init(duplicateKeys: .lastWins))
                #expect(last.root.count == extra + 2)
            }
        }
    }

    /// Equal keys hash alike wherever their bytes are (the search for duplicates relies on it);
    /// these distinct ones, those that share a fingerprint included, do not.
    @Test func keyHashes() {
        func hash(_ key: String, after prefix: String) -> UInt64 {
            let bytes = Array((prefix + key + "!").utf8)
            return bytes.withUnsafeBufferPointer {
                TapeParser.keyHash($0.baseAddress! + prefix.utf8.count, key.utf8.count)
            }
        }
        let keys = [
            "", "a", "b", "ab", "abc", "abcd", "abce", "daysUntilStale", "daysUntilClose", "abcdefgh", "abcdefgi",
            "abcdefghi", "a\u{0}", "\u{0}", "Анна", "Анне", String(repeating: "k", count: 100),
            String(repeating: "k", count: 99) + "j",
        ]
        let hashes = keys.map { hash($0, after: "") }
        #expect(Set(hashes).count == keys.count)
        for prefix in ["{\"", "x", "0123456789"] {
            #expect(keys.map { hash($0, after: prefix) } == hashes, "\(prefix)")
        }
    }

    @Test func duplicateKeyPolicies() throws {
        let text = #"{"a":1,"b":2,"a":3}"#
        #expect(throws: JSONParseError.self) { try JSONDocument(parsing: text) }
        let first = try JSONValue(parsing: text, options: .init(duplicateKeys: .firstWins))
        #expect(first == ["a": 1, "b": 2])
        #expect(first.jsonString() == #"{"a":1,"b":2}"#)
        let last = try JSONDocument(parsing: text, options: .init(duplicateKeys: .lastWins))
        #expect(last.value.jsonString() == #"{"b":2,"a":3}"#)
        #expect(last.root.count == 2)
        #expect(last.root["a"]?.int == 3)
        let escaped = #"{"ab":1,"a\u0062":2}"#
        #expect(throws: JSONParseError.self) { try JSONDocument(parsing: escaped) }
        let many = "{" + (0..<100).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k7\":0}"
        #expect(throws: JSONParseError.self) { try JSONDocument(parsing: many) }
        let manyUnique = "{" + (0..<100).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
        #expect(try JSONDocument(parsing: manyUnique).root.count == 100)
    }

    /// Issue 23: keys sharing length and first and last bytes (`k000001`…) or one name repeated were
    /// compared pairwise, ~10¹⁰ comparisons for 200,000 keys. Now found through a hash of their bytes.
    @Test func manyKeysSharingAFingerprintAndManyDuplicates() throws {
        let keys = (0..<200_000).map { "k" + String(1_000_000 + $0).dropFirst() }
        let unique = "{" + keys.map { "\"\($0)\":1" }.joined(separator: ",") + "}"
        #expect(try JSONDocument(parsing: unique).root.count == 200_000)
        do {
            _ = try JSONDocument(parsing: "{" + keys.map { "\"\($0)\":1" }.joined(separator: ",") + ",\"k100000\":2}")
            Issue.record("a duplicate among 200,000 keys was not found")
        } catch {
            #expect(error.reason == .duplicateKey)
            #expect(error.detail == #"the key "k100000" appears twice in one object"#)
        }
        // 50,000 copies of one key, and of two keys interleaved, under each policy.
        let copies = "{" + (0..<50_000).map { "\"a\":\($0),\"b\":\(-$0)" }.joined(separator: ",") + "}"
        #expect(throws: JSONParseError.self) { try JSONDocument(parsing: copies) }
        let first = try JSONValue(parsing: copies, options: .init(duplicateKeys: .firstWins))
        #expect(first == ["a": 0, "b": 0])
        let last = try JSONDocument(parsing: copies, options: .init(duplicateKeys: .lastWins))
        #expect(last.value == ["a": 49_999, "b": -49_999])
        #expect(last.root.count == 2)
        #expect(last.value.jsonString() == #"{"a":49999,"b":-49999}"#)
    }

    /// Found by the `json` fuzz target: exponents saturated at about 10¹⁶, so `6784e099999999999999999`
    /// parsed to another number than it says, and wrote back as text that parsed to a third.
    @Test func exponentsBeyondFifteenDigitsAreRefusedNotRounded() throws {
        // The bound is on the value's exponent in scientific form, which is what is written back:
        // 6784e0999999999999999 is 6.784e1000000000000002 (found by the json fuzz target).
        let refused = [
            "6784e099999999999999999", "1e1000000000000000", "-2.5E-1000000000000000", "6784e0999999999999999",
            "12.5e999999999999999", "0.01e-999999999999999", "0e1000000000000000000",
            "6784e00099999999999999999999999999",
        ]
        for text in refused {
            do {
                _ = try JSONDocument(parsing: text)
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.reason == .invalidNumber)
                #expect(error.detail == "a number's exponent beyond ±999999999999999 cannot be kept exactly")
            }
            #expect(JSONNumber(text: text) == nil)
        }
        // Up to the bound, leading zeros aside, numbers are kept exactly and round-trip.
        let kept = [
            "1e999999999999999", "7e-000000000000000000999999999999999", "1E+0000000000000000001",
            "6784e999999999999996", "0.1e-999999999999998", "-0.00012e-999999999999995", "0e999999999999999999",
            "123.45e999999999999997",
        ]
        for text in kept {
            let value = try JSONValue(parsing: text)
            #expect(try JSONValue(parsing: value.jsonBytes()) == value, "\(text)")
            #expect(JSONNumber(text: text) != nil, "\(text)")
        }
        #expect(try JSONValue(parsing: "1e999999999999999") != (try JSONValue(parsing: "1e999999999999998")))
    }

    @Test func inputsOverTheSizeLimitAreRefusedBeforeParsing() throws {
        do {
            _ = try JSONDocument(parsing: "[1, 2, 3]", options: .init(maximumBytes: 5))
            Issue.record("accepted")
        } catch {
            #expect(error.reason == .sizeLimitExceeded)
            #expect(error.offset == 5)
        }
        #expect(try JSONDocument(parsing: "[1, 2, 3]", options: .init(maximumBytes: 9)).root.count == 3)
        #expect(JSONParserOptions(maximumBytes: .max).maximumBytes == JSONParserOptions.maximumAllowedBytes)
    }

    /// Issue 23: the excerpt of an error decoded the whole line (a 1 GB line cost 5 GB). Only a
    /// window around the column is decoded; the excerpt is the same as before.
    @Test func theExcerptOfAHugeLineIsAWindow() throws {
        for (line, expectedColumn) in [
            (
                "[\"" + String(repeating: "é", count: 5_000_000) + "\", tru" + String(repeating: "ж", count: 1_000)
                    + "]",
                5_000_009
            ),
            ("[\"" + String(repeating: "é", count: 20) + "\", tru" + String(repeating: "ж", count: 20) + "]", 29),
            ("[" + String(repeating: "1,", count: 2_000_000) + "]", 4_000_001),
        ] {
            do {
                _ = try JSONDocument(parsing: line)
                Issue.record("accepted")
            } catch {
                #expect(error.column == expectedColumn)
                // What the excerpt showed before: the 100 scalars of the line around the column.
                let scalars = Array(line.unicodeScalars)
                let from = max(0, min(error.column - 1 - 50, scalars.count - 100))
                var shown = ""
                shown.unicodeScalars.append(contentsOf: scalars[from..<min(scalars.count, from + 100)])
                let expected = shown + "\n" + String(repeating: " ", count: error.column - 1 - from) + "^"
                #expect(error.excerpt == expected)
            }
        }
    }

    @Test func unpairedSurrogatesCanBeReplaced() throws {
        let value = try JSONValue(parsing: #""a\uD800b""#, options: .init(unpairedSurrogates: .replace))
        #expect(value == "a\u{FFFD}b")
    }

    @Test func byteOrderMarkCanBeRefused() {
        #expect(throws: JSONParseError.self) {
            try JSONDocument(parsing: "\u{FEFF}1", options: .init(skipsByteOrderMark: false))
        }
    }

    @Test func depthLimitIsAnErrorNotACrash() throws {
        let deep = String(repeating: "[", count: 100_000)
        do {
            _ = try JSONDocument(parsing: deep)
            Issue.record("accepted")
        } catch {
            #expect(error.reason == .depthLimitExceeded)
            #expect(error.offset == 512)
        }
        let objects = String(repeating: "{\"a\":", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONDocument(parsing: objects) }
        let fine = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        _ = try JSONDocument(parsing: fine)
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(throws: JSONParseError.self) { try JSONDocument(parsing: tooDeep) }
        let shallow = JSONParserOptions(maximumDepth: 3)
        #expect(throws: JSONParseError.self) { try JSONDocument(parsing: "[[[[]]]]", options: shallow) }
        #expect(JSONParserOptions(maximumDepth: 1_000_000).maximumDepth == JSONParserOptions.maximumAllowedDepth)
        // The deepest allowed value can be materialised, compared, hashed and written.
        let deepest = String(repeating: "[", count: 1_000) + String(repeating: "]", count: 1_000)
        let value = try JSONValue(parsing: deepest, options: .init(maximumDepth: 1_000))
        #expect(value == value)
        #expect(value.jsonString() == deepest)
        _ = value.hashValue
    }

    @Test func hugeNumbersStayExact() throws {
        let big = try JSONValue(parsing: "1e400")
        guard case .number(let number) = big else { Issue.record("not a number"); return }
        #expect(number.double == nil)
        #expect(number.description == "1e400")
        #expect(number > JSONNumber(text: "9e399")!)
        let digits = String(repeating: "9", count: 200)
        let integer = try JSONValue(parsing: digits)
        #expect(integer.jsonString() == digits)
        #expect(integer.kind == .integer)
        #expect(try JSONValue(parsing: digits + ".0") == integer)
        #expect(try JSONValue(parsing: "1" + String(repeating: "0", count: 199)) == (try JSONValue(parsing: "1e199")))
    }

    @Test func aHundredMegabyteString() throws {
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 100_000_002)
        bytes[0] = UInt8(ascii: "\"")
        bytes[bytes.count - 1] = UInt8(ascii: "\"")
        let document = try JSONDocument(parsing: bytes)
        #expect(document.root.string?.utf8.count == 100_000_000)
    }

    @Test func randomBytesNeverCrashOrHang() {
        var rng = SplitMix(seed: 8259)
        let alphabet: [UInt8] =
            Array("{}[],:\"\\0123456789.eE+-truefalsn u\t\n".utf8) + [0xC3, 0xA9, 0xFF, 0xED, 0x00, 0x1F]
        var accepted = 0
        for _ in 0..<20_000 {
            let length = Int(rng.next() % 40)
            let bytes = (0..<length).map { _ in
                rng.next() % 4 == 0
                    ? UInt8(truncatingIfNeeded: rng.next()) : alphabet[Int(rng.next() % UInt64(alphabet.count))]
            }
            do {
                let document = try JSONDocument(parsing: bytes)
                accepted += 1
                // Anything accepted round-trips.
                let written = document.value.jsonBytes()
                #expect(try JSONValue(parsing: written) == document.value)
            } catch {
                #expect(error.offset >= 0 && error.offset <= bytes.count)
            }
        }
        #expect(accepted > 0)
    }
}

/// `hasMembers` (what `required` asks) against the set of an object's live keys, for lists short
/// (a search per name) and long (one pass over the members), names in any order, repeated, spelled
/// in NFC and NFD, and objects with members overwritten (`lastWins`, whose earlier copies are dead).
@Suite struct RequiredMembersTests {
    @Test func hasMembersAgreesWithTheKeys() throws {
        let pool = (0..<40).map { "k\($0)" } + ["\u{E9}", "e\u{301}", "", "k1\u{0}"]
        var random = SplitMix(seed: 25)
        var checked = 0
        for _ in 0..<600 {
            let keys = Array(pool.shuffled(using: &random).prefix(Int.random(in: 0...pool.count, using: &random)))
            var members = keys.map { "\(JSONValue.string($0))" + ":1" }
            // An earlier copy of a member, dead once the later one wins.
            if let first = keys.first, Bool.random(using: &random) {
                members.insert("\(JSONValue.string(first)):0", at: 0)
            }
            let document = try JSONDocument(
                parsing: "{" + members.joined(separator: ",") + "}", options: .init(duplicateKeys: .lastWins))
            let present = Set(keys.map { Array($0.utf8) })
            for _ in 0..<4 {
                var names = (0..<Int.random(in: 1...48, using: &random)).map { _ in pool.randomElement(using: &random)!
                }
                if Bool.random(using: &random), let key = keys.randomElement(using: &random) { names.append(key) }
                let list = UTF8Names(names)
                defer { list.deallocate() }
                #expect(list.distinctCount == Set(names.map { Array($0.utf8) }).count)
                let expected = Set(names.map { Array($0.utf8) }).isSubset(of: present)
                #expect(document.root.hasMembers(list) == expected, "\(names) in \(keys)")
                checked += 1
            }
        }
        #expect(checked == 2_400)
        // Answers known beforehand, not only against the oracle.
        let document = try JSONDocument(parsing: #"{"b":1,"a":2,"c":3,"d":4,"e":5,"f":6}"#)
        for (names, expected) in [
            (["a", "b", "c", "d", "e", "f"], true), (["f", "e", "d", "c", "b", "a", "a"], true),
            (["a", "b", "c", "d", "e", "g"], false), (["a", "a", "a", "a", "a"], true), (["a", "b"], true),
        ] {
            let list = UTF8Names(names)
            defer { list.deallocate() }
            #expect(document.root.hasMembers(list) == expected, "\(names)")
        }
    }
}

struct SplitMix: RandomNumberGenerator {
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

@Suite struct ByteComparisonTests {
    /// The word-at-a-time comparison finds a difference at every position of runs of every length
    /// up to 40, and equal runs equal (each run at an odd offset, so loads are unaligned).
    @Test func sameBytesFindsEveryDifference() {
        for length in 0...40 {
            let first = [0xEE] + (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(
                first.withUnsafeBufferPointer { a in
                    Array(first).withUnsafeBufferPointer { b in
                        sameBytes(a.baseAddress! + 1, b.baseAddress! + 1, length)
                    }
                })
            for position in 0..<length {
                var second = first
                second[position + 1] ^= 0x01
                let equal = first.withUnsafeBufferPointer { a in
                    second.withUnsafeBufferPointer { b in sameBytes(a.baseAddress! + 1, b.baseAddress! + 1, length) }
                }
                #expect(!equal, "length \(length), position \(position)")
            }
        }
    }
}

@Suite struct UTF8NamesTests {
    /// Every key is found at the position a plain scan finds it, or not at all, whatever the search's
    /// start: names of every length 0 … 12 and first byte (ASCII, non-ASCII, the empty name), lists
    /// short enough to be scanned and long enough for the hash table, and keys that differ from a
    /// name only after the first byte (same length and first byte: they pass the signature filter
    /// and must still be compared), and names the hash cannot tell apart (same length, first and
    /// last four bytes). A key `mayContain` turns away is none of the names.
    @Test func everyKeyIsFoundWhereAPlainScanFindsIt() {
        let alphabet = [
            "", "a", "ab", "abc", "b", "ba", "é", "éa", "😀", "name", "kind", "nbme", "replicas", "replicaz",
            "tls", "tlz", "pool", "poll", "engine", "x12345678901", "x12345678902", "\u{0}", "\u{0}\u{0}",
            "abcd-wxyz", "abcd+wxyz", "abcd.wxyz",
        ]
        let keys =
            alphabet + ["c", "abd", "names", "kin", "replica", "TLS", "eNgine", "é😀", "y12345678901", "abcd=wxyz"]
        var turnedAway = 0
        for size in [0, 1, 2, 3, 5, 8, 9, 12, alphabet.count] {
            for offset in [0, 3, 7] {
                let chosen = (0..<size).map { alphabet[($0 &+ offset) % alphabet.count] }
                var list: [String] = []
                for name in chosen where !list.contains(where: { $0.utf8.elementsEqual(name.utf8) }) {
                    list.append(name)
                }
                let names = UTF8Names(list)
                defer { names.deallocate() }
                for key in keys {
                    let expected = list.firstIndex { $0.utf8.elementsEqual(key.utf8) }
                    for start in 0...list.count {
                        let found = names.position(of: key, from: start)
                        #expect(found == expected, "\(list) key \(key) from \(start)")
                    }
                    var copy = key
                    if !copy.withUTF8({ names.mayContain($0) }) {
                        turnedAway += 1
                        #expect(expected == nil, "\(list) key \(key)")
                    }
                }
            }
        }
        // The signature turns most keys of a short list away without comparing them.
        #expect(turnedAway > 300)
    }
}
