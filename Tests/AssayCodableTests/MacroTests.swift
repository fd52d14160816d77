import AssayMacros
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

let macroSpecs: [String: MacroSpec] = [
    "Validatable": MacroSpec(
        type: ValidatableMacro.self,
        conformances: ["Validatable", "Decodable", "JSONSchemaExportable"]),
    "Validate": MacroSpec(type: MarkerMacro.self),
    "Normalize": MacroSpec(type: MarkerMacro.self),
    "Key": MacroSpec(type: MarkerMacro.self),
    "Lossy": MacroSpec(type: MarkerMacro.self),
    "Required": MacroSpec(type: MarkerMacro.self),
    "NotNull": MacroSpec(type: MarkerMacro.self),
    "Check": MacroSpec(type: MarkerMacro.self),
    "AdditionalProperties": MacroSpec(type: MarkerMacro.self),
]

func expand(_ source: String, _ expanded: String, diagnostics: [DiagnosticSpec] = []) {
    assertMacroExpansion(
        source, expandedSource: expanded, diagnostics: diagnostics, macroSpecs: macroSpecs,
        failureHandler: { failure in
            Issue.record(Comment(rawValue: failure.message))
        })
}

@Suite struct MacroTests {
    @Test func expandsRulesDecodingAndSchema() {
        expand(
            """
            @Validatable
            public struct Client {
                @Normalize(.trimmed) @Validate(.length(2...100)) var name: String
                @Validate(.range(1...150), label: "Age", on: [.insert]) var age: Int
                @Key("e_mail") var email: String?
                @Lossy var tags: [String] = []
                var address: Address
                let kind = "client"

                @Check(when: .propertiesValid)
                static func consistent(_ client: Client, _ context: inout RuleContext) {}
            }
            """,
            """
            public struct Client {
                var name: String
                var age: Int
                var email: String?
                var tags: [String] = []
                var address: Address
                let kind = "client"
                static func consistent(_ client: Client, _ context: inout RuleContext) {}

                enum CodingKeys: String, CodingKey, CaseIterable {
                    case name
                    case age
                    case email = "e_mail"
                    case tags
                    case address
                }

                public static let validation: AssayCore.Validation<Client> = AssayCore.Validation([
                    .normalize(\\Client.name, CodingKeys.name.stringValue, .trimmed),
                    .property(\\Client.name, CodingKeys.name.stringValue, .length(2 ... 100)),
                    .property(\\Client.age, CodingKeys.age.stringValue, label: "Age", on: [.insert], .range(1 ... 150)),
                    .member(\\Client.address, CodingKeys.address.stringValue),
                    .check("consistent", when: .propertiesValid) {
                            Client.consistent($0, &$1)
                        },
                    ], keys: [CodingKeys.email.stringValue, CodingKeys.tags.stringValue])

                public static func jsonSchema(in exporter: inout AssayCodable.JSONSchemaExporter) -> AssayJSON.JSONValue {
                    exporter.model(Client.self, properties: [
                        (CodingKeys.name.stringValue, (String).self, true),
                        (CodingKeys.age.stringValue, (Int).self, true),
                        (CodingKeys.email.stringValue, (String?).self, false),
                        (CodingKeys.tags.stringValue, ([String]).self, false),
                        (CodingKeys.address.stringValue, (Address).self, true),
                    ])
                }
            }

            extension Client: AssayCore.Validatable, Swift.Decodable, AssayCodable.JSONSchemaExportable {
                public init(from decoder: any Decoder) throws {
                    var _assayFields = try AssayCodable.FieldDecoder<Self, CodingKeys>(decoder)
                    let _assay_name = _assayFields.decode((String).self, forKey: .name)
                    let _assay_age = _assayFields.decode((Int).self, forKey: .age)
                    let _assay_email = _assayFields.decode((String)?.self, forKey: .email)
                    let _assay_tags = _assayFields.decode(([String]).self, forKey: .tags, lossy: true, default: [])
                    let _assay_address = _assayFields.decode((Address).self, forKey: .address)
                    guard let _assay_name, let _assay_age, let _assay_email, let _assay_tags, let _assay_address, _assayFields.isComplete else {
                        throw _assayFields.failure(checking: [
                            AssayCodable.DecodedField(CodingKeys.name.stringValue, _assay_name),
                            AssayCodable.DecodedField(CodingKeys.age.stringValue, _assay_age),
                            AssayCodable.DecodedField(CodingKeys.email.stringValue, _assay_email),
                            AssayCodable.DecodedField(CodingKeys.tags.stringValue, _assay_tags),
                            AssayCodable.DecodedField(CodingKeys.address.stringValue, _assay_address),
                        ])
                    }
                    self.name = _assay_name
                    self.age = _assay_age
                    self.email = _assay_email
                    self.tags = _assay_tags
                    self.address = _assay_address
                    try _assayFields.validate(&self)
                }
            }
            """)
    }

