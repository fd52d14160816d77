import AssayCore
import Foundation
import GRDB
import RosterKit
import Testing

/// A fresh folder for a roster database and its files.
func scratchFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("roster-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// A class, so that each test's folder is removed when it ends (`deinit`).
@Suite final class RosterToolTests {
    let folder: URL
    let db: String

    init() throws {
        folder = try scratchFolder()
        db = folder.appendingPathComponent("roster.sqlite").path
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func run(_ arguments: String...) -> RosterTool.Result {
        RosterTool.run(arguments + ["--db", db])
    }

    func write(_ json: String, to name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(json.utf8).write(to: url)
        return url.path
    }

    @Test func addListAndDelete() throws {
        #expect(run("add-team", "Lakers").output == "added team Lakers\n")
        #expect(run("add-team", "Bulls").status == 0)
        let added = run("add-player", "--name", "  LeBron James ", "--age", "39", "--team", "Lakers")
        #expect(added.output == "added player LeBron James (39) to Lakers\n")
        #expect(added.status == 0)
        let list = run("list")
        #expect(list.output == "Bulls (0 players)\nLakers (1 player)\n  LeBron James, 39\n")
        #expect(run("delete-team", "Bulls").status == 0)
        #expect(run("list").output == "Lakers (1 player)\n  LeBron James, 39\n")
    }

    @Test func everyIssueIsPrintedOnePerLineWithExitStatusOne() {
        _ = run("add-team", "Lakers")
        let duplicate = run("add-team", " Lakers ")
        #expect(duplicate.status == 1)
        #expect(duplicate.errors == "team /name: Name must be unique\n")
        let bad = run("add-player", "--name", "B", "--age", "12", "--team", "Knicks")
        #expect(bad.status == 1)
        #expect(
            bad.errors == """
                player /name: Name must be between 2 and 50 characters long
                player /age: Age must be between 16 and 50
                player /team: Team refers to a team that does not exist

                """)
        _ = run("add-player", "--name", "LeBron James", "--age", "39", "--team", "Lakers")
        let denied = run("delete-team", "Lakers")
        #expect(denied.status == 1)
        #expect(denied.errors == "team#1: team#1 cannot be deleted: 1 record in “players” still refers to it\n")
        #expect(run("delete-team", "Knicks").errors == "team#Knicks: Knicks does not exist\n")
    }

    @Test func messagesInTheChosenLanguage() {
        let russian = RosterTool.run([
            "add-player", "--name", "Bo", "--age", "60", "--team", "X", "--db", db, "--lang", "ru",
        ])
        #expect(russian.errors.contains("player /age: Значение поля «age» должно быть от 16 до 50"))
        let chinese = RosterTool.run(["add-team", "L", "--db", db, "--lang", "zh-Hans"])
        #expect(chinese.errors.hasPrefix("team /name: "))
        #expect(chinese.status == 1)
        #expect(RosterTool.run(["list", "--db", db, "--lang", "fr"]).status == 2)
    }

    @Test func importIsAllOrNothing() throws {
        _ = run("add-team", "Lakers")
        let good = try write(
            """
            [{"name": "LeBron James", "age": 39, "team": "Lakers"},
             {"name": " Anthony Davis ", "age": 31, "team": "Lakers"}]
            """, to: "good.json")
        let imported = run("import", good)
        #expect(imported.output == "imported 2 players\n")
        #expect(run("list").output.contains("  Anthony Davis, 31\n"))

        // Decoding reports every bad field of every element; nothing is saved.
        let malformed = try write(
            """
            [{"name": "Austin Reaves", "age": 26, "team": "Lakers"},
             {"name": "X", "age": "old", "team": "Lakers"},
             {"age": 70, "team": "Lakers"}]
            """, to: "malformed.json")
        let refused = run("import", malformed)
        #expect(refused.status == 1)
        #expect(
            refused.errors.split(separator: "\n").map { String($0.prefix(while: { $0 != ":" })) } == [
                "player#players[1] /age", "player#players[1] /name", "player#players[2] /name",
                "player#players[2] /age",
            ])

        // Bad fields and what the store's rules find are reported together, element by element.
        let mixed = try write(
            """
            [{"name": "Larry Bird", "age": 30, "team": "Celtix"},
             {"name": "X", "age": 26, "team": "Lakers"}]
            """, to: "mixed.json")
        #expect(
            run("import", mixed).errors == """
                player#players[0] /team: Team refers to a team that does not exist
                player#players[1] /name: Name must be between 2 and 50 characters long

                """)

        // Store rules see the whole file: 14 more players overflow the team (2 + 14 > 15), and a team
        // that does not exist is reported per player.
        var players = (0..<14).map { #"{"name": "Player \#($0)", "age": 20, "team": "Lakers"}"# }
        players.append(#"{"name": "Michael Jordan", "age": 30, "team": "Bulls"}"#)
        let overflow = try write("[" + players.joined(separator: ",") + "]", to: "overflow.json")
        let full = run("import", overflow)
        #expect(full.status == 1)
        #expect(
            full.errors == """
                player#players[14] /team: Team refers to a team that does not exist
                team#Lakers /players: Players must have at most 15 items

                """)
        #expect(run("list").output == "Lakers (2 players)\n  Anthony Davis, 31\n  LeBron James, 39\n")
    }

    @Test func unreadableInputAndMalformedJSONAreReported() throws {
        let missing = run("import", folder.appendingPathComponent("nope.json").path)
        #expect(missing.status == 2)
        #expect(missing.errors.hasPrefix("roster: cannot read "))
        let broken = try write("[{\"name\": ", to: "broken.json")
        let result = run("import", broken)
        #expect(result.status == 1)
        #expect(result.errors.contains("could not be read"))
        #expect(RosterTool.run(["list", "--db", "/nonexistent/folder/roster.sqlite"]).status == 2)
        #expect(RosterTool.run(["frobnicate"]).status == 2)
    }

    @Test func rowsWrittenByAnotherToolAreCheckedWhenRead() throws {
        _ = run("add-team", "Lakers")
        let queue = try DatabaseQueue(path: db)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO player (name, age, team) VALUES ('Old Timer', 70, 'Lakers')")
        }
        try queue.close()
        let list = run("list")
        #expect(list.status == 1)
        #expect(list.errors == "player#1 /age: Age must be between 16 and 50\n")
        // The rows that pass are still listed, and the others named.
        _ = run("add-player", "--name", "LeBron James", "--age", "39", "--team", "Lakers")
        let partial = run("list")
        #expect(partial.status == 1)
        #expect(partial.output == "Lakers (1 player)\n  LeBron James, 39\nnot shown, failing their rules: player#1\n")
    }

    @Test func oneFieldIsCheckedBeforeItIsSet() {
        let blank = run("check-field", "name", "   ")
        #expect(blank.status == 1)
        #expect(blank.errors == "player /name: Name must be between 2 and 50 characters long\n")
        #expect(run("check-field", "name", "  Jayson Tatum ").output == "name \"Jayson Tatum\" is valid\n")
        #expect(run("check-field", "age", "12").errors == "player /age: Age must be between 16 and 50\n")
        #expect(run("check-field", "age", "old").errors == "player /age: Age must be of type Int\n")
        let unknown = run("check-field", "height", "2")
        #expect(unknown.status == 1)
        #expect(unknown.errors.hasPrefix("player"))
    }

    @Test func errorsAsCoreDataReportsThem() {
        _ = run("add-team", "Lakers")
        let several = run("add-player", "--name", "   ", "--age", "12", "--team", "Lakers", "--errors", "nserror")
        #expect(several.status == 1)
        #expect(
            several.errors == """
                Error Domain=NSCocoaErrorDomain Code=1560 "/name: Name must be between 2 and 50 characters long; /age: Age must be between 16 and 50"
                NSDetailedErrors:
                  Error Domain=NSCocoaErrorDomain Code=1670 "name: Name must be between 2 and 50 characters long"
                  Error Domain=NSCocoaErrorDomain Code=1620 "age: Age must be between 16 and 50"

                """)
        let one = run("add-player", "--name", "Bo Jackson", "--age", "12", "--team", "Lakers", "--errors", "nserror")
        #expect(one.errors == "Error Domain=NSCocoaErrorDomain Code=1620 \"age: Age must be between 16 and 50\"\n")
        #expect(run("list", "--errors", "xml").status == 2)
    }

    /// The built `roster` executable, run as a user runs it, on one database, and the command run in
    /// process on another: the same output, errors and exit status at every step.
    @Test func theRealBinaryBehavesTheSame() throws {
        let executable = try rosterExecutable()
        let binaryDatabase = folder.appendingPathComponent("binary.sqlite").path
        func runBinary(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments + ["--db", binaryDatabase]
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let out = output.fileHandleForReading.readDataToEndOfFile()
            let err = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (
                process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self)
            )
        }
        let steps: [[String]] = [
            ["add-team", "Lakers"], ["add-team", " Lakers "],
            ["add-player", "--name", "B", "--age", "12", "--team", "Knicks", "--lang", "ru"],
            ["add-player", "--name", "LeBron James", "--age", "39", "--team", "Lakers"],
            ["add-player", "--name", "   ", "--age", "12", "--team", "Lakers", "--errors", "nserror"],
            ["check-field", "name", "   "], ["list"], ["delete-team", "Lakers", "--lang", "zh-Hans"], ["frobnicate"],
        ]
        var statuses: [Int32] = []
        for step in steps {
            let binary = try runBinary(step)
            let inProcess = RosterTool.run(step + ["--db", db])
            #expect(binary.status == inProcess.status, "\(step)")
            #expect(binary.output == inProcess.output, "\(step)")
            #expect(binary.errors == inProcess.errors, "\(step)")
            statuses.append(binary.status)
        }
        #expect(statuses == [0, 1, 1, 0, 1, 1, 0, 1, 2])
    }
}
