import AssayJSON

/// The metaschema of every dialect, carried by Assay so `$ref`s to a draft's metaschema resolve
/// offline and schemas can be checked against their dialect (`assay check-schema`).
///
/// These are Assay's own single-document renditions, written from the keyword definitions of each
/// specification: they accept exactly the keyword values the specification allows (`minLength` a
/// non-negative integer, `type` one of the seven names or a list of them, …). They carry the
/// official `$id`s. The 2019-09 and 2020-12 renditions keep their extension points
/// (`$recursiveAnchor`, `$dynamicAnchor: "meta"`), but are one document rather than one per
/// vocabulary.
public enum BundledMetaschemas {
    /// The metaschema of `dialect`.
    public static func metaschema(for dialect: SchemaDialect) -> JSONValue {
        build(dialect)
    }

    /// The metaschema whose URI is `uri` (with or without its `#`).
    static func document(for uri: String) -> JSONValue? {
        guard let dialect = SchemaDialect(uri), !uri.allSatisfy({ $0.isNumber || $0 == "-" }) else { return nil }
        return build(dialect)
    }

    private static func build(_ dialect: SchemaDialect) -> JSONValue {
        let draft = dialect.draft
        let schema: JSONValue
        switch draft {
        case .draft2020: schema = ["$dynamicRef": "#meta"]
        case .draft2019: schema = ["$recursiveRef": "#"]
        default: schema = ["$ref": "#"]
        }
        // Draft 4 has no Boolean schemas: where a keyword also takes `true`/`false`, say so.
        let schemaOrBoolean: JSONValue = draft == .draft4 ? ["anyOf": [["type": "boolean"], schema]] : schema
        let nonNegative: JSONValue = ["type": "integer", "minimum": 0]
        let schemaArray: JSONValue = ["type": "array", "minItems": 1, "items": schema]
        var stringArray: JSONObject = ["type": "array", "items": ["type": "string"], "uniqueItems": true]
        if draft == .draft4 { stringArray["minItems"] = 1 }
        let simpleTypes: JSONValue = ["enum": ["array", "boolean", "integer", "null", "number", "object", "string"]]
        let schemaMap: JSONValue = ["type": "object", "additionalProperties": schema]
        let string: JSONValue = ["type": "string"]
        let boolean: JSONValue = ["type": "boolean"]

        var properties: JSONObject = [
            "$schema": string, "$ref": string, "title": string, "description": string, "default": true,
            "multipleOf": draft == .draft4
                ? ["type": "number", "minimum": 0, "exclusiveMinimum": true]
                : ["type": "number", "exclusiveMinimum": 0],
            "maximum": ["type": "number"], "minimum": ["type": "number"],
            "maxLength": nonNegative, "minLength": nonNegative, "pattern": string,
            "maxItems": nonNegative, "minItems": nonNegative, "uniqueItems": boolean,
            "maxProperties": nonNegative, "minProperties": nonNegative, "required": .object(stringArray),
            "additionalProperties": schemaOrBoolean, "properties": schemaMap, "patternProperties": schemaMap,
            "enum": draft == .draft4 ? ["type": "array", "minItems": 1, "uniqueItems": true] : ["type": "array"],
            "type": [
                "anyOf": [simpleTypes, ["type": "array", "items": simpleTypes, "minItems": 1, "uniqueItems": true]]
            ],
            "format": string, "allOf": schemaArray, "anyOf": schemaArray, "oneOf": schemaArray, "not": schema,
        ]
        properties[draft == .draft4 ? "id" : "$id"] = string
        if draft == .draft4 {
            properties["exclusiveMaximum"] = boolean
            properties["exclusiveMinimum"] = boolean
        } else {
            properties["exclusiveMaximum"] = ["type": "number"]
            properties["exclusiveMinimum"] = ["type": "number"]
            properties["const"] = true
            properties["contains"] = schema
            properties["propertyNames"] = schema
            properties["examples"] = ["type": "array"]
        }
        if draft <= .draft2019 {
            properties["items"] = ["anyOf": [schemaOrBoolean, schemaArray]]
            properties["additionalItems"] = schemaOrBoolean
        } else {
            properties["items"] = schema
            properties["prefixItems"] = schemaArray
        }
        if draft <= .draft7 {
            properties["definitions"] = schemaMap
            properties["dependencies"] = [
                "type": "object", "additionalProperties": ["anyOf": [schemaOrBoolean, .object(stringArray)]],
            ]
        }
        if draft >= .draft7 {
            properties["$comment"] = string
            properties["if"] = schema
            properties["then"] = schema
            properties["else"] = schema
            properties["readOnly"] = boolean
            properties["writeOnly"] = boolean
            properties["contentMediaType"] = string
            properties["contentEncoding"] = string
        }
        if draft >= .draft2019 {
            properties["$anchor"] = ["type": "string", "pattern": "^[A-Za-z_][-A-Za-z0-9._]*$"]
            properties["$defs"] = schemaMap
            properties["$vocabulary"] = ["type": "object", "additionalProperties": boolean]
            properties["deprecated"] = boolean
            properties["dependentSchemas"] = schemaMap
            properties["dependentRequired"] = ["type": "object", "additionalProperties": .object(stringArray)]
            properties["maxContains"] = nonNegative
            properties["minContains"] = nonNegative
            properties["unevaluatedItems"] = schema
            properties["unevaluatedProperties"] = schema
            properties["contentSchema"] = schema
        }
        if draft == .draft2019 {
            properties["$recursiveRef"] = string
            properties["$recursiveAnchor"] = boolean
        }
        if draft == .draft2020 {
            properties["$dynamicRef"] = string
            properties["$dynamicAnchor"] = ["type": "string", "pattern": "^[A-Za-z_][-A-Za-z0-9._]*$"]
        }

        var root: JSONObject = [:]
        root["$schema"] = .string(dialect.uri)
        root[draft == .draft4 ? "id" : "$id"] = .string(dialect.uri)
        switch draft {
        case .draft2020: root["$dynamicAnchor"] = "meta"
        case .draft2019: root["$recursiveAnchor"] = true
        default: break
        }
        root["title"] = .string("Assay's rendition of the JSON Schema \(dialect) metaschema")
        root["type"] = draft == .draft4 ? "object" : ["object", "boolean"]
        root["properties"] = .object(properties)
        root["default"] = draft == .draft4 ? [:] : true
        return .object(root)
    }
}
