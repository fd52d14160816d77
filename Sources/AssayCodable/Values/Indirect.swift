import AssayCore
import AssayJSON

/// A value kept in a box, so that a struct can hold a value of its own type: Swift lays a struct out
/// inline, and `struct Node { var next: Node? }` would have no size. `assay generate swift` writes
/// `var next: Indirect<Node>?` for a schema whose object holds itself with no array in between.
///
/// <!-- snippet: doc-indirect -->
/// ```swift
/// @Validatable
/// struct Step: Codable, Sendable, Hashable {
///     @Validate(.length(1...)) var name: String
///     var next: Indirect<Step>?
/// }
///
/// func decodeSteps() throws {
///     let decoder = JSONValueDecoder()
///     let steps = try decoder.decodeValidated(
///         Step.self, from: Array(#"{"name": "mix", "next": {"name": "bake"}}"#.utf8)
///     ).value
///     print(steps.next?.value.name ?? "")  // bake
///     let broken = Step(name: "mix", next: Indirect(Step(name: "")))
///     print(broken.issues().map(\.path.jsonPointer))  // ["/next/name"]
/// }
/// ```
///
/// It decodes and encodes as the value itself (no wrapper in the JSON), compares and hashes as the
/// value, is checked with the value's rules on demand, and exports the value's schema. Values are
/// immutable in their box; setting ``value`` makes a new box.
public struct Indirect<Value: Sendable>: Sendable {
    private final class Box: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    private var box: Box

    /// Boxes `value`.
    public init(_ value: Value) { box = Box(value) }

    /// The value held.
    public var value: Value {
        get { box.value }
        set { box = Box(newValue) }
    }
}

extension Indirect: Equatable where Value: Equatable {
    /// Whether the values are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.value == rhs.value }
}

extension Indirect: Hashable where Value: Hashable {
    /// Hashes the value.
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

extension Indirect: Decodable where Value: Decodable {
    /// Decodes the value itself.
    public init(from decoder: any Decoder) throws { self.init(try Value(from: decoder)) }
}

extension Indirect: Encodable where Value: Encodable {
    /// Encodes the value itself.
    public func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}

extension Indirect: Validatable where Value: Validatable {
    /// The value's rules, at the value's own place.
    public static var validation: Validation<Indirect<Value>> { [.payload { .value($0.value) }] }
}

extension Indirect: JSONSchemaExportable {
    /// The value's schema.
    public static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue {
        exporter.schema(for: Value.self)
    }
}
