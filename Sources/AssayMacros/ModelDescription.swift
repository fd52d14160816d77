import SwiftDiagnostics
import SwiftParser
import SwiftSyntax

/// What `@Validatable` reads off a struct: its stored properties with their attributes, and its
/// `@Check` functions.
struct ModelDescription {
    struct Property {
        /// The name as written: `` `default` `` keeps its backticks, for code that names the property.
        var name: String
        var type: TypeSyntax
        /// The JSON key: `@Key("…")`, or the property's name.
        var key: String
        var hasCustomKey: Bool
        /// `T?`, or a ``Nullable`` (`Nullable<T>`): a key that may be missing.
        var isOptional: Bool
        /// `Nullable<T>`: missing, `null` and a value told apart.
        var isNullable = false
        var defaultValue: ExprSyntax?
        var isLossy: Bool
        /// `@Required`: the key must be present even when the value may be `null`.
        var mustBePresent: Bool
        /// `@NotNull`: the key may be missing, but its value is never `null`.
        var refusesNull = false
        var rules: [AttributeSyntax]
        var normalizers: [AttributeSyntax]

        /// The name without the backticks that escape a keyword.
        var bareName: String {
            name.count > 1 && name.hasPrefix("`") && name.hasSuffix("`") ? String(name.dropFirst().dropLast()) : name
        }
        /// The initialiser's local for the decoded value.
        var local: String { "_assay_" + bareName }
    }

    struct Check {
        var name: String
        var attribute: AttributeSyntax
    }

    var typeName: String
    var access: String
    var properties: [Property] = []
    /// The `@AdditionalProperties` property: the members the properties do not name.
    var additional: Property?
    /// The value type of its dictionary (`T` of `[String: T]`).
    var additionalValueType: TypeSyntax?
    var declaresEncodingFunction = false
    var checks: [Check] = []
    var declaresCodingKeys = false
    var declaresDecodingInit = false
    var declaresAdditionalRules = false
    var diagnostics: [Diagnostic] = []

    init(_ declaration: StructDeclSyntax) {
        typeName = declaration.name.text
        access =
            declaration.modifiers.first { ["public", "package"].contains($0.name.text) }.map { $0.name.text + " " }
            ?? ""
        for member in declaration.memberBlock.members {
            let decl = member.decl
            if let nested = decl.as(EnumDeclSyntax.self), nested.name.text == "CodingKeys" {
                declaresCodingKeys = true
            } else if let initializer = decl.as(InitializerDeclSyntax.self) {
                // `init(from decoder: any Decoder)`, not a memberwise `init(from: String)` of a
                // property named `from`.
                let parameters = initializer.signature.parameterClause.parameters
                if parameters.map(\.firstName.text) == ["from"],
                    parameters.first?.type.trimmedDescription.hasSuffix("Decoder") == true
                {
                    declaresDecodingInit = true
                }
            } else if let function = decl.as(FunctionDeclSyntax.self) {
                let labels = function.signature.parameterClause.parameters.map { $0.firstName.text }
                if function.name.text == "encode" && labels == ["to"] { declaresEncodingFunction = true }
                readCheck(function)
            } else if let variable = decl.as(VariableDeclSyntax.self) {
                readProperty(variable)
            }
        }
    }

    private mutating func readCheck(_ function: FunctionDeclSyntax) {
        guard let attribute = function.attributes.attribute(named: "Check") else { return }
        if !function.modifiers.contains(where: { $0.name.text == "static" }) {
            diagnostics.append(
                Diagnostic(node: Syntax(attribute), message: AssayDiagnostic.checkNotStatic(function.name.text)))
            return
        }
        checks.append(Check(name: function.name.text, attribute: attribute))
    }

