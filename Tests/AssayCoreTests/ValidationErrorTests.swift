import Foundation
import Testing

@testable import AssayCore

@Suite struct ValidationErrorTests {
    func issue(_ code: IssueCode, _ path: IssuePath, severity: Severity = .error) -> ValidationIssue {
        ValidationIssue(code: code, path: path, severity: severity)
    }

    @Test func keepsOrderAndFlattens() {
        var inner = ValidationError([issue(.tooLong, ["b"]), issue(.missing, ["c"])])
        inner.append(issue(.tooSmall, ["d"]))
        var outer = ValidationError([issue(.blank, ["a"])])
        outer.append(error: inner)
        #expect(outer.issues.map(\.path.jsonPointer) == ["/a", "/b", "/c", "/d"])
        outer.append(contentsOf: ValidationError([issue(.notUnique, ["e"])]))
        #expect(outer.issues.count == 5)
    }

    @Test func prefixesPathsOfAppendedAggregates() {
        var outer = ValidationError()
        outer.append(error: ValidationError([issue(.tooLong, ["name"])]), at: [2])
        #expect(outer.issues[0].path.jsonPointer == "/2/name")
    }

    @Test func wrapsForeignErrors() {
        struct Boom: Error, CustomStringConvertible { var description: String { "boom" } }
        var error = ValidationError()
        error.append(error: Boom(), at: ["x"])
        #expect(error.issues[0].code == .custom("error"))
        #expect(error.issues[0].message(in: .english) == "boom")
    }

