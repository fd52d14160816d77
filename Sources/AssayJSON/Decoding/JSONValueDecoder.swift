import AssayCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes `Decodable` types from JSON bytes, a ``JSONDocument`` or a ``JSONValue``.
///
/// Strict by default: a type mismatch is an error. In ``CoercionMode/lax`` mode it converts as the
/// coercion table of ``CoercionMode`` says, and ``decodeReportingCoercions(_:from:)-(_,[UInt8])`` returns every
/// conversion made as a warning. Errors carry the coding path, the JSON Pointer and the line and
/// column of the offending value.
///
/// <!-- snippet: doc-json-decoder -->
/// ```swift
/// struct Client: Decodable { var name: String; var age: Int; var managerId: String? }
/// var decoder = JSONValueDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// let client = try decoder.decode(Client.self, from: Array(#"{"name":"Ann","age":35,"manager_id":null}"#.utf8))
/// print(client.name, client.age)  // Ann 35
/// ```
public struct JSONValueDecoder: Sendable {
    /// How dates are read.
    public enum DateDecodingStrategy: Sendable {
        /// RFC 3339 / ISO 8601 date-time strings (`2024-02-29T12:00:00.5+01:00`), strictly: no
        /// impossible days. The default.
        case rfc3339
        /// Numbers of seconds since 1970-01-01T00:00:00Z.
        case secondsSince1970
        /// Numbers of milliseconds since 1970-01-01T00:00:00Z.
        case millisecondsSince1970
        /// `Date`'s own `Decodable` conformance.
        case deferredToDate
        /// A closure of your own.
        case custom(@Sendable (any Decoder) throws -> Date)
    }

    /// How keys are matched.
    public enum KeyDecodingStrategy: Sendable, Hashable {
        /// Keys as they are.
        case useDefaultKeys
        /// `snake_case` keys in the JSON match `camelCase` properties (`manager_id` → `managerId`),
        /// as Foundation's `JSONDecoder` converts them.
        case convertFromSnakeCase
    }

    /// Strict (default) or lax conversions.
    public var mode: CoercionMode = .strict
    /// How dates are read; RFC 3339 by default.
    public var dateDecodingStrategy: DateDecodingStrategy = .rfc3339
    /// How keys are matched.
    public var keyDecodingStrategy: KeyDecodingStrategy = .useDefaultKeys
    /// The parser's options, for byte input.
    public var parserOptions: JSONParserOptions = .default
    /// Values handed to the types being decoded, as `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Makes a decoder with the defaults: strict, RFC 3339 dates, keys as they are.
    public init() {}

