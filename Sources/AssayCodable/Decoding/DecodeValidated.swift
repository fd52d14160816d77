import AssayCore
import AssayJSON
import Foundation

/// A value decoded and validated, with the warnings found on the way: lax conversions, dropped
/// elements of lossy collections, unknown keys (by policy) and rules of warning severity.
public struct Decoded<Value> {
    /// The valid, normalised value.
    public var value: Value
    /// The warnings, in the order they were found.
    public var warnings: [ValidationIssue]

    /// Makes a result.
    public init(value: Value, warnings: [ValidationIssue]) {
        self.value = value
        self.warnings = warnings
    }
}

extension Decoded: Sendable where Value: Sendable {}

/// The root of a validated decode: keeps the aggregate error of the value instead of letting the
/// decoder wrap it.
struct ValidatedRoot<Value: Decodable>: Decodable {
    let result: Result<Value, ValidationError>

    init(from decoder: any Decoder) throws {
        if let array = Value.self as? any ElementwiseDecodable.Type {
            // An array named through a generic type (a type alias of `[[Double]]`): decoded element by
            // element, as `decodeValidated([E].self …)` decodes one.
            var collector = IssueCollector(policy: ValidatedDecoding.policy(of: decoder))
            let path = IssueCollector.path(of: decoder)
            switch array.decodeElementwise(from: decoder, into: &collector, at: path) {
            case .decoded(let value) where !collector.failed:
                ValidatedDecoding.addWarnings(collector.issues, of: decoder)
                result = .success(value as! Value)
            case .notAnArray:
                collector.fail(
                    DecodingError.typeMismatch(
                        Value.self, .init(codingPath: decoder.codingPath, debugDescription: "Expected an array")),
                    at: path, expected: "\(Value.self)")
                result = .failure(collector.aggregate())
            default:
                result = .failure(collector.aggregate())
            }
            return
        }
        do {
            // A `Validatable` type whose decoding does not check it is checked here.
            let value = try Value(from: decoder)
            result = .success(try ValidatedDecoding.checked(value, context: ValidatedDecoding.context(of: decoder)))
        } catch {
            var collector = IssueCollector(policy: ValidatedDecoding.policy(of: decoder))
            collector.fail(error, at: IssueCollector.path(of: decoder), expected: "\(Value.self)")
            result = .failure(collector.aggregate())
        }
    }
}

/// The root of a validated decode of an array: every element is decoded, every failure collected.
struct ValidatedElements<Element: Decodable>: Decodable {
    let result: Result<[Element], ValidationError>

    init(from decoder: any Decoder) throws {
        var collector = IssueCollector(policy: ValidatedDecoding.policy(of: decoder))
        let path = IssueCollector.path(of: decoder)
        do {
            var container = try decoder.unkeyedContainer()
            let elements: [Element]? = collector.decodeElements(&container, at: path, lossy: false)
            if var elements, !collector.failed {
                // Elements of a `Validatable` type whose decoding does not check them are checked here.
                if Element.self is any Validatable.Type {
                    let context = ValidatedDecoding.context(of: decoder)
                    for index in elements.indices {
                        do {
                            elements[index] = try ValidatedDecoding.checked(
                                elements[index], context: context, at: path.appending(index: index))
                        } catch {
                            collector.fail(error, at: path.appending(index: index), expected: "\(Element.self)")
                        }
                    }
                }
                if !collector.failed {
                    ValidatedDecoding.addWarnings(collector.issues, of: decoder)
                    result = .success(elements)
                    return
                }
            }
        } catch {
            collector.fail(error, at: path, expected: "\([Element].self)")
        }
        result = .failure(collector.aggregate())
    }
}

/// The root of a decode of an array that keeps each element's outcome: its value, or its issues.
struct ValidatedElementResults<Element: Decodable>: Decodable {
    let results: [Result<Element, ValidationError>]

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var results: [Result<Element, ValidationError>] = []
        if let count = container.count { results.reserveCapacity(count) }
        while !container.isAtEnd {
            results.append(try container.decode(ValidatedRoot<Element>.self).result)
        }
        self.results = results
    }
}

