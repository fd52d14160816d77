import AssayCore
import Foundation

/// Seed 002: a client from an API, with name, age and email rules.
public struct Client: Decodable, Validatable, Sendable {
    /// The name.
    public var name: String
    /// The age in years.
    public var age: Int
    /// The email address.
    public var email: String

    /// The rules.
    public static let validation: Validation<Client> = [
        .normalize(\.name, "name") { $0.trimmingCharacters(in: .whitespacesAndNewlines) },
        .property(\.name, "name", .length(2...100), .charset(.letters + .marks + .spaces)),
        .property(\.age, "age", .range(1...150)),
        .property(\.email, "email", .email()),
    ]
}

/// Seed 000: an NBA player; name not empty and age in [16, 50], checked before insert and update.
public struct Player: Decodable, Validatable, Sendable {
    /// The name.
    public var name: String
    /// The age in years.
    public var age: Int?
    /// The team, if any.
    public var team: String?

    /// The rules.
    public static let validation: Validation<Player> = [
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

    /// The player, by name, in issues.
    public var validationObject: ObjectReference? { ObjectReference(entity: "Player", id: name) }
}

/// Seed 001: a person; nobody under 16 may hold a driving licence, and a birthday lies between
/// 1900 and today.
public struct Person: Decodable, Validatable, Sendable {
    /// The name.
    public var name: String
    /// The date of birth.
    public var birthday: Date
    /// Whether the person holds a driving licence.
    public var hasDrivingLicense: Bool

    /// The earliest birthday accepted.
    public static let earliestBirthday = Date(timeIntervalSince1970: -2_208_988_800)  // 1900-01-01

    /// The rules.
    public static let validation: Validation<Person> = [
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