    private mutating func readProperty(_ variable: VariableDeclSyntax) {
        if variable.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }) {
            if variable.bindings.contains(where: { $0.pattern.trimmedDescription == "additionalRules" }) {
                declaresAdditionalRules = true
            }
            return
        }
        let attributes = variable.attributes
        let rules = attributes.attributes(named: "Validate")
        let normalizers = attributes.attributes(named: "Normalize")
        let keyAttribute = attributes.attribute(named: "Key")
        let lossy = attributes.attribute(named: "Lossy")
        let required = attributes.attribute(named: "Required")
        let notNull = attributes.attribute(named: "NotNull")
        let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
        for binding in variable.bindings {
            guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
            // Computed properties are not stored, not decoded.
            if let accessors = binding.accessorBlock {
                if case .getter = accessors.accessors { continue }
                if case .accessors(let list) = accessors.accessors,
                    list.contains(where: { ["get", "set"].contains($0.accessorSpecifier.text) })
                {
                    continue
                }
            }
            // A `let` with a value is never decoded, as `Decodable` does.
            if isLet && binding.initializer != nil { continue }
            guard let type = binding.typeAnnotation?.type ?? variable.bindings.last?.typeAnnotation?.type else {
                diagnostics.append(
                    Diagnostic(node: Syntax(binding), message: AssayDiagnostic.missingType(identifier.identifier.text)))
                continue
            }
            let name = identifier.identifier.text
            // `` `default` ``'s key is `default`.
            let bare =
                name.count > 1 && name.hasPrefix("`") && name.hasSuffix("`")
                ? String(name.dropFirst().dropLast()) : name
            let key = keyAttribute.flatMap(Self.stringArgument) ?? bare
            let property = Property(
                name: name, type: type.trimmed, key: key, hasCustomKey: keyAttribute != nil,
                isOptional: TypeShape(type).isOptional || TypeShape(type).isNullable,
                isNullable: TypeShape(type).isNullable, defaultValue: binding.initializer?.value.trimmed,
                isLossy: lossy != nil, mustBePresent: required != nil, refusesNull: notNull != nil, rules: rules,
                normalizers: normalizers)
            if TypeShape(type).isNullable, let marker = required ?? notNull {
                diagnostics.append(
                    Diagnostic(
                        node: Syntax(marker),
                        message: AssayDiagnostic.markedNullable(
                            attribute: marker.attributeName.trimmedDescription, property: name)))
            } else if let notNull, !TypeShape(type).isOptional || required != nil {
                diagnostics.append(
                    Diagnostic(node: Syntax(notNull), message: AssayDiagnostic.notNullMisplaced(name)))
            }
            if let required, !TypeShape(type).isOptional, !TypeShape(type).isNullable {
                diagnostics.append(
                    Diagnostic(node: Syntax(required), message: AssayDiagnostic.requiredNotOptional(name)))
            }
            if let lossy, !TypeShape(type).unwrapped.isArray {
                diagnostics.append(Diagnostic(node: Syntax(lossy), message: AssayDiagnostic.lossyNotArray(name)))
            }
            if let attribute = attributes.attribute(named: "AdditionalProperties") {
                guard let value = TypeShape(type).dictionaryValue, additional == nil else {
                    diagnostics.append(
                        Diagnostic(
                            node: Syntax(attribute),
                            message: additional == nil
                                ? AssayDiagnostic.additionalPropertiesNotDictionary(name)
                                : AssayDiagnostic.secondAdditionalProperties(name)))
                    continue
                }
                additional = property
                additionalValueType = value.trimmed
                continue
            }
            for rule in rules { checkFit(of: rule, on: property) }
            properties.append(property)
        }
    }

    /// Reports a built-in rule applied to a built-in type it cannot check (`.length` on an `Int`).
    private mutating func checkFit(of attribute: AttributeSyntax, on property: Property) {
        guard case .argumentList(let arguments) = attribute.arguments else { return }
        let shape = TypeShape(property.type).unwrapped
        guard let family = shape.family else { return }
        for argument in arguments where argument.label == nil {
            guard let rule = Self.ruleName(argument.expression), let needs = RuleFamily.required(by: rule) else {
                continue
            }
            if !needs.contains(family) {
                diagnostics.append(
                    Diagnostic(
                        node: Syntax(argument.expression),
                        message: AssayDiagnostic.ruleDoesNotFit(
                            rule: rule, needs: needs, property: property.name, type: property.type.trimmedDescription)))
            }
        }
    }

    /// The name of a rule written as `.name`, `.name(…)` or `Rule<…>.name(…)`, before any modifier
    /// (`.length(2...).message(…)` is `length`).
    static func ruleName(_ expression: ExprSyntax) -> String? {
        var current = expression
        while true {
            if let call = current.as(FunctionCallExprSyntax.self) {
                current = call.calledExpression
                continue
            }
            if let member = current.as(MemberAccessExprSyntax.self) {
                // `.length(…).message(…)`: the rule is the base, not the modifier.
                if let base = member.base, base.is(FunctionCallExprSyntax.self) || base.is(MemberAccessExprSyntax.self)
                {
                    current = base
                    continue
                }
                return member.declName.baseName.text
            }
            return nil
        }
    }

    /// The value of a string literal argument, its escapes read (`"a\tb"` is a tab, `#"a\b"#` a
    /// backslash); `nil` for an interpolation or another expression.
    static func stringArgument(_ attribute: AttributeSyntax) -> String? {
        guard case .argumentList(let arguments) = attribute.arguments,
            let literal = arguments.first?.expression.as(StringLiteralExprSyntax.self)
        else { return nil }
        return literal.representedLiteralValue
    }
}

/// What kind of value a built-in type holds, as far as rules care.
enum RuleFamily: String, CustomStringConvertible {
    case text, integer, floatingPoint, boolean, date, collection, other

