import AssayCore
import AssayJSON
import AssaySchema

/// The output format of `assay validate`.
enum OutputFormat: String, CaseIterable, Sendable {
    /// `FILE:LINE: /pointer: message` per error, for people.
    case text
    /// One JSON object per document (JSON Lines), for programs.
    case json
}

/// Where a document is in its input: a line of an NDJSON stream, or the n-th document of a JSON or
/// YAML file.
enum DocumentPosition: Sendable {
    case line(Int)
    case document(Int)
}

/// One error of one document, ready to print.
struct ReportedError {
    var instanceLocation: String
    var keywordLocation: String
    var absoluteKeywordLocation: String
    var code: String
    var message: String
    /// The source line the error is shown at in text output.
    var sourceLine: Int
    /// For `anyOf` and `oneOf`: what each alternative found (``SchemaError/causes``), in the JSON
    /// output's `causes`.
    var causes: [ReportedError] = []
}

/// Renders per-document results as text or JSON Lines into a byte buffer.
struct Reporter: Sendable {
    let format: OutputFormat
    let language: Language
    let color: Bool
    /// The file name as shown (`-` for standard input).
    let file: String
    /// `--max-errors`, for the note on a document whose errors stopped there (0: no limit).
    var errorLimit = 0
    /// `--output`: each document's result in this 2020-12 output format instead of ``format``.
    var specOutput: SchemaOutputFormat?

    /// Appends `document`'s result in ``specOutput``, one line, from its validation `result` (made
    /// once, with the error limit).
    func appendSpecOutput(
        _ format: SchemaOutputFormat, _ schema: JSONSchema, _ document: JSONDocument, _ result: SchemaValidationResult,
        to out: inout [UInt8]
    ) {
        out.append(contentsOf: schema.output(format, for: document, language: language, result: result).jsonBytes())
        out.append(0x0A)
    }

    /// The same for a YAML document's value.
    func appendSpecOutput(
        _ format: SchemaOutputFormat, _ schema: JSONSchema, _ value: JSONValue, _ result: SchemaValidationResult,
        to out: inout [UInt8]
    ) {
        out.append(contentsOf: schema.output(format, for: value, language: language, result: result).jsonBytes())
        out.append(0x0A)
    }

