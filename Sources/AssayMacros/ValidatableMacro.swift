import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// The errors `@Validatable` and its attributes report at compile time.
enum AssayDiagnostic: DiagnosticMessage {
    case notAStruct
    case generic
    case missingType(String)
    case lossyNotArray(String)
    case checkNotStatic(String)
    case ruleDoesNotFit(rule: String, needs: [RuleFamily], property: String, type: String)
    case decodingInitDeclared
    case requiredNotOptional(String)
    case notNullMisplaced(String)
    case markedNullable(attribute: String, property: String)
    case additionalPropertiesNotDictionary(String)
    case secondAdditionalProperties(String)

    var message: String {
        switch self {
        case .notAStruct:
            return "@Validatable applies to structs: validation returns a normalised copy of the value"
        case .generic:
            return "@Validatable does not support generic types; declare the rules of each specialisation"
        case .missingType(let name):
            return "'\(name)' needs an explicit type (e.g. 'var \(name): String') for @Validatable to decode it"
        case .lossyNotArray(let name):
            return "@Lossy applies to arrays; '\(name)' is not an array"
        case .checkNotStatic(let name):
            return
                "@Check applies to static functions '(Self, inout RuleContext) -> Void'; make '\(name)' static"
        case .ruleDoesNotFit(let rule, let needs, let property, let type):
            let kinds = needs.map(\.description).joined(separator: " or ")
            return "'.\(rule)' checks \(kinds), but '\(property)' is '\(type)'"
        case .requiredNotOptional(let name):
            return "@Required applies to optionals (a key present with null); '\(name)' is required already"
        case .notNullMisplaced(let name):
            return
                "@NotNull applies to optionals that are not @Required (a key that may be missing, never null); for '\(name)', a key always present and never null is a non-optional property"
        case .markedNullable(let attribute, let name):
            return
                "@\(attribute) applies to optionals; '\(name)' is a Nullable, which tells a missing key (.absent) from null (.null) already"
        case .additionalPropertiesNotDictionary(let name):
            return
                "@AdditionalProperties applies to a dictionary '[String: Value]' of the members no other property names; '\(name)' is not one"
        case .secondAdditionalProperties(let name):
            return "a model keeps its other members in one @AdditionalProperties property; '\(name)' is a second"
        case .decodingInitDeclared:
            return
                "@Validatable writes init(from:) to collect every decoding failure; this type declares its own, so decoding will not be validated"
        }
    }

    var diagnosticID: MessageID {
        let name: String
        switch self {
        case .notAStruct: name = "notAStruct"
        case .generic: name = "generic"
        case .missingType: name = "missingType"
        case .lossyNotArray: name = "lossyNotArray"
        case .checkNotStatic: name = "checkNotStatic"
        case .ruleDoesNotFit: name = "ruleDoesNotFit"
        case .decodingInitDeclared: name = "decodingInitDeclared"
        case .requiredNotOptional: name = "requiredNotOptional"
        case .notNullMisplaced: name = "notNullMisplaced"
        case .markedNullable: name = "markedNullable"
        case .additionalPropertiesNotDictionary: name = "additionalPropertiesNotDictionary"
        case .secondAdditionalProperties: name = "secondAdditionalProperties"
        }
        return MessageID(domain: "Assay", id: name)
    }

    var severity: DiagnosticSeverity {
        if case .decodingInitDeclared = self { return .warning }
        return .error
    }
}

