import AssayJSON
import AssaySchema
import Foundation
import Testing

@testable import AssayCLI

/// The three forms an instance reaches the evaluator in — a parsed JSON document, a `JSONValue`, a
/// YAML document read by `assay` — get the same verdicts, the same errors and the same annotations, on
/// every test of the official suite (all five drafts, required and optional). Each instance is written
/// as YAML (flow style, numbers tagged so that YAML reads them exactly as JSON does) and read back
/// through `assay`'s YAML input.
@Suite(
    "Documents, values and YAML agree on the whole suite",
    .enabled(if: SuiteFolder.url != nil, "the JSON-Schema-Test-Suite folder is absent"))
struct YAMLSuiteAgreementTests {
    @Test(
        "same verdicts, errors and annotations",
        arguments: ["draft4", "draft6", "draft7", "draft2019-09", "draft2020-12"])
    func agree(draft: String) throws {
        let suite = try #require(SuiteFolder.url)
        let dialect: SchemaDialect =
            switch draft {
            case "draft4": .draft4
            case "draft6": .draft6
            case "draft7": .draft7
            case "draft2019-09": .draft2019_09
            default: .draft2020_12
            }
        var registry = SchemaRegistry()
        registry.map(prefix: "http://localhost:1234/", toDirectory: suite.path + "/remotes")
        let options = JSONSchema.Options(defaultDialect: dialect, registry: registry)
        var compared = 0
        var differences: [String] = []
        let root = suite.appendingPathComponent("tests/" + draft)
        let files =
            FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".json") }.sorted() ?? []
        for file in files {
            let cases = try JSONValue(parsing: [UInt8](Data(contentsOf: root.appendingPathComponent(file))))
            for testCase in cases.array ?? [] {
                guard let schema = try? JSONSchema(testCase["schema"] ?? .null, options: options) else { continue }
                for test in testCase["tests"]?.array ?? [] {
                    let instance = test["data"] ?? .null
                    let label =
                        "\(draft)/\(file) :: \(testCase["description"]?.string ?? "?") :: "
                        + (test["description"]?.string ?? "?")
                    let yaml = YAMLInput.documents(Array(Self.yaml(instance).utf8))
                    guard yaml.count == 1, case .success(let read) = yaml[0].value else {
                        differences.append(label + " — YAML not read: \(Self.yaml(instance))")
                        continue
                    }
                    let document = try JSONDocument(
                        parsing: instance.jsonBytes(), options: JSONParserOptions(maximumDepth: 1_000))
                    let fromDocument = schema.validate(document)
                    let fromValue = schema.validate(instance)
                    let fromYAML = schema.validate(read)
                    let annotations = schema.output(.basic, for: document, language: .english)
                    compared += 1
                    if read != instance {
                        differences.append(label + " — YAML read \(read.jsonString()) for \(instance.jsonString())")
                    } else if fromDocument != fromValue || fromDocument != fromYAML {
                        differences.append(label + " — results differ")
                    } else if annotations != schema.output(.basic, for: read, language: .english)
                        || annotations != schema.output(.basic, for: instance, language: .english)
                    {
                        differences.append(label + " — outputs differ")
                    }
                }
            }
        }
        print("\(draft): \(compared) instances compared as a document, a value and YAML")
        #expect(compared > 500)
        #expect(differences.isEmpty, "\(differences.prefix(20).joined(separator: "\n"))")
    }

    /// `value` as flow-style YAML: strings double-quoted with JSON's escapes (which YAML's double
    /// quotes accept), numbers tagged `!!int` or `!!float` so that their text is read exactly.
    static func yaml(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number):
            let text = number.description
            let integral = !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
            return (integral ? "!!int " : "!!float ") + text
        case .string(let text): return quoted(text)
        case .array(let elements): return "[" + elements.map(yaml).joined(separator: ", ") + "]"
        case .object(let object):
            return "{" + object.map { quoted($0.key) + ": " + yaml($0.value) }.joined(separator: ", ") + "}"
        }
    }

    /// `text` double-quoted, with every character YAML does not print as itself escaped: controls,
    /// DEL, C1 controls (U+0085 is a line break to YAML), the byte order mark and U+FFFE/U+FFFF.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: result += "\\\""
            case 0x5C: result += "\\\\"
            case 0x00..<0x20, 0x7F...0x9F, 0xFEFF, 0xFFFE, 0xFFFF:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

/// The official suite's folder: `$JSON_SCHEMA_TEST_SUITE`, else `../shared/JSON-Schema-Test-Suite`.
enum SuiteFolder {
    static let url: URL? = {
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let path =
            ProcessInfo.processInfo.environment["JSON_SCHEMA_TEST_SUITE"]
            ?? package.appendingPathComponent("../shared/JSON-Schema-Test-Suite").standardized.path
        return FileManager.default.fileExists(atPath: path + "/tests") ? URL(fileURLWithPath: path) : nil
    }()
}

@Suite("YAML input keeps what JSON would")
struct YAMLFidelityTests {
    /// Yams drops a U+FEFF that starts a scalar (Foundation's UTF-8 decoding skips a leading byte
    /// order mark); `assay` puts it back from the source.
    @Test func leadingByteOrderMarksInScalarsAreKept() throws {
        func read(_ text: String) throws -> JSONValue {
            let documents = YAMLInput.documents(Array(text.utf8))
            guard documents.count == 1, case .success(let value) = documents[0].value else {
                throw CLIError.usage("not read: \(text)")
            }
            return value
        }
        #expect(try read(#""\uFEFF""#) == "\u{FEFF}")
        #expect(try read(#""\ufeff\U0000FEFFx""#) == "\u{FEFF}\u{FEFF}x")
        #expect(try read("\"\u{FEFF}a\"") == "\u{FEFF}a")
        #expect(try read("'\u{FEFF}'") == "\u{FEFF}")
        #expect(try read("a: \"\\uFEFF\"\n\"\\uFEFFk\": 1") == ["a": "\u{FEFF}", "\u{FEFF}k": 1])
        #expect(try read("[x, \"\\uFEFF\", \"y\\uFEFF\"]") == ["x", "\u{FEFF}", "y\u{FEFF}"])
        // A BOM that starts the stream is not part of the first scalar.
        #expect(try read("\u{FEFF}hello") == "hello")
        #expect(try read("\u{FEFF}\"\\uFEFF\"") == "\u{FEFF}")
        // Keys that differ only by normalization are two keys in JSON, but Yams compares keys as
        // Swift strings: such a mapping is refused as one with duplicate keys (nothing is merged).
        let documents = YAMLInput.documents(Array("\"\u{E9}\": 1\n\"e\u{301}\": 2".utf8))
        guard case .failure(let problem) = documents.last?.value else {
            Issue.record("read: \(documents.map(\.value))")
            return
        }
        #expect(problem.message.contains("duplicate"))
    }
}
