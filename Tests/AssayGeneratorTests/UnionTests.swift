import AssayCodable
import AssayGenerator
import AssayJSON
import AssaySchema
import Foundation
import Testing

/// `Union.swift` is the generator's output for `Golden/union.schema.json`: `oneOf`/`anyOf` whose
/// alternatives cannot overlap become enums with a case per alternative — told apart by a `const`
/// member (`Shape`), by the value's JSON type (`DrawingLabel`), recursive through a boxed case
/// (`indirect enum Node`) — and one alternative beside `null` becomes an optional (`owner`). A
/// schema with no `type` whose keywords read only objects is an enum of the object's struct and of
/// any other value (`settings`, `Extra`).
@Suite("oneOf and anyOf as Swift enums")
struct UnionTests {
    static func schemaText() throws -> String { try SwiftGeneratorTests.read("union.schema.json") }

    static let valid: JSONValue = [
        "shapes": [["kind": "circle", "radius": 1], ["kind": "square", "width": 2.5]], "label": "abc",
        "owner": ["name": "Ada"], "node": ["child": ["child": "leaf"]],
        "recipe": ["name": "mix", "next": ["name": "bake", "next": ["name": "cool"]]],
        "tree": [["name": "a", "children": [["name": "b"], ["name": "c", "children": []]]]],
        "settings": ["level": 1], "extras": [["id": "ab"], "free text", 3, 2.5, true, [1], nil],
        "include": ["a", "b"], "mode": "fast", "target": "https://example.com/x",
    ]

    static func changed(_ changes: [String: JSONValue?]) -> JSONValue { valid.changing(changes) }

