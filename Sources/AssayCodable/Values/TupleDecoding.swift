import AssayCore
import AssayJSON

/// Decoding of a tuple: a JSON array whose items each have a schema of their own (JSON Schema's
/// `prefixItems`, or draft 7's `items` array beside `additionalItems`), read item by item into the
/// stored properties of a struct — what `assay generate swift` writes for such an array. Every item
/// that fails is reported at its index, a count out of bounds at the array, and items the tuple
/// refuses (`additionalItems: false`) each at its own index, all in one error.
///
/// <!-- snippet: doc-tuple-decoding -->
/// ```swift
/// // `{"prefixItems": [{"type": "boolean"}, {"type": "string", "minLength": 1}], "minItems": 1,
/// //   "items": {"type": "integer", "minimum": 0}}`
/// struct Setting: Codable, Sendable, Hashable {
///     var item0: Bool
///     var item1: String?
///     var rest: [Int] = []
///
///     init(item0: Bool, item1: String? = nil, rest: [Int] = []) {
///         self.item0 = item0
///         self.item1 = item1
///         self.rest = rest
///     }
///
///     init(from decoder: any Decoder) throws {
///         var items = try TupleDecoding(decoder, minimumCount: 1)
///         let item0 = items.item(Bool.self)
///         let item1 = items.item(String.self, rule: .length(1...))
///         let rest = items.rest(Int.self, rule: .range(0...))
///         try items.finish()
///         self.init(item0: try items.present(item0), item1: item1, rest: rest)
///     }
///
///     func encode(to encoder: any Encoder) throws {
///         try TupleDecoding.encode([item0], then: [item1], rest: rest, to: encoder)
///     }
/// }
///
/// func decodeSettings() {
///     let decoder = JSONValueDecoder()
///     let setting = try? decoder.decodeValidated(Setting.self, from: Array(#"[true, "on", 3]"#.utf8)).value
///     print(setting == Setting(item0: true, item1: "on", rest: [3]))  // true
///     do {
///         _ = try decoder.decodeValidated(Setting.self, from: Array(#"[1, "", -1]"#.utf8))
///     } catch {
///         print(error.issues.map(\.path.jsonPointer))  // ["/0", "/1", "/2"]
///     }
/// }
/// ```
///
/// On demand and on save the struct checks the same rules with AssayCore's `Payload.item(_:at:rule:)`
/// and `Payload.items(_:from:rule:)`, so that each issue is located at its item.
public struct TupleDecoding {
    private let decoder: any Decoder
    private var container: any UnkeyedDecodingContainer
    private var collector: IssueCollector
    private let path: IssuePath
    private let minimumCount: Int?
    private let maximumCount: Int?

    /// Starts reading the array `decoder` holds.
    ///
    /// - Parameters:
    ///   - decoder: The decoder of the value.
    ///   - minimumCount: The fewest items the array may have (`minItems`), checked by ``finish(refusingMore:)``.
    ///   - maximumCount: The most items it may have (`maxItems`).
    /// - Throws: `ValidationError` with a `typeMismatch` issue when the value is not an array.
    public init(_ decoder: any Decoder, minimumCount: Int? = nil, maximumCount: Int? = nil) throws(ValidationError) {
        self.decoder = decoder
        path = IssueCollector.path(of: decoder)
        collector = IssueCollector(policy: ValidatedDecoding.policy(of: decoder))
        self.minimumCount = minimumCount
        self.maximumCount = maximumCount
        do {
            container = try decoder.unkeyedContainer()
        } catch {
            var context = RuleContext(path: path, phase: .decode)
            context.report(.typeMismatch, parameters: ["expected": .string(JSONKind.array.rawValue)])
            throw ValidationError(context.issues)
        }
    }

    /// The next item, decoded as `type` and checked with `rule`; `nil` when the array has no more
    /// items, or when the item failed (its issues are recorded, at its index, for ``finish(refusingMore:)``).
    public mutating func item<T: Decodable>(_ type: T.Type, rule: Rule<T>? = nil) -> T? {
        guard !container.isAtEnd, !collector.truncated else { return nil }
        let index = container.currentIndex
        let place = path.appending(index: index)
        let value: T
        if let nested = T.self as? any ElementwiseDecodable.Type {
            // An array item: each of its elements decoded, so that every bad one is reported.
            switch nested.decodeElementwise(from: &container, into: &collector, at: place) {
            case .decoded(let decoded): value = decoded as! T
            case .failed: return nil
            case .notAnArray: return decoded(at: index, place)
            }
        } else {
            guard let decoded = decoded(T.self, at: index, place) else { return nil }
            value = decoded
        }
        guard let rule else { return value }
        let found = rule.issues(for: value, at: place)
        collector.record(found)
        return found.contains(where: \.isError) ? nil : value
    }

