import AssayCore
import Synchronization
import Testing

/// How many times the innermost rule of ``Chain`` ran.
private let evaluations = Atomic<Int>(0)

/// A model that holds the next one: nested `depth` deep, the innermost value bad.
private struct Chain: Validatable, Sendable {
    var value: Int
    var next: [Chain]

    static let validation: Validation<Chain> = [
        .property(
            \.value, "value",
            .custom("positive") { value in
                evaluations.add(1, ordering: .relaxed)
                return value > 0
            }),
        .nested(\.next, "next"),
    ]

    static func nested(_ depth: Int, innermost: Int) -> Chain {
        var chain = Chain(value: innermost, next: [])
        for _ in 0..<depth { chain = Chain(value: 1, next: [chain]) }
        return chain
    }
}

@Suite("Models on hostile input", .serialized)
struct HostileModelTests {
    /// Issue 23: models nested n deep were checked 2^(n+1) times (first unlocated, then again located,
    /// at every level); 22 levels took 12 s. Now each model is checked at most twice.
    @Test func nestedModelsAreCheckedAtMostTwiceEach() {
        for depth in [1, 2, 22, 200] {
            evaluations.store(0, ordering: .relaxed)
            let issues = Chain.nested(depth, innermost: -1).issues()
            #expect(issues.count == 1)
            let pointer = String(repeating: "/next/0", count: depth) + "/value"
            #expect(issues.first?.path.jsonPointer == pointer)
            #expect(evaluations.load(ordering: .relaxed) <= 2 * (depth + 1), "depth \(depth)")
        }
        evaluations.store(0, ordering: .relaxed)
        #expect(Chain.nested(200, innermost: 5).issues().isEmpty)
        #expect(evaluations.load(ordering: .relaxed) == 201, "a valid chain is checked once")
    }

    /// Issue 23: a key the model does not have passed silently.
    @Test func anUnknownKeyIsAnError() {
        do {
            try Chain.validate(3, forKey: "vaule")
            Issue.record("an unknown key passed")
        } catch {
            #expect(error.issues.map(\.code) == [.unknownKey])
            #expect(error.issues[0].parameters["key"] == "vaule")
        }
        #expect((try? Chain.validate(3, forKey: "value")) != nil)
    }

    /// Keys of properties without rules are declared, and pass.
    @Test func declaredKeysPass() throws {
        struct Note: Validatable, Sendable {
            var text: String
            var pinned: Bool
            static let validation = Validation<Note>([.property(\.text, "text", .notBlank)], keys: ["pinned"])
        }
        #expect(try Note.validate(true, forKey: "pinned") as? Bool == true)
        #expect(throws: ValidationError.self) { try Note.validate(true, forKey: "pined") }
        #expect(Note.validation.knownKeys == ["text", "pinned"])
    }
}
