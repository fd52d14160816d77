import AssayCore
import AssayJSON
import AssayRegex

/// A compiled JSON Schema: compile once, then validate any number of instances from any number of
/// threads at once.
///
/// <!-- snippet: doc-json-schema -->
/// ```swift
/// let schema = try JSONSchema(parsing: #"{"type": "object", "required": ["name"]}"#)
/// let result = schema.validate(try JSONValue(parsing: #"{"age": 3}"#))
/// print(result.isValid)  // false
/// print(result.errors[0].message)  // Name is required
/// ```
///
/// Compilation resolves every `$ref` (remote ones through ``Options/registry``, never the network),
/// compiles every pattern with the linear-time engine, and reports every problem of an invalid
/// schema at once in a ``SchemaCompilationError``.
public struct JSONSchema: Sendable {
    /// How schemas are compiled and instances validated.
    public struct Options: Sendable {
        /// The dialect of schemas without `$schema`; 2020-12 unless you say otherwise.
        public var defaultDialect: SchemaDialect
        /// Whether `format` is an assertion (`email` must be an email) rather than an annotation.
        /// The specification makes formats annotations by default; so does Assay's library API. The
        /// `assay` command line asserts them by default.
        public var assertFormats: Bool
        /// Where remote references resolve from.
        public var registry: SchemaRegistry
        /// How deeply schemas may nest (hostile schemas cannot exhaust the stack).
        public var maximumSchemaDepth: Int
        /// How many schemas may be applied to the same instance through references and in-place
        /// applicators before evaluation stops with an error (`{"$ref": "#"}` loops forever otherwise).
        public var maximumReferenceDepth: Int
        /// How deeply nested an instance may be: deeper values fail with a `malformed` error instead
        /// of exhausting the stack. The JSON parser's own limit (512) is below it by default.
        public var maximumInstanceDepth: Int
        /// What an asserted `format` that Assay does not know means (with ``assertFormats``):
        /// ``UnknownFormatPolicy/ignore`` (the default, as the specification has it: the value
        /// passes) or ``UnknownFormatPolicy/reject`` (a schema error naming the format and the
        /// nearest known one, so a typo such as `date_time` cannot pass everything).
        public var unknownFormats: UnknownFormatPolicy
        /// The largest automaton a `pattern`, `patternProperties` name or `format: "regex"` value may
        /// compile to, in instructions (AssayCore's `LinearRegex.defaultMaximumProgramSize`, 10,000, by
        /// default): a match costs at most this much per character.
        public var maximumPatternSize: Int
        /// How many schemas evaluation may apply to one document (each schema applied to each value
        /// counts one) before it stops with a `malformed` error: the document is then not validated.
        /// `nil`, the default, allows 1,000 per value of the document and at least 10 million, far
        /// above what any schema needs that does not re-apply itself exponentially (results of the
        /// same schema on the same value are reused once evaluation runs long, which keeps such
        /// schemas polynomial where no dynamic reference is involved).
        public var maximumEvaluationSteps: Int?

        /// Options with the defaults: 2020-12, formats as annotations, an empty registry.
        public init(
            defaultDialect: SchemaDialect = .draft2020_12, assertFormats: Bool = false,
            registry: SchemaRegistry = SchemaRegistry(), maximumSchemaDepth: Int = 512,
            maximumReferenceDepth: Int = 256,
            maximumInstanceDepth: Int = 1_000, unknownFormats: UnknownFormatPolicy = .ignore,
            maximumPatternSize: Int = LinearRegex.defaultMaximumProgramSize, maximumEvaluationSteps: Int? = nil
        ) {
            self.maximumEvaluationSteps = maximumEvaluationSteps
            self.maximumInstanceDepth = maximumInstanceDepth
            self.unknownFormats = unknownFormats
            self.maximumPatternSize = maximumPatternSize
            self.defaultDialect = defaultDialect
            self.assertFormats = assertFormats
            self.registry = registry
            self.maximumSchemaDepth = maximumSchemaDepth
            self.maximumReferenceDepth = maximumReferenceDepth
        }
    }

    let nodes: [SchemaNode]
    let root: Int
    let options: Options
    /// Each node's keywords as flat tables for both evaluators, in one object shared by copies of
    /// the schema.
    let program: TapeProgram

    /// The dialect of the root schema.
    public var dialect: SchemaDialect { nodes[root].dialect }

