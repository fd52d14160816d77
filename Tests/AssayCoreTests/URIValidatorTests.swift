import Testing

@testable import AssayCore

@Suite("URI components")
struct URIValidatorTests {
    /// RFC 3986's character classes, written out (section 2.2, 2.3, 3.2.1, 3.3, 3.4, 3.5).
    static let unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    static let subDelimiters = "!$&'()*+,;="
    static let path = unreserved + subDelimiters + ":@/"
    static let fragment = unreserved + subDelimiters + ":@/?"
    static let userInfo = unreserved + subDelimiters + ":"
    static let host = unreserved + subDelimiters

    /// Every printable ASCII character in each component of an absolute URI is accepted exactly when
    /// the RFC's class for that component has it (characters that end or change the component left
    /// out: `%` starts an escape, `#` `?` `/` `@` `[` `]` delimit).
    @Test(arguments: [
        ("path", "http://h.test/a", "b", path, "#?%"),
        ("query", "http://h.test/a?x", "y", fragment, "#%"),
        ("fragment", "http://h.test/a#x", "y", fragment, "%"),
        ("user info", "http://u", "v@h.test/", userInfo, "@/?#%[]"),
        ("host", "http://h", "x.test/", host, "/?#@:%[]"),
    ])
    func eachCharacterAsTheRFCClassSays(
        component: String, before: String, after: String, allowed: String, delimiters: String
    ) {
        for byte in UInt8(0x21)..<0x7F {
            let character = Character(Unicode.Scalar(byte))
            guard !delimiters.contains(character) else { continue }
            let text = before + String(character) + after
            #expect(URIValidator.isValidURI(text) == allowed.contains(character), "\(component): \(text)")
            #expect(URIValidator.isValidIRI(text) == allowed.contains(character), "\(component): \(text)")
        }
    }

    @Test func theSetsHoldASCIIOnly() {
        for byte in UInt8(0)...UInt8(255) {
            let inBase = byte < 0x80 && (Self.unreserved + Self.subDelimiters).utf8.contains(byte)
            #expect(URIValidator.componentAllowed.contains(byte) == inBase, "\(byte)")
            #expect(URIValidator.pathAllowed.contains(byte) == (byte < 0x80 && Self.path.utf8.contains(byte)))
        }
        // Percent-encodings and non-ASCII text as before.
        #expect(URIValidator.isValidURI("http://h.test/a%20b"))
        #expect(!URIValidator.isValidURI("http://h.test/a%2"))
        #expect(!URIValidator.isValidURI("http://h.test/é"))
        #expect(URIValidator.isValidIRI("http://h.test/é"))
    }
}
