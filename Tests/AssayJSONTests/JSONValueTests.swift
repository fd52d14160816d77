import Testing

@testable import AssayJSON

@Suite struct JSONNumberTests {
    func n(_ text: String) -> JSONNumber { JSONNumber(text: text)! }

    @Test func stringsCompareCodePointByCodePoint() {
        // Swift's String equality is canonical equivalence; JSON Schema's is code point equality.
        let composed: JSONValue = .string("\u{E9}")
        let decomposed: JSONValue = .string("e\u{301}")
        #expect(composed != decomposed)
        #expect(composed == .string("\u{E9}"))
        #expect(Set([composed, decomposed]).count == 2)
    }

    /// Short literals (no exponent, at most 18 digits) skip the digit array; their canonical form
    /// must be the one the general path gives for the same digits.
    @Test func shortLiteralsMatchTheGeneralPath() {
        var literals = [
            "0", "-0", "0.0", "-0.000", "7", "-7", "10", "100", "22.45", "22.450", "-12.50", "0.001", "100.00",
            "123456789012345678", "-123456789012345678", "1234567890123456789", "12345678901234567.8",
            "0.000000000000000001", "9223372036854775807", "-9223372036854775808", "1.5e3", "1e-2", "-0.5",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let whole = String(UInt64.random(in: 0...999_999_999, using: &generator))
            let fraction = String(UInt64.random(in: 0...99_999_999, using: &generator))
            let sign = Bool.random(using: &generator) ? "-" : ""
            literals.append(sign + whole + (Bool.random(using: &generator) ? "." + fraction : ""))
        }
        for literal in literals {
            let bytes = Array(literal.utf8)
            let fast = bytes.withUnsafeBufferPointer { JSONNumber(literal: $0) }
            // The general path: the digits, the sign and the exponent taken apart by hand.
            let negative = literal.hasPrefix("-")
            let mantissa = literal.split(separator: "e")[0].drop { $0 == "-" }
            let exponentPart = literal.split(separator: "e").dropFirst().first.flatMap { Int($0) } ?? 0
            let fractionDigits = mantissa.split(separator: ".").dropFirst().first?.count ?? 0
            let digits = Array(mantissa.filter { $0 != "." }.utf8)
            let general = JSONNumber(negative: negative, digits: digits, exponent: exponentPart - fractionDigits)
            #expect(fast.storage == general.storage, "\(literal)")
            #expect(fast.description == general.description, "\(literal)")
        }
    }

    @Test func equalValuesAreEqualWhateverTheirSpelling() {
        let groups: [[String]] = [
            ["1", "1.0", "1.00", "10e-1", "0.1e1", "1E0", "100e-2"],
            ["0", "-0", "0.0", "-0.0e5", "0e-10"],
            ["0.1", "1e-1", "0.10", "10e-2"],
            ["-12.5", "-1.25e1", "-125e-1"],
            ["123456789012345678901234567890", "1.2345678901234567890123456789e29"],
            ["9223372036854775807", "9.223372036854775807e18"],
            ["1e400", "10e399", "0.1e401"],
        ]
        for group in groups {
            for a in group {
                for b in group {
                    #expect(n(a) == n(b), "\(a) == \(b)")
                    #expect(n(a).hashValue == n(b).hashValue, "hash \(a) \(b)")
                }
            }
        }
        #expect(JSONNumber(Int.max) == n("9223372036854775807"))
        #expect(JSONNumber(Int.min) == n("-9223372036854775808"))
        #expect(n("1") != n("1.0000000000000000000001"))
    }

