/// A stable identifier for the kind of one validation failure.
///
/// Codes are values of a struct rather than cases of a public enum, so Assay can add codes without
/// breaking code that switches over them. Match them with `==` or in a `switch`:
///
/// <!-- snippet: doc-issue-code -->
/// ```swift
/// switch issue.code {
/// case .tooLong, .tooShort: print("length")  // length
/// case _ where issue.code.identifier == "invalidFormat": print("format")
/// default: break
/// }
/// ```
///
/// Every code has an ``identifier`` (`"tooLarge"`), an optional ``argument`` (the format of
/// ``invalidFormat(_:)``, the name of ``custom(_:)``) and a ``description`` that joins them
/// (`"invalidFormat(email)"`).
public struct IssueCode: Hashable, Sendable, CustomStringConvertible {
    /// The code's name, e.g. `"tooLarge"` or `"invalidFormat"`. Stable across releases.
    public let identifier: String
    /// The code's argument: the format for ``invalidFormat(_:)``, the name for ``custom(_:)``.
    public let argument: String?

    init(_ identifier: String, _ argument: String? = nil) {
        self.identifier = identifier
        self.argument = argument
    }

    /// `identifier` alone, or `identifier(argument)`.
    public var description: String {
        argument.map { "\(identifier)(\($0))" } ?? identifier
    }

    /// The value is longer than allowed (string length; Core Data 1660).
    public static let tooLong = IssueCode("tooLong")
    /// The value is shorter than allowed (string length; Core Data 1670).
    public static let tooShort = IssueCode("tooShort")
    /// The value is above its maximum (Core Data 1610, or 1630 for dates).
    public static let tooLarge = IssueCode("tooLarge")
    /// The value is below its minimum (Core Data 1620, or 1640 for dates).
    public static let tooSmall = IssueCode("tooSmall")
    /// The value does not match a regular expression (Core Data 1680).
    public static let patternMismatch = IssueCode("patternMismatch")
    /// A required value is absent (Core Data 1570).
    public static let missing = IssueCode("missing")
    /// A string is empty or only white space.
    public static let blank = IssueCode("blank")
    /// The value has the wrong type (a string where a number was expected).
    public static let typeMismatch = IssueCode("typeMismatch")
    /// The value is not among the allowed values, or is explicitly forbidden.
    public static let notAllowed = IssueCode("notAllowed")
    /// The value contains characters outside the allowed set.
    public static let invalidCharacters = IssueCode("invalidCharacters")
    /// The value, or an element of a collection, is not unique (Core Data 1551).
    public static let notUnique = IssueCode("notUnique")
    /// A collection or relationship has too few elements (Core Data 1580).
    public static let tooFew = IssueCode("tooFew")
    /// A collection or relationship has too many elements (Core Data 1590).
    public static let tooMany = IssueCode("tooMany")
    /// The object may not be deleted (Core Data 1600).
    public static let deleteDenied = IssueCode("deleteDenied")
    /// A number is not a multiple of the required step.
    public static let notMultiple = IssueCode("notMultiple")
    /// None of several alternative rules accepted the value.
    public static let noMatch = IssueCode("noMatch")
    /// A normalising validator kept changing the value and never reached a steady state.
    public static let unstable = IssueCode("unstable")
    /// A value is about to be written as it is, though its normalisers would change it (a store hook
    /// that cannot write the normalised value back).
    public static let notNormalized = IssueCode("notNormalized")
    /// Input could not be read at all (malformed JSON, invalid UTF-8).
    public static let malformed = IssueCode("malformed")
    /// A value was converted to the expected type (a warning in lax decoding).
    public static let coerced = IssueCode("coerced")
    /// A key that the type does not declare.
    public static let unknownKey = IssueCode("unknownKey")

    /// The value is not a valid `format`, e.g. `invalidFormat("email")` (Core Data 1690 for URIs,
    /// 1650 for dates).
    public static func invalidFormat(_ format: String) -> IssueCode { IssueCode("invalidFormat", format) }

    /// A failure defined by the application, named by it, e.g. `custom("underageDriver")`.
    public static func custom(_ name: String) -> IssueCode { IssueCode("custom", name) }

    /// Whether this is an ``invalidFormat(_:)`` code of any format.
    public var isInvalidFormat: Bool { identifier == "invalidFormat" }

    /// Whether this is a ``custom(_:)`` code of any name.
    public var isCustom: Bool { identifier == "custom" }
}
