import AssayCore
import Foundation

/// Seed 002: a client from an API, with name, age and email rules.
struct Client: Decodable, Validatable {
    var name: String
    var age: Int
    var email: String

    static let validation: Validation<Client> = [
        .normalize(\.name, "name") { $0.trimmingCharacters(in: .whitespacesAndNewlines) },
        .property(\.name, "name", .length(2...100), .charset(.letters + .marks + .spaces)),
        .property(\.age, "age", .range(1...150)),
        .property(\.email, "email", .email()),
    ]
}

/// Seed 000: an NBA player; name not empty and age in [16, 50], checked before insert and update.
struct Player: Decodable, Validatable {
    var name: String
    var age: Int?
    var team: String?

    static let validation: Validation<Player> = [
        .normalize(\.name, "name") { $0.trimmingCharacters(in: .whitespaces) },
        .property(
            \.name, "name", on: [.insert, .update],
            Rule.notBlank.message([
                .english: "Player's name should not be empty.",
                .russian: "Имя игрока не должно быть пустым.",
                .simplifiedChinese: "球员姓名不能为空。",
            ])),
        .required(\.age, "age", on: [.insert, .update]),
        .property(
            \.age, "age", on: [.insert, .update],
            Rule.range(16...50).message([
                .english: "Player's age should be in [16, 50].",
                .russian: "Возраст игрока должен быть в пределах [16, 50].",
                .simplifiedChinese: "球员年龄应在 [16, 50] 之间。",
            ])),
    ]

    var validationObject: ObjectReference? { ObjectReference(entity: "Player", id: name) }
}

/// Seed 001: a person; nobody under 16 may hold a driving licence, and a birthday lies between
/// 1900 and today.
struct Person: Decodable, Validatable {
    var name: String
    var birthday: Date
    var hasDrivingLicense: Bool

    static let earliestBirthday = Date(timeIntervalSince1970: -2_208_988_800)  // 1900-01-01

    static let validation: Validation<Person> = [
        .property(
            \.birthday, "birthday", .range(earliestBirthday...),
            .custom("notInFuture", message: "{subject} must not be in the future") { $0 <= Date.now }),
        .check("drivingLicenceAge", on: [.insert, .update], when: .propertiesValid) { person, context in
            guard person.hasDrivingLicense else { return }
            let calendar = Calendar(identifier: .gregorian)
            let age = calendar.dateComponents([.year], from: person.birthday, to: .now).year ?? 0
            if age < 16 {
                context.report(
                    .custom("tooYoungToDrive"), at: "hasDrivingLicense", value: person.hasDrivingLicense,
                    message: [
                        .english: "Person is too young to have a driving license.",
                        .russian: "Человек слишком молод, чтобы иметь водительские права.",
                        .simplifiedChinese: "此人年龄太小，不能持有驾驶执照。",
                    ])
            }
        },
    ]
}
