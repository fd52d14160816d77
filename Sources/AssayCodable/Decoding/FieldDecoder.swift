import AssayCore
import AssayJSON
import Foundation

/// Decodes the fields of one model and collects every failure instead of stopping at the first:
/// wrong types, missing keys, `null`s, failures of nested models and of array elements, unknown keys
/// (by policy) and, once the fields are read, the model's own rules.
///
/// `@Validatable` writes the `init(from:)` that uses it; write one by hand the same way:
///
/// <!-- snippet: doc-field-decoder -->
/// ```swift
/// init(from decoder: any Decoder) throws {
///     var fields = try FieldDecoder<Self, CodingKeys>(decoder)
///     let name = fields.decode(String.self, forKey: .name)
///     let age = fields.decode(Int.self, forKey: .age)
///     guard let name, let age, fields.isComplete else {
///         throw fields.failure(checking: [DecodedField("name", name), DecodedField("age", age)])
///     }
///     self.name = name
///     self.age = age
///     try fields.validate(&self)
/// }
/// ```
///
/// Every issue carries its full path from the root of the payload (`/1/age`, coding path
/// `[1].age`). The error thrown is one `ValidationError` holding them all, capped by
/// ``ValidatedDecodingPolicy/maximumIssues``.
public struct FieldDecoder<Model: Validatable, Key: CodingKey> {
    /// Where the fields are read from.
    @usableFromInline let source: FieldSource<Key>
    /// The container the fields are read from.
    public var container: KeyedDecodingContainer<Key> {
        switch source {
        case .node(let container): KeyedDecodingContainer(container)
        case .other(let box): box.container
        }
    }
    /// The path of the model in the payload, worked out when it is asked for (an issue is being
    /// reported): most models have none, and building the path for each would cost more than reading
    /// its fields.
    public var path: IssuePath {
        switch source {
        case .node(let container): container.path
        case .other(let box): IssuePath(codingPath: box.container.codingPath)
        }
    }
    /// The run's policy, and where the warnings of a valid value go.
    @usableFromInline let context: ValidatedDecoding.Context
    @usableFromInline var collector: IssueCollector
    /// For lossy arrays that dropped elements: the input index of each kept element, by key, so
    /// issues of the array's rules name the element's place in the input.
    @usableFromInline var keptIndices: [String: [Int]]
    /// Whether unknown keys are found after the fields are read: AssayJSON's decoder marks the
    /// members it looks up, so only the members left unread need their names checked.
    @usableFromInline var checksUnreadKeys: Bool
    /// Whether an array of scalars may first be decoded whole, through the decoder's own fast path
    /// (AssayJSON's decoder in strict mode, where a failed attempt leaves no coercion warnings); only
    /// an array that fails is then decoded again element by element, to report each bad element.
    @usableFromInline let decodesScalarArraysWhole: Bool
    /// The members kept beside the properties that decoded, when some did not: their rules are
    /// still checked, so that every failure is reported at once.
    var partialAdditionalProperties: Any?

    /// Opens the model's container (a value that is not an object, or `null`, throws at once) and
    /// checks its keys against `Key`, as the policy says, or as `unknownKeys` says when the model
    /// declares it (`@Validatable(unknownKeys: .reject)`: the type's own contract wins).
    ///
    /// Inlinable, so it is specialised for the model: generic code would find the field decoder's
    /// layout and the container's type at run time, for every object decoded.
    ///
    /// - Throws: `ValidationError` when `decoder` holds no object.
    @inlinable
    public init(_ decoder: any Decoder, unknownKeys: ValidatedDecodingPolicy.UnknownKeys? = nil) throws(ValidationError)
    {
        let opening = FieldsOpening(decoder, unknownKeys: unknownKeys)
        do {
            if let handle = opening.handle {
                source = .node(try handle.keyedContainer(keyedBy: Key.self))
            } else {
                source = .other(KeyedContainerBox(try decoder.container(keyedBy: Key.self)))
            }
        } catch {
            throw opening.failure(error, expected: Model.self, decoder: decoder)
        }
        context = opening.context
        collector = IssueCollector(policy: opening.policy)
        keptIndices = [:]
        checksUnreadKeys = opening.checksUnreadKeys
        decodesScalarArraysWhole = opening.isStrict
        if opening.listsKeys { checkKeys(of: decoder, handle: opening.handle) }
    }

    /// Checks the keys of the object against `Key` before the fields are read (decoders that do not
    /// tell which members were read).
    @usableFromInline
    mutating func checkKeys(of decoder: any Decoder, handle: NodeDecoderHandle?) {
        let isKnown = { (name: String) in Key(stringValue: name) != nil }
        let unknown =
            handle?.unknownKeys(isKnown: isKnown)
            ?? ((try? decoder.container(keyedBy: AnyKey.self))?.allKeys.map(\.stringValue).filter { !isKnown($0) }
                ?? [])
        collector.record(unknownKeyIssues(unknown))
    }

