import AssayCore
import AssayJSON
import AssaySchema
import AssayTestSupport
import Foundation
import Testing

@testable import AssayCodable

/// One rule, two readings: for every rule kind with an exported form, generated values on both
/// sides of the rule's boundary get the same verdict from the rule and from the exported schema
/// (AssaySchema, formats asserted) on the value as JSON.
@Suite struct RuleExportAgreementTests {
    /// The verdicts of `rule` and of its exported schema on each value, compared; both verdicts must
    /// occur, so a generator that misses the boundary fails the test.
    private func agree<T: Encodable & JSONSchemaExportable>(
        _ rule: Rule<T>, _ values: [T], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let exported = JSONSchemaExporter.keywords(for: rule.kind)
        #expect(exported.unstated.isEmpty, "\(rule.kind) is stated exactly", sourceLocation: sourceLocation)
        var exporter = JSONSchemaExporter()
        let schemaValue = JSONSchemaExporter.merge(exporter.schema(for: T.self), .object(exported.keywords))
        let schema = try JSONSchema(schemaValue, options: .init(assertFormats: true))
        var verdicts: Set<Bool> = []
        let encoder = JSONEncoder()
        for value in values {
            let json = try JSONValue(parsing: String(decoding: encoder.encode(value), as: UTF8.self))
            let byRule = rule.isValid(value)
            verdicts.insert(byRule)
            #expect(
                byRule == schema.isValid(json),
                "\(rule.kind) on \(json.jsonString()): rule says \(byRule), schema \(schemaValue.jsonString())",
                sourceLocation: sourceLocation)
        }
        #expect(verdicts == [true, false], "\(rule.kind): both verdicts generated", sourceLocation: sourceLocation)
    }

    private var numbers = SeededNumbers(seed: 2_026_1126)

    private mutating func strings(from pool: [String], count: Int = 400, maximumParts: Int = 6) -> [String] {
        (0..<count).map { _ in (0..<numbers.next(maximumParts + 1)).map { _ in pool[numbers.next(pool.count)] }.joined()
        }
    }

    /// Scalars of many kinds: ASCII letters, digits and punctuation, Latin-1, Greek, combining marks,
    /// Arabic-Indic digits, Unicode and ECMA-262 white space that differ (U+0085, U+FEFF), CJK, emoji.
    private static let scalarPool = [
        "a", "Z", "0", "9", " ", "\t", "\n", "_", "-", ",", "!", "é", "e\u{301}", "\u{301}", "Ω", "ß", "٣", "\u{85}",
        "\u{A0}", "\u{FEFF}", "\u{2028}", "\u{3000}", "中", "😀", "！", "\u{200B}", "\u{1680}", "\u{180E}", "\u{0}",
    ]

    @Test mutating func numbersAgree() throws {
        let integers = (0..<300).map { _ in numbers.next(60) - 5 } + [Int.min, Int.max, 0, 16, 50]
        try agree(Rule<Int>.range(16...50), integers)
        try agree(Rule<Int>.range(..<16), integers)
        try agree(Rule<Int>.range(minimum: 16, maximum: 50, exclusiveMinimum: true), integers)
        try agree(Rule<Int>.multipleOf(5), integers)
        try agree(Rule<Int8>.multipleOf(7), (-128...127).map { Int8($0) })
        let doubles =
            (0..<400).map { _ in Double(numbers.next(2_400) - 200) / 1_000 } + [0, -0.0, 1, 1e-300, 0.999_999_9]
        try agree(Rule<Double>.range(0.0..<1.0), doubles)
        try agree(Rule<Double>.range(0.5...), doubles)
        try agree(Rule<Double>.multipleOf("0.01"), doubles.map { $0 / 10 })
        try agree(Rule<Double>.multipleOf("0.25"), doubles)
        try agree(Rule<Double>.and(.finite, .range(...1.5)), doubles)
        try agree(Rule<Int>.oneOf([1, 2, 3]), integers)
        try agree(Rule<Int>.const(7), integers + [7])
        try agree(Rule<Int>.not(.range(10...20)), integers)
        try agree(Rule<Int>.or(.range(...0), .multipleOf(10)), integers)
    }

    @Test mutating func textAgrees() throws {
        let texts = strings(from: Self.scalarPool)
        try agree(Rule<String>.length(2...5), texts)
        try agree(Rule<String>.length(3...), texts)
        try agree(Rule<String>.notBlank, texts)
        try agree(Rule<String>.pattern("^[a-z]+[0-9]?$"), strings(from: ["a", "z", "0", "9", "A", " "]))
        // A pattern that does not compile fails every value, and its schema every value too.
        let broken = Rule<String>.matches("(unclosed")
        let brokenSchema = try JSONSchema(.object(JSONSchemaExporter.keywords(for: broken.kind).keywords))
        for text in texts { #expect(!broken.isValid(text) && !brokenSchema.isValid(.string(text))) }
        try agree(Rule<String>.oneOf(["é", "a"]), texts + ["é", "a"])
        try agree(Rule<String>.const("e\u{301}"), texts + ["e\u{301}"])
        try agree(Rule<String>.and(.notBlank, .length(...3)), texts)
        let classes: [CharacterClass] = [
            .letters, .marks, .digits, .asciiDigits, .asciiLetters, .spaces, .whitespace, .punctuation, .alphanumerics,
            .letters + .marks + .spaces, .characters("-_"), .range("a"..."f"),
        ]
        for characterClass in classes {
            try agree(Rule<String>.charset(characterClass), strings(from: Self.scalarPool, maximumParts: 2))
        }
    }

    @Test mutating func formatsAgree() throws {
        let samples: [TextFormat: [String]] = [
            .dateTime: [
                "2026-11-26T08:00:00Z", "2026-11-26T08:00:00+01:00", "2026-02-30T08:00:00Z", "2026-11-26", "x",
            ],
            .date: ["2026-11-26", "2026-13-01", "2024-02-29", "2023-02-29", "26-11-26"],
            .time: ["08:00:00Z", "23:59:60Z", "24:00:00Z", "08:00:00", "08:00:00.5+05:30"],
            .duration: ["P1Y", "PT1H30M", "P1Y2", "P", "P1W"],
            .email: ["a@example.com", "a b@example.com", "\"a b\"@example.com", "é@example.com", "a@[127.0.0.1]"],
            .idnEmail: ["é@example.com", "a@bücher.de", "@x", "a@-x.com", "a@example.com"],
            .hostname: ["example.com", "-x.com", "a..b", "xn--bcher-kva.de", String(repeating: "a", count: 64)],
            .idnHostname: ["bücher.de", "example.com", "-x", "ab--c", "xn--"],
            .ipv4: ["127.0.0.1", "256.0.0.1", "1.2.3", "01.2.3.4", "0.0.0.0"],
            .ipv6: ["::1", "2001:db8::", "1::2::3", "::ffff:1.2.3.4", "12345::"],
            .uri: ["http://example.com", "relative/path", "urn:isbn:1", "http://a b", "mailto:a@b"],
            .uriReference: ["relative/path", "#frag", "http://x", "\\bad", "%zz"],
            .iri: ["http://bücher.de", "x", "http://a b", "urn:x", "http://[::1]"],
            .iriReference: ["bücher", "#ä", "\\x", "http://x", "%"],
            .uriTemplate: ["http://x/{id}", "{+path}", "{unclosed", "plain", "{a,b}"],
            .jsonPointer: ["", "/a/b", "a", "/~0~1", "/~2"],
            .relativeJSONPointer: ["0", "1/a", "0#", "-1", "/a"],
            .uuid: [
                "123e4567-e89b-12d3-a456-426614174000", "123e4567e89b12d3a456426614174000", "x", "",
                "g23e4567-e89b-12d3-a456-426614174000",
            ],
            .regex: ["^a+$", "(", "[a-z]", "\\p{L}", "a{2,1}"],
        ]
        for format in TextFormat.allCases {
            try agree(Rule<String>.format(format), samples[format] ?? [])
        }
        #expect(samples.count == TextFormat.allCases.count)
        let urls = [
            "http://a", "HTTPS://example.com:80/x", "http://:80", "http://user@/x", "http://u@h", "ftp://x", "http:/x",
            "http://[::1]:80", "mailto:x@y", "http://a@:8", "https://exa mple.com", "http://x?y", "http://#",
            "hTTp://h#f",
            "http://u:p@h:8/", "http://@h",
        ]
        try agree(Rule<String>.url(), urls)
        try agree(
            Rule<String>.url(schemes: ["ftp", "svn+ssh"]), urls + ["svn+ssh://host/x", "SVN+SSH://h", "svnxssh://h"])
    }

    @Test mutating func collectionsAgree() throws {
        let pool = ["a", "b", "é", "e\u{301}", "", "abcd"]
        let lists = (0..<300).map { _ in (0..<numbers.next(5)).map { _ in pool[numbers.next(pool.count)] } }
        try agree(Rule<[String]>.count(1...3), lists)
        try agree(Rule<[String]>.unique, lists)
        try agree(Rule<[String]>.each(.length(1...3)), lists)
        try agree(Rule<[String]>.and(.count(...2), .each(.oneOf(["a", "b"]))), lists)
        let integerLists = (0..<300).map { _ in (0..<numbers.next(5)).map { _ in numbers.next(4) } }
        try agree(Rule<[Int]>.unique, integerLists)
        try agree(Rule<[Int]>.each(.range(1...2)), integerLists)
        // A dictionary's count is its members' (`minProperties`), its values' rule `additionalProperties`.
        let dictionaries = (0..<300).map { _ in
            [String: String](
                uniqueKeysWithValues: (0..<numbers.next(5)).map { ("k\($0)", pool[numbers.next(pool.count)]) })
        }
        try agree(Rule<[String: String]>.count(1...3), dictionaries)
        try agree(Rule<[String: String]>.values(.length(1...3)), dictionaries)
        try agree(Rule<[String: String]>.and(.count(...2), .values(.oneOf(["a", "b"]))), dictionaries)
        // Its keys' rule is `propertyNames`.
        let keyed = (0..<300).map { _ in
            [String: Int](
                uniqueKeysWithValues: Set(strings(from: Self.scalarPool, count: numbers.next(4), maximumParts: 3))
                    .map { ($0, 1) })
        }
        try agree(Rule<[String: Int]>.keys(.matches("^[a-z0-9]+$")), keyed)
        try agree(Rule<[String: Int]>.keys(.and(.length(1...2), .oneOf(["a", "Z", "é", "😀"]))), keyed)
    }
}
