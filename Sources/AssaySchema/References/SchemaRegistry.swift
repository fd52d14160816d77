import AssayJSON

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where remote `$ref`s are resolved from — offline: documents registered in advance, folders mapped
/// to URI prefixes, and a loader of your own. Nothing is fetched from a network unless your loader
/// does it.
///
/// <!-- snippet: doc-schema-registry -->
/// ```swift
/// var registry = SchemaRegistry()
/// registry.register(try JSONValue(parsing: addressSchema), as: "https://example.com/address.json")
/// registry.map(prefix: "http://localhost:1234/", toDirectory: "Tests/remotes")
/// ```
public struct SchemaRegistry: Sendable {
    private var documents: [String: JSONValue] = [:]
    private var directories: [(prefix: String, directory: String)] = []
    private var loader: (@Sendable (String) -> JSONValue?)?

    /// An empty registry.
    public init() {}

    /// Registers a schema document under an absolute URI (a fragment is ignored).
    public mutating func register(_ document: JSONValue, as uri: String) {
        documents[URIReference(uri).withoutFragment.description] = document
    }

    /// Resolves URIs that start with `prefix` to files under `directory`: `prefix` + `a/b.json` →
    /// `directory/a/b.json`.
    public mutating func map(prefix: String, toDirectory directory: String) {
        directories.append((prefix, directory))
    }

    /// A loader for URIs nothing else resolves (it may read a cache, or the network if you choose).
    public mutating func setLoader(_ loader: @escaping @Sendable (String) -> JSONValue?) {
        self.loader = loader
    }

    /// The document for an absolute URI without fragment, if any source has it.
    func document(for uri: String) -> JSONValue? { lookup(uri).document }

    /// The document for an absolute URI without fragment, or why a file that should hold it could
    /// not be used (it is not valid JSON, or cannot be read).
    func lookup(_ uri: String) -> (document: JSONValue?, problem: String?) {
        if let document = documents[uri] { return (document, nil) }
        var problem: String?
        for (prefix, directory) in directories where uri.hasPrefix(prefix) {
            let relative = uri.dropFirst(prefix.count)
            guard !relative.contains("..") else { continue }
            let path = directory + "/" + relative
            guard FileManager.default.fileExists(atPath: path) else { continue }
            guard let data = FileManager.default.contents(atPath: path) else {
                problem = problem ?? "\(path) cannot be read"
                continue
            }
            do {
                return (try JSONValue(parsing: [UInt8](data), options: .init(maximumDepth: 1_000)), nil)
            } catch {
                problem =
                    problem ?? "\(path) is not valid JSON: line \(error.line), column \(error.column): \(error.detail)"
            }
        }
        if let document = loader?(uri) { return (document, nil) }
        return (nil, problem)
    }
}
