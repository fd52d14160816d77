import AssayCore
import AssayJSON

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns schema documents into an arena of ``SchemaNode``s, with every reference resolved to a node.
///
/// Each document is first indexed (its resources, `$id`s and anchors, walking only the keywords that
/// hold subschemas), then nodes are compiled from a work list, so reference cycles (`{"$ref": "#"}`)
/// compile to a cycle of indices instead of recursing forever.
final class SchemaCompiler {
    struct Location: Hashable {
        let document: Int
        let pointer: String
    }

    struct Info {
        let base: String
        let dialect: SchemaDialect
        let resourcePointer: String
        let vocabularies: Vocabularies
        /// How deeply the schema is nested in its document (bounded by `maximumSchemaDepth`).
        var depth = 0
        /// The schema itself, kept by the walk that indexed it: compiling it then does not look it
        /// up again from its document's root (a pointer's tokens, a member lookup a level).
        var value: JSONValue?
    }

    let options: JSONSchema.Options
    private(set) var documents: [JSONValue] = []
    private var documentsByURI: [String: Int] = [:]
    private var resources: [String: Location] = [:]
    private var anchors: [String: Location] = [:]
    private var dynamicAnchorNames: [String: [String: Location]] = [:]
    private var infos: [Location: Info] = [:]
    private(set) var nodes: [SchemaNode] = []
    private var nodeIndex: [Location: Int] = [:]
    private var queue: [(index: Int, location: Location, keywords: [String]?)] = []
    /// Nodes of only some keywords of a schema, by location and keywords.
    private var partialNodes: [Location: [[String]: Int]] = [:]
    private(set) var problems: [SchemaProblem] = []

    /// Schemas past the depth limit, already reported.
    private var tooDeep: Set<Location> = []
    /// Registry files that exist but could not be used, by URI.
    private var loadProblems: [String: String] = [:]

    /// The parameters of `type` errors, by the list of type names (``typeFailures(_:)``).
    private var typeFailuresByNames: [UInt64: [[String: IssueValue]]] = [:]

    init(options: JSONSchema.Options) {
        self.options = options
    }

    /// The parameters of the error of a `type` keyword of `names`, for a value of each kind (in
    /// ``JSONKind``'s order): made once per list of names in a compile, so that the `type` keywords
    /// of a schema (the metaschema has dozens, of a few lists) share them.
    func typeFailures(_ names: [JSONTypeName]) -> [[String: IssueValue]] {
        func made() -> [[String: IssueValue]] {
            Keyword.typeFailures(expected: names.map(\.rawValue).joined(separator: " or "))
        }
        // The list, in order, as four bits a name (1 to 7: its bit's place, plus one), so that it
        // is looked up without joining the names' text first; a longer list (each name at most
        // once is what a metaschema allows) is made each time.
        guard names.count <= 15 else { return made() }
        var key: UInt64 = 0
        for name in names { key = key << 4 | UInt64(name.bit.trailingZeroBitCount + 1) }
        if let known = typeFailuresByNames[key] { return known }
        let failures = made()
        typeFailuresByNames[key] = failures
        return failures
    }

    // MARK: Documents and indexing

    /// The documents added under each URI, in the order they were added.
    var documentsAdded: [(uri: String, document: JSONValue)] {
        documentsByURI.sorted { $0.value < $1.value }.map { ($0.key, documents[$0.value]) }
    }

    /// Adds a document under `uri` and indexes it; returns its number.
    @discardableResult
    func addDocument(_ value: JSONValue, uri: String) -> Int {
        if let existing = documentsByURI[uri] { return existing }
        let document = documents.count
        documents.append(value)
        documentsByURI[uri] = document
        var dialect = options.defaultDialect
        var vocabularies = Vocabularies.all
        if case .object(let object) = value, let declared = object["$schema"] {
            if let text = declared.string, let (found, vocabulary) = dialectNamed(text, at: uri) {
                dialect = found
                vocabularies = vocabulary
            } else {
                problems.append(
                    SchemaProblem(
                        location: uri + "#/$schema",
                        message:
                            "unknown $schema \(declared.jsonString()): no dialect or registered metaschema has that URI"
                    ))
            }
        }
        let location = Location(document: document, pointer: "")
        resources[uri] = location
        index(
            value, at: location,
            info: Info(base: uri, dialect: dialect, resourcePointer: "", vocabularies: vocabularies), depth: 0)
        return document
    }

