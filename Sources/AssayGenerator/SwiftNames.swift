import AssayJSON

/// Swift identifiers and literals from JSON keys and values.
enum SwiftNames {
    /// Words written in capitals inside a name (`managerID`, `homepageURL`).
    static let acronyms: Set<String> = ["id", "url", "uri", "uuid", "api", "ip", "json", "html", "http", "https"]

    /// Swift's keywords, escaped with backticks where they name a property or a case.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer",
        "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where",
        "while", "as", "false", "is", "nil", "self", "super", "throws", "true", "try", "Any", "Self", "Type",
        "Protocol", "await", "async", "consume", "copy", "discard", "each", "borrowing", "consuming", "some", "any",
    ]

    /// Names a generated type must not take: the file uses them.
    static let reservedTypeNames: Set<String> = [
        "String", "Int", "Double", "Bool", "Array", "Dictionary", "Optional", "Set", "JSONValue", "Rule", "Codable",
        "Decodable", "Encodable", "Decoder", "Encoder", "Sendable", "Hashable", "Equatable", "Error", "Type", "Self",
        "Any", "Protocol", "CodingKeys", "CodingKey", "Validatable", "Validation", "Never", "Void", "UnionDecoding",
        "JSONKind", "JSONSchemaExportable", "JSONSchemaExporter", "Indirect", "Nullable", "TupleDecoding",
    ]

    /// The `TextFormat` case of each format name.
    static let formats: [String: String] = [
        "email": "email", "idn-email": "idnEmail", "hostname": "hostname", "idn-hostname": "idnHostname",
        "ipv4": "ipv4", "ipv6": "ipv6", "uri": "uri", "uri-reference": "uriReference", "iri": "iri",
        "iri-reference": "iriReference", "uri-template": "uriTemplate", "json-pointer": "jsonPointer",
        "relative-json-pointer": "relativeJSONPointer", "date": "date", "time": "time", "date-time": "dateTime",
        "duration": "duration", "uuid": "uuid", "regex": "regex",
    ]

    /// The words of a key: split at anything not a letter or digit, and where a lowercase letter is
    /// followed by a capital (`managerId` → manager, Id).
    static func words(_ key: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousIsLower = false
        for character in key {
            guard character.isLetter || character.isNumber, character.isASCII || character.isLetter else {
                if !current.isEmpty { words.append(current) }
                current = ""
                previousIsLower = false
                continue
            }
            if character.isUppercase && previousIsLower && !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(character)
            previousIsLower = character.isLowercase || character.isNumber
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    static func capitalized(_ word: String) -> String {
        if acronyms.contains(word.lowercased()) { return word.uppercased() }
        return word.prefix(1).uppercased() + word.dropFirst()
    }

    /// `manager_id` → `ManagerID`, with the prefix; never a name the file itself uses.
    static func typeName(_ key: String, prefix: String) -> String {
        var name = prefix + words(key).map(capitalized).joined()
        if name.isEmpty { name = prefix + "Value" }
        if let first = name.first, first.isNumber { name = "T" + name }
        if reservedTypeNames.contains(name) { name += "Type" }
        return name
    }

    /// `manager_id` → `managerID`, `Name` → `name`, `URL` → `url`.
    static func propertyName(_ key: String) -> String {
        let parts = words(key)
        guard let first = parts.first else { return "value" }
        let head = first == first.uppercased() ? first.lowercased() : first.prefix(1).lowercased() + first.dropFirst()
        var name = head + parts.dropFirst().map(capitalized).joined()
        if let character = name.first, character.isNumber { name = "_" + name }
        return name
    }

    /// An enum value's case name: as a property is named (`"in-progress"` → `inProgress`).
    static func caseName(_ value: String) -> String {
        value.isEmpty ? "empty" : propertyName(value)
    }

    /// `default` → `` `default` ``.
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// A string literal: raw (`#"…"#`) when the text has no control characters, with as many `#` as
    /// it needs; escaped otherwise.
    static func stringLiteral(_ text: String) -> String {
        let hasControl = text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
        if !hasControl {
            if !text.contains("\"") && !text.contains("\\") { return "\"\(text)\"" }
            var hashes = "#"
            while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
            return hashes + "\"" + text + "\"" + hashes
        }
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case "\n": literal += "\\n"
            case "\r": literal += "\\r"
            case "\t": literal += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                literal += "\\u{\(String(scalar.value, radix: 16))}"
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
    }

    /// `text` as a multi-line raw string literal, its lines indented by `indent`: as many `#` as
    /// keep its quotes and backslashes literal.
    static func multilineLiteral(_ text: String, indent: String) -> [String] {
        var hashes = "#"
        while text.contains("\"\"\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
        var lines = [indent + hashes + "\"\"\""]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lines.append(line.isEmpty ? "" : indent + line)
        }
        lines.append(indent + "\"\"\"" + hashes)
        return lines
    }

    /// A number as a Swift `Double` literal (`100`, `0.5`, `1e-3`).
    static func doubleLiteral(_ number: JSONNumber) -> String { number.description }

    /// A JSON value as a literal of the Swift type, or `nil` when it has none.
    static func literal(_ value: JSONValue, as type: String) -> String? {
        switch (value, type) {
        case (.string(let text), "String"): return stringLiteral(text)
        case (.bool(let flag), "Bool"): return flag ? "true" : "false"
        case (.number(let number), "Int"):
            guard number.isInteger, let whole = number.int else { return nil }
            return String(whole)
        case (.number(let number), "Double"):
            return number.double == nil ? nil : number.description
        default: return nil
        }
    }
}
