import AssayCore
import AssayJSON
import Foundation
import Testing

@testable import AssayCLI

private let schema = CLIRun.example("clients/client.schema.json")
private let clients = CLIRun.example("clients/clients.ndjson")

/// Reads a JSON file written by a run.
private func json(_ path: String) throws -> JSONValue {
    try JSONValue(parsing: Array(FileManager.default.contents(atPath: path) ?? Data()))
}

private func object(_ value: JSONValue?) -> JSONObject {
    if case .object(let object) = value { return object }
    return [:]
}

private func int(_ value: JSONValue?) -> Int {
    if case .number(let number) = value { return number.int ?? -1 }
    return -1
}

private func string(_ value: JSONValue?) -> String {
    if case .string(let text) = value { return text }
    return ""
}

private func array(_ value: JSONValue?) -> [JSONValue] {
    if case .array(let elements) = value { return elements }
    return []
}

/// The summary's `[{"keyword": k, "errors": n}]` (or paths) as a dictionary.
private func counts(_ value: JSONValue?, key: String) -> [String: Int] {
    var result: [String: Int] = [:]
    for entry in array(value) { result[string(object(entry)[key]), default: 0] += int(object(entry)["errors"]) }
    return result
}

@Suite("assay validate --summary and --report, assay report")
struct ReportTests {
    @Test("the summary's totals, paths and keywords are what the per-document results say")
    func summaryAgreesWithResults() throws {
        let folder = try TemporaryFolder()
        let summaryPath = folder.path + "/s.json"
        let run = try CLIRun(["validate", "-s", schema, "--format", "json", "--summary", summaryPath, clients])
        #expect(run.status == 1)
        // What the JSON Lines say, counted here independently.
        var paths: [String: Int] = [:]
        var keywords: [String: Int] = [:]
        var invalid = 0
        for line in run.standardOutput.split(separator: "\n") {
            let result = object(try JSONValue(parsing: String(line)))
            if result["valid"] == .bool(false) { invalid += 1 }
            for error in array(result["errors"]) {
                let error = object(error)
                let pointer = string(error["instanceLocation"])
                paths[pointer.replacing(/\/[0-9]+(?=\/|$)/, with: "/*"), default: 0] += 1
                let location = string(error["keywordLocation"])
                keywords[
                    location.isEmpty ? "(not read)" : String(location.split(separator: "/").last ?? ""), default: 0] +=
                    1
            }
        }
        let summary = object(try json(summaryPath))
        #expect(string(summary["format"]) == "assay-run-summary")
        let totals = object(summary["totals"])
        #expect(int(totals["documents"]) == 1000)
        #expect(int(totals["invalid"]) == invalid)
        #expect(int(totals["invalid"]) == 39)
        #expect(int(totals["errors"]) == 39)
        #expect(int(totals["valid"]) == 961)
        #expect(int(totals["bytes"]) == (try FileManager.default.attributesOfItem(atPath: clients)[.size] as? Int))
        #expect(counts(summary["paths"], key: "path") == paths)
        #expect(counts(summary["keywords"], key: "keyword") == keywords)
        #expect(summary["approximate"] == .bool(false))
        #expect(summary["otherPaths"] == ["paths": 0, "errorsAtMost": 0])
        let histogram = array(summary["errorsPerDocument"]).map { int(object($0)["documents"]) }
        #expect(histogram.reduce(0, +) == 39)
        // Each listed keyword has at most 3 examples, each naming its line and holding its errors.
        for path in array(summary["paths"]) {
            for tally in array(object(path)["keywords"]) {
                let examples = array(object(tally)["examples"])
                #expect((1...3).contains(examples.count))
                for example in examples {
                    #expect(string(object(example)["source"]).hasPrefix(clients + ":"))
                    #expect(!array(object(example)["errors"]).isEmpty)
                }
            }
        }
    }

