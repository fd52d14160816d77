import AssayCore
import AssayHTTP
import AssayJSON
import AssaySchema
import Foundation
import HTTPTypes
import OpenAPIRuntime

extension OpenAPIContract.Operation {
    /// The failures of a request's parameters, each at `/path/NAME`, `/query/NAME`,
    /// `/header/NAME` or `/cookie/NAME`: a required one missing, or a value its schema refuses
    /// (read as its schema's type says: `"5"` is the integer 5 for an integer parameter; arrays and
    /// objects as the parameter's `style` and `explode` write them; a `content` parameter's text as
    /// JSON). Path parameters come from the server's router, or are read from the path by the
    /// operation's template.
    func parameterIssues(_ request: HTTPRequest, pathParameters: [String: Substring]?, limit: Int)
        -> [ValidationIssue]
    {
        let (path, query) = Self.split(request.path ?? "")
        let templateValues = pathParameters == nil ? Self.pathValues(template: self.path, path: path) : [:]
        var cookies: [(name: String, value: String)]?
        var issues: [ValidationIssue] = []
        for parameter in parameters {
            let value: JSONValue?
            switch parameter.location {
            case .path:
                let raw = pathParameters?[parameter.name].map(String.init) ?? templateValues[parameter.name]
                value = raw.flatMap { Self.pathValue($0, of: parameter) }
            case .query:
                value = Self.pairsValue(query, of: parameter, decode: Self.formDecoded)
            case .header:
                let texts = HTTPField.Name(parameter.name).map { request.headerFields[values: $0] } ?? []
                value = texts.isEmpty ? .none : Self.delimitedValue(texts.joined(separator: ","), of: parameter)
            case .cookie:
                if cookies == nil { cookies = Self.cookies(request) }
                value = Self.pairsValue(cookies ?? [], of: parameter) { $0.removingPercentEncoding ?? String($0) }
            }
            let path = IssuePath([.key(parameter.location.rawValue), .key(parameter.name)])
            guard let value else {
                if parameter.required { issues.append(ValidationIssue(code: .missing, path: path, phase: .property)) }
                continue
            }
            guard let schema = parameter.schema else { continue }
            let result = schema.validate(value, limit: .first(limit))
            issues += result.issues.map { issue in
                var issue = issue
                issue.path = issue.path.prefixed(by: path)
                return issue
            }
        }
        return issues
    }

    /// A query's (or the cookies') parameter: its pairs (values as sent, still encoded) as its style
    /// writes them, each text decoded by `decode`; `nil` when absent.
    static func pairsValue(
        _ pairs: [(name: String, value: String)], of parameter: OpenAPIContract.Parameter,
        decode: (Substring) -> String
    ) -> JSONValue? {
        let name = parameter.name
        switch (parameter.kind, parameter.style) {
        case (.object(let kinds), .deepObject):
            // `filter[name]=Ann&filter[age]=3`
            let prefix = name + "["
            let members = pairs.compactMap { pair -> (String, String)? in
                guard pair.name.hasPrefix(prefix), pair.name.hasSuffix("]") else { return nil }
                return (String(pair.name.dropFirst(prefix.count).dropLast()), decode(Substring(pair.value)))
            }
            guard !members.isEmpty else { return .none }  // (`nil` here would be JSON's null)
            return object(members, kinds: kinds)
        case (.object(let kinds), .form) where parameter.explode:
            // Each property a parameter of its own: `name=Ann&age=3`.
            let members = pairs.filter { kinds[$0.name] != nil }.map { ($0.name, decode(Substring($0.value))) }
            guard !members.isEmpty else { return .none }  // (`nil` here would be JSON's null)
            return object(members, kinds: kinds)
        default:
            let texts = pairs.filter { $0.name == name }.map(\.value)
            guard !texts.isEmpty else { return nil }
            if case .array(let element) = parameter.kind, parameter.style == .form, parameter.explode {
                return .array(texts.map { scalar(decode(Substring($0)), as: element) })  // `id=1&id=2`
            }
            return delimitedValue(
                texts.joined(separator: separator(of: parameter.style)), of: parameter, decode: decode)
        }
    }

