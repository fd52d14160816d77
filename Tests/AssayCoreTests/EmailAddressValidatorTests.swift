import Testing

@testable import AssayCore

/// One address and what the validator must say of it.
struct EmailCase: CustomTestStringConvertible, Sendable {
    let address: String
    let rejection: EmailRejection?
    let options: EmailAddressValidator.Options
    let why: String

    init(
        _ address: String, _ rejection: EmailRejection?, _ options: EmailAddressValidator.Options = .default,
        _ why: String = ""
    ) {
        self.address = address
        self.rejection = rejection
        self.options = options
        self.why = why
    }

    var testDescription: String { "\(address.debugDescription) → \(rejection?.identifier ?? "valid")" }
}

enum EmailCorpus {
    static let l63 = String(repeating: "a", count: 63)
    static let l64 = String(repeating: "a", count: 64)

    /// RFC 5321 §4.1.2 Dot-string of RFC 5322 atext.
    static let valid: [EmailCase] = [
        EmailCase("simple@example.com", nil),
        EmailCase("very.common@example.com", nil),
        EmailCase("disposable.style.email.with+symbol@example.com", nil),
        EmailCase("other.email-with-hyphen@example.com", nil),
        EmailCase("fully-qualified-domain@example.com", nil),
        EmailCase("user.name+tag+sorting@example.com", nil),
        EmailCase("x@example.com", nil, .default, "one-letter local part"),
        EmailCase("example-indeed@strange-example.com", nil),
        EmailCase("admin@mailserver1", nil, .default, "RFC 5321 allows a single-label domain"),
        EmailCase("example@s.example", nil),
        EmailCase("mailhost!username@example.org", nil, .default, "! is atext"),
        EmailCase("user%example.com@example.org", nil, .default, "% is atext"),
        EmailCase("user-@example.org", nil, .default, "a hyphen may end the local part"),
        EmailCase("john@doe.test", nil),
        EmailCase("a@b.co", nil),
        EmailCase("!#$%&'*+-/=?^_`{|}~@example.com", nil, .default, "every atext special"),
        EmailCase("1234567890@example.com", nil),
        EmailCase("_______@example.com", nil),
        EmailCase("email@123.123.123.com", nil, .default, "numeric labels below an alphabetic TLD"),
        EmailCase("email@example-one.com", nil),
        EmailCase("email@example.name", nil),
        EmailCase("email@example.museum", nil),
        EmailCase("email@example.co.jp", nil),
        EmailCase("firstname-lastname@example.com", nil),
        EmailCase("UPPER@EXAMPLE.COM", nil),
        EmailCase("a.b.c.d.e@example.com", nil),
        EmailCase("o'reilly@example.com", nil),
        EmailCase("user@3com.com", nil, .default, "a label may start with a digit (RFC 1123)"),
        EmailCase("user@a-b.c-d.example", nil),
        EmailCase("x@x.x", nil),
        EmailCase("user@sub.domain.example.com", nil),
        EmailCase("\(l64)@example.com", nil, .default, "a 64-octet local part is the limit"),
        EmailCase("user@\(l63).com", nil, .default, "a 63-octet label is the limit"),
        EmailCase("test@xn--bcher-kva.example", nil, .default, "an A-label (bücher)"),
        EmailCase("test@XN--BCHER-KVA.example", nil, .default, "A-label prefix in capitals"),
        EmailCase("user@example.com1a", nil, .default, "a TLD that is not all digits"),
        EmailCase("a-b_c@example.com", nil),
        EmailCase("{tag}@example.com", nil),
        EmailCase("~@example.com", nil),
        EmailCase("test@xn--e1afmkfd.xn--p1ai", nil, .ascii, "A-labels are ASCII: allowed in ASCII mode"),
    ]

