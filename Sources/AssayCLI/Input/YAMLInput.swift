import AssayCore
import AssayJSON
import Yams

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One document of a YAML stream, as JSON, with the source line of each of its values.
struct YAMLDocument {
    /// The document as JSON, or why it cannot be one.
    let value: Result<JSONValue, YAMLProblem>
    /// The document's node tree, to find the source line of an error.
    let node: Node?
    /// The lines of the stream before the piece the document was parsed from.
    var lineOffset = 0

    /// The 1-based line where the document starts in the stream.
    var firstLine: Int? { node?.mark.map { $0.line + lineOffset } }

    /// The 1-based line of the value at `path` in the YAML source, or of the nearest value above it.
    func line(of path: [JSONPathComponent]) -> Int? {
        lineInPiece(of: path).map { $0 + lineOffset }
    }

    private func lineInPiece(of path: [JSONPathComponent]) -> Int? {
        guard var current = node else { return nil }
        var line = current.mark?.line
        for component in path {
            switch (current, component) {
            case (.mapping(let mapping), .key(let key)):
                guard let found = mapping.first(where: { YAMLInput.keyText($0.key) == key })?.value else { return line }
                current = found
            case (.sequence(let sequence), .index(let index)):
                guard index >= 0, index < sequence.count else { return line }
                current = sequence[index]
            default:
                return line
            }
            line = current.mark?.line ?? line
        }
        return line
    }
}

/// Why a YAML document cannot be validated.
struct YAMLProblem: Error {
    /// The 1-based line, when known.
    let line: Int?
    /// One line of text.
    let message: String
    /// Whether the document crossed a limit (size, nesting, aliases) rather than being malformed.
    var isLimit = false
}

/// YAML streams turned into JSON values, with limits against hostile input.
///
/// Scalars are resolved by YAML 1.1's core rules as Yams applies them: `null`/`~`, `true`/`false`,
/// integers (also `0x`/`0o`), floats; everything else, and anything quoted, is a string. Mapping keys
/// must be scalars and become strings. Merge keys (`<<`) are applied. Infinity and NaN have no JSON
/// form and make the document invalid.
enum YAMLInput {
    /// The most values one document may expand to through aliases: a million, or twenty per byte of
    /// the stream if that is more (a "billion laughs" bomb stops here).
    static func maximumValues(forStreamOf byteCount: Int) -> Int { max(1_000_000, byteCount * 20) }
    /// The deepest nesting a document may have.
    static let maximumDepth = 1_000

