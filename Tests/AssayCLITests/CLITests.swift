import AssayJSON
import Foundation
import Testing

@testable import AssayCLI

private let clientSchema = CLIRun.example("clients/client.schema.json")
private let clients = CLIRun.example("clients/clients.ndjson")
private let configSchema = CLIRun.example("config/service.schema.json")
private let config = CLIRun.example("config/service.yaml")

@Suite("assay validate: output")
struct ValidateOutputTests {
    @Test("text output on the bundled clients, every kind of invalid record")
    func clientsText() throws {
        let run = try CLIRun(["validate", "--schema", clientSchema, clients])
        #expect(run.status == 1)
        run.assertSnapshot("clients-text")
    }

    @Test("--jobs defaults to the processors given to the context, or else the system's")
    func processorCount() {
        var context = CommandContext(
            standardInput: 0, standardOutput: ByteSink(), standardError: ByteSink(), environment: [:],
            processorCount: 3)
        #expect(context.processorCount == 3)
        context.processorCount = 5
        #expect(context.processorCount == 5)
        let asked = CommandContext(
            standardInput: 0, standardOutput: ByteSink(), standardError: ByteSink(), environment: [:])
        #expect(asked.processorCount == ProcessInfo.processInfo.activeProcessorCount)
        #expect(asked.processorCount >= 1)
    }

    @Test("the process's context holds the variables commands read, as the environment has them")
    func processEnvironment() {
        let context = CommandContext.process()
        let all = ProcessInfo.processInfo.environment
        #expect(Set(context.environment.keys).isSubset(of: CommandContext.variablesRead))
        for name in CommandContext.variablesRead {
            #expect(context.environment[name] == all[name], "\(name)")
        }
        #expect(CommandContext.variablesRead.contains("NO_COLOR") && CommandContext.variablesRead.contains("LANG"))
    }

    @Test("JSON Lines: exactly one line per document, in input order, the same with 1 and 2 jobs")
    func clientsJSON() throws {
        let one = try CLIRun(["validate", "--schema", clientSchema, "--format", "json", "--jobs", "1", clients])
        let two = try CLIRun(["validate", "--schema", clientSchema, "--format", "json", "--jobs", "2", clients])
        #expect(one.status == 1)
        #expect(one.standardOutput == two.standardOutput)
        let lines = one.standardOutput.split(separator: "\n")
        #expect(lines.count == 1000)
        for (index, line) in lines.enumerated() {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["line"] as? Int == index + 1)
            #expect(object["file"] as? String == clients)
        }
        let invalidLines = lines.filter { $0.contains(#""valid":false"#) }.count
        let truth = try String(contentsOfFile: CLIRun.example("clients/invalid.tsv"), encoding: .utf8)
        #expect(invalidLines == truth.split(separator: "\n").count - 1)
        one.assertSnapshot("clients-json")
    }

    @Test("many blocks and more workers than cores: the same lines in the same order as one job")
    func manyBlocksInOrder() throws {
        let folder = try TemporaryFolder()
        let records = try Array(Data(contentsOf: URL(fileURLWithPath: clients)))
        // Twelve copies: about 3.5 MB, so over a dozen blocks are in flight across the workers.
        let file = try folder.file("many.ndjson", contents: Array(repeating: records, count: 12).flatMap { $0 })
        let one = try CLIRun(["validate", "--schema", clientSchema, "--format", "json", "--jobs", "1", file])
        let lines = one.standardOutput.split(separator: "\n")
        #expect(lines.count == 12_000)
        #expect(lines.last?.contains(#""line":12000,"#) == true)
        for jobs in ["2", "5"] {
            let many = try CLIRun(["validate", "--schema", clientSchema, "--format", "json", "--jobs", jobs, file])
            #expect(many.status == 1)
            #expect(many.standardOutput == one.standardOutput, "--jobs \(jobs)")
        }
    }

    @Test("every invalid record of the ground truth is reported on its line, and no other")
    func clientsAgreeWithGroundTruth() throws {
        let run = try CLIRun(["validate", "--schema", clientSchema, "--format", "json", clients])
        let truth = try String(contentsOfFile: CLIRun.example("clients/invalid.tsv"), encoding: .utf8)
        let expected = Set(truth.split(separator: "\n").dropFirst().map { Int($0.split(separator: "\t")[0])! })
        var reported: Set<Int> = []
        for line in run.standardOutput.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if object["valid"] as? Bool == false { reported.insert(object["line"] as! Int) }
        }
        #expect(reported == expected)
    }

    @Test("messages in Russian and Chinese, from --lang or from the environment")
    func languages() throws {
        let russian = try CLIRun(["validate", "--schema", clientSchema, "--lang", "ru", "--quiet", clients])
        russian.assertSnapshot("clients-ru")
        let chinese = try CLIRun(
            ["validate", "--schema", clientSchema, "--quiet", clients], environment: ["LANG": "zh_CN.UTF-8"])
        #expect(chinese.standardOutput.contains("为必填项"))
        let fallback = try CLIRun(
            ["validate", "--schema", clientSchema, "--quiet", clients], environment: ["LANG": "fr_FR.UTF-8"])
        #expect(fallback.standardOutput.contains("Email is required"))
    }

    @Test("YAML: every document of the stream, valid")
    func configValid() throws {
        let run = try CLIRun(["validate", "--schema", configSchema, config])
        #expect(run.status == 0)
        run.assertSnapshot("config-valid")
    }

