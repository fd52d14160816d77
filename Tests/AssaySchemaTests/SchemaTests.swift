import AssayCore
import AssayJSON
import AssaySchema
import Foundation
import Testing

private func schema(_ text: String, options: JSONSchema.Options = .init()) throws -> JSONSchema {
    try JSONSchema(parsing: text, options: options)
}

private func json(_ text: String) throws -> JSONValue { try JSONValue(parsing: text) }

@Suite("Errors and output")
struct ErrorTests {
    let client = """
        {
          "$id": "https://example.com/client.json",
          "type": "object",
          "required": ["name", "age", "email"],
          "properties": {
            "name": {"type": "string", "minLength": 2},
            "age": {"$ref": "#/$defs/age"},
            "email": {"type": "string", "format": "email"},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}
          },
          "additionalProperties": false,
          "$defs": {"age": {"type": "integer", "minimum": 1, "maximum": 150}}
        }
        """

    @Test func everyErrorIsReportedWithItsLocations() throws {
        let validator = try schema(client, options: .init(assertFormats: true))
        let result = validator.validate(
            try json(#"{"name": "A", "age": 200, "email": "nope", "tags": ["x", 1, "x"], "extra": true}"#))
        #expect(!result.isValid)
        let found = result.errors.map { "\($0.instanceLocation.jsonPointer) \($0.keywordLocation) \($0.code)" }
        #expect(
            found == [
                "/name /properties/name/minLength tooShort",
                "/age /properties/age/$ref/maximum tooLarge",
                "/email /properties/email/format invalidFormat(email)",
                "/tags /properties/tags/uniqueItems notUnique",
                "/tags/1 /properties/tags/items/type typeMismatch",
                "/extra /additionalProperties unknownKey",
            ])
        let age = try #require(result.errors.first { $0.keyword == "maximum" })
        #expect(age.absoluteKeywordLocation == "https://example.com/client.json#/$defs/age/maximum")
        #expect(age.message(in: .english) == "Age must be at most 150")
        #expect(age.issue.path == ["age"])
        #expect(age.issue.ruleLocation == "/properties/age/$ref/maximum")
        #expect(age.issue.code == .tooLarge)
    }

    /// A keyword's absolute location, made on its first error and given again to the next ones,
    /// is the same on every thread, `~` and `/` escaped.
    @Test func absoluteLocationsAreTheSameOnEveryThread() throws {
        let names = (0..<20).map { "k\($0)" } + ["a~b", "c/d"]
        let properties = names.map { #""\#($0)": {"type": "integer", "minimum": 0}"# }.joined(separator: ", ")
        let validator = try schema(
            ##"{"$id": "https://example.com/s.json", "$defs": {"n": {"type": "object", "properties": {"## + properties
                + ##"}, "minProperties": 30, "required": ["zz"]}}, "$ref": "#/$defs/n"}"##)
        let document = try json("{" + names.map { #""\#($0)": -1"# }.joined(separator: ", ") + "}")
        let base = "https://example.com/s.json#/$defs/n"
        func escaped(_ name: String) -> String { name.replacing("~", with: "~0").replacing("/", with: "~1") }
        let expected =
            names.map { "\(base)/properties/\(escaped($0))/minimum" } + [base + "/minProperties", base + "/required"]
        @Sendable func locations() -> [String] {
            validator.validate(document).errors.map(\.absoluteKeywordLocation).sorted()
        }
        #expect(locations() == expected.sorted())
        final class Found: @unchecked Sendable {
            let lock = NSLock()
            var all: [[String]] = []
        }
        let found = Found()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<25 {
                let seen = locations()
                found.lock.withLock { found.all.append(seen) }
            }
        }
        #expect(found.all.count == 200)
        #expect(found.all.allSatisfy { $0 == expected.sorted() })
    }

    @Test func requiredNamesTheMissingProperty() throws {
        let result = try schema(client).validate(try json(#"{"name": "Ann"}"#))
        #expect(result.errors.map(\.instanceLocation.jsonPointer) == ["/age", "/email"])
        #expect(result.errors.map { $0.message(in: .english) } == ["Age is required", "Email is required"])
    }

    /// The parameters of an error that depend on the schema alone are made when it is compiled:
    /// each is the same as the keyword's operand says, for a value of every kind.
    @Test func parametersNameTheRuleAndTheValuesKind() throws {
        let types = try schema(#"{"items": {"type": ["string", "null"]}}"#)
        let values: [(String, String)] = [
            ("true", "boolean"), ("1", "integer"), ("1.5", "number"), ("[]", "array"), ("{}", "object"),
        ]
        for (text, kind) in values {
            let error = try #require(types.validate(try json("[\(text)]")).errors.first)
            #expect(error.parameters == ["expected": .string("string or null"), "actual": .string(kind)], "\(text)")
            #expect(error.message(in: .english) == "Value must be of type string or null")
        }
        let cases: [(schema: String, instance: String, parameters: [String: IssueValue])] = [
            (#"{"enum": [1, "a", null, [2]]}"#, "2", ["allowed": .string(#"1, "a", null, [2]"#)]),
            (
                #"{"enum": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]}"#, "0",
                ["allowed": .string("1, 2, 3, 4, 5, 6, 7, 8, 9, 10, …")]
            ),
            (#"{"const": {"a": [1]}}"#, "2", ["expected": .string(#"{"a":[1]}"#)]),
            (#"{"multipleOf": 0.5}"#, "0.3", ["multipleOf": .string("0.5")]),
            (#"{"maximum": 2.5}"#, "3", ["maximum": .string("2.5")]),
            (#"{"exclusiveMinimum": 2}"#, "2", ["minimum": .string("2")]),
            (#"{"maxLength": 1}"#, #""ab""#, ["maximum": .integer(1)]),
            (#"{"minItems": 2}"#, "[1]", ["minimum": .integer(2)]),
            (#"{"maxProperties": 0}"#, #"{"a": 1}"#, ["maximum": .integer(0)]),
            (#"{"pattern": "^a"}"#, #""b""#, ["pattern": .string("^a")]),
            (#"{"format": "email"}"#, #""no""#, ["format": .string("email")]),
            (#"{"contains": {"const": 1}, "minContains": 2}"#, "[1]", ["minimum": .integer(2)]),
            (#"{"contains": {"const": 1}, "maxContains": 1}"#, "[1, 1]", ["maximum": .integer(1)]),
        ]
        for (text, instance, parameters) in cases {
            let validator = try schema(text, options: .init(assertFormats: true))
            let errors = validator.validate(try json(instance)).errors
            #expect(errors.count == 1, "\(text)")
            #expect(errors.first?.parameters == parameters, "\(text)")
        }
    }

    @Test func limitsAndFailFast() throws {
        let validator = try schema(#"{"items": {"type": "integer"}}"#)
        let instance = try json("[\"a\", \"b\", \"c\", \"d\"]")
        #expect(validator.validate(instance).errors.count == 4)
        #expect(validator.validate(instance, limit: .failFast).errors.count == 1)
        #expect(validator.validate(instance, limit: .first(2)).errors.count == 2)
        #expect(!validator.isValid(instance))
    }

    @Test func messagesInEveryLanguage() throws {
        let validator = try schema(#"{"properties": {"age": {"maximum": 150}}}"#)
        let error = try #require(validator.validate(try json(#"{"age": 151}"#)).errors.first)
        #expect(error.message(in: .english) == "Age must be at most 150")
        #expect(error.message(in: .russian).contains("150"))
        #expect(error.message(in: .russian) != error.message(in: .english))
        #expect(error.message(in: .simplifiedChinese).contains("150"))
        #expect(Language.withCurrent(.russian) { error.message } == error.message(in: .russian))
    }

    @Test func aMessageShowsAValueWhenItsTemplateNamesIt() throws {
        // A value's text (an object's or array's JSON, a number's digits) is made only for a
        // template that may show it: the message is the same either way.
        let validator = try schema(#"{"type": "string"}"#)
        let decimal = try #require(validator.validate(try json("-84.077469")).errors.first)
        #expect(decimal.message(in: .english) == "Value must be of type string")
        MessageCatalog.withCurrent(
            MessageCatalog([.english: ["typeMismatch": "{value} is not a {expected} ({@expected})"]])
        ) {
            #expect(decimal.message(in: .english) == "-84.077469 is not a string (string)")
            #expect(decimal.message(in: .english) == decimal.issue.message(in: .english))
        }
        let error = try #require(validator.validate(try json(#"[1, {"a": true}]"#)).errors.first)
        #expect(error.message(in: .english) == "Value must be of type string")
        #expect(error.message(in: .english) == error.issue.message(in: .english))
        let showing = MessageCatalog.builtIn.merging(
            MessageCatalog([.english: ["typeMismatch": "{value} is not a {expected}"]]))
        MessageCatalog.withCurrent(showing) {
            #expect(error.message(in: .english) == #"[1,{"a":true}] is not a string"#)
            #expect(error.message(in: .english) == error.issue.message(in: .english))
        }
        let plural = MessageCatalog([.english: ["typeMismatch": "{subject}: {value|one|many}"]])
        MessageCatalog.withCurrent(plural) {
            #expect(error.message(in: .english) == error.issue.message(in: .english))
        }
    }

    @Test func aMemoGivesEveryErrorTheMessageItWouldRenderItself() throws {
        // Errors alike (message key, code, parameters, last key) share a message, except where the
        // template shows the value or the whole location: `a` is 1 in one document and 3 in the
        // next, and the elements at /0 and /1 differ only by their index.
        let validator = try schema(
            #"{"properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "items": {"type": "string"}}"#)
        var errors: [SchemaError] = []
        for text in [#"{"a": 1, "b": 2}"#, #"{"a": 3}"#, #"{"a": [true], "b": null}"#, #"[1, 2, "x", {"a": 1}]"#] {
            errors += validator.validate(try json(text)).errors
        }
        #expect(errors.count == 8)
        let catalogs = [
            MessageCatalog.builtIn,
            MessageCatalog.builtIn.merging(MessageCatalog([.english: ["typeMismatch": "{value} is not a {expected}"]])),
            MessageCatalog.builtIn.merging(MessageCatalog([.english: ["typeMismatch": "{path}: not a {expected}"]])),
            MessageCatalog.builtIn.merging(MessageCatalog([.english: ["typeMismatch": "{subject}: {value|one|many}"]])),
        ]
        for catalog in catalogs {
            for language in [Language.english, .russian] {
                let memo = SchemaMessageMemo(language: language, catalog: catalog)
                for error in errors + errors {
                    let own = MessageCatalog.withCurrent(catalog) { error.message(in: language) }
                    #expect(memo.message(for: error) == own)
                }
            }
        }
        // Rendered once for each key and type found (a `typeMismatch` names the type it found):
        // a and b numbers, a an array, b null, elements a number and an object. The built-in
        // message does not show the value, so `a`'s 1 and 3 share one.
        let memo = SchemaMessageMemo(language: .english, catalog: .builtIn)
        for error in errors { _ = memo.message(for: error) }
        #expect(memo.count == 6)
        // At most `capacity` messages are kept.
        let small = SchemaMessageMemo(language: .english, catalog: .builtIn, capacity: 2)
        for error in errors + errors {
            _ = small.message(for: error)
            #expect(small.count <= 2)
        }
        // Errors alike but for their parameters (20 maximums at the same key): each its own
        // message, at most eight kept for them.
        var bounds: [SchemaError] = []
        for maximum in 1...20 {
            bounds += try schema(#"{"properties": {"a": {"maximum": \#(maximum)}}}"#).validate(try json(#"{"a": 100}"#))
                .errors
        }
        let alike = SchemaMessageMemo(language: .english, catalog: .builtIn)
        for error in bounds + bounds {
            #expect(alike.message(for: error) == error.message(in: .english))
            #expect(alike.count <= 8)
        }
        #expect(Set(bounds.map { alike.message(for: $0) }).count == 20)
    }

    @Test func outputFormats() throws {
        let validator = try schema(#"{"$id": "https://x.test/s", "allOf": [{"minimum": 5}, {"multipleOf": 2}]}"#)
        let result = validator.validate(try json("3"))
        #expect(result.output(.flag) == (try json(#"{"valid": false}"#)))
        let basic = result.output(.basic, language: .english)
        let units = try #require(basic["errors"]?.array)
        #expect(units.count == 2)
        #expect(units[0]["keywordLocation"] == "/allOf/0/minimum")
        #expect(units[0]["absoluteKeywordLocation"] == "https://x.test/s#/allOf/0/minimum")
        #expect(units[0]["instanceLocation"] == "")
        #expect(units[0]["error"] == "Value must be at least 5")
        let detailed = result.output(.detailed, language: .english)
        let top = try #require(detailed["errors"]?.array)
        #expect(top.count == 1)
        #expect(top[0]["keywordLocation"] == "/allOf")
        #expect(top[0]["errors"]?.array?.count == 2)
        #expect(
            validator.validate(try json("6")).output(.basic)
                == (try json(#"{"valid": true, "keywordLocation": "", "instanceLocation": ""}"#)))
        #expect(validator.validate(try json("6")).output(.flag) == (try json(#"{"valid": true}"#)))
        // From the schema: every format, annotations of a valid instance included.
        let annotated = try schema(
            #"{"$id": "https://x.test/a", "title": "T", "properties": {"a": {"readOnly": true, "minimum": 1}}}"#)
        let valid = annotated.output(.basic, for: try json(#"{"a": 2}"#), language: .english)
        #expect(valid["valid"] == true)
        #expect(valid["absoluteKeywordLocation"] == "https://x.test/a#")
        let expected: [[JSONValue?]] = [["/properties/a/readOnly", "/a", true], ["/title", "", "T"]]
        #expect(
            valid["annotations"]?.array?.map { [$0["keywordLocation"], $0["instanceLocation"], $0["annotation"]] }
                == expected)
        let failing = annotated.output(.basic, for: try json(#"{"a": 0}"#), language: .english)
        #expect(failing["valid"] == false && failing["annotations"] == nil)
        #expect(failing["errors"]?.array?.map { $0["keywordLocation"] } == ["/properties/a/minimum"])
        #expect(annotated.output(.flag, for: try json(#"{"a": 0}"#)) == ["valid": false])
        #expect(annotated.output(.detailed, for: try json(#"{"a": 0}"#))["errors"]?.array?.count == 1)
        #expect(annotated.output(.verbose, for: try json(#"{"a": 0}"#))["valid"] == false)
    }

    /// Every unit of a verbose output, depth first.
    private func units(_ unit: JSONValue) -> [JSONValue] {
        [unit] + ((unit["errors"] ?? unit["annotations"])?.array ?? []).flatMap(units)
    }

    @Test func verboseOutputOfTheSpecificationsExample() throws {
        // The example of JSON Schema 2020-12 core, section 12.4.
        let validator = try schema(
            #"{"$id": "https://example.com/polygon", "type": "object", "properties": {"validProp": true}, "additionalProperties": false}"#
        )
        let output = validator.verboseOutput(
            for: try json(#"{"validProp": 5, "disallowedProp": "value"}"#), language: .english)
        #expect(output["valid"] == false)
        #expect(output["keywordLocation"] == "")
        #expect(output["absoluteKeywordLocation"] == "https://example.com/polygon#")
        let keywords = try #require(output["errors"]?.array)
        #expect(keywords.map { $0["keywordLocation"]?.string } == ["/type", "/properties", "/additionalProperties"])
        #expect(keywords.map { $0["valid"]?.bool } == [true, true, false])
        let property = try #require(keywords[1]["annotations"]?.array?.first)
        #expect(property["keywordLocation"] == "/properties/validProp")
        #expect(property["instanceLocation"] == "/validProp")
        #expect(property["valid"] == true)
        let extra = try #require(keywords[2]["errors"]?.array)
        #expect(extra.count == 1)
        #expect(extra[0]["instanceLocation"] == "/disallowedProp")
        #expect(extra[0]["code"] == "unknownKey")
        #expect(extra[0]["error"] == "“disallowedProp” is not an allowed key")
        #expect(validator.verboseOutput(for: try json(#"{"validProp": 5}"#))["valid"] == true)
    }

    @Test func verboseOutputKeepsAnnotationsReferencesAndEveryAlternative() throws {
        let validator = try schema(
            #"""
            {"$id": "https://x.test/s", "title": "Client", "type": "object",
             "properties": {"age": {"$ref": "#/$defs/age"},
                            "contact": {"anyOf": [{"type": "integer"}, {"type": "string", "format": "email"}]}},
             "$defs": {"age": {"description": "years", "minimum": 1}}}
            """#)
        let output = validator.verboseOutput(for: try json(#"{"age": 30, "contact": "a@b.test"}"#))
        #expect(output["valid"] == true)
        let all = units(output)
        func unit(_ location: String) -> JSONValue? { all.first { $0["keywordLocation"]?.string == location } }
        #expect(unit("/title")?["annotation"] == "Client")
        let reference = try #require(unit("/properties/age/$ref"))
        let target = try #require(reference["annotations"]?.array?.first)
        #expect(target["absoluteKeywordLocation"] == "https://x.test/s#/$defs/age")
        #expect(target["instanceLocation"] == "/age")
        let described = try #require(unit("/properties/age/$ref/description"))
        #expect(described["annotation"] == "years")
        #expect(described["absoluteKeywordLocation"] == "https://x.test/s#/$defs/age/description")
        // anyOf passed through its second alternative; the first one's failure is kept.
        #expect(unit("/properties/contact/anyOf")?["valid"] == true)
        #expect(unit("/properties/contact/anyOf/0")?["valid"] == false)
        #expect(unit("/properties/contact/anyOf/0/type")?["code"] == "typeMismatch")
        #expect(unit("/properties/contact/anyOf/1")?["valid"] == true)
        #expect(unit("/properties/contact/anyOf/1/format")?["annotation"] == "email")
        // A failed schema reports no annotations: only why it failed.
        let failed = validator.verboseOutput(for: try json(#"{"age": 0}"#), language: .english)
        #expect(failed["valid"] == false)
        let failedUnits = units(failed)
        #expect(
            !failedUnits.contains {
                $0["annotation"] != nil && $0["keywordLocation"] == "/properties/age/$ref/description"
            })
        let minimum = try #require(failedUnits.first { $0["keywordLocation"] == "/properties/age/$ref/minimum" })
        #expect(minimum["valid"] == false)
        #expect(minimum["error"] == "Age must be at least 1")
        #expect(minimum["absoluteKeywordLocation"] == "https://x.test/s#/$defs/age/minimum")
    }

    @Test func verboseOutputOfDeepInstancesAndCycles() throws {
        // On a stack of 64 MB: the depths asked for fit whatever the build (frames of a debug build
        // under AddressSanitizer are several times larger); the guard's stops on small stacks are
        // HostileSchemaTests'.
        try onThread(stackSize: 64 << 20) {
            let recursive = try schema(##"{"type": ["array", "integer"], "items": {"$ref": "#"}}"##)
            var value: JSONValue = 1
            for _ in 0..<300 { value = [value] }
            #expect(recursive.verboseOutput(for: value)["valid"] == true)
            var bad: JSONValue = "x"
            for _ in 0..<300 { bad = [bad] }
            let output = recursive.verboseOutput(for: bad, language: .english)
            #expect(output["valid"] == false)
            let deepest = units(output).filter { $0["code"] == "typeMismatch" }
            #expect(deepest.count == 1)
            #expect(deepest.first?["instanceLocation"]?.string == String(repeating: "/0", count: 300))
            let cycle = try schema(##"{"$ref": "#"}"##).verboseOutput(for: 1, language: .english)
            #expect(cycle["valid"] == false)
            #expect(units(cycle).contains { $0["code"] == "malformed" })
        }
    }

    @Test func documentsAreReadInPlaceWhenTheSchemaAllows() throws {
        let plain = try schema(
            #"{"type": "object", "required": ["a"], "properties": {"a": {"type": "string", "minLength": 2}, "b": {"items": {"enum": [1, 2]}}}, "additionalProperties": false}"#
        )
        let annotated = try schema(#"{"properties": {"a": true}, "unevaluatedProperties": false}"#)
        let cases: [(String, Bool)] = [
            (#"{"a": "xy", "b": [1, 2, 1]}"#, true), (#"{"a": "x"}"#, false), (#"{"b": []}"#, false),
            (#"{"a": "xy", "b": [3]}"#, false), (#"{"a": "xy", "c": 1}"#, false), (#"[]"#, false),
            (#"{"a": "x\u00e9"}"#, true), (#"{"\u0061": "xy"}"#, true),
        ]
        for (text, expected) in cases {
            let document = try JSONDocument(parsing: text)
            #expect(plain.isValid(document) == expected, "\(text)")
            #expect(plain.validate(document).isValid == expected, "\(text)")
            #expect(plain.validate(document).errors == plain.validate(document.value).errors, "\(text)")
            #expect(annotated.isValid(document) == annotated.isValid(document.value), "\(text)")
        }
    }

    @Test func anyOfAndOneOfKeepEachBranchsErrors() throws {
        let validator = try schema(
            #"{"properties": {"port": {"anyOf": [{"type": "integer", "maximum": 65535}, {"type": "string", "pattern": "^[0-9]+$"}]}, "mode": {"oneOf": [{"const": "a"}, {"const": "b"}]}}}"#
        )
        let result = validator.validate(try json(#"{"port": 70000, "mode": "c"}"#))
        #expect(result.errors.map(\.keywordLocation) == ["/properties/port/anyOf", "/properties/mode/oneOf"])
        #expect(
            result.errors[0].causes.map(\.keywordLocation) == [
                "/properties/port/anyOf/0/maximum", "/properties/port/anyOf/1/type",
            ])
        #expect(
            result.errors[1].causes.map(\.keywordLocation) == [
                "/properties/mode/oneOf/0/const", "/properties/mode/oneOf/1/const",
            ])
        // The basic output is flat (each anyOf and oneOf error, then its causes); the detailed
        // output nests the branches under their anyOf.
        #expect(
            result.output(.basic)["errors"]?.array?.compactMap { $0["keywordLocation"]?.string } == [
                "/properties/port/anyOf", "/properties/port/anyOf/0/maximum", "/properties/port/anyOf/1/type",
                "/properties/mode/oneOf", "/properties/mode/oneOf/0/const", "/properties/mode/oneOf/1/const",
            ])
        let detailed = result.output(.detailed, language: .english)
        let port = try #require(detailed["errors"]?[0]?["errors"]?[0])
        #expect(port["keywordLocation"] == "/properties/port/anyOf")
        let branches = try #require(port["errors"]?.array)
        #expect(branches.count == 2)
        #expect(branches[0]["keywordLocation"] == "/properties/port/anyOf/0/maximum")
        // The causes count against the error limit too: one error is the anyOf's alone, two add
        // its first cause.
        #expect(validator.validate(try json(#"{"port": 70000}"#), limit: .failFast).errors[0].causes.isEmpty)
        let two = validator.validate(try json(#"{"port": 70000}"#), limit: .first(2))
        #expect(two.errors.count == 1)
        #expect(two.errors[0].causes.map(\.keywordLocation) == ["/properties/port/anyOf/0/maximum"])
        #expect(two.isTruncated)
        #expect(!validator.isValid(try json(#"{"port": 70000}"#)))
    }

    @Test func aTaggedUnionReportsTheVariantsTheValueClaims() throws {
        // `kind` tells the variants apart (by `const` through a `$ref`, or by `enum`): the errors of a
        // value that matches none are those of the variants its `kind` allows.
        let validator = try schema(
            #"""
            {"oneOf": [{"$ref": "#/$defs/circle"}, {"$ref": "#/$defs/square"}, {"$ref": "#/$defs/shape"}],
             "$defs": {
               "circle": {"properties": {"kind": {"const": "circle"}, "radius": {"type": "number"}}, "required": ["radius"]},
               "square": {"properties": {"kind": {"$ref": "#/$defs/squareKind"}, "side": {"type": "number"}}, "required": ["side"]},
               "squareKind": {"const": "square"},
               "shape": {"properties": {"kind": {"enum": ["polygon", "square"]}, "sides": {"minimum": 3}}}}}
            """#
        )
        let text = #"{"kind": "square", "side": "2", "sides": 2}"#
        for form in [validator.validate(try json(text)), validator.validate(try JSONDocument(parsing: text))] {
            #expect(form.errors.map(\.keywordLocation) == ["/oneOf"])
            #expect(
                form.errors[0].causes.map(\.keywordLocation) == [
                    "/oneOf/1/$ref/properties/side/type", "/oneOf/2/$ref/properties/sides/minimum",
                ])
        }
        #expect(!validator.isValid(try json(text)))
        // A value that no variant claims gets every variant's errors, its tag's mismatches included;
        // so does a value without the tag.
        let unclaimed = validator.validate(try json(#"{"kind": "hexagon"}"#))
        #expect(
            unclaimed.errors[0].causes.map(\.keywordLocation) == [
                "/oneOf/0/$ref/required", "/oneOf/0/$ref/properties/kind/const",
                "/oneOf/1/$ref/required", "/oneOf/1/$ref/properties/kind/$ref/const",
                "/oneOf/2/$ref/properties/kind/enum",
            ])
        // A tag that is an object or a number is no variant's either.
        for tag in [#"{"kind": "square"}"#, "5"] {
            let other = validator.validate(try JSONDocument(parsing: #"{"kind": \#(tag)}"#))
            #expect(other.errors[0].causes.count == 5, "\(tag)")
        }
        let untagged = validator.validate(try json(#"{"sides": 1}"#))
        #expect(
            untagged.errors[0].causes.map(\.keywordLocation) == [
                "/oneOf/0/$ref/required", "/oneOf/1/$ref/required", "/oneOf/2/$ref/properties/sides/minimum",
            ])
    }

    @Test func anObjectWhoseObjectVariantsAreRuledOutGetsEveryVariantsErrors() throws {
        // `level` rules the only object alternative out; the one left (a string or a boolean,
        // through its `oneOf`) cannot take an object: the object claims no variant, and the causes
        // are every alternative's, the rule's `level` among them.
        let validator = try schema(
            #"""
            {"oneOf": [{"$ref": "#/$defs/toggle"}, {"type": "object", "properties": {"level": {"enum": ["error", "warning"]}}}],
             "$defs": {"toggle": {"oneOf": [{"enum": ["enable", "disable"]}, {"type": "boolean"}]}}}
            """#
        )
        let result = validator.validate(try json(#"{"level": "info"}"#))
        #expect(result.errors.map(\.keywordLocation) == ["/oneOf"])
        #expect(
            result.errors[0].causes.map(\.keywordLocation) == [
                "/oneOf/0/$ref/oneOf", "/oneOf/1/properties/level/enum",
            ])
        // A string is one of the toggle's values, or not: the toggle's errors alone are not asked
        // for here; the object variant cannot take it and is skipped.
        #expect(!validator.isValid(try json(#""on""#)))
        #expect(validator.isValid(try json(#""enable""#)))
    }
}

@Suite("Formats")
struct FormatTests {
    @Test func formatsAreAnnotationsUnlessAsserted() throws {
        let text = #"{"format": "email"}"#
        #expect(try schema(text).isValid(try json(#""not an email""#)))
        #expect(!(try schema(text, options: .init(assertFormats: true)).isValid(try json(#""not an email""#))))
        #expect(try schema(text, options: .init(assertFormats: true)).isValid(try json(#""ann@example.com""#)))
        #expect(try schema(text, options: .init(assertFormats: true)).isValid(try json("42")))
    }

    @Test(arguments: [
        ("date", "2024-02-29", true), ("date", "2023-02-29", false), ("time", "23:59:60Z", true),
        ("date-time", "2024-01-01T10:00:00+01:00", true), ("duration", "P1Y2M3DT4H", true), ("duration", "PT", false),
        ("uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d16380", true), ("ipv4", "256.1.1.1", false),
        ("ipv6", "::1", true), ("hostname", "-bad.example", false), ("uri", "https://a.test/x?y#z", true),
        ("uri-reference", "../a", true), ("iri", "https://例え.テスト/", true), ("json-pointer", "/a~2", false),
        ("relative-json-pointer", "1/a", true), ("uri-template", "https://a.test/{id}", true),
        ("regex", "^(a|b", false), ("regex", "(a)\\1", true), ("idn-email", "用户@例子.广告", true),
    ])
    func knownFormats(format: String, text: String, valid: Bool) throws {
        let validator = try schema(#"{"format": "\#(format)"}"#, options: .init(assertFormats: true))
        #expect(validator.isValid(.string(text)) == valid)
    }

    @Test func dateRangesInASchema() throws {
        let validator = try schema(
            #"{"format": "date", "formatMinimum": "2000-01-01", "formatExclusiveMaximum": "2030-01-01"}"#)
        #expect(validator.isValid(try json(#""2000-01-01""#)))
        #expect(!validator.isValid(try json(#""1999-12-31""#)))
        #expect(!validator.isValid(try json(#""2030-01-01""#)))
        let error = try #require(validator.validate(try json(#""1999-12-31""#)).errors.first)
        #expect(error.code == .tooSmall)
        #expect(error.message(in: .english) == "Value must be on or after 2000-01-01")
    }

    @Test func dateBoundsMustFitTheFormat() throws {
        #expect(throws: SchemaCompilationError.self) { try schema(#"{"format": "email", "formatMinimum": "a"}"#) }
        #expect(throws: SchemaCompilationError.self) { try schema(#"{"format": "date", "formatMinimum": "soon"}"#) }
    }
}

@Suite("Compiling")
struct CompileTests {
    @Test func everyProblemOfAnInvalidSchemaAtOnce() throws {
        let error = try #require(
            throws: SchemaCompilationError.self,
            performing: {
                try schema(
                    ##"{"$id": "https://x.test/s", "minLength": -1, "type": "strng", "pattern": "(", "$ref": "#/nope", "properties": {"a": 3}}"##
                )
            })
        let locations = error.problems.map(\.location)
        #expect(locations.contains("https://x.test/s#/minLength"))
        #expect(locations.contains("https://x.test/s#/type"))
        #expect(locations.contains("https://x.test/s#/pattern"))
        #expect(locations.contains("https://x.test/s#/$ref"))
        #expect(locations.contains("https://x.test/s#/properties"))
        #expect(error.problems.count == 5)
    }

    @Test func patternsTheLinearEngineCannotRunAreRefusedClearly() throws {
        let error = try #require(throws: SchemaCompilationError.self) { try schema(#"{"pattern": "(a)\\1"}"#) }
        #expect(error.description.contains("refuses"))
        #expect(throws: SchemaCompilationError.self) { try schema(#"{"pattern": "(?<n>a)\\k<n>"}"#) }
    }

    @Test func scriptPropertiesInPatterns() throws {
        let validator = try schema(
            #"{"properties": {"name": {"pattern": "^\\p{Script=Cyrillic}+( \\p{sc=Cyrl}+)*$"}}, "patternProperties": {"^\\p{scx=Grek}+$": {"type": "integer"}}}"#
        )
        #expect(validator.isValid(try json(#"{"name": "Анна Петрова"}"#)))
        #expect(!validator.isValid(try json(#"{"name": "Anna Petrova"}"#)))
        #expect(validator.isValid(try json(#"{"αβ": 1}"#)))
        #expect(!validator.isValid(try json(#"{"αβ": "1"}"#)))
        let error = try #require(throws: SchemaCompilationError.self) {
            try schema(#"{"pattern": "\\p{Script=Klingon}"}"#)
        }
        #expect(error.description.contains("Klingon"))
    }

    @Test func notJSONAndUnknownDialects() throws {
        #expect(throws: SchemaCompilationError.self) { try schema("{") }
        #expect(throws: SchemaCompilationError.self) { try schema(#"{"$schema": "https://example.com/unknown"}"#) }
    }

    @Test func dialectsFromSchemaOrDefault() throws {
        #expect(try schema(#"{"$schema": "http://json-schema.org/draft-07/schema#"}"#).dialect == .draft7)
        #expect(try schema("{}").dialect == .draft2020_12)
        #expect(try schema("{}", options: .init(defaultDialect: .draft4)).dialect == .draft4)
        // Draft 4's boolean exclusiveMaximum, draft 2020-12's numeric one.
        #expect(
            !(try schema(#"{"maximum": 5, "exclusiveMaximum": true}"#, options: .init(defaultDialect: .draft4)).isValid(
                5)))
        #expect(!(try schema(#"{"exclusiveMaximum": 5}"#).isValid(5)))
    }

    @Test func dialectsNamedByURIOrShortName() {
        for dialect in SchemaDialect.all {
            let bare = dialect.uri.hasSuffix("#") ? String(dialect.uri.dropLast()) : dialect.uri
            let http = bare.hasPrefix("https://") ? "http://" + bare.dropFirst(8) : bare
            let https = "https://" + http.dropFirst("http://".count)
            for name in [http, https, http + "#", https + "#", dialect.description] {
                #expect(SchemaDialect(name) == dialect, "\(name)")
            }
            for name in [https + "/", "x" + https, https + "https://", "https://" + https, https + "##"] {
                #expect(SchemaDialect(name) == nil, "\(name)")
            }
        }
        #expect(SchemaDialect("draft2020-12") == .draft2020_12)
        #expect(SchemaDialect("2019-09") == .draft2019_09)
        #expect(SchemaDialect("https://") == nil)
        #expect(SchemaDialect("") == nil)
    }

    @Test func schemasCheckedAgainstTheBundledMetaschemas() throws {
        for dialect in SchemaDialect.all {
            let metaschema = try JSONSchema(BundledMetaschemas.metaschema(for: dialect))
            #expect(metaschema.isValid(try json(#"{"type": "string", "minLength": 2}"#)))
            #expect(!metaschema.isValid(try json(#"{"minLength": -1}"#)))
            #expect(!metaschema.isValid(try json(#"{"type": "strng"}"#)))
            #expect(!metaschema.isValid(try json(#"{"properties": {"a": {"required": "a"}}}"#)))
        }
    }
}

@Suite("Registry")
struct RegistryTests {
    @Test func registeredDocumentsDirectoriesAndLoaders() throws {
        var registry = SchemaRegistry()
        registry.register(try json(#"{"type": "integer"}"#), as: "https://schemas.test/int.json")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("assay-registry-\(UUID())")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"type": "string"}"#.utf8).write(to: folder.appendingPathComponent("sub/str.json"))
        registry.map(prefix: "https://files.test/", toDirectory: folder.path)
        registry.setLoader { uri in uri == "https://loaded.test/bool.json" ? ["type": "boolean"] : nil }
        let options = JSONSchema.Options(registry: registry)
        let validator = try schema(
            #"{"properties": {"i": {"$ref": "https://schemas.test/int.json"}, "s": {"$ref": "https://files.test/sub/str.json"}, "b": {"$ref": "https://loaded.test/bool.json"}}}"#,
            options: options)
        #expect(validator.isValid(try json(#"{"i": 1, "s": "x", "b": true}"#)))
        #expect(validator.validate(try json(#"{"i": "1", "s": 2, "b": 0}"#)).errors.count == 3)
    }

    @Test func nothingIsFetchedFromTheNetwork() throws {
        let error = try #require(throws: SchemaCompilationError.self) {
            try schema(#"{"$ref": "https://json-schema.invalid/never.json"}"#)
        }
        #expect(error.description.contains("cannot be resolved"))
    }

    @Test func aRegistryFileThatIsNotJSONIsNamedInTheError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("assay-registry-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("{\"type\": \n".utf8).write(to: folder.appendingPathComponent("broken.json"))
        var registry = SchemaRegistry()
        registry.map(prefix: "https://files.test/", toDirectory: folder.path)
        let error = try #require(throws: SchemaCompilationError.self) {
            try schema(#"{"$ref": "https://files.test/broken.json"}"#, options: .init(registry: registry))
        }
        #expect(error.description.contains("broken.json is not valid JSON: line 2"))
    }

    @Test func aMetaschemaRequiringAnUnknownVocabularyIsRefused() throws {
        var registry = SchemaRegistry()
        registry.register(
            try json(
                #"{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://meta.test/strict", "$vocabulary": {"https://json-schema.org/draft/2020-12/vocab/core": true, "https://vocab.test/units": true, "https://vocab.test/optional": false}}"#
            ), as: "https://meta.test/strict")
        let error = try #require(throws: SchemaCompilationError.self) {
            try schema(
                #"{"$schema": "https://meta.test/strict", "type": "string"}"#, options: .init(registry: registry))
        }
        #expect(error.description.contains("requires the vocabulary https://vocab.test/units"))
        #expect(!error.description.contains("vocab.test/optional"))
    }

    @Test func directoryMappingStaysInsideItsFolder() throws {
        var registry = SchemaRegistry()
        registry.map(prefix: "https://files.test/", toDirectory: "/tmp")
        #expect(throws: SchemaCompilationError.self) {
            try schema(#"{"$ref": "https://files.test/../etc/passwd"}"#, options: .init(registry: registry))
        }
    }
}

@Suite("Hostile schemas and instances")
struct HostileTests {
    @Test func referenceCyclesEndWithAnError() throws {
        let validator = try schema(##"{"$ref": "#"}"##)
        let result = validator.validate(42)
        #expect(!result.isValid)
        #expect(result.errors.first?.code == .malformed)
        #expect(!validator.isValid(42))
        let mutual = try schema(
            ##"{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}"##)
        #expect(!mutual.isValid("x"))
    }

    @Test func deepInstancesThroughRecursiveSchemas() throws {
        // On a stack of 64 MB: the depths asked for fit whatever the build (frames of a debug build
        // under AddressSanitizer are several times larger); the guard's stops on small stacks are
        // HostileSchemaTests'.
        try onThread(stackSize: 64 << 20) {
            let validator = try schema(##"{"type": ["array", "integer"], "items": {"$ref": "#"}}"##)
            var value: JSONValue = 1
            for _ in 0..<500 { value = [value] }
            #expect(validator.isValid(value))
            var bad: JSONValue = "x"
            for _ in 0..<500 { bad = [bad] }
            let result = validator.validate(bad)
            #expect(result.errors.count == 1)
            #expect(result.errors[0].instanceLocation.components.count == 500)
            var deep: JSONValue = 1
            for _ in 0..<1_000 { deep = [deep] }
            #expect(validator.isValid(deep))
            deep = [deep]
            let tooDeep = validator.validate(deep)
            #expect(tooDeep.errors.map(\.code) == [.malformed])
            #expect(tooDeep.errors.first?.message(in: .english).contains("nested more than 1000 levels") == true)
            // What it shows of the value is an excerpt, 8 levels deep, as for a document's values.
            var shown = try #require(tooDeep.errors.first?.value)
            for _ in 0..<8 {
                guard case .array(let elements) = shown, elements.count == 1 else { break }
                shown = elements[0]
            }
            #expect(shown == "[…]")
        }
    }

    @Test func deepDocumentsReadInPlace() throws {
        // On a stack of 64 MB: the depths asked for fit whatever the build (frames of a debug build
        // under AddressSanitizer are several times larger); the guard's stops on small stacks are
        // HostileSchemaTests'.
        try onThread(stackSize: 64 << 20) {
            // The same depths through the in-place evaluator, objects and arrays.
            let validator = try schema(
                ##"{"type": ["array", "object", "integer"], "items": {"$ref": "#"}, "properties": {"a": {"$ref": "#"}}}"##
            )
            let lower = try schema(
                ##"{"type": ["array", "object", "integer"], "items": {"$ref": "#"}, "properties": {"a": {"$ref": "#"}}}"##,
                options: .init(maximumInstanceDepth: 999))
            let options = JSONParserOptions(maximumDepth: 1_000)
            for (open, close) in [("[", "]"), (#"{"a":"#, "}")] {
                let text = String(repeating: open, count: 1_000) + "1" + String(repeating: close, count: 1_000)
                let document = try JSONDocument(parsing: text, options: options)
                #expect(validator.isValid(document))
                #expect(validator.validate(document).isValid)
                #expect(!lower.isValid(document))
                #expect(lower.validate(document).errors.map(\.code) == [.malformed])
                // Within the in-place evaluator's own depth, the answers are its own.
                let shallow = String(repeating: open, count: 90) + "1" + String(repeating: close, count: 90)
                #expect(validator.isValid(try JSONDocument(parsing: shallow)))
                let wrong = String(repeating: open, count: 90) + "true" + String(repeating: close, count: 90)
                #expect(!validator.isValid(try JSONDocument(parsing: wrong)))
            }
            // A lower limit in the options holds in place too.
            let strict = try schema(##"{"items": {"$ref": "#"}}"##, options: .init(maximumInstanceDepth: 10))
            for levels in [10, 11, 12, 13] {
                let document = try JSONDocument(
                    parsing: String(repeating: "[", count: levels) + String(repeating: "]", count: levels))
                #expect(strict.isValid(document) == strict.isValid(document.value), "\(levels)")
                #expect(strict.isValid(document) == (levels <= 11), "\(levels)")
            }
            // A reference cycle ends with the tree evaluator's error.
            let cycle = try schema(##"{"$ref": "#"}"##)
            #expect(!cycle.isValid(try JSONDocument(parsing: "1")))
            #expect(cycle.validate(try JSONDocument(parsing: "1")).errors.map(\.code) == [.malformed])
        }
    }

    @Test func deepSchemasAreRefused() throws {
        var value: JSONValue = ["type": "integer"]
        for _ in 0..<2_000 { value = ["not": value] }
        let error = try #require(throws: SchemaCompilationError.self) { try JSONSchema(value) }
        #expect(error.description.contains("nested more than"))
    }

    @Test func hugeOperands() throws {
        #expect(try schema(#"{"minLength": 100000000000000000000000000000}"#).isValid(try json(#""short""#)) == false)
        #expect(try schema(#"{"maxLength": 100000000000000000000000000000}"#).isValid(try json(#""short""#)))
        #expect(try schema(#"{"multipleOf": 1e308}"#).isValid(try json("1e308")))
        #expect(!(try schema(#"{"multipleOf": 1e-308}"#).isValid(try json("1e-309"))))
        #expect(try schema(#"{"multipleOf": 0.01}"#).isValid(try json("19.99")))
        #expect(!(try schema(#"{"maximum": 1e400}"#).isValid(try json("1e401"))))
    }

    @Test func catastrophicPatternsRunInLinearTime() throws {
        let validator = try schema(#"{"pattern": "^(a+)+$"}"#)
        let hostile = String(repeating: "a", count: 100_000) + "!"
        #expect(!validator.isValid(.string(hostile)))
        #expect(validator.isValid(.string(String(repeating: "a", count: 100_000))))
    }

    @Test func uniqueItemsSmallAndLargeArrays() throws {
        // Up to 16 elements are compared in pairs, more are hashed: both must agree.
        let validator = try schema(#"{"uniqueItems": true}"#)
        for count in [2, 16, 17, 1_000] {
            let distinct = (0..<count).map { JSONValue.number(JSONNumber($0)) }
            #expect(validator.isValid(.array(distinct)), "\(count)")
            let repeated = distinct + [.number(JSONNumber(text: "1.0")!)]
            let result = validator.validate(.array(repeated))
            #expect(!result.isValid, "\(count)")
            #expect(result.errors.first?.parameters["duplicate"] == .string("1"), "\(count)")
        }
        #expect(!validator.isValid([["a": 1, "b": 2], ["b": 2, "a": 1]]))
    }

    @Test func validateAgreesWithIsValidAndKeepsEveryError() throws {
        // validate() settles valid instances with a fast pass and re-evaluates invalid ones.
        let validator = try schema(#"{"required": ["a", "b"], "properties": {"c": {"maximum": 1}}}"#)
        let invalid: JSONValue = ["c": 5]
        #expect(!validator.isValid(invalid))
        #expect(validator.validate(invalid).errors.map(\.instanceLocation.jsonPointer) == ["/a", "/b", "/c"])
        #expect(validator.validate(["a": 1, "b": 2, "c": 0]).isValid)
    }

    @Test func enormousEnums() throws {
        let values = (0..<100_000).map { JSONValue.number(JSONNumber($0)) }
        let validator = try JSONSchema(["enum": .array(values)])
        #expect(validator.isValid(99_999))
        #expect(!validator.isValid(100_000))
        let error = try #require(validator.validate(-1).errors.first)
        #expect(error.message(in: .english).count < 200)
    }

    @Test func manyThreadsShareOneValidator() async throws {
        let validator = try schema(#"{"type": "array", "items": {"type": "integer", "minimum": 0}}"#)
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask { validator.isValid(.array([JSONValue.number(JSONNumber(index % 2 == 0 ? 1 : -1))])) }
            }
            var collected: [Bool] = []
            for await result in group { collected.append(result) }
            return collected
        }
        #expect(results.filter { $0 }.count == 8)
    }
}

@Suite("Subschemas of one document compiled together")
struct CompileAtPointersTests {
    static let document: JSONValue = [
        "openapi": "3.1.0",
        "components": [
            "schemas": [
                "Client": [
                    "type": "object", "required": ["name"],
                    "properties": [
                        "name": ["type": "string", "minLength": 2], "tags": ["$ref": "#/components/schemas/Tags"],
                    ],
                ],
                "Tags": ["type": "array", "items": ["type": "string"], "uniqueItems": true],
            ]
        ],
        "paths": ["/a": ["get": ["parameters": [["schema": ["type": "integer", "minimum": 1]]]]]],
    ]

    @Test("each pointer's schema, its references into the document resolved, in the order asked")
    func schemasInOrder() throws {
        let schemas = try JSONSchema.compile(
            Self.document, at: ["/paths/~1a/get/parameters/0/schema", "/components/schemas/Client"])
        #expect(schemas.count == 2)
        #expect(schemas[0].validate(5).isValid && !schemas[0].validate(0).isValid)
        #expect(schemas[1].validate(["name": "Ann", "tags": ["a", "b"]]).isValid)
        let issues = schemas[1].validate(["name": "A", "tags": ["a", "a"]]).issues.map(\.path.jsonPointer)
        #expect(Set(issues) == ["/name", "/tags"])
        #expect(try JSONSchema.compile(Self.document, at: []).isEmpty)
    }

    @Test("a pointer that reaches no schema is a compilation error")
    func missingPointer() {
        #expect(throws: SchemaCompilationError.self) {
            try JSONSchema.compile(Self.document, at: ["/components/schemas/Client", "/components/schemas/Nobody"])
        }
    }
}
