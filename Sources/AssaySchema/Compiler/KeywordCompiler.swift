import AssayCore
import AssayJSON
import AssayRegex

/// Compiles the keywords of one schema object, reporting every malformed keyword.
struct KeywordCompiler {
    let compiler: SchemaCompiler
    let object: JSONObject
    /// The whole schema object when only some of its keywords are compiled (`object`): what
    /// `additionalProperties` leaves to `properties` and `patternProperties` is read from it.
    let siblings: JSONObject
    let location: SchemaCompiler.Location
    let info: SchemaCompiler.Info
    var node: SchemaNode
    private var keywords: [Keyword] = []
    private var trailing: [Keyword] = []

    init(
        compiler: SchemaCompiler, object: JSONObject, siblings: JSONObject? = nil, location: SchemaCompiler.Location,
        info: SchemaCompiler.Info, node: SchemaNode
    ) {
        self.compiler = compiler
        self.object = object
        self.siblings = siblings ?? object
        self.location = location
        self.info = info
        self.node = node
    }

    private var draft: SchemaDialect.Draft { info.dialect.draft }

    private func report(_ keyword: String, _ message: String) {
        compiler.report(message, at: node.absoluteLocation(of: keyword))
    }

    private func subschema(_ tokens: String...) -> Int {
        let suffix = tokens.map { "/" + JSONValue.escape($0) }.joined()
        return compiler.node(at: .init(document: location.document, pointer: location.pointer + suffix))
    }

    private mutating func add(_ name: String, _ kind: KeywordKind) { keywords.append(Keyword(name: name, kind: kind)) }

    // MARK: Operand readers

    private func nonNegativeInteger(_ keyword: String) -> Int? {
        guard let value = object[keyword] else { return nil }
        guard case .number(let number) = value, number.isInteger, !number.isNegative else {
            report(keyword, "\(keyword) must be a non-negative integer, not \(value.jsonString())")
            return nil
        }
        // Beyond Int: no string or array can reach it; clamp so the check stays correct.
        return number.int ?? Int.max
    }

    private func number(_ keyword: String) -> JSONNumber? {
        guard let value = object[keyword] else { return nil }
        guard case .number(let number) = value else {
            report(keyword, "\(keyword) must be a number, not \(value.jsonString())")
            return nil
        }
        return number
    }

    private func schema(_ keyword: String) -> Int? {
        guard let value = object[keyword] else { return nil }
        guard value.isSchemaShaped else {
            report(keyword, "\(keyword) must be a schema (an object or a boolean), not \(value.jsonString())")
            return nil
        }
        return subschema(keyword)
    }

    private func schemaArray(_ keyword: String) -> [Int]? {
        guard let value = object[keyword] else { return nil }
        guard case .array(let elements) = value, !elements.isEmpty || keyword == "prefixItems" || keyword == "items"
        else {
            report(keyword, "\(keyword) must be a non-empty array of schemas")
            return nil
        }
        var result: [Int] = []
        for (position, element) in elements.enumerated() {
            guard element.isSchemaShaped else {
                report(keyword, "\(keyword)/\(position) must be a schema, not \(element.jsonString())")
                continue
            }
            result.append(subschema(keyword, String(position)))
        }
        return result
    }

    private func schemaMap(_ keyword: String) -> [(String, Int)]? {
        guard let value = object[keyword] else { return nil }
        guard case .object(let members) = value else {
            report(keyword, "\(keyword) must be an object whose values are schemas")
            return nil
        }
        var result: [(String, Int)] = []
        for (name, element) in members {
            guard element.isSchemaShaped else {
                report(keyword, "\(keyword)/\(name) must be a schema, not \(element.jsonString())")
                continue
            }
            result.append((name, subschema(keyword, name)))
        }
        return result
    }

    private func stringArray(_ keyword: String, _ value: JSONValue) -> [String]? {
        guard case .array(let elements) = value else {
            report(keyword, "\(keyword) must be an array of strings")
            return nil
        }
        var result: [String] = []
        for element in elements {
            guard let text = element.string else {
                report(keyword, "\(keyword) must contain only strings, not \(element.jsonString())")
                return nil
            }
            result.append(text)
        }
        return result
    }