    private func unknownKeyIssues(_ keys: [String]) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        for key in keys {
            var context = RuleContext(path: path.appending(key: key), phase: .decode)
            context.report(
                .unknownKey, parameters: ["key": .string(key)],
                severity: collector.policy.unknownKeys.rejects ? .error : .warning)
            issues += context.issues
        }
        return issues
    }

    /// Checks the members no field read (when the check was left until the fields were read): the
    /// unknown ones are reported first, where a check before the fields would have put them.
    @usableFromInline
    mutating func checkUnreadKeys() {
        guard checksUnreadKeys, case .node(let container) = source else { return }
        checksUnreadKeys = false
        let unknown = container.unreadKeys().filter { Key(stringValue: $0) == nil }
        collector.record(unknownKeyIssues(unknown), first: true)
    }

    /// Whether every field decoded and no error was found so far.
    public var isComplete: Bool { !collector.failed }

    // Inlinable (as the other scalar `decode`s): specialised in the model's module, a `String` or
    // `Int` field takes the container's own `decode(String.self…)` instead of the generic path.

    /// Decodes a required field; `nil` when it failed (the failure is recorded).
    @inlinable
    public mutating func decode<T: Decodable>(_ type: T.Type, forKey key: Key) -> T? {
        guard !collector.truncated else { return nil }
        let value: T
        do {
            value = try source.decode(T.self, forKey: key)
        } catch {
            fail(error, key: key, expected: "\(T.self)")
            return nil
        }
        return checked(value, key: key)
    }

    /// Decodes a field with a default: a missing key takes `defaultValue`; a present one must decode.
    @inlinable
    public mutating func decode<T: Decodable>(
        _ type: T.Type, forKey key: Key, default defaultValue: @autoclosure () -> T
    )
        -> T?
    {
        guard source.contains(key) else {
            let value = defaultValue()
            return value
        }
        return decode(type, forKey: key)
    }

    /// Decodes an optional field: a missing key and `null` are `nil`; anything else must decode.
    /// The result is `nil` when it failed, `.some(nil)` when absent.
    @inlinable
    public mutating func decode<T: Decodable>(_ type: T?.Type, forKey key: Key) -> T?? {
        guard !collector.truncated else { return nil }
        let value: T?
        do {
            value = try source.decodeIfPresent(T.self, forKey: key)
        } catch {
            fail(error, key: key, expected: "\(T.self)")
            return nil
        }
        guard let value else { return .some(nil) }
        return checked(value, key: key).map { .some($0) }
    }

    /// A field's decoded value, checked by its own rules when it is a `Validatable` type that does
    /// not check itself while decoding (a hand-written conformance; a `@Validatable` model has
    /// checked itself in its `init(from:)`): `nil` when it breaks them, its issues recorded at the
    /// field. Scalars are passed over without a look (the test is folded away once specialised).
    @inlinable
    mutating func checked<T>(_ value: T, key: Key) -> T? {
        Self.isScalar(T.self) ? value : checkedModel(value, key: key)
    }

    /// Whether `type` is a scalar of the standard library or Foundation, never a model.
    @inlinable
    static func isScalar<T>(_ type: T.Type) -> Bool {
        T.self == String.self || T.self == Int.self || T.self == Double.self || T.self == Bool.self
            || T.self == Int64.self || T.self == Int32.self || T.self == Float.self || T.self == UInt.self
            || T.self == Date.self || T.self == UUID.self || T.self == URL.self || T.self == Decimal.self
    }

    /// ``checked(_:key:)`` past the scalars.
    @usableFromInline
    mutating func checkedModel<T>(_ value: T, key: Key) -> T? {
        guard T.self is any Validatable.Type, !context.lastValidated(is: T.self) else { return value }
        return checkedModel(value, key: key, index: nil, lossy: false)
    }

    /// A value checked by its rules when it is a `Validatable` type, its issues recorded at the field
    /// (at its element `index` in an array field; as warnings when the array is `lossy`).
    mutating func checkedModel<T>(_ value: T, key: Key, index: Int?, lossy: Bool) -> T? {
        do {
            let path = index.map { fieldPath(key).appending(index: $0) } ?? fieldPath(key)
            return try ValidatedDecoding.checked(value, context: context, at: path)
        } catch {
            var issues = error.issues
            if lossy { for position in issues.indices { issues[position].severity = .warning } }
            collector.record(issues)
            return nil
        }
    }

    /// Decodes a dictionary field member by member, so that every member that does not decode is
    /// reported (Swift's own dictionary decoding stops at the first), and the rules of the field
    /// that read members one by one (`.values`, `.keys`) report the members that did decode.
    public mutating func decode<V: Decodable>(_ type: [String: V].Type, forKey key: Key) -> [String: V]? {
        guard !collector.truncated else { return nil }
        return decodeMembers(type, forKey: key).flatMap { checked($0, key: key) }
    }

    /// Decodes an optional dictionary field member by member: a missing key and `null` are `nil`.
    public mutating func decode<V: Decodable>(_ type: [String: V]?.Type, forKey key: Key) -> [String: V]?? {
        guard !collector.truncated, let present = holdsNonNull(key, expected: "\([String: V].self)") else { return nil }
        guard present else { return .some(nil) }
        return decodeMembers([String: V].self, forKey: key).flatMap { checked($0, key: key) }.map { .some($0) }
    }

    /// Whether the input holds the key with a value that is not `null`; `nil` when the container
    /// could not tell (the failure recorded at the field, as `expected`).
    @usableFromInline
    mutating func holdsNonNull(_ key: Key, expected: String) -> Bool? {
        do {
            return try source.contains(key) && !source.decodeNil(forKey: key)
        } catch {
            fail(error, key: key, expected: expected)
            return nil
        }
    }

    /// The members of a dictionary field; `nil` when one did not decode (each failure recorded, and
    /// the issues the field's rules find below it in the members that did).
    mutating func decodeMembers<V: Decodable>(_ type: [String: V].Type, forKey key: Key) -> [String: V]? {
        let container: KeyedDecodingContainer<AnyKey>
        do {
            container = try source.nestedMembers(forKey: key)
        } catch {
            fail(error, key: key, expected: "\([String: V].self)")
            return nil
        }
        let at = fieldPath(key)
        var members: [String: V] = [:]
        var failed = false
        for member in container.allKeys {
            guard !collector.truncated else { return nil }
            do {
                members[member.stringValue] = try container.decode(V.self, forKey: member)
            } catch {
                failed = true
                collector.fail(error, at: at.appending(key: member.stringValue), expected: "\(V.self)")
            }
        }
        guard failed else { return members }
        // The field's rules on the members that decoded: only what they report of a member is kept
        // (a count or a check of the whole would misjudge a dictionary with members missing).
        let depth = at.components.count
        let result = Model.validation.runValue(
            members, keyPath: nil, key: key.stringValue, operation: collector.policy.operation, path: path)
        collector.record(
            result.issues.filter {
                $0.path.components.count > depth && $0.path.components.prefix(depth).elementsEqual(at.components)
            })
        // Its count, of the input's members (`maxProperties`), and its checks that read the input.
        if !collector.truncated { checkWhole(of: key, count: container.allKeys.count) }
        return nil
    }

    /// Decodes an optional field whose key must be present, `null` allowed (`@Required`): a missing key
    /// is `IssueCode.missing`.
    @inlinable
    public mutating func decode<T: Decodable>(_ type: T?.Type, forKey key: Key, required: Bool) -> T?? {
        guard required, !collector.truncated, !source.contains(key) else { return decode(type, forKey: key) }
        reportMissing(key, expected: "\(T.self) or null")
        return nil
    }

    /// Decodes an array field element by element, so every bad element is reported; with `lossy`
    /// (or the policy's ``ValidatedDecodingPolicy/lossyCollections``) bad elements are dropped and
    /// reported as warnings.
    public mutating func decode<E: Decodable>(_ type: [E].Type, forKey key: Key) -> [E]? {
        decode(type, forKey: key, lossy: false)
    }

    /// Decodes an array field element by element; `lossy` drops bad elements, reporting them as
    /// warnings.
    @inlinable
    public mutating func decode<E: Decodable>(_ type: [E].Type, forKey key: Key, lossy: Bool) -> [E]? {
        guard !collector.truncated else { return nil }
        if decodesScalarArraysWhole,
            E.self == String.self || E.self == Int.self || E.self == Double.self || E.self == Bool.self,
            let whole = try? source.decode([E].self, forKey: key)
        {
            return whole
        }
        return decodeElements(type, forKey: key, lossy: lossy)
    }

    /// Decodes an array field element by element, each failure recorded.
    @usableFromInline
    mutating func decodeElements<E: Decodable>(_ type: [E].Type, forKey key: Key, lossy: Bool) -> [E]? {
        let elements: [E]?
        do {
            var nested = try source.nestedUnkeyedContainer(forKey: key)
            var kept: [Int]? = nil
            var partial: [E] = []
            elements = collector.decodeElements(
                &nested, at: fieldPath(key), lossy: lossy, kept: &kept, partial: &partial)
            if elements == nil, let kept {
                checkElements(partial, at: kept, key: key)
                if !collector.truncated { checkWhole(of: key, count: nested.count ?? nested.currentIndex) }
            } else if let kept {
                keptIndices[key.stringValue] = kept
            }
        } catch {
            fail(error, key: key, expected: "\([E].self)")
            return nil
        }
        // Elements of a hand-written `Validatable` type are checked by their rules, each at its
        // place in the input (elements of a model that checks itself did so while decoding).
        guard let elements, !elements.isEmpty, !Self.isScalar(E.self), E.self is any Validatable.Type,
            !context.lastValidated(is: E.self)
        else { return elements }
        // A lossy array drops an element that breaks its rules, as one that does not decode.
        let isLossy = lossy || collector.policy.lossyCollections
        let inputIndices = keptIndices[key.stringValue]
        var checked: [E] = []
        checked.reserveCapacity(elements.count)
        var checkedIndices: [Int] = []
        var failed = false
        for (position, element) in elements.enumerated() {
            let index = inputIndices?[position] ?? position
            if let element = checkedModel(element, key: key, index: index, lossy: isLossy) {
                checked.append(element)
                checkedIndices.append(index)
            } else {
                failed = true
            }
        }
        guard failed else { return checked }
        if isLossy {
            keptIndices[key.stringValue] = checkedIndices
            return checked
        }
        return nil
    }

    /// The issues the rules of an array field find in each of its elements that decoded, when others
    /// did not (each element checked as an array of one, its issues moved to its input `indices`):
    /// what the field's `.each` rules report of an element. Issues of the whole array are not kept (a
    /// count or `unique` would misjudge an array with elements missing).
    mutating func checkElements<E>(_ elements: [E], at indices: [Int], key: Key) {
        let at = fieldPath(key)
        let depth = at.components.count
        for (element, index) in zip(elements, indices) {
            let result = Model.validation.runValue(
                [element], keyPath: nil, key: key.stringValue, operation: collector.policy.operation, path: path)
            var found: [ValidationIssue] = []
            for var issue in result.issues
            where issue.path.components.count > depth
                && issue.path.components.prefix(depth).elementsEqual(at.components)
                && issue.path.components[depth] == .index(0)
            {
                issue.path.components[depth] = .index(index)
                found.append(issue)
            }
            collector.record(found)
        }
    }

    /// The rules of an array or dictionary field some of whose elements did not decode that read
    /// the field whole, run on the input's own value, in one walk of the model's entries and one
    /// read of the input: its count rules on the input's count, its uniqueness on the input's
    /// elements as JSON compares them (`[1, "x", 1.0]` repeats 1), its checks against a schema
    /// (`contains` …) on the input as it is, keeping what they report of the field itself (an
    /// element's failures are its own decoding's, or the rules' of the elements that decoded).
    /// Reported beside the elements' failures, as JSON Schema's `minItems`, `uniqueItems`,
    /// `contains` and `maxProperties` report them.
    mutating func checkWhole(of key: Key, count: Int) {
        let at = fieldPath(key)
        var input: JSONValue??
        func read(_ source: FieldSource<Key>) -> JSONValue? {
            if input == nil { input = .some(try? source.decode(JSONValue.self, forKey: key)) }
            return input ?? nil
        }
        var found: [ValidationIssue] = []
        for entry in Model.validation.rules
        where entry.key == key.stringValue && entry.applies(to: collector.policy.operation) {
            guard case .rules(let declared) = entry.role else { continue }
            for rule in declared {
                var issues: [ValidationIssue]
                switch rule.kind {
                case .count(let minimum, let maximum):
                    issues = Rule<Range<Int>>.count(minimum: minimum, maximum: maximum).issues(for: 0..<count, at: at)
                case .unique:
                    guard case .array(let elements)? = read(source) else { continue }
                    issues = Rule<[JSONValue]>.unique.issues(for: elements, at: at)
                default: continue
                }
                for index in issues.indices {
                    issues[index].severity = rule.severity
                    issues[index].phase = .decode
                }
                found += issues
            }
            if let check = entry.checkInput, let value = read(source) {
                var context = RuleContext(path: at, phase: .decode)
                check(value, &context)
                found += context.issues.filter { $0.path == at }
            }
        }
        collector.record(found)
    }

    /// Decodes an array field with a default, element by element: a missing key takes `defaultValue`.
    public mutating func decode<E: Decodable>(
        _ type: [E].Type, forKey key: Key, default defaultValue: @autoclosure () -> [E]
    ) -> [E]? {
        decode(type, forKey: key, lossy: false, default: defaultValue())
    }

    /// Decodes an array field with a default, element by element; `lossy` drops bad elements.
    public mutating func decode<E: Decodable>(
        _ type: [E].Type, forKey key: Key, lossy: Bool, default defaultValue: @autoclosure () -> [E]
    ) -> [E]? {
        guard source.contains(key) else {
            let value = defaultValue()
            return value
        }
        return decode(type, forKey: key, lossy: lossy)
    }

    /// Decodes an optional array field element by element: a missing key and `null` are `nil`.
    public mutating func decode<E: Decodable>(_ type: [E]?.Type, forKey key: Key) -> [E]?? {
        decode(type, forKey: key, lossy: false)
    }

    /// Decodes an optional array field element by element whose key must be present (`@Required`).
    public mutating func decode<E: Decodable>(_ type: [E]?.Type, forKey key: Key, required: Bool) -> [E]?? {
        decode(type, forKey: key, lossy: false, required: required)
    }

    /// Decodes an optional array field element by element whose key must be present (`@Required`);
    /// `lossy` drops bad elements.
    public mutating func decode<E: Decodable>(_ type: [E]?.Type, forKey key: Key, lossy: Bool, required: Bool)
        -> [E]??
    {
        guard required, !collector.truncated, !source.contains(key) else {
            return decode(type, forKey: key, lossy: lossy)
        }
        reportMissing(key, expected: "\([E].self) or null")
        return nil
    }

    /// Decodes an optional array field element by element; `lossy` drops bad elements.
    public mutating func decode<E: Decodable>(_ type: [E]?.Type, forKey key: Key, lossy: Bool) -> [E]?? {
        guard !collector.truncated, let present = holdsNonNull(key, expected: "\([E].self)") else { return nil }
        guard present else {
            return .some(nil)
        }
        guard let elements = decode([E].self, forKey: key, lossy: lossy) else { return nil }
        return .some(elements)
    }

    /// Decodes a field that may be missing, `null` or hold a value (`Nullable`): a missing key is
    /// `.absent`, `null` is `.null`; anything else must decode. The result is `nil` when it failed.
    @inlinable
    public mutating func decode<T: Decodable>(_ type: Nullable<T>.Type, forKey key: Key) -> Nullable<T>? {
        guard !collector.truncated, let state = presence(of: key, expected: "\(T.self)") else { return nil }
        guard let present = state else { return .absent }
        guard present else { return .null }
        return decode(T.self, forKey: key).map(Nullable.some)
    }

    /// Decodes an array field that may be missing or `null` (`Nullable`) element by element;
    /// `lossy` drops bad elements.
    public mutating func decode<E: Decodable>(_ type: Nullable<[E]>.Type, forKey key: Key, lossy: Bool = false)
        -> Nullable<[E]>?
    {
        guard !collector.truncated, let state = presence(of: key, expected: "\([E].self)") else { return nil }
        guard let present = state else { return .absent }
        guard present else { return .null }
        return decode([E].self, forKey: key, lossy: lossy).map(Nullable.some)
    }

    /// Decodes a dictionary field that may be missing or `null` (`Nullable`) member by member.
    public mutating func decode<V: Decodable>(_ type: Nullable<[String: V]>.Type, forKey key: Key)
        -> Nullable<[String: V]>?
    {
        guard !collector.truncated, let state = presence(of: key, expected: "\([String: V].self)") else { return nil }
        guard let present = state else { return .absent }
        guard present else { return .null }
        return decode([String: V].self, forKey: key).map(Nullable.some)
    }

    /// Whether the input holds the key (`nil` when it does not), with a value that is not `null`
    /// (`true`) or with `null` (`false`); `nil` overall when the container could not tell (the
    /// failure recorded at the field, as `expected`).
    @usableFromInline
    mutating func presence(of key: Key, expected: String) -> Bool?? {
        guard source.contains(key) else { return .some(nil) }
        return holdsNonNull(key, expected: expected).map { .some($0) }
    }

    /// The error to throw when a field did not decode: every failure so far, plus the rule issues of
    /// the fields that did decode (`fields`: each field's key and decoded value, `nil` if it failed).
    public mutating func failure(checking fields: [DecodedField] = []) -> ValidationError {
        checkUnreadKeys()
        if !collector.truncated {
            for field in fields {
                guard let value = field.value ?? (field.key == nil ? partialAdditionalProperties : nil) else {
                    continue
                }
                let result = Model.validation.runValue(
                    value, keyPath: nil, key: field.key, operation: collector.policy.operation, path: path)
                collector.record(inputIndexed(result.issues))
            }
            collector.record(dependentRequiredIssues())
            var members: [String: Any] = [:]
            for field in fields {
                guard let key = field.key else { continue }
                if let value = field.value {
                    members[key] = value
                } else {
                    let present = Key(stringValue: key).map(source.contains) ?? false
                    members[key] = UndecodedMember(isPresent: present)
                }
            }
            // The input object, for checks against a schema: from Assay's own decoders alone
            // (another decoder's container lists only the model's keys).
            var input: (() -> Any?)?
            if case .node(let container) = source { input = { container.objectValue } }
            collector.record(
                inputIndexed(
                    Model.validation.conditionalIssues(
                        members: members, input: input, operation: collector.policy.operation, path: path)))
        }
        reportUnevaluatedMembers()
        return collector.aggregate()
    }

    /// With ``ValidatedDecodingPolicy/UnknownKeys/rejectUnevaluated``, once the model has failed in
    /// a way other than an unknown key of its own: every member it has, reported as not allowed (no
    /// member of a value that failed was evaluated).
    @usableFromInline
    mutating func reportUnevaluatedMembers() {
        guard collector.policy.unknownKeys == .rejectUnevaluated, !collector.truncated else { return }
        let keys: [Key] =
            switch source {
            case .node(let container): container.allKeys
            case .other(let box): box.container.allKeys
            }
        collector.record(
            IssueCollector.unevaluatedIssues(
                keys: keys.map(\.stringValue), at: path, besides: collector.issues))
    }

    /// The model's `dependentRequired` rules, from the keys of the input: object checks cannot run on
    /// a model that did not decode, but these need only to know which keys hold a value, so that a
    /// missing dependent is reported with the other failures (as a JSON Schema reports it).
    func dependentRequiredIssues() -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        let operation = collector.policy.operation
        for rule in Model.validation.rules where rule.applies(to: operation) {
            guard case .dependentRequired(let key, let requires) = rule.role, holdsValue(key) else { continue }
            for dependent in requires where !holdsValue(dependent) {
                issues.append(
                    ValidationIssue(
                        code: .missing, path: path.appending(key: dependent),
                        ruleLocation: "\(Model.self): dependentRequired(\(key))", parameters: ["present": .string(key)],
                        phase: operation?.phase ?? .object, messageKey: "missing.dependent"))
            }
        }
        return issues
    }

    /// Whether the input has the key with a value that is not `null` (what makes an optional
    /// property present).
    private func holdsValue(_ key: String) -> Bool {
        guard let codingKey = Key(stringValue: key), source.contains(codingKey) else { return false }
        return (try? source.decodeNil(forKey: codingKey)) != true
    }

    /// Runs the model's rules (normalisers, property rules, nested models, object checks) on the
    /// decoded value, and returns it normalised, or throws every issue found while decoding and
    /// checking it. Warnings of a valid value go to the decoder's ``WarningSink``.
    ///
    /// - Throws: `ValidationError` when any issue is an error.
    @inlinable
    public mutating func validated(_ model: Model) throws(ValidationError) -> Model {
        checkUnreadKeys()
        // Nested models checked themselves while decoding.
        let result = Model.validation.run(
            on: model, operation: collector.policy.operation, object: nil, path: path, includingNested: false)
        context.markValidated(Model.self)
        try finish(with: result.issues)
        return result.model
    }

    /// Normalises the decoded value in place and runs the model's rules on it, as ``validated(_:)``
    /// does, without copying it (`@Validatable` calls it with `&self` at the end of `init(from:)`).
    ///
    /// - Throws: `ValidationError` when any issue is an error.
    @inlinable
    public mutating func validate(_ model: inout Model) throws(ValidationError) {
        checkUnreadKeys()
        context.markValidated(Model.self)
        try finish(
            with: Model.validation.issues(
                normalizing: &model, operation: collector.policy.operation, path: path, includingNested: false))
    }

    /// Records the issues of the model's rules; throws every issue when any is an error, or hands the
    /// warnings of a valid value to the run's sink.
    @usableFromInline
    mutating func finish(with issues: [ValidationIssue]) throws(ValidationError) {
        collector.record(inputIndexed(issues))
        guard !collector.failed else {
            reportUnevaluatedMembers()
            throw collector.aggregate()
        }
        context.add(collector.issues)
    }

    // MARK: Collecting

    func fieldPath(_ key: Key) -> IssuePath {
        path.appending(key: key.stringValue)
    }

    /// The issues with indices into lossy arrays that dropped elements turned into input indices.
    @usableFromInline
    func inputIndexed(_ issues: [ValidationIssue]) -> [ValidationIssue] {
        guard !keptIndices.isEmpty else { return issues }
        let depth = path.components.count
        return issues.map { issue in
            let components = issue.path.components
            guard components.count > depth + 1, case .key(let key) = components[depth],
                let kept = keptIndices[key], case .index(let index) = components[depth + 1], index < kept.count
            else { return issue }
            var moved = issue
            moved.path.components[depth + 1] = .index(kept[index])
            return moved
        }
    }

    /// Decodes every member of the object whose key `Key` does not name as a `T`, into a
    /// dictionary by key (`@Validatable` calls it for an `@AdditionalProperties` property); each
    /// member that fails is recorded at its key. `nil` when one failed.
    public mutating func decodeAdditionalProperties<T: Decodable>(_ type: T.Type, from decoder: any Decoder)
        -> [String: T]?
    {
        guard !collector.truncated else { return nil }
        let members: KeyedDecodingContainer<AnyKey>
        do {
            members = try decoder.container(keyedBy: AnyKey.self)
        } catch {
            return nil  // not an object: the model's own container has reported it
        }
        var found: [String: T] = [:]
        var failed = false
        for key in members.allKeys where Key(stringValue: key.stringValue) == nil {
            guard !collector.truncated else { return nil }
            let place = path.appending(key: key.stringValue)
            do {
                let value = try members.decode(T.self, forKey: key)
                if Self.isScalar(T.self) || !(T.self is any Validatable.Type) || context.lastValidated(is: T.self) {
                    found[key.stringValue] = value
                    continue
                }
                found[key.stringValue] = try ValidatedDecoding.checked(value, context: context, at: place)
            } catch {
                collector.fail(error, at: place, expected: "\(T.self)")
                failed = true
            }
        }
        guard !failed else {
            partialAdditionalProperties = found
            return nil
        }
        return found
    }

    /// Records a key that `@Required` wants present and is not.
    /// Records a type mismatch when the key is present with `null` (`@NotNull`): the key may be
    /// missing, the value may not be `null`.
    public mutating func refuseNull(forKey key: Key, expected: String) {
        guard !collector.truncated, source.contains(key), (try? source.decodeNil(forKey: key)) == true else { return }
        var context = RuleContext(path: fieldPath(key), phase: .decode)
        context.report(.typeMismatch, parameters: ["expected": .string(expected)])
        collector.record(context.issues)
    }

    @usableFromInline
    mutating func reportMissing(_ key: Key, expected: String) {
        var context = RuleContext(path: fieldPath(key), phase: .decode)
        context.report(.missing, parameters: ["expected": .string(expected)])
        collector.record(context.issues)
    }

    @usableFromInline
    mutating func fail(_ error: any Error, key: Key, expected: String) {
        collector.fail(error, at: fieldPath(key), expected: expected)
    }

}