    /// A document that could not be read, as an invalid root unit of ``specOutput`` (the verdict
    /// alone for `flag`).
    func appendUnreadable(_ format: SchemaOutputFormat, _ errors: [ReportedError], to out: inout [UInt8]) {
        var root = JSONObject()
        root["valid"] = false
        if format != .flag {
            root["keywordLocation"] = ""
            root["instanceLocation"] = ""
            root["error"] = .string(errors.first?.message ?? "")
        }
        out.append(contentsOf: JSONValue.object(root).jsonBytes())
        out.append(0x0A)
    }
    /// `{"file":"…","line":` and `{"file":"…","document":` with the name escaped once, and the
    /// ends of a JSON line, as bytes: a valid line's report is one copy (``appendValidLine(_:to:)``).
    private let linePrefix: [UInt8]
    private let documentPrefix: [UInt8]
    private static let validEnd: [UInt8] = #","valid":true,"errors":[]}"#.utf8 + [0x0A]
    private static let invalidStart = Array(#","valid":false,"errors":["#.utf8)

    init(format: OutputFormat, language: Language, color: Bool, file: String) {
        self.format = format
        self.language = language
        self.color = color
        self.file = file
        var prefix = Array(#"{"file":"#.utf8)
        JSONValue.appendQuoted(file, to: &prefix)
        linePrefix = prefix + #","line":"#.utf8
        documentPrefix = prefix + #","document":"#.utf8
    }

    /// Converts schema errors; `sourceLine` gives the line shown for each instance location. With
    /// `messages` (a worker's own memo, in this reporter's language), a message rendered before for
    /// an error alike is given again instead of rendered.
    func errors(
        _ errors: [SchemaError], messages: SchemaMessageMemo? = nil, sourceLine: (IssuePath) -> Int
    ) -> [ReportedError] {
        errors.map { error in
            ReportedError(
                instanceLocation: error.instanceLocation.jsonPointer, keywordLocation: error.keywordLocation,
                absoluteKeywordLocation: error.absoluteKeywordLocation, code: error.code.description,
                message: messages?.message(for: error) ?? error.message(in: language),
                sourceLine: sourceLine(error.instanceLocation),
                causes: self.errors(error.causes, messages: messages, sourceLine: sourceLine))
        }
    }

    /// The one error of a document that could not be read at all (not JSON, not YAML).
    func unreadable(_ message: String, line: Int) -> [ReportedError] {
        [
            ReportedError(
                instanceLocation: "", keywordLocation: "", absoluteKeywordLocation: "",
                code: IssueCode.malformed.description, message: message, sourceLine: line)
        ]
    }

    /// Appends what the format prints for one document; `truncated` when its errors stopped at
    /// `--max-errors` (nested causes count), which the output then says.
    func append(position: DocumentPosition, errors: [ReportedError], truncated: Bool = false, to out: inout [UInt8]) {
        switch format {
        case .json: appendJSON(position: position, errors: errors, truncated: truncated, to: &out)
        case .text:
            appendText(errors: errors, to: &out)
            if truncated, let first = errors.first {
                appendText(
                    errors: [
                        ReportedError(
                            instanceLocation: "", keywordLocation: "", absoluteKeywordLocation: "", code: "",
                            message: "errors stopped at --max-errors \(errorLimit); the document may have more",
                            sourceLine: first.sourceLine)
                    ], to: &out)
            }
        }
    }

    private func appendJSON(position: DocumentPosition, errors: [ReportedError], truncated: Bool, to out: inout [UInt8])
    {
        switch position {
        case .line(let line):
            if errors.isEmpty, line >= 0 {
                appendValidLine(line, to: &out)
                return
            }
            out.append(contentsOf: linePrefix)
            appendDecimal(line, to: &out)
        case .document(let index):
            out.append(contentsOf: documentPrefix)
            appendDecimal(index, to: &out)
        }
        guard !errors.isEmpty else {
            out.append(contentsOf: Self.validEnd)
            return
        }
        out.append(contentsOf: Self.invalidStart)
        appendUnits(errors, to: &out)
        out.append(contentsOf: (truncated ? "],\"truncated\":true}\n" : "]}\n").utf8)
    }

    /// An invalid NDJSON line's report in the JSON format, written from the schema's `errors`
    /// directly — the units ``appendJSON(position:errors:truncated:to:)`` writes for
    /// ``errors(_:messages:sourceLine:)``'s conversion of them, byte for byte, without making a
    /// ``ReportedError`` (strings, and a copy of each error, then freed) and through a
    /// ``JSONTextBuffer`` (a bounds check per piece instead of an array append): about half of
    /// the work of reporting a record whose `oneOf` lists each alternative's errors.
    func appendInvalidLine(
        _ line: Int, errors: [SchemaError], messages: SchemaMessageMemo?, truncated: Bool, to out: inout [UInt8]
    ) {
        var text = JSONTextBuffer(capacity: 512 * errors.count)
        text.appendDecimal(line)
        text.append(#","valid":false,"errors":["#)
        appendUnits(errors, messages: messages, to: &text)
        text.append(truncated ? "],\"truncated\":true}\n" : "]}\n")
        out.append(contentsOf: linePrefix)
        text.write(to: &out)
    }

    /// ``appendUnits(_:to:)`` for schema errors, each read in place.
    private func appendUnits(_ errors: [SchemaError], messages: SchemaMessageMemo?, to text: inout JSONTextBuffer) {
        for index in errors.indices {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            text.append(#"{"instanceLocation":""#)
            Self.appendPointer(errors[index].instanceLocation, to: &text)
            text.append(#"","keywordLocation":""#)
            text.appendEscaped(errors[index].keywordLocation)
            text.append(#"","absoluteKeywordLocation":""#)
            text.appendEscaped(errors[index].absoluteKeywordLocation)
            text.append(#"","code":""#)
            text.appendEscaped(errors[index].code.description)
            text.append(#"","error":""#)
            text.appendEscaped(messages?.message(for: errors[index]) ?? errors[index].message(in: language))
            if errors[index].causes.isEmpty {
                text.append(#""}"#)
            } else {
                text.append(#"","causes":["#)
                appendUnits(errors[index].causes, messages: messages, to: &text)
                text.append("]}")
            }
        }
    }

    /// `path` as a JSON Pointer (``IssuePath/jsonPointer``) escaped for a JSON string, written
    /// without making the pointer's string (unless a key has a `~` or a `/` to escape).
    static func appendPointer(_ path: IssuePath, to text: inout JSONTextBuffer) {
        for component in path.components {
            switch component {
            case .index(let index):
                text.append(UInt8(ascii: "/"))
                text.appendDecimal(index)
            case .key(var key):
                let plain = key.withUTF8 { bytes in
                    for byte in bytes where byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/") { return false }
                    text.append(UInt8(ascii: "/"))
                    text.appendEscaped(bytes)
                    return true
                }
                if !plain { text.appendEscaped(PointerText.string(tokens: [key])) }
            }
        }
    }

    /// A valid line's report, `{"file":"…","line":N,"valid":true,"errors":[]}` and a line break,
    /// written on the stack and appended as one copy: appended piece by piece (the prefix, the
    /// number, the end), it cost about 400 instructions, as much as parsing a small record's keys.
    private func appendValidLine(_ line: Int, to out: inout [UInt8]) {
        let end = Self.validEnd
        linePrefix.withUnsafeBufferPointer { prefix in
            end.withUnsafeBufferPointer { end in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: prefix.count + 20 + end.count) { buffer in
                    let base = buffer.baseAddress!
                    base.initialize(from: prefix.baseAddress!, count: prefix.count)
                    let digits = writeDecimal(line, to: base + prefix.count)
                    (base + prefix.count + digits).initialize(from: end.baseAddress!, count: end.count)
                    out.append(contentsOf: UnsafeBufferPointer(start: base, count: prefix.count + digits + end.count))
                }
            }
        }
    }

    /// The errors as JSON objects separated by commas; an error with causes gets a `causes` array
    /// of the same objects. The fixed text between the strings, quotes included, is appended as
    /// bytes made once.
    private func appendUnits(_ errors: [ReportedError], to out: inout [UInt8]) {
        for (index, error) in errors.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: Self.unitStart)
            JSONValue.appendEscaped(error.instanceLocation, to: &out)
            out.append(contentsOf: Self.beforeKeywordLocation)
            JSONValue.appendEscaped(error.keywordLocation, to: &out)
            out.append(contentsOf: Self.beforeAbsoluteKeywordLocation)
            JSONValue.appendEscaped(error.absoluteKeywordLocation, to: &out)
            out.append(contentsOf: Self.beforeCode)
            JSONValue.appendEscaped(error.code, to: &out)
            out.append(contentsOf: Self.beforeMessage)
            JSONValue.appendEscaped(error.message, to: &out)
            if error.causes.isEmpty {
                out.append(contentsOf: Self.unitEnd)
            } else {
                out.append(contentsOf: Self.beforeCauses)
                appendUnits(error.causes, to: &out)
                out.append(contentsOf: Self.causesEnd)
            }
        }
    }

    private static let unitStart = Array(#"{"instanceLocation":""#.utf8)
    private static let beforeKeywordLocation = Array(#"","keywordLocation":""#.utf8)
    private static let beforeAbsoluteKeywordLocation = Array(#"","absoluteKeywordLocation":""#.utf8)
    private static let beforeCode = Array(#"","code":""#.utf8)
    private static let beforeMessage = Array(#"","error":""#.utf8)
    private static let unitEnd = Array(#""}"#.utf8)
    private static let beforeCauses = Array(#"","causes":["#.utf8)
    private static let causesEnd = Array("]}".utf8)

    private func appendText(errors: [ReportedError], to out: inout [UInt8]) {
        for error in errors {
            if color { out.append(contentsOf: ANSI.bold.utf8) }
            out.append(contentsOf: TerminalText.printable(file).utf8)
            out.append(UInt8(ascii: ":"))
            appendDecimal(error.sourceLine, to: &out)
            out.append(UInt8(ascii: ":"))
            if color { out.append(contentsOf: ANSI.reset.utf8) }
            out.append(UInt8(ascii: " "))
            if !error.instanceLocation.isEmpty {
                if color { out.append(contentsOf: ANSI.cyan.utf8) }
                out.append(contentsOf: TerminalText.printable(error.instanceLocation).utf8)
                if color { out.append(contentsOf: ANSI.reset.utf8) }
                out.append(contentsOf: ": ".utf8)
            }
            if color { out.append(contentsOf: ANSI.red.utf8) }
            out.append(contentsOf: TerminalText.printable(error.message).utf8)
            if color { out.append(contentsOf: ANSI.reset.utf8) }
            out.append(0x0A)
        }
    }
}

/// ANSI terminal escapes.
enum ANSI {
    static let bold = "\u{1B}[1m"
    static let red = "\u{1B}[31m"
    static let green = "\u{1B}[32m"
    static let cyan = "\u{1B}[36m"
    static let reset = "\u{1B}[0m"
    static let clearLine = "\r\u{1B}[2K"
}

/// Text made safe for a terminal: control characters (an escape sequence hidden in a value or a
/// key) are shown as `\u{…}` instead of being obeyed.
enum TerminalText {
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
