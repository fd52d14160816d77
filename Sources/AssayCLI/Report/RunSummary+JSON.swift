import AssayCore
import AssayJSON
import AssaySchema

extension RunSummary {
    /// The summary as JSON: the format `docs/report.md` documents and ``schemaText`` checks.
    var json: JSONValue {
        var root = JSONObject()
        root["format"] = .string(Self.formatName)
        root["version"] = .number(JSONNumber(Self.version))
        root["assayVersion"] = .string(assayVersion)
        root["language"] = .string(language)
        root["schema"] = .string(schema)
        root["inputs"] = .array(inputs.map(JSONValue.string))
        root["shards"] = Self.number(shards)
        root["limits"] = .object([
            "paths": Self.number(limits.paths), "examples": Self.number(limits.examples),
            "exampleBytes": Self.number(limits.exampleBytes),
        ])
        root["totals"] = .object([
            "documents": Self.number(documents), "valid": Self.number(max(0, documents - invalid)),
            "invalid": Self.number(invalid), "errors": Self.number(errors),
            "notValidated": Self.number(notValidated), "truncatedDocuments": Self.number(truncatedDocuments),
            "bytes": Self.number(bytes), "seconds": .number(JSONNumber((seconds * 1000).rounded() / 1000) ?? 0),
        ])
        root["errorsPerDocument"] = .array(
            zip(Self.bucketStarts, errorsPerDocument).enumerated().map { index, pair in
                var bucket: JSONObject = ["from": Self.number(pair.0)]
                if index + 1 < Self.bucketStarts.count { bucket["to"] = Self.number(Self.bucketStarts[index + 1] - 1) }
                bucket["documents"] = Self.number(pair.1)
                return .object(bucket)
            })
        root["keywords"] = Self.counts(keywords, name: "keyword")
        root["codes"] = Self.counts(codes, name: "code")
        root["paths"] = .array(paths.map(Self.json(of:)))
        root["unlistedAtMost"] = Self.number(unlistedAtMost)
        // The rest, as one bucket: the paths not listed and the errors that may be theirs (all
        // errors but those certainly at listed paths).
        let certain = paths.reduce(0) { $0.adding(Swift.max(0, $1.errors - $1.overcount)) }
        root["otherPaths"] = .object([
            "paths": Self.number(Swift.max(0, distinctPaths - paths.count)),
            "errorsAtMost": Self.number(Swift.max(0, errors - certain)),
        ])
        root["distinctPaths"] = Self.number(distinctPaths)
        root["approximate"] = .bool(isApproximate)
        if unlistedAtMost > 0, !distinctSketch.isEmpty {
            root["distinctSketch"] = .string(
                String(decoding: distinctSketch.map { Self.sketchDigits[Int($0 & 63)] }, as: UTF8.self))
        }
        root["redacted"] = .array(redacted.map(JSONValue.string))
        return .object(root)
    }

    /// The sketch's registers (0…63) as one character each.
    private static let sketchDigits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static func number(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }

    /// `[{"keyword": "format", "errors": 12}, …]`, most first, then by name.
    private static func counts(_ counts: [String: Int], name: String) -> JSONValue {
        .array(
            counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map {
                .object([name: .string($0.key), "errors": number($0.value)])
            })
    }

    private static func json(of path: PathTally) -> JSONValue {
        .object([
            "path": .string(path.path), "errors": number(path.errors), "overcount": number(path.overcount),
            "documents": number(path.documents),
            "keywords": .array(
                path.keywords.map { tally in
                    .object([
                        "keyword": .string(tally.keyword), "errors": number(tally.errors),
                        "documents": number(tally.documents),
                        "examples": .array(
                            tally.examples.map { example in
                                .object([
                                    "source": .string(example.source), "document": example.document,
                                    "excerpt": .bool(example.excerpt),
                                    "errors": .array(
                                        example.errors.map { error in
                                            .object([
                                                "instanceLocation": .string(error.instanceLocation),
                                                "keyword": .string(error.keyword), "code": .string(error.code),
                                                "message": .string(error.message),
                                            ])
                                        }),
                                ])
                            }),
                    ])
                }),
        ])
    }

