/// A failure that stops a command with exit status 2: a usage error, an input or output that cannot
/// be read or written, or a schema that cannot be used. Its text is one line that names the file.
public struct CLIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The command line asks for something impossible.
        case usage
        /// A file cannot be read or written.
        case io
        /// The schema cannot be read, is not a valid schema, or does not compile.
        case schema
    }

    /// What went wrong.
    public let kind: Kind
    /// The one-line message, naming the file where there is one.
    public let message: String

    /// A usage error.
    public static func usage(_ message: String) -> CLIError { CLIError(kind: .usage, message: message) }
    /// A file that cannot be read or written.
    public static func io(_ message: String) -> CLIError { CLIError(kind: .io, message: message) }
    /// A schema that cannot be used.
    public static func schema(_ message: String) -> CLIError { CLIError(kind: .schema, message: message) }

    /// The message.
    public var description: String { message }
}

/// The exit statuses of `assay`.
public enum ExitStatus {
    /// Every document is valid (`validate`), every schema is valid (`check-schema`).
    public static let success: Int32 = 0
    /// At least one document (or schema) is invalid; a line that is not JSON counts as invalid.
    public static let invalid: Int32 = 1
    /// A usage error, an unreadable input, an unwritable output, or a schema that does not compile.
    public static let failure: Int32 = 2
}
