import AssayCore
import AssayHTTP
import AssayJSON
import AssaySchema
import Foundation

extension OpenAPIContract {
    /// Reads the operations of a document and compiles all their schemas in one compilation.
    struct Reader {
        static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

        let document: JSONValue
        /// The schemas to compile, by pointer, and where each result goes.
        private var pointers: [String] = []

        init(document: JSONValue) { self.document = document }

        /// What is read before the schemas are compiled: each schema is the index of its pointer.
        private struct PendingParameter {
            var name: String
            var location: Location
            var required: Bool
            var schema: Int?
            var kind: ValueKind
            var style: Style
            var explode: Bool
        }

        private struct PendingOperation {
            var id: String
            var path: String
            var method: String
            var parameters: [PendingParameter]
            var body: (required: Bool, schema: Int?, acceptsJSON: Bool, onlyJSON: Bool)?
            var responses: [(status: String, schema: Int?, acceptsJSON: Bool, onlyJSON: Bool)]
        }

        mutating func operations() throws(OpenAPIContractError) -> [String: Operation] {
            guard case .object(let root) = document else { return [:] }
            var pending: [PendingOperation] = []
            var seen: [String: String] = [:]
            if let paths = root["paths"] {
                guard case .object(let paths) = paths else {
                    throw OpenAPIContractError(pointer: "/paths", message: "paths is not an object")
                }
                for (path, value) in paths {
                    let itemPointer = "/paths/" + Self.escape(path)
                    let (item, _) = try resolve(value, at: itemPointer)
                    let shared = try parameters(item["parameters"], at: itemPointer + "/parameters")
                    for method in Self.methods {
                        guard let value = item[method] else { continue }
                        let pointer = itemPointer + "/" + method
                        guard case .object(let operation) = value else {
                            throw OpenAPIContractError(pointer: pointer, message: "an operation is an object")
                        }
                        // swift-openapi-generator's name for an operation without an operationId.
                        let id: String
                        switch operation["operationId"] {
                        case .string(let value)?: id = value
                        case nil: id = method + path
                        default:
                            throw OpenAPIContractError(pointer: pointer + "/operationId", message: "not a string")
                        }
                        if let other = seen.updateValue(pointer, forKey: id) {
                            throw OpenAPIContractError(
                                pointer: pointer + "/operationId",
                                message: "operationId \(id) is also the operation at #\(other)")
                        }
                        var own = try parameters(operation["parameters"], at: pointer + "/parameters")
                        // An operation's parameter replaces the path's of the same name and place
                        // (a set: linear however many parameters both have).
                        let stated = Set(own.map { "\($0.location.rawValue)\u{0}\($0.name)" })
                        own += shared.filter { !stated.contains("\($0.location.rawValue)\u{0}\($0.name)") }
                        pending.append(
                            PendingOperation(
                                id: id, path: path, method: method, parameters: own,
                                body: try operation["requestBody"].map { value throws(OpenAPIContractError) in
                                    try requestBody(value, at: pointer + "/requestBody")
                                },
                                responses: try responses(operation["responses"], at: pointer + "/responses")))
                    }
                }
            }
            let schemas: [JSONSchema]
            do throws(SchemaCompilationError) {
                schemas = try JSONSchema.compile(
                    document, at: pointers, uri: "urn:assay:openapi",
                    options: JSONSchema.Options(assertFormats: true, unknownFormats: .ignore))
            } catch {
                let problem = error.problems.first
                throw OpenAPIContractError(
                    pointer: problem?.location ?? "", message: problem?.message ?? "the schemas do not compile")
            }
            var operations: [String: Operation] = [:]
            for operation in pending {
                operations[operation.id] = Operation(
                    id: operation.id, path: operation.path, method: operation.method,
                    parameters: operation.parameters.map {
                        Parameter(
                            name: $0.name, location: $0.location, required: $0.required,
                            schema: $0.schema.map { schemas[$0] }, kind: $0.kind, style: $0.style,
                            explode: $0.explode)
                    },
                    requestBody: operation.body.map {
                        RequestBody(
                            required: $0.required, schema: $0.schema.map { schemas[$0] }, acceptsJSON: $0.acceptsJSON,
                            acceptsOnlyJSON: $0.onlyJSON)
                    },
                    responses: Dictionary(
                        operation.responses.map {
                            (
                                $0.status,
                                Response(
                                    schema: $0.schema.map { schemas[$0] }, acceptsJSON: $0.acceptsJSON,
                                    acceptsOnlyJSON: $0.onlyJSON)
                            )
                        },
                        uniquingKeysWith: { first, _ in first }))
            }
            return operations
        }