    @Test("YAML: errors point at the line of the value; JSON output names the document")
    func configInvalid() throws {
        let folder = try TemporaryFolder()
        let file = try folder.file(
            "broken.yaml",
            """
            service: billing-api
            listen:
              host: "not a host!"
              port: 70000
            database:
              url: mysql://db/billing
            admins: [ops@example.com, ops@example.com]
            ---
            service: Billing
            listen: {host: 10.0.0.1, port: "80"}
            database: {url: "sqlite:///var/db.sqlite", pool: 0}
            admins: []
            extra: true
            """)
        let text = try CLIRun(["validate", "--schema", configSchema, file])
        #expect(text.status == 1)
        text.assertSnapshot("config-invalid-text", replacing: [folder.path: "<tmp>"])
        let json = try CLIRun(["validate", "--schema", configSchema, "--format", "json", file])
        json.assertSnapshot("config-invalid-json", replacing: [folder.path: "<tmp>"])
    }

    @Test("a JSON file is one document; errors show the line of the value")
    func jsonDocument() throws {
        let folder = try TemporaryFolder()
        let file = try folder.file(
            "client.json",
            """
            {
              "id": "7c9e6679-7425-40de-944b-e07fc1f90ae7",
              "name": "Ada Lovelace",
              "email": "ada@example.com",
              "signup": "2024-13-01T00:00:00Z",
              "age": 36,
              "plan": "free",
              "address": {"street": "12 St James's Square", "city": "London", "postcode": "sw1y 4lb", "country": "GB"},
              "tags": [],
              "active": "yes"
            }
            """)
        let run = try CLIRun(["validate", "--schema", clientSchema, file])
        #expect(run.status == 1)
        run.assertSnapshot("json-document", replacing: [folder.path: "<tmp>"])
    }

    @Test("standard input is NDJSON unless --input-format says otherwise")
    func standardInput() throws {
        let lines = try String(contentsOfFile: clients, encoding: .utf8).split(separator: "\n").prefix(20)
        let run = try CLIRun(
            ["validate", "--schema", clientSchema, "--format", "json", "-"],
            input: Array(lines.joined(separator: "\n").utf8))
        #expect(run.status == 1)
        #expect(run.standardOutput.split(separator: "\n").count == 20)
        #expect(run.standardOutput.contains(#"{"file":"-","line":18,"valid":false"#))
        let yaml = try CLIRun(
            ["validate", "--schema", configSchema, "--input-format", "yaml", "--quiet", "-"],
            input: Array(try String(contentsOfFile: config, encoding: .utf8).utf8))
        #expect(yaml.status == 0)
        #expect(yaml.standardOutput.isEmpty && yaml.standardError.isEmpty)
    }