    /// RFC 6531 §3.3: UTF8-non-ascii in the local part; IDNA U-labels in the domain.
    static let international: [EmailCase] = [
        EmailCase("用户@例子.广告", nil),
        EmailCase("अजय@डाटा.भारत", nil, .default, "Devanagari with combining vowel signs"),
        EmailCase("квіточка@пошта.укр", nil),
        EmailCase("θσερ@εχαμπλε.ψομ", nil),
        EmailCase("Dörte@Sörensen.example.com", nil),
        EmailCase("коля@пример.рф", nil),
        EmailCase("josé@example.es", nil),
        EmailCase("user@bücher.example", nil),
        EmailCase("ñoño@example.com", nil),
        EmailCase("用户@example.com", nil),
        EmailCase("user@例子.中国", nil),
        EmailCase("δοκιμή@παράδειγμα.δοκιμή", nil),
        EmailCase("我買@屋企.香港", nil),
        EmailCase("二ノ宮@黒川.日本", nil),
        EmailCase("medved@медведь.рф", nil),
        EmailCase("xiaoming@例子.中国", nil),
        EmailCase("user@ไทย.ไทย", nil, .default, "Thai with combining marks"),
        EmailCase("user@مثال.إختبار", nil, .default, "Arabic"),
        EmailCase("user@בדיקה.טעסט", nil, .default, "Hebrew"),
        EmailCase("user@한국.한국", nil, .default, "Hangul"),
        EmailCase("почта@пример.рф", .nonASCIINotAllowed, .ascii),
        EmailCase("josé@example.es", .nonASCIINotAllowed, .ascii),
        EmailCase("user@bücher.example", .nonASCIINotAllowed, .ascii),
        EmailCase("user@💩.la", .invalidDomainCharacter, .default, "symbols are not PVALID"),
        EmailCase("user@xn--ls8h.la", .invalidPunycode, .default, "the A-label of 💩 decodes to a symbol"),
        EmailCase("user@xn--a.com", .invalidPunycode, .default, "decodes to U+0080, a control"),
        EmailCase("user@xn--.com", .labelEndsWithHyphen, .default, "an empty A-label ends with its hyphen"),
        EmailCase("user@xn--abc-.com", .labelEndsWithHyphen),
        EmailCase("user@xn--!!.com", .invalidDomainCharacter),
        EmailCase(
            "user@\u{0301}abc.com", .invalidDomainCharacter, .default, "a label may not start with a combining mark"),
        EmailCase("user@пример..рф", .emptyLabel),
        EmailCase("user@-пример.рф", .labelStartsWithHyphen),
        EmailCase("user@пример-.рф", .labelEndsWithHyphen),
        EmailCase("user@пр--имер.рф", .reservedHyphens),
        EmailCase(
            "user@\(String(repeating: "я", count: 60)).рф", .labelTooLong, .default, "its A-label is over 63 octets"),
        EmailCase("по\u{2003}чта@пример.рф", .whitespace, .default, "an em space"),
        EmailCase("почта@при\u{3000}мер.рф", .whitespace, .default, "an ideographic space"),
        EmailCase("us\u{E000}er@example.com", .invalidLocalCharacter, .default, "private use"),
        EmailCase("us\u{2028}er@example.com", .whitespace, .default, "a line separator"),
    ]

