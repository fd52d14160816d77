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
    /// initialiser: `document` is a JSON Schema as text and `pointer` the JSON Pointer of the
    /// subschema to check against (`""` for the whole document), so that its `$ref`s into the
    /// document resolve. Compiled once, when the rule is made; formats are asserted unless
    /// `assertingFormats` is false. A document that is not JSON, or does not compile, makes every
    /// value fail with ``IssueCode/custom(_:)`` `invalidSchema`, naming why: the mistake is seen at
    /// once, never passed over.
    public static func schema(_ document: String, at pointer: String = "", assertingFormats: Bool = true) -> Rule {
        schema(EmbeddedSchema(document, assertingFormats: assertingFormats), at: pointer)
    }

    /// ``schema(_:at:assertingFormats:)`` with a document parsed once for all its rules: what
    /// `assay generate swift` writes for the constraints that have no typed rule. With `keywords`,
    /// only those keywords of the subschema are checked (the others have typed rules of their own).
    public static func schema(_ document: EmbeddedSchema, at pointer: String = "", keywords: [String]? = nil) -> Rule {
        switch document.compile(at: pointer, keywords: keywords) {
        case .success(let compiled): return schema(compiled)
        case .failure(let error):
            let reason = "\(error)"
            return Rule(.custom("schema")) { _, context in
                context.report(.custom("invalidSchema"), parameters: ["reason": .string(reason)])
            }
        }
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

extension ModelRule where Model: Encodable & Sendable {
    /// A check of the whole object against a subschema of `document` (only its `keywords`, when
    /// given): the object-level constraints of a generated type that have no typed rule (`if` /
    /// `then`, `allOf`, `dependentSchemas` …). The object is encoded as JSON by `JSONValueEncoder`;
    /// issues are located under it.
    public static func schema(_ document: EmbeddedSchema, at pointer: String = "", keywords: [String]? = nil)
        -> ModelRule
    {
        let rule = Rule<Model>.schema(document, at: pointer, keywords: keywords)
        return .check("schema") { model, context in rule.check(model, in: &context) }
    }
}

/// A JSON Schema document held as text in code, parsed once, whose subschemas rules check values
/// against (`Rule.schema(_:at:keywords:)`): the form generated Swift keeps its schema in.
///
/// Making one never throws: a document that is not JSON is kept as the reason every rule made
/// from it fails.
public final class EmbeddedSchema: Sendable {
    private let parsed: Result<JSONValue, SchemaCompilationError>
    private let options: JSONSchema.Options

    /// Parses `text`; formats are asserted unless `assertingFormats` is false.
    public convenience init(_ text: String, assertingFormats: Bool = true) {
        let parsed: Result<JSONValue, SchemaCompilationError>
        do {
            parsed = .success(try JSONValue(parsing: Array(text.utf8)))
        } catch {
            parsed = .failure(
                SchemaCompilationError(problems: [SchemaProblem(location: "", message: "not valid JSON: \(error)")]))
        }
        self.init(parsed: parsed, assertingFormats: assertingFormats)
    }

    /// A document already parsed (the generator checks what the generated code will compile).
    package convenience init(_ document: JSONValue, assertingFormats: Bool = true) {
        self.init(parsed: .success(document), assertingFormats: assertingFormats)
    }

    private init(parsed: Result<JSONValue, SchemaCompilationError>, assertingFormats: Bool) {
        self.parsed = parsed
        options = JSONSchema.Options(assertFormats: assertingFormats)
    }

    /// The member a subschema's chosen keywords are copied into, beside them, so that their
    /// references resolve from the same place: an unknown keyword, which evaluation ignores.
    static let keywordsMember = "x-assay-keywords"

    /// The subschema at `pointer` (only its `keywords`, when given), compiled with its references
    /// into the document.
    package func compile(at pointer: String, keywords: [String]? = nil) -> Result<JSONSchema, SchemaCompilationError> {
        parsed.flatMap { document in
            Result { () throws(SchemaCompilationError) in
                guard let keywords else {
                    return try JSONSchema(document, at: pointer, uri: "urn:assay:embedded-schema", options: options)
                }
                guard case .object(var node)? = document[pointer: pointer] else {
                    throw SchemaCompilationError(problems: [
                        SchemaProblem(location: "#" + pointer, message: "no schema object at this JSON Pointer")
                    ])
                }
                var chosen = JSONObject()
                for keyword in keywords {
                    if let value = node[keyword] { chosen[keyword] = value }
                }
                node[Self.keywordsMember] = .object(chosen)
                var copy = document
                // Only the containers on the pointer's path are copied; the rest is shared.
                try? copy.set(.object(node), at: pointer)
                return try JSONSchema(
                    copy, at: pointer + "/" + Self.keywordsMember, uri: "urn:assay:embedded-schema", options: options)
            }
        }
    }
}
