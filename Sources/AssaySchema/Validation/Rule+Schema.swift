public import AssayCore
import AssayJSON
import AssayRegex

extension Rule where Value: Encodable & Sendable {
    /// The value, encoded as JSON by `JSONValueEncoder`, is valid against `schema`: every issue the
    /// schema reports, located under the value's own path. For constraints that no typed rule states
    /// (`anyOf`, `if`/`then`/`else`, `not` …); a typed rule is faster and exports as its keyword.
    ///
    /// <!-- snippet: doc-schema-rule -->
    /// ```swift
    /// let either = try JSONSchema(parsing: #"{"anyOf": [{"maxLength": 3}, {"pattern": "^[0-9]+$"}]}"#)
    /// let code = Rule<String>.schema(either)
    /// print(code.isValid("abc"), code.isValid("12345"), code.isValid("abcd"))  // true true false
    /// ```
    ///
    /// A value that cannot be encoded as JSON (a `Double` that is not finite) fails with
    /// ``IssueCode/custom(_:)`` `notEncodable`.
    public static func schema(_ schema: JSONSchema) -> Rule {
        Rule(
            .custom("schema"), severity: .error,
            { value, context in check(value, against: schema, in: &context) },
            inputCheck: { input, context in
                guard let json = input as? JSONValue else { return }
                check(json: json, against: schema, in: &context)
            })
    }

    /// ``schema(_:)`` for code that cannot `try` — a `@Validate` attribute, a stored property's
    /// initialiser: `document` is a JSON Schema as text and `pointer` the JSON Pointer of the
    /// subschema to check against (`""` for the whole document), so that its `$ref`s into the
    /// document resolve. Compiled once, when a value is first checked; formats are asserted unless
    /// `assertingFormats` is false. A document that is not JSON, or does not compile, makes every
    /// value fail with ``IssueCode/custom(_:)`` `invalidSchema`, naming why: the mistake is seen at
    /// once, never passed over.
    public static func schema(_ document: String, at pointer: String = "", assertingFormats: Bool = true) -> Rule {
        schema(EmbeddedSchema(document, assertingFormats: assertingFormats), at: pointer)
    }

    /// ``schema(_:at:assertingFormats:)`` with a document parsed once for all its rules: what
    /// `assay generate swift` writes for the constraints that have no typed rule. With `keywords`,
    /// only those keywords of the subschema are checked (the others have typed rules of their own).
    ///
    /// The subschema is compiled when a value is first checked, together with those of every rule
    /// made from `document` by then: the rules of a generated type cost one compilation.
    public static func schema(_ document: EmbeddedSchema, at pointer: String = "", keywords: [String]? = nil) -> Rule {
        let entry = document.register(at: pointer, keywords: keywords)
        return Rule(
            .custom("schema"), severity: .error,
            { value, context in
                switch document.schema(entry) {
                case .success(let compiled): check(value, against: compiled, in: &context)
                case .failure(let error):
                    context.report(.custom("invalidSchema"), parameters: ["reason": .string("\(error)")])
                }
            },
            // A member whose elements did not all decode: its input is checked as it is.
            inputCheck: { input, context in
                guard let json = input as? JSONValue, case .success(let compiled) = document.schema(entry) else {
                    return
                }
                check(json: json, against: compiled, in: &context)
            })
    }

    private static func check(_ value: Value, against schema: JSONSchema, in context: inout RuleContext) {
        let json: JSONValue
        do {
            json = try JSONValueEncoder().encode(value)
        } catch {
            context.report(.custom("notEncodable"), parameters: ["reason": .string("\(error)")])
            return
        }
        check(json: json, against: schema, in: &context)
    }

    /// The issues of a JSON value against `schema`, under the context's path.
    private static func check(json: JSONValue, against schema: JSONSchema, in context: inout RuleContext) {
        let result = schema.validate(json)
        guard !result.isValid else { return }
        guard !result.issues.isEmpty else {
            // An invalid verdict is never dropped for want of an issue to carry it.
            context.report(.custom("schema"))
            return
        }
        let base = context.path
        context.add(
            result.issues.map { issue in
                var located = issue
                located.path = issue.path.prefixed(by: base)
                return located
            })
    }
}

extension ModelRule where Model: Encodable & Sendable {
    /// A check of the whole object against a subschema of `document` (only its `keywords`, when
    /// given): the object-level constraints of a generated type that have no typed rule (`if` /
    /// `then`, `allOf`, `dependentSchemas` …). The object is encoded as JSON by `JSONValueEncoder`;
    /// issues are located under it. When the model did not decode (a member failed), the decoder's
    /// input object is checked instead, so that these failures are reported with the members'.
    public static func schema(_ document: EmbeddedSchema, at pointer: String = "", keywords: [String]? = nil)
        -> ModelRule
    {
        let rule = Rule<Model>.schema(document, at: pointer, keywords: keywords)
        // A model that did not decode: its input (the object as parsed) is checked instead.
        let inputRule = Rule<JSONValue>.schema(document, at: pointer, keywords: keywords)
        return .check(
            "schema", { model, context in rule.check(model, in: &context) },
            input: { value, context in
                guard let object = value as? JSONValue else { return }
                inputRule.check(object, in: &context)
            })
    }
}

