import AssayCore
import AssayJSON

/// Decoding of a value that is one of several alternatives told apart by its JSON kind (a string
/// or an integer), by the value of one of its members (`"kind": "circle"`) or by which member of
/// its own it holds (`"weighted"` or `"loadBalancer"`, each allowed in one alternative only): what
/// `assay generate swift` writes for a `oneOf` or `anyOf` whose alternatives cannot overlap.
///
/// <!-- snippet: doc-union-decoding -->
/// ```swift
/// enum Quantity: Codable, Sendable, Hashable {
///     case integer(Int)
///     case string(String)
///
///     init(from decoder: any Decoder) throws {
///         switch try UnionDecoding.kind(of: decoder, among: [.integer, .string]) {
///         case .integer: self = .integer(try UnionDecoding.decode(Int.self, from: decoder, rule: .range(0...)))
///         default: self = .string(try UnionDecoding.decode(String.self, from: decoder, rule: .length(1...3)))
///         }
///     }
///
///     func encode(to encoder: any Encoder) throws {
///         switch self {
///         case .integer(let value): try value.encode(to: encoder)
///         case .string(let value): try value.encode(to: encoder)
///         }
///     }
/// }
///
/// // The same rules on demand (and on save): the case's value, checked at the enum's place.
/// extension Quantity: Validatable {
///     static let validation: Validation<Quantity> = [
///         .payload { quantity in
///             switch quantity {
///             case .integer(let value): .value(value, rule: .range(0...))
///             case .string(let value): .value(value, rule: .length(1...3))
///             }
///         }
///     ]
/// }
///
/// func decodeQuantities() throws {
///     let decoder = JSONValueDecoder()
///     let decoded = try decoder.decodeValidated([Quantity].self, from: Array(#"[2, "abc"]"#.utf8)).value
///     print(decoded == [.integer(2), .string("abc")])  // true
///     do {
///         _ = try decoder.decodeValidated([Quantity].self, from: Array(#"[-1, "abcd", true]"#.utf8))
///     } catch {
///         print(error.issues.map(\.path.jsonPointer))  // ["/0", "/1", "/2"]
///     }
///     print(Quantity.string("abcd").issues().map(\.code))  // [tooLong]
/// }
/// ```
///
/// Every failure is a `ValidationError` whose issues carry the value's path in the payload, as a
/// `@Validatable` model's do: a kind that is not among the alternatives is a `typeMismatch`, a
/// member that names no alternative (or is missing) a `noMatch`, and the chosen alternative's own
/// failures are reported where they are.
public enum UnionDecoding {
    /// The JSON kind of the value `decoder` holds, when it is one of `kinds` (an integer counts as a
    /// `number` when only `number` is listed).
    ///
    /// - Throws: `ValidationError` with a `typeMismatch` issue at the value's path.
    public static func kind(of decoder: any Decoder, among kinds: [JSONKind]) throws(ValidationError) -> JSONKind {
        let found = self.kind(of: decoder)
        if kinds.contains(found) { return found }
        if found == .integer && kinds.contains(.number) { return .number }
        throw mismatch(of: decoder, expected: kinds)
    }

    private static func mismatch(of decoder: any Decoder, expected kinds: [JSONKind]) -> ValidationError {
        var context = RuleContext(path: path(of: decoder), phase: .decode)
        context.report(
            .typeMismatch, parameters: ["expected": .string(kinds.map(\.rawValue).joined(separator: " or "))])
        return ValidationError(context.issues)
    }

