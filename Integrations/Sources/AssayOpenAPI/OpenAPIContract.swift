import AssayCLI
import AssayCore
public import AssayJSON
import AssaySchema
public import HTTPTypes

/// An OpenAPI 3.0 or 3.1 document compiled for checking requests and responses: for each
/// operation (by `operationId`), the schemas of its JSON request body, its path, query and header
/// parameters, and its JSON responses by status.
///
/// The document is the one `assay generate swift` reads: load it once and share it with
/// ``AssayServerMiddleware`` and ``AssayClientMiddleware``. Its schemas are compiled with
/// AssaySchema, formats asserted, `$ref`s into `components` resolved; an OpenAPI 3.0 schema's
/// `nullable` and boolean `exclusiveMinimum`/`exclusiveMaximum` are read as 3.0 defines them.
public struct OpenAPIContract: Sendable {
    /// Where a parameter is.
    enum Location: String, Sendable {
        case path, query, header, cookie
    }

    /// How a parameter's text becomes a JSON value before its schema is checked.
    indirect enum ValueKind: Sendable {
        case string, integer, number, boolean
        case array(ValueKind)
        /// An object: its properties' kinds, by name (a property not named is read as text).
        case object([String: ValueKind])
        /// A parameter with `content` (not `schema`): its text is a JSON document.
        case json
    }

    /// How a parameter's values are written (OpenAPI's `style`).
    enum Style: String, Sendable {
        case form, simple, label, matrix, spaceDelimited, pipeDelimited, deepObject
    }

    /// A parameter of an operation.
    struct Parameter: Sendable {
        var name: String
        var location: Location
        var required: Bool
        var schema: JSONSchema?
        var kind: ValueKind
        var style: Style
        /// OpenAPI's `explode`: an array's values (an object's properties) written as separate
        /// parameters (`id=1&id=2`), or in one (`id=1,2`).
        var explode: Bool
    }

    /// What an operation accepts as its body.
    struct RequestBody: Sendable {
        var required: Bool
        /// The schema of the JSON content; `nil` when the JSON content has no schema.
        var schema: JSONSchema?
        /// Whether the operation accepts JSON at all (else the body is the generated code's to read).
        var acceptsJSON: Bool
        /// Whether JSON is the only media type it accepts.
        var acceptsOnlyJSON: Bool
    }

    /// One operation.
    struct Operation: Sendable {
        var id: String
        /// The path template (`/clients/{id}`).
        var path: String
        /// `get`, `post` …
        var method: String
        var parameters: [Parameter]
        var requestBody: RequestBody?
        /// Each response, by `200`, `2XX` or `default`.
        var responses: [String: Response]

        /// The response of `status`: its own, its range's (`2XX`), or `default`'s.
        func response(for status: Int) -> Response? {
            responses[String(status)] ?? responses["\(status / 100)XX"] ?? responses["default"]
        }
    }

    /// What a response of a status may hold.
    struct Response: Sendable {
        /// The schema of its JSON content; `nil` when that content has no schema.
        var schema: JSONSchema?
        /// Whether it may be JSON (else its body is not checked).
        var acceptsJSON: Bool
        /// Whether JSON is all it may be (a body of another media type is then an error).
        var acceptsOnlyJSON: Bool
    }

    let operations: [String: Operation]

    /// The `operationId`s of the document's operations, sorted.
    public var operationIDs: [String] { operations.keys.sorted() }

    /// Compiles the document's operations.
    ///
    /// - Throws: ``OpenAPIContractError`` naming the place: not an OpenAPI 3 document, an
    ///   operation without an `operationId` or with one used twice, a `$ref` that does not
    ///   resolve, a schema that does not compile.
    public init(document: JSONValue) throws(OpenAPIContractError) {
        guard case .object(let root) = document, case .string(let version)? = root["openapi"],
            version.hasPrefix("3.")
        else { throw OpenAPIContractError(pointer: "", message: "not an OpenAPI 3.0 or 3.1 document") }
        let isVersion30 = version.hasPrefix("3.0")
        let document = isVersion30 ? Self.readingVersion30Schemas(document) : document
        var reader = Reader(document: document)
        operations = try reader.operations()
    }

    /// Reads and compiles the document in a file: JSON, or YAML when its name ends in `.yaml` or
    /// `.yml`, as the `assay` command reads it.
    ///
    /// - Throws: ``OpenAPIContractError``: the file cannot be read or is not JSON or YAML, or see
    ///   ``init(document:)``.
    public init(contentsOf path: String) throws(OpenAPIContractError) {
        let document: JSONValue
        do throws(CLIError) {
            document = try SchemaFile.read(path)
        } catch {
            throw OpenAPIContractError(pointer: "", message: error.message)
        }
        try self.init(document: document)
    }