    @Test func comparisonsAreExact() {
        #expect(n("0.1") < n("0.10000000000000001"))
        #expect(n("1e399") < n("1e400"))
        #expect(n("-1e400") < n("-1e399"))
        #expect(n("-1") < n("0"))
        #expect(n("0") < n("1e-400"))
        #expect(n("99999999999999999999") < n("100000000000000000000"))
        #expect(n("2.5") > n("2.49999999999999999999999"))
        #expect(!(n("3") < n("3.0")))
        // Integers and 64-bit decimals compare by scaling; the result must match the digit comparison.
        let texts = [
            "-100", "-1.5", "-1", "-0.5", "0", "0.05", "0.5", "1", "1.5", "22.45", "22.5", "100", "100.25",
            "9223372036854775807", "-9223372036854775808", "922337203685477580.7", "0.000000000000000001",
            "0.0000000000000000001", "1e-30", "12345678901234567.89", "99.999999999999999",
        ]
        for a in texts {
            for b in texts {
                let x = n(a)
                let y = n(b)
                // Exactly one of <, ==, > holds; where Double tells the values apart, it agrees.
                #expect([x < y, x == y, y < x].filter { $0 }.count == 1, "\(a) vs \(b)")
                if Double(a)! != Double(b)! { #expect((x < y) == (Double(a)! < Double(b)!), "\(a) < \(b)") }
            }
        }
        // Where Double cannot tell them apart, the comparison is still exact.
        #expect(n("99.999999999999999") < n("100"))
        #expect(n("922337203685477580.7") < n("922337203685477580.8"))
        #expect(n("0.0000000000000000001") < n("0.000000000000000001"))
    }

    @Test func multipleOfIsExact() {
        #expect(n("0.07").isMultiple(of: n("0.01")))
        #expect(n("19.99").isMultiple(of: n("0.01")))
        #expect(!n("19.995").isMultiple(of: n("0.01")))
        #expect(n("4.5").isMultiple(of: n("1.5")))
        #expect(!n("35").isMultiple(of: n("1.5")))
        #expect(n("1e308").isMultiple(of: n("1e-8")))
        #expect(n("123456789012345678901234567890").isMultiple(of: n("10")))
        #expect(!n("123456789012345678901234567891").isMultiple(of: n("10")))
        #expect(n("0").isMultiple(of: n("0.0001")))
        #expect(!n("1").isMultiple(of: n("0")))
        #expect(n("-6").isMultiple(of: n("3")))
        #expect(n("1e400").isMultiple(of: n("2")))
        #expect(!n("1e-400").isMultiple(of: n("2")))
        // Extreme exponents are decided exactly, never through `Double` (issue 23: `1e-10000`
        // against 7 was answered from Doubles, wrongly).
        #expect(!n("1e-10000").isMultiple(of: n("7")))
        #expect(n("7e10000").isMultiple(of: n("7")))
        #expect(!n("7e10000").isMultiple(of: n("3")))
        #expect(n("1e100000").isMultiple(of: n("1e-100000")))
        #expect(!n("1e-100000").isMultiple(of: n("1e100000")))
        #expect(n("1e999999999").isMultiple(of: n("2.5e-999999999")))
        #expect(n("1e999999999").isMultiple(of: n("1024")))
        #expect(n("1e999999999").isMultiple(of: n("0.0000001953125")))  // 5⁹ × 10⁻¹³
        #expect(!n("1e999999999").isMultiple(of: n("3")))
        #expect(n("3e-999999999").isMultiple(of: n("1e-999999999")))
        #expect(!n("3e-999999998").isMultiple(of: n("7e-999999999")))
        #expect(n("21e-999999998").isMultiple(of: n("7e-999999999")))
        #expect(n("0.000244140625").isMultiple(of: n("0.000000059604644775390625")))  // 2^-12 of 2^-24
        #expect(!n("0.000244140625").isMultiple(of: n("0.001")))
        #expect(n("5e3").isMultiple(of: n("625")))  // 5000 = 8 × 625
        #expect(!n("5e3").isMultiple(of: n("3125")))
        #expect(n("16e2").isMultiple(of: n("64")))  // 1600 = 25 × 64
        #expect(!n("16e2").isMultiple(of: n("128")))
        // Against brute force on small numbers with exponents.
        for a in 1...60 {
            for b in 1...40 {
                for (ea, eb) in [(0, 0), (1, 0), (0, 1), (2, -1), (-1, -2), (-2, 1), (3, 3)] {
                    let scale = 4  // both as integers times 10^-4
                    let x = a * Int(pow10(ea + scale))
                    let y = b * Int(pow10(eb + scale))
                    let expected = x % y == 0
                    #expect(n("\(a)e\(ea)").isMultiple(of: n("\(b)e\(eb)")) == expected, "\(a)e\(ea) of \(b)e\(eb)")
                }
            }
        }
    }

    private func pow10(_ power: Int) -> Double { (0..<power).reduce(1.0) { value, _ in value * 10 } }

    @Test func viewsAreExactOrNil() {
        #expect(n("12").int == 12)
        #expect(n("12.0").int == 12)
        #expect(n("12.5").int == nil)
        #expect(n("1e30").int == nil)
        #expect(n("0.1").double == 0.1)
        #expect(n("1e400").double == nil)
        #expect(n("1e-400").double == 0)
        #expect(n("0.1").decimal?.description == "0.1")
        #expect(n("12.5").isInteger == false)
        #expect(n("1e3").isInteger)
        #expect(JSONNumber(Double(0.1))?.description == "0.1")
        #expect(JSONNumber(Double.nan) == nil)
        #expect(JSONNumber(Double(1e300))?.description == "1e300")
    }

    @Test func describesCanonically() {
        let cases: [(String, String)] = [
            ("1.0", "1"), ("1.50", "1.5"), ("-0", "0"), ("1e2", "100"), ("1E+2", "100"), ("0.000001", "0.000001"),
            ("1e-7", "1e-7"), ("1.5e-7", "1.5e-7"), ("123.456", "123.456"), ("1e21", "1000000000000000000000"),
            ("1e22", "1e22"), ("-2.5e-3", "-0.0025"),
        ]
        for (input, output) in cases { #expect(n(input).description == output, "\(input)") }
    }
}

@Suite struct JSONValueTests {
    @Test func equalityFollowsJSONSchema() throws {
        #expect(try JSONValue(parsing: "1") == JSONValue(parsing: "1.0"))
        #expect(try JSONValue(parsing: #"{"a":1,"b":[1,2]}"#) == JSONValue(parsing: #"{"b":[1,2.0],"a":1}"#))
        #expect(try JSONValue(parsing: "[1,2]") != JSONValue(parsing: "[2,1]"))
        #expect(JSONValue.bool(true) != 1)
        #expect(JSONValue.null != false)
        let set: Set<JSONValue> = [["a": 1, "b": 2], ["b": 2, "a": 1.0], 1, 1.0, "1"]
        #expect(set.count == 3)
    }

    @Test func objectsKeepKeyOrderAndLookUpFast() {
        var object = JSONObject()
        for index in 0..<40 { object["k\(index)"] = .number(JSONNumber(index)) }
        #expect(object.keys.first == "k0")
        #expect(object.keys.last == "k39")
        #expect(object["k17"] == 17)
        object["k17"] = nil
        #expect(object["k17"] == nil)
        #expect(object["k18"] == 18)
        #expect(object.count == 39)
        object["k0"] = "changed"
        #expect(object.keys.first == "k0")
    }

    @Test func writesCompactPrettyAndSorted() throws {
        let value: JSONValue = ["b": [1, 2.5, "x"], "a": ["nested": true], "c": nil, "e": [], "f": [:]]
        #expect(value.jsonString() == #"{"b":[1,2.5,"x"],"a":{"nested":true},"c":null,"e":[],"f":{}}"#)
        #expect(value.jsonString(.sortedKeys) == #"{"a":{"nested":true},"b":[1,2.5,"x"],"c":null,"e":[],"f":{}}"#)
        #expect(
            value.jsonString([.prettyPrinted, .sortedKeys]) == """
                {
                  "a": {
                    "nested": true
                  },
                  "b": [
                    1,
                    2.5,
                    "x"
                  ],
                  "c": null,
                  "e": [],
                  "f": {}
                }
                """)
    }

    @Test func escapesStrings() {
        let value: JSONValue = "quote\" backslash\\ newline\n tab\t nul\u{0} bell\u{7} é 😀 \u{2028}"
        #expect(value.jsonString() == #""quote\" backslash\\ newline\n tab\t nul\u0000 bell\u0007 é 😀 \#u{2028}""#)
        #expect(
            value.jsonString(.asciiOnly)
                == #""quote\" backslash\\ newline\n tab\t nul\u0000 bell\u0007 \u00e9 \ud83d\ude00 \u2028""#)
    }

    /// Every ASCII character at every place of strings up to 24 bytes long (runs are found eight
    /// bytes at a time: before, across and after a word's edge), and beside non-ASCII text, is
    /// written as a byte-by-byte escaper writes it.
    @Test func escapesEveryCharacterAtEveryPlace() {
        func reference(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case "\u{8}": out += "\\b"
                case "\u{C}": out += "\\f"
                case _ where scalar.value < 0x20:
                    out += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        for length in 1...24 {
            for place in 0..<length {
                for code in 0..<128 {
                    var scalars = Array(repeating: Unicode.Scalar("a"), count: length)
                    scalars[place] = Unicode.Scalar(UInt8(code))
                    if length > 3 { scalars[length - 1] = "é" }
                    let text = String(String.UnicodeScalarView(scalars))
                    #expect(JSONValue.string(text).jsonString() == reference(text), "\(text.debugDescription)")
                }
            }
        }
    }

    @Test(arguments: [
        #"{"id":"6fced11d","name":"วิไล ใจดี","age":81,"score":22.45,"tags":["mobile","loyal"],"x":null,"ok":true}"#,
        #"[1e400,-0.000001,123456789012345678901234567890,"\u0000\"\\",{"":{}},[[]]]"#,
        #"{"a":"\ud83d\ude00","b":"\u00e9"}"#,
    ])
    func roundTripsExactly(_ text: String) throws {
        let value = try JSONValue(parsing: text)
        let written = value.jsonString()
        let reparsed = try JSONValue(parsing: written)
        #expect(reparsed == value)
        #expect(reparsed.jsonString() == written, "writing is stable")
        #expect(try JSONValue(parsing: value.jsonString(.prettyPrinted)) == value)
        #expect(try JSONValue(parsing: value.jsonString(.asciiOnly)) == value)
    }

    @Test func isCompactInMemory() {
        #expect(MemoryLayout<JSONNumber>.size <= 16)
        #expect(MemoryLayout<JSONValue>.size <= 17)
        #expect(MemoryLayout<JSONValue>.stride <= 24)
    }

    @Test func kinds() throws {
        #expect(try JSONValue(parsing: "1.0").kind == .integer)
        #expect(try JSONValue(parsing: "1.5").kind == .number)
        #expect(JSONValue.null.kind == .null)
        #expect(JSONValue.string("").kind == .string)
    }
}

@Suite("Documents built from values")
struct DocumentFromValueTests {
    /// A tape built straight from a value reads back as the value, and as the parse of its JSON text
    /// does: the same kinds (integers of up to 18 digits on the tape, other numbers as literals),
    /// strings, keys (composed and decomposed kept apart) and order.
    @Test func aBuiltDocumentReadsAsItsParse() throws {
        let texts = [
            "null", "true", "-0", "0", "123456789012345678", "1234567890123456789", "-1.50", "1e400", "2.5E-3",
            #""é\u0000\"\\""#, "[]", "{}", #"[1, [2, [3, {"a": [null]}]], "x"]"#,
            #"{"\u00e9": 1, "e\u0301": 2, "b": {"c": [true, false]}, "": ""}"#,
        ]
        for text in texts {
            let parsed = try JSONDocument(parsing: text)
            let built = try #require(JSONDocument(writing: parsed.value), "\(text)")
            #expect(built.value == parsed.value, "\(text)")
            #expect(built.value.jsonString() == parsed.value.jsonString(), "\(text)")
            #expect(built.root.kind == parsed.root.kind, "\(text)")
        }
        // As deep as the parser allows, not deeper; built without recursion.
        var deep: JSONValue = 1
        for _ in 0..<1_000 { deep = [deep] }
        #expect(JSONDocument(writing: deep) != nil)
        #expect(JSONDocument(writing: [deep]) == nil)
    }

    /// A built document writes each number's literal as its description, without making one.
    @Test func numberLiteralsAreTheirDescriptions() throws {
        var state: UInt64 = 26
        func next(_ bound: UInt64) -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (state >> 33) % bound
        }
        var texts = [
            "0.1", "-0.5", "0.000001", "0.0000001", "-0.00001234", "123.456", "9223372036854775.807",
            "-9223372036854775.808", "1e-7",
        ]
        for _ in 0..<5_000 {
            let digits = String(next(1_000_000_000_000))
            let exponent = Int(next(30)) - 20
            texts.append((next(2) == 0 ? "-" : "") + digits + "e" + String(exponent))
        }
        for text in texts {
            let number = try #require(JSONNumber(text: text), "\(text)")
            var bytes: [UInt8] = []
            number.appendLiteral(to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == number.description, "\(text)")
            let built = try #require(JSONDocument(writing: .number(number)))
            #expect(built.value == .number(number), "\(text)")
        }
    }
}