    /// The string value of the member `key` of the object `decoder` holds, when it is one of `tags`
    /// (or any string, with `anyOther`).
    ///
    /// - Parameters:
    ///   - decoder: The decoder of the value.
    ///   - key: The member whose value names the alternative.
    ///   - tags: The values it may have, one an alternative.
    ///   - anyOther: Any other string selects too, and is returned as found: one alternative takes
    ///     the values that `tags` do not name (a schema's conditions on some values of a member
    ///     that may have others).
    ///   - otherwise: The rule whose issues are reported when no alternative is selected (see
    ///     ``exactlyOne(of:_:otherwise:)``).
    /// - Throws: `ValidationError` with a `typeMismatch` issue when the value is not an object, and a
    ///   `noMatch` issue at the object's path when the member is missing, not a string, or none of
    ///   `tags` (every alternative requires it, so none matches); `otherwise`'s issues instead when
    ///   it has any.
    public static func tag(
        of decoder: any Decoder, key: String, among tags: [String], anyOther: Bool = false,
        otherwise: Rule<JSONValue>? = nil
    ) throws(ValidationError) -> String {
        try tag(of: decoder, key: key, among: tags, anyOther: anyOther, absent: false, otherwise: otherwise)!
    }

    /// The member's tag, or `nil` when the object has no such member and `absent` selects that:
    /// one reading of the object for ``tag(of:key:among:anyOther:otherwise:)`` and
    /// ``tagIfPresent(of:key:among:anyOther:otherwise:)``.
    private static func tag(
        of decoder: any Decoder, key: String, among tags: [String], anyOther: Bool, absent: Bool,
        otherwise: Rule<JSONValue>?
    ) throws(ValidationError) -> String? {
        guard let object = try? decoder.container(keyedBy: AnyKey.self) else {
            throw unmatched(decoder, otherwise, mismatch(of: decoder, expected: [.object]))
        }
        let member = AnyKey(stringValue: key)
        if absent && !object.contains(member) { return nil }
        if let found = try? object.decodeIfPresent(JSONValue.self, forKey: member), case .string(let tag) = found,
            anyOther || tags.contains(tag)
        {
            return tag
        }
        var context = RuleContext(path: path(of: decoder), phase: .decode)
        context.report(
            .noMatch,
            parameters: [
                "count": .integer(tags.count), "member": .string(key), "allowed": .list(tags.map(IssueValue.string)),
            ], messageKey: "noMatch.tag"
        )
        throw unmatched(decoder, otherwise, ValidationError(context.issues))
    }

    /// The string value of the member `key` of the object `decoder` holds, when it is one of `tags`
    /// (or any string, with `anyOther`); `nil` when the object has no such member (one alternative
    /// is the object without it: a schema's conditions on a member it does not require).
    ///
    /// - Parameters:
    ///   - decoder: The decoder of the value.
    ///   - key: The member whose value names the alternative.
    ///   - tags: The values it may have, one an alternative.
    ///   - anyOther: Any other string selects too, and is returned as found.
    ///   - otherwise: The rule whose issues are reported when no alternative is selected (see
    ///     ``exactlyOne(of:_:otherwise:)``).
    /// - Throws: `ValidationError` with a `typeMismatch` issue when the value is not an object, and a
    ///   `noMatch` issue at the object's path when the member is not a string or none of `tags`;
    ///   `otherwise`'s issues instead when it has any.
    public static func tagIfPresent(
        of decoder: any Decoder, key: String, among tags: [String], anyOther: Bool = false,
        otherwise: Rule<JSONValue>? = nil
    ) throws(ValidationError) -> String? {
        try tag(of: decoder, key: key, among: tags, anyOther: anyOther, absent: true, otherwise: otherwise)
    }

    /// The error of a value no alternative was selected for: `otherwise`'s issues when it has any
    /// (a union beside members of the object around it reports what its whole schema reports:
    /// those members' failures, or none of the alternatives passing), else `error`.
    private static func unmatched(_ decoder: any Decoder, _ otherwise: Rule<JSONValue>?, _ error: ValidationError)
        -> ValidationError
    {
        guard let otherwise, let value = try? JSONValue(from: decoder) else { return error }
        let found = otherwise.issues(for: value, at: path(of: decoder))
        return found.contains(where: \.isError) ? ValidationError(found) : error
    }