    @Test("--max-errors caps the errors kept per document")
    func maxErrors() throws {
        let folder = try TemporaryFolder()
        let file = try folder.file("empty-object.ndjson", "{}\n")
        let all = try CLIRun(["validate", "--schema", clientSchema, "--quiet", "--max-errors", "0", file])
        let two = try CLIRun(["validate", "--schema", clientSchema, "--quiet", "--max-errors", "2", file])
        #expect(all.standardOutput.split(separator: "\n").count == 9)
        // Two errors, then a line saying the list stopped there.
        let lines = two.standardOutput.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.last?.hasSuffix("errors stopped at --max-errors 2; the document may have more") == true)
        #expect(!all.standardOutput.contains("--max-errors"))
        let json = try CLIRun([
            "validate", "--schema", clientSchema, "--quiet", "--format", "json", "--max-errors", "2", file,
        ])
        let report = try JSONValue(parsing: String(json.standardOutput.split(separator: "\n")[0]))
        #expect(report["errors"]?.array?.count == 2)
        #expect(report["truncated"] == true)
        let whole = try CLIRun(["validate", "--schema", clientSchema, "--quiet", "--format", "json", file])
        #expect(try JSONValue(parsing: String(whole.standardOutput.split(separator: "\n")[0]))["truncated"] == nil)
    }

    @Test("--output prints each document's result in a 2020-12 output format, one JSON object per line")
    func specificationOutputFormats() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file(
            "s.schema.json",
            #"{"$id": "https://x.test/s", "properties": {"a": {"readOnly": true, "minimum": 1}}, "required": ["a"]}"#)
        let data = try folder.file("data.ndjson", "{\"a\": 2}\n{\"a\": 0}\nnot json\n")
        func lines(_ format: String) throws -> (Int32, [JSONValue]) {
            let run = try CLIRun(["validate", "--schema", schema, "--quiet", "--output", format, data])
            return (
                run.status, try run.standardOutput.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
            )
        }
        let (status, flag) = try lines("flag")
        #expect(status == 1)
        #expect(flag == [["valid": true], ["valid": false], ["valid": false]])
        let (_, basic) = try lines("basic")
        #expect(basic.count == 3)
        #expect(basic[0]["valid"] == true && basic[0]["keywordLocation"] == "" && basic[0]["instanceLocation"] == "")
        #expect(basic[0]["absoluteKeywordLocation"] == "https://x.test/s#")
        #expect(basic[0]["annotations"]?[0]?["keywordLocation"] == "/properties/a/readOnly")
        #expect(basic[0]["annotations"]?[0]?["annotation"] == true)
        #expect(basic[1]["valid"] == false && basic[1]["annotations"] == nil)
        #expect(basic[1]["errors"]?[0]?["keywordLocation"] == "/properties/a/minimum")
        #expect(basic[1]["errors"]?[0]?["instanceLocation"] == "/a")
        #expect(basic[2]["valid"] == false && basic[2]["error"]?.string?.hasPrefix("not valid JSON") == true)
        let (_, detailed) = try lines("detailed")
        #expect(detailed[1]["errors"]?.array?.count == 1)
        let (_, verbose) = try lines("verbose")
        #expect(verbose[0]["valid"] == true && verbose[0]["annotations"] != nil)
        #expect(verbose[1]["valid"] == false && verbose[1]["errors"] != nil)
        let wrong = try CLIRun(["validate", "--schema", schema, "--output", "list", data])
        #expect(wrong.status == 2)
        // --max-errors bounds the output formats too, nested causes counted.
        let either = try folder.file(
            "either.schema.json", ##"{"anyOf": [{"type": "integer"}, {"type": "array", "items": {"$ref": "#"}}]}"##)
        let deep = try folder.file(
            "deep.ndjson", String(repeating: "[", count: 200) + "\"x\"" + String(repeating: "]", count: 200) + "\n")
        let bounded = try CLIRun([
            "validate", "--schema", either, "--quiet", "--output", "basic", "--max-errors", "10", deep,
        ])
        let unit = try JSONValue(parsing: String(bounded.standardOutput.split(separator: "\n")[0]))
        #expect(unit["valid"] == false && unit["truncated"] == true)
        #expect((unit["errors"]?.array?.count ?? 0) <= 10)
    }

    @Test("--max-errors bounds an error's nested causes: a deep document's report stays small")
    func maxErrorsBoundsNestedCauses() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file(
            "nested.schema.json", ##"{"anyOf": [{"type": "integer"}, {"type": "array", "items": {"$ref": "#"}}]}"##)
        // 300 levels: unbounded, each level's error would repeat the path so far (about 2 MB a line).
        let line = String(repeating: "[", count: 300) + "\"x\"" + String(repeating: "]", count: 300)
        let data = try folder.file("deep.ndjson", String(repeating: line + "\n", count: 20))
        let run = try CLIRun(["validate", "--schema", schema, "--quiet", "--format", "json", data])
        #expect(run.status == 1)
        let lines = run.standardOutput.split(separator: "\n")
        #expect(lines.count == 20)
        for line in lines {
            let report = try JSONValue(parsing: String(line))
            #expect(report["truncated"] == true)
            func units(_ errors: [JSONValue]) -> Int {
                errors.reduce(0) { $0 + 1 + units($1["causes"]?.array ?? []) }
            }
            #expect(units(report["errors"]?.array ?? []) <= 100)
            #expect(line.utf8.count < 200_000)
        }
    }

    @Test("JSON output: an anyOf or oneOf error lists what each alternative found in causes")
    func causesInJSONOutput() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file(
            "either.schema.json", #"{"anyOf": [{"type": "integer"}, {"type": "string", "minLength": 3}]}"#)
        let data = try folder.file("data.ndjson", "\"ab\"\n7\n")
        let run = try CLIRun(["validate", "--schema", schema, "--quiet", "--format", "json", data])
        #expect(run.status == 1)
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let first = try JSONValue(parsing: lines[0])
        let error = try #require(first["errors"]?[0] as JSONValue?)
        #expect(error["keywordLocation"]?.string == "/anyOf")
        let causes = try #require(error["causes"]?.array)
        #expect(causes.compactMap { $0["keywordLocation"]?.string } == ["/anyOf/0/type", "/anyOf/1/minLength"])
        #expect(causes.compactMap { $0["code"]?.string }.count == 2)
        #expect(causes.allSatisfy { $0["error"]?.string?.isEmpty == false })
        // A valid document's line and an error without alternatives carry no causes.
        #expect(lines[1].hasSuffix(#""valid":true,"errors":[]}"#))
        let plain = try CLIRun(["validate", "--schema", clientSchema, "--quiet", "--format", "json", data])
        #expect(!plain.standardOutput.contains("causes"))
    }

    @Test("--formats annotate turns format checks off; --default-dialect applies to schemas without $schema")
    func schemaOptions() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("email.schema.json", #"{"format": "email", "items": [{"type": "string"}]}"#)
        let data = try folder.file("data.ndjson", "\"not an email\"\n[1]\n")
        let asserted = try CLIRun(["validate", "--schema", schema, "--quiet", "--default-dialect", "7", data])
        #expect(asserted.status == 1)
        #expect(asserted.standardOutput.split(separator: "\n").count == 2)
        let annotated = try CLIRun(
            ["validate", "--schema", schema, "--quiet", "--formats", "annotate", "--default-dialect", "7", data])
        #expect(annotated.standardOutput.split(separator: "\n").count == 1)
        // In 2020-12 the array form of items is not a schema keyword's valid value.
        let modern = try CLIRun(["validate", "--schema", schema, "--quiet", data])
        #expect(modern.status == 2)
    }

    @Test("--registry resolves remote $refs from a folder; schema $refs resolve beside the schema")
    func registry() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path + "/remote", withIntermediateDirectories: true)
        try folder.file("remote/age.json", #"{"type": "integer", "maximum": 150}"#)
        let schema = try folder.file(
            "person.schema.json", #"{"properties": {"age": {"$ref": "https://schemas.example.com/age.json"}}}"#)
        let data = try folder.file("people.ndjson", "{\"age\": 30}\n{\"age\": 300}\n")
        let missing = try CLIRun(["validate", "--schema", schema, data])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("https://schemas.example.com/age.json"))
        let run = try CLIRun(
            [
                "validate", "--schema", schema, "--quiet", "--registry",
                "https://schemas.example.com/=\(folder.path)/remote", data,
            ])
        #expect(run.status == 1)
        #expect(run.standardOutput.hasSuffix(":2: /age: Age must be at most 150\n"))
    }

    @Test("a schema written in YAML")
    func yamlSchema() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file(
            "s.yaml", "$schema: https://json-schema.org/draft/2020-12/schema\ntype: object\nrequired: [name]\n")
        let data = try folder.file("d.ndjson", "{\"name\": \"x\"}\n{}\n")
        let run = try CLIRun(["validate", "--schema", schema, "--quiet", data])
        #expect(run.status == 1)
        #expect(run.standardOutput == "\(data):2: /name: Name is required\n")
        let two = try folder.file("two.yaml", "type: object\n---\ntype: array\n")
        let refused = try CLIRun(["validate", "--schema", two, data])
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("holds one YAML document, not 2"))
    }

    @Test("colour only on a terminal, and never with NO_COLOR")
    func colour() throws {
        let folder = try TemporaryFolder()
        let data = try folder.file("one.ndjson", "{}\n")
        let coloured = try CLIRun(["validate", "--schema", clientSchema, "--quiet", data], outputIsTerminal: true)
        #expect(coloured.standardOutput.contains("\u{1B}[36m/id\u{1B}[0m"))
        let plain = try CLIRun(
            ["validate", "--schema", clientSchema, "--quiet", data], environment: ["NO_COLOR": "1"],
            outputIsTerminal: true)
        #expect(!plain.standardOutput.contains("\u{1B}"))
    }

    @Test("control characters in values and keys are shown escaped, not sent to the terminal")
    func terminalEscapes() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("s.json", #"{"additionalProperties": false}"#)
        let data = try folder.file("d.ndjson", #"{"\u001b[2Jboom": 1}"# + "\n")
        let run = try CLIRun(["validate", "--schema", schema, "--quiet", data])
        #expect(run.status == 1)
        #expect(!run.standardOutput.contains("\u{1B}"))
        #expect(run.standardOutput.contains(#"\u{1b}[2Jboom"#))
    }
}