    static let instances: [(name: String, instance: JSONValue)] = [
        ("valid", valid),
        ("valid with a number as the label", changed(["label": 3])),
        ("valid with a file sink", changed(["sink": ["type": "file", "path": "/var/log/a"]])),
        ("valid with an http sink", changed(["sink": ["type": "http", "url": "https://x.io/in", "token": "t"]])),
        ("a file sink with an empty path", changed(["sink": ["type": "file", "path": ""]])),
        (
            "an http sink with a token and a user",
            changed(["sink": ["type": "http", "url": "https://x.io", "token": "t", "user": "u"]])
        ),
        ("an http sink with no url", changed(["sink": ["type": "http", "user": "u"]])),
        ("a sink of an unknown type", changed(["sink": ["type": "ftp", "path": "/x"]])),
        ("a sink with no type", changed(["sink": ["path": "/x"]])),
        ("a sink whose type is a number", changed(["sink": ["type": 1, "path": "/x"]])),
        ("valid with an address", changed(["address": "12 Main St"])),
        ("valid with a null address", changed(["address": .some(nil)])),
        ("an address too long", changed(["address": "12 Main Street"])),
        ("an address that is an object", changed(["address": ["street": "Main", "city": "Oslo"]])),
        ("an address that is a number", changed(["address": 7])),
        (
            "valid with a string to include, true as the mode, an object as the target",
            changed(["include": "ab", "mode": true, "target": ["path": "/x"]])
        ),
        ("valid with a null mode", changed(["mode": .some(nil)])),
        ("valid with a finish and a layer", changed(["finish": "gloss", "layer": "back"])),
        ("a finish not listed", changed(["finish": "satin"])),
        ("valid with a weighted service", changed(["service": ["weighted": ["weight": 2], "name": "a long name"]])),
        ("valid with a service of servers", changed(["service": ["servers": ["a"], "name": "short"]])),
        ("a service of neither kind", changed(["service": ["name": "x"]])),
        ("a service of both kinds", changed(["service": ["weighted": [:], "servers": []]])),
        ("a weighted service with a member it does not allow", changed(["service": ["weighted": [:], "x": 1]])),
        ("a service of servers with a name too long", changed(["service": ["servers": [], "name": "longer"]])),
        ("a weighted service of weight zero", changed(["service": ["weighted": ["weight": 0]]])),
        ("a service that is not an object", changed(["service": "weighted"])),
        ("valid with a palette of colors", changed(["palette": ["kind": "list", "colors": ["red"]]])),
        ("valid with no palette", changed(["palette": ["kind": "none", "colors": []]])),
        ("a palette with no colors", changed(["palette": ["kind": "list", "colors": []]])),
        ("a palette of no kind", changed(["palette": ["kind": "some"]])),
        ("valid with a runtime, a grade and a code", changed(["runtime": "x-air", "grade": -1, "code": "ABCD"])),
        ("valid with a listed runtime and a short code", changed(["runtime": "flash", "grade": 10, "code": "ab"])),
        ("a runtime neither listed nor prefixed", changed(["runtime": "node"])),
        ("a runtime prefixed but too long", changed(["runtime": "x-flash"])),
        ("a runtime of another type", changed(["runtime": 1])),
        ("a grade between the ranges", changed(["grade": 5])),
        ("a code both alternatives take", changed(["code": "ABC"])),
        ("a code neither takes", changed(["code": "abcd"])),
        ("valid with a stroke of text", changed(["stroke": "abc"])),
        ("valid with a stroke of an integer", changed(["stroke": 3])),
        ("valid with a stroke of widths", changed(["stroke": [1, 2.5]])),
        ("valid with a stroke of a boolean", changed(["stroke": true])),
        ("a stroke of text too long", changed(["stroke": "abcd"])),
        ("a stroke below zero", changed(["stroke": -1])),
        ("a stroke of too many widths", changed(["stroke": [1, 2, 3]])),
        ("a stroke of no alternative's type", changed(["stroke": ["w": 1]])),
        ("a stroke of a fraction", changed(["stroke": 1.5])),
        ("a layer not listed, a finish of another type", changed(["layer": "middle", "finish": 1])),
        ("a string to include too short", changed(["include": "a"])),
        ("too many to include, one empty", changed(["include": ["a", "", "c", "d"]])),
        ("something to include of another type", changed(["include": 1])),
        ("a mode not listed, false", changed(["mode": false])),
        ("a mode string not listed", changed(["mode": "medium"])),
        ("a target that is no URI", changed(["target": "not a uri"])),
        ("a target object with an empty path", changed(["target": ["path": ""]])),
        ("a target object with no path", changed(["target": [:]])),
        ("valid with null label and owner", changed(["label": .some(nil), "owner": .some(nil)])),
        ("valid with a leaf as the node, no shapes", changed(["node": "leaf", "shapes": []])),
        ("a shape of an unknown kind", changed(["shapes": [["kind": "triangle", "side": 1]]])),
        ("a shape with no kind", changed(["shapes": [["radius": 1]]])),
        ("a shape whose kind is a number", changed(["shapes": [["kind": 1, "radius": 1]]])),
        ("a shape that is not an object", changed(["shapes": ["circle"]])),
        ("a circle with a negative radius", changed(["shapes": [["kind": "circle", "radius": -1]]])),
        ("a square with no width", changed(["shapes": [["kind": "square"]]])),
        (
            "a square of width zero, after a good circle",
            changed(["shapes": [["kind": "circle", "radius": 0], ["kind": "square", "width": 0]]])
        ),
        ("a label too long", changed(["label": "abcdef"])),
        ("a negative label", changed(["label": -1])),
        ("a label with a fraction", changed(["label": 1.5])),
        ("a label of another type", changed(["label": true])),
        ("an owner with an empty name", changed(["owner": ["name": ""]])),
        ("an owner that is a string", changed(["owner": "Ada"])),
        ("a node three levels down of the wrong type", changed(["node": ["child": ["child": 5]]])),
        ("a node with no child", changed(["node": [:]])),
        ("a null node", changed(["node": .some(nil)])),
        (
            "a step two levels down with an empty name",
            changed(["recipe": ["name": "mix", "next": ["name": "bake", "next": ["name": ""]]]])
        ),
        ("a step whose next is null", changed(["recipe": ["name": "mix", "next": nil]])),
        (
            "a tree node two levels down with an empty name",
            changed(["tree": [["name": "a", "children": [["name": ""]]]]])
        ),
        (
            "a tree with twice the same child",
            changed(["tree": [["name": "a", "children": [["name": "b"], ["name": "b"]]]]])
        ),
        ("valid with settings that are not an object", changed(["settings": "anything"])),
        (
            "valid: a collection of files with nested fields, some not objects",
            changed([
                "collection": [
                    "files": [], "name": "c", "fields": [["label": "a", "fields": [["label": "b"], 3]], nil],
                ]
            ])
        ),
        ("a collection that is a string", changed(["collection": "c"])),
        (
            "valid: modifiers of each kind, and one with no fn",
            changed([
                "modifiers": [["fn": "scale", "by": 2], ["fn": "shift", "offset": -1], ["by": 0.5, "offset": 3]]
            ])
        ),
        ("a modifier that is a string", changed(["modifiers": ["scale"]])),
        ("a scale modifier with no factor", changed(["modifiers": [["fn": "scale", "offset": 1.5]]])),
        ("a scale modifier by 0", changed(["modifiers": [["fn": "scale", "by": 0]]])),
        ("a modifier with no fn and no factor", changed(["modifiers": [["offset": 1]]])),
        (
            "a modifier with no fn, a factor of 0 and a fractional offset",
            changed(["modifiers": [["by": 0, "offset": 0.5]]])
        ),
        ("a modifier of an unknown fn", changed(["modifiers": [["fn": "rotate"]]])),
        ("a collection of files and a folder", changed(["collection": ["files": [], "folder": "f"]])),
        ("a collection of neither", changed(["collection": ["name": "c"]])),
        ("a collection with an empty name", changed(["collection": ["folder": "f", "name": ""]])),
        (
            "a collection whose nested field's label is too long",
            changed(["collection": ["folder": "f", "fields": [["fields": [["label": "abcdef"]]]]]])
        ),
        ("valid with null settings", changed(["settings": .some(nil)])),
        ("settings with no level", changed(["settings": ["other": 1]])),
        ("settings with a negative level", changed(["settings": ["level": -1]])),
        ("an extra with an id too short", changed(["extras": [["id": "a"], "ok"]])),
        ("an extra with a member it does not allow", changed(["extras": [1, ["id": "ab", "x": 1]]])),
        ("an editor with an empty name", changed(["editor": ["name": ""]])),
        ("several at once", changed(["label": [1], "shapes": [["kind": "circle"]], "node": 1])),
        // Closed unions (`unevaluatedProperties: false` beside them): a member no alternative
        // declares is reported alone; an object that fails has every member reported.
        ("valid with a bytes codec", changed(["codec": ["codec": "bytes"]])),
        ("valid with a json codec", changed(["codec": ["codec": "json", "lossy": true]])),
        ("a bytes codec with a member of the json one's", changed(["codec": ["codec": "bytes", "lossy": true]])),
        ("a codec of no kind", changed(["codec": ["codec": "xml", "lossy": true]])),
        ("a codec with no kind", changed(["codec": ["lossy": true]])),
        ("a json codec whose lossy is a string", changed(["codec": ["codec": "json", "lossy": "yes"]])),
        (
            "a json codec whose lossy is a string, with a member of its own",
            changed(["codec": ["codec": "json", "lossy": "yes", "x": 1]])
        ),
        ("a codec that is a string", changed(["codec": "bytes"])),
        ("valid with a null retention", changed(["retention": .some(nil)])),
        ("valid with a retention", changed(["retention": ["days": 3, "refresh": true]])),
        ("a retention with a member it does not declare", changed(["retention": ["days": 3, "x": 1]])),
        ("a retention with no days", changed(["retention": ["refresh": true]])),
        ("a retention of zero days with a member it does not declare", changed(["retention": ["days": 0, "x": 1]])),
        ("a retention that is a string", changed(["retention": "3 days"])),
        ("valid with tag values and a version", changed(["tagValues": "full", "version": "2"])),
        ("valid with a null version", changed(["version": .some(nil)])),
        ("tag values not listed", changed(["tagValues": "partial"])),
        ("tag values that are an object", changed(["tagValues": ["a": 1, "b": "full"]])),
        ("a version not listed, tag values of another type", changed(["version": "3", "tagValues": 1])),
        ("a version that is an object", changed(["version": ["v": "1"]])),
        ("valid with a sketch of one kind", changed(["sketch": ["dd": 1]])),
        ("a sketch of both kinds", changed(["sketch": ["dd": 1, "hll": "x"]])),
        ("a sketch with a member it does not declare", changed(["sketch": ["hll": "x", "x": 2]])),
        ("a sketch whose member is of another type", changed(["sketch": ["dd": "a", "x": 2]])),
        ("an empty sketch", changed(["sketch": [:]])),
    ]

