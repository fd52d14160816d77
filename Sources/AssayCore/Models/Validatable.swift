/// A type that declares its own validation rules.
///
/// Conform by listing the rules once, in ``validation``; then validate instances on demand, for an
/// operation, or one proposed value for one key before assigning it:
///
/// <!-- snippet: model -->
/// ```swift
/// struct Player: Validatable {
///     var name: String
///     var age: Int
///
///     static let validation: Validation<Player> = [
///         .normalize(\.name, "name") { $0.trimmingCharacters(in: .whitespaces) },
///         .property(\.name, "name", .notBlank, .length(2...50)),
///         .property(\.age, "age", on: [.insert, .update], .range(16...50)),
///     ]
/// }
///
/// let player = Player(name: "   ", age: 12)
/// do {
///     try player.validate(for: .insert)
/// } catch {
///     print(error.text(in: .english))
///     // /name: Name must not be blank
///     // /name: Name must be between 2 and 50 characters long
///     // /age: Age must be between 16 and 50
/// }
///
/// // A form field, before the value is assigned: the normalised value or its issues.
/// let typed = try? Player.validate("  Yao Ming ", for: \.name)  // "Yao Ming"
/// ```
public protocol Validatable: SendableMetatype {
    /// The type's rules: property rules, normalisers, object-level checks and nested models.
    static var validation: Validation<Self> { get }

    /// The object issues belong to (entity and id), recorded on each issue. Defaults to `nil`.
    var validationObject: ObjectReference? { get }
}

extension Validatable {
    /// No object reference by default.
    public var validationObject: ObjectReference? { nil }

    /// Every issue of this value for `operation` (`nil`: an on-demand check), in declaration order.
    /// Normalisers run first, on a copy; the issues are those of the normalised value.
    public func issues(for operation: ValidationOperation? = nil) -> [ValidationIssue] {
        Self.validation.issues(of: self, operation: operation)
    }

    /// Whether the value has no error for an on-demand check.
    ///
    /// Which rules run where: an on-demand check (``isValid``, ``issues(for:)`` and ``validate(for:)``
    /// without an operation) and validated decoding run every rule declared without `on:`; a rule
    /// declared `on: [.insert, .update]` runs only when that operation is named —
    /// ``isValid(for:)`` with `.insert`, and a save, which names `.insert` or `.update` — beside the
    /// rules without `on:`; a delete runs only the rules that name `.delete`. So a player whose
    /// name fails an insert-only rule is valid on demand and refused on insert:
    /// `isValid(for: .insert)` asks what the save will.
    public var isValid: Bool { !issues().contains { $0.severity == .error } }

    /// Whether the value has no error for `operation`: the rules without `on:` and those naming
    /// `operation` (see ``isValid``).
    public func isValid(for operation: ValidationOperation?) -> Bool {
        !issues(for: operation).contains { $0.severity == .error }
    }

    /// Checks the value for `operation` and throws every issue at once.
    ///
    /// - Throws: ``ValidationError`` with every issue, when any of them is an error.
    public func validate(for operation: ValidationOperation? = nil) throws(ValidationError) {
        try ValidationError(issues(for: operation)).throwIfErrors()
    }

    /// The value with its normalisers applied, when it is valid for `operation`.
    ///
    /// - Throws: ``ValidationError`` with every issue, when any of them is an error.
    public func validated(for operation: ValidationOperation? = nil) throws(ValidationError) -> Self {
        let result = Self.validation.run(on: self, operation: operation)
        try ValidationError(result.issues).throwIfErrors()
        return result.model
    }

    /// Checks one proposed value for one property before it is assigned (a form field), without an
    /// instance: normalisers of that property run, then its rules. Object-level checks do not run.
    ///
    /// - Returns: The normalised value.
    /// - Throws: ``ValidationError`` with the property's issues.
    @discardableResult
    public static func validate<V>(
        _ value: V, for keyPath: KeyPath<Self, V>, operation: ValidationOperation? = nil
    ) throws(ValidationError) -> V {
        let result = validation.runValue(value, keyPath: keyPath, key: nil, operation: operation)
        try ValidationError(result.issues).throwIfErrors()
        return result.value as! V
    }

    /// Checks one proposed value for the property named `key` (Core Data's `validateValue(_:forKey:)`):
    /// a value of the wrong type is reported as ``IssueCode/typeMismatch``.
    ///
    /// - Returns: The normalised value.
    /// - Throws: ``ValidationError`` with the property's issues.
    @discardableResult
    public static func validate(_ value: Any, forKey key: String, operation: ValidationOperation? = nil)
        throws(ValidationError)
        -> Any
    {
        let result = validation.runValue(value, keyPath: nil, key: key, operation: operation)
        try ValidationError(result.issues).throwIfErrors()
        return result.value
    }
}