@Suite("assay validate: filtering into --valid-out and --quarantine")
struct FilterTests {
    /// The file's lines split at line feeds only (a carriage return stays part of its line).
    private func lines(of path: String) throws -> [String] {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        return bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    @Test("together the two files hold every non-blank input line exactly once, in input order, verbatim")
    func partition() throws {
        let folder = try TemporaryFolder()
        let input = try String(contentsOfFile: clients, encoding: .utf8)
        let data = try folder.file(
            "in.ndjson", "\n" + input.replacing("\n", with: "\r\n", maxReplacements: 3) + "   \n")
        for jobs in ["1", "2"] {
            let valid = folder.path + "/valid-\(jobs).ndjson"
            let quarantine = folder.path + "/bad-\(jobs).ndjson"
            let run = try CLIRun(
                [
                    "validate", "--schema", clientSchema, "--quiet", "--jobs", jobs, "--valid-out", valid,
                    "--quarantine", quarantine, data,
                ])
            #expect(run.status == 1)
            let validLines = try lines(of: valid).dropLast()
            let badLines = try lines(of: quarantine).dropLast()
            #expect(validLines.count == 961)
            #expect(badLines.count == 39)
            let inputLines = try lines(of: data).filter { !$0.allSatisfy { $0 == " " || $0 == "\r" } }
            #expect(inputLines.count == validLines.count + badLines.count)
            #expect(Set(validLines).union(badLines) == Set(inputLines))
            // Input order is kept within each file.
            let positions = Dictionary(uniqueKeysWithValues: inputLines.enumerated().map { ($1, $0) })
            let validPositions = validLines.map { positions[$0]! }
            #expect(validPositions == validPositions.sorted())
            #expect(validLines.first?.last == "\r")
        }
        #expect(folder.names.allSatisfy { !$0.contains(".assay-") })
    }

    @Test("an output that cannot be written: exit 2, no file and no temporary file left behind")
    func unwritableOutput() throws {
        let folder = try TemporaryFolder()
        let valid = folder.path + "/valid.ndjson"
        let run = try CLIRun(
            [
                "validate", "--schema", clientSchema, "--valid-out", valid, "--quarantine",
                folder.path + "/missing/bad.ndjson", clients,
            ])
        #expect(run.status == 2)
        #expect(run.standardOutput.isEmpty)
        #expect(
            run.normalized(replacing: [folder.path: "<tmp>"]).hasSuffix(
                "--- stderr\nassay: <tmp>/missing/bad.ndjson: cannot be written: No such file or directory\n"))
        #expect(folder.names.isEmpty)
    }

    @Test("an existing output file is replaced only when the run succeeds")
    func keepsOldFileOnFailure() throws {
        let folder = try TemporaryFolder()
        let valid = try folder.file("valid.ndjson", "old\n")
        let run = try CLIRun([
            "validate", "--schema", clientSchema, "--valid-out", valid, clients, folder.path + "/gone.ndjson",
        ])
        #expect(run.status == 2)
        #expect(try String(contentsOfFile: valid, encoding: .utf8) == "old\n")
        #expect(folder.names == ["valid.ndjson"])
    }

