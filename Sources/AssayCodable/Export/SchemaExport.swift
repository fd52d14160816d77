import AssayCore
import AssayJSON
import Foundation

/// A type that can describe itself as JSON Schema 2020-12: the standard scalar and collection types,
/// ``ValidatedValue`` types and `@Validatable` models.
public protocol JSONSchemaExportable {
    /// The type's schema; models register themselves in the exporter's `$defs` and return a `$ref`.
    static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue
}

/// Writes the rules of Swift types as one JSON Schema 2020-12 document, so one declaration drives
/// the app, the docs and `assay validate`.
///
/// ```swift
/// let schema = JSONSchemaExporter.document(for: Client.self)
/// print(schema.jsonString(.prettyPrinted))
/// ```
///
/// Rules map to keywords: `range` → `minimum`/`maximum` (or their exclusive forms), `length` →
/// `minLength`/`maxLength`, `count` → `minItems`/`maxItems`, `pattern` and `charset` → `pattern`,
/// `notBlank` → `pattern: "\\S"`, `email`/`url`/`uuid` → `format`, `oneOf` → `enum`, `unique` →
/// `uniqueItems`, `each` → `items`, `and`/`or`/`not` → `allOf`/`anyOf`/`not`. Rules JSON Schema cannot
/// state (custom rules, object-level checks, date ranges, lengths counted in other units than Unicode
/// scalars) are named in the schema's `$comment` and not checked by it.
public struct JSONSchemaExporter {
    /// The schemas of the models met so far, by name.
    public private(set) var definitions: JSONObject = [:]
    private var inProgress: Set<String> = []

    /// Makes an empty exporter.
    public init() {}

    /// The whole document for `type`: `$schema`, the type's own schema, and `$defs` for the models it
    /// refers to.
    public static func document<T>(for type: T.Type) -> JSONValue {
        var exporter = JSONSchemaExporter()
        var root = exporter.schema(for: type)
        // The root model is inlined rather than referenced.
        if case .object(let object) = root, object.count == 1, case .string(let reference)? = object["$ref"],
            let name = reference.split(separator: "/").last.map(String.init),
            let definition = exporter.definitions[name]
        {
            root = definition
            exporter.definitions[name] = nil
        }
        guard case .object(let schema) = root else { return root }
        var document: JSONObject = ["$schema": "https://json-schema.org/draft/2020-12/schema"]
        for (key, value) in schema { document[key] = value }
        if !exporter.definitions.isEmpty { document["$defs"] = .object(exporter.definitions) }
        return .object(document)
    }

    /// The schema of `type`; `{}` (anything) for a type that does not describe itself.
    public mutating func schema(for type: Any.Type) -> JSONValue {
        if let exportable = type as? any JSONSchemaExportable.Type {
            return exportable.jsonSchema(in: &self)
        }
        return [:]
    }

    /// The schema of a model, registered in `$defs` under its type name; returns the `$ref`.
    ///
    /// - Parameters:
    ///   - type: The model.
    ///   - properties: Its decoded properties in order: key, Swift type, and whether the key must be
    ///     present (not optional, no default).
    public mutating func model<Model: Validatable>(
        _ type: Model.Type, properties: [(key: String, type: Any.Type, required: Bool)]
    ) -> JSONValue {
        let name = String(describing: Model.self)
        let reference: JSONValue = ["$ref": .string("#/$defs/\(name)")]
        if definitions[name] != nil || inProgress.contains(name) { return reference }
        inProgress.insert(name)
        var object: JSONObject = ["type": "object"]
        var members: JSONObject = [:]
        var required: [JSONValue] = []
        var comments: [String] = []
        let rules = Model.validation.rules
        for property in properties {
            var schema = schema(for: property.type)
            var mustBePresent = property.required
            for rule in rules where rule.key == property.key && !rule.descriptors.isEmpty {
                for descriptor in rule.descriptors {
                    if descriptor.name == "required" {
                        mustBePresent = true
                        schema = Self.removingNull(schema)
                        continue
                    }
                    if descriptor.name == "nested" { continue }
                    var notes: [String] = []
                    schema = Self.merge(schema, Self.keywords(for: descriptor, notes: &notes))
                    comments += notes.map { "\(property.key): \($0)" }
                }
            }
            members[property.key] = schema
            if mustBePresent { required.append(.string(property.key)) }
        }
        object["properties"] = .object(members)
        if !required.isEmpty { object["required"] = .array(required) }
        for rule in rules where rule.key == nil {
            for descriptor in rule.descriptors { comments.append("object check \(Self.customName(descriptor))") }
        }
        if !comments.isEmpty {
            object["$comment"] = .string("Not checked by this schema: " + comments.joined(separator: "; "))
        }
        definitions[name] = .object(object)
        inProgress.remove(name)
        return reference
    }

