import AssayCodable
import AssayCore
import Foundation
import Testing

@Validatable
struct StockPart: Codable, Equatable {
    @Validate(.range(0...)) var count: Int
}

/// Dictionaries whose members are checked one by one, as a JSON Schema's `additionalProperties`
/// checks them.
@Validatable
struct Stock: Codable, Equatable {
    @Validate(Rule<[String: Int]>.values(.range(0...)), .count(...3)) var sizes: [String: Int]
    var parts: [String: StockPart]?
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
        // A rule on the whole dictionary is not judged on the members that decoded.
        #expect(places(#"{"sizes": {"a": "x", "b": 1, "c": 1, "d": 1}}"#, decoder: decoder) == ["/sizes/a"])
        #expect(places(#"{"sizes": {"b": 1, "c": 1, "d": 1, "e": 1}}"#, decoder: decoder) == ["/sizes"])
        #expect(places(#"{"sizes": [1]}"#, decoder: decoder) == ["/sizes"])
        #expect(places(#"{"sizes": {}, "parts": null}"#, decoder: decoder) == [])
        #expect(places(#"{"sizes": {}, "parts": 3}"#, decoder: decoder) == ["/parts"])
    }

    @Test func membersDecodeInFull() throws {
        let json = #"{"sizes": {"a": 1, "b": 2}, "parts": {"p": {"count": 2}}}"#
        let stock = try DecoderKind.assay.decode(Stock.self, json)
        #expect(stock.value == Stock(sizes: ["a": 1, "b": 2], parts: ["p": StockPart(count: 2)]))
    }
}
