import AssayCodable
import AssayJSON
import AssaySchema
import Foundation
import Testing

@testable import AssayGenerator

/// `Beside.swift` is the generator's output for `Golden/beside.schema.json`: a `oneOf` or `anyOf`
/// beside members of the object around it (`"required": ["type"], "properties": {"type": {"type":
/// "string"}}` beside alternatives that each fix the tag) is an enum whose every case is the
/// alternative with those members merged in — a member's two schemas as the one that implies the
/// other (a `const` implies its `type`), a member `null` the object allows but the alternative does
/// not as non-optional, an alternative's own `oneOf` a rule of its struct, an alternative no value
/// can pass (its tag contradicts another it is merged with) left out. Alternatives that only
/// constrain the object's typed members stay rules of its struct.
@Suite("Unions beside members of the object around them")
struct BesideTests {
    static func schemaText() throws -> String { try SwiftGeneratorTests.read("beside.schema.json") }

    static let valid: JSONValue = [
        "resources": [
            "a": ["type": "file", "path": "x", "note": "short"], "b": ["type": "image", "image": "i"],
            "c": ["type": "script", "command": "ls", "shell": "sh"],
        ],
        "auth": ["Type": "Cookie", "Cookie": ["name": "n"]], "form": ["mode": "auto", "login": "l"],
        "mail": ["enabled": false], "items": [["type": "text", "label": "a"], ["type": "check", "checked": true]],
        "deploy": ["provider": "s3", "bucket": "abc", "on": "main"], "level": ["base": 0, "rate": 0.5],
        "config": ["version": "v1", "plugins": ["a"]], "node": ["type": "vm", "spec": ["cpus": 2]],
        "stage": ["kind": "build", "target": "ab"],
        "entities": [["kind": "API", "name": "a", "spec": ["url": "u"]], ["kind": "User", "name": "b"]], "code": 5,
        "path": "a/b",
    ]

    static func changed(_ changes: [String: JSONValue?]) -> JSONValue { valid.changing(changes) }

    static func resource(_ value: JSONValue) -> JSONValue { changed(["resources": ["a": value]]) }

