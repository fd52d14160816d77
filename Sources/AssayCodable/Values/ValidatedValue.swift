import AssayCore

/// A value type whose every instance is valid: a raw value (an `Int`, a `String` …) checked by one
/// `Rule` when it is made, decoded, or checked on its own (seed 002's `Age`, `Name` and
/// `Email`).
///
/// <!-- snippet: doc-validated-value -->
/// ```swift
/// struct Age: ValidatedValue {
///     static let rule = Rule<Int>.range(1...150)
///     let rawValue: Int
///     init(checked: Checked<Int>) { rawValue = checked.rawValue }
/// }
///
/// print(try Age.evaluated(35))  // 35
/// do {
///     _ = try Age(151)
/// } catch {
///     print(error.text(in: .english))  // Value must be between 1 and 150
/// }
/// ```
///
/// Decoding reads the raw value, normalises it (``normalized(_:)``, e.g. trimming), checks it and
/// throws every issue at the value's path; encoding writes the raw value; schema export writes the
/// raw value's schema with the rule's keywords. The type's own initialiser takes a ``Checked`` raw
/// value, which only Assay makes, after the rule passed: no code can make an instance that was not
/// checked.
public protocol ValidatedValue: Codable, Sendable, JSONSchemaExportable {
    /// The type of the raw value.
    associatedtype RawValue: Codable & Sendable
    /// The rule every raw value must pass.
    static var rule: Rule<RawValue> { get }
    /// The raw value, valid.
    var rawValue: RawValue { get }
    /// Wraps a raw value that passed ``rule`` (made by ``init(_:)`` and by decoding).
    init(checked: Checked<RawValue>)
    /// The raw value made canonical before it is checked (e.g. trimmed); unchanged by default.
    static func normalized(_ rawValue: RawValue) -> RawValue
}

extension ValidatedValue {
    /// Returns the raw value unchanged.
    public static func normalized(_ rawValue: RawValue) -> RawValue { rawValue }

    /// The normalised raw value when it passes ``rule``, or every issue it has: the seed's reusable
    /// `evaluated` check, for initialisers, forms and anywhere else.
    ///
    /// - Throws: `ValidationError` with every issue, when any of them is an error.
    @discardableResult
    public static func evaluated(_ rawValue: RawValue, label: String? = nil) throws(ValidationError) -> RawValue {
        try rule.evaluate(normalized(rawValue), label: label)
    }

    /// Makes a valid value, or throws every issue of `rawValue`.
    ///
    /// - Throws: `ValidationError` with every issue, when any of them is an error.
    public init(_ rawValue: RawValue) throws(ValidationError) {
        self.init(checked: Checked(try Self.evaluated(rawValue)))
    }

    /// Decodes the raw value and checks it; issues carry the value's path in the payload.
    ///
    /// - Throws: `ValidationError`.
    public init(from decoder: any Decoder) throws {
        let path = IssueCollector.path(of: decoder)
        let raw: RawValue
        do {
            raw = try decoder.singleValueContainer().decode(RawValue.self)
        } catch {
            var collector = IssueCollector(policy: ValidatedDecoding.policy(of: decoder))
            collector.fail(error, at: path, expected: "\(RawValue.self)")
            throw collector.aggregate()
        }
        let value = Self.normalized(raw)
        let found = Self.rule.issues(for: value, at: path)
        if found.contains(where: \.isError) { throw ValidationError(found) }
        ValidatedDecoding.addWarnings(found, of: decoder)
        self.init(checked: Checked(value))
    }

    /// Encodes the raw value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// A raw value that passed its ``ValidatedValue`` type's rule, normalised. Only Assay makes one, after
/// checking, so the type's `init(checked:)` cannot be handed a value that was not checked.
public struct Checked<RawValue: Sendable>: Sendable {
    /// The raw value, normalised and valid.
    public let rawValue: RawValue

    init(_ rawValue: RawValue) { self.rawValue = rawValue }
}
