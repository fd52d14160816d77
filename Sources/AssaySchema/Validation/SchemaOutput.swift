import AssayCore
import AssayJSON

/// One failed assertion: where in the instance, which keyword, and why.
public struct SchemaError: Sendable, Hashable, CustomStringConvertible {
    /// The failing value's location in the instance (`/clients/3/age`). For `required`,
    /// `dependentRequired` and `additionalProperties`, it names the missing or extra property.
    public let instanceLocation: IssuePath
    /// The keyword's location along the evaluation path, through `$ref`s
    /// (`/properties/age/$ref/maximum`).
    public let keywordLocation: String
    /// The keyword's absolute location: its resource's URI and the pointer inside it.
    public let absoluteKeywordLocation: String
    /// The keyword that failed (`maximum`), or `""` for a `false` schema.
    public let keyword: String
    /// The machine-readable code (`tooLarge`, `missing`, `invalidFormat(email)`…).
    public let code: IssueCode
    /// The key of the message in AssayCore's catalogs.
    public let messageKey: String
    /// The message's parameters (`maximum`, `pattern`, `format`…).
    public let parameters: [String: IssueValue]
    /// The failing value, or an excerpt of it when it is large (see "Output and errors"): made from
    /// the document each time it is read, not when the error is found, since most errors are shown
    /// by a message that does not name their value. The error holds the document it was found in
    /// (as a parsed document's nodes hold it) until then.
    public var value: JSONValue { failing.value }
    /// The failing value, as a place in the document or a value.
    let failing: FailingValue
    /// Why each alternative failed, for an `anyOf` or a `oneOf` that no alternative matched: the
    /// errors of every branch (up to the error limit), their keyword locations under `…/anyOf/0`,
    /// `…/anyOf/1`… Empty otherwise. The detailed output nests them under the `anyOf` unit.
    ///
    /// A tagged union's variants are told apart: an alternative whose `properties` fix a member's
    /// value by `const` or `enum` (`"type": {"const": "Point"}`, also through a `$ref`) while the
    /// object holds another value there is ruled out, and only the alternatives left are
    /// explained. When every alternative is ruled out (an unknown tag), all are.
    public internal(set) var causes: [SchemaError] = []

    /// The error as an AssayCore issue, so apps and the command line treat it like any other
    /// validation failure.
    public var issue: ValidationIssue { issue(showingValue: true) }

    /// ``issue``, with the value only when `showingValue` (otherwise the issue has none).
    private func issue(showingValue: Bool) -> ValidationIssue {
        // The excerpt is made (once) only when the issue shows it.
        var shown: IssueValue?
        if showingValue {
            let value = self.value
            switch value {
            case .string(let text): shown = .string(text)
            case .bool(let flag): shown = .bool(flag)
            case .number(let number): shown = number.int.map(IssueValue.integer) ?? .decimal(number.description)
            case .null: shown = .null
            default: shown = .other(value.jsonString())
            }
        }
        return ValidationIssue(
            code: code, path: instanceLocation, ruleLocation: keywordLocation,
            absoluteRuleLocation: absoluteKeywordLocation, parameters: parameters, value: shown,
            valueType: failing.kind.rawValue, messageKey: messageKey)
    }

    /// The message in `language` (the current one by default).
    public func message(in language: Language = .current) -> String {
        message(in: language, catalog: MessageCatalog.current).text
    }

    /// The message in `language` from `catalog`, and whether it depends only on the error's message
    /// key, code, parameters and the instance location's last key (not on the value or the whole
    /// location), so that ``SchemaMessageMemo`` may give it again for another error alike.
    func message(in language: Language, catalog: MessageCatalog) -> (text: String, reusable: Bool) {
        // The value's text (an object's or array's JSON, a number's digits) is made only for a
        // message that may show it: one whose template names the value, or names another message
        // by a parameter (`{@…}`). The template does not depend on the value.
        let plain = issue(showingValue: false)
        let (template, templateLanguage) = plain.resolvedTemplate(in: language, catalog: catalog)
        let showsValue = Self.mayShowValue(template)
        let text = catalog.render(template, for: showsValue ? issue : plain, in: templateLanguage)
        return (text, !showsValue && !Self.mayShowPath(template))
    }

    /// Whether a message template has a placeholder that may show the value: `{value…}`, or
    /// `{@…}` (another message, named by a parameter).
    static func mayShowValue(_ template: String) -> Bool {
        hasPlaceholder(in: template) { body in
            body.first == UInt8(ascii: "@") || body.starts(with: "value".utf8)
        }
    }

    /// Whether a message template has a `{path}` placeholder (the whole instance location).
    static func mayShowPath(_ template: String) -> Bool {
        hasPlaceholder(in: template) { body in body.starts(with: "path}".utf8) }
    }