    /// Reads a summary that `file` holds; refuses one of another format or version, or one that
    /// its schema (``schemaText``) does not accept, naming the first problem.
    init(json value: JSONValue, file: String) throws(CLIError) {
        guard case .object(let root) = value, root["format"] == .string(Self.formatName) else {
            throw CLIError.io("\(file): not an Assay run summary (no \"format\": \"\(Self.formatName)\")")
        }
        guard root["version"] == .number(JSONNumber(Self.version)) else {
            let written = root["version"].map { $0.jsonString() } ?? "none"
            let by = root["assayVersion"].flatMap { if case .string(let text) = $0 { text } else { nil } }
            throw CLIError.io(
                "\(file): a run summary of version \(written)\(by.map { " (written by assay \($0))" } ?? ""); "
                    + "this assay (\(AssayTool.version)) reads version \(Self.version): write it again with this one")
        }
        let result = Self.summarySchema.validate(value, limit: .first(1))
        if let error = result.errors.first {
            let place = error.instanceLocation.jsonPointer.isEmpty ? "/" : error.instanceLocation.jsonPointer
            throw CLIError.io(
                "\(file): not a valid run summary: \(place): \(error.message(in: .english))")
        }
        func int(_ object: JSONObject, _ key: String) -> Int {
            if case .number(let number) = object[key] { return number.int ?? 0 }
            return 0
        }
        func string(_ object: JSONObject, _ key: String) -> String {
            if case .string(let text) = object[key] { return text }
            return ""
        }
        func objects(_ object: JSONObject, _ key: String) -> [JSONObject] {
            guard case .array(let elements) = object[key] else { return [] }
            return elements.compactMap { if case .object(let member) = $0 { member } else { nil } }
        }
        func strings(_ object: JSONObject, _ key: String) -> [String] {
            guard case .array(let elements) = object[key] else { return [] }
            return elements.compactMap { if case .string(let text) = $0 { text } else { nil } }
        }
        assayVersion = string(root, "assayVersion")
        language = string(root, "language")
        schema = string(root, "schema")
        inputs = strings(root, "inputs")
        shards = int(root, "shards")
        if case .object(let given) = root["limits"] {
            limits = Limits(
                paths: int(given, "paths"), examples: int(given, "examples"), exampleBytes: int(given, "exampleBytes"))
        }
        if case .object(let totals) = root["totals"] {
            documents = int(totals, "documents")
            invalid = int(totals, "invalid")
            errors = int(totals, "errors")
            notValidated = int(totals, "notValidated")
            truncatedDocuments = int(totals, "truncatedDocuments")
            bytes = int(totals, "bytes")
            if case .number(let number) = totals["seconds"] { seconds = number.double ?? 0 }
        }
        let buckets = objects(root, "errorsPerDocument")
        for (index, start) in Self.bucketStarts.enumerated() {
            errorsPerDocument[index] = buckets.first { int($0, "from") == start }.map { int($0, "documents") } ?? 0
        }
        for entry in objects(root, "keywords") {
            keywords[string(entry, "keyword"), default: 0] += int(entry, "errors")
        }
        for entry in objects(root, "codes") { codes[string(entry, "code"), default: 0] += int(entry, "errors") }
        paths = objects(root, "paths").map { path in
            PathTally(
                path: string(path, "path"), errors: int(path, "errors"), overcount: int(path, "overcount"),
                documents: int(path, "documents"),
                keywords: objects(path, "keywords").map { tally in
                    KeywordTally(
                        keyword: string(tally, "keyword"), errors: int(tally, "errors"),
                        documents: int(tally, "documents"),
                        examples: objects(tally, "examples").map { example in
                            Example(
                                source: string(example, "source"), document: example["document"] ?? .null,
                                excerpt: example["excerpt"] == .bool(true),
                                errors: objects(example, "errors").map { error in
                                    ExampleError(
                                        instanceLocation: string(error, "instanceLocation"),
                                        keyword: string(error, "keyword"), code: string(error, "code"),
                                        message: string(error, "message"))
                                })
                        })
                })
        }
        unlistedAtMost = int(root, "unlistedAtMost")
        distinctSketch = string(root, "distinctSketch").utf8.map { digit in
            UInt8(Self.sketchDigits.firstIndex(of: digit) ?? 0)
        }
        redacted = strings(root, "redacted")
    }

    /// ``schemaText``, compiled once.
    static let summarySchema: JSONSchema = {
        // The schema is a constant a test compiles and checks against docs/run-summary.schema.json.
        // swift-format-ignore: NeverForceUnwrap
        try! JSONSchema(parsing: schemaText)
    }()

