import AssayGRDB
import Foundation
import GRDB
import RosterKit

// Usage: StoreBench VARIANT [PLAYERS]   (default 100000)
// Inserts PLAYERS players of the roster example into a fresh SQLite file that already holds the teams
// (15 players a team), in one transaction, and prints one line:
// variant=… seconds=… records=… records_per_s=…
// Only the inserts and the commit are timed; creating the file and the teams is not.
let variants = [
    "plain",  // GRDB alone: a Codable record without rules, inserted one by one in one write transaction
    "hooks",  // RosterKit.Player, each insert checked by its persistence callback (value and store rules)
    "changeset",  // RosterKit.Player staged in a ChangeSet, validated together, then written in one transaction
    "rules",  // the players' value rules alone (Validation.run per player), no database: a part of changeset
]
let arguments = CommandLine.arguments
guard (2...3).contains(arguments.count), variants.contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: StoreBench {\(variants.joined(separator: "|"))} [PLAYERS]\n".utf8))
    exit(2)
}
let variant = arguments[1]
let count = arguments.count == 3 ? Int(arguments[2]) ?? 100_000 : 100_000

/// The same rows as RosterKit.Player, without rules.
struct PlainPlayer: Codable, MutablePersistableRecord {
    static let databaseTableName = "player"
    var id: Int64?
    var name: String
    var age: Int
    var team: String
}

func teamName(_ index: Int) -> String { "Team \(index / 15)" }

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let roster = try Roster(path: folder.appendingPathComponent("roster.sqlite").path)
try roster.database.write { db in
    for team in 0..<((count + 14) / 15) {
        try db.execute(sql: "INSERT INTO team (name) VALUES (?)", arguments: [teamName(team * 15)])
    }
}
let players = (0..<count).map { Player(name: "Player \($0)", age: 16 + $0 % 35, team: teamName($0)) }
let plain = players.map { PlainPlayer(name: $0.name, age: $0.age, team: $0.team) }

let clock = ContinuousClock()
let start = clock.now
switch variant {
case "plain":
    try roster.database.write { db in
        for var player in plain { try player.insert(db) }
    }
case "hooks":
    try roster.database.write { db in
        for var player in players { try player.insert(db) }
    }
case "rules":
    var issues = 0
    let rulesStart = clock.now
    // STORE_BENCH_RULES_REPEAT=N repeats the rules N times (for a profile of the rules alone).
    let repeats = ProcessInfo.processInfo.environment["STORE_BENCH_RULES_REPEAT"].flatMap(Int.init) ?? 1
    for _ in 0..<repeats {
        for player in players { issues += Player.validation.run(on: player, operation: .insert).issues.count }
    }
    FileHandle.standardError.write(Data("rules alone: \(clock.now - rulesStart)\n".utf8))
    try roster.database.write { db in
        for var player in plain { try player.insert(db) }  // so the count check below holds
    }
    if issues != 0 { exit(1) }
default:
    var changes = ChangeSet()
    for player in players { changes.insert(player) }
    try changes.save(to: roster.database)
}
let elapsed = clock.now - start
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
let stored = try roster.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? 0 }
guard stored == count else {
    FileHandle.standardError.write(Data("expected \(count) players in the database, found \(stored)\n".utf8))
    exit(1)
}
print(
    "variant=\(variant) seconds=\(String(format: "%.4f", seconds)) records=\(count) "
        + "records_per_s=\(Int(Double(count) / seconds))")
