import Testing

@testable import AssayJSON

/// A document parsed into the memory of the one before (what `assay validate` does line by line).
@Suite("Parsing into a recycled document")
struct RecyclingTests {
    /// Documents of every shape and size, invalid ones among them, in an order where each is parsed
    /// into the memory of the one before.
    static let texts: [String] = {
        var texts = [
            #"{"name":"omicron_0","kind":"queue","replicas":1,"tags":["a","b"]}"#,
            #"[1, 2.5, -3e2, true, false, null, "x"]"#,
            #"{"escaped":"line\nbreak \u00e9 \ud83d\ude00","key\"quoted":{"deep":[[[{}]]]}}"#,
            #"{"broken": [1, 2"#,
            "42",
            #""just a string with \t an escape""#,
            #"{"a":1,"a":2}"#,
            "not json",
            #"{"after":"an error","n":12345678901234567890123}"#,
            "",
            "[]",
        ]
        // A long one (the buffer grows), then short ones again.
        texts.append("[" + (0..<5_000).map { #"{"i":\#($0),"s":"v\#($0)"}"# }.joined(separator: ",") + "]")
        texts.append(#"{"small":true}"#)
        return texts
    }()

    @Test func everyDocumentIsTheOneAFreshParseGives() throws {
        var spare: JSONDocument?
        var recycledTapes = 0
        for round in 0..<3 {
            for text in Self.texts {
                let bytes = Array(text.utf8)[...]
                let fresh = Result { () throws(JSONParseError) in try JSONDocument(parsing: bytes) }
                // Weak: it does not keep the tape alive, nor count as another holder of it.
                weak let previous = spare?.tape
                let recycled = Result { () throws(JSONParseError) in
                    try JSONDocument(parsing: bytes, options: .default, recycling: &spare)
                }
                #expect(spare == nil, "the spare document is taken")
                switch (fresh, recycled) {
                case (.success(let expected), .success(let document)):
                    #expect(Array(document.tape.entries) == Array(expected.tape.entries), "\(text.prefix(40))")
                    #expect(document.tape.strings == expected.tape.strings)
                    #expect(document.value == expected.value)
                    #expect(document.root["name"]?.string == expected.root["name"]?.string)
                    if let previous, previous === document.tape { recycledTapes += 1 }
                    spare = document
                case (.failure(let expected), .failure(let error)):
                    #expect(error == expected, "round \(round): \(text.prefix(40))")
                default:
                    Issue.record("a fresh parse and a recycled one disagree on \(text.prefix(40))")
                }
            }
        }
        // Every valid document with a document before it (not an error, which leaves no spare)
        // reused that document's tape — four a round, and the first of the second and third rounds —
        // but the short one after the long one: that tape grew past `largestRecycledEntries`.
        #expect(recycledTapes == 14)
    }

    @Test func aDocumentStillHeldElsewhereIsNotWrittenOver() throws {
        let kept = try JSONDocument(parsing: Array(#"{"keep":"me","n":[1,2,3]}"#.utf8)[...])
        let node = kept.root["n"]
        var spare: JSONDocument? = kept
        let next = try JSONDocument(
            parsing: Array(#"{"other":"document","with":"more","keys":1}"#.utf8)[...], options: .default,
            recycling: &spare)
        #expect(ObjectIdentifier(next.tape) != ObjectIdentifier(kept.tape))
        #expect(kept.value == ["keep": "me", "n": [1, 2, 3]])
        #expect(node?.value == [1, 2, 3])
        #expect(next.root["other"]?.string == "document")
    }

    @Test func aLargeTapeIsNotKeptForTheNext() throws {
        let large = "[" + Array(repeating: "1", count: JSONDocument.largestRecycledEntries).joined(separator: ",") + "]"
        var spare: JSONDocument? = try JSONDocument(parsing: Array(large.utf8)[...])
        #expect(spare!.tape.capacity > JSONDocument.largestRecycledEntries)
        weak let largeTape = spare!.tape
        let small = try JSONDocument(parsing: Array("[1]".utf8)[...], options: .default, recycling: &spare)
        #expect(largeTape == nil, "the large tape is freed")
        #expect(small.tape.capacity <= JSONDocument.largestRecycledEntries)
        #expect(small.value == [1])
    }
}
