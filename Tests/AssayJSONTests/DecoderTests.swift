import AssayCore
import Foundation
import Testing

@testable import AssayJSON

struct Address: Codable, Equatable {
    var street: String
    var city: String
    var postcode: String
}

struct Client: Codable, Equatable {
    var id: String
    var name: String
    var age: Int
    var score: Double
    var active: Bool
    var tags: [String]
    var address: Address
    var managerId: String?
    var signup: Date
}

@Suite struct DecoderTests {
    let text = """
        {"id":"a1","name":"Анна","age":35,"score":22.45,"active":true,"tags":["x","y"],
         "address":{"street":"1 Main St","city":"Oslo","postcode":"0150"},
         "manager_id":null,"signup":"2024-02-29T12:00:00.5+01:00"}
        """

    @Test func decodesNestedTypesWithSnakeCaseAndDates() throws {
        var decoder = JSONValueDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let client = try decoder.decode(Client.self, from: Array(text.utf8))
        #expect(client.name == "Анна")
        #expect(client.address.postcode == "0150")
        #expect(client.managerId == nil)
        #expect(client.tags == ["x", "y"])
        #expect(client.signup.timeIntervalSince1970 == 1_709_204_400.5)
        // The same value through a JSONValue and a JSONDocument.
        #expect(try decoder.decode(Client.self, from: JSONValue(parsing: text)) == client)
        #expect(try decoder.decode(Client.self, from: JSONDocument(parsing: text)) == client)
    }