    /// The root schema's absolute URI (its `$id`, or the `uri` it was compiled with).
    public var uri: String { nodes[root].resourceURI }

    /// The URI given to schemas compiled without one and without an `$id`.
    public static let defaultURI = "urn:assay:schema"

    /// Compiles `schema`.
    ///
    /// - Parameters:
    ///   - schema: the schema document.
    ///   - uri: the schema's retrieval URI, used as its base when it has no `$id`.
    ///   - options: the default dialect, format assertion, the registry and the limits.
    /// - Throws: ``SchemaCompilationError`` listing every problem found.
    public init(_ schema: JSONValue, uri: String = JSONSchema.defaultURI, options: Options = Options())
        throws(SchemaCompilationError)
    {
        try self.init(schema, at: "", uri: uri, options: options)
    }

    /// A schema that shares the nodes and tables of others compiled with it, from another root.
    init(nodes: [SchemaNode], root: Int, options: Options, program: TapeProgram) {
        self.nodes = nodes
        self.root = root
        self.options = options
        self.program = program
    }

    /// Compiles the subschema of `document` at the JSON Pointer `pointer` (`""` for the whole
    /// document): the document is added under `uri`, so that the subschema's `$ref`s into the rest of
    /// it resolve.
    ///
    /// - Throws: ``SchemaCompilationError`` listing every problem found, a pointer that reaches no
    ///   schema among them.
    public init(
        _ document: JSONValue, at pointer: String, uri: String = JSONSchema.defaultURI, options: Options = Options()
    )
        throws(SchemaCompilationError)
    {
        self = try Self.compile(document, at: [pointer], uri: uri, options: options)[0]
    }

    /// Compiles the subschemas of `document` at each of `pointers` in one compilation: the document
    /// is added once and the subschemas share their nodes and tables (an OpenAPI document's request
    /// and response schemas, which refer to the same components). Linear in the document and the
    /// subschemas reached, however many pointers.
    ///
    /// - Returns: A schema per pointer, in their order.
    /// - Throws: ``SchemaCompilationError`` listing every problem found, a pointer that reaches no
    ///   schema among them.
    public static func compile(
        _ document: JSONValue, at pointers: [String], uri: String = JSONSchema.defaultURI,
        options: Options = Options()
    ) throws(SchemaCompilationError) -> [JSONSchema] {
        let compiler = SchemaCompiler(options: options)
        let added = compiler.addDocument(document, uri: uri)
        let roots = pointers.map { compiler.node(at: .init(document: added, pointer: $0)) }
        compiler.drain()
        guard compiler.problems.isEmpty else { throw SchemaCompilationError(problems: compiler.problems) }
        guard let first = roots.first else { return [] }
        let program = TapeProgram(nodes: compiler.nodes, root: first, options: options)
        return roots.map { JSONSchema(nodes: compiler.nodes, root: $0, options: options, program: program) }
    }

