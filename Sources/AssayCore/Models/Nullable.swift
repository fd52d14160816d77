/// A member that may be missing, `null` or hold a value, the three told apart: what an optional
/// cannot say of a JSON member that may be left out and may also be `null` (OpenAPI 3.0's
/// `nullable`, a type of `[…, "null"]` not required). A `PATCH` that sends `"nickname": null`
/// clears the nickname; one that leaves it out keeps it.
///
/// <!-- snippet: doc-nullable -->
/// ```swift
/// struct ProfilePatch: Codable {
///     var nickname: Nullable<String> = .absent
/// }
///
/// func readPatches() throws {
///     for body in [#"{}"#, #"{"nickname": null}"#, #"{"nickname": "Ann"}"#] {
///         let patch = try JSONDecoder().decode(ProfilePatch.self, from: Data(body.utf8))
///         print(patch.nickname, String(decoding: try JSONEncoder().encode(patch), as: UTF8.self))
///     }
///     // absent {}
///     // null {"nickname":null}
///     // some("Ann") {"nickname":"Ann"}
/// }
/// ```
///
/// A property of this type is decoded `.absent` when its key is missing and encoded only when it
/// is not `.absent` (by `Codable`'s synthesised code and by `@Validatable`'s); the rules given for
/// it are of the wrapped type and check `.some` alone: `.property(\.nickname, "nickname",
/// .length(1...))`.
public enum Nullable<Wrapped> {
    /// The member is missing.
    case absent
    /// The member is present with `null`.
    case null
    /// The member holds a value.
    case some(Wrapped)

    /// `.some(value)` for a value, `.null` for `nil`: a present member.
    public init(presentWith value: Wrapped?) {
        self = value.map(Nullable.some) ?? .null
    }

    /// The value it holds; `nil` when it is missing or `null`.
    public var value: Wrapped? {
        if case .some(let value) = self { return value }
        return nil
    }

    /// Whether the member is present (`null` or a value).
    public var isPresent: Bool {
        if case .absent = self { return false }
        return true
    }

    /// Whether the member is present with `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value transformed, missing and `null` kept.
    public func map<T>(_ transform: (Wrapped) throws -> T) rethrows -> Nullable<T> {
        switch self {
        case .absent: return .absent
        case .null: return .null
        case .some(let value): return .some(try transform(value))
        }
    }
}

extension Nullable: Sendable where Wrapped: Sendable {}
extension Nullable: Equatable where Wrapped: Equatable {}
extension Nullable: Hashable where Wrapped: Hashable {}

extension Nullable: CustomStringConvertible {
    /// `absent`, `null`, or `some(…)` with the value.
    public var description: String {
        switch self {
        case .absent: return "absent"
        case .null: return "null"
        case .some(let value): return "some(\(String(reflecting: value)))"
        }
    }
}

extension Nullable: ExpressibleByUnicodeScalarLiteral
where Wrapped: ExpressibleByStringLiteral, Wrapped.StringLiteralType == String {
    /// A value written as a literal.
    public init(unicodeScalarLiteral value: String) { self = .some(Wrapped(stringLiteral: value)) }
}

extension Nullable: ExpressibleByExtendedGraphemeClusterLiteral
where Wrapped: ExpressibleByStringLiteral, Wrapped.StringLiteralType == String {
    /// A value written as a literal.
    public init(extendedGraphemeClusterLiteral value: String) { self = .some(Wrapped(stringLiteral: value)) }
}

extension Nullable: ExpressibleByStringLiteral
where Wrapped: ExpressibleByStringLiteral, Wrapped.StringLiteralType == String {
    /// A value written as a literal: `nickname: "Ann"`.
    public init(stringLiteral value: String) { self = .some(Wrapped(stringLiteral: value)) }
}

extension Nullable: ExpressibleByIntegerLiteral
where Wrapped: ExpressibleByIntegerLiteral, Wrapped.IntegerLiteralType == Int {
    /// A value written as a literal: `age: 30`.
    public init(integerLiteral value: Int) { self = .some(Wrapped(integerLiteral: value)) }
}

extension Nullable: ExpressibleByFloatLiteral
where Wrapped: ExpressibleByFloatLiteral, Wrapped.FloatLiteralType == Double {
    /// A value written as a literal: `score: 0.5`.
    public init(floatLiteral value: Double) { self = .some(Wrapped(floatLiteral: value)) }
}

extension Nullable: ExpressibleByBooleanLiteral
where Wrapped: ExpressibleByBooleanLiteral, Wrapped.BooleanLiteralType == Bool {
    /// A value written as a literal: `enabled: true`.
    public init(booleanLiteral value: Bool) { self = .some(Wrapped(booleanLiteral: value)) }
}

extension Nullable: Decodable where Wrapped: Decodable {
    /// `null` or a value; a member that is missing is `.absent` (read by its container, see
    /// `KeyedDecodingContainer.decode(_:forKey:)`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = container.decodeNil() ? .null : .some(try container.decode(Wrapped.self))
    }
}

extension Nullable: Encodable where Wrapped: Encodable {
    /// `null` or the value; `.absent` alone is written `null` (a member that is `.absent` is left
    /// out by its container, see `KeyedEncodingContainer.encode(_:forKey:)`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .absent, .null: try container.encodeNil()
        case .some(let value): try container.encode(value)
        }
    }
}