    /// Splits the stream into documents. A syntax error ends the stream: the documents before it
    /// are returned, then one failing document with the error. `lineOffset` is the number of lines
    /// of the stream before `bytes` (a piece of it, ``YAMLStreamReader``): lines are counted in
    /// the stream.
    static func documents(_ bytes: [UInt8], lineOffset: Int = 0) -> [YAMLDocument] {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return [
                YAMLDocument(
                    value: .failure(YAMLProblem(line: lineOffset + 1, message: "not valid UTF-8")), node: nil,
                    lineOffset: lineOffset)
            ]
        }
        var result: [YAMLDocument] = []
        func failed(_ problem: YAMLProblem) -> Result<JSONValue, YAMLProblem> {
            .failure(
                YAMLProblem(
                    line: problem.line.map { $0 + lineOffset }, message: problem.message, isLimit: problem.isLimit))
        }
        do {
            let sequence = try Yams.compose_all(yaml: text)
            var iterator = sequence.makeIterator()
            let source = LeadingBOMs(text)
            while let node = iterator.next() {
                var value = convert(node, maximumValues: maximumValues(forStreamOf: bytes.count), source: source)
                if case .failure(let problem) = value { value = failed(problem) }
                result.append(YAMLDocument(value: value, node: node, lineOffset: lineOffset))
            }
            if let error = iterator.error {
                result.append(YAMLDocument(value: .failure(problem(error, lineOffset: lineOffset)), node: nil))
            }
        } catch {
            result.append(YAMLDocument(value: .failure(problem(error, lineOffset: lineOffset)), node: nil))
        }
        return result
    }

    /// A one-line description of a Yams error.
    static func problem(_ error: any Error, lineOffset: Int = 0) -> YAMLProblem {
        if let error = error as? YamlError {
            switch error {
            case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
                .composer(let context, let problem, let mark, _):
                let prefix = context.map { "\($0.text) " } ?? ""
                // libyaml's own nesting limit is a limit crossed, not malformed YAML.
                let line = mark.line + lineOffset
                return YAMLProblem(
                    line: line,
                    message: "not valid YAML: line \(line), column \(mark.column): \(prefix)\(problem)",
                    isLimit: problem.hasPrefix("Maximum nesting level"))
            case .duplicatedKeysInMapping(let duplicates, _):
                return YAMLProblem(
                    line: nil, message: "not valid YAML: duplicate keys \(duplicates.sorted().joined(separator: ", "))")
            default:
                break
            }
        }
        let text = String(describing: error).split(separator: "\n").first.map(String.init) ?? "unknown error"
        return YAMLProblem(line: nil, message: "not valid YAML: \(text)")
    }

    /// The text of a mapping key, when it is a scalar.
    static func keyText(_ node: Node, source: LeadingBOMs? = nil) -> String? {
        if case .scalar(let scalar) = node { return source?.restore(scalar) ?? scalar.string }
        return nil
    }

    static func convert(_ node: Node, maximumValues: Int, source: LeadingBOMs? = nil) -> Result<JSONValue, YAMLProblem>
    {
        var budget = maximumValues
        do throws(YAMLProblem) {
            return .success(try convert(node, depth: 0, budget: &budget, source: source))
        } catch  where budget < 0 {
            return .failure(
                YAMLProblem(
                    line: error.line,
                    message: "the document expands to more than \(maximumValues) values through aliases",
                    isLimit: true))
        } catch {
            return .failure(error)
        }
    }

    private static func convert(_ node: Node, depth: Int, budget: inout Int, source: LeadingBOMs?) throws(YAMLProblem)
        -> JSONValue
    {
        budget -= 1
        guard budget >= 0 else {
            throw YAMLProblem(line: node.mark?.line, message: "too many values")
        }
        guard depth <= maximumDepth else {
            throw YAMLProblem(line: node.mark?.line, message: "nesting deeper than \(maximumDepth)", isLimit: true)
        }
        switch node {
        case .scalar(let scalar):
            return try scalarValue(scalar, node: node, source: source)
        case .sequence(let sequence):
            var elements: [JSONValue] = []
            elements.reserveCapacity(sequence.count)
            for element in sequence {
                elements.append(try convert(element, depth: depth + 1, budget: &budget, source: source))
            }
            return .array(elements)
        case .mapping(let mapping):
            var members: [(String, JSONValue)] = []
            // Names compared code point for code point, as JSON compares them.
            var seen: Set<[UInt8]> = []
            var merged: [(String, JSONValue)] = []
            var mergedNames: Set<[UInt8]> = []
            for (key, value) in mapping {
                if case .scalar(let scalar) = key,
                    key.tag.rawValue == Tag.Name.merge.rawValue || (scalar.string == "<<" && scalar.style == .plain)
                {
                    try merge(value, into: &merged, names: &mergedNames, depth: depth, budget: &budget, source: source)
                    continue
                }
                guard let name = keyText(key, source: source) else {
                    throw YAMLProblem(
                        line: key.mark?.line, message: "a mapping key is not a scalar; JSON keys are strings")
                }
                guard seen.insert(Array(name.utf8)).inserted else {
                    throw YAMLProblem(line: key.mark?.line, message: "duplicate key \"\(name)\"")
                }
                members.append((name, try convert(value, depth: depth + 1, budget: &budget, source: source)))
            }
            for (name, value) in merged where seen.insert(Array(name.utf8)).inserted {
                members.append((name, value))
            }
            return .object(JSONObject(members))
        case .alias(let alias):
            throw YAMLProblem(line: alias.mark?.line, message: "unresolved alias *\(alias.anchor.rawValue)")
        }
    }

    /// Applies a merge key's value (a mapping, or a sequence of mappings): earlier keys win. `names`
    /// holds the names already in `merged`, so merging costs time linear in the members merged.
    private static func merge(
        _ value: Node, into merged: inout [(String, JSONValue)], names: inout Set<[UInt8]>, depth: Int,
        budget: inout Int, source: LeadingBOMs?
    ) throws(YAMLProblem) {
        let sources: [Node]
        switch value {
        case .mapping: sources = [value]
        case .sequence(let sequence): sources = Array(sequence)
        default: throw YAMLProblem(line: value.mark?.line, message: "a merge key (<<) needs a mapping")
        }
        for mapping in sources {
            guard case .object(let object) = try convert(mapping, depth: depth + 1, budget: &budget, source: source)
            else {
                throw YAMLProblem(line: mapping.mark?.line, message: "a merge key (<<) needs a mapping")
            }
            for (name, member) in object where names.insert(Array(name.utf8)).inserted {
                merged.append((name, member))
            }
        }
    }

    private static func scalarValue(_ scalar: Node.Scalar, node: Node, source: LeadingBOMs?) throws(YAMLProblem)
        -> JSONValue
    {
        switch Tag.Name(rawValue: node.tag.rawValue) {
        case .null:
            return .null
        case .bool:
            if let flag = node.bool { return .bool(flag) }
        case .int:
            if let number = integer(scalar.string) { return .number(number) }
        case .float:
            if let number = JSONNumber(text: scalar.string) { return .number(number) }
            if let double = node.float {
                guard let number = JSONNumber(double) else {
                    throw YAMLProblem(
                        line: scalar.mark?.line, message: "\(scalar.string) has no JSON form (infinity or NaN)")
                }
                return .number(number)
            }
        default:
            break
        }
        return .string(source?.restore(scalar) ?? scalar.string)
    }

    /// A YAML integer as an exact JSON number: decimal (of any size), `0x`, `0o`, with `_` separators.
    private static func integer(_ text: String) -> JSONNumber? {
        var digits = text.replacingEvery("_", with: "")
        var negative = false
        if digits.hasPrefix("-") || digits.hasPrefix("+") {
            negative = digits.hasPrefix("-")
            digits.removeFirst()
        }
        let radix: Int
        if digits.hasPrefix("0x") {
            radix = 16
            digits.removeFirst(2)
        } else if digits.hasPrefix("0o") {
            radix = 8
            digits.removeFirst(2)
        } else {
            radix = 10
        }
        if radix == 10 {
            while digits.count > 1, digits.hasPrefix("0") { digits.removeFirst() }
            return JSONNumber(text: (negative ? "-" : "") + digits)
        }
        guard let magnitude = Int(digits, radix: radix) else { return nil }
        return JSONNumber(negative ? -magnitude : magnitude)
    }
}

