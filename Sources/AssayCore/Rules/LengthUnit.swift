/// What a length rule counts.
///
/// Unicode scalars are the default, because JSON Schema's `minLength` and `maxLength` count them;
/// grapheme clusters count what a reader sees as one character (`"é"` written as `e` + combining
/// accent is one grapheme, two scalars); UTF-8 and UTF-16 count storage.
public struct LengthUnit: Hashable, Sendable, CustomStringConvertible {
    private enum Kind: String { case unicodeScalars, graphemeClusters, utf8, utf16 }
    private let kind: Kind

    /// Unicode scalars (code points), as JSON Schema counts. The default.
    public static let unicodeScalars = LengthUnit(kind: .unicodeScalars)
    /// Extended grapheme clusters: Swift's `Character`, what a reader sees as one character.
    public static let graphemeClusters = LengthUnit(kind: .graphemeClusters)
    /// UTF-8 code units (bytes).
    public static let utf8 = LengthUnit(kind: .utf8)
    /// UTF-16 code units.
    public static let utf16 = LengthUnit(kind: .utf16)

    /// The unit's name.
    public var description: String { kind.rawValue }

    /// The length of `string` in this unit.
    public func count<S: StringProtocol>(_ string: S) -> Int {
        switch kind {
        case .unicodeScalars: return string.unicodeScalars.count
        case .graphemeClusters: return string.count
        case .utf8: return string.utf8.count
        case .utf16: return string.utf16.count
        }
    }
}