    // MARK: Rules as keywords

    /// The keywords a rule stands for; what cannot be stated is described in `notes`.
    static func keywords(for descriptor: RuleDescriptor, notes: inout [String]) -> JSONValue {
        let parameters = descriptor.parameters
        var object: JSONObject = [:]
        switch descriptor.name {
        case "range":
            let minimum = parameters["minimum"].flatMap(number)
            let maximum = parameters["maximum"].flatMap(number)
            if (parameters["minimum"] != nil && minimum == nil) || (parameters["maximum"] != nil && maximum == nil) {
                notes.append("range \(descriptor)")
                break
            }
            if let minimum {
                object[parameters["exclusiveMinimum"] == .bool(true) ? "exclusiveMinimum" : "minimum"] = minimum
            }
            if let maximum {
                object[parameters["exclusiveMaximum"] == .bool(true) ? "exclusiveMaximum" : "maximum"] = maximum
            }
        case "length":
            guard parameters["unit"] == .string(LengthUnit.unicodeScalars.description) else {
                notes.append("length \(descriptor)")
                break
            }
            if case .integer(let minimum)? = parameters["minimum"] {
                object["minLength"] = .number(JSONNumber(minimum))
            }
            if case .integer(let maximum)? = parameters["maximum"] {
                object["maxLength"] = .number(JSONNumber(maximum))
            }
        case "count":
            if case .integer(let minimum)? = parameters["minimum"] { object["minItems"] = .number(JSONNumber(minimum)) }
            if case .integer(let maximum)? = parameters["maximum"] { object["maxItems"] = .number(JSONNumber(maximum)) }
        case "pattern", "charset":
            if case .string(let pattern)? = parameters["pattern"] { object["pattern"] = .string(pattern) }
        case "notBlank":
            object["pattern"] = "\\S"
        case "format":
            if case .string(let format)? = parameters["format"] { object["format"] = .string(format) }
        case "oneOf":
            if case .list(let allowed)? = parameters["allowed"] {
                let values = allowed.compactMap(json)
                if values.count == allowed.count {
                    object["enum"] = .array(values)
                } else {
                    notes.append("\(descriptor)")
                }
            }
        case "unique":
            object["uniqueItems"] = true
        case "each":
            if let child = descriptor.children.first { object["items"] = keywords(for: child, notes: &notes) }
        case "and":
            return descriptor.children.reduce(JSONValue.object([:])) { merge($0, keywords(for: $1, notes: &notes)) }
        case "or":
            object["anyOf"] = .array(descriptor.children.map { keywords(for: $0, notes: &notes) })
        case "not":
            if let child = descriptor.children.first { object["not"] = keywords(for: child, notes: &notes) }
        case "finite":
            break  // JSON numbers are always finite.
        default:
            notes.append(customName(descriptor))
        }
        return .object(object)
    }

    private static func customName(_ descriptor: RuleDescriptor) -> String {
        if descriptor.name == "custom", case .string(let name)? = descriptor.parameters["name"] { return name }
        return descriptor.description
    }

    private static func number(_ value: IssueValue) -> JSONValue? {
        switch value {
        case .integer(let integer): return .number(JSONNumber(integer))
        case .number(let double): return JSONNumber(double).map(JSONValue.number)
        case .decimal(let text): return JSONNumber(text: text).map(JSONValue.number)
        default: return nil
        }
    }

    private static func json(_ value: IssueValue) -> JSONValue? {
        switch value {
        case .null: return .null
        case .bool(let bool): return .bool(bool)
        case .string(let string): return .string(string)
        case .list(let list):
            let values = list.compactMap(json)
            return values.count == list.count ? .array(values) : nil
        default: return number(value)
        }
    }

    /// `base` with `extra`'s keywords added; subschemas both have are merged, and another keyword
    /// both have with different values goes into an `allOf`.
    static func merge(_ base: JSONValue, _ extra: JSONValue) -> JSONValue {
        guard case .object(var object) = base, case .object(let more) = extra else { return base }
        var conflicts: JSONObject = [:]
        for (key, value) in more {
            guard let existing = object[key], existing != value else {
                object[key] = value
                continue
            }
            if key != "enum", key != "required", case .object = existing, case .object = value {
                object[key] = merge(existing, value)  // `items` of a type and of a rule: one schema
            } else {
                conflicts[key] = value
            }
        }
        if !conflicts.isEmpty {
            var all: [JSONValue] = []
            if case .array(let existing)? = object["allOf"] { all = existing }
            all.append(.object(conflicts))
            object["allOf"] = .array(all)
        }
        return .object(object)
    }