    static let instances: [(name: String, instance: JSONValue)] = [
        ("valid", valid),
        (
            "valid: a built image, a null auth and form, mail on",
            changed([
                "resources": ["b": ["type": "image", "build": "."]], "auth": .some(nil), "form": .some(nil),
                "mail": ["enabled": true, "profile": "p", "to": ["a"]],
            ])
        ),
        (
            "valid: a token, a manual form, mail off with a null profile",
            changed([
                "auth": ["Type": "Token", "Token": "abcd", "Cookie": ["name": "c"]],
                "form": ["mode": "manual", "login": "l", "xpath": "/a"], "mail": ["enabled": false, "profile": .null],
            ])
        ),
        ("valid: an auto form with a null xpath", changed(["form": ["mode": "auto", "login": "l", "xpath": .null]])),
        ("a file whose note is too long", resource(["type": "file", "path": "x", "note": "01234567890"])),
        ("a file with an empty path", resource(["type": "file", "path": ""])),
        ("a file with a member it does not list", resource(["type": "file", "path": "x", "extra": 1])),
        ("a resource with no type", resource(["path": "x"])),
        ("a resource of an unknown type", resource(["type": "ftp", "path": "x"])),
        ("a resource of the type no alternative takes", resource(["type": "script.v2", "command": "ls"])),
        ("a resource whose type is a number", resource(["type": 1, "path": "x"])),
        ("an image with both an image and a build", resource(["type": "image", "image": "i", "build": "."])),
        ("an image with neither", resource(["type": "image"])),
        ("an image whose note is too long", resource(["type": "image", "image": "i", "note": "01234567890"])),
        ("a script of an unknown shell", resource(["type": "script", "command": "ls", "shell": "zsh"])),
        ("a script with a note (its schema is closed)", resource(["type": "script", "command": "ls", "note": "n"])),
        ("a resource that is a number", resource(5)),
        ("a cookie auth with a null cookie", changed(["auth": ["Type": "Cookie", "Cookie": .null]])),
        ("a cookie auth with no cookie", changed(["auth": ["Type": "Cookie"]])),
        (
            "a cookie auth with an unknown member",
            changed(["auth": ["Type": "Cookie", "Cookie": ["name": "n"], "X": 1]])
        ),
        ("a cookie auth whose cookie has no name", changed(["auth": ["Type": "Cookie", "Cookie": [:]]])),
        ("a token auth with a short token", changed(["auth": ["Type": "Token", "Token": "abc"]])),
        ("a token auth with a null token", changed(["auth": ["Type": "Token", "Token": .null]])),
        ("an auth of an unknown type", changed(["auth": ["Type": "Basic"]])),
        ("an auth that is a string", changed(["auth": "x"])),
        ("a manual form with a null xpath", changed(["form": ["mode": "manual", "login": "l", "xpath": .null]])),
        ("a manual form with no xpath", changed(["form": ["mode": "manual", "login": "l"]])),
        ("a form of an unknown mode", changed(["form": ["mode": "other", "login": "l"]])),
        ("a form with no login", changed(["form": ["mode": "auto"]])),
        ("a form whose login is a number", changed(["form": ["mode": "auto", "login": 1]])),
        ("valid: items of each condition", changed(["items": [["type": "check"], ["type": "text", "label": "b"]]])),
        ("a text item with no label", changed(["items": [["type": "text"]]])),
        ("a text item with an empty label", changed(["items": [["type": "text", "label": ""]]])),
        ("a check item with a label (its branch is closed)", changed(["items": [["type": "check", "label": "a"]]])),
        ("an item of an unknown type", changed(["items": [["type": "radio", "label": "a"]]])),
        ("an item with no type", changed(["items": [["label": "a"]]])),
        ("an item whose type is a number", changed(["items": [["type": 2]]])),
        ("an item that is a string", changed(["items": ["text"]])),
        ("valid: an npm deploy", changed(["deploy": ["provider": "npm", "email": "a@b"]])),
        ("an s3 deploy with a short bucket", changed(["deploy": ["provider": "s3", "bucket": "ab"]])),
        ("an s3 deploy with no bucket", changed(["deploy": ["provider": "s3"]])),
        ("an npm deploy whose on is a number", changed(["deploy": ["provider": "npm", "on": 1]])),
        ("a deploy of an unknown provider", changed(["deploy": ["provider": "ftp"]])),
        ("a deploy with no provider", changed(["deploy": ["bucket": "abc"]])),
        ("a deploy that is an array", changed(["deploy": [1]])),
        ("a level with a negative base", changed(["level": ["base": -1, "rate": 0.5]])),
        ("a level with a rate over one", changed(["level": ["base": 1, "rate": 2]])),
        ("a level with a member neither item names", changed(["level": ["base": 1, "rate": 0, "x": 1]])),
        ("a level with no base", changed(["level": ["rate": 0]])),
        ("valid: a v2 config", changed(["config": ["version": "v2", "inputs": ["a"]]])),
        ("valid: a v1beta1 config", changed(["config": ["version": "v1beta1", "plugins": []]])),
        ("a v1beta1 config with inputs", changed(["config": ["version": "v1beta1", "inputs": ["a"]]])),
        ("a v2 config with plugins", changed(["config": ["version": "v2", "plugins": ["a"]]])),
        ("a config with no version", changed(["config": ["plugins": ["a"]]])),
        ("a config of an unknown version", changed(["config": ["version": "v3", "inputs": ["a"]]])),
        ("a v2 config with no inputs", changed(["config": ["version": "v2", "inputs": []]])),
        ("a v1 config whose plugin is a number", changed(["config": ["version": "v1", "plugins": [1]]])),
        ("a config that is a string", changed(["config": "v1"])),
        ("mail on with nothing else", changed(["mail": ["enabled": true]])),
        ("mail on with a null profile", changed(["mail": ["enabled": true, "profile": .null, "to": ["a"]]])),
        ("mail on with an empty profile", changed(["mail": ["enabled": true, "profile": "", "to": ["a"]]])),
        ("mail on with no recipient", changed(["mail": ["enabled": true, "profile": "p", "to": []]])),
        ("mail with no enabled", changed(["mail": [:]])),
        ("valid: a node of another type", changed(["node": ["type": "net", "spec": ["any": 1], "name": "n"]])),
        ("valid: a disk node", changed(["node": ["type": "disk", "spec": ["size": 100]]])),
        ("a vm node with no cpus", changed(["node": ["type": "vm", "spec": [:]]])),
        ("a vm node with a cpu count of 0", changed(["node": ["type": "vm", "spec": ["cpus": 0]]])),
        ("a disk node with no spec", changed(["node": ["type": "disk"]])),
        ("a disk node too large", changed(["node": ["type": "disk", "spec": ["size": 101]]])),
        ("a node of an empty type", changed(["node": ["type": "", "spec": ["any": 1]]])),
        ("a node of another type whose spec is a string", changed(["node": ["type": "net", "spec": "s"]])),
        ("a node with a member it does not list", changed(["node": ["type": "net", "x": 1]])),
        ("a node with no type", changed(["node": ["spec": ["cpus": 0]]])),
        ("a node whose type is a number", changed(["node": ["type": 3]])),
        ("valid: a test stage", changed(["stage": ["kind": "test", "target": 3]])),
        ("valid: a deploy stage with any target", changed(["stage": ["kind": "deploy", "target": [1]]])),
        ("a build stage with a short target", changed(["stage": ["kind": "build", "target": "a"]])),
        ("a build stage with no target", changed(["stage": ["kind": "build"]])),
        ("a test stage whose target is a string", changed(["stage": ["kind": "test", "target": "ab"]])),
        ("a stage of an unknown kind", changed(["stage": ["kind": "lint"]])),
        ("a stage with no kind", changed(["stage": ["target": "ab"]])),
        ("an API entity whose spec has no url", changed(["entities": [["kind": "API", "name": "a", "spec": [:]]]])),
        ("an entity of an unknown kind", changed(["entities": [["kind": "Group", "name": "a"]]])),
        ("an entity of an empty kind", changed(["entities": [["kind": "", "name": "a"]]])),
        ("an entity with no name", changed(["entities": [["kind": "User"]]])),
        ("an entity with a member it does not list", changed(["entities": [["kind": "User", "name": "a", "x": 1]]])),
        ("a code of 0", changed(["code": 0])),
        ("an absolute path", changed(["path": "/a"])),
        ("an empty path", changed(["path": ""])),
        ("valid: a script plugin", changed(["plugin": ["kind": "script", "source": "run", "version": 2]])),
        ("valid: a plugin of another kind, with no source", changed(["plugin": ["kind": "wasm"]])),
        ("a script plugin with no source", changed(["plugin": ["kind": "script"]])),
        ("a script plugin with an empty source", changed(["plugin": ["kind": "script", "source": ""]])),
        ("a plugin of another kind at version 0", changed(["plugin": ["kind": "wasm", "version": 0]])),
        ("a plugin with no kind", changed(["plugin": ["source": "run"]])),
        ("a plugin whose kind is a number", changed(["plugin": ["kind": 1, "source": "run"]])),
        ("valid: dust of size 1", changed(["particle": ["kind": "dust", "size": 1]])),
        ("valid: an item particle", changed(["particle": ["kind": "item", "item": "x", "size": -1]])),
        ("valid: a note particle of any size", changed(["particle": ["kind": "note", "size": "big"]])),
        ("valid: a particle with no kind, of size 2, with no item", changed(["particle": ["size": 2, "name": "p"]])),
        ("a particle with no kind of size -1", changed(["particle": ["size": -1]])),
        ("a particle with no kind whose size is a string", changed(["particle": ["size": "big", "name": 1]])),
        ("dust of size -1", changed(["particle": ["kind": "dust", "size": -1]])),
        ("an item particle with no item", changed(["particle": ["kind": "item"]])),
        ("an item particle with an empty item", changed(["particle": ["kind": "item", "item": ""]])),
        ("a particle of an unknown kind", changed(["particle": ["kind": "smoke"]])),
        ("a particle whose kind is a number", changed(["particle": ["kind": 3, "size": -1]])),
        ("a particle whose kind is null", changed(["particle": ["kind": nil]])),
        (
            "valid: outputs of each kind",
            changed([
                "outputs": [
                    ["kind": "ts", "module": "esm"], ["kind": "ng", "module": "cjs"], ["kind": "py", "indent": 4],
                    ["kind": "rb"], ["kind": "cs", "namespace": "N"], ["kind": "go", "indent": 0, "module": 1],
                ]
            ])
        ),
        ("an Angular output with no module", changed(["outputs": [["kind": "ng"]]])),
        ("a TypeScript output of an unknown module", changed(["outputs": [["kind": "ts", "module": "amd"]]])),
        ("a Ruby output indented by 1", changed(["outputs": [["kind": "rb", "indent": 1]]])),
        ("a C# output with an empty namespace", changed(["outputs": [["kind": "cs", "namespace": ""]]])),
        ("an output of an unknown kind", changed(["outputs": [["kind": "js"]]])),
        (
            "several at once",
            changed([
                "resources": ["a": ["type": "file"], "b": ["type": "image"]], "auth": ["Type": "Token"],
                "form": ["mode": "manual", "login": "l"], "mail": ["enabled": true],
            ])
        ),
    ]

