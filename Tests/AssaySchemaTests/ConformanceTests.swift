import AssayJSON
import AssaySchema
import Foundation
import Testing

/// The official JSON Schema Test Suite: drafts 4, 6, 7, 2019-09 and 2020-12, required and optional.
///
/// The suite is read from `$JSON_SCHEMA_TEST_SUITE`, else `../shared/JSON-Schema-Test-Suite` next
/// to the package. Remote references (`http://localhost:1234/…`) resolve from its `remotes/` folder
/// through the registry. Tests we do not pass are listed in `known-failures.txt` with the reason;
/// they count as failures in the printed totals, and a listed test that passes fails the run (so
/// the list cannot go stale).
enum Suite {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let directory: URL? = {
        let path =
            ProcessInfo.processInfo.environment["JSON_SCHEMA_TEST_SUITE"]
            ?? packageRoot.appendingPathComponent("../shared/JSON-Schema-Test-Suite").standardized.path
        guard FileManager.default.fileExists(atPath: path + "/tests") else {
            print(
                "⚠️  JSON-Schema-Test-Suite NOT FOUND at \(path): the conformance tests are SKIPPED. "
                    + "Set JSON_SCHEMA_TEST_SUITE to its folder.")
            return nil
        }
        return URL(fileURLWithPath: path)
    }()

    static var isPresent: Bool { directory != nil }

    static let drafts: [(folder: String, dialect: SchemaDialect)] = [
        ("draft4", .draft4), ("draft6", .draft6), ("draft7", .draft7), ("draft2019-09", .draft2019_09),
        ("draft2020-12", .draft2020_12),
    ]

    /// `file :: case :: test` → reason. A `*` test covers the whole case.
    static let knownFailures: [String: String] = {
        let url = packageRoot.appendingPathComponent("Tests/AssaySchemaTests/known-failures.txt")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [:] }
        var result: [String: String] = [:]
        for line in text.split(separator: "\n")
        where !line.hasPrefix("#") && !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let parts = line.components(separatedBy: " :: ")
            guard parts.count == 4 else { continue }
            result[parts[0...2].joined(separator: " :: ")] = parts[3]
        }
        return result
    }()

    static var registry: SchemaRegistry {
        var registry = SchemaRegistry()
        if let directory { registry.map(prefix: "http://localhost:1234/", toDirectory: directory.path + "/remotes") }
        return registry
    }

    struct Outcome {
        var passed = 0
        var failed: [String] = []
        var known: [String] = []
        var stale: [String] = []
        var total: Int { passed + failed.count + known.count }
    }

    /// Runs every test of the files in `relativeFolder` (under `tests/`).
    static func run(_ relativeFolder: String, dialect: SchemaDialect, assertFormats: Bool) throws -> Outcome {
        guard let directory else { return Outcome() }
        let folder = directory.appendingPathComponent("tests/" + relativeFolder)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
            .sorted()
        var outcome = Outcome()
        let options = JSONSchema.Options(defaultDialect: dialect, assertFormats: assertFormats, registry: registry)
        for file in files {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            let cases = try JSONValue(parsing: [UInt8](data))
            for testCase in cases.array ?? [] {
                let description = testCase["description"]?.string ?? "?"
                let schema = testCase["schema"] ?? .null
                let compiled: Result<JSONSchema, SchemaCompilationError>
                do throws(SchemaCompilationError) {
                    compiled = .success(try JSONSchema(schema, options: options))
                } catch {
                    compiled = .failure(error)
                }
                for test in testCase["tests"]?.array ?? [] {
                    let name = "\(relativeFolder)/\(file) :: \(description) :: \(test["description"]?.string ?? "?")"
                    let wholeCase = "\(relativeFolder)/\(file) :: \(description) :: *"
                    let expected = test["valid"]?.bool ?? false
                    var passed = false
                    var detail = ""
                    switch compiled {
                    case .success(let validator):
                        let instance = test["data"] ?? .null
                        let quick = validator.isValid(instance)
                        let full = validator.validate(instance)
                        // The same instance as a parsed document, read in place where the schema allows.
                        let document = try? JSONDocument(parsing: instance.jsonBytes())
                        let inPlace = document.map { validator.isValid($0) }
                        let inPlaceFull = document.map { validator.validate($0) }
                        // The verbose output evaluates every keyword and keeps every subschema's units.
                        let verbose = validator.verboseOutput(for: instance, language: .english)
                        let verboseProblem = verboseInconsistency(verbose)
                        passed =
                            quick == expected && full.isValid == expected && full.errors.isEmpty == expected
                            && inPlace == expected && inPlaceFull?.isValid == expected
                            && inPlaceFull?.errors.isEmpty == expected && verbose["valid"]?.bool == expected
                            && (inPlaceFull == nil || inPlaceFull?.errors == full.errors)
                            && verboseProblem == nil
                        detail =
                            "expected \(expected), isValid \(quick), validate \(full.isValid) with \(full.errors.count) errors, "
                            + "in place \(inPlace.map(String.init) ?? "unparsable") with "
                            + "\(inPlaceFull.map { $0.errors == full.errors ? "the same errors" : "other errors" } ?? "-"), "
                            + "verbose \(verbose["valid"] ?? .null) "
                            + (verboseProblem ?? "")
                    case .failure(let error):
                        detail = "does not compile: \(error)"
                    }
                    let listed = knownFailures[name] ?? knownFailures[wholeCase]
                    switch (passed, listed) {
                    case (true, nil): outcome.passed += 1
                    case (true, .some): outcome.stale.append(name)
                    case (false, .some): outcome.known.append(name)
                    case (false, nil): outcome.failed.append(name + " — " + detail)
                    }
                }
            }
        }
        return outcome
    }
}