    @Test(
        "a full disk on standard output is an error, exit 2",
        .enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "skipped: this machine has no /dev/full"))
    func fullDisk() throws {
        let descriptor = open("/dev/full", O_WRONLY)
        defer { close(descriptor) }
        let run = try CLIRun(
            ["validate", "--schema", clientSchema, "--format", "json", clients],
            standardOutput: ByteSink(fileDescriptor: descriptor))
        #expect(run.status == 2)
        #expect(run.standardError.contains("standard output cannot be written: No space left on device"))
    }

    @Test("--valid-out and --quarantine may not be the same file or an input")
    func outputClashes() throws {
        let same = try CLIRun([
            "validate", "--schema", clientSchema, "--valid-out", "x.ndjson", "--quarantine", "x.ndjson", clients,
        ])
        #expect(same.status == 2)
        let input = try CLIRun(["validate", "--schema", clientSchema, "--valid-out", clients, clients])
        #expect(input.status == 2)
    }
}

@Suite("assay validate: bad input")
struct BadInputTests {
    private func snapshot(_ name: String, _ arguments: [String], folder: TemporaryFolder, expect status: Int32) throws {
        let run = try CLIRun(arguments)
        #expect(run.status == status, "\(name): \(run.standardError)")
        run.assertSnapshot(name, replacing: [folder.path: "<tmp>"])
    }

    @Test("a missing file, a directory, an unknown extension")
    func unreadable() throws {
        let folder = try TemporaryFolder()
        try snapshot(
            "bad-missing-file", ["validate", "--schema", clientSchema, folder.path + "/nope.ndjson"], folder: folder,
            expect: 2)
        try FileManager.default.createDirectory(atPath: folder.path + "/dir.ndjson", withIntermediateDirectories: true)
        try snapshot(
            "bad-directory", ["validate", "--schema", clientSchema, folder.path + "/dir.ndjson"], folder: folder,
            expect: 2)
        let text = try folder.file("notes.txt", "{}\n")
        try snapshot("bad-extension", ["validate", "--schema", clientSchema, text], folder: folder, expect: 2)
    }

    @Test("empty files: an empty NDJSON stream has no documents; an empty JSON file is not a document")
    func empty() throws {
        let folder = try TemporaryFolder()
        let ndjson = try folder.file("empty.ndjson", "")
        let json = try folder.file("empty.json", "")
        try snapshot("bad-empty-ndjson", ["validate", "--schema", clientSchema, ndjson], folder: folder, expect: 0)
        try snapshot("bad-empty-json", ["validate", "--schema", clientSchema, json], folder: folder, expect: 1)
    }