    /// Whether the generated type names the places AssaySchema does: every place it names is one of
    /// the schema's errors or of their causes (a union's error names the union, its causes the
    /// chosen alternative's failures, which the enum reports where they are), and every error of the
    /// schema is named, at its place or at one of its causes'.
    static func agrees(_ found: Set<String>, _ errors: [SchemaError]) -> Bool {
        func places(_ error: SchemaError) -> Set<String> {
            error.causes.reduce(into: [error.instanceLocation.jsonPointer]) { $0.formUnion(places($1)) }
        }
        let all = errors.reduce(into: Set<String>()) { $0.formUnion(places($1)) }
        return found.isSubset(of: all) && errors.allSatisfy { !places($0).isDisjoint(with: found) }
    }

    /// Expects decoding `instance` as `type` and validating it against `schemaText` to agree
    /// (``agrees(_:_:)``), both valid exactly when `name` starts with "valid".
    static func expectAgreement<T: Decodable>(
        _ type: T.Type, schemaText: String, name: String, instance: JSONValue
    ) throws {
        let schema = try JSONSchema(parsing: schemaText, options: JSONSchema.Options(assertFormats: true))
        let result = schema.validate(instance)
        let found = SwiftGeneratorTests.decodingPlaces(type, instance)
        #expect(agrees(found, result.errors), "\(name): \(found.sorted()) against \(result.errors)")
        #expect(found.isEmpty == name.hasPrefix("valid"), "\(name): \(found.sorted())")
        #expect(result.isValid == name.hasPrefix("valid"), "\(name)")
    }