    @Test("array indices are folded; the same input gives the same examples; --report renders what --summary holds")
    func foldedAndRepeatable() throws {
        let folder = try TemporaryFolder()
        let orderSchema = try folder.file(
            "order.schema.json",
            #"{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"price":{"type":"number","minimum":0}}}}}}"#
        )
        var lines: [String] = []
        for index in 0..<200 {
            lines.append(#"{"items":[{"price":1},{"price":-\#(index + 1)},{"price":"x"}]}"#)
        }
        let data = try folder.file("orders.ndjson", lines.joined(separator: "\n") + "\n")
        var summaries: [JSONValue] = []
        for round in 0..<2 {
            let run = try CLIRun([
                "validate", "-s", orderSchema, "--summary", folder.path + "/s\(round).json", "--report",
                folder.path + "/r\(round).html", "--jobs", String(round + 1), data,
            ])
            #expect(run.status == 1)
            summaries.append(try json(folder.path + "/s\(round).json"))
        }
        let paths = array(object(summaries[0])["paths"])
        #expect(paths.count == 1)
        #expect(string(object(paths.first)["path"]) == "/items/*/price")
        #expect(int(object(paths.first)["errors"]) == 400)
        #expect(int(object(paths.first)["documents"]) == 200)
        #expect(counts(object(paths.first)["keywords"], key: "keyword") == ["minimum": 200, "type": 200])
        // Seconds aside, the two runs (one and two jobs) are the same, examples included.
        func withoutSeconds(_ value: JSONValue) -> JSONValue {
            var root = object(value)
            var totals = object(root["totals"])
            totals["seconds"] = nil
            root["totals"] = .object(totals)
            return .object(root)
        }
        #expect(withoutSeconds(summaries[0]) == withoutSeconds(summaries[1]))
        // assay report draws the summary as --report did.
        let page = folder.path + "/again.html"
        let render = try CLIRun(["report", folder.path + "/s0.json", "-o", page])
        #expect(render.status == 0)
        #expect(
            try String(contentsOfFile: page, encoding: .utf8)
                == String(contentsOfFile: folder.path + "/r0.html", encoding: .utf8))
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains(#"data-metric="documents" data-value="200""#))
        #expect(html.contains(#"<tr data-path="/items/*/price" data-errors="400" data-documents="200">"#))
        // The failing values of an example are marked.
        #expect(html.contains("<mark title=\"Price must be at least 0\">-"))
    }

    @Test("many distinct failing paths: the summary keeps its bound, says it is approximate, and the page 500 rows")
    func boundedPaths() throws {
        let folder = try TemporaryFolder()
        let idSchema = try folder.file(
            "ids.schema.json",
            #"{"type":"object","properties":{"age":{"type":"integer"}},"additionalProperties":{"type":"string"}}"#)
        var lines: [String] = []
        var ageErrors = 0
        for index in 0..<6_000 {
            // A key of its own per record (an id), failing; every fourth record's age fails too.
            let age = index % 4 == 0 ? #""old""# : "30"
            if index % 4 == 0 { ageErrors += 1 }
            lines.append(#"{"id\#(index)":\#(index),"age":\#(age)}"#)
        }
        let data = try folder.file("ids.ndjson", lines.joined(separator: "\n"))
        let summaryPath = folder.path + "/s.json"
        let page = folder.path + "/r.html"
        let run = try CLIRun([
            "validate", "-s", idSchema, "--summary", summaryPath, "--report", page, "--report-paths", "700", data,
        ])
        #expect(run.status == 1)
        let summary = object(try json(summaryPath))
        let paths = array(summary["paths"]).map(object)
        #expect(paths.count == 700)
        #expect(summary["approximate"] == .bool(true))
        let bound = int(summary["unlistedAtMost"])
        #expect(bound >= 1)
        // The most failing path is found, and its count's bounds hold the true count.
        let age = try #require(paths.first)
        #expect(string(age["path"]) == "/age")
        #expect(int(age["errors"]) >= ageErrors)
        #expect(int(age["errors"]) - int(age["overcount"]) <= ageErrors)
        // The distinct paths (6,001) are estimated within 10%.
        let distinct = int(summary["distinctPaths"])
        #expect(abs(distinct - 6_001) <= 600)
        #expect(int(object(summary["totals"])["errors"]) == 6_000 + ageErrors)
        // The rest as one bucket: the paths left out, and the errors that may be theirs.
        let other = object(summary["otherPaths"])
        #expect(int(other["paths"]) == distinct - 700)
        let certain = paths.reduce(0) { $0 + int($1["errors"]) - int($1["overcount"]) }
        #expect(int(other["errorsAtMost"]) == 6_000 + ageErrors - certain)
        #expect(int(other["errorsAtMost"]) >= 6_000 - 699)
        // The page: at most 500 rows, the last one the counted rest.
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.components(separatedBy: "<tr data-path=").count - 1 == 499)
        #expect(html.components(separatedBy: "<tr class=\"other\"").count - 1 == 1)
        #expect(html.contains("≈"))
        // The terminal's table says the rest is approximate too.
        let text = try CLIRun(["validate", "-s", idSchema, "--report-paths", "700", data])
        #expect(text.standardError.contains("/age"))
        #expect(text.standardError.contains("more paths"))
    }

    @Test("HTML and script in keys and values are escaped; --redact and writeOnly members are never shown")
    func escapedAndRedacted() throws {
        let folder = try TemporaryFolder()
        let secretSchema = try folder.file(
            "secret.schema.json",
            #"""
            {"type":"object","additionalProperties":false,
             "properties":{"name":{"type":"string","maxLength":3},"password":{"type":"string","writeOnly":true,"minLength":12},
               "token":{"type":"string","pattern":"^t-"},"tags":{"type":"array","uniqueItems":true},
               "users":{"type":"array","items":{"$ref":"#/$defs/user"}}},
             "$defs":{"user":{"type":"object","properties":{"pin":{"type":"string","writeOnly":true,"maxLength":2}}}}}
            """#)
        let lines = [
            #"{"name":"</pre><script>alert(1)</script>","<img src=x onerror=alert(2)>":1}"#,
            #"{"password":"hunter2","token":"SECRET-TOKEN","tags":["SECRET-TAG","SECRET-TAG"]}"#,
            #"{"users":[{"pin":"PIN-SECRET"}],"tags":{"SECRET-IN-OBJECT":1}}"#,
            #"{"password":"hunter2-not-json"#,
        ]
        let data = try folder.file("secret.ndjson", lines.joined(separator: "\n"))
        let summaryPath = folder.path + "/s.json"
        let page = folder.path + "/r.html"
        let run = try CLIRun([
            "validate", "-s", secretSchema, "--summary", summaryPath, "--report", page, "--redact", "/token",
            "--redact", "/tags", data,
        ])
        #expect(run.status == 1)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("<img src"))
        #expect(html.contains("&lt;img src=x onerror=alert(2)&gt;"))
        #expect(html.contains("&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;"))
        let written = try String(contentsOfFile: summaryPath, encoding: .utf8)
        for secret in ["hunter2", "SECRET-TOKEN", "SECRET-TAG", "PIN-SECRET", "SECRET-IN-OBJECT"] {
            #expect(!written.contains(secret), "\(secret) in the summary")
            #expect(!html.contains(secret), "\(secret) in the page")
        }
        #expect(written.contains("[redacted]"))
        #expect(written.contains("not JSON, and values are redacted"))
        let redacted = array(object(try json(summaryPath))["redacted"]).map(string)
        #expect(Set(redacted) == ["/token", "/tags", "/password", "/users/*/pin"])
    }

    @Test("assay report merge: the shards' summaries add up to the whole run's")
    func mergeShards() throws {
        let folder = try TemporaryFolder()
        let lines = try String(contentsOfFile: clients, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        let third = lines.count / 3
        let first = try folder.file("a.ndjson", lines[..<third].joined(separator: "\n") + "\n")
        let second = try folder.file("b.ndjson", lines[third..<(2 * third)].joined(separator: "\n") + "\n")
        let last = try folder.file("c.ndjson", lines[(2 * third)...].joined(separator: "\n"))
        for (input, name) in [(first, "a"), (second, "b"), (last, "c"), (clients, "whole")] {
            _ = try CLIRun(["validate", "-s", schema, "--summary", folder.path + "/\(name).json", "--quiet", input])
        }
        let merged = folder.path + "/merged.json"
        let run = try CLIRun(
            ["report", "merge"] + ["a", "b", "c"].map { folder.path + "/\($0).json" } + ["-o", merged])
        #expect(run.status == 0, "\(run.standardError)")
        let whole = object(try json(folder.path + "/whole.json"))
        let combined = object(try json(merged))
        #expect(int(combined["shards"]) == 3)
        for key in ["documents", "invalid", "errors", "notValidated", "bytes"] {
            #expect(int(object(combined["totals"])[key]) == int(object(whole["totals"])[key]), "\(key)")
        }
        #expect(counts(combined["keywords"], key: "keyword") == counts(whole["keywords"], key: "keyword"))
        #expect(counts(combined["codes"], key: "code") == counts(whole["codes"], key: "code"))
        #expect(counts(combined["paths"], key: "path") == counts(whole["paths"], key: "path"))
        #expect(combined["errorsPerDocument"] == whole["errorsPerDocument"])
        #expect(combined["approximate"] == .bool(false))
        // Rendering several summaries merges them first.
        let page = folder.path + "/r.html"
        #expect(
            try CLIRun(["report"] + ["a", "b", "c"].map { folder.path + "/\($0).json" } + ["-o", page]).status == 0)
        #expect(
            try String(contentsOfFile: page, encoding: .utf8).contains(#"data-metric="documents" data-value="1000""#))
    }

    @Test("merging bounded parts: a path one part left out is marked approximate, its bounds still hold")
    func mergeApproximate() throws {
        var left = RunSummary()
        left.limits.paths = 2
        left.paths = [
            .init(path: "/a", errors: 10, overcount: 0, documents: 10, keywords: []),
            .init(path: "/b", errors: 5, overcount: 2, documents: 3, keywords: []),
        ]
        left.unlistedAtMost = 3
        var right = RunSummary()
        right.limits.paths = 2
        right.paths = [.init(path: "/c", errors: 7, overcount: 0, documents: 7, keywords: [])]
        let merged = try RunSummary.merged([("l", left), ("r", right)])
        #expect(merged.paths.map(\.path) == ["/a", "/c"])
        #expect(merged.paths[0].errors == 10 && merged.paths[0].overcount == 0)
        // /c may have had up to 3 errors in the left part, which did not list it.
        #expect(merged.paths[1].errors == 10 && merged.paths[1].overcount == 3)
        // /b (5) was dropped; a path nowhere listed may have had 3 errors in the left part.
        #expect(merged.unlistedAtMost == 5)
        #expect(merged.isApproximate)
        var russian = right
        russian.language = "ru"
        #expect(throws: CLIError.self) { try RunSummary.merged([("l", left), ("ru", russian)]) }
    }

    @Test("a summary of another version, not JSON, not a summary or broken: a clear error, exit 2, nothing written")
    func refusedSummaries() throws {
        let folder = try TemporaryFolder()
        _ = try CLIRun(["validate", "-s", schema, "--summary", folder.path + "/good.json", "--quiet", clients])
        var good = object(try json(folder.path + "/good.json"))
        var newer = good
        newer["version"] = 2
        newer["assayVersion"] = "9.0.0"
        var broken = good
        var totals = object(broken["totals"])
        totals["documents"] = -1
        broken["totals"] = .object(totals)
        good["format"] = "something-else"
        let cases: [(String, String, String)] = [
            ("newer.json", JSONValue.object(newer).jsonString(), "a run summary of version 2 (written by assay 9.0.0)"),
            ("broken.json", JSONValue.object(broken).jsonString(), "not a valid run summary: /totals/documents:"),
            ("other.json", JSONValue.object(good).jsonString(), "not an Assay run summary"),
            ("text.json", "{\"format\": ", "not a run summary: not valid JSON"),
        ]
        for (name, text, message) in cases {
            let path = try folder.file(name, text)
            for arguments in [
                ["report", path, "-o", folder.path + "/out.html"],
                ["report", "merge", path, "-o", folder.path + "/out.json"],
            ] {
                let run = try CLIRun(arguments)
                #expect(run.status == 2)
                #expect(run.standardError.contains(message), "\(name): \(run.standardError)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out.html"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out.json"))
        let missing = try CLIRun(["report", folder.path + "/missing.json"])
        #expect(missing.status == 2)
    }

    @Test("the terminal table: in the run's language, only with --format text, not with --quiet")
    func terminalTable() throws {
        let russian = try CLIRun(["validate", "-s", schema, "--lang", "ru", clients])
        #expect(russian.standardError.hasPrefix("Пути с наибольшим числом ошибок"))
        #expect(russian.standardError.contains("/email"))
        let json = try CLIRun(["validate", "-s", schema, "--format", "json", clients])
        #expect(json.standardError.hasPrefix("1000 documents"))
        let quiet = try CLIRun(["validate", "-s", schema, "--quiet", clients])
        #expect(quiet.standardError.isEmpty)
        let colored = try CLIRun(["validate", "-s", schema, "--color", "always", clients])
        #expect(colored.standardError.contains(ANSI.cyan + "/age"))
    }

    @Test("a large example is cut to the way to its failures, and the cut still marks the right value")
    func excerpt() throws {
        let folder = try TemporaryFolder()
        let listSchema = try folder.file(
            "list.schema.json", #"{"properties":{"list":{"items":{"type":"integer"}},"note":{"type":"string"}}}"#)
        let elements = (0..<3_000).map { $0 == 2_500 ? #""bad""# : String($0) }.joined(separator: ",")
        let long = String(repeating: "x", count: 5_000)
        let data = try folder.file("big.ndjson", #"{"note":"\#(long)","list":[\#(elements)]}"# + "\n")
        let summaryPath = folder.path + "/s.json"
        let page = folder.path + "/r.html"
        #expect(
            try CLIRun(["validate", "-s", listSchema, "--summary", summaryPath, "--report", page, data]).status == 1)
        let summary = object(try json(summaryPath))
        let example = object(
            array(object(array(object(array(summary["paths"]).first)["keywords"]).first)["examples"]).first)
        #expect(example["excerpt"] == .bool(true))
        #expect(example["document"]!.jsonBytes().count < 1_000)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(
            html.contains("<mark title=\"List/2500 must be of type integer\">&quot;bad&quot;</mark>")
                || html.contains(">&quot;bad&quot;</mark>"))
        #expect(html.contains("… 2500 more elements"))
    }

    @Test("the summary's schema in docs/ is the one the reader checks with")
    func documentedSchema() throws {
        let documented = try JSONValue(
            parsing: String(contentsOfFile: CLIRun.repository + "/docs/run-summary.schema.json", encoding: .utf8))
        #expect(documented == (try JSONValue(parsing: RunSummary.schemaText)))
    }

    @Test("JSON and YAML files are summarised too, a YAML document that does not parse among them")
    func yamlAndJSON() throws {
        let folder = try TemporaryFolder()
        let configSchema = CLIRun.example("config/service.schema.json")
        let yaml = try folder.file("c.yaml", "service: X\nlisten: 1\n---\nservice: [\n")
        let summaryPath = folder.path + "/s.json"
        #expect(try CLIRun(["validate", "-s", configSchema, "--summary", summaryPath, yaml]).status == 1)
        let summary = object(try json(summaryPath))
        #expect(int(object(summary["totals"])["documents"]) == 2)
        #expect(counts(summary["keywords"], key: "keyword")["(not read)"] == 1)
        let sources = array(summary["paths"]).flatMap { array(object($0)["keywords"]) }
            .flatMap { array(object($0)["examples"]) }.map { string(object($0)["source"]) }
        #expect(sources.contains(yaml + "#1"))
        #expect(sources.contains(yaml + "#2"))
        // A JSON file's example is its document, from the tree built for it.
        let file = try folder.file("c.json", #"{"service": "X", "listen": 1}"#)
        #expect(try CLIRun(["validate", "-s", configSchema, "--summary", summaryPath, file]).status == 1)
        let examples = array(object(try json(summaryPath))["paths"]).flatMap { array(object($0)["keywords"]) }
            .flatMap { array(object($0)["examples"]) }.map(object)
        #expect(examples.contains { string($0["source"]) == file + "#1" && object($0["document"])["service"] == "X" })
    }

    @Test("a hostile summary: counts at Int.max, a tiny time, markers of huge runs — drawn and merged, no trap")
    func hostileSummary() throws {
        var summary = RunSummary()
        summary.documents = Int.max
        summary.invalid = Int.max
        summary.errors = Int.max
        summary.seconds = 1e-300
        summary.errorsPerDocument[0] = Int.max
        summary.keywords = ["type": Int.max]
        let marker = JSONValue.string("\u{2026} 9223372036854775807 more elements")
        let example = RunSummary.Example(source: "s", document: [marker, marker, 1], excerpt: true, errors: [])
        summary.paths = [
            .init(
                path: "/a", errors: Int.max, overcount: Int.max, documents: Int.max,
                keywords: [.init(keyword: "type", errors: Int.max, documents: Int.max, examples: [example])])
        ]
        summary.unlistedAtMost = Int.max
        summary.distinctSketch = Array(repeating: 63, count: 1024)
        let merged = try RunSummary.merged([("a", summary), ("b", summary)])
        #expect(merged.documents == Int.max)
        #expect(merged.paths.first?.errors == Int.max)
        #expect(HTMLReport(merged).render().contains(#"data-metric="documents" data-value="\#(Int.max)""#))
        #expect(TerminalSummary.render(merged, color: false).contains("/a"))
        #expect(try RunSummary(json: merged.json, file: "m").documents == Int.max)
    }

    @Test("--summary or --report that cannot be written: exit 2, and no output is replaced")
    func unwritable() throws {
        let folder = try TemporaryFolder()
        let valid = try folder.file("valid.ndjson", "old\n")
        let missing = try CLIRun([
            "validate", "-s", schema, "--valid-out", valid, "--report", folder.path + "/no/such/folder/r.html", clients,
        ])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("r.html: cannot be written"))
        #expect(try String(contentsOfFile: valid, encoding: .utf8) == "old\n")
        if FileManager.default.fileExists(atPath: "/dev/full") {
            let full = try CLIRun(["validate", "-s", schema, "--valid-out", valid, "--summary", "/dev/full", clients])
            #expect(full.status == 2)
            #expect(full.standardError.contains("/dev/full: cannot be written"))
            #expect(try String(contentsOfFile: valid, encoding: .utf8) == "old\n")
        }
        #expect(folder.names == ["valid.ndjson"])
    }

    @Test("merged one at a time: the inputs listed stop at 100, the rest counted, and counted again by a later merge")
    func mergedInputs() throws {
        var parts: [(file: String, summary: RunSummary)] = []
        for index in 0..<105 {
            var part = RunSummary()
            part.inputs = ["part-\(index).ndjson"]
            part.documents = 1
            parts.append(("p\(index)", part))
        }
        var merged = try RunSummary.merged(Array(parts.prefix(2)))
        for part in parts.dropFirst(2) { merged = try RunSummary.merged([("m", merged), part]) }
        #expect(merged.inputs.count == 101)
        #expect(merged.inputs.last == "\u{2026} and 5 more")
        #expect(merged.shards == 105 && merged.documents == 105)
        var two = RunSummary()
        two.inputs = ["x.ndjson", "y.ndjson"]
        let again = try RunSummary.merged([("m", merged), ("two", two)])
        #expect(again.inputs.count == 101)
        #expect(again.inputs.last == "\u{2026} and 7 more")
    }

    @Test("a document nested 990 levels deep: its example is cut to 200 levels, and the summary reads back")
    func deepDocument() throws {
        let folder = try TemporaryFolder()
        let deepSchema = try folder.file(
            "deep.schema.json",
            #"{"type": "object"}"#
        )
        let data = try folder.file(
            "deep.ndjson", String(repeating: "[", count: 990) + "\"x\"" + String(repeating: "]", count: 990) + "\n")
        let summaryPath = folder.path + "/s.json"
        let run = try CLIRun(["validate", "-s", deepSchema, "--summary", summaryPath, data])
        #expect(run.status == 1)
        let page = folder.path + "/r.html"
        let render = try CLIRun(["report", summaryPath, "-o", page])
        #expect(render.status == 0, "\(render.standardError)")
        let text = try String(contentsOfFile: summaryPath, encoding: .utf8)
        #expect(text.contains("\u{2026} an array nested deeper"))
    }

    @Test("the table of paths costs O(log n) per error however many distinct paths come: counted heap moves")
    func boundedTableWork() throws {
        var moves: [Int] = []
        for count in [10_000, 40_000] {
            let collector = SummaryCollector(
                limits: RunSummary.Limits(paths: 1_000), language: .english, keepsExamples: false,
                redaction: Redaction())
            for index in 0..<count {
                // A key of its own per document (an id), and a path that keeps failing.
                let failures = [
                    FailedDocument.Failure(
                        location: IssuePath([.key("key-\(index)")]), keyword: "type", code: "wrongType"),
                    FailedDocument.Failure(location: ["age"], keyword: "type", code: "wrongType"),
                ]
                collector.add(FailedDocument(position: .line(index + 1), failures: failures), file: "f", text: nil)
            }
            let summary = collector.finish(schema: "s", inputs: [], seconds: 0)
            #expect(summary.paths.first?.path == "/age" && summary.paths.first?.overcount == 0)
            #expect(summary.paths.count == 1_000)
            // At most one sift (⌈log₂ 1,000⌉ = 10 levels) per error.
            #expect(collector.heapMoves <= 2 * count * 10)
            moves.append(collector.heapMoves)
        }
        // Four times the input, about four times the work (not sixteen).
        #expect(moves[1] <= 5 * moves[0])
    }
}