    /// The JSON Schema of a version 1 summary (the same as `docs/run-summary.schema.json`).
    static let schemaText = #"""
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "title": "Assay run summary, version 1",
          "type": "object",
          "required": ["format", "version", "language", "shards", "limits", "totals", "errorsPerDocument",
            "keywords", "codes", "paths", "unlistedAtMost"],
          "properties": {
            "format": {"const": "assay-run-summary"},
            "version": {"const": 1},
            "assayVersion": {"type": "string"},
            "language": {"type": "string"},
            "schema": {"type": "string"},
            "inputs": {"type": "array", "items": {"type": "string"}},
            "shards": {"$ref": "#/$defs/count", "minimum": 1},
            "limits": {
              "type": "object",
              "required": ["paths", "examples", "exampleBytes"],
              "properties": {
                "paths": {"type": "integer", "minimum": 1, "maximum": 100000},
                "examples": {"type": "integer", "minimum": 0, "maximum": 100},
                "exampleBytes": {"type": "integer", "minimum": 64, "maximum": 1048576}
              }
            },
            "totals": {
              "type": "object",
              "required": ["documents", "invalid", "errors"],
              "properties": {
                "documents": {"$ref": "#/$defs/count"},
                "valid": {"$ref": "#/$defs/count"},
                "invalid": {"$ref": "#/$defs/count"},
                "errors": {"$ref": "#/$defs/count"},
                "notValidated": {"$ref": "#/$defs/count"},
                "truncatedDocuments": {"$ref": "#/$defs/count"},
                "bytes": {"$ref": "#/$defs/count"},
                "seconds": {"type": "number", "minimum": 0}
              }
            },
            "errorsPerDocument": {
              "type": "array",
              "maxItems": 64,
              "items": {
                "type": "object",
                "required": ["from", "documents"],
                "properties": {
                  "from": {"$ref": "#/$defs/count"},
                  "to": {"$ref": "#/$defs/count"},
                  "documents": {"$ref": "#/$defs/count"}
                }
              }
            },
            "keywords": {"$ref": "#/$defs/counts", "items": {"required": ["keyword"]}},
            "codes": {"$ref": "#/$defs/counts", "items": {"required": ["code"]}},
            "paths": {
              "type": "array",
              "maxItems": 100000,
              "items": {
                "type": "object",
                "required": ["path", "errors", "overcount", "documents", "keywords"],
                "properties": {
                  "path": {"type": "string"},
                  "errors": {"$ref": "#/$defs/count"},
                  "overcount": {"$ref": "#/$defs/count"},
                  "documents": {"$ref": "#/$defs/count"},
                  "keywords": {
                    "type": "array",
                    "maxItems": 1000,
                    "items": {
                      "type": "object",
                      "required": ["keyword", "errors", "documents", "examples"],
                      "properties": {
                        "keyword": {"type": "string"},
                        "errors": {"$ref": "#/$defs/count"},
                        "documents": {"$ref": "#/$defs/count"},
                        "examples": {
                          "type": "array",
                          "maxItems": 100,
                          "items": {
                            "type": "object",
                            "required": ["source", "document", "excerpt", "errors"],
                            "properties": {
                              "source": {"type": "string"},
                              "excerpt": {"type": "boolean"},
                              "errors": {
                                "type": "array",
                                "items": {
                                  "type": "object",
                                  "required": ["instanceLocation", "keyword", "code", "message"],
                                  "properties": {
                                    "instanceLocation": {"type": "string"},
                                    "keyword": {"type": "string"},
                                    "code": {"type": "string"},
                                    "message": {"type": "string"}
                                  }
                                }
                              }
                            }
                          }
                        }
                      }
                    }
                  }
                }
              }
            },
            "unlistedAtMost": {"$ref": "#/$defs/count"},
            "otherPaths": {
              "type": "object",
              "properties": {
                "paths": {"$ref": "#/$defs/count"},
                "errorsAtMost": {"$ref": "#/$defs/count"}
              }
            },
            "distinctPaths": {"$ref": "#/$defs/count"},
            "approximate": {"type": "boolean"},
            "distinctSketch": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1024}$"},
            "redacted": {"type": "array", "items": {"type": "string"}}
          },
          "$defs": {
            "count": {"type": "integer", "minimum": 0},
            "counts": {
              "type": "array",
              "maxItems": 10000,
              "items": {
                "type": "object",
                "required": ["errors"],
                "properties": {
                  "keyword": {"type": "string"},
                  "code": {"type": "string"},
                  "errors": {"$ref": "#/$defs/count"}
                }
              }
            }
          }
        }
        """#
}
