import AssayCore
import AssayJSON
import AssaySchema
import Foundation
import Testing

@testable import AssayCodable

/// A model that refers to itself.
@Validatable
struct Folder: Codable {
    @Validate(.length(1...)) var name: String
    var children: [Folder]
}

/// Two models named `Item`, in different enclosing types.
enum Shop {
    @Validatable
    struct Item: Codable {
        @Validate(.range(1...)) var price: Int
    }
}

enum Library {
    @Validatable
    struct Item: Codable {
        @Validate(.length(10...13)) var isbn: String
    }
}

@Validatable
struct Order: Codable {
    var bought: Shop.Item
    var borrowed: Library.Item
}

/// Rules of every kind JSON Schema cannot state, declared by hand.
struct Account: Codable, Validatable, JSONSchemaExportable {
    var handle: String
    var password: String
    var age: Int

    static let validation: Validation<Account> = [
        .property(\.handle, "handle", .not(.custom("reserved") { $0 == "admin" })),
        .property(\.handle, "handle", on: [.insert], .length(...8)),
        .property(\.password, "password", Rule.length(12...).severity(.warning)),
        .property(\.age, "age", .or(.range(18...), .custom("consented") { _ in false })),
        .property(\.age, "age", .range(0...150)),
    ]

    static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue {
        exporter.model(
            Account.self,
            properties: [
                (key: "handle", type: String.self, required: true), ("password", String.self, true),
                ("age", Int.self, true),
            ]
        )
    }
}

/// An order whose billing details come together.
struct Invoice: Codable, Validatable, JSONSchemaExportable {
    var billing: String?
    var billingName: String?
    var billingCountry: String?

    static let validation: Validation<Invoice> = [
        .dependentRequired(
            .field(\.billing, "billing"), requires: .field(\.billingName, "billingName"),
            .field(\.billingCountry, "billingCountry"))
    ]

    static func jsonSchema(in exporter: inout JSONSchemaExporter) -> JSONValue {
        exporter.model(
            Invoice.self,
            properties: [
                (key: "billing", type: String?.self, required: false), ("billingName", String?.self, false),
                ("billingCountry", String?.self, false),
            ])
    }
}

/// A shipment billed on request, with a field that can fail to decode.
@Validatable
struct Shipment: Codable {
    @Validate(.range(1...)) var weight: Int
    var billing: String?
    var billingName: String?

    static let additionalRules: Validation<Shipment> = [
        .dependentRequired(.field(\.billing, "billing"), requires: .field(\.billingName, "billingName"))
    ]
}

@Suite struct ExportFindingsTests {
    /// A field that does not decode leaves no model for object checks, but `dependentRequired` needs
    /// only the input's keys: it is reported with the other failures, as the schema reports it.
    @Test func dependentRequiredIsReportedBesideAFieldThatDidNotDecode() throws {
        func pointers(_ json: String) -> [String] {
            do {
                _ = try JSONValueDecoder().decodeValidated(Shipment.self, from: Array(json.utf8))
                return []
            } catch {
                return error.issues.map(\.path.jsonPointer)
            }
        }
        #expect(pointers(#"{"weight": "heavy", "billing": "x"}"#) == ["/weight", "/billingName"])
        #expect(pointers(#"{"weight": 0, "billing": "x"}"#) == ["/weight", "/billingName"])
        #expect(pointers(#"{"weight": "heavy", "billing": null}"#) == ["/weight"])
        #expect(pointers(#"{"weight": "heavy", "billing": "x", "billingName": "Ann"}"#) == ["/weight"])
        #expect(pointers(#"{"weight": 2, "billing": "x", "billingName": "Ann"}"#) == [])
        let schema = try JSONSchema(JSONSchemaExporter.document(for: Invoice.self))
        #expect(!schema.isValid(["billing": "x"]))
    }

    /// `dependentRequired` is checked by the model and stated by its schema, and the two agree on
    /// every combination of present and absent properties.
    @Test func dependentRequiredAgreesWithItsSchema() throws {
        let document = JSONSchemaExporter.document(for: Invoice.self)
        guard case .object(let root) = document else { throw Failure("not an object") }
        #expect(root["dependentRequired"] == ["billing": ["billingName", "billingCountry"]])
        let schema = try JSONSchema(document)
        var verdicts: Set<Bool> = []
        for mask in 0..<8 {
            let invoice = Invoice(
                billing: mask & 1 != 0 ? "x" : nil, billingName: mask & 2 != 0 ? "y" : nil,
                billingCountry: mask & 4 != 0 ? "z" : nil)
            let json = try JSONValue(parsing: String(decoding: JSONEncoder().encode(invoice), as: UTF8.self))
            #expect(invoice.isValid == schema.isValid(json), "\(json.jsonString())")
            verdicts.insert(invoice.isValid)
        }
        #expect(verdicts == [true, false])
        let issues = Invoice(billing: "x", billingName: nil, billingCountry: "z").issues()
        #expect(issues.map(\.path.jsonPointer) == ["/billingName"])
        #expect(issues.first?.message(in: .english) == "BillingName is required when billing is given")
    }