    /// Whether some `{` of `template` is followed by bytes (up to the template's end) that `matches`.
    private static func hasPlaceholder(in template: String, where matches: (Slice<UnsafeBufferPointer<UInt8>>) -> Bool)
        -> Bool
    {
        var template = template
        return template.withUTF8 { bytes in
            var index = 0
            while let open = bytes[index...].firstIndex(of: UInt8(ascii: "{")) {
                if matches(bytes[(open + 1)...]) { return true }
                index = open + 1
            }
            return false
        }
    }

    /// The message in the current language.
    public var message: String { message() }

    /// `instanceLocation: message (keywordLocation)`.
    public var description: String {
        "\(instanceLocation.jsonPointer.isEmpty ? "/" : instanceLocation.jsonPointer): \(message) (\(keywordLocation))"
    }
}

/// What a ``SchemaError`` shows of its failing value: the value itself, or its place in a parsed
/// document, excerpted only when read.
enum FailingValue: Sendable, Hashable {
    case value(JSONValue)
    case node(JSONNode)

    /// The value, excerpted as ``JSONNode/excerpt(stringBytes:children:depth:)`` does.
    var value: JSONValue {
        switch self {
        case .value(let value): value
        case .node(let node): node.excerpt()
        }
    }

    var kind: JSONKind {
        switch self {
        case .value(let value): value.kind
        case .node(let node): node.kind
        }
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// The result of ``JSONSchema/validate(_:limit:)-(JSONValue,_)``.
public struct SchemaValidationResult: Sendable, Hashable {
    /// Whether the instance is valid.
    public let isValid: Bool
    /// The errors, in evaluation order; empty when valid.
    public let errors: [SchemaError]
    /// Whether the errors stopped at the limit asked for (``ErrorLimit``; the causes nested under
    /// `anyOf` and `oneOf` errors count toward it), so that the instance may have more.
    public let isTruncated: Bool

    init(isValid: Bool, errors: [SchemaError], isTruncated: Bool = false) {
        self.isValid = isValid
        self.errors = errors
        self.isTruncated = isTruncated
    }

    /// The errors as AssayCore issues.
    public var issues: [ValidationIssue] { errors.map(\.issue) }

    /// The 2020-12 output formats (JSON Schema core, section 12.4) that a result holds enough to
    /// give; the `verbose` one records what passed too, and is made from the instance by
    /// ``JSONSchema/verboseOutput(for:language:)``.
    public enum OutputFormat: String, Sendable, CaseIterable {
        /// `{"valid": false}` only.
        case flag
        /// A flat list of output units, one per error (the causes of `anyOf` and `oneOf` errors too).
        case basic
        /// Output units nested by keyword location.
        case detailed
    }

    /// The result in one of the specification's output formats, with messages in `language`. When
    /// the errors stopped at their limit (``isTruncated``), the `basic` and `detailed` forms add
    /// `"truncated": true` beside `valid` (an addition of Assay's: the specification has no word
    /// for a partial list).
    public func output(_ format: OutputFormat, language: Language = .current) -> JSONValue {
        var root = JSONObject()
        root["valid"] = .bool(isValid)
        if format != .flag {
            // The root unit's locations: the root schema, applied to the whole instance.
            root["keywordLocation"] = ""
            root["instanceLocation"] = ""
        }
        switch format {
        case .flag:
            return .object(root)
        case .basic:
            // Every error unit in one flat list, the causes of `anyOf` and `oneOf` after their error.
            func flattened(_ errors: [SchemaError]) -> [SchemaError] { errors.flatMap { [$0] + flattened($0.causes) } }
            if !isValid { root["errors"] = .array(flattened(errors).map { unit($0, language) }) }
            if isTruncated { root["truncated"] = true }
            return .object(root)
        case .detailed:
            if !isValid { root["errors"] = .array(nest(errors, depth: 0, language)) }
            if isTruncated { root["truncated"] = true }
            return .object(root)
        }
    }

    private func unit(_ error: SchemaError, _ language: Language, causes: Bool = false) -> JSONValue {
        var unit = JSONObject()
        unit["valid"] = .bool(false)
        unit["keywordLocation"] = .string(error.keywordLocation)
        unit["absoluteKeywordLocation"] = .string(error.absoluteKeywordLocation)
        unit["instanceLocation"] = .string(error.instanceLocation.jsonPointer)
        unit["code"] = .string(error.code.description)
        unit["error"] = .string(error.message(in: language))
        if causes, !error.causes.isEmpty {
            let depth = error.keywordLocation.split(separator: "/", omittingEmptySubsequences: false).count - 1
            unit["errors"] = .array(nest(error.causes, depth: depth, language))
        }
        return .object(unit)
    }

    /// Groups errors by the first keyword-path segment after `depth` segments, so errors under the
    /// same `allOf/0` or `properties/a` share a parent unit.
    private func nest(_ errors: [SchemaError], depth: Int, _ language: Language) -> [JSONValue] {
        var groups: [(key: String, errors: [SchemaError])] = []
        for error in errors {
            let segments = error.keywordLocation.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            // Leaves: the keyword itself is the segment after `depth`.
            let key =
                segments.count > depth + 1
                ? segments.prefix(depth + 1).joined(separator: "/") : "\u{0}" + error.keywordLocation
            if let index = groups.firstIndex(where: { $0.key == key }) {
                groups[index].errors.append(error)
            } else {
                groups.append((key, [error]))
            }
        }
        return groups.flatMap { group -> [JSONValue] in
            if group.key.hasPrefix("\u{0}") || group.errors.count == 1 {
                return group.errors.map { unit($0, language, causes: true) }
            }
            var parent = JSONObject()
            parent["valid"] = .bool(false)
            parent["keywordLocation"] = .string("/" + group.key)
            parent["instanceLocation"] = .string(commonInstancePrefix(group.errors))
            parent["errors"] = .array(nest(group.errors, depth: depth + 1, language))
            return [.object(parent)]
        }
    }

    private func commonInstancePrefix(_ errors: [SchemaError]) -> String {
        guard var common = errors.first?.instanceLocation.components else { return "" }
        for error in errors.dropFirst() {
            let other = error.instanceLocation.components
            var length = 0
            while length < common.count && length < other.count && common[length] == other[length] { length += 1 }
            common = Array(common.prefix(length))
        }
        return IssuePath(common).jsonPointer
    }
}

/// One unit of the verbose output: a schema or a keyword applied to one value, whether it passed,
/// and what it found — errors and the subschemas' units, or an annotation.
struct TraceUnit: Sendable {
    var keywordLocation: String
    var absoluteKeywordLocation: String
    var instanceLocation: String
    var valid = true
    /// The error of a failed assertion (an `error` leaf).
    var error: SchemaError?
    /// The value of an annotation keyword of a schema that passed.
    var annotation: JSONValue?
    var children: [TraceUnit] = []

    init(keywordLocation: String, absoluteKeywordLocation: String, instanceLocation: String) {
        self.keywordLocation = keywordLocation
        self.absoluteKeywordLocation = absoluteKeywordLocation
        self.instanceLocation = instanceLocation
    }

    init(error: SchemaError) {
        self.init(
            keywordLocation: error.keywordLocation, absoluteKeywordLocation: error.absoluteKeywordLocation,
            instanceLocation: error.instanceLocation.jsonPointer)
        self.valid = false
        self.error = error
    }

    /// The unit as JSON: nested units under `errors` when it failed and `annotations` when it passed,
    /// as 2020-12's verbose format has them. A keyword whose only finding is one error at its own
    /// locations carries that error itself instead of a nested unit.
    func json(_ language: Language) -> JSONValue {
        var unit = JSONObject()
        unit["valid"] = .bool(valid)
        unit["keywordLocation"] = .string(keywordLocation)
        unit["absoluteKeywordLocation"] = .string(absoluteKeywordLocation)
        unit["instanceLocation"] = .string(instanceLocation)
        var nested = children
        var own = error
        if own == nil, nested.count == 1, let only = nested[0].error, nested[0].children.isEmpty,
            nested[0].keywordLocation == keywordLocation, nested[0].instanceLocation == instanceLocation
        {
            own = only
            nested = []
        }
        if let own {
            unit["code"] = .string(own.code.description)
            unit["error"] = .string(own.message(in: language))
        }
        if let annotation { unit["annotation"] = annotation }
        if !nested.isEmpty { unit[valid ? "annotations" : "errors"] = .array(nested.map { $0.json(language) }) }
        return .object(unit)
    }
}

/// The output formats of the 2020-12 specification (JSON Schema core, section 12.4), as
/// ``JSONSchema/output(_:for:language:limit:)-(_,JSONDocument,_,_)`` gives them.
public enum SchemaOutputFormat: String, Sendable, CaseIterable {
    /// `{"valid": …}` only.
    case flag
    /// The root unit with a flat list of units: every error of an invalid instance, or every
    /// annotation of a valid one.
    case basic
    /// The root unit with units nested by keyword location: the errors of an invalid instance, or
    /// the annotations of a valid one.
    case detailed
    /// Every schema and keyword applied, passing ones included, nested as evaluation went.
    case verbose
}

extension TraceUnit {
    /// The annotations of this unit and the units under it that passed, as output units, in order:
    /// what a failed schema produced is dropped with it.
    func annotationUnits() -> [JSONValue] {
        guard valid else { return [] }
        var units: [JSONValue] = []
        if let annotation {
            var unit = JSONObject()
            unit["valid"] = true
            unit["keywordLocation"] = .string(keywordLocation)
            unit["absoluteKeywordLocation"] = .string(absoluteKeywordLocation)
            unit["instanceLocation"] = .string(instanceLocation)
            unit["annotation"] = annotation
            units.append(.object(unit))
        }
        for child in children { units += child.annotationUnits() }
        return units
    }
}