extension JSONValueDecoder {
    /// Decodes and validates a value from UTF-8 JSON: every problem in the payload at once.
    ///
    /// <!-- snippet: doc-decode-validated -->
    /// ```swift
    /// do {
    ///     let clients = try JSONValueDecoder().decodeValidated([Client].self, from: bytes).value
    ///     print(clients.count)
    /// } catch {
    ///     for issue in error.issues {
    ///         print(issue.path.jsonPointer, issue.message)  // /1/age Age must be between 1 and 150
    ///     }
    /// }
    /// ```
    ///
    /// Types declared with `@Validatable` (or conforming to ``ValidatedValue``) report every bad field,
    /// nested models and array elements included; issues carry `line` and `column` parameters. In
    /// lax mode (`CoercionMode.lax`) each conversion is a warning of the result.
    ///
    /// - Throws: `ValidationError` with every issue; input that is not JSON is one
    ///   `IssueCode.malformed` issue.
    ///
    /// Inlinable, so it is specialised for `T` where it is called: generic code would look up the
    /// metadata of the result types at run time, for every value decoded.
    @inlinable
    public func decodeValidated<T: Decodable>(
        _ type: T.Type, from bytes: [UInt8], policy: ValidatedDecodingPolicy = .default
    ) throws(ValidationError) -> Decoded<T> {
        try decodeValidated(type, from: try validatedDocument(bytes), policy: policy)
    }

    /// Decodes and validates a value from a parsed document: for a caller that parses the input
    /// itself (an HTTP adapter answering a body that is not JSON apart from one that breaks rules).
    ///
    /// - Throws: `ValidationError` with every issue, located in the document.
    @inlinable
    public func decodeValidated<T: Decodable>(
        _ type: T.Type, from document: JSONDocument, policy: ValidatedDecodingPolicy = .default
    ) throws(ValidationError) -> Decoded<T> {
        // An array named through a generic type (a type alias of `[[Double]]`): element by element.
        if isElementwiseArray(T.self) { return try decodeValidatedArray(T.self, from: document, policy: policy) }
        let context = ValidatedDecoding.Context(policy: policy, sink: nil)
        var coercions: [ValidationIssue] = []
        let value: T
        do {
            // The value's own error (the aggregate of every issue) comes through unwrapped.
            let decoded = try decodeKeepingErrors(T.self, from: document, attachment: context, coercions: &coercions)
            // A `Validatable` type whose decoding does not check it is checked here.
            value = try ValidatedDecoding.checked(decoded, context: context)
        } catch {
            throw rootFailure(error, expected: T.self, policy: policy, document: document)
        }
        return Decoded(value: value, warnings: warnings(coercions, context: context, document: document))
    }

    /// Decodes and validates an array from UTF-8 JSON, element by element: every bad element is
    /// reported, not only the first.
    ///
    /// - Throws: `ValidationError` with every issue.
    public func decodeValidated<Element: Decodable>(
        _ type: [Element].Type, from bytes: [UInt8], policy: ValidatedDecodingPolicy = .default
    ) throws(ValidationError) -> Decoded<[Element]> {
        try run(ValidatedElements<Element>.self, from: bytes, policy: policy) { $0.result }
    }

    /// Decodes and validates an array from a parsed document, element by element: every bad element
    /// is reported, not only the first.
    ///
    /// - Throws: `ValidationError` with every issue, located in the document.
    public func decodeValidated<Element: Decodable>(
        _ type: [Element].Type, from document: JSONDocument, policy: ValidatedDecodingPolicy = .default
    ) throws(ValidationError) -> Decoded<[Element]> {
        try run(ValidatedElements<Element>.self, from: document, policy: policy) { $0.result }
    }

