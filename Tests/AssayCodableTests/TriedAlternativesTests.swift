import AssayCodable
import AssayCore
import AssayJSON
import Foundation
import Testing

/// Closed objects whose one member neither requires: `{}` is taken by both alternatives.
@Validatable(unknownKeys: .reject)
struct ExceptFrames: Codable, Equatable {
    @NotNull var except: [String]?
}

@Validatable(unknownKeys: .reject)
struct OnlyFrames: Codable, Equatable {
    @NotNull var only: [String]?
}

@Validatable
struct Inner: Codable, Equatable {
    @Validate(.range(0...)) var n: Int
}

@Validatable(unknownKeys: .reject)
struct Nested: Codable, Equatable {
    var inner: Inner
}

@Validatable(unknownKeys: .reject)
struct StrictInner: Codable, Equatable {
    @NotNull var m: Int?
}

@Validatable(unknownKeys: .reject)
struct OtherNested: Codable, Equatable {
    var inner: StrictInner
}

/// `{"oneOf": [except, only]}`: each alternative tried.
enum FoldFrames: Codable, Equatable {
    case except(ExceptFrames)
    case only(OnlyFrames)

    init(from decoder: any Decoder) throws {
        self = try UnionDecoding.exactlyOne(
            of: decoder,
            [
                { FoldFrames.except(try UnionDecoding.decode(ExceptFrames.self, from: $0)) },
                { FoldFrames.only(try UnionDecoding.decode(OnlyFrames.self, from: $0)) },
            ])
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .except(let value): try value.encode(to: encoder)
        case .only(let value): try value.encode(to: encoder)
        }
    }
}

/// `{"anyOf": [nested, otherNested]}`: the first that takes the value.
enum AnyNested: Codable, Equatable {
    case nested(Nested)
    case other(OtherNested)

    init(from decoder: any Decoder) throws {
        self = try UnionDecoding.firstMatching(
            of: decoder,
            [
                { AnyNested.nested(try UnionDecoding.decode(Nested.self, from: $0)) },
                { AnyNested.other(try UnionDecoding.decode(OtherNested.self, from: $0)) },
            ])
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .nested(let value): try value.encode(to: encoder)
        case .other(let value): try value.encode(to: encoder)
        }
    }
}

@Validatable
struct FoldSettings: Codable, Equatable {
    var fold: FoldFrames
    var nested: AnyNested?
}

/// Counts the alternatives' reads, from any thread.
final class ReadCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    func add() {
        lock.lock()
        count += 1
        lock.unlock()
    }
}

/// A model holding a counted union, and an array of them.
@Validatable
struct CountedHolder: Codable, Equatable {
    var frames: CountedFrames
    var more: [CountedFrames]
}

/// `FoldFrames` with its alternatives shared with the check on demand, counting their reads.
enum CountedFrames: Codable, Equatable, Validatable {
    case except(ExceptFrames)
    case only(OnlyFrames)

    static let reads = ReadCount()

    static let alternatives: [@Sendable (any Decoder) throws -> CountedFrames] = [
        {
            reads.add()
            return CountedFrames.except(try UnionDecoding.decode(ExceptFrames.self, from: $0))
        },
        {
            reads.add()
            return CountedFrames.only(try UnionDecoding.decode(OnlyFrames.self, from: $0))
        },
    ]

    static let validation: Validation<CountedFrames> = [
        .payload { frames in
            switch frames {
            case .except(let value): .value(value)
            case .only(let value): .value(value)
            }
        },
        UnionDecoding.exactlyOneOnDemand(alternatives),
    ]

    init(from decoder: any Decoder) throws {
        self = try UnionDecoding.exactlyOne(of: decoder, Self.alternatives)
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .except(let value): try value.encode(to: encoder)
        case .only(let value): try value.encode(to: encoder)
        }
    }
}

@Suite("Alternatives tried in turn: exactly one (oneOf), or the first (anyOf)")
struct TriedAlternativesTests {
    static func outcome(_ json: String, _ kind: DecoderKind) -> String {
        do {
            let value = try kind.decode(FoldSettings.self, json).value
            switch value.fold {
            case .except: return "except"
            case .only: return "only"
            }
        } catch {
            return error.issues.map {
                "\($0.path.jsonPointer) \($0.code) \($0.parameters["count"].map { "\($0)" } ?? "")"
            }
            .joined(separator: ", ")
        }
    }

    @Test(
        "each alternative reads the value afresh: another's reads hide no unknown key", arguments: DecoderKind.allCases)
    func exactlyOne(_ kind: DecoderKind) {
        #expect(Self.outcome(#"{"fold": {"except": ["a"]}}"#, kind) == "except")
        #expect(Self.outcome(#"{"fold": {"only": []}}"#, kind) == "only")
        // Taken by both, by neither.
        #expect(Self.outcome(#"{"fold": {}}"#, kind) == "/fold noMatch 2")
        #expect(Self.outcome(#"{"fold": {"only": [], "except": []}}"#, kind) == "/fold noMatch 2")
        #expect(Self.outcome(#"{"fold": {"except": [1]}}"#, kind) == "/fold noMatch 2")
        #expect(Self.outcome(#"{"fold": 3}"#, kind) == "/fold noMatch 2")
    }

    @Test(
        "anyOf: the first alternative that takes the value; nested reads are forgotten too",
        arguments: DecoderKind.allCases)
    func firstMatching(_ kind: DecoderKind) throws {
        let first = try kind.decode(FoldSettings.self, #"{"fold": {"only": []}, "nested": {"inner": {"n": 1}}}"#)
        #expect(first.value.nested == .nested(Nested(inner: Inner(n: 1))))
        let second = try kind.decode(FoldSettings.self, #"{"fold": {"only": []}, "nested": {"inner": {"m": 1}}}"#)
        #expect(second.value.nested == .other(OtherNested(inner: StrictInner(m: 1))))
        // The first alternative reads `inner.n` and fails on its range; the second does not
        // declare `n`, which the first's read must not hide.
        #expect(Self.outcome(#"{"fold": {"only": []}, "nested": {"inner": {"n": -1}}}"#, kind) == "/nested noMatch 2")
    }

    @Test("on demand, a value another alternative takes too is refused; decoding does not check it again")
    func exactlyOneOnDemand() throws {
        #expect(CountedFrames.except(ExceptFrames(except: ["a"])).issues().isEmpty)
        // Built as `except` with no member: its JSON, `{}`, is taken by both.
        let both = CountedFrames.except(ExceptFrames()).issues()
        #expect(both.map(\.code) == [.noMatch])
        #expect(both.first?.parameters["count"] == .integer(2))
        #expect(both.first?.path.jsonPointer == "")
        #expect(throws: ValidationError.self) { try CountedFrames.only(OnlyFrames()).validate() }
        // Each alternative reads a decoded value once: the check on demand is not made again.
        for kind in DecoderKind.allCases {
            let before = CountedFrames.reads.value
            let decoded = try kind.decode([CountedFrames].self, #"[{"except": ["a"]}, {"only": []}]"#)
            #expect(decoded.value == [.except(ExceptFrames(except: ["a"])), .only(OnlyFrames(only: []))])
            #expect(CountedFrames.reads.value - before == 4, "\(kind)")
            let held = CountedFrames.reads.value
            let holder = try kind.decode(CountedHolder.self, #"{"frames": {"only": []}, "more": [{"except": []}]}"#)
            #expect(holder.value.more == [.except(ExceptFrames(except: []))])
            #expect(CountedFrames.reads.value - held == 4, "\(kind)")
        }
    }
}
