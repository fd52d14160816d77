/// How serious an issue is.
///
/// Errors make a value invalid. Warnings report something worth knowing that did not make the value
/// invalid, such as a lax coercion of `"12"` to `12`.
public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
    /// Something worth reporting that does not make the value invalid.
    case warning
    /// The value is invalid.
    case error

    /// Warnings order before errors.
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .warning && rhs == .error }
}

/// When an issue was found: while decoding, checking one property, checking the whole object, or
/// before an insert, update, delete or save.
public struct Phase: Hashable, Sendable, CustomStringConvertible {
    /// The phase's name, e.g. `"decode"` or `"insert"`.
    public let name: String

    /// Makes a phase with a name of the application's own.
    public init(_ name: String) { self.name = name }

    /// The phase's name.
    public var description: String { name }

    /// While decoding or parsing input.
    public static let decode = Phase("decode")
    /// While checking one value against its rules.
    public static let property = Phase("property")
    /// While checking rules that combine several properties.
    public static let object = Phase("object")
    /// Before inserting a new object.
    public static let insert = Phase("insert")
    /// Before updating an existing object.
    public static let update = Phase("update")
    /// Before deleting an object.
    public static let delete = Phase("delete")
    /// While saving a group of changes.
    public static let save = Phase("save")
}

/// The object an issue belongs to: its entity (type or table) and its identifier, where known.
public struct ObjectReference: Hashable, Sendable, CustomStringConvertible {
    /// The entity: a type name or a table name, e.g. `"player"`.
    public var entity: String
    /// The object's identifier (a primary key rendered as text), if it has one yet.
    public var id: String?

    /// Makes a reference to an object of `entity` with an optional identifier.
    public init(entity: String, id: String? = nil) {
        self.entity = entity
        self.id = id
    }

    /// `entity` or `entity#id`.
    public var description: String { id.map { "\(entity)#\($0)" } ?? entity }
}