/// What a ``FieldDecoder`` needs of its decoder besides the container, found without generics (so
/// the field decoder's inlinable `init` stays small): AssayJSON's decoder recognised once, the
/// run's context (its policy, and where warnings go), and how unknown keys are to be found.
@usableFromInline
struct FieldsOpening {
    @usableFromInline let handle: NodeDecoderHandle?
    @usableFromInline let context: ValidatedDecoding.Context
    /// The run's policy, with the model's own treatment of unknown keys when it declares one.
    @usableFromInline let policy: ValidatedDecodingPolicy
    /// AssayJSON's decoder in strict mode.
    @usableFromInline let isStrict: Bool
    /// Whether the decoder's unread members are checked for unknown keys after the fields are read.
    @usableFromInline let checksUnreadKeys: Bool
    /// Whether the object's keys are to be listed and checked before the fields are read.
    @usableFromInline let listsKeys: Bool

    @usableFromInline
    init(_ decoder: any Decoder, unknownKeys: ValidatedDecodingPolicy.UnknownKeys?) {
        let handle = NodeDecoderHandle(decoder)
        self.handle = handle
        isStrict = handle?.isStrict ?? false
        context = ValidatedDecoding.context(of: decoder, handle: handle)
        var policy = context.policy
        if let unknownKeys { policy.unknownKeys = unknownKeys }
        self.policy = policy
        if policy.unknownKeys != .ignore, let handle, handle.tracksReadKeys {
            handle.startTrackingReads()
            checksUnreadKeys = true
            listsKeys = false
        } else {
            checksUnreadKeys = false
            listsKeys = policy.unknownKeys != .ignore
        }
    }

