import AssayCore
import GRDB

/// What happens to the records of a to-many relationship when their parent is deleted.
public enum DeleteRule: String, Sendable, Hashable, CaseIterable {
    /// The parent cannot be deleted while any record refers to it (reported as
    /// `IssueCode.deleteDenied`).
    case deny
    /// The records that refer to the parent are deleted with it, each through its own rules.
    case cascade
    /// The records that refer to the parent have their reference set to `NULL`, then are checked as
    /// updated (a required reference then reports `IssueCode.missing`).
    case nullify
    /// Nothing is done; the database's own foreign key, if any, decides.
    case noAction
}

/// The store rules of a ``ValidatedRecord`` type: rules that need the database to be checked.
///
/// <!-- snippet: docc-grdb-types -->
/// ```swift
/// struct Team: Codable, FetchableRecord, MutablePersistableRecord, ValidatedRecord {
///     var id: Int64?
///     var name: String
///
///     static let validation: Validation<Team> = [
///         .normalize(\.name, "name", .trimmed),
///         .property(\.name, "name", .length(2...40)),
///     ]
///     static let storeRules: StoreRules<Team> = [
///         .unique("name"),
///         .hasMany(Player.self, column: "teamId", as: "players", maximum: 15, onDelete: .deny),
///     ]
///     mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
/// }
///
/// struct Player: Codable, FetchableRecord, MutablePersistableRecord, ValidatedRecord {
///     var id: Int64?
///     var name: String
///     var age: Int
///     var teamId: Int64
///
///     static let validation: Validation<Player> = [
///         .normalize(\.name, "name", .trimmed),
///         .property(\.name, "name", .length(2...50)),
///         .property(\.age, "age", .range(16...50)),
///     ]
///     static let storeRules: StoreRules<Player> = [.belongsTo(Team.self, column: "teamId")]
///     mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
/// }
/// ```
public struct StoreRules<Record: ValidatedRecord>: Sendable, ExpressibleByArrayLiteral {
    /// The rules, in declaration order.
    public var rules: [StoreRule<Record>]

    /// Makes the store rules of a type.
    public init(_ rules: [StoreRule<Record>]) { self.rules = rules }

    /// Makes the store rules of a type from a list.
    public init(arrayLiteral rules: StoreRule<Record>...) { self.rules = rules }
}

/// One rule that needs the database: uniqueness, a required to-one relationship, or a to-many
/// relationship with a count and a delete rule.
///
/// Columns are named as in the table; issues report them as the path (`/name`), relationships by
/// the name given with `as:` (`/players`).
public struct StoreRule<Record: ValidatedRecord>: Sendable {
    let kind: Kind

    enum Kind: Sendable {
        case unique(columns: [String], label: String?)
        case belongsTo(parent: any ValidatedRecord.Type, column: String, key: String?, required: Bool, label: String?)
        case hasMany(HasManyRelation)
    }

    /// No two records of the table have the same values in `columns` (a `NULL` in any of them takes
    /// the record out of the check, as in SQLite's unique indexes).
    ///
    /// Checked among the records of a change set and against the database. A unique index on the
    /// columns is required, so that two writers racing cannot both insert the same value: create it
    /// with ``ValidatedRecord/createStoreIndexes(_:)`` or in your migration; a constraint violation
    /// from SQLite is reported as `IssueCode.notUnique` as well.
    ///
    /// - Parameters:
    ///   - columns: The column, or the group of columns that must be unique together.
    ///   - label: A name for the value in messages; defaults to the first column.
    public static func unique(_ columns: String..., label: String? = nil) -> StoreRule {
        precondition(!columns.isEmpty, "a unique rule needs at least one column")
        return StoreRule(kind: .unique(columns: columns, label: label))
    }