extension KeyedDecodingContainer {
    /// A member that may be missing, `null` or hold a value: `.absent` when the key is missing.
    /// Chosen over the generic `decode` by the code `Codable` synthesises.
    public func decode<Wrapped: Decodable>(_ type: Nullable<Wrapped>.Type, forKey key: Key) throws -> Nullable<Wrapped>
    {
        guard contains(key) else { return .absent }
        return try decodeNil(forKey: key) ? .null : .some(decode(Wrapped.self, forKey: key))
    }
}

extension KeyedEncodingContainer {
    /// A member that may be missing, `null` or hold a value: left out when `.absent`. Chosen over the
    /// generic `encode` by the code `Codable` synthesises.
    public mutating func encode<Wrapped: Encodable>(_ value: Nullable<Wrapped>, forKey key: Key) throws {
        switch value {
        case .absent: return
        case .null: try encodeNil(forKey: key)
        case .some(let wrapped): try encode(wrapped, forKey: key)
        }
    }
}

/// A ``Nullable`` seen without its wrapped type: what nested validation reads through.
protocol NullableValue {
    var wrappedValue: Any? { get }
}

extension Nullable: NullableValue {
    var wrappedValue: Any? { value }
}

extension Rule {
    /// The rule applied to a member that may be missing or `null` (``Nullable``): both pass, a
    /// value is checked.
    @inlinable
    public var nullable: Rule<Nullable<Value>> {
        Rule<Nullable<Value>>(
            kind, severity: severity,
            { value, context in
                if case .some(let value) = value { check(value, in: &context) }
            }, inputCheck: inputCheck)
    }

    /// The member is present, `null` or a value (JSON Schema's `required`). Reports
    /// ``IssueCode/missing`` for `.absent`, and with `allowingNull: false`
    /// ``IssueCode/typeMismatch`` for `.null`.
    /// Its kind is ``RuleKind/present``, or ``RuleKind/required`` when `null` is refused.
    public static func present<Wrapped>(allowingNull: Bool = true) -> Rule where Value == Nullable<Wrapped> {
        Rule(allowingNull ? .present : .required) { value, context in
            switch value {
            case .absent: context.report(.missing)
            case .null:
                if !allowingNull {
                    context.report(.typeMismatch, parameters: ["expected": .string("\(Wrapped.self)")])
                }
            case .some: break
            }
        }
    }
}

extension ModelRule {
    /// Rules on a property that may be missing or `null` (``Nullable``): both pass, a value is
    /// checked.
    @inlinable
    public static func property<V: SendableMetatype>(
        _ keyPath: KeyPath<Model, Nullable<V>> & Sendable, _ key: String, label: String? = nil,
        on operations: [ValidationOperation]? = nil,
        _ rules: Rule<V>...
    ) -> ModelRule {
        property(keyPath, key, label: label, on: operations, rules: rules.map(\.nullable))
    }

    /// The property is present, `null` or a value (JSON Schema's `required` of a member that may be
    /// `null`): reports ``IssueCode/missing`` for `.absent`; with `allowingNull: false` (a branch
    /// that requires the member and refuses `null`), ``IssueCode/typeMismatch`` for `.null`.
    @inlinable
    public static func required<V: SendableMetatype>(
        _ keyPath: KeyPath<Model, Nullable<V>> & Sendable, _ key: String, label: String? = nil,
        allowingNull: Bool = true, on operations: [ValidationOperation]? = nil
    ) -> ModelRule {
        property(keyPath, key, label: label, on: operations, Rule<Nullable<V>>.present(allowingNull: allowingNull))
    }
}

extension ModelRule {
    /// Entries that apply only when the property `key`, which may be missing or `null`
    /// (``Nullable``), holds one of `values` (or is missing or `null`, with `orAbsent`), and others
    /// that apply when it does not: the ``when(_:_:in:orAbsent:on:then:else:)-(KeyPath<Model,V?>Sendable,_,_,_,_,_,_)``
    /// of an optional property, for a ``Nullable`` one.
    ///
    /// - Parameters:
    ///   - keyPath: The property the condition reads.
    ///   - key: Its name in issues, paths and the exported schema.
    ///   - values: The values that make the condition hold.
    ///   - orAbsent: Whether the condition holds when the property is missing or `null` too.
    ///   - operations: The operations the entry applies to; omitted, every one but delete.
    ///   - then: The entries that apply when the condition holds.
    ///   - otherwise: The entries that apply when it does not.
    public static func when<V: Equatable & Sendable>(
        _ keyPath: KeyPath<Model, Nullable<V>> & Sendable, _ key: String, in values: [V], orAbsent: Bool = false,
        on operations: [ValidationOperation]? = nil, then: [ModelRule], else otherwise: [ModelRule] = []
    ) -> ModelRule {
        let holds: @Sendable (Nullable<V>) -> Bool = { value in
            guard case .some(let value) = value else { return orAbsent }
            return values.contains { codePointEqual($0, value) }
        }
        return conditional(
            key: key, values: values.map(IssueValue.data), holdsWhenAbsent: orAbsent, on: operations, then: then,
            otherwise: otherwise, holds: { model in holds(model[keyPath: keyPath]) },
            holdsForValue: { value in (value as? Nullable<V>).map(holds) })
    }
}

extension OptionalField {
    /// The property at `keyPath` that may be missing or `null`, named `key`: present unless
    /// `.absent` (`null` is present, as JSON Schema's `dependentRequired` counts it).
    public static func field<V>(_ keyPath: KeyPath<Model, Nullable<V>> & Sendable, _ key: String) -> OptionalField {
        OptionalField(key: key) { $0[keyPath: keyPath].isPresent }
    }
}
