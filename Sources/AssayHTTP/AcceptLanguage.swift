import AssayCore

/// An `Accept-Language` request header (RFC 9110 §12.5.4): the language ranges a client prefers, with
/// their weights, and the choice of the language to answer in.
///
/// Ranges are matched as RFC 4647's *lookup* does, through `Language`'s reading of a tag: `ru-RU`
/// is answered in Russian, `zh-CN` and `zh-Hans-SG` in Simplified Chinese, `zh-TW` in Traditional
/// Chinese only (never Simplified). A range of weight 0 excludes its language, `*` stands for any
/// language not named, and a malformed member is passed over rather than failing the request.
///
/// <!-- snippet: doc-accept-language -->
/// ```swift
/// let header = AcceptLanguage("de-CH, ru-RU;q=0.8, en;q=0.5")
/// print(header.language())  // ru: Assay has no German messages
/// print(AcceptLanguage("zh-CN,zh;q=0.9").language())  // zh-Hans
/// print(AcceptLanguage(nil).language(default: .russian))  // ru
/// ```
public struct AcceptLanguage: Sendable, Hashable {
    /// One member of the header: a language range and its weight (0 to 1).
    public struct Range: Sendable, Hashable {
        /// The range as written (`"ru-RU"`, `"*"`).
        public let tag: String
        /// The weight, `q`: 1 when not given.
        public let quality: Double

        /// Makes a range.
        public init(tag: String, quality: Double) {
            self.tag = tag
            self.quality = quality
        }
    }

    /// The members with a weight above 0, most preferred first (equal weights in header order).
    public let ranges: [Range]
    /// The languages the client refuses (`q=0`).
    public let excluded: Set<Language>

    /// Reads a header value; `nil` or an empty value means no preference.
    public init(_ header: String?) {
        var ranges: [(range: Range, position: Int)] = []
        var excluded: Set<Language> = []
        for (position, member) in (header ?? "").split(separator: ",").enumerated() {
            let parts = member.split(separator: ";").map { $0.trimmingCharacters(in: " \t") }
            guard let tag = parts.first, !tag.isEmpty, Self.isRange(tag) else { continue }
            var quality = 1.0
            var wellFormed = true
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: " \t") }
                guard pair.count == 2, pair[0].lowercased() == "q" else { continue }
                guard let weight = Double(pair[1]), weight >= 0, weight <= 1, pair[1].count <= 5 else {
                    wellFormed = false
                    break
                }
                quality = weight
            }
            guard wellFormed else { continue }
            if quality == 0 {
                // `*;q=0` refuses the languages not named; the default is answered in all the same,
                // as RFC 9110 lets a server do rather than answer 406.
                if tag != "*", let language = Language(tag) { excluded.insert(language) }
                continue
            }
            ranges.append((Range(tag: tag, quality: quality), position))
        }
        self.ranges = ranges.sorted {
            $0.range.quality != $1.range.quality ? $0.range.quality > $1.range.quality : $0.position < $1.position
        }.map(\.range)
        self.excluded = excluded
    }

    /// The language to answer in: the most preferred range that `catalog` has messages for and the
    /// client does not refuse; for `*`, `default` (or, if it is refused, the first language of the
    /// catalog's built-in ones that is not); with no preference, or none that matches, `default`.
    public func language(in catalog: MessageCatalog = .current, default fallback: Language = .english) -> Language {
        for range in ranges {
            if range.tag == "*" {
                if !excluded.contains(fallback) { return fallback }
                if let other = Language.builtIn.first(where: { !excluded.contains($0) && catalog.hasMessages(in: $0) })
                {
                    return other
                }
                continue
            }
            guard let language = Language(range.tag), !excluded.contains(language) else { continue }
            if catalog.hasMessages(in: language) { return language }
        }
        return fallback
    }

    /// Whether `tag` has the form of a language range: `*`, or letters and digits in parts of 1 to 8
    /// joined by `-` (the first part letters).
    static func isRange(_ tag: String) -> Bool {
        if tag == "*" { return true }
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.allSatisfy { part in
            (1...8).contains(part.count)
                && part.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "*" }
        }
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}
