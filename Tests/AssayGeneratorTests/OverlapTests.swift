import AssayCodable
import AssayGenerator
import AssayJSON
import AssaySchema
import Foundation
import Testing

/// `Overlap.swift` is the generator's output for `Golden/overlap.schema.json`: `oneOf`/`anyOf` whose
/// alternatives may take the same values — objects with no required member to tell them apart, two
/// integers, arrays — are enums that try each alternative in turn (`UnionDecoding.exactlyOne`, or
/// `firstMatching` for `anyOf`), unions in their alternatives too (`step`). A union that holds
/// itself (`branch`) is checked against its schema instead, and so is one that, with the unions in
/// its alternatives, would read a value more than 64 times: decoding stays linear in the input.
@Suite("Unions whose alternatives overlap, each alternative tried")
struct OverlapTests {
    static func schemaText() throws -> String { try SwiftGeneratorTests.read("overlap.schema.json") }

    static let valid: JSONValue = [
        "source": ["type": "http", "url": "https://a"], "limit": 5, "mark": ["radius": 1], "ids": [1, 2],
        "owner": ["name": "Ann"], "step": ["note": "n"], "tree": ["kids": [["leaf": "a"], ["kids": []]]],
    ]

    static func changed(_ changes: [String: JSONValue?]) -> JSONValue { valid.changing(changes) }

    static let instances: [(name: String, instance: JSONValue)] = [
        ("valid", valid),
        (
            "valid with the other alternatives",
            changed([
                "source": ["type": "ipmi", "port": 2], "limit": "all", "mark": ["label": "a"], "ids": ["a"],
                "owner": ["id": 3],
            ])
        ),
        ("valid with a negative limit of the third alternative", changed(["limit": -12])),
        ("valid with no owner", changed(["owner": .some(nil)])),
        (
            "valid with a source of no type but one alternative's member",
            changed(["source": ["url": "abc", "type": "http"]])
        ),
        ("valid: an owner that is both (anyOf)", changed(["owner": ["name": "Ann", "id": 1]])),
        ("valid: a step with a mark", changed(["step": ["mark": ["label": "x"]]])),
        ("a source of no type (both take it)", changed(["source": [:]])),
        ("a source of an unknown type", changed(["source": ["type": "ftp"]])),
        ("an http source with a short url", changed(["source": ["type": "http", "url": "a"]])),
        ("an ipmi source with a port of zero", changed(["source": ["type": "ipmi", "port": 0]])),
        ("a source that is a string", changed(["source": "http"])),
        ("a limit between the integers' ranges", changed(["limit": -3])),
        ("a limit that is a number", changed(["limit": 1.5])),
        ("a mark that is both", changed(["mark": ["radius": 1, "label": "a"]])),
        ("a mark that is neither", changed(["mark": ["radius": -1]])),
        ("a mark that is empty", changed(["mark": [:]])),
        ("no ids (all three take it)", changed(["ids": []])),
        ("ids of both kinds", changed(["ids": [1, "a"]])),
        ("ids that are not an array", changed(["ids": 1])),
        ("an owner that is neither", changed(["owner": ["nick": "A"]])),
        ("an owner of the wrong type", changed(["owner": "Ann"])),
        ("a step that is both", changed(["step": ["note": "n", "mark": ["radius": 1]]])),
        ("a step whose mark is neither", changed(["step": ["mark": [:]]])),
        ("a tree that is both", changed(["tree": ["leaf": "a", "kids": []]])),
        ("a tree with a bad leaf deep down", changed(["tree": ["kids": [["kids": [["leaf": 1]]]]]])),
        ("valid: a fold of one member", changed(["fold": ["except": ["a"]]])),
        ("valid: a fold of the other member", changed(["fold": ["only": []]])),
        ("a fold of no member (both take it)", changed(["fold": [:]])),
        ("a fold of both members", changed(["fold": ["only": [], "except": []]])),
        ("valid: another value that is null", changed(["other": .some(nil)])),
        ("valid: another value of one character", changed(["other": "a"])),
        ("valid: another value that is a number", changed(["other": 2])),
        ("another value taken by both", changed(["other": "ab"])),
        ("several at once", changed(["source": [:], "limit": -3, "mark": [:], "ids": [], "owner": 1])),
    ]

    private static func decodingPlaces(_ instance: JSONValue) -> Set<String> {
        SwiftGeneratorTests.decodingPlaces(Pipeline.self, instance)
    }

    @Test("the generated type refuses exactly where the schema does", arguments: instances.map(\.name))
    func agreement(_ name: String) throws {
        let instance = try #require(Self.instances.first { $0.name == name }?.instance)
        let schema = try JSONSchema(parsing: Self.schemaText(), options: JSONSchema.Options(assertFormats: true))
        let result = schema.validate(instance)
        // A union's error at the value; its alternatives' own failures are not named.
        let expected = Set(result.issues.map(\.path.jsonPointer))
        let found = Self.decodingPlaces(instance)
        #expect(found == expected, "\(name)")
        #expect(found.isEmpty == name.hasPrefix("valid"), "\(name)")
    }