    /// Decodes and validates a JSON array element by element, keeping each element's outcome: its
    /// value, or every issue of it. A caller keeps the good elements and reports the others, each
    /// naming its element (an import that lists every bad record and saves the rest, or none).
    ///
    /// <!-- snippet: doc-decode-elements -->
    /// ```swift
    /// let outcomes = try JSONValueDecoder().decodeValidatedElements(Client.self, from: bytes)
    /// for case .failure(let error) in outcomes {
    ///     print(error.text(in: .english))  // /1/age: Age must be between 1 and 150
    /// }
    /// let clients = outcomes.compactMap { try? $0.get() }
    /// print(clients.map(\.name))  // ["Ann Lee"]
    /// ```
    ///
    /// Issues are located in the whole document (`/3/age`, with its line and column).
    ///
    /// - Throws: `ValidationError` when the input is not JSON or not an array.
    public func decodeValidatedElements<Element: Decodable>(
        _ type: Element.Type, from bytes: [UInt8], policy: ValidatedDecodingPolicy = .default
    ) throws(ValidationError) -> [Result<Element, ValidationError>] {
        let document = try validatedDocument(bytes)
        let context = ValidatedDecoding.Context(policy: policy, sink: nil)
        let decoded: ValidatedElementResults<Element>
        do {
            decoded = try decodeReportingCoercions(
                ValidatedElementResults<Element>.self, from: document, attachment: context
            ).value
        } catch {
            throw ValidationError(error.issue)
        }
        return decoded.results.map { result in result.mapError { located($0, in: document) } }
    }

    /// Decodes and validates a value from UTF-8 JSON in `data`.
    ///
    /// - Throws: `ValidationError` with every issue.
    public func decodeValidated<T: Decodable>(
        _ type: T.Type, from data: Data, policy: ValidatedDecodingPolicy = .default
    ) throws(ValidationError) -> Decoded<T> {
        try decodeValidated(type, from: [UInt8](data), policy: policy)
    }

    /// Decodes and validates an array from UTF-8 JSON in `data`.
    ///
    /// - Throws: `ValidationError` with every issue.
    public func decodeValidated<Element: Decodable>(
        _ type: [Element].Type, from data: Data, policy: ValidatedDecodingPolicy = .default
    ) throws(ValidationError) -> Decoded<[Element]> {
        try decodeValidated(type, from: [UInt8](data), policy: policy)
    }

    @usableFromInline
    func isElementwiseArray<T>(_ type: T.Type) -> Bool { T.self is any ElementwiseDecodable.Type }

    @usableFromInline
    func decodeValidatedArray<T: Decodable>(
        _ type: T.Type, from document: JSONDocument, policy: ValidatedDecodingPolicy
    ) throws(ValidationError) -> Decoded<T> {
        try run(ValidatedRoot<T>.self, from: document, policy: policy) { $0.result }
    }

    private func run<Root: Decodable, Value>(
        _ root: Root.Type, from bytes: [UInt8], policy: ValidatedDecodingPolicy,
        _ result: (Root) -> Result<Value, ValidationError>
    ) throws(ValidationError) -> Decoded<Value> {
        try run(root, from: try validatedDocument(bytes), policy: policy, result)
    }

    private func run<Root: Decodable, Value>(
        _ root: Root.Type, from document: JSONDocument, policy: ValidatedDecodingPolicy,
        _ result: (Root) -> Result<Value, ValidationError>
    ) throws(ValidationError) -> Decoded<Value> {
        // The policy and sink go to the models through the run's attachment, which they read
        // before `userInfo` (entries added to `userInfo` cost a dictionary for every decode).
        let context = ValidatedDecoding.Context(policy: policy, sink: nil)
        let decoded: (value: Root, coercions: [ValidationIssue])
        do {
            decoded = try decodeReportingCoercions(Root.self, from: document, attachment: context)
        } catch {
            throw ValidationError(error.issue)
        }
        switch result(decoded.value) {
        case .success(let value):
            return Decoded(value: value, warnings: warnings(decoded.coercions, context: context, document: document))
        case .failure(let error):
            throw located(error, in: document)
        }
    }

    /// The parsed document, or input that is not JSON as one `IssueCode.malformed` issue.
    @usableFromInline
    func validatedDocument(_ bytes: [UInt8]) throws(ValidationError) -> JSONDocument {
        do {
            return try JSONDocument(parsing: bytes, options: parserOptions)
        } catch {
            var context = RuleContext(phase: .decode)
            context.report(
                .malformed,
                parameters: [
                    "detail": .string(error.detail), "line": .integer(error.line), "column": .integer(error.column),
                ])
            throw ValidationError(context.issues)
        }
    }

