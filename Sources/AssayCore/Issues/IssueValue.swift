#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A value recorded in an issue: the offending value or a rule's parameter.
///
/// Issues carry values as data, not as `Any`, so they stay `Sendable`, comparable and renderable
/// in any language. ``redacted`` replaces a sensitive value.
public enum IssueValue: Sendable, Hashable, CustomStringConvertible {
    /// JSON `null` or Swift `nil`.
    case null
    /// A Boolean.
    case bool(Bool)
    /// An integer.
    case integer(Int)
    /// A floating-point number.
    case number(Double)
    /// An exact decimal number, kept as its text (e.g. a 200-digit integer or `0.1`).
    case decimal(String)
    /// A string.
    case string(String)
    /// A point in time.
    case date(Date)
    /// A list of values (e.g. the allowed values of a one-of rule).
    case list([IssueValue])
    /// A value that was removed because it is sensitive.
    case redacted
    /// A value of another type, kept as its description.
    case other(String)

    /// Makes an issue value from any Swift value, recognising the standard scalar types.
    public init(_ value: Any?) {
        guard let value else { self = .null; return }
        switch value {
        case let v as IssueValue: self = v
        case let v as Bool: self = .bool(v)
        case let v as Int: self = .integer(v)
        case let v as any BinaryInteger:
            if let i = Int(exactly: v) { self = .integer(i) } else { self = .decimal(String(describing: v)) }
        case let v as Double: self = .number(v)
        case let v as Float: self = .number(Double(v))
        case let v as Decimal: self = .decimal(v.description)
        case let v as String: self = .string(v)
        case let v as Substring: self = .string(String(v))
        case let v as Character: self = .string(String(v))
        case let v as Unicode.Scalar: self = .string(String(v))
        case let v as Date: self = .date(v)
        case let v as [Any]: self = .list(v.map { IssueValue($0) })
        default:
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .optional {
                if let child = mirror.children.first { self = IssueValue(child.value) } else { self = .null }
            } else {
                self = .other(String(describing: value))
            }
        }
    }

    /// A value as data: an enum's raw value (what it is in JSON), an optional's wrapped value or
    /// `null`, any other value itself — what a rule's listed values (`oneOf`, `const`, a
    /// condition's) are exported and reported as.
    @usableFromInline
    static func data(_ value: Any?) -> IssueValue {
        guard let value else { return .null }
        if let raw = value as? any RawRepresentable { return IssueValue(raw.rawValue) }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional { return mirror.children.first.map { data($0.value) } ?? .null }
        return IssueValue(value)
    }

    /// The value as plain text: numbers as written, strings unquoted, dates in ISO 8601.
    public var description: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .integer(let i): return String(i)
        case .number(let d): return Self.format(d)
        case .decimal(let s): return s
        case .string(let s): return s
        case .date(let d): return Self.format(d)
        case .list(let values): return values.map(\.description).joined(separator: ", ")
        case .redacted: return "[redacted]"
        case .other(let s): return s
        }
    }

    /// The name of the value's kind in JSON terms: `"null"`, `"boolean"`, `"integer"`, `"number"`,
    /// `"string"`, `"date"`, `"array"`, or `"value"` for other and redacted values.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer: return "integer"
        case .number, .decimal: return "number"
        case .string: return "string"
        case .date: return "date"
        case .list: return "array"
        case .redacted, .other: return "value"
        }
    }

    static func format(_ d: Double) -> String {
        if d.isFinite, d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return String(d)
    }

    static func format(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        if seconds.truncatingRemainder(dividingBy: 86_400) == 0 {
            return date.formatted(Date.ISO8601FormatStyle().year().month().day())
        }
        return date.formatted(Date.ISO8601FormatStyle())
    }
}

extension IssueValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    /// Makes a string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Makes an integer value.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// Makes a number value.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// Makes a Boolean value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Makes the null value.
    public init(nilLiteral: ()) { self = .null }
}
