import Foundation
import Testing

@testable import AssayCore
@testable import AssaySeedModels

// The seed models are the example program's own (Sources/AssaySeedModels/SeedModels.swift):
// Player (seed 000), Person (seed 001) and Client (seed 002).

struct Team: Validatable {
    var name: String
    var players: [Player]
    var captain: Player

    static let validation: Validation<Team> = [
        .property(\.name, "name", .notBlank),
        .property(\.players, "players", .count(...15)),
        .nested(\.players, "players"),
        .nested(\.captain, "captain"),
    ]
}

@Suite struct SeedModelTests {
    // Seed 000, word for word in three languages, and the 1560 aggregate Core Data reports.
    @Test func playerWithEmptyNameAndBadAgeFailsInsertWithBothErrors() throws {
        let player = Player(name: "   ", age: 12, team: nil)
        // Its rules are declared `on: [.insert, .update]`: an on-demand check does not run them,
        // and `isValid(for:)` asks what a save will.
        #expect(player.isValid)
        #expect(!player.isValid(for: .insert) && !player.isValid(for: .update))
        #expect(player.isValid(for: .delete))
        do {
            try player.validate(for: .insert)
            Issue.record("an invalid player was accepted")
        } catch {
            #expect(error.issues.map(\.path.jsonPointer) == ["/name", "/age"])
            #expect(error.issues.map(\.code) == [.blank, .tooSmall])
            #expect(
                error.text(in: .english)
                    == "/name: Player's name should not be empty.\n/age: Player's age should be in [16, 50].")
            #expect(
                error.text(in: .russian)
                    == "/name: Имя игрока не должно быть пустым.\n/age: Возраст игрока должен быть в пределах [16, 50]."
            )
            #expect(error.text(in: .simplifiedChinese) == "/name: 球员姓名不能为空。\n/age: 球员年龄应在 [16, 50] 之间。")
            #expect(error.issues.allSatisfy { $0.phase == .insert })
            #expect(error.issues[0].object == ObjectReference(entity: "Player", id: ""))
            #expect(error.nsError.code == 1560)
            #expect((error.nsError.userInfo["NSDetailedErrors"] as? [NSError])?.map(\.code) == [1570, 1620])
        }
    }

    @Test func playerRulesRunOnInsertAndUpdateOnly() throws {
        let player = Player(name: "", age: 99, team: nil)
        #expect(player.issues().isEmpty, "the rules are declared for insert and update")
        #expect(player.issues(for: .update).count == 2)
        #expect(player.issues(for: .delete).isEmpty, "nothing is declared for delete")
        #expect(player.issues(for: .custom("publish")).isEmpty)
    }

    @Test func missingAgeIsReportedOnce() {
        let issues = Player(name: "Yao Ming", age: nil, team: nil).issues(for: .insert)
        #expect(issues.map(\.code) == [.missing])
        #expect(issues[0].coreDataCode == 1570)
    }

    @Test func normalisedValueIsReturned() throws {
        let player = try Player(name: "  Yao Ming  ", age: 22, team: nil).validated(for: .insert)
        #expect(player.name == "Yao Ming")
    }

    // Seed 000's text field check: validate one value for one key before assigning it.
    @Test func formFieldValidationBeforeAssignment() throws {
        #expect(try Player.validate("  Kobe  ", for: \.name, operation: .insert) == "Kobe")
        #expect(throws: ValidationError.self) { try Player.validate("   ", for: \.name, operation: .insert) }
        do {
            try Player.validate(Optional(60), for: \.age, operation: .insert)
            Issue.record("60 accepted")
        } catch {
            #expect(error.issues.map(\.path.jsonPointer) == ["/age"])
            #expect(error.issues[0].message(in: .english) == "Player's age should be in [16, 50].")
        }
        // By key name, as Core Data's validateValue(_:forKey:) does; a wrong type is reported, not trapped.
        #expect(throws: ValidationError.self) { try Player.validate("  ", forKey: "name", operation: .update) }
        do {
            try Player.validate(42, forKey: "name", operation: .update)
            Issue.record("an Int accepted for a String")
        } catch {
            #expect(error.issues.map(\.code) == [.typeMismatch])
            #expect(error.issues[0].parameters["expected"] == "String")
        }
        #expect(try Player.validate("Yao", forKey: "name", operation: .update) as? String == "Yao")
    }

    // Seed 001: the inter-property rule.
    @Test func underageDriverIsRejectedOnInsertAndUpdate() throws {
        let tenYearsAgo = Date.now.addingTimeInterval(-10 * 365.25 * 86_400)
        let child = Person(name: "Tom", birthday: tenYearsAgo, hasDrivingLicense: true)
        for operation in [ValidationOperation.insert, .update] {
            let issues = child.issues(for: operation)
            #expect(issues.map(\.code) == [.custom("tooYoungToDrive")])
            #expect(issues[0].path.jsonPointer == "/hasDrivingLicense")
            #expect(issues[0].ruleLocation == "drivingLicenceAge")
            #expect(issues[0].message(in: .english) == "Person is too young to have a driving license.")
            #expect(issues[0].message(in: .russian) == "Человек слишком молод, чтобы иметь водительские права.")
            #expect(issues[0].message(in: .simplifiedChinese) == "此人年龄太小，不能持有驾驶执照。")
        }
        #expect(child.issues().isEmpty, "the check is declared for insert and update")
        let adult = Person(name: "Ada", birthday: Date(timeIntervalSince1970: 0), hasDrivingLicense: true)
        #expect(adult.issues(for: .insert).isEmpty)
        let childWithoutLicence = Person(name: "Eve", birthday: tenYearsAgo, hasDrivingLicense: false)
        #expect(childWithoutLicence.issues(for: .insert).isEmpty)
    }

    @Test func objectCheckWaitsForValidProperties() {
        // A birthday in the future fails its property rule, so the licence check does not run on it.
        let future = Person(name: "Zed", birthday: Date.now.addingTimeInterval(86_400 * 30), hasDrivingLicense: true)
        let issues = future.issues(for: .insert)
        #expect(issues.map(\.code) == [.custom("notInFuture")])
        #expect(issues[0].message(in: .english) == "Birthday must not be in the future")
        let ancient = Person(
            name: "Old", birthday: Date(timeIntervalSince1970: -5_000_000_000), hasDrivingLicense: false)
        #expect(ancient.issues().map(\.code) == [.tooSmall])
        #expect(ancient.issues()[0].coreDataCode == 1640)
        #expect(ancient.issues()[0].message(in: .english) == "Birthday must be on or after 1900-01-01")
    }

    // Seed 002: the Client with name, age and email rules.
    @Test func clientReportsEveryBadField() {
        let client = Client(name: "J", age: 150_000, email: "Hello")
        let issues = client.issues()
        #expect(issues.map(\.path.jsonPointer) == ["/name", "/age", "/email"])
        #expect(issues.map(\.code) == [.tooShort, .tooLarge, .invalidFormat("email")])
        #expect(issues.map(\.ruleLocation) == ["Client.name: length", "Client.age: range", "Client.email: email"])
        #expect(
            issues.map { $0.message(in: .english) } == [
                "Name must be between 2 and 100 characters long",
                "Age must be between 1 and 150",
                "Email must be a valid email address: it has no @ sign",
            ])
        #expect(
            issues.map { $0.message(in: .russian) } == [
                "Значение поля «name» должно содержать от 2 до 100 символов",
                "Значение поля «age» должно быть от 1 до 150",
                "Значение поля «email» должно быть корректным адресом электронной почты: в нём нет знака @",
            ])
        #expect(
            issues.map { $0.message(in: .simplifiedChinese) } == [
                "name的长度必须在 2 到 100 个字符之间",
                "age必须在 1 到 150 之间",
                "email必须是有效的电子邮件地址：缺少 @ 符号",
            ])
        #expect(Client(name: " John Doe ", age: 35, email: "john@doe.test").isValid)
        #expect(Client(name: "王小明", age: 41, email: "xiaoming@例子.中国").isValid)
        #expect(!Client(name: "John@Doe", age: 35, email: "john@doe.test").isValid)
    }

    @Test func nestedModelsReportUnderTheirPaths() {
        let team = Team(
            name: " ",
            players: [Player(name: "Ok Player", age: 20, team: nil), Player(name: "", age: 60, team: nil)]
                + Array(repeating: Player(name: "P", age: 20, team: nil), count: 14),
            captain: Player(name: "Cap", age: 70, team: nil))
        let issues = team.issues(for: .insert)
        #expect(
            issues.map(\.path.jsonPointer) == [
                "/name", "/players", "/players/1/name", "/players/1/age", "/captain/age",
            ])
        #expect(issues[1].code == .tooMany)
    }

    @Test func normaliserThatNeverSettlesIsStopped() {
        struct Counter: Validatable {
            var value: Int
            static let validation: Validation<Counter> = [.normalize(\.value, "value") { $0 + 1 }]
        }
        let issues = Counter(value: 0).issues()
        #expect(issues.map(\.code) == [.unstable])
        #expect(issues[0].path.jsonPointer == "/value")
        #expect(issues[0].message(in: .english) == "Value kept changing after 8 normalisation passes")
        #expect(throws: ValidationError.self) { try Counter.validate(1, for: \.value) }
        // A bound below one, set after the fact, counts as one pass: never a trap.
        var validation = Counter.validation
        validation.maximumNormalizationPasses = -3
        #expect(validation.maximumNormalizationPasses == 1)
        #expect(validation.issues(of: Counter(value: 0), operation: nil).map(\.code) == [.unstable])
    }

    @Test func normalisersReachASteadyState() throws {
        struct Tag: Validatable {
            var text: String
            static let validation: Validation<Tag> = [
                .normalize(\.text, "text") { $0.lowercased() },
                .normalize(\.text, "text") { $0.replacingOccurrences(of: "  ", with: " ") },
            ]
        }
        #expect(try Tag(text: "A    B").validated().text == "a b")
    }

    @Test func concurrentValidationIsSafe() async {
        let clients = (0..<200).map { Client(name: $0.isMultiple(of: 2) ? "Ann Lee" : "X", age: $0, email: "a@b.c") }
        let counts = await withTaskGroup(of: Int.self) { group in
            for client in clients { group.addTask { client.issues().count } }
            var total = 0
            for await count in group { total += count }
            return total
        }
        // 100 odd clients have a one-letter name; ages 0 and 151...199 are out of range.
        #expect(counts == 100 + 1 + 49)
    }
}