    /// Decodes a value from UTF-8 JSON.
    ///
    /// - Throws: ``JSONDecodingError``.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws(JSONDecodingError) -> T {
        try decodeReportingCoercions(type, from: bytes).value
    }

    /// Decodes a value from UTF-8 JSON in `data`.
    ///
    /// - Throws: ``JSONDecodingError``.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(JSONDecodingError) -> T {
        try decode(type, from: [UInt8](data))
    }

    /// Decodes a value from a parsed document.
    ///
    /// - Throws: ``JSONDecodingError``.
    public func decode<T: Decodable>(_ type: T.Type, from document: JSONDocument) throws(JSONDecodingError) -> T {
        try decodeReportingCoercions(type, from: document).value
    }

    /// Decodes a value from a tree (errors then carry no line and column).
    ///
    /// - Throws: ``JSONDecodingError``.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(JSONDecodingError) -> T {
        let document: JSONDocument
        do {
            document = try JSONDocument(parsing: value.jsonBytes(), options: .init(maximumDepth: 1_000))
        } catch {
            throw JSONDecodingError(
                issue: ValidationIssue(code: .malformed, parameters: ["detail": .string(error.detail)], phase: .decode),
                line: nil, column: nil, parseError: error, detail: error.detail)
        }
        return try run(type, document: document, locate: false).value
    }

    /// Decodes a value from UTF-8 JSON and returns the lax conversions made, as warnings.
    ///
    /// - Throws: ``JSONDecodingError``.
    public func decodeReportingCoercions<T: Decodable>(
        _ type: T.Type, from bytes: [UInt8]
    ) throws(JSONDecodingError) -> (value: T, coercions: [ValidationIssue]) {
        let document: JSONDocument
        do {
            document = try JSONDocument(parsing: bytes, options: parserOptions)
        } catch {
            throw JSONDecodingError(
                issue: ValidationIssue(code: .malformed, parameters: ["detail": .string(error.detail)], phase: .decode),
                line: error.line, column: error.column, parseError: error,
                detail: "not JSON: \(error.detail)")
        }
        return try run(type, document: document, locate: true)
    }

    /// Decodes a value from a parsed document and returns the lax conversions made, as warnings.
    ///
    /// - Throws: ``JSONDecodingError``.
    public func decodeReportingCoercions<T: Decodable>(
        _ type: T.Type, from document: JSONDocument
    ) throws(JSONDecodingError) -> (value: T, coercions: [ValidationIssue]) {
        try run(type, document: document, locate: true)
    }

    /// ``decodeReportingCoercions(_:from:)-(_,JSONDocument)`` with a run attachment set from the
    /// start (see ``NodeDecoderHandle/runAttachment``): what AssayCodable would otherwise hand over through
    /// `userInfo`, whose entries cost a dictionary per decode.
    package func decodeReportingCoercions<T: Decodable>(
        _ type: T.Type, from document: JSONDocument, attachment: AnyObject
    ) throws(JSONDecodingError) -> (value: T, coercions: [ValidationIssue]) {
        try run(type, document: document, locate: true, attachment: attachment)
    }

    /// Decodes a value from a parsed document with a run attachment (as
    /// ``decodeReportingCoercions(_:from:attachment:)``), letting the error `T`'s initializer throws
    /// through as it is (AssayCodable's aggregate of every issue) instead of wrapping it; the lax
    /// conversions made are appended to `coercions`.
    @usableFromInline
    package func decodeKeepingErrors<T: Decodable>(
        _ type: T.Type, from document: JSONDocument, attachment: AnyObject, coercions: inout [ValidationIssue]
    ) throws -> T {
        let state = DecodingState(options: self, tape: document.tape)
        state.attachment = attachment
        let value = try NodeDecoder(node: document.root, state: state, link: nil).decodeValue(type)
        coercions += state.coercions
        return value
    }

    private func run<T: Decodable>(
        _ type: T.Type, document: JSONDocument, locate: Bool, attachment: AnyObject? = nil
    ) throws(JSONDecodingError) -> (value: T, coercions: [ValidationIssue]) {
        let state = DecodingState(options: self, tape: document.tape)
        state.attachment = attachment
        let decoder = NodeDecoder(node: document.root, state: state, link: nil)
        do {
            let value = try decoder.decodeValue(type)
            return (value, state.coercions)
        } catch let error as DecodingFailure {
            throw error.located(in: locate ? document : nil)
        } catch let error as DecodingError {
            throw DecodingFailure(from: error).located(in: locate ? document : nil)
        } catch {
            throw DecodingFailure(
                code: .custom("decoding"), path: decoder.path, expected: nil, found: nil,
                detail: String(describing: error)
            ).located(in: locate ? document : nil)
        }
    }
}

/// Mutable state shared by the decoders of one run (a run is single-threaded).
final class DecodingState {
    let options: JSONValueDecoder
    /// The tape of the document being decoded.
    let tape: Tape
    var coercions: [ValidationIssue] = []
    /// The object in which a member was found last, and the key entry after that member: where
    /// the next lookup in the same object starts.
    // A run is single-threaded and these are never accessed overlapping: the dynamic exclusivity
    // checks a class's stored properties get otherwise cost a runtime call per member looked up.
    @exclusivity(unchecked) var hintObject = -1
    @exclusivity(unchecked) var hintPosition = 0
    /// `options.userInfo` as `Decoder.userInfo` types it, converted once per run (the conversion
    /// builds a new dictionary, and models read it for every object).
    let userInfo: [CodingUserInfoKey: Any]
    /// A bit per tape entry: the values keyed containers found by key, so a model can tell which
    /// members of its object it did not read without comparing names (``NodeDecoderHandle/unreadKeys()``).
    @exclusivity(unchecked) private var readValues: [UInt64] = []
    /// Whether lookups are marked in `readValues`: from the first model that asks for its unread
    /// keys on (plain decoding does not pay for it).
    @exclusivity(unchecked) var tracksReads = false
    /// What another module of the package keeps for the run (``NodeDecoderHandle/runAttachment``).
    @exclusivity(unchecked) var attachment: AnyObject?