/// `@Validatable`: the rules written on a struct's properties become its `validation`; decoding
/// collects every failure; the type exports its JSON Schema.
public struct ValidatableMacro: MemberMacro, ExtensionMacro {
    static func description(
        of declaration: some DeclGroupSyntax, attribute: AttributeSyntax, in context: some MacroExpansionContext
    ) -> ModelDescription? {
        guard let structure = declaration.as(StructDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: Syntax(attribute), message: AssayDiagnostic.notAStruct))
            return nil
        }
        if structure.genericParameterClause != nil {
            context.diagnose(Diagnostic(node: Syntax(attribute), message: AssayDiagnostic.generic))
            return nil
        }
        return ModelDescription(structure)
    }

    /// Adds `CodingKeys` (unless declared), `validation` and `jsonSchema(in:)`.
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let model = description(of: declaration, attribute: node, in: context) else { return [] }
        // Diagnostics are reported once, here (the extension role reads the same description).
        for diagnostic in model.diagnostics { context.diagnose(diagnostic) }
        if model.declaresDecodingInit {
            context.diagnose(Diagnostic(node: Syntax(node), message: AssayDiagnostic.decodingInitDeclared))
        }
        guard model.diagnostics.isEmpty else { return [] }
        var members: [DeclSyntax] = []
        if !model.declaresCodingKeys {
            let cases = model.properties.map { property in
                property.hasCustomKey
                    ? "case \(property.name) = \(StringLiteralExprSyntax(content: property.key))"
                    : "case \(property.name)"
            }
            // An enum with no cases cannot have a raw type: a struct with no properties gets plain keys.
            let raw = cases.isEmpty ? "" : "String, "
            members.append(
                """
                enum CodingKeys: \(raw: raw)CodingKey, CaseIterable {
                \(raw: cases.joined(separator: "\n"))
                }
                """)
        }
        members.append(validationDeclaration(model))
        // `.rejectUnevaluated` refuses the same keys: the cascade on failure changes the places
        // reported, not the values accepted.
        let closed = [".reject", ".rejectUnevaluated"].contains(unknownKeys(of: node))
        members.append(schemaDeclaration(model, closed: closed))
        return members
    }

    static func key(_ property: ModelDescription.Property) -> String {
        "CodingKeys.\(property.name).stringValue"
    }

    static func validationDeclaration(_ model: ModelDescription) -> DeclSyntax {
        var entries: [String] = []
        let type = model.typeName
        // The keys of properties without an entry of their own, so that checking a value by key
        // knows every property (a key the validation does not know is an error).
        var bareKeys: [String] = []
        for property in model.properties {
            let keyPath = "\\\(type).\(property.name)"
            let entryCount = entries.count
            defer { if entries.count == entryCount { bareKeys.append(key(property)) } }
            for attribute in property.normalizers {
                for argument in arguments(of: attribute) {
                    entries.append(
                        ".normalize(\(keyPath), \(key(property)), \(argument.expression.trimmedDescription))")
                }
            }
            for attribute in property.rules {
                entries.append(
                    ".property(\(keyPath), \(key(property))\(ruleArguments(of: attribute, options: ["label", "on"])))")
            }
            if !TypeShape(property.type).isPlainValue {
                entries.append(".member(\(keyPath), \(key(property)))")
            }
        }
        if let additional = model.additional, let value = model.additionalValueType {
            let keyPath = "\\\(type).\(additional.name)"
            for attribute in additional.rules {
                entries.append(".additionalProperties(\(keyPath)\(ruleArguments(of: attribute, options: ["on"])))")
            }
            if !TypeShape(value).isPlainValue {
                entries.append(".additionalMembers(\(keyPath))")
            }
        }
        for check in model.checks {
            let all = arguments(of: check.attribute)
            var options = ""
            if let operations = all.first(where: { $0.label?.text == "on" }) {
                options += ", on: \(operations.expression.trimmedDescription)"
            }
            if let condition = all.first(where: { $0.label?.text == "when" }) {
                options += ", when: \(condition.expression.trimmedDescription)"
            }
            entries.append(
                ".check(\(StringLiteralExprSyntax(content: check.name))\(options)) { \(type).\(check.name)($0, &$1) }")
        }
        let list = entries.isEmpty ? "" : "\n" + entries.map { "    " + $0 }.joined(separator: ",\n") + ",\n"
        let extra = model.declaresAdditionalRules ? " + \(type).additionalRules.rules" : ""
        let keys = bareKeys.isEmpty ? "" : ", keys: [" + bareKeys.joined(separator: ", ") + "]"
        return """
            \(raw: model.access)static let validation: AssayCore.Validation<\(raw: type)> = AssayCore.Validation([\(raw: list)]\(raw: extra)\(raw: keys))
            """
    }

    static func schemaDeclaration(_ model: ModelDescription, closed: Bool = false) -> DeclSyntax {
        let properties = model.properties.map { property in
            let required = (!property.isOptional && property.defaultValue == nil) || property.mustBePresent
            // A property that is never null exports its wrapped type: not required, null not allowed.
            let type =
                property.refusesNull
                ? (TypeShape(property.type).wrapped?.trimmedDescription ?? property.type.trimmedDescription)
                : property.type.trimmedDescription
            return "(\(key(property)), (\(type)).self, \(required))"
        }
        let list =
            properties.isEmpty ? "" : "\n" + properties.map { "        " + $0 }.joined(separator: ",\n") + ",\n    "
        var options = closed ? ", additionalProperties: false" : ""
        if let value = model.additionalValueType {
            options = ", additionalPropertiesType: (\(value.trimmedDescription)).self"
        }
        return """
            \(raw: model.access)static func jsonSchema(in exporter: inout AssayCodable.JSONSchemaExporter) -> AssayJSON.JSONValue {
                exporter.model(\(raw: model.typeName).self, properties: [\(raw: list)]\(raw: options))
            }
            """
    }

    /// The arguments of a `@Validate` after the entry's first ones: `, label: …, on: …` (those of
    /// `options` written), then `, rule, rule…`.
    static func ruleArguments(of attribute: AttributeSyntax, options: [String]) -> String {
        let all = arguments(of: attribute)
        var text = ""
        for option in options {
            if let argument = all.first(where: { $0.label?.text == option }) {
                text += ", \(option): \(argument.expression.trimmedDescription)"
            }
        }
        let rules = all.filter { $0.label == nil }.map { $0.expression.trimmedDescription }
        return text + (rules.isEmpty ? "" : ", " + rules.joined(separator: ", "))
    }

    static func arguments(of attribute: AttributeSyntax) -> [LabeledExprSyntax] {
        guard case .argumentList(let arguments) = attribute.arguments else { return [] }
        return Array(arguments)
    }

    /// Adds the conformances and the collecting `init(from:)` (unless declared).
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let structure = declaration.as(StructDeclSyntax.self), structure.genericParameterClause == nil else {
            return []
        }
        let model = ModelDescription(structure)
        guard model.diagnostics.isEmpty else { return [] }
        // The compiler lists the protocols the type does not conform to yet.
        // Named with their modules: Vapor, among others, has a `Validatable` of its own, and a file
        // that imports both would find the bare name ambiguous.
        let qualified = [
            "Validatable": "AssayCore.Validatable", "Decodable": "Swift.Decodable",
            "JSONSchemaExportable": "AssayCodable.JSONSchemaExportable",
        ]
        let wanted = protocols.map(\.trimmedDescription).map { qualified[$0] ?? $0 }
        var body = ""
        if !model.declaresDecodingInit {
            body = decodingInitializer(model, unknownKeys: unknownKeys(of: node))
        }
        if model.additional != nil && !model.declaresEncodingFunction {
            body += (body.isEmpty ? "" : "\n\n") + encodingFunction(model)
        }
        let clause = wanted.isEmpty ? "" : ": " + wanted.joined(separator: ", ")
        let declaration: DeclSyntax = """
            extension \(type.trimmed)\(raw: clause) {
            \(raw: body)
            }
            """
        return [declaration.cast(ExtensionDeclSyntax.self)]
    }

    /// The expression of `@Validatable(unknownKeys: …)`, if written.
    static func unknownKeys(of node: AttributeSyntax) -> String? {
        arguments(of: node).first { $0.label?.text == "unknownKeys" }.map { $0.expression.trimmedDescription }
    }

    static func decodingInitializer(_ model: ModelDescription, unknownKeys: String? = nil) -> String {
        var lines: [String] = []
        // `Self`, not the type's name: the extension of a nested type does not see its name.
        // A model that keeps its other members has no unknown keys.
        let keys = model.additional != nil ? ", unknownKeys: .ignore" : unknownKeys.map { ", unknownKeys: \($0)" } ?? ""
        lines.append("var _assayFields = try AssayCodable.FieldDecoder<Self, CodingKeys>(decoder\(keys))")
        for property in model.properties {
            let shape = TypeShape(property.type)
            let local = property.local
            let lossy = property.isLossy ? ", lossy: true" : ""
            let call: String
            if let defaultValue = property.defaultValue, !property.isOptional {
                call =
                    "_assayFields.decode((\(property.type.trimmedDescription)).self, forKey: .\(property.name)\(lossy), default: \(defaultValue.trimmedDescription))"
            } else if shape.isOptional, let wrapped = shape.wrapped {
                let present = property.mustBePresent ? ", required: true" : ""
                call =
                    "_assayFields.decode((\(wrapped.trimmedDescription))?.self, forKey: .\(property.name)\(lossy)\(present))"
            } else {
                call =
                    "_assayFields.decode((\(property.type.trimmedDescription)).self, forKey: .\(property.name)\(lossy))"
            }
            if property.refusesNull {
                let wrapped = TypeShape(property.type).wrapped?.trimmedDescription ?? "\(property.type)"
                lines.append(
                    "_assayFields.refuseNull(forKey: .\(property.name), expected: \(StringLiteralExprSyntax(content: wrapped)))"
                )
            }
            lines.append("let \(local) = \(call)")
        }
        if let additional = model.additional, let value = model.additionalValueType {
            lines.append(
                "let \(additional.local) = _assayFields.decodeAdditionalProperties((\(value.trimmedDescription)).self, from: decoder)"
            )
        }
        let all = model.properties + (model.additional.map { [$0] } ?? [])
        let bound = all.map { "let \($0.local)" } + ["_assayFields.isComplete"]
        var checked = model.properties.map {
            "        AssayCodable.DecodedField(CodingKeys.\($0.name).stringValue, \($0.local)),"
        }
        if let additional = model.additional {
            checked.append("        AssayCodable.DecodedField(additionalProperties: \(additional.local)),")
        }
        let failure =
            checked.isEmpty
            ? "_assayFields.failure()"
            : "_assayFields.failure(checking: [\n" + checked.joined(separator: "\n") + "\n    ])"
        lines.append("guard \(bound.joined(separator: ", ")) else {\n    throw \(failure)\n}")
        for property in all {
            lines.append("self.\(property.name) = \(property.local)")
        }
        // Normalisers rewrite the value being initialised in place.
        lines.append("try _assayFields.validate(&self)")
        let indented = lines.joined(separator: "\n").split(separator: "\n", omittingEmptySubsequences: false)
            .map { "    " + $0 }.joined(separator: "\n")
        return """
            \(model.access)init(from decoder: any Decoder) throws {
            \(indented)
            }
            """
    }
}

extension ValidatableMacro {
    /// `encode(to:)` of a model with an `@AdditionalProperties` property: the properties, then the
    /// members kept beside them, in one object.
    static func encodingFunction(_ model: ModelDescription) -> String {
        var lines = ["var _assayFields = AssayCodable.FieldEncoder<CodingKeys>(encoder)"]
        for property in model.properties {
            // A key that must be present is written even when `nil` (as `null`); a `Nullable` is
            // left out when `.absent`.
            let method =
                property.isOptional && !property.mustBePresent && !property.isNullable ? "encodeIfPresent" : "encode"
            lines.append("try _assayFields.\(method)(self.\(property.name), forKey: .\(property.name))")
        }
        if let additional = model.additional {
            lines.append("try _assayFields.encodeAdditionalProperties(self.\(additional.name))")
        }
        return """
            \(model.access)func encode(to encoder: any Encoder) throws {
            \(lines.map { "    " + $0 }.joined(separator: "\n"))
            }
            """
    }
}

/// The attributes `@Validate`, `@Normalize`, `@Key`, `@Lossy` and `@Check`: markers read by
/// `@Validatable`; alone they add nothing.
public struct MarkerMacro: PeerMacro {
    /// Adds nothing.
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}