    /// A path parameter's value (as sent, percent-encoded) as its style writes it: `1,2` (simple),
    /// `.1.2` (label), `;id=1;id=2` (matrix).
    static func pathValue(_ raw: String, of parameter: OpenAPIContract.Parameter) -> JSONValue? {
        let decode = { (text: Substring) in text.removingPercentEncoding ?? String(text) }
        var text = Substring(raw)
        switch parameter.style {
        case .label:
            // Not in label form: no value of the parameter (a path parameter's is required), as
            // for a matrix one without its name.
            guard text.first == "." else { return nil }
            text = text.dropFirst()
            if parameter.explode, case .array(let element) = parameter.kind {
                return .array(
                    text.split(separator: ".", omittingEmptySubsequences: false).map { scalar(decode($0), as: element) }
                )
            }
            if parameter.explode, case .object(let kinds) = parameter.kind {
                // `.R=100.G=200`: a property a part, its name and value split at the first `=`.
                let members = text.split(separator: ".", omittingEmptySubsequences: true).map { part in
                    let halves = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    return (decode(halves[0]), halves.count > 1 ? decode(halves[1]) : "")
                }
                return object(members, kinds: kinds)
            }
        case .matrix:
            // `;id=5`, `;id=1,2`, `;id=1;id=2`, `;R=100;G=200` (an exploded object).
            let parts = text.split(separator: ";", omittingEmptySubsequences: true).map { part in
                let halves = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (name: decode(halves[0]), value: halves.count > 1 ? String(halves[1]) : "")
            }
            if case .object(let kinds) = parameter.kind, parameter.explode {
                return object(parts.map { ($0.name, decode(Substring($0.value))) }, kinds: kinds)
            }
            let values = parts.filter { $0.name == parameter.name }.map(\.value)
            guard !values.isEmpty else { return nil }
            if case .array(let element) = parameter.kind, parameter.explode {
                return .array(values.map { scalar(decode(Substring($0)), as: element) })
            }
            return delimitedValue(values.joined(separator: ","), of: parameter, decode: decode)
        default:
            break
        }
        return delimitedValue(String(text), of: parameter, decode: decode)
    }

    /// One text holding the parameter's value (as sent): a scalar; an array's values joined by the
    /// style's separator; an object's properties as `R,100,G,200` (or `R=100,G=200` exploded); JSON
    /// for a `content` parameter. Each part is decoded by `decode` once split, so that an encoded
    /// separator stays in its value.
    static func delimitedValue(
        _ text: String, of parameter: OpenAPIContract.Parameter, decode: (Substring) -> String = { String($0) }
    ) -> JSONValue {
        let separator = Character(separator(of: parameter.style))
        // A comma separates encoded values (a comma inside one is `%2C`); a space or a pipe is
        // itself encoded in a query (`%20`, `%7C`): the text is decoded first, then split.
        var text = text
        var decode = decode
        if separator != "," {
            text = decode(Substring(text))
            decode = { String($0) }
        }
        func parts() -> [Substring] { text.split(separator: separator, omittingEmptySubsequences: false) }
        switch parameter.kind {
        case .array(let element):
            return .array(parts().map { scalar(decode($0), as: element) })
        case .object(let kinds):
            var members: [(String, String)] = []
            if parameter.explode {
                for part in parts() {
                    let halves = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    members.append((decode(halves[0]), halves.count > 1 ? decode(halves[1]) : ""))
                }
            } else {
                let items = parts().map(decode)
                // Name and value in turn; a name left without a value is read with an empty one.
                for index in stride(from: 0, to: items.count, by: 2) {
                    members.append((items[index], index + 1 < items.count ? items[index + 1] : ""))
                }
            }
            return object(members, kinds: kinds)
        default:
            return scalar(decode(Substring(text)), as: parameter.kind)  // a scalar, or JSON content
        }
    }

