#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A rewrite of a value before its rules run: trim a name, lowercase an email. Used by
/// `normalize(_:_:on:_:)` and by `@Normalize` in AssayCodable.
public struct Normalizer<Value>: Sendable {
    /// The rewrite.
    public let transform: @Sendable (Value) -> Value

    /// Makes a normaliser from a closure.
    public init(_ transform: @escaping @Sendable (Value) -> Value) { self.transform = transform }
}

extension Normalizer where Value == String {
    /// Leading and trailing whitespace and newlines removed.
    ///
    /// Whitespace is Unicode's White_Space property and U+200B, the set Foundation's
    /// `.whitespacesAndNewlines` trims, matched scalar by scalar as Foundation does; a string with nothing to trim is returned
    /// as it is, without a copy.
    public static var trimmed: Normalizer {
        Normalizer { text in
            // ASCII at both ends (the common case) is settled on the bytes.
            if let trimmed = text.utf8.withContiguousStorageIfAvailable({ asciiTrimmed(text, bytes: $0) }),
                let trimmed
            {
                return trimmed
            }
            let scalars = text.unicodeScalars
            guard let first = scalars.first, let last = scalars.last else { return text }
            guard isWhitespace(first) || isWhitespace(last) else { return text }
            var start = scalars.startIndex
            var end = scalars.endIndex
            while start < end && isWhitespace(scalars[start]) { start = scalars.index(after: start) }
            while start < end {
                let before = scalars.index(before: end)
                guard isWhitespace(scalars[before]) else { break }
                end = before
            }
            return String(scalars[start..<end])
        }
    }

    /// `text` trimmed when what decides it is ASCII: the bytes kept start and end with a printable
    /// ASCII byte (or none is kept), and every byte trimmed is ASCII whitespace; `nil` otherwise.
    private static func asciiTrimmed(_ text: String, bytes: UnsafeBufferPointer<UInt8>) -> String? {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        var start = 0
        var end = bytes.count
        while start < end && isSpace(bytes[start]) { start += 1 }
        while end > start && isSpace(bytes[end - 1]) { end -= 1 }
        if start == end { return start == bytes.count ? "" : nil }
        guard (0x21...0x7E).contains(bytes[start]), (0x21...0x7E).contains(bytes[end - 1]) else { return nil }
        if start == 0 && end == bytes.count { return text }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        // ASCII is the common case: its whitespace is the space, tab and line breaks.
        if scalar.value < 0x80 { return scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value) }
        // Foundation's set also holds U+200B ZERO WIDTH SPACE (a space separator in old Unicode).
        return scalar.properties.isWhitespace || scalar.value == 0x200B
    }

    /// Lowercased. A string with nothing to lowercase is returned as it is, without a copy.
    public static var lowercased: Normalizer {
        Normalizer { text in
            // ASCII with no capital letter (most email addresses) is already lowercase.
            if let clean = text.utf8.withContiguousStorageIfAvailable({ bytes in
                !bytes.contains { $0 >= 0x80 || (0x41...0x5A).contains($0) }
            }), clean {
                return text
            }
            return text.lowercased()
        }
    }

    /// Trimmed, and every run of whitespace inside replaced by one space.
    public static var collapsedWhitespace: Normalizer {
        Normalizer { text in
            text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        }
    }
}

extension ModelRule {
    /// A normaliser given as a ``Normalizer``: `.normalize(\.email, "email", .lowercased)`.
    public static func normalize<V: Equatable & SendableMetatype>(
        _ keyPath: WritableKeyPath<Model, V> & Sendable, _ key: String, on operations: [ValidationOperation]? = nil,
        _ normalizer: Normalizer<V>
    ) -> ModelRule {
        normalize(keyPath, key, on: operations, normalizer.transform)
    }

    /// A property whose value may hold models: a ``Validatable`` value, an optional one, or an array of
    /// them is validated with its own rules, its issues under `key` (and `key/index`); other values
    /// pass. `@Validatable` uses it for properties of types it does not know.
    public static func member<V>(
        _ keyPath: KeyPath<Model, V> & Sendable, _ key: String, on operations: [ValidationOperation]? = nil
    ) -> ModelRule {
        ModelRule(
            key: key, operations: operations, role: .nested, keyPath: keyPath, condition: .always,
            checkModel: { model, operation, context in
                addNestedIssues(of: model[keyPath: keyPath], operation: operation, at: [.key(key)], into: &context)
            },
            checkValue: { value, operation, context in
                guard value is V else {
                    reportTypeMismatch(value, expected: V.self, key: key, context: &context)
                    return
                }
                addNestedIssues(of: value, operation: operation, at: [.key(key)], into: &context)
            },
            normalizeModel: nil, normalizeValue: nil)
    }

    /// The members a model keeps beside its properties (`@AdditionalProperties`), when they may
    /// hold models: each is validated with its own rules, its issues under its key.
    public static func additionalMembers<V>(
        _ keyPath: KeyPath<Model, [String: V]> & Sendable, on operations: [ValidationOperation]? = nil
    ) -> ModelRule {
        ModelRule(
            key: nil, operations: operations, role: .nested, keyPath: keyPath, condition: .always,
            checkModel: { model, operation, context in
                addNestedIssues(of: model[keyPath: keyPath], operation: operation, at: [], into: &context)
            },
            checkValue: { value, operation, context in
                guard value is [String: V] else {
                    context.report(
                        .typeMismatch, value: value,
                        parameters: ["expected": .string(String(describing: [String: V].self))])
                    return
                }
                addNestedIssues(of: value, operation: operation, at: [], into: &context)
            },
            normalizeModel: nil, normalizeValue: nil)
    }