    @Test("binary garbage, invalid UTF-8 and a truncated last line are invalid documents")
    func garbage() throws {
        let folder = try TemporaryFolder()
        let garbage = (0..<2000).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }
        let binary = try folder.file("binary.ndjson", contents: garbage)
        let run = try CLIRun(["validate", "--schema", clientSchema, "--format", "json", "--quiet", binary])
        #expect(run.status == 1)
        #expect(!run.standardOutput.isEmpty)
        #expect(run.standardOutput.split(separator: "\n").allSatisfy { $0.contains(#""valid":false"#) })
        let input = try String(contentsOfFile: clients, encoding: .utf8).split(separator: "\n")
        var mixed = Array(input[0].utf8) + [0x0A]
        mixed += Array(input[1].utf8.prefix(40)) + [0xC3, 0x28] + Array(input[1].utf8.dropFirst(40)) + [0x0A]
        mixed += Array(input[2].utf8.prefix(100))
        let file = try folder.file("mixed.ndjson", contents: mixed)
        try snapshot("bad-utf8-and-truncated", ["validate", "--schema", clientSchema, file], folder: folder, expect: 1)
    }

    @Test("a 50 MB line is read whole")
    func hugeLine() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("s.json", #"{"type": "array", "items": {"maxLength": 10}}"#)
        var line = Array(#"["#.utf8)
        line += Array(#"""#.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 50_000_000) + Array(#"""#.utf8)
        line += Array("]\n[\"short\"]\n".utf8)
        let file = try folder.file("huge.ndjson", contents: line)
        let run = try CLIRun(["validate", "--schema", schema, "--format", "json", "--quiet", file])
        #expect(run.status == 1)
        let lines = run.standardOutput.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].contains(#""line":1,"valid":false"#) && lines[0].contains(#""instanceLocation":"/0""#))
        #expect(lines[1].contains(#""line":2,"valid":true"#))
    }

    @Test("--format json reports each line with its number, however many digits it has")
    func lineNumbersInJSONReports() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("s.json", #"{"type": "integer"}"#)
        // Lines 1 … 10,001: every seventh a string (invalid), the rest integers (valid); a name that
        // JSON must escape.
        let count = 10_001
        let text = (1...count).map { $0 % 7 == 0 ? "\"x\"" : String($0) }.joined(separator: "\n") + "\n"
        let file = try folder.file("a \"quoted\" name.ndjson", contents: Array(text.utf8))
        let run = try CLIRun(["validate", "--schema", schema, "--format", "json", "--quiet", "--jobs", "1", file])
        #expect(run.status == 1)
        let lines = run.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == count)
        let name = #"{"file":"# + JSONValue.string(file).jsonString()
        for (offset, line) in lines.enumerated() where (offset + 1) % 7 != 0 {
            #expect(line == name + #","line":\#(offset + 1),"valid":true,"errors":[]}"#)
        }
        #expect(lines[6].hasPrefix(name + #","line":7,"valid":false,"errors":[{"#))
        #expect(lines[9_995].hasPrefix(name + #","line":9996,"valid":false,"errors":[{"#))
    }

    @Test("deeply nested documents are refused, not a crash, and not validated: exit 2")
    func deepNesting() throws {
        let folder = try TemporaryFolder()
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let file = try folder.file("deep.ndjson", deep + "\n")
        let yaml = try folder.file("deep.yaml", deep + "\n")
        let valid = folder.path + "/valid.ndjson"
        let run = try CLIRun(["validate", "--schema", clientSchema, "--valid-out", valid, file, yaml])
        #expect(run.status == 2)
        #expect(run.standardOutput.split(separator: "\n").count == 2)
        #expect(run.standardError.contains("2 documents not validated: over a limit"))
        #expect(try String(contentsOfFile: valid, encoding: .utf8).isEmpty)
    }

    @Test("--max-document-bytes and --max-depth: a document over either is not validated (exit 2)")
    func documentLimits() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("s.json", #"{"type": "array"}"#)
        let file = try folder.file("d.ndjson", "[1, 2, 3]\n[[[1]]]\n[]\n")
        let small = try CLIRun(["validate", "--schema", schema, "--max-document-bytes", "5", "--quiet", file])
        #expect(small.status == 2)
        #expect(
            small.standardOutput.contains(
                "d.ndjson:1: not valid JSON: the line is 9 bytes long, over the limit of 5 (--max-document-bytes)"))
        #expect(!small.standardOutput.contains("d.ndjson:3"))
        let shallow = try CLIRun(["validate", "--schema", schema, "--max-depth", "2", "--quiet", file])
        #expect(shallow.status == 2)
        #expect(shallow.standardOutput.contains("d.ndjson:2: not valid JSON"))
        let roomy = try CLIRun(["validate", "--schema", schema, "--max-depth", "3", "--quiet", file])
        #expect(roomy.status == 0)
        for bad in [["--max-depth", "0"], ["--max-document-bytes", "0"], ["--max-pattern-size", "0"]] {
            #expect(try CLIRun(["validate", "--schema", schema] + bad + [file]).status == 2)
        }
    }

    @Test("a line over --max-document-bytes is not held: reported, and copied whole to the quarantine")
    func longLinesAreStreamedToTheQuarantine() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("s.json", #"{"type": "array"}"#)
        // A line of several read chunks (not held), one just over the limit (held with its
        // neighbours, reported the same way), valid and invalid short lines around them.
        let long = "[\"" + String(repeating: "z", count: 3 << 20) + "\"]"
        let nearly = "[" + String(repeating: "1,", count: 600) + "1]"
        let text = "[1]\n" + long + "\r\n{}\n" + nearly + "\n[2]\n" + long
        let file = try folder.file("d.ndjson", text)
        for jobs in ["1", "2"] {
            let valid = folder.path + "/valid-\(jobs).ndjson"
            let quarantine = folder.path + "/bad-\(jobs).ndjson"
            let run = try CLIRun([
                "validate", "--schema", schema, "--max-document-bytes", "1000", "--jobs", jobs, "--valid-out", valid,
                "--quarantine", quarantine, file,
            ])
            #expect(run.status == 2)
            let lines = run.standardOutput.split(separator: "\n")
            let over = "bytes long, over the limit of 1000 (--max-document-bytes)"
            #expect(
                lines.contains { $0.hasSuffix("d.ndjson:2: not valid JSON: the line is \(long.utf8.count) \(over)") })
            #expect(
                lines.contains { $0.hasSuffix("d.ndjson:4: not valid JSON: the line is \(nearly.utf8.count) \(over)") })
            #expect(
                lines.contains { $0.hasSuffix("d.ndjson:6: not valid JSON: the line is \(long.utf8.count) \(over)") })
            #expect(run.standardError.contains("3 documents not validated: over a limit"))
            #expect(try String(contentsOfFile: valid, encoding: .utf8) == "[1]\n[2]\n")
            let kept = try String(contentsOfFile: quarantine, encoding: .utf8)
            #expect(kept == long + "\r\n{}\n" + nearly + "\n" + long + "\n", "\(kept.utf8.count) bytes")
        }
    }

    @Test("an unknown format under --formats assert is a schema error naming the nearest format")
    func unknownFormats() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("s.json", #"{"properties": {"at": {"format": "date_time"}}}"#)
        let file = try folder.file("d.ndjson", #"{"at": "whenever"}"# + "\n")
        let strict = try CLIRun(["validate", "--schema", schema, file])
        #expect(strict.status == 2)
        #expect(strict.standardError.contains(#"unknown format "date_time"; did you mean "date-time"?"#))
        let ignored = try CLIRun(["validate", "--schema", schema, "--unknown-formats", "ignore", "--quiet", file])
        #expect(ignored.status == 0)
        let annotated = try CLIRun(["validate", "--schema", schema, "--formats", "annotate", "--quiet", file])
        #expect(annotated.status == 0)
    }

    @Test("a pattern over --max-pattern-size is a schema error; under it, it runs")
    func patternSize() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("s.json", #"{"pattern": "^[^x]{0,99999}y$"}"#)
        let file = try folder.file("d.ndjson", #""aay""# + "\n")
        let refused = try CLIRun(["validate", "--schema", schema, file])
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("the pattern expands to more than 10000 instructions"))
        let small = try folder.file("small.json", #"{"pattern": "^[^x]{0,999}y$"}"#)
        #expect(try CLIRun(["validate", "--schema", small, "--quiet", file]).status == 0)
    }

    @Test("schemas: not JSON, not a valid schema, not compiling, missing")
    func badSchemas() throws {
        let folder = try TemporaryFolder()
        let data = try folder.file("d.ndjson", "{}\n")
        let notJSON = try folder.file("not-json.schema.json", "{\"type\": \"object\",\n")
        try snapshot("bad-schema-not-json", ["validate", "--schema", notJSON, data], folder: folder, expect: 2)
        let invalid = try folder.file(
            "invalid.schema.json", #"{"properties": {"a": {"minLength": -1, "type": "text"}}}"#)
        try snapshot("bad-schema-invalid", ["validate", "--schema", invalid, data], folder: folder, expect: 2)
        let unresolved = try folder.file(
            "unresolved.schema.json", #"{"properties": {"a": {"$ref": "other.json"}, "b": {"pattern": "(a)\\1"}}}"#)
        try snapshot(
            "bad-schema-does-not-compile", ["validate", "--schema", unresolved, data], folder: folder, expect: 2)
        try snapshot(
            "bad-schema-missing", ["validate", "--schema", folder.path + "/gone.json", data], folder: folder, expect: 2)
    }

    @Test("usage errors: unknown --lang, no input, unknown option, bad --jobs, bad --registry")
    func usage() throws {
        let folder = try TemporaryFolder()
        try snapshot(
            "usage-unknown-lang", ["validate", "--schema", clientSchema, "--lang", "fr", clients], folder: folder,
            expect: 2)
        try snapshot("usage-no-input", ["validate", "--schema", clientSchema], folder: folder, expect: 2)
        try snapshot(
            "usage-unknown-option", ["validate", "--schema", clientSchema, "--colour", clients], folder: folder,
            expect: 2)
        try snapshot(
            "usage-bad-jobs", ["validate", "--schema", clientSchema, "--jobs", "0", clients], folder: folder, expect: 2)
        try snapshot(
            "usage-bad-registry", ["validate", "--schema", clientSchema, "--registry", "nodir", clients],
            folder: folder, expect: 2)
        try snapshot(
            "usage-bad-format", ["validate", "--schema", clientSchema, "--format", "xml", clients], folder: folder,
            expect: 2)
        try snapshot("usage-no-subcommand", [], folder: folder, expect: 2)
    }

    @Test("a YAML alias bomb, a YAML syntax error and YAML that has no JSON form")
    func hostileYAML() throws {
        let folder = try TemporaryFolder()
        var bomb = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        var previous = "a"
        for name in ["b", "c", "d", "e", "f", "g", "h", "i"] {
            bomb += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ", ") + "]\n"
            previous = name
        }
        let bombFile = try folder.file("bomb.yaml", bomb)
        try snapshot(
            "bad-yaml-alias-bomb", ["validate", "--schema", configSchema, bombFile], folder: folder, expect: 2)
        let syntax = try folder.file("syntax.yaml", "service: ok\n---\nservice: [unclosed\n")
        try snapshot("bad-yaml-syntax", ["validate", "--schema", configSchema, syntax], folder: folder, expect: 1)
        let forms = try folder.file("forms.yaml", "a: .inf\n---\n[1, 2]: x\n---\nb: 1\nb: 2\n")
        try snapshot(
            "bad-yaml-no-json-form", ["validate", "--schema", configSchema, "--format", "json", forms], folder: folder,
            expect: 1)
    }

    @Test("YAML scalars become the JSON values a reader expects; merge keys apply")
    func yamlScalars() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file(
            "s.json",
            #"""
            {"const": {"null": null, "tilde": null, "yes": true, "no": false, "int": 12, "hex": 255, "big": 123456789012345678901234567890,
             "float": 1.5, "exp": 1e3, "quoted": "12", "text": "hello", "date": "2024-01-02", "list": [1, "two"],
             "base": 1, "merged": 2}}
            """#)
        let data = try folder.file(
            "d.yaml",
            """
            null: null
            tilde: ~
            yes: true
            no: false
            int: 12
            hex: 0xFF
            big: 123456789012345678901234567890
            float: 1.5
            exp: 1.0e+3
            quoted: "12"
            text: hello
            date: 2024-01-02
            list: [1, two]
            <<: {base: 1, merged: 1}
            merged: 2
            """)
        let run = try CLIRun(["validate", "--schema", schema, data])
        #expect(run.status == 0, "\(run.standardOutput)")
    }
}

@Suite("assay check-schema and help")
struct CheckSchemaTests {
    @Test("the bundled schemas are valid; broken ones are reported one problem per line")
    func checkSchemas() throws {
        let folder = try TemporaryFolder()
        let invalid = try folder.file("invalid.json", #"{"type": "text", "required": "name"}"#)
        let notJSON = try folder.file("not.json", "{")
        let unresolved = try folder.file("ref.json", ##"{"$ref": "#/$defs/nothing"}"##)
        let run = try CLIRun(
            [
                "check-schema", clientSchema, CLIRun.example("clients/address.schema.json"), configSchema, invalid,
                notJSON, unresolved,
            ])
        #expect(run.status == 1)
        run.assertSnapshot("check-schema-text", replacing: [folder.path: "<tmp>"])
        let valid = try CLIRun(["check-schema", "--format", "json", clientSchema])
        #expect(valid.status == 0)
        #expect(valid.standardOutput == #"{"file":"\#(clientSchema)","valid":true,"errors":[]}"# + "\n")
        let missing = try CLIRun(["check-schema", folder.path + "/gone.json"])
        #expect(missing.status == 2)
    }

    @Test("schemas of several dialects in one run are each checked against their own metaschema")
    func dialectsInOneRun() throws {
        let folder = try TemporaryFolder()
        // A Boolean `exclusiveMinimum` is draft 4's; from draft 6 on it must be a number.
        let draft4 = try folder.file(
            "draft4.json",
            #"{"$schema": "http://json-schema.org/draft-04/schema#", "minimum": 0, "exclusiveMinimum": true}"#)
        let draft2020 = try folder.file("draft2020.json", #"{"minimum": 0, "exclusiveMinimum": true}"#)
        let draft7 = try folder.file(
            "draft7.json", #"{"$schema": "http://json-schema.org/draft-07/schema#", "exclusiveMinimum": 0}"#)
        for order in [[draft4, draft2020, draft7, draft4], [draft2020, draft4, draft7, draft2020]] {
            let run = try CLIRun(["check-schema", "--format", "json"] + order)
            #expect(run.status == 1)
            let verdicts = run.standardOutput.split(separator: "\n").map { $0.contains(#""valid":true"#) }
            #expect(verdicts == order.map { $0 != draft2020 }, "\(run.standardOutput)")
        }
    }

    @Test("--help documents the contract: formats, exit statuses, the filter files")
    func help() throws {
        let run = try CLIRun(["validate", "--help"])
        #expect(run.status == 0)
        for text in [
            "--valid-out", "--quarantine", "--jobs", "--max-errors", "--registry", "--default-dialect", "Exit status",
            "JSON Lines", "causes", "--results", "--summary", "--report", "--redact", "--duplicate-keys", "--color",
            "As a filter in a pipeline",
            "flushed before assay",
        ] {
            #expect(run.standardOutput.contains(text), "\(text)")
        }
        let version = try CLIRun(["--version"])
        #expect(version.standardOutput == AssayTool.version + "\n")
    }

    @Test("validate and check-schema parsed as their own arguments give the command the root's parse gives")
    func subcommandParsedFirst() throws {
        let accepted: [[String]] = [
            ["validate", "-s", "s.json", "a.ndjson"],
            [
                "validate", "--schema", "s.json", "--jobs", "1", "--quiet", "--format", "json", "--formats", "annotate",
                "--registry", "https://x/=dir", "--redact", "/a/*", "--redact", "/b", "a.ndjson", "-", "b.json",
            ],
            [
                "validate", "a.json", "--schema=s.json", "--max-errors", "0", "--duplicate-keys", "last",
                "--default-dialect", "7", "--output", "basic", "--color", "never", "--", "--quiet",
            ],
            ["validate", "-s", "s.json", "validate", "check-schema"],
            ["check-schema", "--format", "json", "--unknown-formats", "ignore", "a.json", "b.yaml"],
        ]
        for arguments in accepted {
            let first = try AssayTool.parse(arguments)
            let root = try AssayCommand.parseAsRoot(arguments)
            #expect(type(of: first) == type(of: root), "\(arguments)")
            #expect(String(reflecting: first) == String(reflecting: root), "\(arguments)")
        }
        // What the subcommand alone does not accept is parsed from the root: the same help, version
        // and errors as before.
        for arguments in [
            ["validate", "--help"], ["validate", "-h"], ["validate", "--version"], ["validate", "--jobs"],
            ["validate", "--no-such-option", "a.json"], ["check-schema", "--help"], ["validate"],
            ["validate", "--generate-completion-script", "bash"],
            ["check-schema", "--generate-completion-script", "zsh"],
        ] {
            let fromRoot = Result { try AssayCommand.parseAsRoot(arguments) }
            let first = Result { try AssayTool.parse(arguments) }
            switch (first, fromRoot) {
            case (.success(let first), .success(let root)):
                #expect(String(reflecting: first) == String(reflecting: root), "\(arguments)")
            case (.failure(let first), .failure(let root)):
                #expect(AssayCommand.fullMessage(for: first) == AssayCommand.fullMessage(for: root), "\(arguments)")
                #expect(AssayCommand.exitCode(for: first) == AssayCommand.exitCode(for: root), "\(arguments)")
            default:
                Issue.record("\(arguments): \(first) and \(fromRoot)")
            }
        }
        let help = try CLIRun(["validate", "--help"])
        #expect(help.standardOutput.contains("USAGE: assay validate"))
    }
}

@Suite("assay validate: progress")
struct ProgressTests {
    @Test("a progress bar on a terminal for a large input, erased before output; never with --quiet")
    func progressBar() throws {
        let shown = try CLIRun(
            ["validate", "--schema", clientSchema, clients], errorIsTerminal: true, progressMinimumBytes: 1)
        #expect(shown.standardError.contains("] 100%"))
        #expect(shown.standardError.contains("\r\u{1B}[2K"))
        let quiet = try CLIRun(
            ["validate", "--schema", clientSchema, "--quiet", clients], errorIsTerminal: true, progressMinimumBytes: 1)
        #expect(quiet.standardError.isEmpty)
        let notTerminal = try CLIRun(["validate", "--schema", clientSchema, clients], progressMinimumBytes: 1)
        #expect(!notTerminal.standardError.contains("%"))
    }
}
