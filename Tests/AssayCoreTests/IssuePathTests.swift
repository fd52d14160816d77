import Testing

@testable import AssayCore

@Suite struct IssuePathTests {
    @Test func rendersJSONPointerAndCodingPath() {
        let path: IssuePath = ["clients", 1, "age"]
        #expect(path.jsonPointer == "/clients/1/age")
        #expect(path.codingPath == "clients[1].age")
        #expect(IssuePath.root.jsonPointer == "")
        #expect(IssuePath.root.codingPath == "")
        #expect(IssuePath([.index(0), .key("age")]).codingPath == "[0].age")
    }

    @Test func escapesPointerTokensAndQuotesOddKeys() {
        let path: IssuePath = ["a/b", "m~n", "first name", "quote\"d"]
        #expect(path.jsonPointer == "/a~1b/m~0n/first name/quote\"d")
        #expect(path.codingPath == "[\"a/b\"][\"m~n\"][\"first name\"][\"quote\\\"d\"]")
        // Non-ASCII keys, an empty key, `~1` written literally, large and zero indices.
        let odd: IssuePath = ["é/ü", "", "~1", 0, 1_234_567, "日本"]
        #expect(odd.jsonPointer == "/é~1ü//~01/0/1234567/日本")
        #expect(IssuePath(jsonPointer: odd.jsonPointer) == odd)
    }

    /// Indices in pointers, and the CLI's line and document numbers, are written as their digits.
    @Test func decimalDigits() {
        var powers: [Int] = []
        var power = 1
        for _ in 0..<19 {
            powers += [power - 1, power, power + 1]
            power = power &* 10
        }
        var mismatches: [Int] = []
        for value in Array(0...120_000) + powers + [1_000_001, 123_456_789, Int.max, Int.max - 1, -1, -250] {
            var out: [UInt8] = [0x2C]
            appendDecimal(value, to: &out)
            if out != [0x2C] + Array(String(value).utf8) { mismatches.append(value) }
        }
        #expect(mismatches.isEmpty, "first values written wrong: \(mismatches.prefix(5))")
    }

    /// Pointers written straight into a string's storage (every error's locations) agree with the
    /// text an escaper of whole strings makes.
    @Test func pointerStringsMatchTheTextOfAnIndependentEscaper() {
        func escaped(_ token: String) -> String {
            "/" + token.replacing("~", with: "~0").replacing("/", with: "~1")
        }
        let pieces = [
            "", "a", "~", "/", "~1", "a/b~c", "é/ü", "日本", "quote\"d", String(repeating: "~/", count: 40), "$ref",
        ]
        for prefix in ["", "file:///tmp/s.json#", "urn:x#/$defs/a~1b"] {
            for first in pieces {
                for second in pieces {
                    for last in [nil, "type"] + pieces.map(Optional.some) {
                        let expected = prefix + escaped(first) + escaped(second) + (last.map(escaped) ?? "")
                        let made = PointerText.string(prefix: Array(prefix.utf8), tokens: [first, second], last: last)
                        #expect(made == expected)
                    }
                }
            }
        }
        // A `~` or `/` at every place of tokens of every length up to three words (read eight
        // bytes at a time, then byte by byte), and tokens with none.
        for length in 0...24 {
            let plain = String(repeating: "k", count: length)
            #expect(PointerText.string(tokens: [plain], last: plain) == escaped(plain) + escaped(plain))
            for place in 0..<length {
                for special in ["~", "/"] {
                    var bytes = Array(plain.utf8)
                    bytes[place] = UInt8(ascii: special == "~" ? "~" : "/")
                    let token = String(decoding: bytes, as: UTF8.self)
                    #expect(PointerText.string(tokens: [token]) == escaped(token), "\(token)")
                    #expect(PointerText.string([.key(token)]) == escaped(token), "\(token)")
                }
            }
        }
        #expect(PointerText.string(tokens: []) == "")
        #expect(PointerText.string(tokens: [], last: "a~b") == "/a~0b")
        for index in [0, 7, 9, 10, 99, 100, 1_234_567, Int.max, -1, -250, Int.min] {
            for key in pieces {
                let components: [PathComponent] = [.key(key), .index(index), .key(key)]
                #expect(PointerText.string(components) == escaped(key) + "/\(index)" + escaped(key), "\(index) \(key)")
                #expect(PointerText.string(components, indexToken: "*") == escaped(key) + "/*" + escaped(key))
            }
        }
        #expect(PointerText.string([]) == "")
    }

    @Test func parsesJSONPointers() {
        #expect(IssuePath(jsonPointer: "") == .root)
        #expect(IssuePath(jsonPointer: "/a~1b/0/m~0n") == IssuePath([.key("a/b"), .index(0), .key("m~n")]))
        #expect(IssuePath(jsonPointer: "/01") == IssuePath([.key("01")]), "leading zero is a key")
        #expect(IssuePath(jsonPointer: "no-slash") == nil)
        #expect(IssuePath(jsonPointer: "/bad~2escape") == nil)
        #expect(IssuePath(jsonPointer: "/trailing~") == nil)
        #expect(IssuePath(jsonPointer: "/é~1ü/日本~0") == IssuePath([.key("é/ü"), .key("日本~")]))
        #expect(IssuePath(jsonPointer: "/") == IssuePath([.key("")]))
    }

    @Test func roundTripsThroughPointer() {
        let path: IssuePath = ["", "~", "/", 3, "ключ", "键"]
        #expect(IssuePath(jsonPointer: path.jsonPointer) == path)
    }

    @Test func appendsAndPrefixes() {
        let start: IssuePath = ["a"]
        let path = start.appending(index: 2).appending(key: "b")
        #expect(path.jsonPointer == "/a/2/b")
        #expect(path.lastKey == "b")
        let x: IssuePath = ["x"]
        #expect(x.prefixed(by: ["root", 0]).jsonPointer == "/root/0/x")
    }
}