    /// The error of a model whose value is not an object.
    @usableFromInline
    func failure(_ error: any Error, expected model: Any.Type, decoder: any Decoder) -> ValidationError {
        ValidationError(IssueCollector.issues(from: error, at: IssueCollector.path(of: decoder), expected: "\(model)"))
    }
}

/// The container a ``FieldDecoder`` reads from: AssayJSON's own, called directly, or another
/// decoder's, boxed. Either way the field decoder has a layout known at compile time: a
/// `KeyedDecodingContainer` is a resilient type of the standard library, and a struct holding one
/// would be copied and destroyed through run-time metadata, twice for every object decoded.
@usableFromInline
enum FieldSource<Key: CodingKey> {
    case node(KeyedNodeContainer<Key>)
    case other(KeyedContainerBox<Key>)

    /// `decode(T.self, forKey:)`, through the container's own overload for the common scalar types:
    /// in the model's module, where this is specialised, the type tests are constants, and the
    /// decoder's non-generic path replaces a generic one that looks types up at run time.
    @inlinable
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        switch self {
        case .node(let container): try Self.decode(T.self, forKey: key, from: container)
        case .other(let box): try Self.decode(T.self, forKey: key, from: box.container)
        }
    }

    @inlinable
    static func decode<T: Decodable, Container: KeyedDecodingContainerProtocol>(
        _ type: T.Type, forKey key: Key, from container: Container
    ) throws -> T where Container.Key == Key {
        if T.self == String.self { return try container.decode(String.self, forKey: key) as! T }
        if T.self == Int.self { return try container.decode(Int.self, forKey: key) as! T }
        if T.self == Double.self { return try container.decode(Double.self, forKey: key) as! T }
        if T.self == Bool.self { return try container.decode(Bool.self, forKey: key) as! T }
        return try container.decode(T.self, forKey: key)
    }

    /// `decodeIfPresent(T.self, forKey:)`, through the container's own overloads for strings and
    /// integers.
    @inlinable
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        switch self {
        case .node(let container): try Self.decodeIfPresent(T.self, forKey: key, from: container)
        case .other(let box): try Self.decodeIfPresent(T.self, forKey: key, from: box.container)
        }
    }

    @inlinable
    static func decodeIfPresent<T: Decodable, Container: KeyedDecodingContainerProtocol>(
        _ type: T.Type, forKey key: Key, from container: Container
    ) throws -> T? where Container.Key == Key {
        if T.self == String.self { return try container.decodeIfPresent(String.self, forKey: key) as! T? }
        if T.self == Int.self { return try container.decodeIfPresent(Int.self, forKey: key) as! T? }
        return try container.decodeIfPresent(T.self, forKey: key)
    }

    @inlinable
    func contains(_ key: Key) -> Bool {
        switch self {
        case .node(let container): container.contains(key)
        case .other(let box): box.container.contains(key)
        }
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        switch self {
        case .node(let container): try container.decodeNil(forKey: key)
        case .other(let box): try box.container.decodeNil(forKey: key)
        }
    }

    func nestedMembers(forKey key: Key) throws -> KeyedDecodingContainer<AnyKey> {
        switch self {
        case .node(let container): try container.nestedContainer(keyedBy: AnyKey.self, forKey: key)
        case .other(let box): try box.container.nestedContainer(keyedBy: AnyKey.self, forKey: key)
        }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        switch self {
        case .node(let container): try container.nestedUnkeyedContainer(forKey: key)
        case .other(let box): try box.container.nestedUnkeyedContainer(forKey: key)
        }
    }
}

