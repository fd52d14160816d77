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
            let json: JSONValue
            do {
                json = try JSONValueEncoder().encode(value)
            } catch {
                context.report(.custom("notEncodable"), parameters: ["reason": .string("\(error)")])
                return
            }
            let result = schema.validate(json)
            guard !result.isValid else { return }
            let base = context.path
            context.add(
                result.issues.map { issue in
                    var located = issue
                    located.path = issue.path.prefixed(by: base)
                    return located
                })
        }
    }
}