    /// Which of `members` the object `decoder` holds, when it holds exactly one: what tells apart
    /// alternatives that each require a member of their own and allow no member of another's
    /// (`additionalProperties: false`), so that the object can be of one alternative only.
    ///
    /// - Parameters:
    ///   - decoder: The decoder of the value.
    ///   - members: The members, one an alternative's own.
    ///   - otherwise: The rule whose issues are reported when no alternative is selected (see
    ///     ``exactlyOne(of:_:otherwise:)``).
    /// - Throws: `ValidationError` with a `typeMismatch` issue when the value is not an object, and a
    ///   `noMatch` issue at the object's path when it holds none of `members` or more than one (no
    ///   alternative then matches); `otherwise`'s issues instead when it has any.
    public static func member(of decoder: any Decoder, among members: [String], otherwise: Rule<JSONValue>? = nil)
        throws(ValidationError) -> String
    {
        guard let object = try? decoder.container(keyedBy: AnyKey.self) else {
            throw unmatched(decoder, otherwise, mismatch(of: decoder, expected: [.object]))
        }
        let present = members.filter { object.contains(AnyKey(stringValue: $0)) }
        if present.count == 1 { return present[0] }
        var context = RuleContext(path: path(of: decoder), phase: .decode)
        context.report(
            .noMatch, parameters: ["count": .integer(members.count), "allowed": .list(members.map(IssueValue.string))],
            messageKey: "noMatch.member")
        throw unmatched(decoder, otherwise, ValidationError(context.issues))
    }

    /// Decodes the chosen alternative and checks it against `rule`: every issue carries its path.
    ///
    /// - Throws: `ValidationError` with the value's decoding failures, or its rule's errors.
    public static func decode<T: Decodable>(_ type: T.Type, from decoder: any Decoder, rule: Rule<T>? = nil)
        throws(ValidationError) -> T
    {
        let value: T
        do {
            value = try T(from: decoder)
        } catch {
            var collector = IssueCollector(policy: ValidatedDecoding.policy(of: decoder))
            collector.fail(error, at: path(of: decoder), expected: "\(T.self)")
            throw collector.aggregate()
        }
        // The path is worked out only where an issue may need it: most values have no rule.
        guard let rule else { return value }
        let found = rule.issues(for: value, at: path(of: decoder))
        if found.contains(where: \.isError) { throw ValidationError(found) }
        ValidatedDecoding.addWarnings(found, of: decoder)
        return value
    }

