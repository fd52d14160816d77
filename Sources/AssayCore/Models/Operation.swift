/// What a model is being validated for: an insert, an update, a delete, or a context of the app's own.
///
/// Rules declared without `on:` run for every validation except ``delete`` (a record is not refused
/// deletion because one of its fields is invalid); rules declared `on: [.insert]` run only then.
public struct ValidationOperation: Hashable, Sendable, CustomStringConvertible {
    /// The operation's name.
    public let name: String

    /// Makes an operation of the app's own, e.g. `ValidationOperation("publish")`.
    public init(_ name: String) { self.name = name }

    /// Before inserting a new object.
    public static let insert = ValidationOperation("insert")
    /// Before updating an existing object.
    public static let update = ValidationOperation("update")
    /// Before deleting an object.
    public static let delete = ValidationOperation("delete")

    /// A context of the app's own, e.g. `.custom("publish")`.
    public static func custom(_ name: String) -> ValidationOperation { ValidationOperation(name) }

    /// The phase issues found for this operation are reported in.
    public var phase: Phase { Phase(name) }

    /// The operation's name.
    public var description: String { name }
}

/// When an object-level check runs.
public enum CheckCondition: Sendable, Hashable {
    /// Always, even when some property is invalid.
    case always
    /// Only when every property rule passed, so the check can rely on valid values
    /// (e.g. divide by a field that a property rule keeps above zero).
    case propertiesValid
}