    private func regex(_ keyword: String, _ source: String) -> LinearRegex? {
        do {
            return try LinearRegex(source, maximumProgramSize: compiler.options.maximumPatternSize)
        } catch {
            let kind =
                error.isUnsupportedFeature ? "uses a feature the linear-time engine refuses" : "is not a valid pattern"
            report(keyword, "\(keyword) \"\(source)\" \(kind): \(error.reason)")
            return nil
        }
    }

    // MARK: Keywords

    mutating func compileAll() {
        if draft >= .draft2019, object["$recursiveAnchor"] == .bool(true) { node.recursiveAnchor = true }
        if draft >= .draft2020, let anchor = object["$dynamicAnchor"]?.string { node.dynamicAnchor = anchor }
        if let reference = object["$ref"] {
            if let text = reference.string {
                if let target = compiler.resolve(text, base: info.base) {
                    add("$ref", .ref(compiler.node(at: target)))
                } else {
                    let reason = compiler.loadProblem(for: text, base: info.base).map { ": \($0)" } ?? ""
                    report("$ref", "$ref \"\(text)\" cannot be resolved against \(info.base)\(reason)")
                }
            } else {
                report("$ref", "$ref must be a string")
            }
            if info.dialect.refOverridesSiblings {
                node.keywords = keywords
                return
            }
        }
        if draft >= .draft2020, let reference = object["$dynamicRef"] {
            compileDynamicRef(reference)
        }
        if draft == .draft2019, let reference = object["$recursiveRef"] {
            if let text = reference.string, let target = compiler.resolve(text, base: info.base) {
                add("$recursiveRef", .recursiveRef(compiler.node(at: target)))
            } else {
                report("$recursiveRef", "$recursiveRef \(reference.jsonString()) cannot be resolved")
            }
        }
        if info.vocabularies.validation { compileValidation() }
        if info.vocabularies.applicator { compileApplicators() }
        compileFormat()
        if draft == .draft7 {
            let base64 = object["contentEncoding"]?.string?.lowercased() == "base64"
            let json = object["contentMediaType"]?.string?.lowercased() == "application/json"
            if base64 || json {
                add(json ? "contentMediaType" : "contentEncoding", .content(base64: base64, json: json))
            }
        }
        node.keywords = keywords + trailing
        collectAnnotations()
    }

    /// The annotation-only keywords of this schema's draft, for the verbose output.
    private mutating func collectAnnotations() {
        let names = Self.annotationNames(draft)
        node.annotations = object.compactMap { name, value in
            names.contains(name) ? (keyword: name, value: value) : nil
        }
    }

    private static let annotationsOfDraft4 = ["title", "description", "default", "format"]
    private static let annotationsOfDraft6 = annotationsOfDraft4 + ["examples"]
    private static let annotationsOfDraft7 =
        annotationsOfDraft6 + ["readOnly", "writeOnly", "contentEncoding", "contentMediaType"]
    private static let annotationsOf2019 = annotationsOfDraft7 + ["deprecated", "contentSchema"]

    /// The annotation-only keywords of `draft` (made once, not for every schema object).
    private static func annotationNames(_ draft: SchemaDialect.Draft) -> [String] {
        switch draft {
        case .draft4: annotationsOfDraft4
        case .draft6: annotationsOfDraft6
        case .draft7: annotationsOfDraft7
        case .draft2019, .draft2020: annotationsOf2019
        }
    }

    private mutating func compileDynamicRef(_ reference: JSONValue) {
        guard let text = reference.string, let target = compiler.resolve(text, base: info.base) else {
            report("$dynamicRef", "$dynamicRef \(reference.jsonString()) cannot be resolved")
            return
        }
        var anchor: String?
        let fragment = URIReference(text).fragment ?? ""
        if !fragment.isEmpty, !fragment.hasPrefix("/"),
            case .object(let targetObject)? = compiler.documents[target.document][pointer: target.pointer],
            targetObject["$dynamicAnchor"]?.string == fragment
        {
            anchor = fragment
        }
        add("$dynamicRef", .dynamicRef(compiler.node(at: target), anchor: anchor))
    }