    /// The dialect and vocabularies for a `$schema` URI: a known draft, or a metaschema the registry
    /// can load (its own `$schema` gives the dialect, its `$vocabulary` the vocabularies).
    private func dialectNamed(_ text: String, at uri: String) -> (SchemaDialect, Vocabularies)? {
        if let dialect = SchemaDialect(text) { return (dialect, .all) }
        let target = URIReference(text).withoutFragment.description
        guard target != uri, let metaschema = options.registry.document(for: target),
            case .object(let object) = metaschema
        else { return nil }
        var dialect = options.defaultDialect
        if let declared = object["$schema"]?.string, let found = SchemaDialect(declared) { dialect = found }
        guard case .object(let declared)? = object["$vocabulary"] else { return (dialect, .all) }
        var vocabularies = Vocabularies()
        for (vocabulary, required) in declared {
            if vocabulary.hasSuffix("/vocab/validation") { vocabularies.validation = true }
            if vocabulary.hasSuffix("/vocab/applicator") { vocabularies.applicator = true }
            if vocabulary.hasSuffix("/vocab/format-assertion") { vocabularies.formatAssertion = true }
            // A vocabulary the metaschema requires (true) must be known, or the schema refused.
            if required == .bool(true), !Self.knownVocabularies.contains(vocabulary) {
                problems.append(
                    SchemaProblem(
                        location: uri + "#/$schema",
                        message:
                            "the metaschema \(target) requires the vocabulary \(vocabulary), which Assay does not know")
                )
            }
        }
        return (dialect, vocabularies)
    }

    /// The vocabularies of drafts 2019-09 and 2020-12.
    static let knownVocabularies: Set<String> = {
        var known: Set<String> = []
        for name in ["core", "applicator", "validation", "meta-data", "format", "content"] {
            known.insert("https://json-schema.org/draft/2019-09/vocab/" + name)
        }
        for name in [
            "core", "applicator", "unevaluated", "validation", "meta-data", "format-annotation", "format-assertion",
            "content",
        ] {
            known.insert("https://json-schema.org/draft/2020-12/vocab/" + name)
        }
        return known
    }()

    private static let singleSchemaKeywords: [(String, SchemaDialect.Draft)] = [
        ("additionalProperties", .draft4), ("additionalItems", .draft4), ("not", .draft4),
        ("propertyNames", .draft6), ("contains", .draft6), ("if", .draft7), ("then", .draft7), ("else", .draft7),
        ("unevaluatedItems", .draft2019), ("unevaluatedProperties", .draft2019), ("contentSchema", .draft2019),
    ]
    private static let schemaArrayKeywords: [(String, SchemaDialect.Draft)] = [
        ("allOf", .draft4), ("anyOf", .draft4), ("oneOf", .draft4), ("prefixItems", .draft2020),
    ]
    private static let schemaMapKeywords: [(String, SchemaDialect.Draft)] = [
        ("properties", .draft4), ("patternProperties", .draft4), ("definitions", .draft4), ("$defs", .draft2019),
        ("dependentSchemas", .draft2019), ("dependencies", .draft4),
    ]

