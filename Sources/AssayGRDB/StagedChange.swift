import AssayCore
import GRDB

/// One change staged for writing: a record and what to do with it.
@usableFromInline
struct StagedChange: Sendable {
    @usableFromInline
    enum Kind: Sendable {
        case insert, update, delete

        var operation: ValidationOperation {
            switch self {
            case .insert: return .insert
            case .update: return .update
            case .delete: return .delete
            }
        }
    }

    let kind: Kind
    let record: any ValidatedRecord
    /// How issues name the record while it has no primary key (a staged insert).
    let label: String?
    /// Writes records of the change's type, compiled for the type where it was staged.
    let writer: RecordWriter?

    @usableFromInline
    init(_ kind: Kind, _ record: any ValidatedRecord, label: String? = nil, writer: RecordWriter? = nil) {
        self.kind = kind
        self.record = record
        self.label = label
        self.writer = writer
    }
}

/// Writes a record through GRDB's persistence methods (`insert`, `update`, `delete`), which run its
/// callbacks. Made in the caller's module (``ChangeSet`` stages through inlinable methods), so GRDB's
/// generic code is compiled for the record's type there instead of running unspecialised here.
@usableFromInline
struct RecordWriter: Sendable {
    @usableFromInline
    let write: @Sendable (any ValidatedRecord, StagedChange.Kind, Database) throws -> any ValidatedRecord

    @usableFromInline
    init(write: @escaping @Sendable (any ValidatedRecord, StagedChange.Kind, Database) throws -> any ValidatedRecord) {
        self.write = write
    }

    /// The writer of records of `type`.
    @inlinable
    static func of<R: ValidatedRecord>(_ type: R.Type) -> RecordWriter {
        RecordWriter { record, kind, db in
            guard var record = record as? R else {
                throw StoreConfigurationError(description: "\(R.databaseTableName): a record of another type")
            }
            switch kind {
            case .insert: try record.insert(db)
            case .update: try record.update(db)
            case .delete: _ = try record.delete(db)
            }
            return record
        }
    }
}
