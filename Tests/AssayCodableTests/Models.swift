import AssayCodable
import AssayCore
import Foundation

/// Seed 002's client, declared with attributes.
@Validatable
struct Client: Codable, Equatable {
    @Normalize(.trimmed) @Validate(.length(2...100), .charset(.letters + .marks + .spaces))
    var name: String
    @Validate(.range(1...150)) var age: Int
    @Normalize(.trimmed) @Validate(.email()) var email: String
}

/// Seed 002's value types.
struct Age: ValidatedValue, Equatable {
    static let rule = Rule<Int>.range(1...150)
    let rawValue: Int
    init(checked: Checked<Int>) { rawValue = checked.rawValue }
}

struct Name: ValidatedValue, Equatable {
    static let rule = Rule<String>.length(2...100).and(.charset(.letters + .marks + .spaces))
    static func normalized(_ rawValue: String) -> String { Normalizer.trimmed.transform(rawValue) }
    let rawValue: String
    init(checked: Checked<String>) { rawValue = checked.rawValue }
}

struct Email: ValidatedValue, Equatable {
    static let rule = Rule<String>.email()
    static func normalized(_ rawValue: String) -> String { Normalizer.trimmed.transform(rawValue) }
    let rawValue: String
    init(checked: Checked<String>) { rawValue = checked.rawValue }
}

/// The seed's "secure" client, made of the value types.
@Validatable
struct SecureClient: Codable, Equatable {
    let name: Name
    let age: Age
    let email: Email
}

/// Nested models, optionals, defaults, custom keys and a lossy array.
@Validatable
struct Address: Codable, Equatable {
    @Validate(.notBlank) var street: String
    @Validate(.matches("^[0-9]{5}$")) var zip: String
}

@Validatable
struct Customer: Codable, Equatable {
    @Key("full_name") @Validate(.length(2...50)) var fullName: String
    var address: Address
    var previous: [Address]
    var billing: Address?
    @Validate(.length(1...20)) var nickname: String?
    @Required var referrer: String?
    @Validate(.oneOf(["user", "admin"])) var role: String = "user"
    @Lossy @Validate(.count(...5), .each(.length(1...10))) var tags: [String] = []
    let kind: String = "customer"
}

/// Seed 000's player: name not empty and age 16–50 on insert and update.
@Validatable
struct Player: Codable, Equatable {
    @Normalize(.trimmed)
    @Validate(
        Rule.notBlank.message([
            .english: "Player's name should not be empty.",
            .russian: "Имя игрока не должно быть пустым.",
            .simplifiedChinese: "球员姓名不能为空。",
        ]), on: [.insert, .update])
    var name: String
    @Validate(
        Rule.range(16...50).message([
            .english: "Player's age should be in [16, 50].",
            .russian: "Возраст игрока должен быть в пределах [16, 50].",
            .simplifiedChinese: "球员年龄应在 [16, 50] 之间。",
        ]), on: [.insert, .update])
    var age: Int
}

/// Seed 001's person: nobody under 16 may hold a driving licence.
@Validatable
struct Person: Codable, Equatable {
    @Validate(.length(1...)) var name: String
    var birthday: Date
    var hasDrivingLicense: Bool

    @Check(on: [.insert, .update], when: .propertiesValid)
    static func drivingLicenceAge(_ person: Person, _ context: inout RuleContext) {
        guard person.hasDrivingLicense else { return }
        let age = Calendar(identifier: .gregorian).dateComponents([.year], from: person.birthday, to: .now).year ?? 0
        if age < 16 {
            context.report(
                .custom("tooYoungToDrive"), at: "hasDrivingLicense", value: person.hasDrivingLicense,
                message: [
                    .english: "Person is too young to have a driving license.",
                    .russian: "Человек слишком молод, чтобы иметь водительские права.",
                    .simplifiedChinese: "此人年龄太小，不能持有驾驶执照。",
                ])
        }
    }
}

/// Attributes plus entries of AssayCore's list form.
@Validatable
struct Booking: Codable, Equatable {
    @Validate(.range(1...10)) var guests: Int
    var nights: Int

    static let additionalRules: Validation<Booking> = [
        .check("stayLength") { booking, context in
            if booking.nights > booking.guests * 30 {
                context.report(.custom("tooLong"), at: "nights", message: "{subject} is too long a stay")
            }
        }
    ]
}

/// Arrays of scalars, for the decoder's whole-array fast path and its element-by-element fallback.
@Validatable
struct Survey: Codable, Equatable {
    @Validate(.each(.range(1...5))) var scores: [Int]
    var labels: [String]
    @Validate(Rule<[Double]>.count(1...2)) var weights: [Double]?
    @Validate(Rule<[Int]>.unique) var codes: [Int]?
}

/// A model whose `init(from:)` is written by hand with `FieldDecoder`, as its documentation shows;
/// `inPlace` picks `validate(&self)` (what `@Validatable` writes) or `self = validated(self)`.
struct HandDecodedMember: Decodable, Validatable, Equatable {
    var name: String
    var age: Int

    static let validation: Validation<HandDecodedMember> = [
        .normalize(\.name, "name") { $0.trimmingCharacters(in: .whitespaces) },
        .property(\.name, "name", .length(2...100)),
        .property(\.age, "age", .range(1...150)),
    ]

    /// `inPlace` is read from the container directly, not by the field decoder.
    enum CodingKeys: String, CodingKey { case name, age, inPlace }

    init(name: String, age: Int) {
        self.name = name
        self.age = age
    }

    init(from decoder: any Decoder) throws {
        var fields = try FieldDecoder<Self, CodingKeys>(decoder)
        let name = fields.decode(String.self, forKey: .name)
        let age = fields.decode(Int.self, forKey: .age)
        guard let name, let age, fields.isComplete else {
            throw fields.failure(checking: [DecodedField("name", name), DecodedField("age", age)])
        }
        self.name = name
        self.age = age
        // The container stays available for what the field decoder does not cover.
        let inPlace = (try? fields.container.decodeIfPresent(Bool.self, forKey: .inPlace)) ?? nil
        if inPlace ?? true {
            try fields.validate(&self)
        } else {
            self = try fields.validated(self)
        }
    }
}