    /// Whether keys are converted from snake_case (``JSONValueDecoder/KeyDecodingStrategy``).
    let convertsKeys: Bool
    /// The members of each object decoded with converted keys, by the object's tape index.
    @exclusivity(unchecked) private var convertedTables: [Int: [String: (key: String, node: JSONNode)]] = [:]

    init(options: JSONValueDecoder, tape: Tape) {
        self.options = options
        self.tape = tape
        self.userInfo = options.userInfo
        self.convertsKeys = options.keyDecodingStrategy == .convertFromSnakeCase
    }

    /// The members of the object at tape index `index` by their keys converted to camelCase.
    func convertedMembers(ofObjectAt index: Int) -> [String: (key: String, node: JSONNode)] {
        if let table = convertedTables[index] { return table }
        var table: [String: (key: String, node: JSONNode)] = [:]
        for member in JSONNode(tape: tape, index: index).members {
            table[KeyedNodeContainer<AnyKey>.camelCase(member.key)] = (member.key, member.value)
        }
        convertedTables[index] = table
        return table
    }

    func markRead(_ index: Int) {
        if readValues.isEmpty { readValues = [UInt64](repeating: 0, count: tape.entries.count / 64 + 1) }
        readValues[index >> 6] |= 1 << UInt64(index & 63)
    }

    func wasRead(_ index: Int) -> Bool {
        !readValues.isEmpty && readValues[index >> 6] & (1 << UInt64(index & 63)) != 0
    }

    /// Unmarks the entries `range` holds (one word at a time where it covers whole words).
    func forgetReads(_ range: Range<Int>) {
        guard !readValues.isEmpty else { return }
        var index = range.lowerBound
        while index < range.upperBound {
            if index & 63 == 0 && index + 64 <= range.upperBound {
                readValues[index >> 6] = 0
                index += 64
            } else {
                readValues[index >> 6] &= ~(1 << UInt64(index & 63))
                index += 1
            }
        }
    }
}

/// A failure inside a run, located later.
struct DecodingFailure: Error {
    var code: IssueCode
    var path: IssuePath
    var expected: String?
    var found: JSONNode?
    var detail: String

    init(code: IssueCode, path: IssuePath, expected: String?, found: JSONNode?, detail: String) {
        self.code = code
        self.path = path
        self.expected = expected
        self.found = found
        self.detail = detail
    }

    init(from error: DecodingError) {
        func path(_ codingPath: [any CodingKey]) -> IssuePath { IssuePath(codingPath: codingPath) }
        switch error {
        case .typeMismatch(let type, let context):
            self.init(
                code: .typeMismatch, path: path(context.codingPath), expected: String(describing: type), found: nil,
                detail: context.debugDescription)
        case .valueNotFound(let type, let context):
            self.init(
                code: .missing, path: path(context.codingPath), expected: String(describing: type), found: nil,
                detail: context.debugDescription)
        case .keyNotFound(let key, let context):
            self.init(
                code: .missing, path: path(context.codingPath + [key]), expected: nil, found: nil,
                detail: "missing key \"\(key.stringValue)\"")
        case .dataCorrupted(let context):
            self.init(
                code: .custom("dataCorrupted"), path: path(context.codingPath), expected: nil, found: nil,
                detail: context.debugDescription)
        @unknown default:
            self.init(code: .custom("decoding"), path: .root, expected: nil, found: nil, detail: "\(error)")
        }
    }

    func located(in document: JSONDocument?) -> JSONDecodingError {
        var parameters: [String: IssueValue] = [:]
        if let expected { parameters["expected"] = .string(expected) }
        var value: IssueValue? = nil
        var valueType: String? = nil
        if let found {
            let jsonValue = found.value
            value = IssueValue(jsonValue.jsonString())
            valueType = found.kind.description
        }
        let location = document?.location(of: path)
        if let location {
            parameters["line"] = .integer(location.line)
            parameters["column"] = .integer(location.column)
        }
        let message: MessageTemplate? = code.isCustom ? MessageTemplate(detail) : nil
        let issue = ValidationIssue(
            code: code, path: path, parameters: parameters, value: value, valueType: valueType, phase: .decode,
            message: message)
        return JSONDecodingError(
            issue: issue, line: location?.line, column: location?.column, parseError: nil, detail: detail)
    }
}

