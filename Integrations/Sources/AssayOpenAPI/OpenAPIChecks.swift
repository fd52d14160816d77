import AssayCore
import AssayHTTP
import AssayJSON
import AssaySchema
import Foundation
import HTTPTypes
import OpenAPIRuntime

extension OpenAPIContract.Operation {
    /// The failures of a request's parameters, each at `/path/NAME`, `/query/NAME` or
    /// `/header/NAME`: a required one missing, or a value its schema refuses (read as its schema's
    /// type says: `"5"` is the integer 5 for an integer parameter, a repeated query parameter an
    /// array). Path parameters come from the server's router, or are read from the path by the
    /// operation's template; cookies are not checked.
    func parameterIssues(_ request: HTTPRequest, pathParameters: [String: Substring]?, limit: Int)
        -> [ValidationIssue]
    {
        let (path, query) = Self.split(request.path ?? "")
        let templateValues = pathParameters == nil ? Self.pathValues(template: self.path, path: path) : [:]
        var issues: [ValidationIssue] = []
        for parameter in parameters {
            let texts: [String]
            switch parameter.location {
            case .path:
                let raw = pathParameters?[parameter.name].map(String.init) ?? templateValues[parameter.name]
                texts = raw.map { [$0.removingPercentEncoding ?? $0] } ?? []
            case .query:
                texts = query.filter { $0.name == parameter.name }.map(\.value)
            case .header:
                texts = HTTPField.Name(parameter.name).map { request.headerFields[values: $0] } ?? []
            case .cookie:
                continue
            }
            let path = IssuePath([.key(parameter.location.rawValue), .key(parameter.name)])
            guard !texts.isEmpty else {
                if parameter.required { issues.append(ValidationIssue(code: .missing, path: path, phase: .property)) }
                continue
            }
            guard let schema = parameter.schema else { continue }
            let value = Self.value(texts, as: parameter.kind, location: parameter.location)
            let result = schema.validate(value, limit: .first(limit))
            issues += result.issues.map { issue in
                var issue = issue
                issue.path = issue.path.prefixed(by: path)
                return issue
            }
        }
        return issues
    }

    /// A parameter's texts as the JSON value its schema is checked against.
    static func value(_ texts: [String], as kind: OpenAPIContract.ValueKind, location: OpenAPIContract.Location)
        -> JSONValue
    {
        switch kind {
        case .array(let element):
            // Form style (a query's default, exploded) repeats the parameter, each value whole;
            // simple style (path, header) joins the values with commas.
            let items = location == .query ? texts : texts.flatMap { $0.split(separator: ",").map(String.init) }
            return .array(items.map { scalar($0, as: element) })
        default:
            return scalar(texts[0], as: kind)
        }
    }

    /// A text as the scalar its kind says, or the text itself when it is not one (so that the
    /// schema's `type` reports it).
    static func scalar(_ text: String, as kind: OpenAPIContract.ValueKind) -> JSONValue {
        switch kind {
        case .integer, .number:
            if let value = try? JSONValue(parsing: Array(text.utf8)), case .number = value { return value }
            return .string(text)
        case .boolean:
            return text == "true" ? .bool(true) : text == "false" ? .bool(false) : .string(text)
        default:
            return .string(text)
        }
    }

    /// The path and the query's name–value pairs (percent-decoded, `+` a space), without the fragment.
    static func split(_ target: String) -> (path: String, query: [(name: String, value: String)]) {
        let withoutFragment = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = withoutFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts.first ?? "")
        guard parts.count == 2 else { return (path, []) }
        let pairs = parts[1].split(separator: "&").map { pair -> (name: String, value: String) in
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (decoded(halves[0]), halves.count > 1 ? decoded(halves[1]) : "")
        }
        return (path, pairs)
    }

    /// The values of a template's whole-segment parameters (`/clients/{id}`) in a path, when the
    /// path has the template's shape; the values still percent-encoded.
    static func pathValues(template: String, path: String) -> [String: String] {
        let names = template.split(separator: "/", omittingEmptySubsequences: false)
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard names.count == segments.count else { return [:] }
        var values: [String: String] = [:]
        for (name, segment) in zip(names, segments) where name.hasPrefix("{") && name.hasSuffix("}") {
            values[String(name.dropFirst().dropLast())] = String(segment)
        }
        return values
    }
}

/// Reading and checking JSON bodies, shared by both middlewares.
enum BodyCheck {
    /// A body's bytes, or `nil` when it is larger than `limit`.
    static func collect(_ body: HTTPBody, upTo limit: Int) async throws -> [UInt8]? {
        if case .known(let length) = body.length, length > limit { return nil }
        var bytes: [UInt8] = []
        for try await chunk in body {
            guard bytes.count + chunk.count <= limit else { return nil }
            bytes += chunk
        }
        return bytes
    }

    /// The issues of a JSON body against its schema, or why it is not JSON.
    static func issues(_ bytes: [UInt8], schema: JSONSchema?, options: JSONParserOptions, limit: Int)
        -> Result<[ValidationIssue], JSONParseError>
    {
        let document: JSONDocument
        do {
            document = try JSONDocument(parsing: bytes, options: options)
        } catch {
            return .failure(error)
        }
        guard let schema else { return .success([]) }
        return .success(schema.validate(document, limit: .first(limit)).issues)
    }

    /// A body that is not JSON as an issue at its root: code `malformed`, with the line, column and
    /// byte offset where it stops being JSON.
    static func malformedIssue(_ error: JSONParseError) -> ValidationIssue {
        ValidationIssue(
            code: .malformed,
            parameters: [
                "line": .integer(error.line), "column": .integer(error.column), "offset": .integer(error.offset),
                "reason": .string(error.detail),
            ])
    }
}
