import AssayCore
import Foundation
import Testing

@Suite struct NormalizerTests {
    /// Every scalar Foundation's `.whitespacesAndNewlines` holds, and a few it does not.
    static let samples: [String] = {
        var samples = [
            "", " ", "Ann", "  Ann ", "\tAnn\n", "\r\nAnn\u{85}", "\u{A0}Zoë\u{3000}", "\u{2028}x\u{2029}",
            " \u{301}a",  // a combining mark on a leading space: Foundation trims the space alone
            "\u{200B}a\u{200B}",  // zero-width space: not White_Space, but in Foundation's set
            "\u{FEFF}a",  // byte order mark: not whitespace
            "a b  c", "   ", "\u{1680}\u{2000}\u{200A}\u{202F}\u{205F}mid\u{2009}",
        ]
        for value in UInt32(0)...0x3000 {
            if let scalar = Unicode.Scalar(value),
                scalar.properties.isWhitespace
                    || CharacterSet.whitespacesAndNewlines.contains(scalar)
            {
                samples.append("\(scalar)x\(scalar)")
            }
        }
        return samples
    }()

    @Test func trimmedRemovesWhatFoundationTrims() {
        for sample in Self.samples {
            #expect(
                Normalizer<String>.trimmed.transform(sample) == sample.trimmingCharacters(in: .whitespacesAndNewlines),
                "\(sample.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func lowercasedLowercasesAsSwiftDoes() {
        let samples =
            Self.samples + [
                "ann@example.com", "Ann@Example.COM", "zoë@example.com", "ZOË", "İstanbul", "ΣΊΣΥΦΟΣ", "ǅ", "a\u{0}Z",
                String(repeating: "x", count: 40) + "Y", String(repeating: "x", count: 40),
            ]
        for sample in samples {
            #expect(Normalizer<String>.lowercased.transform(sample) == sample.lowercased(), "\(sample)")
        }
    }
}

/// The rules of each operation: the built-in ones run composed rules, an operation of the app's own
/// runs the same rules one by one.
@Suite struct OperationRulesTests {
    struct Post: Validatable {
        var title: String
        var body: String

        static let validation: Validation<Post> = [
            .normalize(\.title, "title", .trimmed),
            .property(\.title, "title", .notBlank),
            .property(\.body, "body", on: [.custom("publish")], .length(10...)),
            .check("ready", on: [.custom("publish"), .update], when: .propertiesValid) { post, context in
                if post.title == post.body { context.report(.custom("sameText")) }
            },
            .check("deletable", on: [.delete]) { post, context in
                if post.title == "keep" { context.report(.deleteDenied) }
            },
        ]
    }

    @Test func eachOperationRunsItsOwnRules() {
        let draft = Post(title: " Hello ", body: "Hello")
        #expect(draft.issues().isEmpty)
        #expect(draft.issues(for: .insert).isEmpty)
        #expect(draft.issues(for: .update).map(\.code) == [.custom("sameText")])
        #expect(draft.issues(for: .custom("publish")).map(\.code) == [.tooShort])
        #expect(Post(title: "", body: "").issues(for: .custom("publish")).map(\.code) == [.blank, .tooShort])
        #expect(
            Post(title: "Same text!", body: "Same text!").issues(for: .custom("publish")).map(\.code) == [
                .custom("sameText")
            ])
        #expect(Post(title: "keep", body: "").issues(for: .delete).map(\.code) == [.deleteDenied])
        #expect(Post(title: "", body: "").issues(for: .delete).isEmpty)
    }
}
