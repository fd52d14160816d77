public import AssayCore
import AssayJSON

extension Rule where Value: Encodable & Sendable {
    /// The value, encoded as JSON by `JSONValueEncoder`, is valid against `schema`: every issue the
    /// schema reports, located under the value's own path. For constraints that no typed rule states
    /// (`anyOf`, `if`/`then`/`else`, `not` …); a typed rule is faster and exports as its keyword.
    ///
    /// <!-- snippet: doc-schema-rule -->
    /// ```swift
    /// let either = try JSONSchema(parsing: #"{"anyOf": [{"maxLength": 3}, {"pattern": "^[0-9]+$"}]}"#)
    /// let code = Rule<String>.schema(either)
    /// print(code.isValid("abc"), code.isValid("12345"), code.isValid("abcd"))  // true true false
    /// ```
    ///
    /// A value that cannot be encoded as JSON (a `Double` that is not finite) fails with
    /// ``IssueCode/custom(_:)`` `notEncodable`.
    public static func schema(_ schema: JSONSchema) -> Rule {
        Rule(.custom("schema")) { value, context in
            check(value, against: schema, in: &context)
        }
    }

    /// ``schema(_:)`` for code that cannot `try` — a `@Validate` attribute, a stored property's
    /// initialiser, what `assay generate swift` writes: `document` is a JSON Schema as text and
    /// `pointer` the JSON Pointer of the subschema to check against (`""` for the whole document), so
    /// that its `$ref`s into the document resolve. Compiled once, when the rule is made; formats are
    /// asserted unless `assertingFormats` is false. A document that is not JSON, or does not compile,
    /// makes every value fail with ``IssueCode/custom(_:)`` `invalidSchema`, naming why: the mistake
    /// is seen at once, never passed over.
    public static func schema(_ document: String, at pointer: String = "", assertingFormats: Bool = true) -> Rule {
        let uri = "urn:assay:rule-schema"
        let compiled: JSONSchema
        do {
            let value = try JSONValue(parsing: Array(document.utf8))
            var options = JSONSchema.Options(assertFormats: assertingFormats)
            if pointer.isEmpty {
                compiled = try JSONSchema(value, uri: uri, options: options)
            } else {
                options.registry.register(value, as: uri)
                compiled = try JSONSchema(.object(["$ref": .string(uri + "#" + fragment(pointer))]), options: options)
            }
        } catch {
            let reason = "\(error)"
            return Rule(.custom("schema")) { _, context in
                context.report(.custom("invalidSchema"), parameters: ["reason": .string(reason)])
            }
        }
        return schema(compiled)
    }

    /// A JSON Pointer as a URI fragment: characters other than unreserved ones, `/` and `~`
    /// percent-encoded.
    private static func fragment(_ pointer: String) -> String {
        var text = ""
        for byte in pointer.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                text.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                text += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0x0F)])
            }
        }
        return text
    }

    private static func check(_ value: Value, against schema: JSONSchema, in context: inout RuleContext) {
        let json: JSONValue
        do {
            json = try JSONValueEncoder().encode(value)
        } catch {
            context.report(.custom("notEncodable"), parameters: ["reason": .string("\(error)")])
            return
        }
        let result = schema.validate(json)
        guard !result.isValid else { return }
        guard !result.issues.isEmpty else {
            // An invalid verdict is never dropped for want of an issue to carry it.
            context.report(.custom("schema"))
            return
        }
        let base = context.path
        context.add(
            result.issues.map { issue in
                var located = issue
                located.path = issue.path.prefixed(by: base)
                return located
            })
    }
}
