import Foundation
import Testing

/// Every Swift snippet in README.md must be compiled: each is copied from a marked block of
/// `Sources/AssayExamples/ReadmeExamples.swift`, which the build compiles.
@Suite struct ReadmeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func compiledSnippets() throws -> [String: String] {
        var source = ""
        // The core's snippets, and the HTTP adapters' (compiled by the Integrations package's build).
        let files = [
            "Sources/AssayExamples/ReadmeExamples.swift", "Sources/AssayExamples/DocCExamples.swift",
            "Integrations/Examples/Snippets/HummingbirdSnippets.swift",
            "Integrations/Examples/Snippets/VaporSnippets.swift",
            "Integrations/Examples/Snippets/OpenAPISnippets.swift",
            "Integrations/Examples/NotesService/Sources/NotesService/NotesService.swift",
            "Integrations/Examples/ClientsService/Sources/ClientsService/ClientsService.swift",
        ]
        for file in files {
            source += try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        }
        var snippets: [String: String] = [:]
        var name: String?
        var indent = 0
        var lines: [String] = []
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == "// README: end", let current = name {
                snippets[current] = lines.joined(separator: "\n")
                name = nil
            } else if trimmed.hasPrefix("// README: ") {
                name = String(trimmed.dropFirst("// README: ".count))
                indent = line.prefix { $0 == " " }.count
                lines = []
            } else if name != nil {
                lines.append(trimmed.isEmpty ? "" : String(line.dropFirst(indent)))
            }
        }
        return snippets
    }

    /// The README's Swift blocks, each with the name of the `<!-- snippet: NAME -->` marker above it.
    static func readmeSnippets(in document: String = "README.md") throws -> [(name: String?, text: String)] {
        let readme = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
        var snippets: [(name: String?, text: String)] = []
        var current: [String]?
        var previous = ""
        var name: String?
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
                name =
                    previous.hasPrefix("<!-- snippet: ")
                    ? String(previous.dropFirst(14).dropLast(4))
                    : previous.hasPrefix("<!-- generated: ") || previous.hasPrefix("<!-- package: ")
                        ? String(previous.dropFirst(5).dropLast(4)) : nil
            } else if current != nil, line == "```" {
                snippets.append((name, current!.joined(separator: "\n")))
                current = nil
            } else if current != nil {
                current!.append(String(line))
            }
            previous = String(line)
        }
        return snippets
    }

    @Test func everyReadmeSnippetIsCompiled() throws {
        let compiled = try Self.compiledSnippets()
        let snippets = try Self.readmeSnippets()
        #expect(snippets.count >= 11)
        // A block under `<!-- generated: SCHEMA -->` is `assay generate swift`'s output for SCHEMA:
        // AssayGeneratorTests compares it with the generator's output and compiles it.
        // A block under `<!-- package: FILE -->` is part of a package manifest: its lines are FILE's, in
        // order (FILE may have more between them).
        for snippet in snippets {
            guard let file = snippet.name, file.hasPrefix("package: ") else { continue }
            let manifest = try String(
                contentsOf: Self.root.appendingPathComponent(String(file.dropFirst(9))), encoding: .utf8)
            var rest = manifest.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }[...]
            for line in snippet.text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                guard let found = rest.firstIndex(of: line) else {
                    Issue.record("README's \(file) block: \"\(line)\" is not there (in this order)")
                    break
                }
                rest = rest[(found + 1)...]
            }
        }
        for snippet in snippets
        where snippet.name.map({ $0.hasPrefix("generated: ") || $0.hasPrefix("package: ") }) != true {
            let name = try #require(snippet.name, "a Swift block without a snippet marker:\n\(snippet.text)")
            let source = try #require(compiled[name], "no snippet named \(name) in ReadmeExamples.swift")
            let matches = source == snippet.text
            #expect(
                matches, "README snippet \(name) differs from ReadmeExamples.swift: run scripts/sync-readme-snippets.py"
            )
        }
    }

    /// The DocC articles' Swift blocks are compiled the same way (from DocCExamples.swift).
    @Test func everyDocCArticleSnippetIsCompiled() throws {
        let compiled = try Self.compiledSnippets()
        var articles: [String] = []
        // The core's modules and the HTTP adapters' (Integrations/, whose snippets are compiled there).
        for sources in ["Sources", "Integrations/Sources"] {
            for module in try FileManager.default.contentsOfDirectory(
                atPath: Self.root.appendingPathComponent(sources).path)
            {
                let folder = "\(sources)/\(module)/Documentation.docc"
                guard
                    let files = try? FileManager.default.contentsOfDirectory(
                        atPath: Self.root.appendingPathComponent(folder).path)
                else { continue }
                articles += files.filter { $0.hasSuffix(".md") }.map { "\(folder)/\($0)" }
            }
        }
        var checked = 0
        for article in articles.sorted() {
            for snippet in try Self.readmeSnippets(in: article) {
                let name = try #require(
                    snippet.name, "\(article): a Swift block without a snippet marker:\n\(snippet.text)")
                let source = try #require(
                    compiled[name], "\(article): no snippet named \(name) in Sources/AssayExamples")
                #expect(
                    source == snippet.text,
                    "\(article): snippet \(name) differs from Sources/AssayExamples: run scripts/sync-readme-snippets.py"
                )
                checked += 1
            }
        }
        #expect(checked >= 19)
    }

    /// Doc comments' examples are compiled the same way: each is marked `/// <!-- snippet: NAME -->`
    /// and copied from Sources/AssayExamples; an example without a marker fails.
    @Test func docCommentSnippetsAreCompiled() throws {
        let compiled = try Self.compiledSnippets()
        var marked = 0
        var unmarked: [String] = []
        // The core's sources and the adapters' (Integrations/Sources).
        let files = ["Sources", "Integrations/Sources"].flatMap { folder in
            (FileManager.default.enumerator(atPath: Self.root.appendingPathComponent(folder).path)?
                .compactMap { $0 as? String } ?? []).map { "\(folder)/\($0)" }
        }
        for file in files.sorted() where file.hasSuffix(".swift") && !file.hasPrefix("Sources/AssayExamples/") {
            let lines = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var index = 0
            while index < lines.count {
                defer { index += 1 }
                guard lines[index].trimmingCharacters(in: .whitespaces) == "/// ```swift" else { continue }
                let indent = String(lines[index].prefix { $0 == " " })
                var body: [String] = []
                var end = index + 1
                while end < lines.count, lines[end] != indent + "/// ```" {
                    let line = String(lines[end].dropFirst(indent.count + 3))
                    body.append(line.hasPrefix(" ") ? String(line.dropFirst()) : line)
                    end += 1
                }
                let marker = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
                if marker.hasPrefix("/// <!-- snippet: ") {
                    let name = String(marker.dropFirst("/// <!-- snippet: ".count).dropLast(" -->".count))
                    let source = try #require(
                        compiled[name], "\(file): no snippet named \(name) in Sources/AssayExamples")
                    #expect(
                        source == body.joined(separator: "\n"),
                        "\(file): snippet \(name) differs from Sources/AssayExamples: run scripts/sync-readme-snippets.py"
                    )
                    marked += 1
                } else {
                    unmarked.append("\(file):\(index + 1)")
                }
                index = end
            }
        }
        #expect(marked >= 38)
        #expect(unmarked.isEmpty, "examples in doc comments that no build compiles: \(unmarked)")
    }

    /// What the snippets print is what their comments say: `print(x)  // VALUE` needs an output line
    /// of `swift run assay-examples --readme` (checked in as Examples/readme-output.expected, which CI
    /// compares with a fresh run) that holds VALUE — up to the first `: `, `, ` or `…` of the comment,
    /// which start an explanation or mark an excerpt.
    @Test func readmeOutputsAreWhatTheCommentsSay() throws {
        let output = try String(
            contentsOf: Self.root.appendingPathComponent("Examples/readme-output.expected"), encoding: .utf8
        ).split(separator: "\n").map(String.init)
        var checked = 0
        for (_, source) in try Self.compiledSnippets() {
            for line in source.split(separator: "\n") where line.contains("print(") && line.contains("  // ") {
                var claim = String(line.components(separatedBy: "  // ")[1])
                for marker in [": ", ", ", "…"] { claim = claim.components(separatedBy: marker)[0] }
                claim = claim.trimmingCharacters(in: .whitespaces)
                guard !claim.isEmpty else { continue }
                #expect(output.contains { $0.contains(claim) }, "\(line)")
                checked += 1
            }
        }
        #expect(checked >= 20)
    }

    @Test func readmeStartsWithTheTwoSetUpCommands() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let firstBlock = try #require(readme.components(separatedBy: "```sh\n").dropFirst().first)
        let commands = firstBlock.components(separatedBy: "```")[0].split(separator: "\n")
        #expect(commands.count == 2)
        #expect(commands[0].hasPrefix("swift run "))
        #expect(commands[1].hasPrefix("swift test"))
    }
}