    @Test("the generated type refuses exactly where the schema does", arguments: instances.map(\.name))
    func agreement(_ name: String) throws {
        let instance = try #require(Self.instances.first { $0.name == name }?.instance)
        // A case's failures where they are (the schema's `oneOf` names them as its causes).
        try UnionTests.expectAgreement(Deployment.self, schemaText: Self.schemaText(), name: name, instance: instance)
    }

    @Test("the exported schema of a union with a case for a missing tag agrees with the source schema")
    func exportOfAMissingTag() throws {
        let exported = try JSONSchema(JSONSchemaExporter.document(for: Particle.self))
        let document = try JSONValue(parsing: Array(Self.schemaText().utf8))
        let definitions = try #require(document[pointer: "/definitions"])
        let source = try JSONSchema(["$ref": "#/definitions/particle", "definitions": definitions])
        let particles = Self.instances.compactMap { $0.instance[pointer: "/particle"] }
        #expect(particles.count == 12)
        // The case without the tag is exported refusing it (its struct alone would take the other
        // cases' objects too), and the other values' case its `enum` (a string enum's raw values).
        for particle in particles {
            #expect(exported.isValid(particle) == source.isValid(particle), "\(particle)")
        }
    }

    @Test("a value decoded holds the alternative its tag names, with the members around the union")
    func roundTrip() throws {
        let decoded = try JSONValueDecoder().decodeValidated(Deployment.self, from: Self.valid.jsonBytes()).value
        #expect(decoded.resources?["a"] == .file(DeploymentResourcesValueFile(type: "file", note: "short", path: "x")))
        #expect(
            decoded.auth
                == .some(.cookie(DeploymentAuthCookie(type: "Cookie", cookie: DeploymentAuthCookie2(name: "n")))))
        #expect(decoded.form == .some(.auto(DeploymentFormAuto(mode: "auto", login: "l"))))
        #expect(decoded.items?.first == .text(FormItemText(type: "text", label: "a")))
        #expect(try JSONValue(parsing: Array(JSONEncoder().encode(decoded))) == Self.valid)
        // Checked on demand too: the case's merged rules.
        let short = Deployment(resources: ["a": .file(DeploymentResourcesValueFile(type: "file", path: ""))])
        #expect(short.issues().map(\.path.jsonPointer) == ["/resources/a/path"])
        // A node of the other values may not take a value a condition names.
        let named = Deployment(node: .other(WorkloadOther(type: "vm")))
        #expect(named.issues().map(\.path.jsonPointer) == ["/node/type"])
        #expect(Deployment(node: .other(WorkloadOther(type: "net"))).issues().isEmpty)
        // A tag that may be missing: the object without it has the conditions that hold then.
        let missing = Deployment(particle: .withoutKind(ParticleWithoutKind(size: -1)))
        #expect(missing.issues().map(\.path.jsonPointer) == ["/particle/size"])
        // One condition: its value, or any other (which may not be the one it names).
        #expect(
            Deployment(plugin: .other(PluginOther(kind: "script"))).issues().map(\.path.jsonPointer) == ["/plugin/kind"]
        )
        #expect(
            Deployment(plugin: .script(PluginScript(kind: "script", source: ""))).issues().map(\.path.jsonPointer) == [
                "/plugin/source"
            ])
    }

    @Test("the golden file is the generator's output; every keyword is a typed rule")
    func golden() throws {
        let options = SwiftGeneratorOptions(sourceName: "beside.schema.json")
        let generated = try SwiftGenerator.generate(JSONValue(parsing: Array(Self.schemaText().utf8)), options: options)
        #expect(generated.source == (try SwiftGeneratorTests.read("Beside.swift")))
        // One note: the member type named after the union meets the case of the same name.
        #expect(generated.notes.count == 1)
        #expect(generated.notes.first?.contains("both map to the Swift type name DeploymentAuthCookie") == true)
        // The schema is read only to report a value no case is selected for (the object's own
        // members failing, or no tag): every keyword is a typed rule.
        let checks = generated.source.components(separatedBy: "SchemaDocument.schema, at:").count - 1
        #expect(checks == 11)
        #expect(
            generated.source.components(separatedBy: "otherwise: .schema(SchemaDocument.schema, at:").count - 1 == 11)
        // A condition on a member's values: a case for its `then`, one for its `else`.
        #expect(generated.source.contains("case v1(DeploymentConfigV1)"))
        #expect(generated.source.contains("case v2(DeploymentConfigV2)"))
        // An `allOf` of members and a union; of a base open to others and an item closed.
        #expect(generated.source.contains("public enum Deploy: Codable"))
        #expect(generated.source.contains("@Validatable(unknownKeys: .reject)\npublic struct Level:"))
        // Conditions on a required tag, one for each of its values: an enum of the conditions.
        #expect(generated.source.contains("public enum FormItem: Codable"))
        // The alternative that contradicts the closed script's tag is no case.
        #expect(!generated.typeNames.contains { $0.contains("ScriptV2") })
        #expect(generated.source.contains("among: [\"file\", \"image\", \"script\"]"))
        // Alternatives of the struct's own typed members are its rule.
        #expect(generated.source.contains("public struct DeploymentMail"))
        // Conditions on some values of a tag: the others are a case of their own, of every other
        // string (the values named refused) or of the rest of the tag's `enum`.
        #expect(generated.source.contains(#"among: ["vm", "disk"], anyOther: true"#))
        #expect(generated.source.contains(#"@Validate(.length(1...), .not(.oneOf(["vm", "disk"])))"#))
        #expect(generated.source.contains("case deploy(DeploymentStageDeploy)"))
        // A kind's `enum` implies the base's `minLength`; the cases named by the kinds.
        #expect(generated.source.contains("case api(DeploymentEntitiesItemAPI)"))
        // A scalar's `not` of its own keywords.
        #expect(generated.source.contains(#"@Validate(.length(1...), .not(.matches("^/")))"#))
    }

    @Test("a chain of unions beside members that cannot be typed is read a polynomial number of times")
    func failedMergesAreNotRetried() throws {
        // Each level: an object whose member `next` is the level below, beside a `oneOf` whose tags
        // name one Swift case ("a-b", "a_b"): typing the union fails after its first case read the
        // level below, and the struct it falls back to reads that level again.
        func chain(_ depth: Int) -> JSONValue {
            var schema: JSONValue = ["type": "string"]
            for _ in 0..<depth {
                schema = [
                    "type": "object", "required": ["t"], "properties": ["t": ["type": "string"], "next": schema],
                    "oneOf": [
                        ["properties": ["t": ["const": "a-b"], "x": ["type": "string"]]],
                        ["properties": ["t": ["const": "a_b"], "y": ["type": "string"]]],
                    ],
                ]
            }
            return schema
        }
        func resolutions(_ depth: Int) throws -> (count: Int, notes: [String]) {
            var reader = SchemaReader(document: chain(depth), options: SwiftGeneratorOptions())
            try reader.read()
            return (reader.resolutions, reader.notes)
        }
        let ten = try resolutions(10)
        let twenty = try resolutions(20)
        // Each level's union stays a check of its struct.
        #expect(ten.notes.filter { $0.contains(": oneOf — no typed rule") }.count == 10)
        // Read again at every level, twice as deep would be about a thousand times the reads;
        // read once more at most, about four times.
        #expect(twenty.count <= 5 * ten.count, "\(ten.count) → \(twenty.count)")
    }

    @Test("a union beside members falls back whole when an alternative does not merge, and is never checked alone")
    func unmerged() throws {
        // The alternative's `pattern` beside the object's `maxLength` for one member: neither
        // implies the other.
        let text = """
            {"type": "object", "properties": {"a": {"type": "string", "maxLength": 3}},
             "oneOf": [{"properties": {"a": {"pattern": "^x"}, "k": {"const": 1}}, "required": ["k"]},
                       {"properties": {"k": {"const": 2}}, "required": ["k"]}]}
            """
        let generated = try SwiftGeneratorTests.generate(text)
        #expect(generated.notes.count == 1)
        #expect(generated.notes.first?.hasPrefix("#: oneOf — no typed rule") == true)
        #expect(generated.source.contains(#".schema(SchemaDocument.schema, at: "", keywords: ["oneOf"])"#))
        #expect(!generated.source.contains(#"at: "/oneOf/0""#))
    }
}
