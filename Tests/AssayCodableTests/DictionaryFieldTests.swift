import AssayCodable
import AssayCore
import AssaySchema
import Foundation
import Testing

@Validatable
struct StockPart: Codable, Equatable {
    @Validate(.range(0...)) var count: Int
}

/// Dictionaries and arrays whose members are checked one by one, as a JSON Schema's
/// `additionalProperties` and `items` check them.
@Validatable
struct Stock: Codable, Equatable {
    @Validate(Rule<[String: Int]>.values(.range(0...)), .count(...3)) var sizes: [String: Int]
    var parts: [String: StockPart]?
    @Validate(Rule<[Int]>.each(.range(0...)), .count(...3)) var levels: [Int]?
    var items: [StockPart]?
    @Validate(Rule<[String: Int]>.schema(#"{"minProperties": 2}"#)) var codes: [String: Int]?
}

@Suite struct DictionaryFieldTests {
    private func places(_ json: String, decoder: DecoderKind) -> [String] {
        do {
            _ = try decoder.decode(Stock.self, json)
            return []
        } catch {
            return error.issues.map(\.path.jsonPointer).sorted()
        }
    }

    @Test(arguments: DecoderKind.allCases)
    func everyMemberThatFailsIsReported(decoder: DecoderKind) {
        #expect(places(#"{"sizes": {"a": 1}, "parts": {"p": {"count": 2}}}"#, decoder: decoder) == [])
        // A member of the wrong type beside one its rule refuses: both reported.
        #expect(places(#"{"sizes": {"a": "x", "b": -1, "c": 1}}"#, decoder: decoder) == ["/sizes/a", "/sizes/b"])
        // Models as members: each one that fails, where it fails.
        let parts = #""parts": {"p": {"count": 1}, "q": {"count": "x"}, "r": {"count": -1}}"#
        #expect(places(#"{"sizes": {}, \#(parts)}"#, decoder: decoder) == ["/parts/q/count", "/parts/r/count"])
        // A rule on the whole dictionary is not judged on the members that decoded; its count is
        // judged on the input's members.
        #expect(places(#"{"sizes": {"a": "x", "b": 1, "c": 1, "d": 1}}"#, decoder: decoder) == ["/sizes", "/sizes/a"])
        #expect(places(#"{"sizes": {"a": "x", "b": 1, "c": 1}}"#, decoder: decoder) == ["/sizes/a"])
        #expect(places(#"{"sizes": {"b": 1, "c": 1, "d": 1, "e": 1}}"#, decoder: decoder) == ["/sizes"])
        #expect(places(#"{"sizes": [1]}"#, decoder: decoder) == ["/sizes"])
        #expect(places(#"{"sizes": {}, "parts": null}"#, decoder: decoder) == [])
        #expect(places(#"{"sizes": {}, "parts": 3}"#, decoder: decoder) == ["/parts"])
    }

    @Test(arguments: DecoderKind.allCases)
    func everyElementThatFailsIsReported(decoder: DecoderKind) {
        #expect(places(#"{"sizes": {}, "levels": [0, 1], "items": [{"count": 0}]}"#, decoder: decoder) == [])
        // An element of the wrong type beside one its rule refuses: both reported, at their indices.
        #expect(places(#"{"sizes": {}, "levels": ["x", -1, 2]}"#, decoder: decoder) == ["/levels/0", "/levels/1"])
        #expect(places(#"{"sizes": {}, "levels": [1, "x", -2]}"#, decoder: decoder) == ["/levels/1", "/levels/2"])
        // A rule on the whole array is not judged on the elements that decoded; its count is judged
        // on the input's elements (four, one too many).
        #expect(
            places(#"{"sizes": {}, "levels": [1, "x", 2, -2]}"#, decoder: decoder) == [
                "/levels", "/levels/1", "/levels/3",
            ])
        #expect(places(#"{"sizes": {}, "levels": [1, 2, 3, "x"]}"#, decoder: decoder) == ["/levels", "/levels/3"])
        #expect(places(#"{"sizes": {}, "levels": [1, 2, 3, 4]}"#, decoder: decoder) == ["/levels"])
        let items = #""items": [{"count": "x"}, {"count": -1}, {"count": 1}]"#
        #expect(places(#"{"sizes": {}, \#(items)}"#, decoder: decoder) == ["/items/0/count", "/items/1/count"])
    }

    @Test func membersDecodeInFull() throws {
        let json = #"{"sizes": {"a": 1, "b": 2}, "parts": {"p": {"count": 2}}}"#
        let stock = try DecoderKind.assay.decode(Stock.self, json)
        #expect(stock.value == Stock(sizes: ["a": 1, "b": 2], parts: ["p": StockPart(count: 2)]))
    }

    /// A check against a schema of a dictionary one of whose members did not decode reads the
    /// input, as the schema does: what it reports of the dictionary is reported beside the member.
    @Test(arguments: DecoderKind.allCases)
    func checksOfTheInputRunOnAFieldWhoseMemberFailed(decoder: DecoderKind) {
        #expect(places(#"{"sizes": {}, "codes": {"a": 1, "b": 2}}"#, decoder: decoder) == [])
        #expect(places(#"{"sizes": {}, "codes": {"a": 1}}"#, decoder: decoder) == ["/codes"])
        #expect(places(#"{"sizes": {}, "codes": {"a": "x"}}"#, decoder: decoder) == ["/codes", "/codes/a"])
        #expect(places(#"{"sizes": {}, "codes": {"a": "x", "b": 2}}"#, decoder: decoder) == ["/codes/a"])
    }
}