    static let invalid: [EmailCase] = [
        EmailCase("", .empty),
        EmailCase("Abc.example.com", .missingAtSign),
        EmailCase("plainaddress", .missingAtSign),
        EmailCase("@example.com", .emptyLocalPart),
        EmailCase("@", .emptyLocalPart),
        EmailCase("user@", .emptyDomain),
        EmailCase("A@b@c@example.com", .invalidDomainCharacter, .default, "a second @ lands in the domain"),
        EmailCase("a\"b(c)d,e:f;g<h>i[j\\k]l@example.com", .invalidLocalCharacter),
        EmailCase("just\"not\"right@example.com", .invalidLocalCharacter),
        EmailCase("this is\"not\\allowed@example.com", .whitespace),
        EmailCase("this\\ still\\\"not\\\\allowed@example.com", .invalidLocalCharacter),
        EmailCase("\(l64)x@example.com", .localPartTooLong, .default, "65 octets"),
        EmailCase(
            "\(String(repeating: "é", count: 33))@example.com", .localPartTooLong, .default, "33 × 2 octets of UTF-8"),
        EmailCase(".user@example.com", .leadingDot),
        EmailCase("user.@example.com", .trailingDot),
        EmailCase("us..er@example.com", .consecutiveDots),
        EmailCase("john..doe@example.com", .consecutiveDots),
        EmailCase(".@example.com", .leadingDot),
        EmailCase("user@example..com", .emptyLabel),
        EmailCase("user@.example.com", .emptyLabel),
        EmailCase("user@example.com.", .emptyLabel, .default, "no trailing root dot in a mailbox"),
        EmailCase("user@.", .emptyLabel),
        EmailCase("user@-example.com", .labelStartsWithHyphen),
        EmailCase("user@example-.com", .labelEndsWithHyphen),
        EmailCase("user@example.-com", .labelStartsWithHyphen),
        EmailCase("user@exa_mple.com", .invalidDomainCharacter),
        EmailCase("user@example.123", .numericTopLevelDomain),
        EmailCase("user@123", .numericTopLevelDomain),
        EmailCase("user@192.168.0.1", .numericTopLevelDomain, .default, "an IP needs brackets"),
        EmailCase("user@[192.168.0.1]", .domainLiteralNotAllowed),
        EmailCase("user@[IPv6:2001:db8::1]", .domainLiteralNotAllowed),
        EmailCase("\"john doe\"@example.com", .quotedLocalPartNotAllowed),
        EmailCase("\"john\"@example.com", .quotedLocalPartNotAllowed),
        EmailCase("user name@example.com", .whitespace),
        EmailCase("user@exam ple.com", .whitespace),
        EmailCase(" user@example.com", .whitespace),
        EmailCase("user@example.com ", .whitespace),
        EmailCase("user\u{A0}name@example.com", .whitespace, .default, "a no-break space"),
        EmailCase("user\n@example.com", .controlCharacter),
        EmailCase("user@exa\tmple.com", .controlCharacter),
        EmailCase("us\u{7F}er@example.com", .controlCharacter, .default, "DEL"),
        EmailCase("us\u{85}er@example.com", .controlCharacter, .default, "a C1 control"),
        EmailCase("us\u{0}er@example.com", .controlCharacter, .default, "NUL"),
        // Issue 23: invisible format characters (Cf) were accepted in the local part.
        EmailCase("us\u{200B}er@example.com", .invisibleCharacter, .default, "a zero-width space"),
        EmailCase("us\u{200D}er@example.com", .invisibleCharacter, .default, "a zero-width joiner"),
        EmailCase("user\u{202E}moc.elpmaxe@example.com", .invisibleCharacter, .default, "a right-to-left override"),
        EmailCase("\u{FEFF}user@example.com", .invisibleCharacter, .default, "a byte order mark"),
        EmailCase("us\u{0604}er@example.com", .invisibleCharacter, .default, "an Arabic number mark above"),
        EmailCase("user@exam\u{2066}ple.com", .invisibleCharacter, .default, "a left-to-right isolate"),
        EmailCase("\"us\u{200B}er\"@example.com", .invisibleCharacter, .rfc, "quoted, too"),
        EmailCase("user@\(l64).com", .labelTooLong),
        EmailCase("u@" + Array(repeating: l63, count: 4).joined(separator: ".") + ".com", .domainTooLong),
        EmailCase(
            "\(l64)@" + Array(repeating: String(repeating: "b", count: 62), count: 3).joined(separator: ".") + ".cc",
            .addressTooLong,
            .default, "64 + 1 + 191 = 256 octets"),
        EmailCase("user@ab--cd.com", .reservedHyphens),
        EmailCase("user@example.c--m", nil, .default, "hyphens in places 2 and 3 are fine"),
        EmailCase("user@xn--bcher-kva.example", nil),
        // An A-label must be the exact encoding of a U-label IDNA 2008 allows (the 1M-address
        // comparison with email-validator found these accepted); a U-label written as such is mapped.
        EmailCase("user@xn--e1afmkfd.com", nil, .default, "пример"),
        EmailCase("user@xn--r0a8biqsd.com", .invalidPunycode, .default, "Пример: upper case"),
        EmailCase("user@xn--xample-hy68a.com", .invalidPunycode, .default, "ｅxample: a compatibility form"),
        EmailCase("user@xn----jtbiqngd.com", .invalidPunycode, .default, "-пример: a hyphen first"),
        EmailCase("user@xn--ab---epa.com", .invalidPunycode, .default, "ab--é: hyphens third and fourth"),
        EmailCase("user@xn--e-xbb.com", .invalidPunycode, .default, "e and a combining acute: not NFC"),
        EmailCase("user@xn--zca.de", nil, .default, "ß: PVALID by RFC 5892's exceptions"),
        EmailCase("user@Пример.рф", nil, .default, "a U-label is mapped (UTS 46), not refused"),
        EmailCase("user@xn\u{301}--b.com", .reservedHyphens, .default, "xń-- in NFC: hyphens third and fourth"),
        EmailCase("\u{301}user@example.com", .leadingCombiningMark, .default, "renders on what comes before"),
        EmailCase("u\u{301}ser@example.com", nil, .default, "a mark after a letter is fine"),
        EmailCase("user@example.com@example.com", .invalidDomainCharacter),
        EmailCase("user@exam!ple.com", .invalidDomainCharacter),
        EmailCase("user@(comment)example.com", .invalidDomainCharacter, .default, "no CFWS in RFC 5321 mailboxes"),
        EmailCase("(comment)user@example.com", .invalidLocalCharacter),
        EmailCase("user@example.com>", .invalidDomainCharacter),
        EmailCase("<user@example.com>", .invalidLocalCharacter),
        EmailCase("Joe <joe@example.com>", .whitespace, .default, "a display name is not an address"),
    ]