    private func index(_ value: JSONValue, at location: Location, info inherited: Info, depth: Int) {
        guard depth < options.maximumSchemaDepth else {
            tooDeep.insert(location)
            problems.append(
                SchemaProblem(
                    location: inherited.base + "#" + inherited.resourcePointer,
                    message: "the schema is nested more than \(options.maximumSchemaDepth) levels deep"))
            return
        }
        guard case .object(let object) = value else {
            var info = inherited
            info.depth = depth
            info.value = value
            infos[location] = info
            return
        }
        var base = inherited.base
        var dialect = inherited.dialect
        var resourcePointer = inherited.resourcePointer
        var vocabularies = inherited.vocabularies
        let hasRef = object["$ref"] != nil
        if let idValue = object[dialect.idKeyword], let id = idValue.string,
            !(dialect.refOverridesSiblings && hasRef)
        {
            let resolved = URIReference(base).resolving(id)
            if dialect.draft <= .draft7 && id.hasPrefix("#") {
                register(anchor: base + "#" + String(id.dropFirst()), at: location)
            } else {
                let newBase = resolved.withoutFragment.description
                if let schema = object["$schema"]?.string, let (found, vocabulary) = dialectNamed(schema, at: newBase) {
                    dialect = found
                    vocabularies = vocabulary
                }
                if let other = resources[newBase], other != location {
                    // Two resources with one URI: a reference to it could mean either.
                    problems.append(
                        SchemaProblem(
                            location: uriOf(location),
                            message:
                                "\(dialect.idKeyword) \"\(newBase)\" is also the URI of the schema at \(uriOf(other)); two schema resources cannot share a URI"
                        ))
                } else {
                    resources[newBase] = location
                }
                base = newBase
                resourcePointer = ""
                if dialect.draft <= .draft7, let fragment = resolved.fragment, !fragment.isEmpty {
                    register(anchor: newBase + "#" + fragment, at: location)
                }
            }
        }
        if dialect.draft >= .draft2019, let anchor = object["$anchor"]?.string {
            register(anchor: base + "#" + anchor, at: location)
        }
        if dialect.draft >= .draft2020, let anchor = object["$dynamicAnchor"]?.string {
            register(anchor: base + "#" + anchor, at: location)
            dynamicAnchorNames[base, default: [:]][anchor] = location
        }
        let info = Info(
            base: base, dialect: dialect, resourcePointer: resourcePointer, vocabularies: vocabularies, depth: depth,
            value: value)
        infos[location] = info
        // Siblings of a draft 4-7 `$ref` are not applied, but subschemas next to it are still reachable
        // by pointer, so the walk below indexes them (their own `$id`s included).

        func child(_ value: JSONValue, _ tokens: String...) {
            // Appended in place: an array of the tokens' strings joined cost ten times as much.
            var suffix = ""
            for token in tokens {
                suffix += "/"
                suffix += JSONValue.escape(token)
            }
            let childInfo = Info(
                base: base, dialect: dialect, resourcePointer: resourcePointer + suffix, vocabularies: vocabularies)
            index(
                value, at: Location(document: location.document, pointer: location.pointer + suffix), info: childInfo,
                depth: depth + 1)
        }
        for (keyword, since) in Self.singleSchemaKeywords where dialect.draft >= since {
            if let value = object[keyword], value.isSchemaShaped { child(value, keyword) }
        }
        for (keyword, since) in Self.schemaArrayKeywords where dialect.draft >= since {
            if case .array(let elements)? = object[keyword] {
                for (position, element) in elements.enumerated() { child(element, keyword, String(position)) }
            }
        }
        if let items = object["items"] {
            if case .array(let elements) = items, dialect.itemsArrayForm {
                for (position, element) in elements.enumerated() { child(element, "items", String(position)) }
            } else if items.isSchemaShaped {
                child(items, "items")
            }
        }
        for (keyword, since) in Self.schemaMapKeywords where dialect.draft >= since {
            if case .object(let members)? = object[keyword] {
                for (name, value) in members where value.isSchemaShaped { child(value, keyword, name) }
            }
        }
    }

    /// Records a plain-name fragment; the same name at another place of the same resource is a
    /// problem (a reference to it could mean either).
    private func register(anchor uri: String, at location: Location) {
        if let other = anchors[uri], other != location {
            problems.append(
                SchemaProblem(
                    location: uriOf(location),
                    message:
                        "the anchor \"\(uri)\" is also defined at \(uriOf(other)); anchors must be unique in a resource"
                ))
            return
        }
        anchors[uri] = location
    }

    /// A location as its document's URI and a JSON Pointer fragment.
    private func uriOf(_ location: Location) -> String {
        let document = documentsByURI.first { $0.value == location.document }?.key ?? "#"
        return document + "#" + location.pointer
    }

    /// The info of a location no walk reached (a `$ref` into an unknown keyword): indexed now from
    /// its nearest indexed ancestor.
    private func info(for location: Location) -> Info? {
        if let info = infos[location] { return info }
        guard var tokens = try? JSONValue.tokens(of: location.pointer) else { return nil }
        var suffix: [String] = []
        while let last = tokens.popLast() {
            suffix.insert(last, at: 0)
            let pointer = tokens.map { "/" + JSONValue.escape($0) }.joined()
            if let ancestor = infos[Location(document: location.document, pointer: pointer)] {
                guard let value = documents[location.document][pointer: location.pointer] else {
                    return nil
                }
                let derived = Info(
                    base: ancestor.base, dialect: ancestor.dialect,
                    resourcePointer: ancestor.resourcePointer
                        + suffix.map { "/" + JSONValue.escape($0) }.joined(),
                    vocabularies: ancestor.vocabularies)
                // Deeper than its ancestor by at least one level per token: schemas below a walk
                // that stopped at the depth limit stay below it (compiling them one by one, each
                // looked up from the root, would cost the square of the depth).
                index(value, at: location, info: derived, depth: ancestor.depth + suffix.count)
                return infos[location]
            }
        }
        return nil
    }