    /// Parses and compiles a schema written as JSON text.
    ///
    /// - Throws: ``SchemaCompilationError`` (a JSON syntax error is reported as its one problem).
    public init(parsing text: String, uri: String = JSONSchema.defaultURI, options: Options = Options())
        throws(SchemaCompilationError)
    {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: text)
        } catch {
            throw SchemaCompilationError(problems: [SchemaProblem(location: uri, message: "not valid JSON: \(error)")])
        }
        try self.init(value, uri: uri, options: options)
    }

    /// Whether `instance` is valid: stops at the first failure, builds no error records.
    ///
    /// The value is written to a parsed document first (a `JSONDocument`) and read as one, so every
    /// form of instance gets the same verdicts and errors from the same evaluator.
    public func isValid(_ instance: JSONValue) -> Bool {
        guard let document = JSONDocument(writing: instance) else { return false }
        return isValid(document)
    }

    /// Validates `instance`, collecting errors up to `limit` (all by default).
    public func validate(_ instance: JSONValue, limit: ErrorLimit = .all) -> SchemaValidationResult {
        guard let document = JSONDocument(writing: instance) else { return tooDeep(instance) }
        return validate(document, limit: limit)
    }

    /// Whether `document` is valid, read in place: stops at the first failure, builds no error
    /// records and no value.
    public func isValid(_ document: JSONDocument) -> Bool {
        // `self` keeps the program alive for this call, which the evaluator does not outlive. (The
        // evaluator is made here, not in a closure, which copied it.)
        var evaluator = SchemaEvaluator<VerdictMode>(program: program, entry: root)
        let valid = evaluator.run(document.root)
        withExtendedLifetime(program) {}
        return valid
    }

    /// Validates a parsed document, collecting errors up to `limit`. The document is read in place:
    /// a valid one is settled without building any value, and only the failing values of an invalid
    /// one are built, for their errors.
    public func validate(_ document: JSONDocument, limit: ErrorLimit = .all) -> SchemaValidationResult {
        // Most documents are valid: a first pass that records nothing and stops at the first failure
        // settles them; only an invalid one is evaluated again, collecting its errors.
        if isValid(document) { return SchemaValidationResult(isValid: true, errors: []) }
        var evaluator = SchemaEvaluator<ErrorMode>(program: program, entry: root, limit: limit.maximum)
        let valid = evaluator.run(document.root)
        withExtendedLifetime(program) {}
        return SchemaValidationResult(
            isValid: valid, errors: evaluator.errors, isTruncated: !valid && evaluator.reachedLimit)
    }

    /// `instance`'s evaluation in the 2020-12 `verbose` output format: one unit per schema and per
    /// keyword applied, passing ones included, nested as evaluation went (through `$ref`s and into
    /// properties and items), each with `valid`, `keywordLocation`, `absoluteKeywordLocation` and
    /// `instanceLocation`; a failed assertion adds `code` and `error` (in `language`), an annotation
    /// keyword (`title`, `description`, `default`, `examples`, `format`, `deprecated`, `readOnly`,
    /// `writeOnly`, `content*`) of a schema that passed adds `annotation`. Nested units are under
    /// `errors` when a unit failed and `annotations` when it passed.
    ///
    /// Unlike ``validate(_:limit:)-(JSONValue,_)``, every keyword is evaluated and every subschema that
    /// `anyOf`, `oneOf`, `not`, `if`, `contains` and `propertyNames` try keeps its units, so this is
    /// for explaining one instance (in a form builder, a debugger, a test), not for bulk validation.
    public func verboseOutput(for instance: JSONValue, language: Language = .current) -> JSONValue {
        output(.verbose, for: instance, language: language)
    }

    /// `document`'s evaluation in one of the 2020-12 output formats, with messages in `language`.
    ///
    /// `flag` is the verdict alone. `basic` and `detailed` are the root unit (`valid`,
    /// `keywordLocation`, `absoluteKeywordLocation`, `instanceLocation`) with, for an invalid
    /// document, its errors (as ``SchemaValidationResult/output(_:language:)`` gives them, up to
    /// `limit`, nested causes counted) and, for a valid one, its annotations (`title`, `description`, `default`,
    /// `readOnly`… of every schema that passed, as `annotations` units). `verbose` is
    /// ``verboseOutput(for:language:)``'s. Annotations and the verbose form come from evaluating
    /// every keyword, so this is for explaining one document, not for bulk validation.
    public func output(
        _ format: SchemaOutputFormat, for document: JSONDocument, language: Language = .current,
        limit: ErrorLimit = .all
    ) -> JSONValue {
        let result = format == .verbose || format == .flag ? nil : validate(document, limit: limit)
        return output(format, for: document, language: language, result: result)
    }

    /// ``output(_:for:language:limit:)-(_,JSONDocument,_,_)`` for a document already validated into
    /// `result` (the command line validates each document once; `nil` for `verbose`).
    package func output(
        _ format: SchemaOutputFormat, for document: JSONDocument, language: Language, result: SchemaValidationResult?
    ) -> JSONValue {
        switch format {
        case .flag:
            return .object(["valid": .bool(result?.isValid ?? isValid(document))])
        case .basic, .detailed:
            let result = result ?? validate(document)
            guard result.isValid else {
                var output = result.output(format == .basic ? .basic : .detailed, language: language)
                if case .object(var root) = output {
                    root["absoluteKeywordLocation"] = .string(nodes[self.root].absoluteLocation(of: ""))
                    output = .object(root)
                }
                return output
            }
            let traced = trace(document)
            var root = JSONObject()
            root["valid"] = true
            root["keywordLocation"] = ""
            root["absoluteKeywordLocation"] = .string(nodes[self.root].absoluteLocation(of: ""))
            root["instanceLocation"] = ""
            let annotations = traced.root?.annotationUnits() ?? []
            if !annotations.isEmpty { root["annotations"] = .array(annotations) }
            return .object(root)
        case .verbose:
            let traced = trace(document)
            return traced.root?.json(language) ?? .object(["valid": .bool(traced.valid)])
        }
    }

    /// `instance`'s evaluation in one of the 2020-12 output formats: see
    /// ``output(_:for:language:limit:)-(_,JSONDocument,_,_)``.
    public func output(
        _ format: SchemaOutputFormat, for instance: JSONValue, language: Language = .current,
        limit: ErrorLimit = .all
    ) -> JSONValue {
        guard let document = JSONDocument(writing: instance) else {
            return tooDeep(instance).output(format == .detailed ? .detailed : .basic, language: language)
        }
        return output(format, for: document, language: language, limit: limit)
    }

    /// ``output(_:for:language:limit:)-(_,JSONValue,_,_)`` for a value already validated into `result`.
    package func output(
        _ format: SchemaOutputFormat, for instance: JSONValue, language: Language, result: SchemaValidationResult?
    ) -> JSONValue {
        guard let document = JSONDocument(writing: instance) else {
            return (result ?? tooDeep(instance)).output(format == .detailed ? .detailed : .basic, language: language)
        }
        return output(format, for: document, language: language, result: result)
    }

    /// Every schema and keyword applied to `document`, as ``SchemaEvaluator`` traces them.
    private func trace(_ document: JSONDocument) -> (valid: Bool, root: TraceUnit?) {
        withExtendedLifetime(program) {
            var evaluator = SchemaEvaluator<TraceMode>(program: program, entry: root, limit: Int.max)
            let valid = evaluator.run(document.root)
            return (valid, evaluator.tracedRoot)
        }
    }

    /// The result for a value nested deeper than a parsed document may be: not validated.
    private func tooDeep(_ instance: JSONValue) -> SchemaValidationResult {
        let limit = min(options.maximumInstanceDepth, JSONParserOptions.maximumAllowedDepth)
        let error = SchemaError(
            instanceLocation: IssuePath([]), keywordLocation: "",
            absoluteKeywordLocation: nodes[root].absoluteLocation(of: ""),
            keyword: "", code: .malformed, messageKey: "malformed",
            parameters: ["detail": .string("the value is nested more than \(limit) levels deep")],
            failing: .value(instance.excerpt()))
        return SchemaValidationResult(isValid: false, errors: [error])
    }
}