    var description: String {
        switch self {
        case .text: return "text"
        case .integer: return "integers"
        case .floatingPoint: return "floating-point numbers"
        case .boolean: return "Booleans"
        case .date: return "dates"
        case .collection: return "collections"
        case .other: return "other values"
        }
    }

    /// The families a built-in rule can check; `nil` for rules of any type or unknown to the macro.
    static func required(by rule: String) -> [RuleFamily]? {
        switch rule {
        case "length", "notBlank", "charset", "pattern", "email", "url", "uuid": return [.text]
        case "count": return [.collection, .text]
        case "each", "unique": return [.collection]
        case "finite": return [.floatingPoint]
        case "range": return [.integer, .floatingPoint, .date, .text]
        default: return nil
        }
    }
}

/// The shape of a type as written.
struct TypeShape {
    let type: TypeSyntax

    init(_ type: TypeSyntax) { self.type = type }

    /// `T?`, `T!` or `Optional<T>`.
    var isOptional: Bool { wrapped != nil }

    var wrapped: TypeSyntax? {
        if let optional = type.as(OptionalTypeSyntax.self) { return optional.wrappedType }
        if let implicit = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return implicit.wrappedType }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
            let argument = identifier.genericArgumentClause?.arguments.first
        {
            return TypeSyntax(argument.argument)
        }
        return nil
    }

    /// `Nullable<T>` (or `AssayCore.Nullable<T>`): a member that may be missing or `null`.
    var isNullable: Bool { nullableWrapped != nil }

    /// `T` of `Nullable<T>`.
    var nullableWrapped: TypeSyntax? {
        let arguments: GenericArgumentListSyntax?
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Nullable" {
            arguments = identifier.genericArgumentClause?.arguments
        } else if let member = type.as(MemberTypeSyntax.self), member.name.text == "Nullable",
            ["AssayCore", "AssayCodable"].contains(member.baseType.trimmedDescription)
        {
            arguments = member.genericArgumentClause?.arguments
        } else {
            return nil
        }
        guard let arguments, arguments.count == 1, let argument = arguments.first else { return nil }
        return TypeSyntax(argument.argument)
    }

    /// The type without its optional (or ``Nullable``) wrapper.
    var unwrapped: TypeShape { (wrapped ?? nullableWrapped).map(TypeShape.init) ?? self }

    var isArray: Bool {
        if type.is(ArrayTypeSyntax.self) { return true }
        if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text == "Array" }
        return false
    }

    /// The element type of `[E]` or `Array<E>`.
    var element: TypeSyntax? {
        if let array = type.as(ArrayTypeSyntax.self) { return array.element }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Array",
            let argument = identifier.genericArgumentClause?.arguments.first
        {
            return TypeSyntax(argument.argument)
        }
        return nil
    }

    /// The value type of `[String: T]` or `Dictionary<String, T>`.
    var dictionaryValue: TypeSyntax? {
        if let dictionary = type.as(DictionaryTypeSyntax.self), dictionary.key.trimmedDescription == "String" {
            return dictionary.value
        }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Dictionary",
            let arguments = identifier.genericArgumentClause?.arguments, arguments.count == 2,
            arguments.first?.argument.trimmedDescription == "String", let last = arguments.last
        {
            return TypeSyntax(last.argument)
        }
        return nil
    }

    private var baseName: String {
        if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text }
        if let member = type.as(MemberTypeSyntax.self) { return member.name.text }
        return ""
    }

    /// The family of a type the macro knows; `nil` for others (the compiler checks those).
    var family: RuleFamily? {
        if type.is(ArrayTypeSyntax.self) || type.is(DictionaryTypeSyntax.self) { return .collection }
        switch baseName {
        case "String", "Substring": return .text
        case "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64": return .integer
        case "Double", "Float", "Float16", "CGFloat": return .floatingPoint
        case "Bool": return .boolean
        case "Date": return .date
        case "Array", "Set", "Dictionary", "ContiguousArray": return .collection
        case "UUID", "URL", "Decimal", "Data": return .other
        default: return nil
        }
    }

    /// Whether values of the type are never models (no nested validation needed).
    var isPlainValue: Bool {
        let shape = unwrapped
        if let element = shape.element { return TypeShape(element).isPlainValue }
        if shape.type.is(ArrayTypeSyntax.self) || shape.type.is(DictionaryTypeSyntax.self) { return false }
        return shape.family != nil
    }
}

extension AttributeListSyntax {
    func attributes(named name: String) -> [AttributeSyntax] {
        compactMap { element in
            guard case .attribute(let attribute) = element,
                attribute.attributeName.trimmedDescription == name
                    || attribute.attributeName.trimmedDescription == "AssayCodable.\(name)"
            else { return nil }
            return attribute
        }
    }

    func attribute(named name: String) -> AttributeSyntax? { attributes(named: name).first }
}