    @Test("the generated enums refuse exactly where the schema does", arguments: instances.map(\.name))
    func agreement(_ name: String) throws {
        let instance = try #require(Self.instances.first { $0.name == name }?.instance)
        try Self.expectAgreement(Drawing.self, schemaText: Self.schemaText(), name: name, instance: instance)
    }

    @Test("the chosen alternative's failures are reported where they are")
    func precise() throws {
        let instance = Self.changed(["shapes": [["kind": "circle", "radius": -1]], "label": "abcdef"])
        do {
            _ = try JSONValueDecoder().decodeValidated(Drawing.self, from: instance.jsonBytes())
            Issue.record("accepted")
        } catch {
            #expect(error.issues.map(\.path.jsonPointer) == ["/shapes/0/radius", "/label"])
            #expect(error.issues.map(\.code) == [.tooSmall, .tooLong])
        }
        do {
            _ = try JSONValueDecoder().decodeValidated(
                Drawing.self, from: Self.changed(["shapes": [["kind": "triangle"]], "label": true]).jsonBytes())
            Issue.record("accepted")
        } catch {
            #expect(error.issues.map(\.code) == [.noMatch, .typeMismatch])
            #expect(error.issues.first?.parameters["member"] == .string("kind"))
            #expect(
                error.issues.first?.message(in: .english)
                    == "Value must have \u{201C}kind\u{201D} set to one of: \u{201C}circle\u{201D}, \u{201C}square\u{201D}",
                "\(error.issues.first?.message(in: .english) ?? "")")
        }
    }

    @Test("on demand, the enums and boxes check what decoding does, at the same places")
    func onDemand() throws {
        let decoded = try JSONValueDecoder().decodeValidated(Drawing.self, from: Self.valid.jsonBytes()).value
        #expect(decoded.issues().isEmpty)
        var drawing = decoded
        drawing.shapes = [.circle(Circle(kind: "circle", radius: -1)), .square(ShapeSquare(kind: "square", width: 0))]
        drawing.label = .some(.string("abcdef"))
        drawing.node = .object(NodeObject(child: .object(NodeObject(child: .string("leaf")))))
        drawing.recipe = Step(name: "mix", next: Indirect(Step(name: "bake", next: Indirect(Step(name: "")))))
        drawing.settings = .some(.object(DrawingSettingsObject(level: -1)))
        drawing.extras = [.other(7), .object(ExtraObject(id: "a"))]
        let places = drawing.issues().filter(\.isError).map(\.path.jsonPointer)
        #expect(
            places == [
                "/shapes/0/radius", "/shapes/1/width", "/label", "/recipe/next/next/name", "/settings/level",
                "/extras/1/id",
            ], "\(places)")
        // The same places as decoding the same value finds.
        let bytes = Array(try JSONEncoder().encode(drawing))
        do {
            _ = try JSONValueDecoder().decodeValidated(Drawing.self, from: bytes)
            Issue.record("accepted")
        } catch {
            #expect(Set(error.issues.filter(\.isError).map(\.path.jsonPointer)) == Set(places))
        }
        #expect(!drawing.isValid)
        drawing.label = .some(.integer(-1))
        #expect(drawing.issues().contains { $0.path.jsonPointer == "/label" && $0.code == .tooSmall })
    }

    @Test("an enum decoded on its own reports each failure once")
    func topLevel() throws {
        for (json, places) in [
            (#"{"kind": "circle", "radius": -1}"#, ["/radius"]), (#"{"kind": "triangle"}"#, [""]),
            (#""abcdef""#, [""]),
        ] {
            do {
                if json.hasPrefix("{") {
                    _ = try JSONValueDecoder().decodeValidated(Shape.self, from: Array(json.utf8))
                } else {
                    _ = try JSONValueDecoder().decodeValidated(DrawingLabel.self, from: Array(json.utf8))
                }
                Issue.record("\(json) was accepted")
            } catch {
                #expect(error.issues.map(\.path.jsonPointer) == places, "\(json): \(error.issues)")
            }
        }
    }

    @Test("values decode to their cases and encode back as they were")
    func roundTrip() throws {
        let drawing = try JSONValueDecoder().decodeValidated(Drawing.self, from: Self.valid.jsonBytes()).value
        #expect(
            drawing.shapes == [
                .circle(Circle(kind: "circle", radius: 1)), .square(ShapeSquare(kind: "square", width: 2.5)),
            ])
        #expect(drawing.label == .some(.string("abc")))
        #expect(drawing.owner == .some(Author(name: "Ada")))
        #expect(drawing.node == .object(NodeObject(child: .object(NodeObject(child: .string("leaf"))))))
        // A schema with no type: the object's struct, or any other value kept as it is.
        #expect(drawing.settings == .some(.object(DrawingSettingsObject(level: 1))))
        #expect(drawing.extras?.first == .object(ExtraObject(id: "ab")))
        #expect(drawing.extras?.dropFirst().first == .other("free text"))
        #expect(drawing.extras?.last == .some(nil))
        let encoded = try JSONValue(parsing: Array(JSONEncoder().encode(drawing)))
        #expect(encoded == Self.valid)
        // Foundation's decoder reads the same cases.
        #expect(try JSONDecoder().decode(Drawing.self, from: Data(Self.valid.jsonBytes())) == drawing)
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(Drawing.self, from: Data(Self.changed(["label": 1.5]).jsonBytes()))
        }
        let numbered = try JSONValueDecoder().decodeValidated(
            Drawing.self, from: Self.changed(["label": 3]).jsonBytes()
        ).value
        #expect(numbered.label == .some(.integer(3)))
    }

    @Test("objects told apart by a member of their own: neither or both is one issue, at the object")
    func ownMember() throws {
        for service: JSONValue in [["name": "x"], ["weighted": [:], "servers": []]] {
            do {
                let bytes = Self.changed(["service": service]).jsonBytes()
                _ = try JSONValueDecoder().decodeValidated(Drawing.self, from: bytes)
                Issue.record("decoded \(service)")
            } catch {
                #expect(error.issues.map(\.path.jsonPointer) == ["/service"])
                #expect(error.issues.map(\.code) == [.noMatch])
                let message = error.issues[0].message(in: .english)
                #expect(message.contains("exactly one of the members"), "\(message)")
            }
        }
    }

    @Test("the golden file is the generator's output; enums are exported as oneOf with their rules")
    func golden() throws {
        let options = SwiftGeneratorOptions(sourceName: "union.schema.json")
        let generated = try SwiftGenerator.generate(JSONValue(parsing: Array(Self.schemaText().utf8)), options: options)
        #expect(generated.source == (try SwiftGeneratorTests.read("Union.swift")))
        #expect(
            generated.typeNames == [
                "Drawing", "Shape", "ShapeSquare", "DrawingLabel", "DrawingSink", "DrawingSinkFile", "Node",
                "NodeObject", "TreeItem", "DrawingSettings", "DrawingSettingsObject", "Extra", "ExtraObject",
                "DrawingCodec", "DrawingCodecBytes", "DrawingCodecJSON", "DrawingRetention", "DrawingTagValues",
                "DrawingVersion", "DrawingSketch",
                "DrawingSketchDd", "DrawingSketchHll", "DrawingInclude", "DrawingMode", "DrawingTarget",
                "DrawingTargetObject", "DrawingFinish", "DrawingLayer", "DrawingPalette", "DrawingPaletteList",
                "DrawingPaletteNone", "DrawingStroke", "Collection", "FieldsItem", "FieldsItemObject", "Modifier",
                "ModifierScale", "ModifierShift", "ModifierWithoutFn", "JSONCodec",
                "FileSink", "Service", "ServiceWeighted",
                "ServiceWeightedWeighted", "ServiceServers", "Widths", "Circle", "Author", "Step",
            ])
        // A `oneOf` of constants is a string enum, each `const`'s title and description its case's.
        let finish = "    /// Matte\n    ///\n    /// No shine.\n    case matte\n    case gloss\n"
        #expect(generated.source.contains(finish))
        // A `type` of several types: a case per type, each with its own keywords' rules.
        #expect(generated.source.contains("    case string(String)\n    case array([String])\n"))
        #expect(
            generated.source.contains(
                "UnionDecoding.decode(String.self, from: decoder, rule: .oneOf([\"fast\", \"slow\"]))"))
        // A tag beside a `$ref` in an alternative's `allOf`: a case per tag; an alternative that is
        // no struct (an `allOf` with a `oneOf` in it, of which only objects pass) is a dictionary
        // checked against its schema. A schema of no type that only objects pass (its `oneOf` of
        // two alternatives every other value passes) is a struct.
        #expect(
            generated.notes == [
                "#/properties/sink/oneOf/1: allOf — no typed rule: the value is checked against these keywords with AssaySchema when decoded",
                "#/$defs/Collection: oneOf — no typed rule: each value of Collection is checked against these keywords with AssaySchema when decoded",
                "#/$defs/Step: Step.next is an Indirect<Step>, a box: a Step holds itself through it",
            ])
        #expect(generated.source.contains("    case file(DrawingSinkFile)\n    case http([String: JSONValue])\n"))
        // An array whose items (an object or any other value) hold it again: optional elements.
        #expect(generated.source.contains("    public var fields: [FieldsItem?]?\n"))
        #expect(generated.source.contains("public indirect enum Node"))
        // `allOf` of one schema beside items of annotations alone is that schema.
        #expect(generated.source.contains("    public var editor: Author?\n"))
        #expect(!generated.source.contains("indirect enum Shape"))
        let exported = JSONSchemaExporter.document(for: Drawing.self)
        let label = try #require(exported[pointer: "/properties/label"])
        let alternatives: JSONValue = [
            "oneOf": [["type": "string", "maxLength": 5], ["type": "integer", "minimum": 0]]
        ]
        #expect(label == ["anyOf": [alternatives, ["type": "null"]]], "\(label)")
        // Any value but an object, or the object's schema.
        let settings = try #require(exported[pointer: "/properties/settings"])
        let objectOrOther: JSONValue = [
            "oneOf": [["$ref": "#/$defs/DrawingSettingsObject"], ["not": ["type": "object"]]]
        ]
        #expect(settings == ["anyOf": [objectOrOther, ["type": "null"]]], "\(settings)")
        let shapes = try #require(exported[pointer: "/properties/shapes/items/oneOf"])
        #expect(shapes == [["$ref": "#/$defs/Circle"], ["$ref": "#/$defs/ShapeSquare"]], "\(shapes)")
        // A closed union is exported closed; its alternatives refuse the keys they do not declare.
        let codec = try #require(exported[pointer: "/properties/codec"])
        let closed: JSONValue = [
            "oneOf": [["$ref": "#/$defs/DrawingCodecBytes"], ["$ref": "#/$defs/DrawingCodecJSON"]],
            "unevaluatedProperties": false,
        ]
        #expect(codec == closed, "\(codec)")
        #expect(exported[pointer: "/$defs/DrawingCodecBytes/additionalProperties"] == false)
        #expect(exported[pointer: "/$defs/DrawingRetention/additionalProperties"] == false)
    }

    @Test("a closed union reports a member no alternative declares alone, and every member of an object that fails")
    func closed() throws {
        func issues(_ changes: [String: JSONValue?]) -> [String] {
            do {
                _ = try JSONValueDecoder().decodeValidated(Drawing.self, from: Self.changed(changes).jsonBytes())
                return []
            } catch {
                return error.issues.map { "\($0.path.jsonPointer) \($0.code)" }
            }
        }
        #expect(issues(["codec": ["codec": "bytes", "lossy": true]]) == ["/codec/lossy unknownKey"])
        #expect(
            issues(["codec": ["codec": "xml", "lossy": true]])
                == ["/codec noMatch", "/codec/codec unknownKey", "/codec/lossy unknownKey"])
        // The member that failed is reported twice: its own failure, and not evaluated.
        #expect(
            issues(["codec": ["codec": "json", "lossy": "yes", "x": 1]])
                == [
                    "/codec/x unknownKey", "/codec/lossy typeMismatch", "/codec/codec unknownKey",
                    "/codec/lossy unknownKey",
                ])
        #expect(issues(["codec": "bytes"]) == ["/codec typeMismatch"])
        // Closed constants: a string enum that reports each member of an object given instead.
        #expect(
            issues(["tagValues": ["a": 1, "b": "full"]])
                == ["/tagValues typeMismatch", "/tagValues/a unknownKey", "/tagValues/b unknownKey"])
        #expect(issues(["tagValues": "partial"]).map { $0.hasPrefix("/tagValues ") } == [true])
        #expect(issues(["retention": ["days": 3, "x": 1]]) == ["/retention/x unknownKey"])
        #expect(
            issues(["retention": ["days": 0, "x": 1]])
                == ["/retention/x unknownKey", "/retention/days tooSmall", "/retention/days unknownKey"])
        #expect(
            issues(["retention": ["refresh": true]]) == ["/retention/days missing", "/retention/refresh unknownKey"])
        #expect(
            issues(["sketch": ["dd": 1, "hll": "x"]])
                == ["/sketch noMatch", "/sketch/dd unknownKey", "/sketch/hll unknownKey"])
        // Through a decoder that is not Assay's: the same places.
        let bytes = Self.changed(["retention": ["refresh": true, "x": 1]]).jsonBytes()
        do {
            _ = try JSONDecoder().decode(Drawing.self, from: Data(bytes))
            Issue.record("accepted")
        } catch let error as ValidationError {
            #expect(
                Set(error.issues.map(\.path.jsonPointer)) == ["/retention/days", "/retention/refresh", "/retention/x"])
        }
    }
}