    /// The aggregate error of a root value that did not decode or is not valid, located in the input.
    @usableFromInline
    func rootFailure(
        _ error: any Error, expected: Any.Type, policy: ValidatedDecodingPolicy, document: JSONDocument
    ) -> ValidationError {
        var collector = IssueCollector(policy: policy)
        collector.fail(error, at: .root, expected: "\(expected)")
        return located(collector.aggregate(), in: document)
    }

    /// The warnings of a valid value: the lax conversions made, then what the models reported.
    @usableFromInline
    func warnings(
        _ coercions: [ValidationIssue], context: ValidatedDecoding.Context, document: JSONDocument
    ) -> [ValidationIssue] {
        locate(coercions + context.warnings, in: document)
    }

    private func located(_ error: ValidationError, in document: JSONDocument) -> ValidationError {
        var located = ValidationError(
            locate(error.issues, in: document), limit: error.limit, warningLimit: error.warningLimit)
        located.countDropped(errors: error.droppedErrorCount, warnings: error.droppedWarningCount)
        if error.isTruncated && !located.isTruncated { located.markTruncated() }
        return located
    }

    /// Adds the line and column of each issue's value in the input, as parameters.
    private func locate(_ issues: [ValidationIssue], in document: JSONDocument) -> [ValidationIssue] {
        issues.map { issue in
            guard issue.parameters["line"] == nil, let location = document.location(of: issue.path) else {
                return issue
            }
            var located = issue
            located.parameters["line"] = .integer(location.line)
            located.parameters["column"] = .integer(location.column)
            return located
        }
    }
}

extension JSONDecoder {
    /// Decodes and validates a value with Foundation's decoder, configured as this one: every problem
    /// in the payload at once (see `decodeValidated(_:from:policy:)`).
    ///
    /// - Throws: `ValidationError` with every issue; input that is not JSON is one
    ///   `IssueCode.malformed` issue.
    public func decodeValidated<T: Decodable>(
        _ type: T.Type, from data: Data, policy: ValidatedDecodingPolicy = .default
    ) throws(ValidationError) -> Decoded<T> {
        try run(ValidatedRoot<T>.self, from: data, policy: policy) { $0.result }
    }

    /// Decodes and validates an array with Foundation's decoder, element by element: every bad
    /// element is reported, not only the first.
    ///
    /// - Throws: `ValidationError` with every issue.
    public func decodeValidated<Element: Decodable>(
        _ type: [Element].Type, from data: Data, policy: ValidatedDecodingPolicy = .default
    ) throws(ValidationError) -> Decoded<[Element]> {
        try run(ValidatedElements<Element>.self, from: data, policy: policy) { $0.result }
    }

    private func run<Root: Decodable, Value>(
        _ root: Root.Type, from data: Data, policy: ValidatedDecodingPolicy,
        _ result: (Root) -> Result<Value, ValidationError>
    ) throws(ValidationError) -> Decoded<Value> {
        // A decoder of our own: `userInfo` of a shared one must not change under other threads.
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = dateDecodingStrategy
        decoder.dataDecodingStrategy = dataDecodingStrategy
        decoder.nonConformingFloatDecodingStrategy = nonConformingFloatDecodingStrategy
        decoder.keyDecodingStrategy = keyDecodingStrategy
        decoder.allowsJSON5 = allowsJSON5
        decoder.assumesTopLevelDictionary = assumesTopLevelDictionary
        let sink = WarningSink()
        var info = userInfo
        info[ValidatedDecoding.policyKey] = policy
        info[ValidatedDecoding.warningsKey] = sink
        decoder.userInfo = info
        let root: Root
        do {
            root = try decoder.decode(Root.self, from: data)
        } catch {
            // Only input that is not JSON gets here: the roots catch everything else.
            var context = RuleContext(phase: .decode)
            var detail = String(describing: error)
            if case DecodingError.dataCorrupted(let context) = error {
                detail = context.underlyingError.map { String(describing: $0) } ?? context.debugDescription
            }
            context.report(.malformed, parameters: ["detail": .string(detail)])
            throw ValidationError(context.issues)
        }
        switch result(root) {
        case .success(let value): return Decoded(value: value, warnings: sink.warnings)
        case .failure(let error): throw error
        }
    }
}