    /// RFC 5321 Quoted-string, allowed by an option.
    static let quoted: [EmailCase] = [
        EmailCase("\"john doe\"@example.com", nil, .rfc),
        EmailCase("\"john..doe\"@example.com", nil, .rfc),
        EmailCase("\"john@doe\"@example.com", nil, .rfc),
        EmailCase("\"\"@example.com", nil, .rfc, "Quoted-string allows zero characters"),
        EmailCase("\"a\\\"b\"@example.com", nil, .rfc, "an escaped quote"),
        EmailCase("\"a\\\\b\"@example.com", nil, .rfc, "an escaped backslash"),
        EmailCase("\" \"@example.com", nil, .rfc),
        EmailCase("\"very.(),:;<>[]\\\".VERY.\\\"very@\\\\ \\\"very\\\".unusual\"@strange.example.com", nil, .rfc),
        EmailCase("\"josé\"@example.com", nil, .rfc, "UTF-8 in a quoted string (RFC 6531)"),
        EmailCase(
            "\"josé\"@example.com", .nonASCIINotAllowed,
            EmailAddressValidator.Options(allowsInternational: false, allowsQuotedLocalPart: true)),
        EmailCase("\"unterminated@example.com", .invalidQuotedString, .rfc),
        EmailCase("\"a\"b@example.com", .invalidQuotedString, .rfc, "text after the closing quote"),
        EmailCase("\"a\"", .missingAtSign, .rfc),
        EmailCase("\"a\\\"@example.com", .invalidQuotedString, .rfc, "the closing quote is escaped"),
        EmailCase("\"a\u{1}b\"@example.com", .controlCharacter, .rfc),
        EmailCase("\"a\\\u{E9}\"@example.com", .invalidQuotedString, .rfc, "quoted-pair takes printable ASCII only"),
        EmailCase("a\"b\"@example.com", .invalidQuotedString, .rfc, "a quote inside a dot-string"),
        EmailCase(
            "\"\(String(repeating: "a", count: 63))\"@example.com", .localPartTooLong, .rfc, "65 octets with the quotes"
        ),
        EmailCase("\"\(String(repeating: "a", count: 62))\"@example.com", nil, .rfc, "64 octets with the quotes"),
    ]