/// Puts back the U+FEFF (byte order mark) characters Yams drops from the start of a scalar: it makes
/// each scalar's `String` with Foundation's UTF-8 decoding, which skips a leading BOM, so `"\uFEFF"`
/// would read as `""`. Made only for a stream that holds a BOM or a `FEFF` escape at all; it counts
/// the BOMs (raw, or escaped in double quotes) that start the scalar in the source, at its mark.
struct LeadingBOMs {
    /// The stream's lines as Unicode scalars, split where libyaml counts lines (CR LF, CR, LF, NEL,
    /// U+2028, U+2029).
    private let lines: [[Unicode.Scalar]]

    init?(_ text: String) {
        guard text.unicodeScalars.contains("\u{FEFF}") || text.localizedCaseInsensitiveContains("FEFF") else {
            return nil
        }
        var lines: [[Unicode.Scalar]] = [[]]
        var previous: Unicode.Scalar = " "
        // A BOM that starts the stream counts as a column in libyaml's marks: it stays.
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n" where previous == "\r": break
            case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}": lines.append([])
            default: lines[lines.count - 1].append(scalar)
            }
            previous = scalar
        }
        self.lines = lines
    }

    /// `scalar`'s text with the leading BOMs its source has.
    func restore(_ scalar: Node.Scalar) -> String {
        guard let mark = scalar.mark, mark.line >= 1, mark.line <= lines.count else { return scalar.string }
        let line = lines[mark.line - 1]
        var position = mark.column - 1
        switch scalar.style {
        case .singleQuoted, .doubleQuoted: position += 1
        case .plain: break
        default: return scalar.string  // block scalars start on a later line
        }
        var inSource = 0
        while position >= 0 && position < line.count {
            if line[position] == "\u{FEFF}" {
                inSource += 1
                position += 1
            } else if scalar.style == .doubleQuoted, line[position] == "\\", let length = escapedBOM(line, position + 1)
            {
                inSource += 1
                position += 1 + length
            } else {
                break
            }
        }
        let kept = scalar.string.unicodeScalars.prefix { $0 == "\u{FEFF}" }.count
        guard inSource > kept else { return scalar.string }
        return String(repeating: "\u{FEFF}", count: inSource - kept) + scalar.string
    }

    /// The length of `uFEFF` or `U0000FEFF` at `start` (any case), or `nil`.
    private func escapedBOM(_ line: [Unicode.Scalar], _ start: Int) -> Int? {
        for (letter, digits) in [("u", "FEFF"), ("U", "0000FEFF")] {
            let end = start + 1 + digits.count
            guard end <= line.count, line[start] == Unicode.Scalar(letter) else { continue }
            let hex = String(String.UnicodeScalarView(line[(start + 1)..<end]))
            if hex.uppercased() == digits { return 1 + digits.count }
        }
        return nil
    }
}
