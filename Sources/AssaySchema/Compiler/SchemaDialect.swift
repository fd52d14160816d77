/// A JSON Schema dialect: the draft a schema is written in, chosen by its `$schema`.
public struct SchemaDialect: Hashable, Sendable, CustomStringConvertible {
    enum Draft: Int, Comparable, Sendable {
        case draft4 = 4, draft6 = 6, draft7 = 7, draft2019 = 2019, draft2020 = 2020
        static func < (lhs: Draft, rhs: Draft) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    let draft: Draft

    /// Draft 4 (`http://json-schema.org/draft-04/schema#`).
    public static let draft4 = SchemaDialect(draft: .draft4)
    /// Draft 6.
    public static let draft6 = SchemaDialect(draft: .draft6)
    /// Draft 7.
    public static let draft7 = SchemaDialect(draft: .draft7)
    /// Draft 2019-09.
    public static let draft2019_09 = SchemaDialect(draft: .draft2019)
    /// Draft 2020-12, the default.
    public static let draft2020_12 = SchemaDialect(draft: .draft2020)

    /// Every dialect Assay knows.
    public static let all: [SchemaDialect] = [.draft4, .draft6, .draft7, .draft2019_09, .draft2020_12]

    /// The dialect's metaschema URI.
    public var uri: String {
        switch draft {
        case .draft4: return "http://json-schema.org/draft-04/schema#"
        case .draft6: return "http://json-schema.org/draft-06/schema#"
        case .draft7: return "http://json-schema.org/draft-07/schema#"
        case .draft2019: return "https://json-schema.org/draft/2019-09/schema"
        case .draft2020: return "https://json-schema.org/draft/2020-12/schema"
        }
    }

    /// The short name: `4`, `6`, `7`, `2019-09`, `2020-12`.
    public var description: String {
        switch draft {
        case .draft4: return "4"
        case .draft6: return "6"
        case .draft7: return "7"
        case .draft2019: return "2019-09"
        case .draft2020: return "2020-12"
        }
    }

    /// The dialect named by a `$schema` URI (with or without `#`, `http` or `https`), or by a short
    /// name (`7`, `2020-12`); `nil` when unknown.
    public init?(_ text: String) {
        var key = text
        if key.hasSuffix("#") { key.removeLast() }
        // Only a leading `https://` can make a name below (the generic `replacing` cost 0.2M
        // instructions a call, at every start; so would `+` of a substring, the first time).
        if key.hasPrefix("https://") { key = "http://" + String(key.dropFirst("https://".count)) }
        switch key {
        case "http://json-schema.org/draft-04/schema", "4", "draft4": self = .draft4
        case "http://json-schema.org/draft-06/schema", "6", "draft6": self = .draft6
        case "http://json-schema.org/draft-07/schema", "7", "draft7": self = .draft7
        case "http://json-schema.org/draft/2019-09/schema", "2019-09", "draft2019-09": self = .draft2019_09
        case "http://json-schema.org/draft/2020-12/schema", "2020-12", "draft2020-12": self = .draft2020_12
        default: return nil
        }
    }

    private init(draft: Draft) { self.draft = draft }

    /// `$ref` makes sibling keywords ignored (drafts 4, 6 and 7).
    var refOverridesSiblings: Bool { draft <= .draft7 }
    /// The keyword that sets a schema's URI.
    var idKeyword: String { draft == .draft4 ? "id" : "$id" }
    /// `items` may be an array, with `additionalItems` (before 2020-12).
    var itemsArrayForm: Bool { draft <= .draft2019 }
}
