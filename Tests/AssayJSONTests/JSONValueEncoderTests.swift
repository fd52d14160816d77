import AssayJSON
import Foundation
import Testing

@Suite("JSONValueEncoder")
struct JSONValueEncoderTests {
    struct Order: Codable, Equatable {
        enum Status: String, Codable { case open, closed }
        struct Line: Codable, Equatable {
            var sku: String
            var quantity: UInt8
            var price: Decimal
        }
        var id: UInt64
        var status: Status
        var lines: [Line]
        var note: String?
        var placed: Date
        var weight: Float
        var ratio: Double
        var tags: [String: Int8]
        var raw: JSONValue
    }

    static let order = Order(
        id: .max, status: .open,
        lines: [
            .init(sku: "A-1", quantity: 2, price: Decimal(string: "19.99")!),
            .init(sku: "B-2", quantity: 1, price: 5),
        ],
        note: nil, placed: Date(timeIntervalSince1970: 1_709_208_000.25), weight: 0.1, ratio: 1e-5,
        tags: ["x": -3], raw: ["nested": [1, "two", .null]])

    @Test("a value decoded by JSONValueDecoder encodes back to the same JSON, key order kept")
    func roundTrip() throws {
        let value = try JSONValueEncoder().encode(Self.order)
        #expect(
            value.jsonString()
                == #"{"id":18446744073709551615,"status":"open","lines":[{"sku":"A-1","quantity":2,"price":19.99},{"sku":"B-2","quantity":1,"price":5}],"placed":"2024-02-29T12:00:00.25Z","weight":0.1,"ratio":0.00001,"tags":{"x":-3},"raw":{"nested":[1,"two",null]}}"#
        )
        let decoded = try JSONValueDecoder().decode(Order.self, from: value)
        #expect(decoded == Self.order)
        #expect(try JSONValueEncoder().encode(decoded) == value)
    }

    @Test("scalars at the root, nil, arrays of optionals, other date strategies")
    func scalarsAndStrategies() throws {
        let encoder = JSONValueEncoder()
        #expect(try encoder.encode(42) == 42)
        #expect(try encoder.encode("a") == "a")
        #expect(try encoder.encode(Int?.none) == .null)
        #expect(try encoder.encode([1, nil, 3] as [Int?]) == [1, .null, 3])
        #expect(try encoder.encode(Int64.min) == .number(JSONNumber(text: "-9223372036854775808")!))
        var seconds = JSONValueEncoder()
        seconds.dateEncodingStrategy = .secondsSince1970
        #expect(try seconds.encode(Date(timeIntervalSince1970: 90)) == 90)
        var milliseconds = JSONValueEncoder()
        milliseconds.dateEncodingStrategy = .millisecondsSince1970
        #expect(try milliseconds.encode(Date(timeIntervalSince1970: 1.5)) == 1500)
        #expect(try encoder.encode(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
        #expect(try encoder.encode(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
    }

    @Test("numbers that are not finite have no JSON form: an error naming the place")
    func notFinite() throws {
        struct Reading: Encodable { var values: [Double] }
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(Double.nan) }
        do {
            _ = try JSONValueEncoder().encode(Reading(values: [1, .infinity]))
            Issue.record("infinity encoded")
        } catch let EncodingError.invalidValue(_, context) {
            #expect(context.codingPath.map(\.stringValue) == ["values", "1"])
        }
    }

    @Test("a value that encodes nothing is an error, not null")
    func encodesNothing() throws {
        struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(Nothing()) }
        struct Empty: Encodable {}
        #expect(try JSONValueEncoder().encode(Empty()) == [:])
    }
}

@Suite("JSONValueEncoder: large values")
struct JSONValueEncoderScaleTests {
    /// Members and elements are appended in place: 200,000 of each encode (quadratic copying, as
    /// before, would be 4·10¹⁰ element copies).
    @Test("an array of 200,000 elements and an object of 200,000 keys, every one kept in order")
    func large() throws {
        let numbers = Array(0..<200_000)
        guard case .array(let elements) = try JSONValueEncoder().encode(numbers) else {
            Issue.record("not an array")
            return
        }
        #expect(elements.count == 200_000 && elements.last == 199_999)
        let dictionary = Dictionary(uniqueKeysWithValues: numbers.map { ("k\($0)", $0) })
        guard case .object(let object) = try JSONValueEncoder().encode(dictionary) else {
            Issue.record("not an object")
            return
        }
        #expect(object.count == 200_000 && object["k123"] == 123)
    }
}
