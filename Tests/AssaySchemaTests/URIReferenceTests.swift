import Testing

@testable import AssaySchema

/// How `$id`, `$ref` and `$dynamicRef` values are split and resolved: RFC 3986.
@Suite("URI references")
struct URIReferenceTests {
    /// RFC 3986 section 5.4: every normal and abnormal example, against its base.
    @Test func everyExampleOfTheRFCResolves() {
        let base = URIReference("http://a/b/c/d;p?q")
        let examples: [(String, String)] = [
            ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
            ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
            (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
            ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
            ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
            ("../../g", "http://a/g"),
            // Abnormal (5.4.2).
            ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"),
            ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."),
            ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"),
            ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"), ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
            ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"),
            ("g?y/../x", "http://a/b/c/g?y/../x"),
            ("g#s/./x", "http://a/b/c/g#s/./x"), ("g#s/../x", "http://a/b/c/g#s/../x"), ("http:g", "http:g"),
        ]
        for (reference, expected) in examples {
            #expect(base.resolving(reference).description == expected, "\(reference)")
        }
    }

    /// The five parts, with the delimiters found among the bytes: text that is not ASCII around
    /// them, and a combining mark after a delimiter (one character with it, still a delimiter).
    @Test func partsAreSplitAtTheirDelimiters() {
        let full = URIReference("https://exämple.com:8080/dïr/schema.json?q=1#/$defs/ä")
        #expect(full.scheme == "https")
        #expect(full.authority == "exämple.com:8080")
        #expect(full.path == "/dïr/schema.json")
        #expect(full.query == "q=1")
        #expect(full.fragment == "/$defs/ä")

        let marked = URIReference("urn:x/a#\u{301}b")
        #expect(marked.scheme == "urn")
        #expect(marked.path == "x/a")
        #expect(marked.fragment == "\u{301}b")

        // Not a scheme: a digit first, a character outside the scheme's alphabet, a letter not ASCII.
        for text in ["1abc:def", "a_b:def", "ä:def", ":def"] {
            let reference = URIReference(text)
            #expect(reference.scheme == nil, "\(text)")
            #expect(reference.path == text, "\(text)")
        }
        let plain = URIReference("a+b-c.d:rest")
        #expect(plain.scheme == "a+b-c.d")
        #expect(plain.path == "rest")
        #expect(URIReference("//host").authority == "host")
        #expect(URIReference("//host").path == "")
        #expect(URIReference("/just/a/path").authority == nil)
    }
}
