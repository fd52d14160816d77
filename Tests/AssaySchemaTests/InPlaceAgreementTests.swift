import AssayJSON
import AssayTestSupport
import Foundation
import Testing

@testable import AssayCore
@testable import AssaySchema

/// A parsed document and the same instance as a `JSONValue` must get the same answers and errors:
/// one evaluator, two forms of instance. The conformance suite checks both on its cases; this checks
/// them on thousands of mutated records against a schema that uses most keywords at once.
@Suite("Documents and values get the same answers")
struct InPlaceAgreementTests {
    static let schemaText = ##"""
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "type": "object",
          "required": ["id", "name", "age", "email", "tags", "address"],
          "additionalProperties": false,
          "minProperties": 6,
          "maxProperties": 14,
          "propertyNames": {"pattern": "^[a-z_]+$"},
          "dependentRequired": {"manager_id": ["team"]},
          "properties": {
            "id": {"type": "string", "format": "uuid"},
            "name": {"type": "string", "minLength": 2, "maxLength": 40, "not": {"const": "root"}},
            "age": {"type": "integer", "minimum": 0, "exclusiveMaximum": 130, "multipleOf": 1},
            "score": {"type": ["number", "null"], "minimum": -1.5, "maximum": 100.25},
            "email": {"type": "string", "format": "email"},
            "signup": {"type": "string", "format": "date-time"},
            "birthday": {"type": "string", "format": "date"},
            "tags": {"type": "array", "maxItems": 5, "uniqueItems": true, "items": {"$ref": "#/$defs/tag"},
                     "contains": {"const": "vip"}, "minContains": 0},
            "address": {"$ref": "#/$defs/address"},
            "team": {"enum": ["red", "green", "blue", 7, null]},
            "manager_id": {"anyOf": [{"type": "null"}, {"type": "string", "format": "uuid"}]},
            "level": {"oneOf": [{"type": "integer", "maximum": 3}, {"type": "integer", "minimum": 2}]},
            "note": {"if": {"type": "string"}, "then": {"maxLength": 10}, "else": {"type": "null"}}
          },
          "$defs": {
            "tag": {"type": "string", "pattern": "^[a-z][a-z0-9-]{0,15}$"},
            "address": {
              "type": "object",
              "required": ["city", "country"],
              "properties": {
                "city": {"type": "string", "minLength": 1},
                "postcode": {"type": "string", "pattern": "^[A-Z0-9][A-Z0-9 -]{1,8}[A-Z0-9]$"},
                "country": {"enum": ["DE", "FR", "JP", "KE", "US"]}
              },
              "patternProperties": {"^x-": {"type": "string"}},
              "additionalProperties": {"type": "boolean"}
            }
          }
        }
        """##

    static let base: JSONValue = [
        "id": "7c9e6679-7425-40de-944b-e07fc1f90ae7", "name": "Zoë Müller", "age": 36, "score": 12.5,
        "email": "zoe@example.com", "signup": "2024-02-29T12:00:00+01:00", "birthday": "1988-07-01",
        "tags": ["vip", "beta"], "address": ["city": "Köln", "postcode": "50667", "country": "DE", "x-floor": "3"],
        "team": "red", "manager_id": nil, "level": 1, "note": "hi",
    ]

    /// Replacement values: every JSON type, edge numbers, non-ASCII and escaped strings.
    static let values: [JSONValue] = [
        nil, true, false, 0, -1, 2, 3, 130, 129.5, 1e3, "1.0", "", "x", "vip", "root", "Zoë", "ab", "é\u{301}",
        "A\"B", "tab\tbed", "😀😀", "7c9e6679-7425-40de-944b-e07fc1f90ae7", "7C9E6679-7425-40DE-944B-E07FC1F90AE7",
        "not-a-uuid", "zoe@example.com", "zoe@@example.com", "zoe@exa_mple.com", "Zoë@example.com",
        "2024-02-30T12:00:00Z", "2024-02-29t12:00:00z", "1988-13-01", "SW1A 1AA", "sw1a", "DE", "XX", [], [1],
        ["vip"], ["vip", "vip"], ["vip", "Beta"], ["a", "b", "c", "d", "e", "f"], [:], ["city": "Oslo"],
        ["city": "Oslo", "country": "KE", "x-y": 1], ["city": "", "country": "US"], ["a": 1],
        // Length boundaries in multi-byte text: code points, not bytes, are counted.
        "é", .string(String(repeating: "é", count: 10)), .string(String(repeating: "é", count: 11)),
        .string(String(repeating: "ö", count: 40)), .string(String(repeating: "ö", count: 41)),
        .string(String(repeating: "😀", count: 10)),
    ]

    /// Paths to mutate: top-level keys, nested keys, array positions.
    static let keys = [
        "id", "name", "age", "score", "email", "signup", "birthday", "tags", "address", "team", "manager_id",
        "level", "note", "extra", "Bad-Key",
    ]

    /// `record` with `key` set to `value`, or removed when `value` is `nil`.
    static func setting(_ key: String, to value: JSONValue?, in record: JSONValue) -> JSONValue {
        guard case .object(var object) = record else { return record }
        object[key] = value
        return .object(object)
    }

    @Test func everySingleReplacementGetsTheSameAnswers() throws {
        let schema = try JSONSchema(parsing: Self.schemaText, options: .init(assertFormats: true))
        for key in Self.keys {
            for value in Self.values + [nil] {
                let record = Self.setting(key, to: value, in: Self.base)
                let document = try JSONDocument(parsing: record.jsonBytes())
                #expect(
                    schema.isValid(document) == schema.isValid(document.value), "\(key): \(String(describing: value))")
                #expect(schema.validate(document).errors == schema.validate(document.value).errors, "\(key)")
            }
        }
        let baseErrors = schema.validate(Self.base).errors.map {
            "\($0.instanceLocation.jsonPointer) \($0.keywordLocation)"
        }
        #expect(baseErrors.isEmpty, "\(baseErrors)")
    }

    /// `enum` and `const` strings and `uniqueItems` of string arrays are decided on the bytes in place:
    /// escapes, code point (not canonical) equality, a hashed enum of more than eight strings, mixed
    /// types, and arrays around the 16-element limit of the pairwise check.
    @Test func stringEnumsConstantsAndUniqueItemsOnBytes() throws {
        let schema = try JSONSchema(
            parsing: #"""
                {"type": "object", "properties": {
                  "country": {"enum": ["US", "CA", "MX", "BR", "AR", "CL", "CO", "PE", "GB", "IE", "FR", "DE", "é", 1, null]},
                  "team": {"enum": ["red", "blue"]},
                  "word": {"const": "Zoë"},
                  "tags": {"uniqueItems": true}}}
                """#)
        var cases: [(String, Bool)] = [
            (#"{"country":"US"}"#, true), (#"{"country":"\u0055S"}"#, true), (#"{"country":"us"}"#, false),
            (#"{"country":"DE"}"#, true), (#"{"country":"é"}"#, true), (#"{"country":"\u00e9"}"#, true),
            (#"{"country":"e\u0301"}"#, false), (#"{"country":1.0}"#, true), (#"{"country":null}"#, true),
            (#"{"country":"USA"}"#, false), (#"{"country":""}"#, false), (#"{"country":["US"]}"#, false),
            (#"{"team":"blue"}"#, true), (#"{"team":"blu\u0065"}"#, true), (#"{"team":"green"}"#, false),
            (#"{"word":"Zoë"}"#, true), (#"{"word":"Zo\u00eb"}"#, true), (#"{"word":"Zoe"}"#, false),
            (#"{"word":"Zoe\u0308"}"#, false), (#"{"tags":["a","b"]}"#, true), (#"{"tags":["a","\u0061"]}"#, false),
            (#"{"tags":["a",1,"a"]}"#, false), (#"{"tags":[1,1.0]}"#, false), (#"{"tags":["é","e\u0301"]}"#, true),
            (#"{"tags":[]}"#, true), (#"{"tags":["x"]}"#, true), (#"{"tags":[""]}"#, true),
            (#"{"tags":["",""]}"#, false), (#"{"tags":[1]}"#, true), (#"{"tags":[3,1,2]}"#, true),
            (#"{"tags":[3,1,3]}"#, false), (#"{"tags":[-1,1]}"#, true), (#"{"tags":[1,2,1.0]}"#, false),
            (#"{"tags":[1,2,1e0]}"#, false), (#"{"tags":[1,[1]]}"#, true), (#"{"tags":[[1,1]]}"#, true),
            (#"{"tags":["ab","a","abc","b"]}"#, true), (#"{"tags":["abcdefghijklmnopq","abcdefghijklmnopr"]}"#, true),
            (#"{"tags":["abcdefghijklmnopq","x","abcdefghijklmnop\u0071"]}"#, false),
            (#"{"tags":["\u00e9t\u00e9","été"]}"#, false), (#"{"tags":["a\"b","a\u0022b","c"]}"#, false),
            (#"{"tags":[123456789012345678,123456789012345678]}"#, false),
            (#"{"tags":[1234567890123456789,1234567890123456789]}"#, false),
        ]
        // Integers on the tape are sorted to find a duplicate, however long the array.
        for count in [2, 17, 1_000] {
            let distinct = (0..<count).map { String(count - $0) }
            cases.append(("{\"tags\":[\(distinct.joined(separator: ","))]}", true))
            var repeated = distinct
            repeated[count / 2] = distinct[0]
            cases.append(("{\"tags\":[\(repeated.joined(separator: ","))]}", false))
        }
        for count in [15, 16, 17] {
            let distinct = (0..<count).map { "\"t\($0)\"" }
            cases.append(("{\"tags\":[\(distinct.joined(separator: ","))]}", true))
            var repeated = distinct
            repeated[count - 1] = distinct[0]
            cases.append(("{\"tags\":[\(repeated.joined(separator: ","))]}", false))
        }
        for (text, expected) in cases {
            let document = try JSONDocument(parsing: text)
            #expect(schema.isValid(document) == expected, "\(text)")
            #expect(schema.isValid(document.value) == expected, "\(text)")
        }
    }

    /// Property names are matched code point for code point by both evaluators (`é` composed is not
    /// `e` + U+0301), in lists short enough to scan and long enough to hash, in any member order.
    @Test func propertyNamesMatchCodePointForCodePoint() throws {
        for count in [3, 12, 40] {
            let names = (0..<count).map { "p\($0)" } + ["\u{E9}"]
            let properties = names.map { "\"\($0)\": {\"type\": \"integer\"}" }.joined(separator: ", ")
            let required = names.map { "\"\($0)\"" }.joined(separator: ", ")
            let schema = try JSONSchema(
                parsing:
                    "{\"properties\": {\(properties)}, \"required\": [\(required)], \"additionalProperties\": false}")
            func object(_ keys: [String], value: String = "1") -> String {
                "{" + keys.map { "\"\($0)\": \(value)" }.joined(separator: ", ") + "}"
            }
            let decomposed = Array(names.dropLast()) + ["e\u{301}"]
            let cases: [(String, Bool)] = [
                (object(names), true), (object(names.reversed()), true), (object(names.shuffled()), true),
                (object(decomposed), false), (object(names + ["extra"]), false),
                (object(Array(names.dropFirst())), false),
                (object(names, value: "\"x\""), false),
            ]
            for (text, expected) in cases {
                let document = try JSONDocument(parsing: text)
                #expect(schema.isValid(document) == expected, "\(count): \(text)")
                #expect(schema.isValid(document.value) == expected, "\(count): \(text)")
                #expect(schema.validate(document).errors == schema.validate(document.value).errors, "\(count): \(text)")
            }
            // The decomposed name is reported missing, and as a property the schema does not allow.
            let errors = schema.validate(try JSONDocument(parsing: object(decomposed))).errors
            #expect(
                errors.contains { $0.keywordLocation == "/required" && $0.instanceLocation.jsonPointer == "/\u{E9}" })
            #expect(errors.contains { $0.keywordLocation == "/additionalProperties" })
        }
    }

    @Test func mutatedRecordsGetTheSameAnswers() throws {
        let schema = try JSONSchema(parsing: Self.schemaText, options: .init(assertFormats: true))
        var numbers = SeededNumbers(seed: 20_261_122)
        func next(_ bound: Int) -> Int { numbers.next(bound) }
        var invalidCount = 0
        for round in 0..<3_000 {
            var record = Self.base
            for _ in 0...next(3) {
                let key = Self.keys[next(Self.keys.count)]
                switch next(4) {
                case 0: record = Self.setting(key, to: nil, in: record)
                case 1, 2: record = Self.setting(key, to: Self.values[next(Self.values.count)], in: record)
                default:
                    // One level down: inside the address or the tags.
                    if next(2) == 0 {
                        let member = ["city", "postcode", "country", "x-note", "other"][next(5)]
                        let address = Self.setting(
                            member, to: Self.values[next(Self.values.count)], in: record["address"] ?? [:])
                        record = Self.setting("address", to: address, in: record)
                    } else {
                        record = Self.setting(
                            "tags", to: .array([Self.values[next(Self.values.count)], "vip"]), in: record)
                    }
                }
            }
            let document = try JSONDocument(parsing: record.jsonBytes())
            let tree = schema.validate(document.value)
            let inPlace = schema.validate(document)
            #expect(schema.isValid(document) == schema.isValid(document.value), "round \(round): \(record)")
            #expect(inPlace.isValid == tree.isValid, "round \(round): \(record)")
            #expect(inPlace.errors == tree.errors, "round \(round): \(record)")
            // With a limit, the same errors from both forms, at most that many counting nested
            // causes; without causes, the first ones of the whole list.
            if !tree.isValid, round % 3 == 0 {
                for count in [1, 2, 3] {
                    let limited = schema.validate(document, limit: .first(count)).errors
                    #expect(limited == schema.validate(document.value, limit: .first(count)).errors, "round \(round)")
                    #expect(!limited.isEmpty && BoundedEvaluationTests.allUnits(limited).count <= count)
                    if tree.errors.allSatisfy(\.causes.isEmpty) {
                        #expect(limited == Array(tree.errors.prefix(count)), "round \(round)")
                    }
                }
            }
            if !tree.isValid { invalidCount += 1 }
        }
        // The mutations must exercise both answers.
        #expect(invalidCount > 500)
        #expect(invalidCount < 2_900)
    }

    /// `required` and `additionalProperties` folded into `properties` (one pass over the members) and
    /// the cases that are not folded: a required name `properties` does not list, an
    /// `additionalProperties` schema that is not `false`, sibling patterns, more than 64 properties.
    @Test func foldedObjectKeywordsGetTheSameAnswers() throws {
        let many = (0..<70).map { "\"p\($0)\": {\"type\": \"integer\"}" }.joined(separator: ", ")
        let schemas = [
            #"{"properties": {"a": {"type": "integer"}, "b": {}}, "required": ["a"], "additionalProperties": false}"#,
            #"{"properties": {"a": {"type": "integer"}}, "required": ["a", "z"], "additionalProperties": {"type": "string"}}"#,
            #"{"properties": {"a": {"type": "integer"}}, "additionalProperties": {"type": "string"}, "required": []}"#,
            #"{"properties": {"a": {}}, "patternProperties": {"^x": {"type": "null"}}, "additionalProperties": false}"#,
            #"{"required": ["a"], "additionalProperties": false}"#,
            "{\"properties\": {\(many)}, \"required\": [\"p0\", \"p69\"], \"additionalProperties\": false}",
        ]
        let instances = [
            #"{}"#, #"{"a": 1}"#, #"{"a": "1"}"#, #"{"b": 1}"#, #"{"a": 1, "b": null}"#, #"{"a": 1, "c": "s"}"#,
            #"{"a": 1, "c": 2}"#, #"{"a": 1, "z": "s"}"#, #"{"a": 1, "x1": null}"#, #"{"a": 1, "x1": 0}"#,
            #"{"c": "s", "a": 1}"#, #"{"p0": 1, "p69": 2}"#, #"{"p0": 1}"#, #"{"p69": 1, "p0": 2, "p5": "x"}"#,
            #"{"p0": 1, "p69": 2, "q": 3}"#, #"[1]"#, #""a""#, #"{"a": 1, "a\u0301": 2}"#,
        ]
        for text in schemas {
            let schema = try JSONSchema(parsing: text)
            for instance in instances {
                let document = try JSONDocument(parsing: instance)
                #expect(schema.isValid(document) == schema.isValid(document.value), "\(text) with \(instance)")
                #expect(
                    schema.validate(document).errors == schema.validate(document.value).errors,
                    "\(text) with \(instance)")
            }
        }
        // Each answer checked against the expected one, not only against the tree.
        let closed = try JSONSchema(parsing: schemas[0])
        let verdicts = try [#"{}"#, #"{"a": 1}"#, #"{"a": 1, "b": 2}"#, #"{"a": 1, "c": 2}"#, #"{"b": 2}"#].map {
            closed.isValid(try JSONDocument(parsing: $0))
        }
        #expect(verdicts == [false, true, true, false, false])
    }

    /// A leaf's ``LeafPlan`` (its string and number keywords checked in one go) against the same
    /// keywords taken one by one: each leaf schema beside a twin that is not a leaf (an `allOf` of
    /// `true` added), and beside the errors' path, on values of every type and at every edge.
    @Test func leafPlansAgreeWithTheKeywords() throws {
        let leaves = [
            #"{"type": "string", "minLength": 2, "maxLength": 4}"#,
            #"{"minLength": 1, "maxLength": 1}"#,
            #"{"maxLength": 0}"#,
            #"{"type": "string", "pattern": "^[a-z]+(-[0-9]+)?$", "maxLength": 8}"#,
            #"{"pattern": "é", "minLength": 3}"#,
            #"{"type": "string", "format": "uuid"}"#,
            #"{"type": ["string", "null"], "format": "date-time"}"#,
            #"{"format": "email", "maxLength": 12}"#,
            #"{"format": "idn-email"}"#,
            #"{"format": "ipv4", "pattern": "^1"}"#,
            #"{"enum": ["a", "bé", "", 1, null, [1]]}"#,
            #"{"enum": ["a", "bé"], "minLength": 2}"#,
            #"{"const": "x"}"#,
            #"{"const": 5}"#,
            #"{"type": "integer", "minimum": 0, "maximum": 130}"#,
            #"{"type": "number", "exclusiveMinimum": 0, "maximum": 1}"#,
            #"{"maximum": 10, "exclusiveMaximum": 10}"#,
            #"{"minimum": -5, "exclusiveMinimum": -5, "multipleOf": 5}"#,
            #"{"type": "number", "multipleOf": 0.01, "minimum": -1000, "maximum": 1000}"#,
            #"{"multipleOf": 0.5}"#,
            #"{"multipleOf": 3, "minLength": 2, "format": "date"}"#,
            #"{"maximum": 9223372036854775807, "minimum": -9223372036854775808}"#,
            #"{"exclusiveMaximum": -9223372036854775808}"#,
            #"{"type": "boolean"}"#,
            #"{"format": "regex", "minLength": 2}"#,
        ]
        let values = [
            #"null"#, #"true"#, #"false"#, #"0"#, #"-0"#, #"1"#, #"-1"#, #"5"#, #"-5"#, #"-10"#, #"10"#, #"9.99"#,
            #"10.0"#, #"10.000001"#, #"0.01"#, #"0.015"#, #"-999.99"#, #"1000.001"#, #"130"#, #"131"#, #"1.5"#,
            #"1e2"#, #"2.5E-1"#, #"9223372036854775807"#, #"-9223372036854775808"#, #"92233720368547758070"#,
            #"123456789012345678901234.5"#, #"0.1234567890123456789"#, #""""#, #""a""#, #""ab""#, #""abcd""#,
            #""abcde""#, #""é""#, #""éé""#, #""😀😀😀😀😀""#, #""abc-12""#, #""bé""#, #""x""#, #""5""#,
            #""7c9e6679-7425-40de-944b-e07fc1f90ae7""#, #""7c9e6679-7425-40de-944b-e07fc1f90ae""#,
            #""2024-02-29T12:00:00+01:00""#, #""2024-02-30T12:00:00Z""#, #""2024-02-29""#, #""a@b.co""#,
            #""a@@b.co""#, #""ö@b.co""#, #""\"q\"@b.co""#, #""10.1.2.3""#, #""01.1.2.3""#, #""a\u00e9""#, #""(""#,
            #"[]"#, #"[1]"#, #"{}"#, #"{"a": 1}"#,
        ]
        for text in leaves {
            let schema = try JSONSchema(parsing: text, options: .init(assertFormats: true))
            let plan = schema.program.tables.leafPlans[schema.program.tables.redirects[schema.root]]
            #expect(plan.decides, "\(text) is planned")
            let twinText = text.dropLast() + #", "allOf": [true]}"#
            let twin = try JSONSchema(parsing: String(twinText), options: .init(assertFormats: true))
            #expect(!twin.program.tables.leaves[twin.root], "\(twinText) is not a leaf")
            // Inside an object too: a member's value reaches the leaf through `properties`.
            let member = try JSONSchema(
                parsing: "{\"properties\": {\"v\": \(text)}}", options: .init(assertFormats: true))
            let memberTwin = try JSONSchema(
                parsing: "{\"properties\": {\"v\": \(twinText)}}", options: .init(assertFormats: true))
            for value in values {
                let document = try JSONDocument(parsing: value)
                let expected = twin.isValid(document)
                #expect(schema.isValid(document) == expected, "\(text) with \(value)")
                #expect(schema.validate(document).isValid == expected, "\(text) with \(value), errors' path")
                let wrapped = try JSONDocument(parsing: "{\"v\": \(value)}")
                #expect(member.isValid(wrapped) == memberTwin.isValid(wrapped), "\(text) with {v: \(value)}")
                #expect(member.isValid(wrapped) == expected, "\(text) with {v: \(value)}")
            }
        }
        // Keywords a plan leaves to the general path (a bound that is not an integer…): not planned.
        for text in [#"{"type": "array", "maxItems": 2}"#, #"{"required": ["a"]}"#, #"{"minimum": 1.5}"#] {
            let schema = try JSONSchema(parsing: text, options: .init(assertFormats: true))
            #expect(!schema.program.tables.leafPlans[schema.root].decides, "\(text)")
        }
        // Answers checked against expected ones, not only against the twins.
        let lengths = try JSONSchema(parsing: leaves[0])
        let answers = try [#""a""#, #""éé""#, #""😀😀😀😀""#, #""😀😀😀😀😀""#, #"5"#].map {
            lengths.isValid(try JSONDocument(parsing: $0))
        }
        #expect(answers == [false, true, true, false, false])
        let cents = try JSONSchema(parsing: leaves[18])
        #expect(
            try [#"0.01"#, #"0.015"#, #"-1000"#, #"1000.01"#, #""x""#].map {
                cents.isValid(try JSONDocument(parsing: $0))
            }
                == [true, false, true, false, false])
    }

    /// Decimal literals against integer bounds are compared exactly on their digits, as `JSONNumber`
    /// compares them: at the bound, just past it, negative zero, and literals the short path leaves to
    /// the general one (exponents, more than 18 integer digits).
    @Test func decimalLiteralsAgainstIntegerBounds() throws {
        let literals = [
            "0.0", "-0.0", "0.5", "-0.5", "99.999", "100.0", "100.00", "100.000001", "101.5", "-1.0", "-1.25",
            "-0.000001", "130.0", "129.99999999999999999999", "1e2", "1.0e2", "100.0E0", "-1e-9",
            "123456789012345678.5", "1234567890123456789.5", "-123456789012345678.0", "5.000",
            // 19 digits whose first 18 times ten overflow 64 bits (a trap before 2026-11-26).
            "9999999999999999999.5", "-9223372036854775808.0",
        ]
        for bound in [Int64(0), 1, -1, 100, 130, 123_456_789_012_345_678, -123_456_789_012_345_678] {
            for literal in literals {
                let number = try #require(JSONValue(parsing: literal).number)
                let expected = number < JSONNumber(Int(bound)) ? -1 : number == JSONNumber(Int(bound)) ? 0 : 1
                let bytes = Array(literal.utf8)
                let short = bytes.withUnsafeBufferPointer {
                    SchemaEvaluator<VerdictMode>.compare(literal: $0, with: bound)
                }
                if let short { #expect(short == expected, "\(literal) against \(bound)") }
                // The parts the bounds and `multipleOf` share (read once per literal).
                if let parts = bytes.withUnsafeBufferPointer({ DecimalParts($0) }) {
                    #expect(parts.compare(with: bound) == expected, "\(literal) as parts against \(bound)")
                }
                let hasExponent = literal.contains { $0 == "e" || $0 == "E" }
                let integerDigits = literal.prefix { $0 != "." }.filter(\.isNumber).count
                #expect((short == nil) == (hasExponent || integerDigits > 18), "\(literal)")
            }
            for keyword in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
                let schema = try JSONSchema(parsing: "{\"type\": \"number\", \"\(keyword)\": \(bound)}")
                for literal in literals {
                    let document = try JSONDocument(parsing: literal)
                    let number = try #require(document.value.number)
                    let limit = JSONNumber(Int(bound))
                    let expected =
                        switch keyword {
                        case "minimum": number >= limit
                        case "maximum": number <= limit
                        case "exclusiveMinimum": number > limit
                        default: number < limit
                        }
                    #expect(schema.isValid(document) == expected, "\(keyword) \(bound) \(literal)")
                    #expect(schema.validate(document).isValid == expected, "\(keyword) \(bound) \(literal)")
                }
            }
        }
        // Integrality of a literal: `type: integer` accepts 1.0, rejects 1.5, in place as on the tree.
        let integer = try JSONSchema(parsing: #"{"type": "integer"}"#)
        #expect(integer.isValid(try JSONDocument(parsing: "1.0")))
        #expect(!integer.isValid(try JSONDocument(parsing: "1.5")))
        #expect(try JSONSchema(parsing: #"{"type": ["number"]}"#).isValid(try JSONDocument(parsing: "1.5")))
    }
}

