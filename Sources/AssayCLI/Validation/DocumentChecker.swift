import AssayCore
import AssayJSON
import AssaySchema

/// Validates one document and renders its report: the work each worker thread does.
struct DocumentChecker: Sendable {
    var schema: JSONSchema
    let limit: ErrorLimit
    var reporter: Reporter
    /// The parser's limits: `--max-document-bytes` and `--max-depth`.
    var parserOptions = JSONParserOptions(maximumDepth: 1_000)
    /// Whether an invalid document is also handed on as a ``FailedDocument`` (for the run's
    /// summary), and whether with its value when it has none but its tape (a JSON file's tree is
    /// built only when examples are kept).
    var collectsFailures = false
    var collectsValues = false

    /// `errors` as a ``FailedDocument`` at `position`, when failures are collected.
    private func failedDocument(
        _ errors: [SchemaError], at position: DocumentPosition, truncated: Bool, value: JSONValue? = nil
    ) -> FailedDocument? {
        guard collectsFailures, !errors.isEmpty else { return nil }
        return FailedDocument(
            position: position,
            failures: FailedDocument.failures(errors), truncated: truncated, value: value)
    }

    /// A document that could not be read, as a ``FailedDocument``.
    private func unread(_ message: String, at position: DocumentPosition) -> FailedDocument? {
        guard collectsFailures else { return nil }
        return FailedDocument(
            position: position,
            failures: [
                FailedDocument.Failure(
                    location: .root, keyword: FailedDocument.unreadableKeyword, code: IssueCode.malformed.description,
                    text: message)
            ])
    }

    /// Whether a parse error is a limit crossed (the document is not validated) rather than bad JSON.
    static func isLimit(_ error: JSONParseError) -> Bool {
        error.reason == .depthLimitExceeded || error.reason == .sizeLimitExceeded
    }

    /// Whether evaluation stopped at a limit (nesting or a chain of references) rather than finishing.
    static func stoppedAtLimit(_ errors: [SchemaError]) -> Bool {
        // In place: `contains(where:)` copied each error.
        errors.withUnsafeBufferPointer { errors in errors.indices.contains { errors[$0].code == .malformed } }
    }

    /// Checks one NDJSON line (without its line terminator) and appends its report to `out`.
    /// Returns the number of errors (0: valid); counts the line in `overLimit` when it crossed a
    /// limit and so was not validated.
    /// `failed` receives the document when it is invalid and failures are collected. `messages`,
    /// the calling worker's own, gives again the messages of errors alike (made in the reporter's
    /// language).
    func checkLine(
        _ bytes: ArraySlice<UInt8>, line: Int, into out: inout [UInt8], overLimit: inout Int,
        failed: inout FailedDocument?, messages: SchemaMessageMemo? = nil, recycling spare: inout JSONDocument?
    ) -> Int {
        if bytes.count > parserOptions.maximumBytes {
            // Reported as a line the reader did not hold (``checkLongLine``), whichever way it came.
            return checkLongLine(line: line, length: bytes.count, into: &out, overLimit: &overLimit, failed: &failed)
        }
        var errors: [ReportedError] = []
        var truncated = false
        do {
            // The tape of the line before is written again when nothing kept it: handed back once
            // the result, whose errors hold the document, is gone.
            let document = try JSONDocument(parsing: bytes, options: parserOptions, recycling: &spare)
            defer { spare = document }
            if let written = checkParsedLine(
                document, line: line, into: &out, overLimit: &overLimit, failed: &failed, messages: messages,
                errors: &errors, truncated: &truncated)
            {
                return written
            }
        } catch {
            if Self.isLimit(error) { overLimit += 1 }
            let message = Self.parseMessage(error, singleLine: true)
            errors = reporter.unreadable(message, line: line)
            failed = unread(message, at: .line(line))
        }
        if let format = reporter.specOutput, !errors.isEmpty {
            reporter.appendUnreadable(format, errors, to: &out)
            return errors.count
        }
        reporter.append(position: .line(line), errors: errors, truncated: truncated, to: &out)
        return errors.count
    }

    /// Validates a parsed line: its errors as reported (`errors`, `truncated`), or the count of
    /// errors when the spec output was written instead.
    private func checkParsedLine(
        _ document: JSONDocument, line: Int, into out: inout [UInt8], overLimit: inout Int,
        failed: inout FailedDocument?, messages: SchemaMessageMemo?, errors: inout [ReportedError],
        truncated: inout Bool
    ) -> Int? {
        let result = schema.validate(document, limit: limit)
        if !result.isValid, Self.stoppedAtLimit(result.errors) { overLimit += 1 }
        if !result.isValid {
            failed = failedDocument(result.errors, at: .line(line), truncated: result.isTruncated)
        }
        if let format = reporter.specOutput {
            // The output unit is made from this result: no second validation, no report rendered.
            reporter.appendSpecOutput(format, schema, document, result, to: &out)
            return result.errors.count
        }
        if !result.isValid {
            if reporter.format == .json {
                reporter.appendInvalidLine(
                    line, errors: result.errors, messages: messages, truncated: result.isTruncated, to: &out)
                return result.errors.count
            }
            errors = reporter.errors(result.errors, messages: messages, sourceLine: { _ in line })
            truncated = result.isTruncated
        }
        return nil
    }

