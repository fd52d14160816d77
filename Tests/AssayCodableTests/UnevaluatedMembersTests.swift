import AssayCodable
import AssayCore
import AssayJSON
import Foundation
import Testing

/// A window that refuses the keys it does not declare and, when it fails, reports every key it
/// has (JSON Schema's `{"oneOf": [{"type": "null"}, {window}], "unevaluatedProperties": false}`).
@Validatable(unknownKeys: .rejectUnevaluated)
struct RetentionWindow: Codable, Equatable {
    @Validate(.range(1...)) var days: Int
    @NotNull var refresh: Bool?
}

@Validatable
struct RetentionPolicy: Codable, Equatable {
    @Validate(.length(1...)) var name: String
    var window: RetentionWindow?
}

@Suite("unknownKeys: .rejectUnevaluated — every member of a value that failed is reported")
struct UnevaluatedMembersTests {
    static func places(_ json: String, _ kind: DecoderKind, policy: ValidatedDecodingPolicy = .default) -> [String] {
        do {
            _ = try kind.decode(RetentionPolicy.self, json, policy: policy)
            return []
        } catch {
            return error.issues.map { "\($0.path.jsonPointer) \($0.code)" }
        }
    }

    @Test("a valid window decodes; an unknown key alone is reported alone", arguments: DecoderKind.allCases)
    func unknownKeyAlone(_ kind: DecoderKind) throws {
        let decoded = try kind.decode(RetentionPolicy.self, #"{"name": "a", "window": {"days": 2}}"#)
        #expect(decoded.value.window == RetentionWindow(days: 2, refresh: nil))
        #expect(Self.places(#"{"name": "a", "window": {"days": 2, "x": 1}}"#, kind) == ["/window/x unknownKey"])
        #expect(Self.places(#"{"name": "a", "window": null}"#, kind) == [])
    }

    @Test("a window that fails has each of its keys reported, each once", arguments: DecoderKind.allCases)
    func failureReportsEveryKey(_ kind: DecoderKind) {
        let found = Self.places(#"{"name": "a", "window": {"days": 0, "refresh": true, "x": 1}}"#, kind)
        #expect(found.count == 4)
        #expect(
            Set(found) == [
                "/window/x unknownKey", "/window/days tooSmall", "/window/days unknownKey",
                "/window/refresh unknownKey",
            ])
        #expect(
            Set(Self.places(#"{"name": "a", "window": {"refresh": "yes"}}"#, kind))
                == ["/window/days missing", "/window/refresh typeMismatch", "/window/refresh unknownKey"])
        // A window that is no object has no members to report; the other model is not closed.
        #expect(Set(Self.places(#"{"name": "", "window": 3}"#, kind)) == ["/name tooShort", "/window typeMismatch"])
    }

    @Test("as the policy of a whole decode, every model that fails reports its keys")
    func asPolicy() {
        let policy = ValidatedDecodingPolicy(unknownKeys: .rejectUnevaluated)
        #expect(
            Self.places(#"{"name": "a", "window": {"days": 0}}"#, .assay, policy: policy)
                == ["/window/days tooSmall", "/window/days unknownKey", "/name unknownKey", "/window unknownKey"])
        #expect(Self.places(#"{"name": "a", "x": 1}"#, .assay, policy: policy) == ["/x unknownKey"])
    }
}