/// Another decoder's keyed container, boxed (see ``FieldSource``).
@usableFromInline
final class KeyedContainerBox<Key: CodingKey> {
    @usableFromInline let container: KeyedDecodingContainer<Key>

    @usableFromInline init(_ container: KeyedDecodingContainer<Key>) { self.container = container }
}

/// One field's key and decoded value, for checking its rules when its model did not decode.
public struct DecodedField {
    /// `nil` for the members kept beside the properties.
    let key: String?
    let value: Any?

    /// A field: `value` is `nil` when it did not decode.
    public init<T>(_ key: String, _ value: T?) {
        self.key = key
        self.value = value.map { $0 as Any }
    }

    /// The members a model keeps beside its properties (`@AdditionalProperties`): `value` is `nil`
    /// when they did not decode.
    public init<T>(additionalProperties value: [String: T]?) {
        key = nil
        self.value = value.map { $0 as Any }
    }
}

/// The issues of one model or array being decoded, and whether decoding must stop.
///
/// Errors and warnings are capped apart, each at ``ValidatedDecodingPolicy/maximumIssues``: past
/// the cap of errors decoding stops (``truncated``); warnings past theirs are counted and dropped,
/// and decoding goes on, so warnings never hide an error nor stop a lossy array early.
@usableFromInline
struct IssueCollector {
    @usableFromInline let policy: ValidatedDecodingPolicy
    @usableFromInline var issues: [ValidationIssue] = []
    @usableFromInline var failed = false
    /// Whether errors went past the cap: decoding stops.
    @usableFromInline var truncated = false
    @usableFromInline var errorCount = 0
    @usableFromInline var warningCount = 0
    @usableFromInline var droppedErrors = 0
    @usableFromInline var droppedWarnings = 0