/// What is wrong with a verbose output unit, or `nil`: every unit has its three locations; a failed
/// unit says why (its own `error`, or a failed unit under `errors`); a passed one has no error and
/// no `errors`; nested units are the same.
func verboseInconsistency(_ unit: JSONValue) -> String? {
    guard let valid = unit["valid"]?.bool, unit["keywordLocation"]?.string != nil,
        unit["absoluteKeywordLocation"]?.string != nil, unit["instanceLocation"]?.string != nil
    else { return "a unit without its valid flag or locations: \(unit.jsonString())" }
    if valid {
        if unit["error"] != nil || unit["errors"] != nil { return "a passed unit with errors: \(unit.jsonString())" }
    } else {
        let failedChild = unit["errors"]?.array?.contains { $0["valid"]?.bool == false } ?? false
        if unit["error"]?.string == nil && !failedChild {
            return "a failed unit that does not say why: \(unit.jsonString())"
        }
    }
    for child in (unit["errors"] ?? unit["annotations"])?.array ?? [] {
        if let problem = verboseInconsistency(child) { return problem }
    }
    return nil
}

@Suite("JSON Schema Test Suite", .enabled(if: Suite.isPresent, "the JSON-Schema-Test-Suite folder is absent"))
struct ConformanceTests {
    @Test("required tests pass 100%", arguments: Suite.drafts.map(\.folder))
    func required(folder: String) throws {
        let dialect = Suite.drafts.first { $0.folder == folder }!.dialect
        let outcome = try Suite.run(folder, dialect: dialect, assertFormats: false)
        print(
            "conformance \(folder) required: \(outcome.passed)/\(outcome.total) passed, "
                + "\(outcome.failed.count + outcome.known.count) failed (\(outcome.known.count) of them listed in known-failures.txt)"
        )
        #expect(outcome.total > 0)
        #expect(outcome.failed.isEmpty, "unexpected failures:\n\(outcome.failed.joined(separator: "\n"))")
        #expect(
            outcome.stale.isEmpty, "listed as known failures but passing now:\n\(outcome.stale.joined(separator: "\n"))"
        )
    }

    @Test("optional tests pass at least 98%", arguments: Suite.drafts.map(\.folder))
    func optional(folder: String) throws {
        let dialect = Suite.drafts.first { $0.folder == folder }!.dialect
        var outcome = try Suite.run(folder + "/optional", dialect: dialect, assertFormats: false)
        let formats = try Suite.run(folder + "/optional/format", dialect: dialect, assertFormats: true)
        outcome.passed += formats.passed
        outcome.failed += formats.failed
        outcome.known += formats.known
        outcome.stale += formats.stale
        let rate = Double(outcome.passed) / Double(max(outcome.total, 1))
        print(
            "conformance \(folder) optional (formats asserted): \(outcome.passed)/\(outcome.total) passed "
                + "(\(String(format: "%.1f", rate * 100))%), \(outcome.failed.count + outcome.known.count) failed "
                + "(\(outcome.known.count) of them listed in known-failures.txt)")
        #expect(outcome.total > 0)
        #expect(outcome.failed.isEmpty, "unexpected failures:\n\(outcome.failed.joined(separator: "\n"))")
        #expect(
            outcome.stale.isEmpty, "listed as known failures but passing now:\n\(outcome.stale.joined(separator: "\n"))"
        )
        #expect(rate >= 0.98)
    }
}