    /// A check of the whole value that validated decoding makes as it reads (the type's
    /// `init(from:)` decides it), and so does not make again: on demand and on save it runs as any
    /// check does. AssayCodable's `UnionDecoding.exactlyOneOnDemand(_:)` is one: that a `oneOf`'s
    /// value is taken by one alternative alone, which decoding tries as it reads.
    ///
    /// - Parameters:
    ///   - name: The check's name, recorded as the rule location.
    ///   - body: The check: reads the value and reports issues into the context.
    public static func decodingCheck(
        _ name: String, _ body: @escaping @Sendable (Model, inout RuleContext) -> Void
    ) -> ModelRule {
        ModelRule(
            key: nil, operations: nil, role: .nested, keyPath: nil, condition: .always,
            checkModel: { model, _, context in
                guard context.locatesIssues else { return body(model, &context) }
                let saved = context.ruleLocation
                context.ruleLocation = "\(Model.self): \(name)"
                body(model, &context)
                context.ruleLocation = saved
            },
            checkValue: nil, normalizeModel: nil, normalizeValue: nil)
    }

    /// The value an enum holds in its case, checked at the enum's own place with its rules: a model
    /// with its own, an array with its elements', another value with the rule `body` gives with it.
    /// `assay generate swift` writes it for the enums it makes of `oneOf` (and `Indirect` uses it),
    /// so that an on-demand check or a save checks what decoding does (AssayCodable's `UnionDecoding`
    /// shows one: `.payload { quantity in switch quantity { case .integer(let value): .value(value,
    /// rule: .range(0...)) … } }`).
    ///
    /// Validated decoding, which checks the payload as it reads it, does not check it again.
    public static func payload(_ body: @escaping @Sendable (Model) -> Payload) -> ModelRule {
        ModelRule(
            key: nil, operations: nil, role: .nested, keyPath: nil, condition: .always,
            checkModel: { model, operation, context in body(model).check(operation, &context) },
            checkValue: nil, normalizeModel: nil, normalizeValue: nil)
    }
}

/// The value an enum's case holds, with its rule: see ``ModelRule/payload(_:)``.
public struct Payload: Sendable {
    let check: @Sendable (ValidationOperation?, inout RuleContext) -> Void

    /// `value`, checked with `rule` and, when it is a model or holds models, with theirs.
    public static func value<V: Sendable>(_ value: V, rule: Rule<V>? = nil) -> Payload {
        Payload { operation, context in
            if let rule { context.check(value, with: rule) }
            addNestedIssues(of: value, operation: operation, at: [], into: &context)
        }
    }

    /// `value` at position `index` of the model (an item of a tuple: a JSON array whose items each
    /// have a schema of their own), checked there with `rule` and, when it is a model or holds
    /// models, with theirs: `.payload { pair in .item(pair.item1, at: 1, rule: .length(1...)) }`.
    public static func item<V: Sendable>(_ value: V, at index: Int, rule: Rule<V>? = nil) -> Payload {
        Payload { operation, context in
            if let rule { context.check(value, with: rule, at: .index(index)) }
            addNestedIssues(of: value, operation: operation, at: [.index(index)], into: &context)
        }
    }

    /// The elements of `values` at positions `start`, `start + 1` … of the model (a tuple's items
    /// after those it names), each checked there with `rule` and, when it is a model or holds
    /// models, with theirs.
    public static func items<V: Sendable>(_ values: [V], from start: Int, rule: Rule<V>? = nil) -> Payload {
        Payload { operation, context in
            for (offset, value) in values.enumerated() {
                if let rule { context.check(value, with: rule, at: .index(start + offset)) }
                addNestedIssues(of: value, operation: operation, at: [.index(start + offset)], into: &context)
            }
        }
    }
}

/// Checks the models `value` holds at the context's path followed by `components`: in a first pass
/// only whether they have issues, in a locating pass their issues located in place.
private func addNestedIssues(
    of value: Any, operation: ValidationOperation?, at components: [PathComponent], into context: inout RuleContext
) {
    if let model = value as? any Validatable {
        checkNested(model, operation: operation, at: components, into: &context)
    } else if let nullable = value as? any NullableValue {
        if let wrapped = nullable.wrappedValue {
            addNestedIssues(of: wrapped, operation: operation, at: components, into: &context)
        }
    } else if let elements = value as? [Any] {
        for (index, element) in elements.enumerated() {
            addNestedIssues(of: element, operation: operation, at: components + [.index(index)], into: &context)
        }
    } else if let members = value as? [String: Any] {
        // In code point order when issues are located (a dictionary keeps no order of its own).
        let keys =
            context.locatesIssues
            ? codePointOrder(members.keys) : Array(members.keys)
        for key in keys {
            addNestedIssues(of: members[key]!, operation: operation, at: components + [.key(key)], into: &context)
        }
    }
}

private func checkNested<M: Validatable>(
    _ model: M, operation: ValidationOperation?, at components: [PathComponent], into context: inout RuleContext
) {
    guard context.locatesIssues else {
        context.add(M.validation.issues(of: model, operation: operation, pass: .firstOnly))
        return
    }
    M.validation.locateNested(model, operation: operation, in: &context, at: components)
}