        /// A schema to compile: its number.
        private mutating func schema(at pointer: String) -> Int {
            pointers.append(pointer)
            return pointers.count - 1
        }

        private mutating func parameters(_ value: JSONValue?, at pointer: String) throws(OpenAPIContractError)
            -> [PendingParameter]
        {
            guard let value else { return [] }
            guard case .array(let items) = value else {
                throw OpenAPIContractError(pointer: pointer, message: "parameters is not an array")
            }
            var result: [PendingParameter] = []
            for (index, item) in items.enumerated() {
                let (parameter, at) = try resolve(item, at: pointer + "/\(index)")
                guard case .string(let name)? = parameter["name"], case .string(let place)? = parameter["in"],
                    let location = Location(rawValue: place)
                else {
                    throw OpenAPIContractError(
                        pointer: at, message: "a parameter has a name and is in path, query, header or cookie")
                }
                // A path parameter is always required.
                let required = location == .path || parameter["required"] == .bool(true)
                var schema: Int?
                var kind = ValueKind.string
                if let value = parameter["schema"] {
                    schema = self.schema(at: at + "/schema")
                    kind = self.kind(of: value, at: at + "/schema")
                } else if parameter["content"] != nil {
                    // `content`: the value is a document of that media type; a JSON one is checked.
                    let (contentSchema, isJSON) = try jsonContent(parameter["content"], at: at + "/content")
                    if isJSON {
                        schema = contentSchema
                        kind = .json
                    }
                }
                // Query and cookie parameters are written in form style by default, path and
                // header ones in simple style; `explode` is true for form style alone.
                var style: Style = location == .query || location == .cookie ? .form : .simple
                if let value = parameter["style"] {
                    guard case .string(let name) = value, let named = Style(rawValue: name) else {
                        throw OpenAPIContractError(
                            pointer: at + "/style",
                            message:
                                "style is one of form, simple, label, matrix, spaceDelimited, pipeDelimited, deepObject"
                        )
                    }
                    style = named
                }
                var explode = style == .form
                if let value = parameter["explode"] {
                    guard case .bool(let flag) = value else {
                        throw OpenAPIContractError(pointer: at + "/explode", message: "explode is true or false")
                    }
                    explode = flag
                }
                result.append(
                    PendingParameter(
                        name: name, location: location, required: required, schema: schema, kind: kind, style: style,
                        explode: explode))
            }
            return result
        }

        private mutating func requestBody(_ value: JSONValue, at pointer: String) throws(OpenAPIContractError) -> (
            required: Bool, schema: Int?, acceptsJSON: Bool, onlyJSON: Bool
        ) {
            let (body, at) = try resolve(value, at: pointer)
            let (schema, acceptsJSON) = try jsonContent(body["content"], at: at + "/content")
            var onlyJSON = acceptsJSON
            if case .object(let content)? = body["content"] {
                onlyJSON = content.keys.allSatisfy(RequestContent.isJSON)
            }
            return (body["required"] == .bool(true), schema, acceptsJSON, onlyJSON)
        }

        private mutating func responses(_ value: JSONValue?, at pointer: String) throws(OpenAPIContractError)
            -> [(status: String, schema: Int?, acceptsJSON: Bool, onlyJSON: Bool)]
        {
            guard let value else { return [] }
            guard case .object(let responses) = value else {
                throw OpenAPIContractError(pointer: pointer, message: "responses is not an object")
            }
            var result: [(status: String, schema: Int?, acceptsJSON: Bool, onlyJSON: Bool)] = []
            for (status, value) in responses {
                let (response, at) = try resolve(value, at: pointer + "/" + Self.escape(status))
                let (schema, acceptsJSON) = try jsonContent(response["content"], at: at + "/content")
                var onlyJSON = acceptsJSON
                if case .object(let content)? = response["content"] {
                    onlyJSON = content.keys.allSatisfy(RequestContent.isJSON)
                }
                // Every status the document states, JSON or not: the most specific one decides.
                result.append((status.uppercased(), schema, acceptsJSON, onlyJSON))
            }
            return result
        }

