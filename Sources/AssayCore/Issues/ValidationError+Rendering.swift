extension ValidationError {
    /// The issues as text: one line per issue, `pointer: message` (the message alone at the root),
    /// warnings marked `warning:`, and a last line saying how many issues were dropped when the
    /// aggregate was truncated.
    public func text(in language: Language = .current, catalog: MessageCatalog = .current) -> String {
        var lines: [String] = issues.map { issue in
            let message = issue.message(in: language, catalog: catalog)
            let prefix = issue.severity == .warning ? "warning: " : ""
            return issue.path.isRoot ? prefix + message : "\(issue.path.jsonPointer): \(prefix)\(message)"
        }
        if let truncationSummary { lines.append(truncationSummary) }
        return lines.joined(separator: "\n")
    }

    /// The issues as JSON in the JSON Schema "basic" output shape:
    ///
    /// ```json
    /// {"valid":false,"errors":[{"instanceLocation":"/age","keywordLocation":"/properties/age/maximum",
    ///   "code":"tooLarge","error":"Age must be at most 150"}]}
    /// ```
    ///
    /// `valid` is `false` when any issue is an error. Each unit has `instanceLocation`,
    /// `keywordLocation` (empty when the rule has no location), `absoluteKeywordLocation` when known,
    /// `code`, `error` (the message), `severity` for warnings, and `value` unless redacted.
    /// `truncated: true` is added when issues were dropped, with how many errors and warnings
    /// (`droppedErrors`, `droppedWarnings`).
    public func json(in language: Language = .current, catalog: MessageCatalog = .current) -> String {
        var out = "{\"valid\":\(hasErrors ? "false" : "true"),\"errors\":["
        for (index, issue) in issues.enumerated() {
            if index > 0 { out += "," }
            out += "{\"instanceLocation\":" + JSONText.quote(issue.path.jsonPointer)
            out += ",\"keywordLocation\":" + JSONText.quote(issue.ruleLocation ?? "")
            if let absolute = issue.absoluteRuleLocation {
                out += ",\"absoluteKeywordLocation\":" + JSONText.quote(absolute)
            }
            out += ",\"code\":" + JSONText.quote(issue.code.description)
            out += ",\"error\":" + JSONText.quote(issue.message(in: language, catalog: catalog))
            if issue.severity == .warning { out += ",\"severity\":\"warning\"" }
            if let value = issue.value, value != .redacted { out += ",\"value\":" + JSONText.encode(value) }
            out += "}"
        }
        out += "]"
        if isTruncated {
            out +=
                ",\"truncated\":true,\"droppedErrors\":\(droppedErrorCount),\"droppedWarnings\":\(droppedWarningCount)"
        }
        return out + "}"
    }
}

/// Minimal JSON text writing for rendering issues; AssayCore depends on no JSON module.
enum JSONText {
    static func quote(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func encode(_ value: IssueValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .integer(let i): return String(i)
        case .number(let d): return d.isFinite ? IssueValue.format(d) : quote(String(d))
        case .decimal(let s): return s
        case .string(let s): return quote(s)
        case .date, .other, .redacted: return quote(value.description)
        case .list(let values): return "[" + values.map(encode).joined(separator: ",") + "]"
        }
    }
}