    @Test func agreesWithFoundationOnTheSameInput() throws {
        var ours = JSONValueDecoder()
        ours.keyDecodingStrategy = .convertFromSnakeCase
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        foundation.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            return RFC3339.dateTime(text)!
        }
        #expect(
            try ours.decode(Client.self, from: Array(text.utf8))
                == foundation.decode(Client.self, from: Data(text.utf8)))
    }

    @Test func aBadElementOfAScalarArrayIsNamedByItsIndex() {
        struct Tagged: Decodable { var tags: [String] }
        struct Outer: Decodable { var items: [Tagged] }
        let bad = #"{"items": [{"tags": ["a"]}, {"tags": ["b", 7]}]}"#
        do {
            _ = try JSONValueDecoder().decode(Outer.self, from: Array(bad.utf8))
            Issue.record("decoded")
        } catch {
            #expect(error.jsonPointer == "/items/1/tags/1")
            #expect(error.codingPath == "items[1].tags[1]")
        }
    }

    @Test func typeMismatchCarriesPathPointerLineAndColumn() {
        let bad = "{\n  \"clients\": [\n    {\"age\": 1},\n    {\"age\": \"12\"}\n  ]\n}"
        struct Wrapper: Decodable { var clients: [Item] }
        struct Item: Decodable { var age: Int }
        do {
            _ = try JSONValueDecoder().decode(Wrapper.self, from: Array(bad.utf8))
            Issue.record("decoded")
        } catch {
            #expect(error.jsonPointer == "/clients/1/age")
            #expect(error.codingPath == "clients[1].age")
            #expect(error.line == 4)
            #expect(error.column == 13)
            #expect(error.issue.code == .typeMismatch)
            #expect(error.issue.phase == .decode)
            #expect(error.detail == #"expected Int, found string "12""#)
            #expect(
                error.description
                    == #"/clients/1/age (clients[1].age), line 4, column 13: expected Int, found string "12""#)
            #expect(error.issue.message(in: .english) == "Age must be of type Int")
        }
    }

    @Test func missingKeysAndNulls() {
        struct Item: Decodable { var name: String }
        do {
            _ = try JSONValueDecoder().decode(Item.self, from: Array("{}".utf8))
            Issue.record("decoded")
        } catch {
            #expect(error.issue.code == .missing)
            #expect(error.jsonPointer == "/name")
        }
        do {
            _ = try JSONValueDecoder().decode(Item.self, from: Array(#"{"name":null}"#.utf8))
            Issue.record("decoded")
        } catch {
            #expect(error.issue.code == .missing)
            #expect(error.line == 1 && error.column == 9)
        }
    }

    @Test func nullIsTheValueOfAnOptionalElement() throws {
        // Optional elements and values take `null` as `nil`, as Foundation's decoder does; a
        // non-optional one still refuses it.
        let bytes = Array("[1,null,3]".utf8)
        #expect(try JSONValueDecoder().decode([Int?].self, from: bytes) == [1, nil, 3])
        #expect(try JSONDecoder().decode([Int?].self, from: Data(bytes)) == [1, nil, 3])
        let members = try JSONValueDecoder().decode([String: Int?].self, from: Array(#"{"a":null,"b":2}"#.utf8))
        #expect(members == ["a": Int?.none, "b": 2])
        #expect(throws: JSONDecodingError.self) { try JSONValueDecoder().decode([Int].self, from: bytes) }
    }

    @Test func notJSONIsMalformed() {
        do {
            _ = try JSONValueDecoder().decode([Int].self, from: Array("[1,2,]".utf8))
            Issue.record("decoded")
        } catch {
            #expect(error.issue.code == .malformed)
            #expect(error.parseError?.reason == .trailingComma)
            #expect(error.line == 1 && error.column == 5)
        }
    }

    @Test func laxModeConvertsAndReports() throws {
        struct Loose: Decodable {
            var id: Int; var price: Double; var active: Bool; var code: String; var note: String?
        }
        var decoder = JSONValueDecoder()
        decoder.mode = .lax
        let input = Array(#"{"id":"12","price":"9.99","active":"true","code":123,"note":null}"#.utf8)
        let (value, coercions) = try decoder.decodeReportingCoercions(Loose.self, from: input)
        #expect(value.id == 12 && value.price == 9.99 && value.active && value.code == "123" && value.note == nil)
        #expect(coercions.map(\.path.jsonPointer) == ["/id", "/price", "/active", "/code"])
        #expect(coercions.allSatisfy { $0.code == .coerced && $0.severity == .warning })
        #expect(coercions[0].message(in: .english) == "Id was converted from string to integer")
        #expect(throws: JSONDecodingError.self) { try JSONValueDecoder().decode(Loose.self, from: input) }
        // Lax has limits: not "12abc", not 2 as a Boolean.
        #expect(throws: JSONDecodingError.self) {
            try decoder.decode(Loose.self, from: Array(#"{"id":"12abc","price":1,"active":true,"code":"x"}"#.utf8))
        }
        #expect(throws: JSONDecodingError.self) {
            try decoder.decode(Loose.self, from: Array(#"{"id":1,"price":1,"active":2,"code":"x"}"#.utf8))
        }
    }

    @Test func integersAreExactAndRangeChecked() throws {
        #expect(try JSONValueDecoder().decode(UInt64.self, from: Array("18446744073709551615".utf8)) == .max)
        #expect(try JSONValueDecoder().decode(Int.self, from: Array("12.0".utf8)) == 12)
        #expect(throws: JSONDecodingError.self) { try JSONValueDecoder().decode(Int8.self, from: Array("300".utf8)) }
        #expect(throws: JSONDecodingError.self) { try JSONValueDecoder().decode(Int.self, from: Array("12.5".utf8)) }
        #expect(throws: JSONDecodingError.self) { try JSONValueDecoder().decode(Int.self, from: Array("1e400".utf8)) }
        #expect(try JSONValueDecoder().decode(Decimal.self, from: Array("0.1".utf8)) == Decimal(string: "0.1"))
        #expect(try JSONValueDecoder().decode(JSONValue.self, from: Array(#"{"a":[1]}"#.utf8)) == ["a": [1]])
    }

    @Test func dateStrategies() throws {
        var decoder = JSONValueDecoder()
        #expect(throws: JSONDecodingError.self) {
            try decoder.decode(Date.self, from: Array(#""2023-02-30T00:00:00Z""#.utf8))
        }
        do {
            _ = try decoder.decode(Date.self, from: Array(#""2023-02-30T00:00:00Z""#.utf8))
        } catch {
            #expect(error.issue.code == .invalidFormat("date-time"))
        }
        decoder.dateDecodingStrategy = .secondsSince1970
        #expect(try decoder.decode(Date.self, from: Array("86400".utf8)) == Date(timeIntervalSince1970: 86_400))
        decoder.dateDecodingStrategy = .millisecondsSince1970
        #expect(try decoder.decode(Date.self, from: Array("1500".utf8)) == Date(timeIntervalSince1970: 1.5))
    }

    @Test func errorsThrownByTypesThemselvesAreLocated() {
        struct Age: Decodable {
            init(from decoder: any Decoder) throws {
                let value = try decoder.singleValueContainer().decode(Int.self)
                if value > 150 {
                    throw DecodingError.dataCorrupted(
                        .init(codingPath: decoder.codingPath, debugDescription: "age too large"))
                }
            }
        }
        struct Person: Decodable { var age: Age }
        do {
            _ = try JSONValueDecoder().decode([Person].self, from: Array(#"[{"age":1},{"age":200}]"#.utf8))
            Issue.record("decoded")
        } catch {
            #expect(error.jsonPointer == "/1/age")
            #expect(error.line == 1 && error.column == 19)
            #expect(error.issue.message(in: .english) == "age too large")
        }
    }

    @Test func snakeCaseConversionMatchesFoundation() {
        let cases = [
            "manager_id": "managerId", "a": "a", "_private": "_private", "url_": "url_", "one_two_three": "oneTwoThree",
            "already": "already", "__x__y": "__xY", "MANAGER_ID": "managerId",
        ]
        for (input, output) in cases {
            #expect(KeyedNodeContainer<AnyKey>.camelCase(input) == output, "\(input)")
        }
    }
}

/// Reads its keys in an order of its own, twice, and looks for absent ones: the member search that
/// starts after the last member found must still find every key wherever it is written.
private struct OutOfOrder: Decodable, Equatable {
    var values: [String: Int] = [:]
    var inner: [String: Int] = [:]
    var hasMissing = true

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        for name in ["e", "b", "d", "a", "c", "e", "a"] {
            values[name] = try container.decode(Int.self, forKey: Key(name))
        }
        let nested = try container.nestedContainer(keyedBy: Key.self, forKey: Key("n"))
        for name in ["y", "x", "y"] { inner[name] = try nested.decode(Int.self, forKey: Key(name)) }
        // Back in the outer object after the nested one moved the search's starting point.
        values["c2"] = try container.decode(Int.self, forKey: Key("c"))
        values["b2"] = try container.decodeIfPresent(Int.self, forKey: Key("b"))
        hasMissing = container.contains(Key("zz"))
    }
}

@Suite struct MemberOrderTests {
    @Test(arguments: [
        #"{"a":1,"b":2,"n":{"x":10,"y":11},"c":3,"d":4,"e":5}"#,
        #"{"e":5,"d":4,"c":3,"n":{"y":11,"x":10},"b":2,"a":1}"#,
        #"{"c":3,"n":{"x":10,"y":11},"a":1,"e":5,"b":2,"d":4}"#,
    ])
    func membersAreFoundInAnyOrder(_ text: String) throws {
        let decoded = try JSONValueDecoder().decode(OutOfOrder.self, from: Array(text.utf8))
        #expect(decoded.values == ["a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "c2": 3, "b2": 2])
        #expect(decoded.inner == ["x": 10, "y": 11])
        #expect(!decoded.hasMissing)
    }

    @Test func duplicateKeysDroppedByPolicyAreNotFound() throws {
        var decoder = JSONValueDecoder()
        decoder.parserOptions.duplicateKeys = .lastWins
        let text = #"{"a":0,"b":2,"a":1,"n":{"x":10,"y":11},"c":3,"d":4,"e":5}"#
        let decoded = try decoder.decode(OutOfOrder.self, from: Array(text.utf8))
        #expect(decoded.values["a"] == 1)
    }
}