    /// Reports a line longer than `--max-document-bytes`, which is not parsed (nor held whole).
    func checkLongLine(
        line: Int, length: Int, into out: inout [UInt8], overLimit: inout Int, failed: inout FailedDocument?
    ) -> Int {
        overLimit += 1
        let message =
            "not valid JSON: the line is \(length) bytes long, over the limit of \(parserOptions.maximumBytes) "
            + "(--max-document-bytes)"
        failed = unread(message, at: .line(line))
        let errors = reporter.unreadable(message, line: line)
        if let format = reporter.specOutput {
            reporter.appendUnreadable(format, errors, to: &out)
        } else {
            reporter.append(position: .line(line), errors: errors, to: &out)
        }
        return errors.count
    }

    /// Checks a whole JSON file as one document.
    func checkJSONFile(_ bytes: [UInt8], into out: inout [UInt8], overLimit: inout Int, failed: inout FailedDocument?)
        -> (errors: Int, document: JSONDocument?)
    {
        let errors: [ReportedError]
        var parsed: JSONDocument?
        var validated: SchemaValidationResult?
        var truncated = false
        do {
            let document = try JSONDocument(parsing: bytes, options: parserOptions)
            parsed = document
            let result = schema.validate(document, limit: limit)
            validated = result
            if Self.stoppedAtLimit(result.errors) { overLimit += 1 }
            truncated = result.isTruncated
            errors =
                result.isValid
                ? []
                : reporter.errors(result.errors) { path in
                    document.location(of: path.components.map(Self.jsonComponent))?.line ?? 1
                }
            if !result.isValid {
                failed = failedDocument(
                    result.errors, at: .document(1), truncated: truncated,
                    value: collectsValues ? document.value : nil)
            }
        } catch {
            if Self.isLimit(error) { overLimit += 1 }
            let message = Self.parseMessage(error, singleLine: false)
            errors = reporter.unreadable(message, line: error.line)
            failed = unread(message, at: .document(1))
            if error.reason != .sizeLimitExceeded { failed?.record = bytes.indices }
        }
        if let format = reporter.specOutput {
            if let parsed, let validated {
                reporter.appendSpecOutput(format, schema, parsed, validated, to: &out)
            } else {
                reporter.appendUnreadable(format, errors, to: &out)
            }
            return (errors.count, parsed)
        }
        reporter.append(position: .document(1), errors: errors, truncated: truncated, to: &out)
        return (errors.count, parsed)
    }

    /// Checks one YAML document.
    func checkYAMLDocument(
        _ document: YAMLDocument, index: Int, into out: inout [UInt8], overLimit: inout Int,
        failed: inout FailedDocument?
    ) -> Int {
        let errors: [ReportedError]
        var validated: SchemaValidationResult?
        var truncated = false
        switch document.value {
        case .success(let value):
            let result = schema.validate(value, limit: limit)
            validated = result
            if Self.stoppedAtLimit(result.errors) { overLimit += 1 }
            truncated = result.isTruncated
            errors =
                result.isValid
                ? []
                : reporter.errors(result.errors) { path in
                    document.line(of: path.components.map(Self.jsonComponent)) ?? 1
                }
            if !result.isValid {
                failed = failedDocument(result.errors, at: .document(index), truncated: truncated, value: value)
            }
        case .failure(let problem):
            if problem.isLimit { overLimit += 1 }
            errors = reporter.unreadable(problem.message, line: problem.line ?? document.firstLine ?? 1)
            failed = unread(problem.message, at: .document(index))
        }
        if let format = reporter.specOutput {
            if case .success(let value) = document.value, let validated {
                reporter.appendSpecOutput(format, schema, value, validated, to: &out)
            } else {
                reporter.appendUnreadable(format, errors, to: &out)
            }
            return errors.count
        }
        reporter.append(position: .document(index), errors: errors, truncated: truncated, to: &out)
        return errors.count
    }

    static func jsonComponent(_ component: PathComponent) -> JSONPathComponent {
        switch component {
        case .key(let key): return .key(key)
        case .index(let index): return .index(index)
        }
    }

    /// "not valid JSON: column 7: …" (one line of NDJSON) or "not valid JSON: line 3, column 7: …".
    static func parseMessage(_ error: JSONParseError, singleLine: Bool) -> String {
        if error.reason == .empty {
            return singleLine ? "not valid JSON: the line is blank" : "not valid JSON: the file is empty"
        }
        let place = singleLine ? "column \(error.column)" : "line \(error.line), column \(error.column)"
        return "not valid JSON: \(place): \(error.detail)"
    }
}