    /// The item at the container's current index, decoded; its failure recorded at `place`.
    private mutating func decoded<T: Decodable>(_ type: T.Type = T.self, at index: Int, _ place: IssuePath) -> T? {
        do {
            return try container.decode(T.self)
        } catch {
            collector.fail(error, at: place, expected: "\(T.self)")
            // Some decoders leave the index on a failed item: step over it.
            if container.currentIndex == index { _ = try? container.decode(SkippedValue.self) }
            return nil
        }
    }

    /// Every item left, each decoded as `type` and checked with `rule` (the items after those the
    /// tuple names: `items` beside `prefixItems`, draft 7's `additionalItems`); those that fail are
    /// recorded and left out.
    public mutating func rest<T: Decodable>(_ type: T.Type, rule: Rule<T>? = nil) -> [T] {
        var values: [T] = []
        while !container.isAtEnd && !collector.truncated {
            let index = container.currentIndex
            if let value = item(T.self, rule: rule) { values.append(value) }
            // A decoder that cannot step over an item stops the reading.
            if container.currentIndex == index { break }
        }
        return values
    }

    /// Ends the reading: the items left are each reported as not allowed with `refusingMore` (the
    /// tuple takes no more: `additionalItems: false`), and otherwise passed over (when the tuple's
    /// `maximumCount` already refuses them); the count is checked against its bounds.
    ///
    /// - Throws: `ValidationError` with every issue recorded, when one is an error.
    public mutating func finish(refusingMore: Bool = false) throws(ValidationError) {
        while !container.isAtEnd && !collector.truncated {
            let index = container.currentIndex
            if refusingMore {
                var context = RuleContext(path: path.appending(index: index), phase: .decode)
                context.report(.notAllowed, messageKey: "notAllowed.not")
                collector.record(context.issues)
            }
            _ = try? container.decode(SkippedValue.self)
            if container.currentIndex == index { break }
        }
        if minimumCount != nil || maximumCount != nil {
            let count = container.count ?? container.currentIndex
            let rule = Rule<Range<Int>>.count(minimum: minimumCount, maximum: maximumCount)
            collector.record(rule.issues(for: 0..<count, at: path), first: true)
        }
        if collector.failed { throw collector.aggregate() }
        ValidatedDecoding.addWarnings(collector.issues, of: decoder)
    }

    /// The value of an item the tuple always has (an index below its `minimumCount`), after
    /// ``finish(refusingMore:)`` passed: the count it checked guarantees it.
    ///
    /// - Throws: `ValidationError` with a `missing` issue, should the item be absent all the same.
    public func present<T>(_ value: T?) throws(ValidationError) -> T {
        guard let value else {
            var context = RuleContext(path: path, phase: .decode)
            context.report(.missing)
            throw ValidationError(context.issues)
        }
        return value
    }

    /// Writes a tuple: the items it always has, then those it may have up to the last present (one
    /// missing before it is written `null`, which its check on demand reports), then `rest`.
    public static func encode<Rest: Encodable>(
        _ items: [any Encodable], then optional: [(any Encodable)?] = [], rest: [Rest], to encoder: any Encoder
    ) throws {
        var container = encoder.unkeyedContainer()
        for item in items { try container.encode(item) }
        let written = rest.isEmpty ? (optional.lastIndex { $0 != nil }.map { $0 + 1 } ?? 0) : optional.count
        for item in optional.prefix(written) {
            if let item { try container.encode(item) } else { try container.encodeNil() }
        }
        for item in rest { try container.encode(item) }
    }

    /// ``encode(_:then:rest:to:)`` for a tuple with no items beyond those it names.
    public static func encode(_ items: [any Encodable], then optional: [(any Encodable)?] = [], to encoder: any Encoder)
        throws
    {
        try encode(items, then: optional, rest: [JSONValue](), to: encoder)
    }

    /// The number of items of a tuple as ``encode(_:then:rest:to:)`` writes them: what its count
    /// rule reads on demand (`.payload { .value($0.indices, rule: .count(...6)) }`).
    public static func count(_ items: Int, then optional: [Bool], rest: Int) -> Int {
        items + (rest > 0 ? optional.count : (optional.lastIndex { $0 }.map { $0 + 1 } ?? 0)) + rest
    }
}