    @Test func keepsTheTypesOwnCodingKeysAndDecodingInit() {
        expand(
            """
            @Validatable
            struct Tag {
                @Validate(.notBlank) var name: String
                enum CodingKeys: String, CodingKey {
                    case name = "label"
                }
                init(from decoder: any Decoder) throws { name = "" }
            }
            """,
            """
            struct Tag {
                var name: String
                enum CodingKeys: String, CodingKey {
                    case name = "label"
                }
                init(from decoder: any Decoder) throws { name = "" }

                static let validation: AssayCore.Validation<Tag> = AssayCore.Validation([
                    .property(\\Tag.name, CodingKeys.name.stringValue, .notBlank),
                    ])

                static func jsonSchema(in exporter: inout AssayCodable.JSONSchemaExporter) -> AssayJSON.JSONValue {
                    exporter.model(Tag.self, properties: [
                        (CodingKeys.name.stringValue, (String).self, true),
                    ])
                }
            }

            extension Tag: AssayCore.Validatable, Swift.Decodable, AssayCodable.JSONSchemaExportable {

            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Validatable writes init(from:) to collect every decoding failure; this type declares its own, so decoding will not be validated",
                    line: 1, column: 1, severity: .warning)
            ])
    }

    @Test func ruleThatDoesNotFitThePropertyIsACompileTimeError() {
        expand(
            """
            @Validatable
            struct Client {
                @Validate(.length(2...100)) var age: Int
                @Validate(.range(1...3)) var tags: [String]
                @Validate(.email().message("bad")) var active: Bool?
            }
            """,
            """
            struct Client {
                var age: Int
                var tags: [String]
                var active: Bool?
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "'.length' checks text, but 'age' is 'Int'", line: 3, column: 15),
                DiagnosticSpec(
                    message:
                        "'.range' checks integers or floating-point numbers or dates or text, but 'tags' is '[String]'",
                    line: 4, column: 15),
                DiagnosticSpec(message: "'.email' checks text, but 'active' is 'Bool?'", line: 5, column: 15),
            ])
    }

    @Test func nullableTakesNoPresenceMarker() {
        expand(
            """
            @Validatable
            struct Patch {
                @Required var nickname: Nullable<String>
                @NotNull var note: AssayCore.Nullable<String> = .absent
            }
            """,
            """
            struct Patch {
                var nickname: Nullable<String>
                var note: AssayCore.Nullable<String> = .absent
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Required applies to optionals; 'nickname' is a Nullable, which tells a missing key (.absent) from null (.null) already",
                    line: 3, column: 5),
                DiagnosticSpec(
                    message:
                        "@NotNull applies to optionals; 'note' is a Nullable, which tells a missing key (.absent) from null (.null) already",
                    line: 4, column: 5),
            ])
    }

    @Test func misuseIsDiagnosed() {
        expand(
            """
            @Validatable
            class Client {}
            """,
            """
            class Client {}
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Validatable applies to structs: validation returns a normalised copy of the value",
                    line: 1, column: 1)
            ])
        expand(
            """
            @Validatable
            struct Box<T> {
                var value: T
            }
            """,
            """
            struct Box<T> {
                var value: T
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Validatable does not support generic types; declare the rules of each specialisation",
                    line: 1, column: 1)
            ])
        expand(
            """
            @Validatable
            struct Client {
                var name = "x"
                @Lossy var age: Int
                @Check func check(_ client: Client, _ context: inout RuleContext) {}
                @Required var id: Int
                @NotNull var code: String
            }
            """,
            """
            struct Client {
                var name = "x"
                var age: Int
                func check(_ client: Client, _ context: inout RuleContext) {}
                var id: Int
                var code: String
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'name' needs an explicit type (e.g. 'var name: String') for @Validatable to decode it",
                    line: 3, column: 9),
                DiagnosticSpec(message: "@Lossy applies to arrays; 'age' is not an array", line: 4, column: 5),
                DiagnosticSpec(
                    message:
                        "@Check applies to static functions '(Self, inout RuleContext) -> Void'; make 'check' static",
                    line: 5, column: 5),
                DiagnosticSpec(
                    message: "@Required applies to optionals (a key present with null); 'id' is required already",
                    line: 6, column: 5),
                DiagnosticSpec(
                    message:
                        "@NotNull applies to optionals that are not @Required (a key that may be missing, never null); for 'code', a key always present and never null is a non-optional property",
                    line: 7, column: 5),
            ])
        expand(
            """
            @Validatable
            struct Client {
                @AdditionalProperties var tags: [String]
                @AdditionalProperties var others: [String: Int]
                @AdditionalProperties var more: [String: String]
            }
            """,
            """
            struct Client {
                var tags: [String]
                var others: [String: Int]
                var more: [String: String]
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@AdditionalProperties applies to a dictionary '[String: Value]' of the members no other property names; 'tags' is not one",
                    line: 3, column: 5),
                DiagnosticSpec(
                    message:
                        "a model keeps its other members in one @AdditionalProperties property; 'more' is a second",
                    line: 5, column: 5),
            ])
    }
}