    @Test func aModelThatRefersToItselfExportsAResolvableSchema() throws {
        let document = JSONSchemaExporter.document(for: Folder.self)
        guard case .object(let root) = document else { throw Failure("not an object: \(document.jsonString())") }
        #expect(root["$ref"] == "#/$defs/Folder")
        let schema = try JSONSchema(document)
        let nested = #"{"name": "a", "children": [{"name": "b", "children": [{"name": "c", "children": []}]}]}"#
        #expect(try schema.isValid(JSONValue(parsing: nested)))
        let badChild = #"{"name": "a", "children": [{"name": "b", "children": [{"name": "", "children": []}]}]}"#
        #expect(try !schema.isValid(JSONValue(parsing: badChild)), "the rule applies at every level")
        #expect(try JSONSchemaExporter.strictDocument(for: Folder.self) == document)
    }

    @Test func modelsOfTheSameNameKeepTheirOwnRules() throws {
        let document = JSONSchemaExporter.document(for: Order.self)
        guard case .object(let root) = document, case .object(let definitions)? = root["$defs"] else {
            throw Failure("no $defs: \(document.jsonString())")
        }
        #expect(definitions.count == 2, "\(definitions.keys)")
        let schema = try JSONSchema(document)
        #expect(
            try schema.isValid(JSONValue(parsing: #"{"bought": {"price": 5}, "borrowed": {"isbn": "0123456789"}}"#)))
        #expect(
            try !schema.isValid(JSONValue(parsing: #"{"bought": {"price": 0}, "borrowed": {"isbn": "0123456789"}}"#)))
        #expect(try !schema.isValid(JSONValue(parsing: #"{"bought": {"price": 5}, "borrowed": {"isbn": "0"}}"#)))
    }

    @Test func whatCannotBeStatedIsNamedNeverWeakened() throws {
        let document = JSONSchemaExporter.document(for: Account.self)
        guard case .object(let root) = document, case .object(let properties)? = root["properties"],
            case .array(let unchecked)? = root["x-assay-unchecked"]
        else { throw Failure("unexpected export: \(document.jsonString())") }
        // `not` of a custom rule is left out whole (it once exported `{"not": {}}`, which rejects
        // everything); so is an `or` with a custom branch; the rule for one operation and the warning
        // are not assertions.
        #expect(properties["handle"] == ["type": "string"])
        #expect(properties["password"] == ["type": "string"])
        #expect(properties["age"] == ["type": "integer", "minimum": 0, "maximum": 150])
        #expect(
            unchecked == [
                "Account.handle: not(custom(reserved))",
                "Account.handle: length(maximum: 8, unit: unicodeScalars) (only on insert)",
                "Account.password: length(minimum: 12, unit: unicodeScalars) (warning only)",
                "Account.age: or(range(minimum: 18), custom(consented))",
            ])
        let error = #expect(throws: SchemaExportError.self) { try JSONSchemaExporter.strictDocument(for: Account.self) }
        #expect(error?.unchecked.count == 4)
        // Advice inside a combination is not asserted either: only the rest of an `and` is.
        let advice = JSONSchemaExporter.keywords(
            for: Rule<String>.and(.length(12...).severity(.warning), .notBlank).kind)
        #expect(advice.keywords.keys == ["pattern"])
        #expect(advice.unstated == ["length(minimum: 12, unit: unicodeScalars) (warning only)"])
        #expect(
            JSONSchemaExporter.keywords(for: Rule<String>.not(.length(...3).severity(.warning)).kind).keywords.isEmpty)
        // The lenient schema accepts everything the rules accept.
        let schema = try JSONSchema(document)
        let account = Account(handle: "admin", password: "short", age: 17)
        #expect(schema.isValid(try JSONValue(parsing: String(decoding: JSONEncoder().encode(account), as: UTF8.self))))
    }

    @Test func anOperationsExportStatesItsRules() throws {
        // For a create request's body, the insert-only rule is a keyword, not a note.
        let insert = JSONSchemaExporter.document(for: Account.self, operation: .insert)
        guard case .object(let root) = insert, case .object(let properties)? = root["properties"],
            case .array(let unchecked)? = root["x-assay-unchecked"]
        else { throw Failure("unexpected export: \(insert.jsonString())") }
        #expect(properties["handle"] == ["type": "string", "maxLength": 8])
        #expect(!unchecked.contains { $0.string?.contains("only on") == true })
        let schema = try JSONSchema(insert)
        #expect(!schema.isValid(["handle": "longer than eight", "password": "x", "age": 20]))
        #expect(schema.isValid(["handle": "short", "password": "x", "age": 20]))
        // For an update, the insert-only rule is not there at all.
        let update = JSONSchemaExporter.document(for: Account.self, operation: .update)
        guard case .object(let updateRoot) = update, case .object(let updateProperties)? = updateRoot["properties"]
        else { throw Failure("unexpected export: \(update.jsonString())") }
        #expect(updateProperties["handle"] == ["type": "string"])
        #expect(try JSONSchema(update).isValid(["handle": "longer than eight", "password": "x", "age": 20]))
    }
}

/// A test's own failure, with its reason.
private struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