    /// A to-one relationship: `column` holds the primary key of a `Parent` record (or the value of its
    /// column `key`, a column with a unique index).
    ///
    /// A reference to a parent that does not exist (or is deleted in the same change set) is reported
    /// as `IssueCode.missing`; so is `NULL` when the relationship is `required`. The
    /// parent's ``hasMany(_:column:key:as:minimum:maximum:onDelete:)`` counts are checked when a record
    /// joins or leaves it through this column.
    public static func belongsTo<Parent: ValidatedRecord>(
        _ parent: Parent.Type, column: String, key: String? = nil, required: Bool = true, label: String? = nil
    ) -> StoreRule {
        StoreRule(kind: .belongsTo(parent: parent, column: column, key: key, required: required, label: label))
    }

    /// A to-many relationship: the `Child` records whose `column` holds this record's primary key.
    ///
    /// - Parameters:
    ///   - child: The type of the records that refer to this one.
    ///   - column: The child's column that holds this record's primary key (or its column `key`).
    ///   - key: The column of this record that children refer to; defaults to the primary key.
    ///   - name: The relationship's name in issues, e.g. `"players"`.
    ///   - minimum: The fewest children allowed (`IssueCode.tooFew`).
    ///   - maximum: The most children allowed (`IssueCode.tooMany`).
    ///   - onDelete: What deleting this record does to its children.
    public static func hasMany<Child: ValidatedRecord & FetchableRecord>(
        _ child: Child.Type, column: String, key: String? = nil, as name: String, minimum: Int = 0,
        maximum: Int? = nil,
        onDelete: DeleteRule = .deny
    ) -> StoreRule {
        precondition(minimum >= 0 && (maximum ?? minimum) >= minimum, "hasMany needs 0 <= minimum <= maximum")
        return StoreRule(
            kind: .hasMany(
                HasManyRelation(
                    child: child, column: column, key: key, name: name, minimum: minimum, maximum: maximum,
                    onDelete: onDelete)))
    }
}

/// A to-many relationship, without the parent's type.
struct HasManyRelation: Sendable {
    let child: any (ValidatedRecord & FetchableRecord).Type
    let column: String
    /// The parent's column the child's column holds; `nil` for the primary key.
    let key: String?
    let name: String
    let minimum: Int
    let maximum: Int?
    let onDelete: DeleteRule
    let childTable: String

    init(
        child: any (ValidatedRecord & FetchableRecord).Type, column: String, key: String?, name: String, minimum: Int,
        maximum: Int?, onDelete: DeleteRule
    ) {
        self.child = child
        self.column = column
        self.key = key
        self.name = name
        self.minimum = minimum
        self.maximum = maximum
        self.onDelete = onDelete
        self.childTable = child.databaseTableName
    }
}

/// A store rule that cannot be checked as declared, e.g. a unique rule without a unique index.
///
/// This is a mistake in the program or its schema, not in the data, so it is not a
/// `ValidationError`.
public struct StoreConfigurationError: Error, Sendable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    public let description: String

    @usableFromInline
    init(description: String) { self.description = description }
}

extension ValidatedRecord {
    /// Creates the indexes the type's store rules rely on, if they do not exist: a unique index for each
    /// ``StoreRule/unique(_:label:)`` rule, and an index on the child's column of each
    /// ``StoreRule/hasMany(_:column:key:as:minimum:maximum:onDelete:)`` rule (relationship counts and delete
    /// rules look children up by it).
    ///
    /// Call it in a migration, after the tables exist.
    public static func createStoreIndexes(_ db: Database) throws {
        for rule in storeRules.rules {
            switch rule.kind {
            case .unique(let columns, _):
                let name = ([databaseTableName, "unique"] + columns).joined(separator: "_")
                try db.create(
                    index: name, on: databaseTableName, columns: columns, options: [.unique, .ifNotExists])
            case .hasMany(let relation):
                let table = relation.child.databaseTableName
                try db.create(
                    index: "\(table)_\(relation.column)", on: table, columns: [relation.column],
                    options: [.ifNotExists])
            case .belongsTo:
                continue
            }
        }
    }
}
