import AssayCore
import AssayJSON

/// Makes a struct validated: the rules written on its properties become its
/// `Validatable.validation`, decoding collects every failure (wrong types, missing keys,
/// rule failures, nested models and array elements) and throws them together, and the type exports
/// its JSON Schema.
///
/// <!-- snippet: docc-codable-model -->
/// ```swift
/// @Validatable
/// struct Client: Codable {
///     @Normalize(.trimmed) @Validate(.length(2...100), .charset(.letters + .marks + .spaces))
///     var name: String
///     @Validate(.range(1...150)) var age: Int
///     @Normalize(.trimmed) @Validate(.email()) var email: String
/// }
/// ```
///
/// `unknownKeys` makes keys the type does not declare ignored, warned about or refused whatever
/// the decoding policy says (JSON Schema's `additionalProperties: false` is `.reject`, which the
/// exported schema then states; `.rejectUnevaluated` refuses the same keys and, when the value
/// fails, reports every key it has, as `unevaluatedProperties: false` beside a union does); `nil`,
/// the default, leaves it to the policy.
///
/// Properties of other `@Validatable` types (alone, optional or in arrays) are validated with their
/// own rules. A `var` with an initial value takes it when the key is missing; a `let` with one is not
/// decoded. A rule that cannot apply to the property's type (`.length` on an `Int`) is a compile-time
/// error.
@attached(member, names: named(CodingKeys), named(validation), named(jsonSchema))
@attached(
    extension, conformances: Validatable, Decodable, JSONSchemaExportable, names: named(init(from:)),
    named(encode(to:))
)
public macro Validatable(unknownKeys: ValidatedDecodingPolicy.UnknownKeys? = nil) =
    #externalMacro(module: "AssayMacros", type: "ValidatableMacro")

/// Rules on a property of a `@Validatable` struct, checked in order; every issue is kept.
///
/// - Parameters:
///   - rules: The rules, e.g. `.range(1...150)`, `.length(2...100)`, `.email()`.
///   - label: The property's name in messages (`"Age"`), when it differs from its key.
///   - operations: The operations the rules apply to (`[.insert, .update]`); omitted, every one but
///     delete.
@attached(peer)
public macro Validate<Value>(
    _ rules: Rule<Value>..., label: String? = nil, on operations: [ValidationOperation]? = nil
) = #externalMacro(module: "AssayMacros", type: "MarkerMacro")

/// Rules on an array property, e.g. `@Validate(.count(...15), .each(.length(1...10)))`: the same
/// attribute, for rules whose element type comes from the property.
@attached(peer)
public macro Validate<Element>(
    _ rules: Rule<[Element]>..., label: String? = nil, on operations: [ValidationOperation]? = nil
) = #externalMacro(module: "AssayMacros", type: "MarkerMacro")

/// Normalisers of a property of a `@Validatable` struct (`.trimmed`, `.lowercased` …), applied before
/// its rules, while decoding and on demand.
@attached(peer)
public macro Normalize<Value>(_ normalizers: Normalizer<Value>...) =
    #externalMacro(module: "AssayMacros", type: "MarkerMacro")

/// The property's key in JSON, when it differs from its name: `@Key("full_name") var fullName: String`.
@attached(peer)
public macro Key(_ name: String) = #externalMacro(module: "AssayMacros", type: "MarkerMacro")

/// An optional property whose key must be present, `null` allowed (as JSON Schema's `required` with a
/// nullable type, or pydantic's `Optional` without a default): `@Required var managerId: String?`.
@attached(peer)
public macro Required() = #externalMacro(module: "AssayMacros", type: "MarkerMacro")

/// An optional property whose key may be left out but whose value is never `null` (JSON Schema's
/// property that is not `required` and not nullable): `@NotNull var nickname: String?` reads a
/// missing key as `nil` and refuses `null`, and the exported schema does not allow `null`.
@attached(peer)
public macro NotNull() = #externalMacro(module: "AssayMacros", type: "MarkerMacro")

/// A dictionary property `[String: Value]` that keeps the members of the object that no other
/// property names (JSON Schema's `additionalProperties` with a schema, pydantic's `extra="allow"`):
/// each is decoded as a `Value`, its failures reported at its key; encoding writes them back
/// beside the properties, and the exported schema's `additionalProperties` is `Value`'s schema.
/// Its rules are on the dictionary, located at the model: `@Validate(Rule<[String: Int]>.values(.range(0...)))`
/// reports a bad member at its own key.
///
/// <!-- snippet: doc-additional-properties -->
/// ```swift
/// @Validatable
/// struct Labels: Codable {
///     var name: String
///     @AdditionalProperties @Validate(Rule<[String: String]>.values(.length(...20)))
///     var others: [String: String] = [:]
/// }
/// ```
@attached(peer)
public macro AdditionalProperties() = #externalMacro(module: "AssayMacros", type: "MarkerMacro")

/// An array property that drops its invalid elements while decoding, reporting each as a warning.
@attached(peer)
public macro Lossy() = #externalMacro(module: "AssayMacros", type: "MarkerMacro")

/// A static function `(Self, inout RuleContext) -> Void` of a `@Validatable` struct that checks
/// the whole value (rules across properties).
///
/// - Parameters:
///   - operations: The operations it applies to; omitted, every one but delete.
///   - condition: `.always`, or `.propertiesValid`
///     to run only when every property rule passed.
@attached(peer)
public macro Check(on operations: [ValidationOperation]? = nil, when condition: CheckCondition = .always) =
    #externalMacro(module: "AssayMacros", type: "MarkerMacro")
