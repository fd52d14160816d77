public import AssayJSON
public import AssaySchema
import Foundation

/// Turns a JSON Schema (draft 7 or 2020-12), or the `components.schemas` of an OpenAPI 3.0 or 3.1
/// document, into `@Validatable` Swift types whose rules are the schema's constraints.
///
/// <!-- snippet: doc-swift-generator -->
/// ```swift
/// let schema = try JSONValue(
///     parsing: Array(
///         #"""
///         {"title": "Client", "type": "object", "required": ["name", "age"],
///          "properties": {"name": {"type": "string", "minLength": 2},
///                         "age": {"type": "integer", "minimum": 1, "maximum": 150}}}
///         """#.utf8))
/// let generated = try SwiftGenerator.generate(schema, options: SwiftGeneratorOptions(sourceName: "client.json"))
/// print(generated.source.contains("@Validate(.range(1...150))"))  // true
/// ```
///
/// Each named schema (`$defs`, `definitions`, OpenAPI components) that is an object, and the root,
/// becomes a `Codable`, `Sendable`, `Hashable` struct; a string `enum` becomes a Swift enum; a
/// `oneOf` or `anyOf` whose alternatives cannot overlap (each of another JSON type, or objects told
/// apart by a member with a constant value of its own) becomes an enum with a case per alternative;
/// a root of another kind becomes a `ValidatedValue` wrapper of its value (a `typealias` when it has
/// no constraint). The output is deterministic: the same document and options give the same text,
/// byte for byte.
///
/// **Nothing is dropped silently.** A constraint with no typed rule (`not`, an `anyOf` whose
/// alternatives overlap, `if`/`then`, `contains`, `patternProperties` …) is checked against its
/// own schema with AssaySchema when a value is decoded: the file then embeds the document, and each such place is reported in
/// ``GeneratedSwift/notes``. What has no Swift form at all (a `$ref` that does not resolve, two keys
/// for one Swift name) is refused with a ``SwiftGenerationError`` naming it and its place; a struct
/// that holds itself holds that value in an `Indirect` box.
public enum SwiftGenerator {
    /// Generates the Swift source of the document's types.
    ///
    /// - Throws: ``SwiftGenerationError`` naming the construct and its JSON Pointer when the document
    ///   is not a schema, a `$ref` does not resolve, two names map to one Swift identifier, or a
    ///   schema checked with AssaySchema does not compile.
    public static func generate(_ document: JSONValue, options: SwiftGeneratorOptions = SwiftGeneratorOptions())
        throws(SwiftGenerationError) -> GeneratedSwift
    {
        // The reading recurses once a level of nesting (at most 200 levels, about 40 KB each in a
        // debug build): on a thread of its own whose stack holds that, whichever thread calls.
        let outcome = ReadingOutcome()
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            outcome.result = Result { () throws(SwiftGenerationError) in try generateHere(document, options: options) }
            finished.signal()
        }
        thread.stackSize = 1 << 26
        thread.start()
        finished.wait()
        return try outcome.result.get()
    }

    private static func generateHere(_ document: JSONValue, options: SwiftGeneratorOptions)
        throws(SwiftGenerationError) -> GeneratedSwift
    {
        // A `$ref` to the document itself by its `$id` is followed as a pointer into it.
        let document = SchemaReader.referencingItselfByFragment(document)
        var reader = SchemaReader(document: document, options: options)
        try reader.read()
        let embedded = reader.fallbacks.isEmpty ? nil : document.jsonString(.prettyPrinted)
        let resources = reader.resources.map { ($0.uri, $0.document.jsonString(.prettyPrinted)) }
        let source = SwiftRenderer(options: options).render(reader.types, document: embedded, resources: resources)
        // A place reached twice (a definition refused from two places) is noted once.
        var noted: Set<String> = []
        let notes = reader.notes.filter { noted.insert($0).inserted }
        return GeneratedSwift(
            source: source, typeNames: reader.types.map(\.name), rootTypeName: reader.rootTypeName, notes: notes)
    }
}

/// What the generating thread hands back: written by it before it signals, read after the wait.
private final class ReadingOutcome: @unchecked Sendable {
    var result: Result<GeneratedSwift, SwiftGenerationError> = .failure(
        SwiftGenerationError(pointer: "", message: "not generated"))
}

/// How ``SwiftGenerator`` names and declares the types.
public struct SwiftGeneratorOptions: Sendable {
    /// The access level of the declarations.
    public enum AccessLevel: String, Sendable, CaseIterable {
        /// `public` types, properties and initialisers (for a library).
        case `public`
        /// `internal`: no modifier written.
        case `internal`
    }

    /// The access level of every declaration; `public` by default.
    public var access: AccessLevel
    /// Put before every type's name (`API` makes `APIClient`); empty by default.
    public var typePrefix: String
    /// The name of the root's type when the root has no `title` (`Root` when `nil`).
    public var rootName: String?
    /// The document's name, written in the header of the generated file; none when `nil`.
    public var sourceName: String?
    /// Where `$ref`s to other documents are read from (offline): the documents the generated code
    /// checks values against are embedded in the file beside this one. Empty by default: such a
    /// `$ref` is then an error.
    public var registry: SchemaRegistry

    /// Makes options; every argument has the default described on its property.
    public init(
        access: AccessLevel = .public, typePrefix: String = "", rootName: String? = nil, sourceName: String? = nil,
        registry: SchemaRegistry = SchemaRegistry()
    ) {
        self.access = access
        self.typePrefix = typePrefix
        self.rootName = rootName
        self.sourceName = sourceName
        self.registry = registry
    }
}

/// The generated source, with the names of its types and the notes on constraints expressed only in
/// part.
public struct GeneratedSwift: Sendable, Equatable {
    /// The Swift file.
    public var source: String
    /// The names of the types declared, in the order they are declared.
    public var typeNames: [String]
    /// The type of the document's root schema; `nil` for a document that only holds definitions
    /// (or an OpenAPI document).
    public var rootTypeName: String?
    /// One line per place where a constraint is checked against its schema rather than by a typed
    /// rule, or read in a way worth knowing, with its JSON Pointer.
    public var notes: [String]
}

/// Why a document has no generated Swift: the construct and where it is.
public struct SwiftGenerationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The JSON Pointer of the schema at fault (`""` for the root).
    public var pointer: String
    /// What is wrong, naming the keyword or construct.
    public var message: String
    /// The construct has no typed Swift form, but the schema has a meaning: the generator checks
    /// values against that schema with AssaySchema instead of refusing the document.
    var fallsBack = false

    /// Makes an error.
    public init(pointer: String, message: String) {
        self.pointer = pointer
        self.message = message
    }

    /// A construct with no typed Swift form, checked with AssaySchema instead.
    static func unsupported(pointer: String, message: String) -> SwiftGenerationError {
        var error = SwiftGenerationError(pointer: pointer, message: message)
        error.fallsBack = true
        return error
    }

    /// `#/pointer: message`.
    public var description: String { "#\(pointer): \(message)" }
}