    private mutating func compileValidation() {
        if let value = object["type"] {
            var names: [JSONTypeName] = []
            let list: [JSONValue]
            if case .array(let elements) = value { list = elements } else { list = [value] }
            for element in list {
                if let text = element.string, let name = JSONTypeName(rawValue: text) {
                    names.append(name)
                } else {
                    report(
                        "type",
                        "type \(element.jsonString()) is not one of null, boolean, integer, number, string, array, object"
                    )
                }
            }
            keywords.append(Keyword(name: "type", kind: .type(names), typeFailures: compiler.typeFailures(names)))
        }
        if let value = object["enum"] {
            if case .array(let elements) = value {
                add("enum", .enumeration(elements, set: elements.count > 8 ? Set(elements) : nil))
            } else {
                report("enum", "enum must be an array")
            }
        }
        if draft >= .draft6, let value = object["const"] { add("const", .constant(value)) }
        if let divisor = number("multipleOf") {
            if divisor > JSONNumber(0) {
                add("multipleOf", .multipleOf(divisor))
            } else {
                report("multipleOf", "multipleOf must be greater than 0")
            }
        }
        if draft == .draft4 {
            if let maximum = number("maximum") {
                add("maximum", .maximum(maximum, exclusive: object["exclusiveMaximum"] == .bool(true)))
            }
            if let minimum = number("minimum") {
                add("minimum", .minimum(minimum, exclusive: object["exclusiveMinimum"] == .bool(true)))
            }
        } else {
            if let maximum = number("maximum") { add("maximum", .maximum(maximum, exclusive: false)) }
            if let maximum = number("exclusiveMaximum") { add("exclusiveMaximum", .maximum(maximum, exclusive: true)) }
            if let minimum = number("minimum") { add("minimum", .minimum(minimum, exclusive: false)) }
            if let minimum = number("exclusiveMinimum") { add("exclusiveMinimum", .minimum(minimum, exclusive: true)) }
        }
        if let limit = nonNegativeInteger("maxLength") { add("maxLength", .maxLength(limit)) }
        if let limit = nonNegativeInteger("minLength") { add("minLength", .minLength(limit)) }
        if let value = object["pattern"] {
            if let text = value.string {
                if let compiled = regex("pattern", text) { add("pattern", .pattern(compiled)) }
            } else {
                report("pattern", "pattern must be a string")
            }
        }
        if let limit = nonNegativeInteger("maxItems") { add("maxItems", .maxItems(limit)) }
        if let limit = nonNegativeInteger("minItems") { add("minItems", .minItems(limit)) }
        if object["uniqueItems"] == .bool(true) { add("uniqueItems", .uniqueItems) }
        if let limit = nonNegativeInteger("maxProperties") { add("maxProperties", .maxProperties(limit)) }
        if let limit = nonNegativeInteger("minProperties") { add("minProperties", .minProperties(limit)) }
        if let value = object["required"], let names = stringArray("required", value) {
            add("required", .required(names))
        }
        if draft >= .draft2019, case .object(let members)? = object["dependentRequired"] {
            var pairs: [(String, [String])] = []
            for (name, value) in members {
                if let names = stringArray("dependentRequired", value) { pairs.append((name, names)) }
            }
            add("dependentRequired", .dependentRequired(pairs))
        }
        if case .object(let members)? = object["dependencies"] {
            var required: [(String, [String])] = []
            var schemas: [(String, Int)] = []
            for (name, value) in members {
                if value.isSchemaShaped {
                    schemas.append((name, subschema("dependencies", name)))
                } else if let names = stringArray("dependencies", value) {
                    required.append((name, names))
                }
            }
            if !required.isEmpty { add("dependencies", .dependentRequired(required)) }
            if !schemas.isEmpty { add("dependencies", .dependentSchemas(schemas)) }
        }
    }