    // MARK: References

    /// Resolves `reference` against `base` to a location, loading remote documents from the registry.
    func resolve(_ reference: String, base: String) -> Location? {
        let target = URIReference(base).resolving(reference)
        let uri = target.withoutFragment.description
        if resources[uri] == nil {
            let found = options.registry.lookup(uri)
            if let document = found.document ?? BundledMetaschemas.document(for: uri) {
                addDocument(document, uri: uri)
            } else if let problem = found.problem {
                loadProblems[uri] = problem
            }
        }
        guard let resource = resources[uri] else { return nil }
        let raw = target.fragment ?? ""
        // Most fragments have no escapes: Foundation's decoding is not called for them.
        let fragment = raw.utf8.contains(UInt8(ascii: "%")) ? (raw.removingPercentEncoding ?? raw) : raw
        if fragment.isEmpty { return resource }
        if fragment.hasPrefix("/") {
            let location = Location(document: resource.document, pointer: resource.pointer + fragment)
            // A schema the walk indexed is there; anything else is looked up.
            guard infos[location] != nil || documents[location.document][pointer: location.pointer] != nil else {
                return nil
            }
            return location
        }
        return anchors[uri + "#" + fragment]
    }

    /// Why the document a reference points to could not be loaded, when a file was found for it.
    func loadProblem(for reference: String, base: String) -> String? {
        loadProblems[URIReference(base).resolving(reference).withoutFragment.description]
    }

    /// The node for `location`, compiled later if new.
    func node(at location: Location) -> Int {
        if let existing = nodeIndex[location] { return existing }
        let index = nodes.count
        nodes.append(.placeholder())
        nodeIndex[location] = index
        queue.append((index, location, nil))
        return index
    }

    /// A node of only `keywords` of the schema at `location` (the others are checked elsewhere);
    /// its subschemas are the schema's own nodes.
    func node(at location: Location, keywords: [String]) -> Int {
        if let existing = partialNodes[location]?[keywords] { return existing }
        let index = nodes.count
        nodes.append(.placeholder())
        partialNodes[location, default: [:]][keywords] = index
        queue.append((index, location, keywords))
        return index
    }

    /// Compiles every queued node.
    func drain() {
        while let (index, location, keywords) = queue.popLast() {
            compile(index, at: location, keywords: keywords)
        }
    }

    // MARK: Compiling one node

    private func compile(_ index: Int, at location: Location, keywords: [String]? = nil) {
        // Too deep: said once where the walk stopped.
        if tooDeep.contains(location) { return }
        guard let info = info(for: location),
            let value = info.value ?? documents[location.document][pointer: location.pointer]
        else {
            problems.append(SchemaProblem(location: "#" + location.pointer, message: "no schema at this location"))
            return
        }
        let root = resources[info.base].map { node(at: $0) } ?? index
        var compiled = SchemaNode(
            boolean: nil, resourceURI: info.base, pointer: info.resourcePointer, resourceRoot: root,
            dialect: info.dialect)
        if info.resourcePointer.isEmpty, let names = dynamicAnchorNames[info.base] {
            compiled.dynamicAnchors = names.mapValues { node(at: $0) }
        }
        switch value {
        case .bool(let flag):
            compiled.boolean = flag
        case .object(var object):
            let siblings = object
            if let keywords {
                var chosen = JSONObject()
                for keyword in keywords {
                    if let value = object[keyword] { chosen[keyword] = value }
                }
                object = chosen
            }
            var context = KeywordCompiler(
                compiler: self, object: object, siblings: siblings, location: location, info: info, node: compiled)
            context.compileAll()
            compiled = context.node
        default:
            problems.append(
                SchemaProblem(
                    location: info.base + "#" + info.resourcePointer,
                    message: "a schema must be an object or a boolean, not \(value.kind)"))
            compiled.boolean = true
        }
        nodes[index] = compiled
    }

    func report(_ message: String, at location: String) {
        problems.append(SchemaProblem(location: location, message: message))
    }
}

/// Which vocabularies a schema's metaschema turns on (2019-09 and later); all by default.
struct Vocabularies: Hashable, Sendable {
    var validation = false
    var applicator = false
    var formatAssertion = false

    static let all = Vocabularies(validation: true, applicator: true, formatAssertion: false)
}

extension JSONValue {
    /// Objects and Booleans: what a subschema can be.
    var isSchemaShaped: Bool {
        switch self {
        case .object, .bool: return true
        default: return false
        }
    }
}