/// How many errors ``JSONSchema/validate(_:limit:)-(JSONValue,_)`` collects.
public struct ErrorLimit: Sendable, Hashable {
    enum Kind: Hashable { case all, first(Int) }
    let kind: Kind

    /// The most errors kept (at least one).
    var maximum: Int {
        switch kind {
        case .all: return Int.max
        case .first(let count): return max(1, count)
        }
    }

    /// Every error.
    public static let all = ErrorLimit(kind: .all)
    /// Stop at the first error (fail fast).
    public static let failFast = ErrorLimit(kind: .first(1))
    /// At most `count` errors.
    public static func first(_ count: Int) -> ErrorLimit { ErrorLimit(kind: .first(count)) }
}

/// One problem of a schema that does not compile.
public struct SchemaProblem: Sendable, Hashable, CustomStringConvertible {
    /// Where: the absolute URI of the keyword (`https://example.com/s.json#/properties/age/minimum`).
    public let location: String
    /// What is wrong, in English (schema authors are developers).
    public let message: String

    /// A problem at `location`.
    public init(location: String, message: String) {
        self.location = location
        self.message = message
    }

    /// `location: message`.
    public var description: String { "\(location): \(message)" }
}

/// A schema that does not compile, with every problem found.
public struct SchemaCompilationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problems, in the order found.
    public let problems: [SchemaProblem]

    /// One line per problem.
    public var description: String {
        "the schema does not compile (\(problems.count) \(problems.count == 1 ? "problem" : "problems")):\n"
            + problems.map { "  " + $0.description }.joined(separator: "\n")
    }
}

/// What an asserted `format` Assay does not know means.
public enum UnknownFormatPolicy: Sendable, Hashable {
    /// The value passes (the specification's rule: unknown formats are annotations).
    case ignore
    /// The schema does not compile: a problem names the format and suggests the nearest known one.
    case reject
}
