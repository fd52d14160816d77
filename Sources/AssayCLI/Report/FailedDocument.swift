import AssayCore
import AssayJSON
import AssaySchema
import Foundation

/// An invalid document as a worker hands it to the run's ``SummaryCollector``: its errors (not
/// their causes) and where to find its text.
struct FailedDocument: Sendable {
    /// One error: where, which keyword and code, and the error itself (its message is rendered
    /// only if the document becomes an example).
    struct Failure: Sendable {
        var location: IssuePath
        var keyword: String
        var code: String
        /// The schema's error; `nil` for a document that could not be read, whose ``text`` says why.
        var error: SchemaError?
        var text = ""

        /// The message in `language`, without the value where `redaction` covers the place.
        func message(in language: Language, redaction: Redaction) -> String {
            guard let error else { return text }
            guard redaction.covers(error.instanceLocation) else { return error.message(in: language) }
            // The duplicate of `uniqueItems` and a custom message's `{value}` are the only places a
            // message shows data.
            var issue = error.issue
            issue.value = .string(Redaction.marker)
            if issue.parameters["duplicate"] != nil { issue.parameters["duplicate"] = .string(Redaction.marker) }
            return issue.message(in: language)
        }
    }

    var position: DocumentPosition
    var failures: [Failure]
    /// Whether its errors stopped at `--max-errors`.
    var truncated = false
    /// The document's value, when it was read as a tree (JSON and YAML files).
    var value: JSONValue?
    /// The document's text, when it is an NDJSON line (a range of the block's bytes, set by the
    /// block) or text that is not JSON.
    var record: Range<Int>?

    /// The keyword under which a document that could not be read is counted.
    static let unreadableKeyword = "(not read)"

    /// The failures of `errors` (top level).
    static func failures(_ errors: [SchemaError]) -> [Failure] {
        errors.map { error in
            Failure(
                location: error.instanceLocation, keyword: error.keyword.isEmpty ? "false" : error.keyword,
                code: error.code.description, error: error)
        }
    }
}

/// The places whose values a report does not show: `--redact` pointers and the members the schema
/// marks `writeOnly`, each a JSON Pointer whose `*` segments match any key or index.
struct Redaction: Sendable {
    static let marker = "[redacted]"
    private(set) var patterns: [[String]] = []

    init() {}

    /// Reads `--redact` pointers (`/password`, `/users/*/token`).
    init(pointers: [String]) throws(CLIError) {
        for pointer in pointers {
            guard let path = IssuePath(jsonPointer: pointer) else {
                throw CLIError.usage("--redact \(pointer): not a JSON Pointer (such as /password or /users/*/token)")
            }
            patterns.append(path.components.map(\.description))
        }
    }

    /// The pointers, as given (for the summary).
    var pointers: [String] {
        patterns.map { IssuePath($0.map(PathComponent.key)).jsonPointer }
    }

    mutating func add(_ other: Redaction) {
        for pattern in other.patterns where !patterns.contains(pattern) { patterns.append(pattern) }
    }

    var isEmpty: Bool { patterns.isEmpty }

    /// Whether `path` is at or under a redacted place.
    func covers(_ path: IssuePath) -> Bool {
        covers(path.components.map(\.description))
    }

    func covers(_ segments: [String]) -> Bool {
        patterns.contains { pattern in
            pattern.count <= segments.count
                && zip(pattern, segments).allSatisfy { $0 == "*" || $0 == $1 }
        }
    }

    /// `value` with every redacted place replaced by ``marker``.
    func apply(to value: JSONValue, at segments: [String] = []) -> JSONValue {
        guard !patterns.isEmpty else { return value }
        if covers(segments) { return .string(Self.marker) }
        // Only a place some pattern could still reach is walked.
        guard
            patterns.contains(where: {
                $0.count > segments.count && zip($0, segments).allSatisfy { $0 == "*" || $0 == $1 }
            })
        else { return value }
        switch value {
        case .object(let object):
            return .object(JSONObject(object.map { ($0.key, apply(to: $0.value, at: segments + [$0.key])) }))
        case .array(let elements):
            return .array(elements.enumerated().map { apply(to: $1, at: segments + [String($0)]) })
        default:
            return value
        }
    }

    /// The members a schema marks `writeOnly: true`, as patterns: followed through `properties`
    /// (by name), `items`, `prefixItems`, `additionalProperties`, `patternProperties` and the like
    /// (`*`), the applicators that stay at the same place, and `$ref`s inside the schema's own
    /// document. Errs on the side of hiding: a `writeOnly` under `patternProperties` hides every
    /// member at that level. Stops after 10,000 schema nodes or 32 levels, whichever comes first.
    static func writeOnly(in schema: JSONValue) -> Redaction {
        var found = Redaction()
        var budget = 10_000
        var seen = Set<String>()
        func walk(_ node: JSONValue, _ at: [String], _ pointer: String) {
            guard budget > 0, at.count <= 32, case .object(let object) = node else { return }
            budget -= 1
            // The same subschema at the same depth of the same place is walked once.
            guard seen.insert("\(pointer)|\(at.joined(separator: "/"))").inserted else { return }
            if object["writeOnly"] == .bool(true), !found.patterns.contains(at) { found.patterns.append(at) }
            if case .object(let properties) = object["properties"] {
                for member in properties {
                    walk(member.value, at + [member.key], pointer + "/properties/" + JSONValue.escape(member.key))
                }
            }
            for key in [
                "additionalProperties", "unevaluatedProperties", "items", "additionalItems", "contains",
                "unevaluatedItems",
            ] {
                if let child = object[key] {
                    if case .array(let list) = child {
                        for (index, element) in list.enumerated() {
                            walk(element, at + ["*"], "\(pointer)/\(key)/\(index)")
                        }
                    } else {
                        walk(child, at + ["*"], pointer + "/" + key)
                    }
                }
            }
            for key in ["patternProperties"] {
                if case .object(let members) = object[key] {
                    for member in members {
                        walk(member.value, at + ["*"], pointer + "/\(key)/" + JSONValue.escape(member.key))
                    }
                }
            }
            if case .array(let list) = object["prefixItems"] {
                for (index, element) in list.enumerated() {
                    walk(element, at + [String(index)], "\(pointer)/prefixItems/\(index)")
                }
            }
            for key in ["allOf", "anyOf", "oneOf"] {
                if case .array(let list) = object[key] {
                    for (index, element) in list.enumerated() { walk(element, at, "\(pointer)/\(key)/\(index)") }
                }
            }
            for key in ["not", "if", "then", "else"] {
                if let child = object[key] { walk(child, at, pointer + "/" + key) }
            }
            for key in ["dependentSchemas", "dependencies"] {
                if case .object(let members) = object[key] {
                    for member in members {
                        walk(member.value, at, pointer + "/\(key)/" + JSONValue.escape(member.key))
                    }
                }
            }
            if case .string(let reference) = object["$ref"], reference.hasPrefix("#") {
                let pointer = String(reference.dropFirst())
                if let target = schema[pointer: pointer.removingPercentEncoding ?? pointer] {
                    walk(target, at, pointer)
                }
            }
        }
        walk(schema, [], "")
        return found
    }
}