/// A JSON Schema document held as text in code, parsed once, whose subschemas rules check values
/// against (`Rule.schema(_:at:keywords:)`): the form generated Swift keeps its schema in.
///
/// The document is compiled once, when the first rule asks for a subschema; every rule after it
/// shares those nodes (a subschema that has no node yet, such as some keywords of a schema alone,
/// adds its own). Making one never throws: a document that is not JSON, or does not compile, is
/// kept as the reason every rule made from it fails.
public final class EmbeddedSchema: @unchecked Sendable {
    private let parsed: Result<JSONValue, SchemaCompilationError>
    private let options: JSONSchema.Options
    // Guarded by `lock`: the compiler with the document added, the subschemas asked for, and what
    // each compiled to once it was needed.
    private let lock = TryLock()
    private var compiler: SchemaCompiler?
    private var document = 0
    private var rootProblems: [SchemaProblem] = []
    private var entries: [(pointer: String, keywords: [String]?)] = []
    private var compiled: [Result<JSONSchema, SchemaCompilationError>] = []
    /// The tables over the nodes compiled so far, and how many nodes they cover: a batch that adds
    /// no node (a fragment the whole document's compilation reached) reuses them.
    private var program: TapeProgram?
    private var programNodes = 0

    /// Parses `text`; formats are asserted unless `assertingFormats` is false. `resources` are the
    /// other documents its `$ref`s reach, each under its URI (what `assay generate swift
    /// --registry` embeds beside the document): a reference to any other is a compilation error.
    public convenience init(
        _ text: String, resources: KeyValuePairs<String, String> = [:], assertingFormats: Bool = true
    ) {
        var parsed: Result<JSONValue, SchemaCompilationError>
        var registry = SchemaRegistry()
        do {
            parsed = .success(try JSONValue(parsing: Array(text.utf8)))
            for (uri, resource) in resources {
                registry.register(try JSONValue(parsing: Array(resource.utf8)), as: uri)
            }
        } catch {
            parsed = .failure(
                SchemaCompilationError(problems: [SchemaProblem(location: "", message: "not valid JSON: \(error)")]))
        }
        self.init(parsed: parsed, registry: registry, assertingFormats: assertingFormats)
    }

    /// A document already parsed (the generator checks what the generated code will compile), its
    /// remote references resolved from `registry`.
    package convenience init(
        _ document: JSONValue, registry: SchemaRegistry = SchemaRegistry(), assertingFormats: Bool = true
    ) {
        self.init(parsed: .success(document), registry: registry, assertingFormats: assertingFormats)
    }

    private init(parsed: Result<JSONValue, SchemaCompilationError>, registry: SchemaRegistry, assertingFormats: Bool) {
        self.parsed = parsed
        var options = JSONSchema.Options(assertFormats: assertingFormats)
        options.registry = registry
        self.options = options
    }

    /// The documents other than this one that its compiled subschemas reached through `$ref`s (from
    /// the registry; the metaschemas Assay bundles left out), by URI, in the order they were loaded.
    package func loadedResources() -> [(uri: String, document: JSONValue)] {
        lock.withLock {
            guard let compiler else { return [] }
            return compiler.documentsAdded.filter { entry in
                entry.uri != Self.documentURI && BundledMetaschemas.document(for: entry.uri) == nil
            }
        }
    }

    static let documentURI = "urn:assay:embedded-schema"

    /// Asks for the subschema at `pointer` (only its `keywords`, when given); compiled by
    /// ``schema(_:)``. Returns the entry's number.
    package func register(at pointer: String, keywords: [String]? = nil) -> Int {
        lock.withLock {
            entries.append((pointer, keywords))
            return entries.count - 1
        }
    }

    /// The subschema of a registered entry, with its references into the document resolved.
    /// The first call compiles the whole document and every entry registered by then, sharing one
    /// set of nodes and tables; later entries are compiled in batches the same way.
    package func schema(_ entry: Int) -> Result<JSONSchema, SchemaCompilationError> {
        lock.withLock {
            if entry >= compiled.count { compilePending() }
            return compiled[entry]
        }
    }

    /// ``register(at:keywords:)`` and ``schema(_:)`` at once.
    package func compile(at pointer: String, keywords: [String]? = nil) -> Result<JSONSchema, SchemaCompilationError> {
        schema(register(at: pointer, keywords: keywords))
    }

    /// Compiles the entries not compiled yet (under the lock).
    private func compilePending() {
        let pending = compiled.count..<entries.count
        let document: JSONValue
        switch parsed {
        case .failure(let error):
            compiled += pending.map { _ in .failure(error) }
            return
        case .success(let value): document = value
        }
        let compiler: SchemaCompiler
        if let existing = self.compiler {
            compiler = existing
        } else {
            compiler = SchemaCompiler(options: options)
            self.document = compiler.addDocument(document, uri: Self.documentURI)
            _ = compiler.node(at: .init(document: self.document, pointer: ""))
            compiler.drain()
            rootProblems = compiler.problems
            self.compiler = compiler
        }
        guard rootProblems.isEmpty else {
            compiled += pending.map { _ in .failure(SchemaCompilationError(problems: rootProblems)) }
            return
        }
        var nodes: [Int] = []
        var problems: [[SchemaProblem]] = []
        // Each entry drained on its own, so that a problem is told to the entry that has it.
        for index in pending {
            let location = SchemaCompiler.Location(document: self.document, pointer: entries[index].pointer)
            let before = compiler.problems.count
            let keywords = entries[index].keywords
            nodes.append(keywords.map { compiler.node(at: location, keywords: $0) } ?? compiler.node(at: location))
            compiler.drain()
            problems.append(Array(compiler.problems[before...]))
        }
        let shared: TapeProgram
        if let existing = program, programNodes == compiler.nodes.count {
            shared = existing
        } else {
            shared = TapeProgram(nodes: compiler.nodes, root: nodes.first ?? 0, options: options)
            program = shared
            programNodes = compiler.nodes.count
        }
        for (node, found) in zip(nodes, problems) {
            compiled.append(
                found.isEmpty
                    ? .success(JSONSchema(nodes: compiler.nodes, root: node, options: options, program: shared))
                    : .failure(SchemaCompilationError(problems: found)))
        }
    }
}