    /// The schema with `null` no longer allowed (for a required optional).
    static func removingNull(_ schema: JSONValue) -> JSONValue {
        guard case .object(var object) = schema else { return schema }
        if case .array(let types)? = object["type"] {
            let kept = types.filter { $0 != "null" }
            object["type"] = kept.count == 1 ? kept[0] : .array(kept)
        } else if case .array(let options)? = object["anyOf"], options.count == 2, options.contains(["type": "null"]) {
            return options.first { $0 != ["type": "null"] } ?? schema
        }
        return .object(object)
    }
}

// MARK: Standard types

extension String: JSONSchemaExportable {
    /// `{"type": "string"}`.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue { ["type": "string"] }
}

extension Bool: JSONSchemaExportable {
    /// `{"type": "boolean"}`.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue { ["type": "boolean"] }
}

extension Double: JSONSchemaExportable {
    /// `{"type": "number"}`.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue { ["type": "number"] }
}

extension Float: JSONSchemaExportable {
    /// `{"type": "number"}`.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue { ["type": "number"] }
}

extension Decimal: JSONSchemaExportable {
    /// `{"type": "number"}`.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue { ["type": "number"] }
}

extension Date: JSONSchemaExportable {
    /// `{"type": "string", "format": "date-time"}`: RFC 3339, as `JSONValueDecoder` reads dates.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue {
        ["type": "string", "format": "date-time"]
    }
}

extension UUID: JSONSchemaExportable {
    /// `{"type": "string", "format": "uuid"}`.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue {
        ["type": "string", "format": "uuid"]
    }
}

extension URL: JSONSchemaExportable {
    /// `{"type": "string", "format": "uri-reference"}`: `URL` decodes relative references too.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue {
        ["type": "string", "format": "uri-reference"]
    }
}

extension JSONValue: JSONSchemaExportable {
    /// `{}`: any JSON value.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue { [:] }
}

/// Fixed-width integers: `integer` within the type's bounds.
extension JSONSchemaExportable where Self: FixedWidthInteger {
    /// `{"type": "integer"}`, with the type's bounds when it is narrower than 64 bits or unsigned.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue {
        var object: JSONObject = ["type": "integer"]
        if Self.bitWidth < 64 || !Self.isSigned, let minimum = JSONNumber(text: String(Self.min)) {
            object["minimum"] = .number(minimum)
        }
        if Self.bitWidth < 64, let maximum = JSONNumber(text: String(Self.max)) { object["maximum"] = .number(maximum) }
        return .object(object)
    }
}

extension Int: JSONSchemaExportable {}
extension Int8: JSONSchemaExportable {}
extension Int16: JSONSchemaExportable {}
extension Int32: JSONSchemaExportable {}
extension Int64: JSONSchemaExportable {}
extension UInt: JSONSchemaExportable {}
extension UInt8: JSONSchemaExportable {}
extension UInt16: JSONSchemaExportable {}
extension UInt32: JSONSchemaExportable {}
extension UInt64: JSONSchemaExportable {}

extension Optional: JSONSchemaExportable {
    /// The wrapped type's schema, `null` allowed too.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue {
        let wrapped = exporter.schema(for: Wrapped.self)
        guard case .object(var object) = wrapped else { return wrapped }
        if object.isEmpty { return wrapped }
        if case .string(let type)? = object["type"] {
            object["type"] = [.string(type), "null"]
            return .object(object)
        }
        return ["anyOf": [wrapped, ["type": "null"]]]
    }
}

extension Array: JSONSchemaExportable {
    /// `{"type": "array", "items": element schema}`.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue {
        ["type": "array", "items": exporter.schema(for: Element.self)]
    }
}

extension Set: JSONSchemaExportable {
    /// `{"type": "array", "items": element schema, "uniqueItems": true}`.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue {
        ["type": "array", "items": exporter.schema(for: Element.self), "uniqueItems": true]
    }
}

extension Dictionary: JSONSchemaExportable where Key == String {
    /// `{"type": "object", "additionalProperties": value schema}`.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue {
        ["type": "object", "additionalProperties": exporter.schema(for: Value.self)]
    }
}

extension ValidatedValue {
    /// The raw value's schema with the rule's keywords.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue {
        var notes: [String] = []
        var schema = JSONSchemaExporter.merge(
            exporter.schema(for: RawValue.self), JSONSchemaExporter.keywords(for: rule.descriptor, notes: &notes))
        if !notes.isEmpty, case .object(var object) = schema {
            object["$comment"] = .string("Not checked by this schema: " + notes.joined(separator: "; "))
            schema = .object(object)
        }
        return schema
    }
}
