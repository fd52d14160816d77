import AssayCore

/// How typed access converts between JSON types.
///
/// | asked for | `strict` accepts | `lax` also accepts |
/// |---|---|---|
/// | `Int` | an integer number (`12`, `12.0`) | a string holding a JSON integer (`"12"`, `"-3"`, `"12.0"`) |
/// | `Double` | a number | a string holding a JSON number (`"12.5"`, `"1e3"`) |
/// | `Bool` | `true`, `false` | the strings `"true"`, `"false"`; the numbers `1`, `0` |
/// | `String` | a string | a number, as its JSON text (`12.50` → `"12.5"`) |
/// | any type | — | `null`, read as absent (a missing optional, a missing required value) |
///
/// Nothing else converts in either mode: not `"12abc"`, not `" 12"`, not `"yes"`, not `2` to a
/// Boolean, not an array or object to a scalar. Every lax conversion can be reported (see
/// ``JSONValue/int(_:at:coercions:)``) as a `ValidationIssue` with code `IssueCode/coerced` and
/// severity `Severity/warning`, so a sloppy server is visible without breaking the app.
public enum CoercionMode: Sendable, Hashable {
    /// No conversion between JSON types.
    case strict
    /// The documented conversions for loose servers.
    case lax
}

extension JSONValue {
    /// The value as an `Int` under `mode`; conversions are appended to `coercions` as warnings.
    public func int(_ mode: CoercionMode, at path: IssuePath = .root, coercions: inout [ValidationIssue]) -> Int? {
        if let value = int { return value }
        guard mode == .lax, case .string(let text) = self, let number = JSONNumber(text: text), let value = number.int
        else { return nil }
        coercions.append(Self.coercion(at: path, from: self, to: "integer"))
        return value
    }

    /// The value as an `Int` under `mode`, without reporting conversions.
    public func int(_ mode: CoercionMode) -> Int? {
        var ignored: [ValidationIssue] = []
        return int(mode, coercions: &ignored)
    }

    /// The value as a `Double` under `mode`; conversions are appended to `coercions` as warnings.
    public func double(_ mode: CoercionMode, at path: IssuePath = .root, coercions: inout [ValidationIssue]) -> Double?
    {
        if let value = double { return value }
        guard mode == .lax, case .string(let text) = self, let value = JSONNumber(text: text)?.double else {
            return nil
        }
        coercions.append(Self.coercion(at: path, from: self, to: "number"))
        return value
    }

    /// The value as a `Double` under `mode`, without reporting conversions.
    public func double(_ mode: CoercionMode) -> Double? {
        var ignored: [ValidationIssue] = []
        return double(mode, coercions: &ignored)
    }

    /// The value as a `Bool` under `mode`; conversions are appended to `coercions` as warnings.
    public func bool(_ mode: CoercionMode, at path: IssuePath = .root, coercions: inout [ValidationIssue]) -> Bool? {
        if let value = bool { return value }
        guard mode == .lax else { return nil }
        let converted: Bool?
        switch self {
        case .string("true"): converted = true
        case .string("false"): converted = false
        case .number(let number) where number == 1: converted = true
        case .number(let number) where number == 0: converted = false
        default: converted = nil
        }
        if converted != nil { coercions.append(Self.coercion(at: path, from: self, to: "boolean")) }
        return converted
    }

    /// The value as a `Bool` under `mode`, without reporting conversions.
    public func bool(_ mode: CoercionMode) -> Bool? {
        var ignored: [ValidationIssue] = []
        return bool(mode, coercions: &ignored)
    }

    /// The value as a `String` under `mode`; conversions are appended to `coercions` as warnings.
    public func string(_ mode: CoercionMode, at path: IssuePath = .root, coercions: inout [ValidationIssue]) -> String?
    {
        if let value = string { return value }
        guard mode == .lax, case .number(let number) = self else { return nil }
        coercions.append(Self.coercion(at: path, from: self, to: "string"))
        return number.description
    }

    /// The value as a `String` under `mode`, without reporting conversions.
    public func string(_ mode: CoercionMode) -> String? {
        var ignored: [ValidationIssue] = []
        return string(mode, coercions: &ignored)
    }

    /// Whether the value counts as absent under `mode`: never in strict mode, `null` in lax mode.
    public func isAbsent(_ mode: CoercionMode) -> Bool { mode == .lax && isNull }

    static func coercion(at path: IssuePath, from value: JSONValue, to target: String) -> ValidationIssue {
        ValidationIssue(
            code: .coerced, path: path, parameters: ["from": .string(value.kind.description), "to": .string(target)],
            value: IssueValue(value.jsonString()), valueType: value.kind.description, severity: .warning, phase: .decode
        )
    }
}