    @usableFromInline
    init(policy: ValidatedDecodingPolicy) { self.policy = policy }

    mutating func fail(_ error: any Error, at path: IssuePath, expected: String) {
        let found = IssueCollector.issues(from: error, at: path, expected: expected)
        absorbTruncation(of: error)
        record(found)
        failed = true
    }

    /// Takes over what a nested aggregate dropped; it stops this decode when errors were dropped.
    mutating func absorbTruncation(of error: any Error) {
        guard let aggregate = error as? ValidationError, aggregate.isTruncated else { return }
        droppedErrors += aggregate.droppedErrorCount
        droppedWarnings += aggregate.droppedWarningCount
        if aggregate.droppedErrorCount > 0 || aggregate.droppedWarningCount == 0 { truncated = true }
    }

    /// Records `found` after the issues recorded so far, or before them with `first`; issues past
    /// the cap of their severity are counted, not kept.
    @usableFromInline
    mutating func record(_ found: [ValidationIssue], first: Bool = false) {
        guard !found.isEmpty else { return }
        var kept: [ValidationIssue] = []
        kept.reserveCapacity(found.count)
        for issue in found {
            if issue.severity == .error {
                failed = true
                guard errorCount < policy.maximumIssues else {
                    droppedErrors += 1
                    truncated = true
                    continue
                }
                errorCount += 1
            } else {
                guard warningCount < policy.maximumIssues else {
                    droppedWarnings += 1
                    continue
                }
                warningCount += 1
            }
            kept.append(issue)
        }
        issues.insert(contentsOf: kept, at: first ? 0 : issues.endIndex)
    }