@Suite("multipleOf on literals")
struct MultipleOfLiteralTests {
    /// The integer path (``DecimalParts``) against exact decimals (`JSONNumber.isMultiple(of:)`), on
    /// literals with fractions, exponents, signs, trailing zeros and sizes at the edge of 18 digits.
    @Test func integerArithmeticAgreesWithExactDecimals() throws {
        let divisors = ["0.01", "0.1", "2.5", "3", "7", "1e-3", "0.0001", "100", "1E2", "0.3", "12.75", "1e-18"]
        let literals = [
            "0", "-0", "0.0", "1", "-1", "0.01", "12.34", "12.345", "-827.01", "12.340", "1e2", "1.5e1", "25e-1",
            "2.50", "-7.5", "1e-3", "0.0005", "0.0002", "999999999999999999", "9999999999999999999",
            "123456789012345678.9", "0.000000000000000001", "1e-19", "3e18", "4.2E+1", "-0.30", "0.90",
            "1275", "12.7500", "1e400", "1e-400",
        ]
        for divisor in divisors {
            let schema = try JSONSchema(parsing: #"{"multipleOf": \#(divisor)}"#)
            let exact = try #require(JSONValue(parsing: divisor).number)
            for literal in literals {
                let document = try JSONDocument(parsing: literal)
                let number = try #require(document.value.number)
                let expected = number.isMultiple(of: exact)
                #expect(schema.isValid(document) == expected, "\(literal) multipleOf \(divisor)")
                #expect(schema.validate(document).isValid == expected, "\(literal) multipleOf \(divisor)")
            }
        }
        // Bounds and `multipleOf` on one literal read its parts once; each keyword still decides.
        let all = try JSONSchema(parsing: #"{"items": {"minimum": -1000, "maximum": 1000, "multipleOf": 0.01}}"#)
        for (text, valid) in [
            ("[330.34, -557.1, 1000.00]", true), ("[330.345]", false), ("[1000.01]", false), ("[-1000.5]", false),
            ("[12.5, 12.5, 999.99]", true), ("[0.01, 1e3, 1.5e-3]", false),
        ] {
            let document = try JSONDocument(parsing: text)
            #expect(all.isValid(document) == valid, "\(text)")
            #expect(all.validate(document).isValid == valid, "\(text)")
        }
        // Random literals (signs, zeros, trailing zeros, up to 19 digits, some with exponents): the
        // parts, when made, order and divide as the exact decimal does.
        var numbers = SeededNumbers(seed: 20_261_206)
        let bounds: [Int64] = [0, 1, -1, 7, -250, 999_999_999]
        let exactDivisors = try ["0.01", "0.5", "3", "1e-6"].map { try #require(JSONValue(parsing: $0).number) }
        let divisorParts: [(Int64, Int)] = [(1, 2), (5, 1), (3, 0), (1, 6)]
        var made = 0
        for _ in 0..<5_000 {
            var literal = numbers.next(2) == 0 ? "-" : ""
            if numbers.next(4) == 0 {
                literal += "0"
            } else {
                literal += String(1 + numbers.next(9))
                for _ in 0..<numbers.next(10) { literal += String(numbers.next(10)) }
            }
            if numbers.next(3) > 0 {
                literal += "."
                for _ in 0...numbers.next(9) { literal += numbers.next(3) == 0 ? "0" : String(numbers.next(10)) }
            }
            if numbers.next(8) == 0 { literal += "e" + String(numbers.next(5)) }
            let number = try #require(JSONValue(parsing: literal).number, "\(literal)")
            let bytes = Array(literal.utf8)
            guard let parts = bytes.withUnsafeBufferPointer({ DecimalParts($0) }) else { continue }
            made += 1
            for bound in bounds {
                let limit = JSONNumber(Int(bound))
                let expected = number < limit ? -1 : number == limit ? 0 : 1
                #expect(parts.compare(with: bound) == expected, "\(literal) against \(bound)")
            }
            for (exact, (mantissa, scale)) in zip(exactDivisors, divisorParts) {
                if let multiple = parts.isMultiple(ofMantissa: mantissa, scale: scale) {
                    #expect(multiple == number.isMultiple(of: exact), "\(literal) multipleOf \(exact)")
                }
            }
        }
        #expect(made > 4_000, "most literals have parts")
        // Every scale's factor: a literal one unit of its last fraction digit above and below an
        // integer bound (`7.001`, `6.999`, `-0.001`), for each number of fraction digits.
        for scale in 1...18 {
            // (Eighteen fraction digits after a nonzero integer part are too many for parts.)
            for bound: Int64 in scale == 18 ? [0] : [0, 1, 7] {
                let zeros = String(repeating: "0", count: scale - 1)
                let nines = String(repeating: "9", count: scale)
                let near = ["\(bound).\(zeros)1", bound > 0 ? "\(bound - 1).\(nines)" : "-0.\(zeros)1"]
                for literal in near {
                    let number = try #require(JSONValue(parsing: literal).number, "\(literal)")
                    let bytes = Array(literal.utf8)
                    let parts = try #require(bytes.withUnsafeBufferPointer { DecimalParts($0) }, "\(literal)")
                    #expect(parts.scale == scale, "\(literal)")
                    let limit = JSONNumber(Int(bound))
                    let expected = number < limit ? -1 : number == limit ? 0 : 1
                    #expect(parts.compare(with: bound) == expected, "\(literal) against \(bound)")
                }
            }
        }
        var bytes = Array("-12.340e1".utf8)
        let parts = bytes.withUnsafeMutableBufferPointer { DecimalParts(UnsafeBufferPointer($0)) }
        #expect(parts?.mantissa == -12_34 && parts?.scale == 1)
    }
}

@Suite("Host names on bytes")
struct HostnameBytesTests {
    /// The byte-level verdict for plain ASCII names agrees with the full check wherever it decides,
    /// on random names near every limit (label and name lengths, hyphens, dots, reserved `??--`).
    @Test func plainASCIIVerdictAgreesWithTheFullCheck() {
        var numbers = SeededNumbers(seed: 20_261_126)
        func next(_ bound: Int) -> Int { numbers.next(bound) }
        let alphabet = Array("abcxyzABZ0189-._é".unicodeScalars)
        var decided = 0
        for _ in 0..<20_000 {
            var name = String.UnicodeScalarView()
            let labels = 1 + next(5)
            for label in 0..<labels {
                if label > 0 { name.append(".") }
                let length = [0, 1, 2, 4, 5, 62, 63, 64][next(8)]
                for _ in 0..<length { name.append(alphabet[next(alphabet.count)]) }
            }
            var text = String(name)
            let verdict = text.withUTF8 { Hostname.plainASCIIVerdict($0) }
            if let verdict {
                decided += 1
                #expect(verdict == Hostname.isValid(text, international: false, idna: true), "\(text)")
                #expect(verdict == Hostname.isValid(text, international: true, idna: true), "\(text) (idn)")
            }
        }
        #expect(decided > 10_000)
        var long = String(repeating: "a.", count: 126) + "a"  // 253 bytes
        #expect(long.withUTF8 { Hostname.plainASCIIVerdict($0) } == true)
        long += "b"
        #expect(long.withUTF8 { Hostname.plainASCIIVerdict($0) } == false)
    }
}

@Suite("Email addresses on bytes")
struct EmailBytesTests {
    /// The byte-level verdicts of `email` and `idn-email` agree with the full checks wherever they
    /// decide, on addresses built from parts near every rule (dots, quotes, literals, non-ASCII,
    /// hyphens, lengths).
    @Test func byteVerdictsAgreeWithTheFullChecks() {
        var numbers = SeededNumbers(seed: 20_261_127)
        func next(_ bound: Int) -> Int { numbers.next(bound) }
        let locals = ["john", "j.doe", "a", "user+tag", ".x", "x.", "a..b", "\"q d\"", "héllo", "用户", "ab", "o'b"]
        let domains = [
            "example.com", "a.b", "example", "example.123", "-x.com", "x-.com", "ab--c.com", "пример.рф",
            "[127.0.0.1]", "ex_ample.com", "xn--bcher-kva.de", String(repeating: "b", count: 64) + ".com",
        ]
        var decided = (email: 0, idn: 0)
        for _ in 0..<20_000 {
            var local = locals[next(locals.count)]
            if next(4) == 0 { local = String(repeating: local, count: 1 + next(40)) }
            var text = local + (next(20) == 0 ? "" : "@") + domains[next(domains.count)]
            let email = text.withUTF8 { TextFormat.email.verdict(utf8: $0) }
            let idn = text.withUTF8 { TextFormat.idnEmail.verdict(utf8: $0) }
            let ascii = EmailAddressValidator(
                options: .init(allowsInternational: false, allowsQuotedLocalPart: true, allowsDomainLiteral: true))
            if let email {
                decided.email += 1
                #expect(email == (ascii.fullRejection(for: text) == nil), "\(text)")
            }
            if let idn {
                decided.idn += 1
                // It decides plain ASCII addresses only, which idn-email reads unmapped.
                #expect(idn == (EmailAddressValidator(options: .rfc).fullRejection(for: text) == nil), "\(text) (idn)")
                #expect(idn, "\(text): the byte path only accepts")
            }
        }
        #expect(decided.email > 5_000 && decided.idn > 1_500, "\(decided)")
    }
}