    /// The separator of an array's values in one text.
    static func separator(of style: OpenAPIContract.Style) -> String {
        switch style {
        case .spaceDelimited: " "
        case .pipeDelimited: "|"
        default: ","
        }
    }

    /// An object of the members' texts, each read as its property's kind (a name given twice: the
    /// last value, as most servers read it).
    static func object(_ members: [(String, String)], kinds: [String: OpenAPIContract.ValueKind]) -> JSONValue {
        var object = JSONObject()
        for (name, text) in members { object[name] = scalar(text, as: kinds[name] ?? .string) }
        return .object(object)
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
        case .json:
            return (try? JSONValue(parsing: Array(text.utf8))) ?? .string(text)
        default:
            return .string(text)
        }
    }

    /// A query's text decoded: `+` is a space, then percent-decoding.
    static func formDecoded(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// The request's cookies (`Cookie: a=1; b=2`), each name and value as sent (a value in double
    /// quotes without them).
    static func cookies(_ request: HTTPRequest) -> [(name: String, value: String)] {
        var cookies: [(name: String, value: String)] = []
        for header in request.headerFields[values: .cookie] {
            for pair in header.split(separator: ";") {
                let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = halves[0].trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty else { continue }
                var value = halves.count > 1 ? halves[1].trimmingCharacters(in: .whitespaces) : ""
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = String(value.dropFirst().dropLast())
                }
                cookies.append((name, value))
            }
        }
        return cookies
    }

    /// The path and the query's name–value pairs (names decoded, values as sent: a value is
    /// decoded once split by its style), without the fragment.
    static func split(_ target: String) -> (path: String, query: [(name: String, value: String)]) {
        let withoutFragment = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = withoutFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts.first ?? "")
        guard parts.count == 2 else { return (path, []) }
        let pairs = parts[1].split(separator: "&").map { pair -> (name: String, value: String) in
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (formDecoded(halves[0]), halves.count > 1 ? String(halves[1]) : "")
        }
        return (path, pairs)
    }

    /// The values of a template's parameters in a path, when the path has the template's shape:
    /// whole segments (`/clients/{id}`) and parts of one between literal text (`/files/{name}.json`,
    /// `/v{major}.{minor}`; a parameter followed by text ends where that text first appears); the
    /// values still percent-encoded.
    static func pathValues(template: String, path: String) -> [String: String] {
        let names = template.split(separator: "/", omittingEmptySubsequences: false)
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard names.count == segments.count else { return [:] }
        var values: [String: String] = [:]
        for (name, segment) in zip(names, segments) where name.contains("{") {
            guard let found = segmentValues(template: name, segment: segment) else { return [:] }
            for (parameter, value) in found { values[parameter] = value }
        }
        return values
    }

    /// The parameters of one segment of a template (`{name}.json`) in a segment of a path, or `nil`
    /// when its literal text is not there.
    static func segmentValues(template: Substring, segment: Substring) -> [(String, String)]? {
        // The template as literal texts and parameter names in turn, starting with a literal.
        var literals: [Substring] = []
        var parameters: [Substring] = []
        var rest = template
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            literals.append(rest[..<open])
            parameters.append(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
        }
        literals.append(rest)
        guard segment.hasPrefix(literals[0]) else { return nil }
        var remaining = segment.dropFirst(literals[0].count)
        var found: [(String, String)] = []
        for (index, parameter) in parameters.enumerated() {
            let next = literals[index + 1]
            let value: Substring
            if index == parameters.count - 1 {
                // The last one ends where the segment's last literal begins.
                guard remaining.hasSuffix(next) else { return nil }
                value = remaining.dropLast(next.count)
                remaining = remaining.suffix(0)
            } else if next.isEmpty {
                return nil  // two parameters with nothing between them: no way to split
            } else {
                guard let range = remaining.range(of: next) else { return nil }
                value = remaining[..<range.lowerBound]
                remaining = remaining[range.upperBound...]
            }
            found.append((String(parameter), String(value)))
        }
        return found
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