    /// Decodes the value with `body` (the enum's alternative chosen and read) as JSON Schema's
    /// `unevaluatedProperties: false` beside the union says: when the value is an object and fails
    /// in a way other than members its alternative does not declare, each of its members is reported
    /// as not allowed too (no alternative passed, so none of them was evaluated).
    ///
    /// <!-- snippet: doc-union-closed -->
    /// ```swift
    /// @Validatable(unknownKeys: .reject)
    /// struct BytesCodec: Codable, Sendable, Hashable {
    ///     @Validate(.const("bytes")) var codec: String
    /// }
    ///
    /// @Validatable(unknownKeys: .reject)
    /// struct TextCodec: Codable, Sendable, Hashable {
    ///     @Validate(.const("text")) var codec: String
    ///     @Validate(.length(1...)) var charset: String
    /// }
    ///
    /// // `{"oneOf": [bytes, text], "unevaluatedProperties": false}`
    /// enum Codec: Codable, Sendable, Hashable {
    ///     case bytes(BytesCodec)
    ///     case text(TextCodec)
    ///
    ///     init(from decoder: any Decoder) throws {
    ///         self = try UnionDecoding.closed(decoder) { () throws(ValidationError) -> Self in
    ///             switch try UnionDecoding.tag(of: decoder, key: "codec", among: ["bytes", "text"]) {
    ///             case "bytes": .bytes(try UnionDecoding.decode(BytesCodec.self, from: decoder))
    ///             default: .text(try UnionDecoding.decode(TextCodec.self, from: decoder))
    ///             }
    ///         }
    ///     }
    ///
    ///     func encode(to encoder: any Encoder) throws {
    ///         switch self {
    ///         case .bytes(let value): try value.encode(to: encoder)
    ///         case .text(let value): try value.encode(to: encoder)
    ///         }
    ///     }
    /// }
    ///
    /// func decodeCodecs() {
    ///     func places(_ json: String) -> [String] {
    ///         do {
    ///             _ = try JSONValueDecoder().decodeValidated(Codec.self, from: Array(json.utf8))
    ///             return []
    ///         } catch {
    ///             return error.issues.map { "\($0.code) \($0.path.jsonPointer)" }
    ///         }
    ///     }
    ///     // A member the alternative does not declare: reported alone.
    ///     print(places(#"{"codec": "bytes", "charset": "utf-8"}"#))  // ["unknownKey /charset"]
    ///     // The alternative failed (an empty charset): each member is reported as not evaluated too.
    ///     let failed = places(#"{"codec": "text", "charset": ""}"#)
    ///     print(failed)  // ["tooShort /charset", "unknownKey /codec", "unknownKey /charset"]
    /// }
    /// ```
    ///
    /// The alternatives' structs refuse the keys they do not declare
    /// (`@Validatable(unknownKeys: .reject)`): those are reported alone, as the schema reports them.
    ///
    /// - Throws: `ValidationError` with the failures of `body`, and an `unknownKey` issue at each
    ///   member of an object that failed.
    public static func closed<T>(_ decoder: any Decoder, _ body: () throws(ValidationError) -> T)
        throws(ValidationError) -> T
    {
        do {
            return try body()
        } catch {
            guard let object = try? decoder.container(keyedBy: AnyKey.self) else { throw error }
            let unevaluated = IssueCollector.unevaluatedIssues(
                keys: object.allKeys.map(\.stringValue), at: path(of: decoder), besides: error.issues)
            guard !unevaluated.isEmpty else { throw error }
            var widened = error
            widened.append(contentsOf: unevaluated)
            throw widened
        }
    }