        /// The schema of the JSON media type of a `content` map, and whether it has one.
        private mutating func jsonContent(_ value: JSONValue?, at pointer: String) throws(OpenAPIContractError)
            -> (schema: Int?, acceptsJSON: Bool)
        {
            guard case .object(let content)? = value else { return (nil, false) }
            for (mediaType, media) in content where RequestContent.isJSON(mediaType) {
                let at = pointer + "/" + Self.escape(mediaType)
                guard case .object(let media) = media else {
                    throw OpenAPIContractError(pointer: at, message: "a media type is an object")
                }
                return (media["schema"] == nil ? nil : schema(at: at + "/schema"), true)
            }
            return (nil, false)
        }

        /// How a parameter's text is read: by its schema's `type` (through `$ref`s).
        private func kind(of schema: JSONValue, at pointer: String, depth: Int = 0) -> ValueKind {
            // A parameter's value is text: a few levels of arrays and objects at most (a recursive
            // schema stops here, its deeper values read as text).
            guard depth < 8 else { return .string }
            var schema = schema
            var hops = 0
            while case .object(let object) = schema, case .string(let reference)? = object["$ref"],
                reference.hasPrefix("#"), hops < 32,
                let target = Self.value(at: String(reference.dropFirst()), in: document)
            {
                schema = target
                hops += 1
            }
            guard case .object(let object) = schema else { return .string }
            let type: String?
            switch object["type"] {
            case .string(let value)?: type = value
            case .array(let values)?:
                type =
                    values.lazy.compactMap { value -> String? in
                        if case .string(let name) = value, name != "null" { return name }
                        return nil
                    }.first
            default: type = nil
            }
            switch type {
            case "integer": return .integer
            case "number": return .number
            case "boolean": return .boolean
            case "array":
                return .array(object["items"].map { kind(of: $0, at: pointer + "/items", depth: depth + 1) } ?? .string)
            case "object":
                guard case .object(let properties)? = object["properties"] else { return .object([:]) }
                var kinds: [String: ValueKind] = [:]
                for (name, property) in properties {
                    kinds[name] = kind(
                        of: property, at: pointer + "/properties/" + Self.escape(name), depth: depth + 1)
                }
                return .object(kinds)
            default: return .string
            }
        }

        /// An object, following `$ref`s within the document (components' parameters, bodies,
        /// responses and path items), with its pointer.
        private func resolve(_ value: JSONValue, at pointer: String) throws(OpenAPIContractError) -> (
            JSONObject, String
        ) {
            var value = value
            var pointer = pointer
            for _ in 0..<32 {
                guard case .object(let object) = value else {
                    throw OpenAPIContractError(pointer: pointer, message: "not an object")
                }
                guard case .string(let reference)? = object["$ref"] else { return (object, pointer) }
                guard reference.hasPrefix("#"), let target = Self.value(at: String(reference.dropFirst()), in: document)
                else {
                    throw OpenAPIContractError(
                        pointer: pointer + "/$ref", message: "\(reference) does not resolve within the document")
                }
                value = target
                pointer = String(reference.dropFirst())
            }
            throw OpenAPIContractError(pointer: pointer, message: "a chain of more than 32 $refs")
        }

        /// The value at a `$ref`'s fragment (a JSON Pointer, percent-encoded as a URI fragment may be).
        static func value(at fragment: String, in document: JSONValue) -> JSONValue? {
            document[pointer: fragment.removingPercentEncoding ?? fragment]
        }

        /// A key as a JSON Pointer token.
        static func escape(_ key: String) -> String {
            key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
        }
    }
}