    private mutating func compileApplicators() {
        // Arrays.
        var prefixCount = 0
        if draft >= .draft2020 {
            if let prefix = schemaArray("prefixItems") {
                prefixCount = prefix.count
                add("prefixItems", .prefixItems(prefix))
            }
            if let items = schema("items") { add("items", .items(items, after: prefixCount)) }
        } else if let items = object["items"] {
            if case .array = items {
                let schemas = schemaArray("items") ?? []
                add("items", .itemsArray(schemas))
                if let additional = schema("additionalItems") {
                    add("additionalItems", .additionalItems(additional, after: schemas.count))
                }
            } else if let single = schema("items") {
                add("items", .items(single, after: 0))
            }
        }
        if draft >= .draft6, let contained = schema("contains") {
            var minimum = 1
            var maximum: Int?
            if draft >= .draft2019 {
                minimum = nonNegativeInteger("minContains") ?? 1
                maximum = nonNegativeInteger("maxContains")
            }
            add("contains", .contains(contained, minimum: minimum, maximum: maximum))
        }
        // Objects.
        var names: Set<String> = []
        var orderedNames: [String] = []
        var patterns: [LinearRegex] = []
        if let properties = schemaMap("properties") {
            names = Set(properties.map(\.0))
            orderedNames = properties.map(\.0)
            add("properties", .properties(properties))
        }
        if let patternProperties = schemaMap("patternProperties") {
            var compiled: [(LinearRegex, Int)] = []
            for (source, target) in patternProperties {
                if let regex = regex("patternProperties", source) {
                    compiled.append((regex, target))
                    patterns.append(regex)
                }
            }
            add("patternProperties", .patternProperties(compiled))
        }
        if object["additionalProperties"] != nil {
            // Compiled without its siblings (a generated type checks `properties` itself): the
            // members they name are still not additional.
            if object["properties"] == nil, case .object(let members)? = siblings["properties"] {
                names = Set(members.map(\.key))
                orderedNames = members.map(\.key)
            }
            if object["patternProperties"] == nil, case .object(let members)? = siblings["patternProperties"] {
                patterns = members.compactMap { regex("patternProperties", $0.key) }
            }
        }
        if let additional = schema("additionalProperties") {
            // The names in the order `properties` lists them, which is how documents tend to write them.
            keywords.append(
                Keyword(
                    name: "additionalProperties",
                    kind: .additionalProperties(additional, names: names, patterns: patterns),
                    utf8Names: UTF8Names(orderedNames)))
        }
        if draft >= .draft6, let names = schema("propertyNames") { add("propertyNames", .propertyNames(names)) }
        if draft >= .draft2019, let dependent = schemaMap("dependentSchemas") {
            add("dependentSchemas", .dependentSchemas(dependent))
        }
        // In place.
        if let all = schemaArray("allOf") { add("allOf", .allOf(all)) }
        if let any = schemaArray("anyOf") { add("anyOf", .anyOf(any)) }
        if let one = schemaArray("oneOf") { add("oneOf", .oneOf(one)) }
        if let negated = schema("not") { add("not", .not(negated)) }
        if draft >= .draft7, let condition = schema("if") {
            add("if", .conditional(condition: condition, then: schema("then"), otherwise: schema("else")))
        }
        if draft >= .draft2019 {
            if let unevaluated = schema("unevaluatedItems") {
                trailing.append(Keyword(name: "unevaluatedItems", kind: .unevaluatedItems(unevaluated)))
                node.tracksEvaluation = true
            }
            if let unevaluated = schema("unevaluatedProperties") {
                trailing.append(Keyword(name: "unevaluatedProperties", kind: .unevaluatedProperties(unevaluated)))
                node.tracksEvaluation = true
            }
        }
    }

    private mutating func compileFormat() {
        guard let value = object["format"] else { return }
        guard let name = value.string else {
            report("format", "format must be a string")
            return
        }
        let known = TextFormat(rawValue: name)
        if known == nil, compiler.options.assertFormats, compiler.options.unknownFormats == .reject {
            let suggestion = TextFormat.nearest(to: name).map { "; did you mean \"\($0.rawValue)\"?" } ?? ""
            report(
                "format",
                "unknown format \"\(name)\"\(suggestion) (known: "
                    + TextFormat.allCases.map(\.rawValue).joined(separator: ", ")
                    + "; unknown formats can be let through as annotations)")
            return
        }
        if compiler.options.assertFormats || info.vocabularies.formatAssertion {
            if known == .hostname && draft <= .draft6 {
                add("format", .format(.rfc1123Hostname))
            } else {
                add("format", .format(known.map(FormatCheck.known) ?? .unknown(name)))
            }
        }
        let bounds: [(String, Bool, Bool)] = [
            ("formatMinimum", false, false), ("formatExclusiveMinimum", false, true),
            ("formatMaximum", true, false), ("formatExclusiveMaximum", true, true),
        ]
        for (keyword, isMaximum, exclusive) in bounds {
            guard let bound = object[keyword] else { continue }
            guard let format = known, [.date, .time, .dateTime].contains(format) else {
                report(keyword, "\(keyword) applies only to the formats date, time and date-time, not \"\(name)\"")
                continue
            }
            guard let text = bound.string, format.isValid(text) else {
                report(keyword, "\(keyword) must be a valid \(name) string, not \(bound.jsonString())")
                continue
            }
            add(keyword, .formatBound(format, bound: text, isMaximum: isMaximum, exclusive: exclusive))
        }
    }
}