    /// RFC 5321 §4.1.3 address literals, allowed by an option.
    static let literals: [EmailCase] = [
        EmailCase("user@[192.168.0.1]", nil, .rfc),
        EmailCase("user@[IPv6:2001:db8::1]", nil, .rfc),
        EmailCase("user@[IPv6:::1]", nil, .rfc),
        EmailCase("user@[IPv6:::ffff:192.0.2.1]", nil, .rfc),
        EmailCase("user@[IPv6:2001:db8:0:0:0:0:0:1]", nil, .rfc),
        EmailCase("user@[300.1.1.1]", .invalidDomainLiteral, .rfc),
        EmailCase("user@[1.2.3]", .invalidDomainLiteral, .rfc),
        EmailCase("user@[01.2.3.4]", .invalidDomainLiteral, .rfc, "no leading zeros"),
        EmailCase("user@[IPv6:2001:db8::g]", .invalidDomainLiteral, .rfc),
        EmailCase("user@[IPv6:1:2:3:4:5:6:7:8:9]", .invalidDomainLiteral, .rfc),
        EmailCase("user@[IPv6:1::2::3]", .invalidDomainLiteral, .rfc),
        EmailCase("user@[2001:db8::1]", .invalidDomainLiteral, .rfc, "IPv6 needs the IPv6: tag"),
        EmailCase("user@[192.168.0.1", .invalidDomainLiteral, .rfc),
        EmailCase("user@[example.com]", .invalidDomainLiteral, .rfc),
        EmailCase("user@[]", .invalidDomainLiteral, .rfc),
    ]

    /// Each RFC 5322 atext special alone in a local part is valid.
    static let atextSpecials: [EmailCase] = "!#$%&'*+-/=?^_`{|}~".map { EmailCase("a\($0)b@example.com", nil) }

    /// Each RFC 5322 specials character (and the backslash) unquoted in a local part is invalid.
    static let localSpecials: [EmailCase] = "(),:;<>[]\\".map {
        EmailCase("a\($0)b@example.com", .invalidLocalCharacter)
    }

    /// Only letters, digits and hyphens may form an ASCII domain label.
    static let domainSpecials: [EmailCase] = "!#$%&'*+/=?^_`{|}~(),:;<>\"\\[]".map {
        EmailCase("user@ex\($0)ample.com", .invalidDomainCharacter)
    }

    static let all: [EmailCase] =
        valid + international + invalid + quoted + literals + atextSpecials + localSpecials + domainSpecials
}

@Suite struct EmailAddressValidatorTests {
    @Test func corpusHasAtLeastTwoHundredCases() {
        #expect(EmailCorpus.all.count >= 200)
    }

    @Test(arguments: EmailCorpus.all)
    func rejectsForTheRightReason(_ example: EmailCase) {
        let validator = EmailAddressValidator(options: example.options)
        #expect(validator.rejection(for: example.address) == example.rejection, "\(example.why)")
    }

    @Test func ruleReportsTheReasonInEveryLanguage() throws {
        let issues = Rule<String>.email().issues(for: "john..doe@example.com", label: "Email")
        #expect(issues.count == 1)
        let issue = try #require(issues.first)
        #expect(issue.code == .invalidFormat("email"))
        #expect(issue.parameters["reason"] == "consecutiveDots")
        #expect(issue.message(in: .english) == "Email must be a valid email address: it has two dots in a row")
        #expect(
            issue.message(in: .russian)
                == "Значение поля «Email» должно быть корректным адресом электронной почты: в нём две точки подряд")
        #expect(issue.message(in: .simplifiedChinese) == "Email必须是有效的电子邮件地址：包含连续的两个点")
    }

    @Test func everyRejectionHasAMessageInEveryBuiltInLanguage() {
        let reasons = EmailCorpus.all.compactMap(\.rejection).map(\.identifier)
        for reason in Set(reasons) {
            for language in Language.builtIn {
                #expect(
                    MessageCatalog.builtIn.templates[language]?["reason.\(reason)"] != nil, "\(reason) in \(language)")
            }
        }
    }

    @Test func punycodeRoundTrips() {
        #expect(Punycode.decode("bcher-kva") == "bücher")
        #expect(Punycode.encode("bücher") == "bcher-kva")
        #expect(Punycode.decode("e1afmkfd") == "пример")
        #expect(Punycode.encode("例子") == "fsqu00a")
        #expect(Punycode.decode("fsqu00a") == "例子")
        #expect(Punycode.decode("€€€") == nil)
    }
}

