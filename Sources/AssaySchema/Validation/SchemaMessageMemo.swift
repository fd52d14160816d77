import AssayCore

/// The messages of schema errors already rendered, for a caller that renders many errors in one
/// language from one catalog: a worker of the command line, whose records fail in the same few
/// ways over and over.
///
/// A message whose template shows neither the value nor the whole instance location depends only
/// on the error's message key, code, parameters and the last key of its instance location; such a
/// message is rendered once and given again for every error alike. Others are rendered each time.
/// At most `capacity` messages are kept: when it is full, the memo starts over, so a run of errors
/// that are all different (an `unknownKey` per record, each naming another key) costs a bounded
/// amount of memory. Messages are looked up by message key, code and last key, then told apart by
/// their parameters among at most eight kept for each: a lookup costs one hash and a bounded
/// number of comparisons, whatever the errors.
///
/// Not for sharing between threads: each worker makes its own.
package final class SchemaMessageMemo {
    /// What a message depends on besides its parameters: hashed for the lookup. The parameters are
    /// only compared, among the few messages kept for one site.
    private struct Site: Hashable {
        let messageKey: String
        let code: IssueCode
        let lastKey: String?
    }

    private struct Entry {
        let parameters: [String: IssueValue]
        let text: String
    }

    /// The messages kept for one site, at most this many: the parameters of errors alike are
    /// compared one by one, so that errors of one site whose parameters all differ (an
    /// `uniqueItems` naming each duplicate) cost a bounded number of comparisons.
    private static let entriesPerSite = 8

    /// The language the memo's messages are in.
    package let language: Language
    /// The catalog asked for, or the current one when first needed (a run with no error never
    /// reads it).
    // One thread uses a memo (see above): its variables are read without exclusivity checks.
    @exclusivity(unchecked) private var catalog: MessageCatalog?
    private let capacity: Int
    @exclusivity(unchecked) private var messages: [Site: [Entry]] = [:]
    @exclusivity(unchecked) private(set) package var count = 0

    /// A memo of messages in `language` from `catalog` (by default, the current catalog when the
    /// first message is rendered), keeping at most `capacity` of them.
    package init(language: Language, catalog: MessageCatalog? = nil, capacity: Int = 1_024) {
        self.language = language
        self.catalog = catalog
        self.capacity = max(1, capacity)
    }

    /// `error`'s message, as ``SchemaError/message(in:)`` renders it in the memo's language with
    /// the memo's catalog.
    package func message(for error: SchemaError) -> String {
        let site = Site(messageKey: error.messageKey, code: error.code, lastKey: error.instanceLocation.lastKey)
        let known = messages[site]
        if let known {
            for entry in known where entry.parameters == error.parameters { return entry.text }
        }
        let catalog = self.catalog ?? MessageCatalog.current
        self.catalog = catalog
        let (text, reusable) = error.message(in: language, catalog: catalog)
        guard reusable, (known?.count ?? 0) < Self.entriesPerSite else { return text }
        if count >= capacity {
            messages.removeAll(keepingCapacity: true)
            count = 0
        }
        messages[site, default: []].append(Entry(parameters: error.parameters, text: text))
        count += 1
        return text
    }
}
