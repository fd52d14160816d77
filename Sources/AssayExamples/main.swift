import AssayCore
import AssaySeedModels
import Foundation

// Validates the seed examples' data in a folder (default Examples/seeds) and prints every issue:
//   swift run assay-examples [FOLDER] [--lang en|ru|zh-Hans]
//   swift run assay-examples --readme      runs the README's snippets
// Exit status: 0 after printing the report, 2 when a file cannot be read or decoded.

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["--readme"] {
    // Runs the README's snippets (Sources/AssayExamples/ReadmeExamples.swift).
    try ReadmeExamples.ruleAlone()
    ReadmeExamples.combinedRules()
    ReadmeExamples.model()
    ReadmeExamples.crossProperty()
    ReadmeExamples.reporting(error: ValidationError(Rule<Int>.range(16...50).issues(for: 12, at: ["age"])))
    ReadmeExamples.catalogs()
    ReadmeExamples.email()
    try ReadmeExamples.patterns()
    try ReadmeExamples.jsonParsing()
    try ReadmeExamples.jsonLines(path: "Examples/seeds/clients.ndjson")
    ReadmeExamples.jsonDecoding()
    try ReadmeExamples.jsonSchema()
    try ReadmeExamples.codable()
    try StoreExample.run()
    // And the DocC articles' (Sources/AssayExamples/DocCExamples.swift).
    try DocCExamples.runAll()
    try DocCommentExamples.runAll()
    exit(0)
}
var chosenLanguage = Language.current
if let index = arguments.firstIndex(of: "--lang") {
    guard index + 1 < arguments.count, let chosen = Language(arguments[index + 1]) else {
        FileHandle.standardError.write(Data("assay-examples: --lang needs en, ru or zh-Hans\n".utf8))
        exit(2)
    }
    chosenLanguage = chosen
    arguments.removeSubrange(index...(index + 1))
}
let language = chosenLanguage
let folder = URL(fileURLWithPath: arguments.first ?? "Examples/seeds")

func load<T: Decodable>(_ type: T.Type, from name: String, in folder: URL) -> [T] {
    let url = folder.appendingPathComponent(name)
    do {
        let data = try Data(contentsOf: url)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = try? Date(text, strategy: Date.ISO8601FormatStyle().year().month().day()) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "not a date: \(text)"))
            }
            return date
        }
        return try decoder.decode([T].self, from: data)
    } catch {
        FileHandle.standardError.write(Data("assay-examples: \(url.path): \(error)\n".utf8))
        exit(2)
    }
}

func report<T: Validatable>(_ records: [T], file: String, operation: ValidationOperation?, language: Language) -> Int {
    var invalid = 0
    for (index, record) in records.enumerated() {
        let issues = record.issues(for: operation)
        guard !issues.isEmpty else { continue }
        invalid += 1
        for issue in issues {
            let pointer = IssuePath([.index(index)]).appending(contentsOf: issue.path).jsonPointer
            print("\(file): \(pointer): [\(issue.code)] \(issue.message(in: language))")
        }
    }
    print("\(file): \(records.count) records, \(invalid) invalid")
    return invalid
}

let clients = load(Client.self, from: "clients.json", in: folder)
let players = load(Player.self, from: "players.json", in: folder)
let people = load(Person.self, from: "people.json", in: folder)
_ = report(clients, file: "clients.json", operation: nil, language: language)
_ = report(players, file: "players.json", operation: .insert, language: language)
_ = report(people, file: "people.json", operation: .insert, language: language)

// The same Player errors as Core Data reports them: one NSError, code 1560, NSDetailedErrors.
do {
    try Language.withCurrent(language) { try players[2].validate(for: .insert) }
} catch let error as ValidationError {
    let nsError = error.nsError
    print(
        "NSError domain=\(nsError.domain) code=\(nsError.code) details=\((nsError.userInfo["NSDetailedErrors"] as? [NSError])?.count ?? 0)"
    )
} catch {
    print("unexpected error: \(error)")
}
