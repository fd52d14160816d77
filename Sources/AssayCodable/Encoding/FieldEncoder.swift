import AssayJSON

/// Encodes a model's properties and the members it keeps beside them (`@AdditionalProperties`)
/// into one object: what `@Validatable` writes `encode(to:)` with for such a model, since the
/// encoding Swift synthesises knows only the coding keys.
///
/// The properties come first, in declaration order, then the other members in code point order of
/// their keys; a member whose key is a property's is left out (the property wins).
public struct FieldEncoder<Key: CodingKey> {
    private var container: KeyedEncodingContainer<AnyKey>

    /// Opens the encoder's keyed container.
    public init(_ encoder: any Encoder) {
        container = encoder.container(keyedBy: AnyKey.self)
    }

    /// Encodes a property.
    public mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try container.encode(value, forKey: AnyKey(stringValue: key.stringValue))
    }

    /// Encodes an optional property: `nil` leaves the key out, as synthesised encoding does.
    public mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        try container.encodeIfPresent(value, forKey: AnyKey(stringValue: key.stringValue))
    }

    /// Encodes a property that may be missing or `null` (`Nullable`): `.absent` leaves the key
    /// out, `.null` writes `null`.
    public mutating func encode<T: Encodable>(_ value: Nullable<T>, forKey key: Key) throws {
        try container.encode(value, forKey: AnyKey(stringValue: key.stringValue))
    }

    /// Encodes the members kept beside the properties, but those whose key `Key` names.
    public mutating func encodeAdditionalProperties<T: Encodable>(_ members: [String: T]) throws {
        for key in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        where Key(stringValue: key) == nil {
            try container.encode(members[key]!, forKey: AnyKey(stringValue: key))
        }
    }
}
