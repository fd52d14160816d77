/// The text rules again for `String` itself, so a rule written without its type
/// (`@Validate(.length(2...100))` in AssayCodable, or any generic context) is known to be a
/// `Rule<String>`. Each forwards to the `StringProtocol` rule of the same name.
extension Rule where Value == String {
    /// `length(_:unit:)` for `String`.
    public static func length(_ bounds: ClosedRange<Int>, unit: LengthUnit = .unicodeScalars) -> Rule {
        length(minimum: bounds.lowerBound, maximum: bounds.upperBound, unit: unit)
    }

    /// `length(_:unit:)` for `String`.
    public static func length(_ bounds: PartialRangeFrom<Int>, unit: LengthUnit = .unicodeScalars) -> Rule {
        length(minimum: bounds.lowerBound, unit: unit)
    }

    /// `length(_:unit:)` for `String`.
    public static func length(_ bounds: PartialRangeThrough<Int>, unit: LengthUnit = .unicodeScalars) -> Rule {
        length(maximum: bounds.upperBound, unit: unit)
    }

    /// `notBlank` for `String`.
    public static var notBlank: Rule { Rule.textNotBlank }

    /// `charset(_:)` for `String`.
    public static func charset(_ allowed: CharacterClass) -> Rule { textCharset(allowed) }

    /// `email(_:)` for `String`.
    public static func email(_ options: EmailAddressValidator.Options = .default) -> Rule { textEmail(options) }

    /// `url(schemes:)` for `String`.
    public static func url(schemes: Set<String> = ["http", "https"]) -> Rule { textURL(schemes: schemes) }

    /// `matches(_:)` for `String`.
    public static func matches(_ source: String) -> Rule { textMatches(source) }

    /// `uuid` for `String`.
    public static var uuid: Rule { textUUID }

    /// `format(_:)` for `String`.
    public static func format(_ format: TextFormat) -> Rule { textFormat(format) }
}

extension Rule where Value: StringProtocol & Sendable {
    // The generic rules under other names, for the `String` forwards above.
    fileprivate static var textNotBlank: Rule { notBlank }
    fileprivate static func textCharset(_ allowed: CharacterClass) -> Rule { charset(allowed) }
    fileprivate static func textEmail(_ options: EmailAddressValidator.Options) -> Rule { email(options) }
    fileprivate static func textURL(schemes: Set<String>) -> Rule { url(schemes: schemes) }
    fileprivate static var textUUID: Rule { uuid }
    fileprivate static func textMatches(_ source: String) -> Rule { matches(source) }
    fileprivate static func textFormat(_ format: TextFormat) -> Rule { self.format(format) }
}