    /// Each path of the document (`/clients/{id}`) with the methods it has, sorted by path: what
    /// AssayHummingbird's `MethodNotAllowedMiddleware` takes, to answer another method with 405.
    public var routes: [(path: String, methods: [HTTPRequest.Method])] {
        var methods: [String: [HTTPRequest.Method]] = [:]
        for operation in operations.values {
            if let method = HTTPRequest.Method(operation.method.uppercased()) {
                methods[operation.path, default: []].append(method)
            }
        }
        return methods.keys.sorted().map { path in (path, methods[path]!.sorted { $0.rawValue < $1.rawValue }) }
    }

    /// Whether the contract has the operation.
    public func hasOperation(_ operationID: String) -> Bool { operations[operationID] != nil }

    /// The document with its OpenAPI 3.0 schemas in 2020-12's words: `nullable: true` beside a
    /// `type` adds `"null"` to it (and to an `enum`), and a boolean `exclusiveMinimum` or
    /// `exclusiveMaximum` becomes the bound itself; data (`enum`, `const`, `default`, examples) is
    /// left as it is. Linear in the document (without recursion).
    static func readingVersion30Schemas(_ document: JSONValue) -> JSONValue {
        func rewritten(_ object: JSONObject) -> JSONObject {
            var object = object
            if object["nullable"] == .bool(true) {
                if case .string(let type)? = object["type"] { object["type"] = [.string(type), "null"] }
                if case .array(var values)? = object["enum"], !values.contains(.null) {
                    values.append(.null)
                    object["enum"] = .array(values)
                }
            }
            for (exclusive, bound) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
                guard case .bool(let isExclusive)? = object[exclusive] else { continue }
                if isExclusive, let value = object[bound] {
                    object[exclusive] = value
                    object[bound] = nil
                } else {
                    object[exclusive] = nil
                }
            }
            return object
        }
        // Post-order without recursion: a frame per container, each child rebuilt before its
        // parent takes it back. Values that are data, not schemas (`enum`, `const`, `default`,
        // examples), are left as they are; the members of a map of named schemas (`properties`,
        // `components.schemas` …) are schemas whatever their names.
        let dataKeys: Set<String> = ["enum", "const", "default", "example", "examples"]
        let nameMapKeys: Set<String> = [
            "properties", "patternProperties", "dependentSchemas", "$defs", "definitions", "schemas",
        ]
        enum Frame {
            case object(JSONObject, keys: [String], next: Int, names: Bool)
            case array([JSONValue], next: Int)

            init?(_ value: JSONValue?, names: Bool = false) {
                switch value {
                case .object(let object)?: self = .object(object, keys: object.keys, next: 0, names: names)
                case .array(let values)?: self = .array(values, next: 0)
                default: return nil
                }
            }
        }
        func descends(into value: JSONValue?) -> Bool {
            switch value {
            case .object?, .array?: true
            default: false
            }
        }
        guard let first = Frame(document) else { return document }
        var stack = [first]
        while let frame = stack.popLast() {
            let finished: JSONValue
            switch frame {
            case .object(let object, let keys, let next, let names):
                let child = keys[next...].firstIndex { key in
                    (names || !dataKeys.contains(key)) && descends(into: object[key])
                }
                if let child {
                    stack.append(.object(object, keys: keys, next: child + 1, names: names))
                    stack.append(Frame(object[keys[child]], names: !names && nameMapKeys.contains(keys[child]))!)
                    continue
                }
                finished = .object(names ? object : rewritten(object))
            case .array(let values, let next):
                if let child = values[next...].firstIndex(where: descends(into:)) {
                    stack.append(.array(values, next: child + 1))
                    stack.append(Frame(values[child])!)
                    continue
                }
                finished = .array(values)
            }
            guard let parent = stack.popLast() else { return finished }
            switch parent {
            case .object(var object, let keys, let next, let names):
                object[keys[next - 1]] = finished
                stack.append(.object(object, keys: keys, next: next, names: names))
            case .array(var values, let next):
                values[next - 1] = finished
                stack.append(.array(values, next: next))
            }
        }
        return document
    }
}

/// Why an OpenAPI document cannot be used: what and where.
public struct OpenAPIContractError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The JSON Pointer of the place at fault (`""` for the document).
    public var pointer: String
    /// What is wrong.
    public var message: String

    /// Makes an error.
    public init(pointer: String, message: String) {
        self.pointer = pointer
        self.message = message
    }

    /// `#/pointer: message`.
    public var description: String { "#\(pointer): \(message)" }
}