    /// Decodes the value as the one alternative that takes it, trying each — JSON Schema's `oneOf`
    /// when its alternatives can take the same values (two objects with no member to tell them
    /// apart, two arrays …): each alternative reads the value and checks its rules, and exactly one
    /// must pass.
    ///
    /// <!-- snippet: doc-union-one-of -->
    /// ```swift
    /// @Validatable
    /// struct Circle: Codable, Sendable, Hashable {
    ///     @Validate(.range(0...)) var radius: Double
    /// }
    ///
    /// @Validatable
    /// struct Labelled: Codable, Sendable, Hashable {
    ///     @Validate(.length(1...)) var label: String
    /// }
    ///
    /// // `{"oneOf": [circle, labelled]}`: an object may be either, or both.
    /// enum Mark: Codable, Sendable, Hashable {
    ///     case circle(Circle)
    ///     case labelled(Labelled)
    ///
    ///     init(from decoder: any Decoder) throws {
    ///         self = try UnionDecoding.exactlyOne(
    ///             of: decoder,
    ///             [
    ///                 { Mark.circle(try UnionDecoding.decode(Circle.self, from: $0)) },
    ///                 { Mark.labelled(try UnionDecoding.decode(Labelled.self, from: $0)) },
    ///             ])
    ///     }
    ///
    ///     func encode(to encoder: any Encoder) throws {
    ///         switch self {
    ///         case .circle(let value): try value.encode(to: encoder)
    ///         case .labelled(let value): try value.encode(to: encoder)
    ///         }
    ///     }
    /// }
    ///
    /// func decodeMarks() {
    ///     func outcome(_ json: String) -> String {
    ///         do {
    ///             switch try JSONValueDecoder().decodeValidated(Mark.self, from: Array(json.utf8)).value {
    ///             case .circle: return "circle"
    ///             case .labelled: return "labelled"
    ///             }
    ///         } catch {
    ///             return "\(error.issues.map(\.code))"
    ///         }
    ///     }
    ///     print(outcome(#"{"radius": 2}"#))  // circle
    ///     print(outcome(#"{"radius": 2, "label": "a"}"#))  // [noMatch]: both take it
    ///     print(outcome(#"{"radius": -1}"#))  // [noMatch]: neither takes it
    /// }
    /// ```
    ///
    /// Each value is read once by each alternative: `assay generate swift` writes this only for a
    /// union none of whose alternatives holds such a union in turn, so that the work stays linear in
    /// the input.
    ///
    /// - Parameters:
    ///   - decoder: The decoder of the value.
    ///   - alternatives: Each alternative's decoding, as a case of the enum.
    ///   - otherwise: The rule whose issues are reported instead when no alternative or several
    ///     take the value: `assay generate swift` gives the union's own schema when the union stands
    ///     beside members of the object around it, which each alternative then holds too (so that
    ///     the object's failures are reported where the schema reports them).
    /// - Throws: `ValidationError` with one `noMatch` issue at the value's path when no alternative
    ///   takes the value, or when several do (the alternatives' own failures are not reported, as
    ///   `Rule.exactlyOne(_:)` does not report them); `otherwise`'s issues instead when it has any.
    public static func exactlyOne<T>(
        of decoder: any Decoder, _ alternatives: [@Sendable (any Decoder) throws -> T],
        otherwise: Rule<JSONValue>? = nil
    ) throws(ValidationError) -> T {
        var chosen: T?
        var passing = 0
        let handle = NodeDecoderHandle(decoder)
        for alternative in alternatives {
            // Each alternative reads the value afresh: another's reads hide no unknown key.
            handle?.forgetReadsInside()
            guard let value = try? alternative(decoder) else { continue }
            passing += 1
            if chosen == nil { chosen = value }
        }
        if passing == 1, let chosen {
            markChecked(T.self, decoder)
            return chosen
        }
        var context = RuleContext(path: path(of: decoder), phase: .decode)
        if passing == 0 {
            context.report(.noMatch, parameters: ["count": .integer(alternatives.count)])
        } else {
            context.report(.noMatch, parameters: ["count": .integer(passing)], messageKey: "schema.oneOf.many")
        }
        throw unmatched(decoder, otherwise, ValidationError(context.issues))
    }

    /// Decodes the value as the first alternative that takes it, trying each in turn — JSON
    /// Schema's `anyOf` when its alternatives can take the same values; see
    /// ``exactlyOne(of:_:otherwise:)``.
    ///
    /// - Parameters:
    ///   - decoder: The decoder of the value.
    ///   - alternatives: Each alternative's decoding, as a case of the enum, in order.
    ///   - otherwise: The rule whose issues are reported instead when no alternative takes the value.
    /// - Throws: `ValidationError` with one `noMatch` issue at the value's path when no alternative
    ///   takes the value; `otherwise`'s issues instead when it has any.
    public static func firstMatching<T>(
        of decoder: any Decoder, _ alternatives: [@Sendable (any Decoder) throws -> T],
        otherwise: Rule<JSONValue>? = nil
    ) throws(ValidationError) -> T {
        let handle = NodeDecoderHandle(decoder)
        for alternative in alternatives {
            handle?.forgetReadsInside()
            if let value = try? alternative(decoder) {
                markChecked(T.self, decoder)
                return value
            }
        }
        var context = RuleContext(path: path(of: decoder), phase: .decode)
        context.report(.noMatch, parameters: ["count": .integer(alternatives.count)])
        throw unmatched(decoder, otherwise, ValidationError(context.issues))
    }

