import Foundation
import Testing

/// Every Swift snippet in README.md must be compiled: each is copied from a marked block of
/// `Sources/AssayExamples/ReadmeExamples.swift`, which the build compiles.
@Suite struct ReadmeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func compiledSnippets() throws -> [String: String] {
        let source = try String(
            contentsOf: root.appendingPathComponent("Sources/AssayExamples/ReadmeExamples.swift"), encoding: .utf8)
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

    static func readmeSnippets() throws -> [String] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        var snippets: [String] = []
        var current: [String]?
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if current != nil, line == "```" {
                snippets.append(current!.joined(separator: "\n"))
                current = nil
            } else if current != nil {
                current!.append(String(line))
            }
        }
        return snippets
    }

    @Test func everyReadmeSnippetIsCompiled() throws {
        let compiled = Set(try Self.compiledSnippets().values)
        let snippets = try Self.readmeSnippets()
        #expect(snippets.count >= 8)
        for snippet in snippets {
            let isCompiled = compiled.contains(snippet)
            #expect(isCompiled, "README snippet not found in ReadmeExamples.swift:\n\(snippet)")
        }
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