    @Test func capsAndMarksTruncation() {
        let many = (0..<100).map { issue(.tooLong, [.init(integerLiteral: $0)]) }
        let capped = ValidationError(many, limit: 10)
        #expect(capped.issues.count == 10)
        #expect(capped.isTruncated)
        #expect(capped.droppedErrorCount == 90)
        #expect(
            capped.text(in: .english).hasSuffix(
                "… 90 more errors were not kept (kept at most 10 errors and 10 warnings)"))
        #expect(capped.json(in: .english).hasSuffix(",\"truncated\":true,\"droppedErrors\":90,\"droppedWarnings\":0}"))
        let uncapped = ValidationError(many)
        #expect(uncapped.issues.count == 100)
        #expect(!uncapped.isTruncated)
    }

    /// Issue 23: 1,001 warnings then an error gave an aggregate of 1,000 warnings, valid to every reader.
    @Test func warningsNeverCrowdOutAnError() {
        let warning = issue(.unknownKey, [], severity: .warning)
        let issues = Array(repeating: warning, count: 1_001) + [issue(.tooLong, ["name"])]
        let capped = ValidationError(issues, limit: 1_000)
        #expect(capped.hasErrors)
        #expect(capped.errors.count == 1)
        #expect(capped.warnings.count == 1_000)
        #expect(capped.droppedWarningCount == 1 && capped.droppedErrorCount == 0)
        #expect(capped.json(in: .english).hasPrefix(#"{"valid":false"#))
        #expect(capped.text(in: .english).contains("/name: "))
        #expect(
            capped.text(in: .english).hasSuffix(
                "… 1 more warning was not kept (kept at most 1000 errors and 1000 warnings)"))
        // An error dropped past the limit still makes the aggregate invalid.
        let onlyDropped = ValidationError([issue(.tooLong, ["a"]), issue(.tooLong, ["b"])], limit: 0)
        #expect(onlyDropped.issues.isEmpty && onlyDropped.hasErrors && onlyDropped.droppedErrorCount == 2)
        // Appending a truncated aggregate keeps its counts.
        var outer = ValidationError(limit: 5)
        outer.append(contentsOf: capped)
        #expect(outer.droppedWarningCount == 1 + 995 && outer.errors.count == 1)
    }

    @Test func warningsAloneDoNotThrow() throws {
        let onlyWarnings = ValidationError([issue(.coerced, ["age"], severity: .warning)])
        #expect(!onlyWarnings.hasErrors)
        try onlyWarnings.throwIfErrors()
        let mixed = ValidationError([issue(.coerced, ["age"], severity: .warning), issue(.missing, ["name"])])
        #expect(throws: ValidationError.self) { try mixed.throwIfErrors() }
        #expect(mixed.errors.count == 1)
        #expect(mixed.warnings.count == 1)
    }

    @Test func rendersTextWithPointers() {
        let error = ValidationError([
            ValidationIssue(code: .tooLarge, path: ["age"], parameters: ["maximum": 150], messageKey: "tooLarge"),
            ValidationIssue(
                code: .coerced, path: ["id"], parameters: ["from": "string", "to": "integer"], severity: .warning),
            ValidationIssue(code: .missing),
        ])
        #expect(
            error.text(in: .english) == """
                /age: Age must be at most 150
                /id: warning: Id was converted from string to integer
                Value is required
                """)
    }

    @Test func rendersBasicOutputJSON() {
        let error = ValidationError([
            ValidationIssue(
                code: .tooLarge, path: ["age"], ruleLocation: "/properties/age/maximum",
                absoluteRuleLocation: "https://example.com/client#/properties/age/maximum",
                parameters: ["maximum": 150], value: .integer(200), messageKey: "tooLarge"),
            ValidationIssue(
                code: .patternMismatch, path: ["name"], parameters: ["pattern": "^a\"b$"], value: .redacted),
        ])
        #expect(
            error.json(in: .english)
                == #"{"valid":false,"errors":[{"instanceLocation":"/age","keywordLocation":"/properties/age/maximum","absoluteKeywordLocation":"https://example.com/client#/properties/age/maximum","code":"tooLarge","error":"Age must be at most 150","value":200},{"instanceLocation":"/name","keywordLocation":"","code":"patternMismatch","error":"Name must match the pattern “^a\"b$”"}]}"#
        )
    }

    @Test func jsonEscapesControlCharacters() {
        let error = ValidationError([ValidationIssue(code: .custom("x"), path: ["a\nb"], message: "tab\there \u{1}")])
        #expect(error.json(in: .english).contains(#""instanceLocation":"/a\nb""#))
        #expect(error.json(in: .english).contains(#""error":"tab\there \u0001""#))
    }

    @Test func groupsByPathForForms() {
        let error = ValidationError([
            issue(.tooShort, ["name"]), issue(.tooLarge, ["age"]), issue(.invalidCharacters, ["name"]),
        ])
        let groups = error.groupedByPath
        #expect(groups.map(\.path.jsonPointer) == ["/name", "/age"])
        #expect(groups[0].issues.map(\.code) == [.tooShort, .invalidCharacters])
    }

    @Test func redactsValues() {
        let error = ValidationError([ValidationIssue(code: .tooShort, path: ["password"], value: "hunter2")]).redacted()
        #expect(error.issues[0].value == .redacted)
        #expect(!error.json(in: .english).contains("hunter2"))
    }

    @Test func mapsCoreDataCodes() {
        let date = Date(timeIntervalSince1970: 0)
        #expect(ValidationIssue(code: .tooLarge, value: 5).coreDataCode == 1610)
        #expect(ValidationIssue(code: .tooSmall, value: 5).coreDataCode == 1620)
        #expect(ValidationIssue(code: .tooLarge, value: .date(date)).coreDataCode == 1630)
        #expect(ValidationIssue(code: .tooSmall, value: .date(date)).coreDataCode == 1640)
        #expect(ValidationIssue(code: .invalidFormat("date")).coreDataCode == 1650)
        #expect(ValidationIssue(code: .tooLong).coreDataCode == 1660)
        #expect(ValidationIssue(code: .tooShort).coreDataCode == 1670)
        #expect(ValidationIssue(code: .patternMismatch).coreDataCode == 1680)
        #expect(ValidationIssue(code: .invalidFormat("url")).coreDataCode == 1690)
        #expect(ValidationIssue(code: .missing).coreDataCode == 1570)
        #expect(ValidationIssue(code: .notUnique).coreDataCode == 1551)
        #expect(ValidationIssue(code: .tooFew).coreDataCode == 1580)
        #expect(ValidationIssue(code: .tooMany).coreDataCode == 1590)
        #expect(ValidationIssue(code: .deleteDenied).coreDataCode == 1600)
        #expect(ValidationIssue(code: .custom("x")).coreDataCode == 1550)
    }

    @Test func bridgesToNSErrorAsCoreDataDoes() {
        let single = ValidationError([ValidationIssue(code: .tooLong, path: ["name"], value: "x")])
        #expect(single.nsError.domain == NSCocoaErrorDomain)
        #expect(single.nsError.code == 1660)
        #expect(single.nsError.userInfo["NSValidationErrorKey"] as? String == "name")

        let several = ValidationError([
            ValidationIssue(code: .tooLong, path: ["name"]), ValidationIssue(code: .tooSmall, path: ["age"], value: 3),
        ])
        let bridged = several.nsError
        #expect(bridged.code == 1560)
        let details = bridged.userInfo["NSDetailedErrors"] as? [NSError]
        #expect(details?.map(\.code) == [1660, 1620])
        #expect(details?[1].userInfo["NSValidationErrorValue"] as? String == "3")
    }

    @Test func codesDescribeThemselves() {
        #expect(IssueCode.invalidFormat("email").description == "invalidFormat(email)")
        #expect(IssueCode.custom("underage").isCustom)
        #expect(IssueCode.tooLong.description == "tooLong")
        #expect(IssueCode.invalidFormat("email") != .invalidFormat("uri"))
        switch IssueCode.tooLong {
        case .tooShort: Issue.record("matched the wrong code")
        case .tooLong: break
        default: Issue.record("did not match")
        }
    }
}
