import AssayJSON

extension SchemaReader {
    /// The keywords that read values of one JSON type alone (every other value passes them) and
    /// report a failure at the value itself, by that type; `number` stands for integers too. Those
    /// that read what the value holds (`properties`, `items`, `unevaluatedProperties` …) are not
    /// among them: a value of their type that the schema refuses would still fail them below it,
    /// where a JSON Schema validator reports it. `format` is not either: a format of the OpenAPI
    /// registry (`int32`) reads numbers.
    static let keywordsReadingOneType: [String: Set<String>] = [
        "string": ["minLength", "maxLength", "pattern", "contentEncoding", "contentMediaType"],
        "number": ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
        "array": ["minItems", "maxItems", "uniqueItems"],
        "object": ["minProperties", "maxProperties"],
    ]

    /// The document with the keywords no value can reach left out of each of its schemas: a keyword
    /// that reads one JSON type (`minLength`, `maxItems` …) beside a `type`, `enum`, `const`,
    /// `oneOf`/`anyOf` of typed alternatives or `$ref` that allows no value of that type
    /// (`{"oneOf": [{"type": "null"}, {"type": "string"}], "minItems": 1}` is a string or null,
    /// which `minItems` lets pass). Such a keyword accepts every value the schema lets through, and
    /// refuses others where the schema refuses them: the schema accepts the same values without it,
    /// and reports the same places. The generated file embeds the document as it is; this is how the
    /// generator reads it.
    static func withoutVacuousKeywords(_ document: JSONValue) -> JSONValue {
        // A `$ref` read against an `$id` below the root is not a pointer into the document: with
        // embedded resources, references are not followed (their schema allows every type).
        let followsReferences = !hasEmbeddedResources(document)
        /// The JSON types (integers as `number`) a schema allows, or `nil` for every type (or when
        /// working it out would take more than `budget` schemas: a document cannot make it costly).
        func allowedTypes(_ schema: JSONValue, budget: inout Int) -> Set<String>? {
            budget -= 1
            guard budget > 0 else { return nil }
            guard case .object(let object) = schema else { return schema == .bool(false) ? [] : nil }
            var allowed: Set<String>?
            func narrow(_ types: Set<String>?) {
                guard let types else { return }
                allowed = allowed.map { $0.intersection(types) } ?? types
            }
            func kind(_ value: JSONValue) -> String {
                value.kind == .integer ? "number" : value.kind.rawValue
            }
            switch object["type"] {
            case .string(let type)?: narrow([type == "integer" ? "number" : type])
            case .array(let items)?:
                guard let names = strings(items) else { break }
                narrow(Set(names.map { $0 == "integer" ? "number" : $0 }))
            default: break
            }
            if object["nullable"] == .bool(true), allowed != nil { allowed?.insert("null") }
            if case .array(let values)? = object["enum"] { narrow(Set(values.map(kind))) }
            if let constant = object["const"] { narrow([kind(constant)]) }
            for keyword in ["oneOf", "anyOf"] {
                guard case .array(let alternatives)? = object[keyword] else { continue }
                var union: Set<String> = []
                var open = false
                for alternative in alternatives {
                    guard let types = allowedTypes(alternative, budget: &budget) else {
                        open = true
                        break
                    }
                    union.formUnion(types)
                }
                if !open { narrow(union) }
            }
            if case .array(let items)? = object["allOf"] {
                for item in items { narrow(allowedTypes(item, budget: &budget)) }
            }
            if followsReferences, case .string(let text)? = object["$ref"], text.hasPrefix("#"),
                let target = decodeFragment(String(text.dropFirst())), let referenced = document[pointer: target]
            {
                narrow(allowedTypes(referenced, budget: &budget))
            }
            return allowed
        }

        return mappingSchemas(document) { object in
            var budget = 1_000
            guard let allowed = allowedTypes(.object(object), budget: &budget) else { return object }
            var object = object
            for (type, keywords) in keywordsReadingOneType where !allowed.contains(type) {
                for keyword in keywords { object[keyword] = nil }
            }
            return object
        }
    }
}
