import AssayCodable
import AssayCore
import Foundation
import Testing

/// A lossy array with no other rule, to count what a lossy decode keeps.
@Validatable
struct Bag: Codable, Equatable {
    @Lossy var tags: [String] = []
}

/// Issue 23's findings in validated decoding: the cap on issues counted warnings, so warnings could
/// crowd out an error and stop a lossy array early.
@Suite("Validated decoding: warnings never hide an error")
struct HostileDecodingTests {
    @Test(arguments: DecoderKind.allCases)
    func warningsPastTheCapDoNotHideABadField(decoder: DecoderKind) throws {
        // 1,001 unknown keys (warnings), then a bad field: the thrown aggregate must hold the error.
        var members = (0..<1_001).map { #""extra\#($0)": 1"# }
        members += [#""name": "Ann Lee""#, #""email": "ann@example.test""#, #""age": 500"#]
        let json = "{" + members.joined(separator: ", ") + "}"
        let error = try #require(
            decodingError { try decoder.decode(Client.self, json, policy: ValidatedDecodingPolicy(unknownKeys: .warn)) }
        )
        #expect(error.hasErrors)
        #expect(error.errors.map(\.path.jsonPointer) == ["/age"])
        #expect(error.warnings.count == 1_000)
        #expect(error.droppedWarningCount == 1)
        #expect(error.json(in: .english).hasPrefix(#"{"valid":false"#))
    }

    @Test(arguments: DecoderKind.allCases)
    func aLossyArrayKeepsItsValidElementsPastTheCap(decoder: DecoderKind) throws {
        // 1,100 invalid elements, then 100 valid ones: every valid one is kept.
        let elements = Array(repeating: "5", count: 1_100) + (0..<100).map { #""t\#($0)""# }
        let decoded = try decoder.decode(Bag.self, #"{"tags": ["# + elements.joined(separator: ",") + "]}")
        #expect(decoded.value.tags.count == 100)
        #expect(decoded.value.tags.first == "t0" && decoded.value.tags.last == "t99")
        #expect(decoded.warnings.count <= 1_000)
    }

    @Test(arguments: DecoderKind.allCases)
    func errorsPastTheCapStopTheDecodeAndAreCounted(decoder: DecoderKind) throws {
        let json =
            "[" + Array(repeating: #"{"name": "J", "age": 0, "email": "x"}"#, count: 10).joined(separator: ",") + "]"
        let error = try #require(
            decodingError {
                try decoder.decodeArray([Client].self, json, policy: ValidatedDecodingPolicy(maximumIssues: 5))
            })
        #expect(error.errors.count == 5)
        #expect(error.isTruncated)
        #expect(error.hasErrors)
    }
}