/// The suite's `output-tests`: for each draft that has them (2019-09 and 2020-12; `v1` is a later
/// specification Assay does not implement), each case's instance is evaluated into every output
/// format a test gives a schema for, and that output must be valid against it (the schemas `$ref`
/// the draft's output schema, registered from the folder).
@Suite(
    "JSON Schema Test Suite: output formats",
    .enabled(if: Suite.isPresent, "the JSON-Schema-Test-Suite folder is absent"))
struct OutputConformanceTests {
    @Test("every output test passes", arguments: ["draft2019-09", "draft2020-12"])
    func outputs(folder: String) throws {
        let directory = try #require(Suite.directory).appendingPathComponent("output-tests/" + folder)
        let outputSchema = try JSONValue(
            parsing: [UInt8](Data(contentsOf: directory.appendingPathComponent("output-schema.json"))))
        var registry = Suite.registry
        registry.register(outputSchema, as: try #require(outputSchema["$id"]?.string))
        let options = JSONSchema.Options(registry: registry)
        var passed = 0
        var failed: [String] = []
        let content = directory.appendingPathComponent("content")
        for file in try FileManager.default.contentsOfDirectory(atPath: content.path).sorted()
        where file.hasSuffix(".json") {
            let cases = try JSONValue(parsing: [UInt8](Data(contentsOf: content.appendingPathComponent(file))))
            for testCase in cases.array ?? [] {
                let schema = try JSONSchema(testCase["schema"] ?? .null, options: options)
                for test in testCase["tests"]?.array ?? [] {
                    for (name, expectation) in test["output"]?.object ?? [:] {
                        let label =
                            "\(folder)/\(file) :: \(testCase["description"]?.string ?? "?") :: "
                            + "\(test["description"]?.string ?? "?") :: \(name)"
                        guard let format = SchemaOutputFormat(rawValue: name) else {
                            failed.append(label + " — no such format")
                            continue
                        }
                        let output = schema.output(format, for: test["data"] ?? .null, language: .english)
                        let check = try JSONSchema(expectation, options: options).validate(output)
                        if check.isValid {
                            passed += 1
                        } else {
                            failed.append(label + " — \(output.jsonString()): \(check.errors.map(\.description))")
                        }
                    }
                }
            }
        }
        print("output conformance \(folder): \(passed)/\(passed + failed.count) passed")
        #expect(passed > 0)
        #expect(failed.isEmpty, "\(failed.joined(separator: "\n"))")
    }
}
