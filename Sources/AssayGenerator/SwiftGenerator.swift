public import AssayJSON

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
/// Each named schema (`$defs`, `definitions`, OpenAPI components) and the root, when it is an object,
/// becomes a `Codable`, `Sendable`, `Hashable` struct; a string `enum` becomes a Swift enum. The output
/// is deterministic: the same document and options give the same text, byte for byte.
///
/// **Nothing is dropped silently.** A keyword the generator cannot express is refused with a
/// ``SwiftGenerationError`` naming it and its place; a constraint it expresses only in part is
/// reported in ``GeneratedSwift/notes``.
public enum SwiftGenerator {
    /// Generates the Swift source of the document's types.
    ///
    /// - Throws: ``SwiftGenerationError`` naming the construct and its JSON Pointer when the document
    ///   is not a schema, a `$ref` does not resolve, two names map to one Swift identifier, a type
    ///   would contain itself, or a keyword has no Swift form yet.
    public static func generate(_ document: JSONValue, options: SwiftGeneratorOptions = SwiftGeneratorOptions())
        throws(SwiftGenerationError) -> GeneratedSwift
    {
        var reader = SchemaReader(document: document, options: options)
        try reader.read()
        let source = SwiftRenderer(options: options).render(reader.types)
        return GeneratedSwift(source: source, typeNames: reader.types.map(\.name), notes: reader.notes)
    }
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

    /// Makes options; every argument has the default described on its property.
    public init(
        access: AccessLevel = .public, typePrefix: String = "", rootName: String? = nil, sourceName: String? = nil
    ) {
        self.access = access
        self.typePrefix = typePrefix
        self.rootName = rootName
        self.sourceName = sourceName
    }
}

/// The generated source, with the names of its types and the notes on constraints expressed only in
/// part.
public struct GeneratedSwift: Sendable, Equatable {
    /// The Swift file.
    public var source: String
    /// The names of the types declared, in the order they are declared.
    public var typeNames: [String]
    /// One line per place where a constraint is enforced only in part, with its JSON Pointer.
    public var notes: [String]
}

/// Why a document has no generated Swift: the construct and where it is.
public struct SwiftGenerationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The JSON Pointer of the schema at fault (`""` for the root).
    public var pointer: String
    /// What is wrong, naming the keyword or construct.
    public var message: String

    /// Makes an error.
    public init(pointer: String, message: String) {
        self.pointer = pointer
        self.message = message
    }

    /// `#/pointer: message`.
    public var description: String { "#\(pointer): \(message)" }
}