    /// The `unknownKey` errors of the members `keys` of the object at `path` when `issues` hold an
    /// error other than an unknown key of that object's own (the value failed: none of its members
    /// was evaluated); a key `issues` already reports unknown is not reported again. None otherwise.
    static func unevaluatedIssues(keys: [String], at path: IssuePath, besides issues: [ValidationIssue])
        -> [ValidationIssue]
    {
        let depth = path.components.count
        var reported: Set<String> = []
        var failed = false
        for issue in issues where issue.severity == .error {
            if issue.code == .unknownKey, issue.path.components.count == depth + 1,
                case .key(let key) = issue.path.components[depth]
            {
                reported.insert(key)
            } else {
                failed = true
            }
        }
        guard failed else { return [] }
        var found: [ValidationIssue] = []
        for key in keys where reported.insert(key).inserted {
            var context = RuleContext(path: path.appending(key: key), phase: .decode)
            context.report(.unknownKey, parameters: ["key": .string(key)])
            found += context.issues
        }
        return found
    }

    @usableFromInline
    func aggregate() -> ValidationError {
        var error = ValidationError(issues, limit: policy.maximumIssues)
        error.countDropped(errors: droppedErrors, warnings: droppedWarnings)
        // A nested aggregate that was cut short cuts this one short too.
        if truncated && droppedErrors == 0 { error.markTruncated() }
        return error
    }