    /// On demand (`issues()`, on save), what ``exactlyOne(of:_:otherwise:)`` decides while
    /// decoding: the value, written as JSON, is read again by each alternative, and exactly one must
    /// take it — a value built in Swift as one case that another alternative takes too is refused
    /// (`noMatch`, as decoding its JSON would be). A `ModelRule.decodingCheck(_:_:)`: validated
    /// decoding, which tried the alternatives as it read, does not make it again.
    ///
    /// `assay generate swift` writes it beside the `.payload` of a `oneOf` whose alternatives it
    /// tries, the alternatives shared with its `init(from:)`:
    /// `UnionDecoding.exactlyOneOnDemand(Self.alternatives)`.
    ///
    /// - Parameter alternatives: Each alternative's decoding, as a case of the enum, in order.
    public static func exactlyOneOnDemand<T: Encodable & SendableMetatype>(
        _ alternatives: [@Sendable (any Decoder) throws -> T]
    )
        -> ModelRule<T>
    {
        .decodingCheck("exactlyOne") { value, context in
            guard let json = try? JSONValueEncoder().encode(value) else { return }
            var passing = 0
            for alternative in alternatives {
                var decoder = JSONValueDecoder()
                decoder.userInfo[AlternativeReader<T>.key] = AlternativeReader(read: alternative)
                if (try? decoder.decode(AlternativeReader<T>.Probe.self, from: json)) != nil { passing += 1 }
            }
            if passing > 1 {
                context.report(.noMatch, parameters: ["count": .integer(passing)], messageKey: "schema.oneOf.many")
            } else if passing == 0
                && !context.issues.contains(where: {
                    $0.severity == .error && $0.path.components.starts(with: context.path.components)
                })
            {
                // Its own case's rules, checked before at this value, say why when they fail (the
                // issues of the model around it, in a locating pass, are not this value's).
                context.report(.noMatch, parameters: ["count": .integer(alternatives.count)])
            }
        }
    }

    /// A value decoded by one of the alternatives of a union whose rules all check what it holds
    /// (its `.payload`, ``exactlyOneOnDemand(_:)``) has been checked as it was read: recorded, so
    /// that validated decoding does not check it again.
    private static func markChecked<T>(_ type: T.Type, _ decoder: any Decoder) {
        func checksOnlyNested<M: Validatable>(_ model: M.Type) -> Bool { M.validation.checksOnlyNested }
        guard let model = T.self as? any Validatable.Type, checksOnlyNested(model) else { return }
        ValidatedDecoding.context(of: decoder).markValidated(T.self)
    }

    /// The kind of the value: an object or an array by its container; a scalar read whole.
    private static func kind(of decoder: any Decoder) -> JSONKind {
        if (try? decoder.container(keyedBy: AnyKey.self)) != nil { return .object }
        if (try? decoder.unkeyedContainer()) != nil { return .array }
        guard let single = try? decoder.singleValueContainer() else { return .null }
        if single.decodeNil() { return .null }
        return (try? single.decode(JSONValue.self))?.kind ?? .null
    }

    private static func path(of decoder: any Decoder) -> IssuePath { IssueCollector.path(of: decoder) }
}

/// One alternative's decoding, handed to a probe through the decoder's `userInfo`: what
/// ``UnionDecoding/exactlyOneOnDemand(_:)`` reads a value's JSON with.
private struct AlternativeReader<T>: Sendable {
    static var key: CodingUserInfoKey { CodingUserInfoKey(rawValue: "assay.alternativeReader")! }

    let read: @Sendable (any Decoder) throws -> T

    /// Decodes through the reader in `userInfo`, keeping nothing.
    struct Probe: Decodable {
        init(from decoder: any Decoder) throws {
            guard let reader = decoder.userInfo[AlternativeReader.key] as? AlternativeReader else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no alternative to read"))
            }
            _ = try reader.read(decoder)
        }
    }
}