@Suite struct IPAddressTests {
    @Test(arguments: ["0.0.0.0", "192.168.0.1", "255.255.255.255", "1.2.3.4"])
    func validIPv4(_ text: String) { #expect(IPAddress.isValidIPv4(text)) }

    @Test(arguments: ["256.1.1.1", "1.2.3", "1.2.3.4.5", "01.2.3.4", "1..2.3", "a.b.c.d", "", "1.2.3.4 ", "١.٢.٣.٤"])
    func invalidIPv4(_ text: String) { #expect(!IPAddress.isValidIPv4(text)) }

    @Test(arguments: [
        "::", "::1", "2001:db8::1", "fe80::1:2:3:4", "1:2:3:4:5:6:7:8", "::ffff:192.0.2.1", "1::",
        "1:2:3:4:5:6:1.2.3.4",
    ])
    func validIPv6(_ text: String) { #expect(IPAddress.isValidIPv6(text)) }

    @Test(arguments: [
        ":::", "1:2:3:4:5:6:7:8:9", "1::2::3", "12345::", "g::1", "1:2:3:4:5:6:7", "::1.2.3", "[::1]", "fe80::1%eth0",
        "1:2:3:4:5:6:7:1.2.3.4",
    ])
    func invalidIPv6(_ text: String) { #expect(!IPAddress.isValidIPv6(text)) }
}

@Suite struct EmailFastPathTests {
    /// The fast path's `atext` bits are RFC 5322's.
    @Test func atextBitsMatchTheGrammar() {
        for value in UInt8(0)...0xFF {
            let expected = value < 0x80 && EmailAddressValidator.isAtext(Unicode.Scalar(value))
            #expect(EmailAddressValidator.isPlainAtext(value) == expected, "byte \(value)")
        }
    }

    /// Ordinary addresses are decided on the fast path (it is not a check that always declines).
    @Test(arguments: [
        "a@b.co", "john.doe@example.com", "li5936@web.de", "max9290@yahoo.co.jp", "ana.novak@icloud.com",
        "!#$%&'*+-/=?^_`{|}~@example.org", "user_name@mail.example.com", "first.last+tag@sub-domain.example.travel",
    ])
    func plainAddressesTakeTheFastPath(_ address: String) {
        var bytes = address
        let fast = bytes.withUTF8(EmailAddressValidator.isPlainASCIIAddress)
        #expect(fast)
    }

    /// The plain-ASCII fast path may only accept what every rule accepts, under every option set.
    @Test func fastPathAcceptsOnlyValidAddresses() {
        var corpus = [
            "a@b.co", "john.doe@example.com", "john..doe@example.com", ".john@example.com", "john.@example.com",
            "j@localhost", "j@1.2.3.4", "j@1.2.3.com", "j@example.123", "j@-example.com", "j@example-.com",
            "j@ex--ample.com", "j@xn--80ak6aa92e.com", "j@xn--zz.com", "j@ab--cd.com", "j@a..b", "j@.a", "j@a.",
            "a b@c.com", "\"ab\"@c.com", "j@[1.2.3.4]", "j@@c.com", "@c.com", "j@", "j@c_d.com",
            "!#$%&'*+-/=?^_`{|}~@example.org", "j(comment)@c.com", "j@c.com.",
            "x@" + String(repeating: "a", count: 63) + ".com",
            "x@" + String(repeating: "a", count: 64) + ".com", String(repeating: "l", count: 64) + "@c.com",
            String(repeating: "l", count: 65) + "@c.com", "é@c.com", "j@é.com", "j\u{7F}@c.com", "j@c.com\n",
        ]
        // Lengths around the 253/254 limits.
        let label = String(repeating: "a", count: 63)
        for extra in 0..<8 {
            corpus.append(
                "j@" + [label, label, label, String(repeating: "b", count: 58 + extra)].joined(separator: "."))
            corpus.append(
                String(repeating: "k", count: 1 + extra) + "@" + [label, label, label, "b"].joined(separator: "."))
        }
        for address in corpus {
            var bytes = address
            let fast = bytes.withUTF8(EmailAddressValidator.isPlainASCIIAddress)
            for options in [EmailAddressValidator.Options.default, .ascii, .rfc] {
                let full = EmailAddressValidator(options: options).fullRejection(for: address)
                if fast {
                    #expect(
                        full == nil, "\(address) is accepted by the fast path but rejected: \(String(describing: full))"
                    )
                }
                #expect(EmailAddressValidator(options: options).rejection(for: address) == full, "\(address)")
            }
        }
    }
}