    @Test("each alternative is tried: none or two taking a value is one issue at the value, saying which")
    func issues() throws {
        func issue(_ changes: [String: JSONValue?]) throws -> (code: IssueCode, count: IssueValue?)? {
            do {
                _ = try JSONValueDecoder().decodeValidated(Pipeline.self, from: Self.changed(changes).jsonBytes())
                return nil
            } catch {
                guard error.issues.count == 1, let first = error.issues.first else { return nil }
                return (first.code, first.parameters["count"])
            }
        }
        #expect(try issue(["mark": ["radius": 1, "label": "a"]])?.count == .integer(2))
        #expect(try issue(["ids": []])?.count == .integer(3))
        #expect(try issue(["mark": ["radius": -1]])?.count == .integer(2))
        #expect(try issue(["limit": -3])?.code == .noMatch)
    }

    @Test("on demand, a value built as one case that another alternative takes too is refused, as its JSON is")
    func onDemand() throws {
        let valid = try JSONValueDecoder().decodeValidated(Pipeline.self, from: Self.valid.jsonBytes()).value
        #expect(valid.issues().isEmpty)
        for (change, places): ((inout Pipeline) -> Void, [String]) in [
            ({ $0.source = .http(PipelineSourceHTTP()) }, ["/source"]),
            ({ $0.ids = .array([]) }, ["/ids"]),
            ({ $0.source = .http(PipelineSourceHTTP(type: "http", url: "a")) }, ["/source/url"]),
            ({ $0.mark = .radius(PipelineMarkRadius(radius: 2)) }, []),
        ] {
            var pipeline = valid
            change(&pipeline)
            let found = pipeline.issues().filter(\.isError).map(\.path.jsonPointer)
            #expect(found == places)
            // Decoding the value's JSON refuses it too: at the same place when its case's own rules
            // pass; at the union when they fail (no alternative takes it), where on demand the
            // case's own failure is named.
            let json = try JSONValue(parsing: Array(JSONEncoder().encode(pipeline)))
            let decoding = Self.decodingPlaces(json)
            if found.allSatisfy({ $0.split(separator: "/").count == 1 }) {
                #expect(Set(found) == decoding)
            } else {
                #expect(decoding == ["/source"])
            }
        }
    }

    @Test("a value decoded holds the alternative that took it, and encodes back as it was read")
    func roundTrip() throws {
        let decoded = try JSONValueDecoder().decodeValidated(Pipeline.self, from: Self.valid.jsonBytes()).value
        #expect(decoded.source == .http(PipelineSourceHTTP(type: "http", url: "https://a")))
        #expect(decoded.limit == .integer(5))
        #expect(try JSONValue(parsing: Array(JSONEncoder().encode(decoded))) == Self.valid)
        let both = try JSONValueDecoder().decodeValidated(
            Pipeline.self, from: Self.changed(["owner": ["name": "Ann", "id": 1]]).jsonBytes()
        ).value
        // `anyOf`: the first alternative that takes it.
        #expect(both.owner == .some(.name(PipelineOwnerName(name: "Ann"))))
    }

    @Test("the golden file is the generator's output; unions holding tried unions are noted")
    func golden() throws {
        let options = SwiftGeneratorOptions(sourceName: "overlap.schema.json")
        let generated = try SwiftGenerator.generate(JSONValue(parsing: Array(Self.schemaText().utf8)), options: options)
        #expect(generated.source == (try SwiftGeneratorTests.read("Overlap.swift")))
        #expect(generated.notes.map { $0.prefix { $0 != ":" } } == ["#/$defs/branch/oneOf"])
        #expect(generated.source.contains("self = try UnionDecoding.exactlyOne("))
        #expect(generated.source.contains("self = try UnionDecoding.firstMatching("))
        // A union in an alternative: read twice by each of the two (4 reads).
        #expect(generated.source.contains("case mark(PipelineStepMark)"))
        // The alternatives of a union checked against its schema are not declared.
        #expect(!generated.typeNames.contains("BranchKids"))
        #expect(generated.typeNames.contains("Branch"))
        #expect(generated.source.contains("public struct Branch: ValidatedValue"))
    }

    @Test("unions nested in every alternative read a value at most 64 times: the outermost past that is checked whole")
    func nestingBound() throws {
        // Seven levels of two alternatives that each hold the next level: 2, 4 … 128 reads.
        var definitions: [(String, JSONValue)] = []
        for level in 0..<7 {
            let inner: JSONValue = level == 6 ? ["type": "string"] : ["$ref": .string("#/$defs/l\(level + 1)")]
            let alternatives: JSONValue = [
                ["type": "object", "properties": ["x": inner]], ["type": "object", "properties": ["y": inner]],
            ]
            definitions.append(("l\(level)", ["oneOf": alternatives]))
        }
        let generated = try SwiftGenerator.generate(["$defs": .object(JSONObject(definitions))])
        #expect(generated.notes.count == 1)
        #expect(generated.notes.first?.hasPrefix("#/$defs/l0/oneOf: oneOf whose alternatives overlap") == true)
        #expect(generated.notes.first?.contains("read a value 128 times (more than 64)") == true)
        #expect(generated.source.components(separatedBy: "UnionDecoding.exactlyOne(").count == 7)
    }
}