/// The issue a decoding error stands for, with the path of the offending value: AssayJSON's own
/// failures, `DecodingError`s and ``JSONDecodingError``; `nil` for other errors.
package func decodingIssue(from error: any Error) -> ValidationIssue? {
    switch error {
    case let failure as DecodingFailure: return failure.located(in: nil).issue
    case let failure as JSONDecodingError: return failure.issue
    case let failure as DecodingError: return DecodingFailure(from: failure).located(in: nil).issue
    default: return nil
    }
}

/// AssayJSON's decoder seen from the other modules of the package: what AssayCodable's models ask of
/// it, behind one check of the decoder's type.
@usableFromInline
package struct NodeDecoderHandle {
    let decoder: NodeDecoder

    /// `decoder` when it is AssayJSON's; `nil` for other decoders.
    package init?(_ decoder: any Decoder) {
        guard let node = Self.unwrap(decoder) else { return nil }
        self.decoder = node
    }

    init(_ decoder: NodeDecoder) { self.decoder = decoder }

    /// The decoder inside the existential when it is a `NodeDecoder`: the existential opened and its
    /// type compared (a pointer comparison), not the run-time cast `as? NodeDecoder` (hundreds of
    /// instructions, for every model decoded).
    private static func unwrap<D: Decoder>(_ decoder: D) -> NodeDecoder? {
        guard D.self == NodeDecoder.self else { return nil }
        return withUnsafePointer(to: decoder) { UnsafeRawPointer($0).assumingMemoryBound(to: NodeDecoder.self).pointee }
    }

    /// The JSON path of the value read (actual keys, after key conversion).
    package var path: IssuePath { decoder.path }

    /// The keyed container of the object read, as `container(keyedBy:)` opens it but without the
    /// `KeyedDecodingContainer` around it.
    ///
    /// - Throws: The decoder's failure when the value is not an object.
    @usableFromInline
    package func keyedContainer<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedNodeContainer<Key> {
        try decoder.keyedNodeContainer(keyedBy: type)
    }

    /// What a module of the package keeps for the decode run (AssayCodable keeps the policy and
    /// warning sink there, instead of looking them up in `userInfo` for every object).
    package var runAttachment: AnyObject? {
        get { decoder.state.attachment }
        nonmutating set { decoder.state.attachment = newValue }
    }

    /// Whether ``unreadKeys()`` can answer: keys are matched as written (no snake_case conversion).
    package var tracksReadKeys: Bool { decoder.state.options.keyDecodingStrategy != .convertFromSnakeCase }

    /// The keys of the object read that `isKnown` refuses, in input order (after key conversion, as
    /// the keyed container matches them).
    package func unknownKeys(isKnown: (String) -> Bool) -> [String] {
        let snakeCase = decoder.state.options.keyDecodingStrategy == .convertFromSnakeCase
        let tape = decoder.state.tape
        var unknown: [String] = []
        decoder.node.forEachMember { key, _ in
            let name = tape.string(at: key)
            let matched = snakeCase ? KeyedNodeContainer<AnyKey>.camelCase(name) : name
            if !isKnown(matched) { unknown.append(name) }
        }
        return unknown
    }

    /// Whether values are decoded without conversions (``CoercionMode/strict``): a failed attempt
    /// then leaves nothing behind (no coercion warnings), so it can be made again another way.
    package var isStrict: Bool { decoder.mode == .strict }

    /// Starts marking the members keyed containers look up, for ``unreadKeys()``: call it before
    /// the object's fields are read.
    package func startTrackingReads() { decoder.state.tracksReads = true }

    /// Forgets which values inside the value read were looked up (not the value itself, which its
    /// container looked up): a union that tries its alternatives in turn starts each afresh, so
    /// that one alternative's reads do not hide another's unknown keys.
    package func forgetReadsInside() {
        let state = decoder.state
        let start = decoder.node.index
        state.forgetReads((start + 1)..<state.tape.next(after: start))
    }

    /// The keys of the object read whose values no keyed container of this decode looked up by
    /// key, in input order (meaningful when ``tracksReadKeys``). A model checks these alone for
    /// unknown keys after reading its fields, instead of every key before.
    package func unreadKeys() -> [String] {
        let state = decoder.state
        var unread: [String] = []
        decoder.node.forEachMember { key, value in
            if !state.wasRead(value.index) { unread.append(state.tape.string(at: key)) }
        }
        return unread
    }
}

/// A coding key of any string or index (AssayCodable lists every key of an object with it).
package struct AnyKey: CodingKey {
    package var stringValue: String
    package var intValue: Int?
    package init(stringValue: String) { self.stringValue = stringValue }
    package init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}
