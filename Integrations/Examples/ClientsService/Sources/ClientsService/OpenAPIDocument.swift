import AssayCodable
import AssayCore
import AssayJSON

/// The service's OpenAPI 3.1 document: its component schema `Client` is the model's exported JSON
/// Schema, so the document cannot drift from the rules.
enum OpenAPIDocument {
    static let clients: JSONValue = {
        // The rules of every operation for the responses; a create's body states the insert rules
        // too, an update's (a merge patch: any of the fields, none required) the update rules.
        func exported(_ operation: ValidationOperation?, required: Bool = true) -> JSONValue {
            guard case .object(var members) = JSONSchemaExporter.document(for: Client.self, operation: operation)
            else { return [:] }
            members["$schema"] = nil
            if !required { members["required"] = nil }
            return .object(members)
        }
        let client = exported(nil)
        let create = exported(.insert)
        let patch = exported(.update, required: false)
        let problem: JSONValue = [
            "type": "object",
            "required": ["type", "title", "status", "errors"],
            "properties": [
                "type": ["type": "string"], "title": ["type": "string"], "status": ["type": "integer"],
                "detail": ["type": "string"], "instance": ["type": "string"],
                "errors": [
                    "type": "array",
                    "items": [
                        "type": "object", "required": ["pointer", "code", "detail", "params"],
                        "properties": [
                            "pointer": ["type": "string"], "code": ["type": "string"],
                            "detail": ["type": "string"], "params": ["type": "object"],
                        ],
                    ],
                ],
            ],
        ]
        func response(_ description: String, schema: String, mediaType: String = "application/json") -> JSONValue {
            [
                "description": .string(description),
                "content": [.init(mediaType): ["schema": ["$ref": .string("#/components/schemas/\(schema)")]]],
            ]
        }
        func problems(_ codes: [Int]) -> [(String, JSONValue)] {
            codes.map { code in
                (String(code), response(Self.reason(code), schema: "Problem", mediaType: "application/problem+json"))
            }
        }
        let idParameter: JSONValue = [
            "name": "id", "in": "path", "required": true, "schema": ["type": "integer", "format": "int64"],
        ]
        let languageParameter: JSONValue = [
            "name": "Accept-Language", "in": "header", "required": false, "schema": ["type": "string"],
        ]
        func body(_ schema: String) -> JSONValue {
            [
                "required": true,
                "content": ["application/json": ["schema": ["$ref": .string("#/components/schemas/\(schema)")]]],
            ]
        }
        let paths: JSONValue = [
            "/clients": [
                "post": [
                    "operationId": "createClient", "summary": "Create a client",
                    "parameters": [languageParameter], "requestBody": body("ClientCreate"),
                    "responses": .object(
                        JSONObject(
                            [("201", response("The client, created", schema: "Client"))]
                                + problems([400, 409, 413, 415, 422]))),
                ]
            ],
            "/clients/{id}": [
                "get": [
                    "operationId": "getClient", "summary": "A client, its row checked as it is read",
                    "parameters": [idParameter, languageParameter],
                    "responses": .object(
                        JSONObject([("200", response("The client", schema: "Client"))] + problems([400, 404, 500]))),
                ],
                "patch": [
                    "operationId": "updateClient", "summary": "Change some of a client's fields (a merge patch)",
                    "parameters": [idParameter, languageParameter],
                    "requestBody": [
                        "required": true,
                        "content": [
                            "application/merge-patch+json": ["schema": ["$ref": "#/components/schemas/ClientPatch"]],
                            "application/json": ["schema": ["$ref": "#/components/schemas/ClientPatch"]],
                        ],
                    ],
                    "responses": .object(
                        JSONObject(
                            [("200", response("The client, changed", schema: "Client"))]
                                + problems([400, 404, 409, 413, 415, 422, 500]))),
                ],
            ],
            "/clients/validate": [
                "post": [
                    "operationId": "validateClientField", "summary": "Check one value of one field",
                    "parameters": [
                        [
                            "name": "field", "in": "query", "required": true,
                            "schema": ["type": "string", "enum": ["name", "age", "email"]],
                        ],
                        languageParameter,
                    ],
                    "requestBody": ["required": true, "content": ["application/json": ["schema": [:]]]],
                    "responses": .object(
                        JSONObject(
                            [("200", response("The value is valid; its normalised form", schema: "FieldCheck"))]
                                + problems([400, 413, 415, 422]))),
                ]
            ],
        ]
        let fieldCheck: JSONValue = [
            "type": "object", "required": ["field", "valid", "value"],
            "properties": ["field": ["type": "string"], "valid": ["const": true], "value": [:]],
        ]
        return [
            "openapi": "3.1.0",
            "info": [
                "title": "Clients", "version": "1.0.0",
                "description":
                    "Assay's example service: every request checked with the rules declared once on the model.",
            ],
            "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
            "paths": paths,
            "components": [
                "schemas": [
                    "Client": client, "ClientCreate": create, "ClientPatch": patch, "Problem": problem,
                    "FieldCheck": fieldCheck,
                ]
            ],
        ]
    }()

    static func reason(_ code: Int) -> String {
        switch code {
        case 400: "The body is not JSON, or a parameter is wrong"
        case 404: "No such client"
        case 409: "The email is taken"
        case 413: "The body is too large"
        case 415: "The body is not JSON by its media type"
        case 422: "The body breaks the rules: every failure"
        case 500: "The stored client breaks the rules"
        default: "Error"
        }
    }
}