    /// Decodes the elements of `container` one by one; returns `nil` when one failed (not lossy).
    mutating func decodeElements<E: Decodable>(
        _ container: inout any UnkeyedDecodingContainer, at path: IssuePath, lossy: Bool
    ) -> [E]? {
        var kept: [Int]? = nil
        return decodeElements(&container, at: path, lossy: lossy, kept: &kept)
    }

    /// ``decodeElements(_:at:lossy:)``; when elements were dropped, `kept` is the input index of each
    /// element kept.
    mutating func decodeElements<E: Decodable>(
        _ container: inout any UnkeyedDecodingContainer, at path: IssuePath, lossy: Bool, kept: inout [Int]?
    ) -> [E]? {
        var partial: [E] = []
        return decodeElements(&container, at: path, lossy: lossy, kept: &kept, partial: &partial)
    }

    /// ``decodeElements(_:at:lossy:kept:)``; when an element failed (the result is `nil`), `partial`
    /// holds the elements that decoded and `kept` their input indices.
    mutating func decodeElements<E: Decodable>(
        _ container: inout any UnkeyedDecodingContainer, at path: IssuePath, lossy: Bool, kept: inout [Int]?,
        partial: inout [E]
    ) -> [E]? {
        var elements: [E] = []
        var indices: [Int] = []
        var dropped = false
        if let count = container.count { elements.reserveCapacity(min(count, 1 << 16)) }
        var elementFailed = false
        // An array of arrays: each inner array decoded element by element too, so that every bad
        // element is reported (Swift's own array decoding stops at the first).
        let nestedArray = lossy || policy.lossyCollections ? nil : E.self as? any ElementwiseDecodable.Type
        while !container.isAtEnd && !truncated {
            let index = container.currentIndex
            if let nestedArray {
                switch nestedArray.decodeElementwise(from: &container, into: &self, at: path.appending(index: index)) {
                case .decoded(let element):
                    elements.append(element as! E)
                    indices.append(index)
                    continue
                case .failed:
                    elementFailed = true
                    continue
                case .notAnArray:
                    break  // reported below, as any element that does not decode
                }
            }
            do {
                elements.append(try container.decode(E.self))
                indices.append(index)
            } catch {
                dropped = true
                var found = IssueCollector.issues(from: error, at: path.appending(index: index), expected: "\(E.self)")
                absorbTruncation(of: error)
                if lossy || policy.lossyCollections {
                    for position in found.indices { found[position].severity = .warning }
                } else {
                    elementFailed = true
                }
                record(found)
                // Some decoders leave the index on a failed element: step over it.
                if container.currentIndex == index {
                    _ = try? container.decode(SkippedValue.self)
                    if container.currentIndex == index { break }
                }
            }
        }
        if dropped { kept = indices }
        guard !elementFailed else {
            partial = elements
            return nil
        }
        return elements
    }

    static func path(of decoder: any Decoder) -> IssuePath {
        NodeDecoderHandle(decoder)?.path ?? IssuePath(codingPath: decoder.codingPath)
    }

    /// The issues an error thrown while decoding stands for: a nested aggregate's own issues
    /// (already located), a decoding error at its path, or another error at `path`.
    static func issues(from error: any Error, at path: IssuePath, expected: String) -> [ValidationIssue] {
        if let aggregate = error as? ValidationError { return aggregate.issues }
        if var issue = decodingIssue(from: error) {
            // Foundation's paths use coding keys; they name the same places as the JSON keys but
            // for key strategies, so keep the JSON path when ours is longer (more precise).
            if issue.path.components.count < path.components.count { issue.path = path }
            issue.phase = .decode
            return [issue]
        }
        var context = RuleContext(path: path, phase: .decode)
        context.report(
            .custom("decoding"), parameters: ["expected": .string(expected)],
            message: MessageTemplate(String(describing: error)))
        return context.issues
    }
}

/// An array whose elements are decoded one by one when it is an element of another array.
protocol ElementwiseDecodable {
    /// The array at the root of `decoder`.
    static func decodeElementwise(
        from decoder: any Decoder, into collector: inout IssueCollector, at path: IssuePath
    ) -> ElementwiseOutcome
    /// The array at the container's current element; the container steps past it.
    static func decodeElementwise(
        from container: inout any UnkeyedDecodingContainer, into collector: inout IssueCollector, at path: IssuePath
    ) -> ElementwiseOutcome
}

enum ElementwiseOutcome {
    case decoded(Any)
    /// Some of its elements did not decode (each recorded); the container is past it.
    case failed
    /// The value is not an array; the container is still on it.
    case notAnArray
}

extension Array: ElementwiseDecodable where Element: Decodable {
    static func decodeElementwise(
        from decoder: any Decoder, into collector: inout IssueCollector, at path: IssuePath
    ) -> ElementwiseOutcome {
        guard var container = try? decoder.unkeyedContainer() else { return .notAnArray }
        let elements: [Element]? = collector.decodeElements(&container, at: path, lossy: false)
        return elements.map { .decoded($0) } ?? .failed
    }

    static func decodeElementwise(
        from container: inout any UnkeyedDecodingContainer, into collector: inout IssueCollector, at path: IssuePath
    ) -> ElementwiseOutcome {
        let before = container.currentIndex
        var nested: any UnkeyedDecodingContainer
        do {
            nested = try container.nestedUnkeyedContainer()
        } catch {
            // Some decoders stay on a value that is not an array, others step past it.
            guard container.currentIndex != before else { return .notAnArray }
            collector.fail(error, at: path, expected: "\(Self.self)")
            return .failed
        }
        let elements: [Element]? = collector.decodeElements(&nested, at: path, lossy: false)
        return elements.map { .decoded($0) } ?? .failed
    }
}

/// A value that decodes from anything, to step over a failed array element.
struct SkippedValue: Decodable {
    init(from decoder: any Decoder) throws {}
}
