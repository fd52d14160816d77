#!/usr/bin/env python3
"""No drift between generated Swift and the schema (issue 29): every test group's schema of the
JSON-Schema-Test-Suite is generated with the built `assay generate swift`, all the generated files are
compiled together in a scratch package, and every test instance is decoded with the generated root
type. The instance must be refused if and only if AssaySchema (formats asserted) says it is invalid,
and the errors must name the same instance locations (JSON Pointers).

Prints, per draft: schemas generated, the refusals by reason, files that did not compile, instances
whose verdict agrees, instances whose error locations agree, and every disagreement.

Usage: scripts/generator-agreement.py [--work DIR] [--assay PATH] [DRAFT ...]
  (draft7 and draft2020-12 by default; the scratch package is kept in DIR, /tmp/assay-agreement by
  default, so that a second run builds only what changed; its first build compiles the package's
  dependencies, some minutes)"""
import argparse, collections, json, os, pathlib, re, shutil, subprocess, sys

root = pathlib.Path(__file__).resolve().parent.parent
suite = pathlib.Path(os.environ.get("JSON_SCHEMA_TEST_SUITE", root.parent / "shared" / "JSON-Schema-Test-Suite"))
parser = argparse.ArgumentParser()
parser.add_argument("--work", default="/tmp/assay-agreement")
parser.add_argument("--assay", default=str(root / ".build" / "debug" / "assay"))
parser.add_argument("drafts", nargs="*", default=["draft7", "draft2020-12"])
arguments = parser.parse_args()
work = pathlib.Path(arguments.work)
sources = work / "Sources" / "Harness"
dialects = {"draft7": "http://json-schema.org/draft-07/schema#", "draft2020-12": "https://json-schema.org/draft/2020-12/schema"}

if sources.exists():
    shutil.rmtree(sources)
sources.mkdir(parents=True)
(work / "Package.swift").write_text(f"""// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Harness",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: {json.dumps(str(root))})],
    targets: [
        .executableTarget(
            name: "Harness",
            dependencies: [
                .product(name: "AssayCodable", package: {json.dumps(root.name)}),
                .product(name: "AssaySchema", package: {json.dumps(root.name)}),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
""")

cases = []  # id, draft, file, schema, tests, type
refusals = {draft: collections.Counter() for draft in arguments.drafts}
totals = collections.Counter()
schema_file = work / "schema.json"
for draft in arguments.drafts:
    for path in sorted((suite / "tests" / draft).glob("*.json")):
        for index, group in enumerate(json.loads(path.read_text())):
            totals[draft] += 1
            schema = group["schema"]
            if isinstance(schema, dict) and "$schema" not in schema:
                schema = {"$schema": dialects[draft], **schema}
            schema_file.write_text(json.dumps(schema))
            name = f"G{sum(totals.values())}"
            run = subprocess.run(
                [arguments.assay, "generate", "swift", str(schema_file), "--type-prefix", name, "--root-name", "Root",
                 "-o", str(sources / f"{name}.swift")], capture_output=True, text=True)
            if run.returncode != 0:
                message = run.stderr.strip().splitlines()[-1].split(": ", 2)[-1] if run.stderr.strip() else "?"
                refusals[draft][re.sub(r'"[^"]*"', '"…"', message)[:90]] += 1
                continue
            cases.append({"id": name, "draft": draft, "file": f"{path.name}#{index}", "description": group["description"],
                          "schema": schema, "tests": group["tests"], "type": f"{name}Root"})

(work / "cases.json").write_text(json.dumps(cases))


def write_main(ids):
    table = ",\n".join(f'    "{case["id"]}": {{ pointers({case["type"]}.self, $0) }}' for case in cases if case["id"] in ids)
    (sources / "main.swift").write_text("""import AssayCodable
import AssaySchema
import Foundation

/// The error locations of decoding `bytes` as `type`; empty when it decodes.
func pointers<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) -> Set<String> {
    do {
        _ = try JSONValueDecoder().decodeValidated(T.self, from: bytes)
        return []
    } catch {
        return Set(error.issues.filter { $0.severity == .error }.map(\\.path.jsonPointer))
    }
}

func elements(_ value: JSONValue?) -> [JSONValue] {
    if case .array(let items)? = value { return items }
    return []
}

let decoders: [String: ([UInt8]) -> Set<String>] = [
""" + table + """
]

let cases = try JSONValue(parsing: Array(FileManager.default.contents(atPath: CommandLine.arguments[1])!))
var results: [JSONValue] = []
for case .object(let entry) in elements(cases) {
    guard case .string(let id)? = entry["id"], let decode = decoders[id], let schemaValue = entry["schema"] else { continue }
    let schema: JSONSchema
    do {
        schema = try JSONSchema(schemaValue, options: JSONSchema.Options(assertFormats: true))
    } catch {
        results.append(["id": .string(id), "error": .string("AssaySchema does not compile it: \\(error)")])
        continue
    }
    for case .object(let test) in elements(entry["tests"]) {
        let data = test["data"] ?? .null
        let expected = Set(schema.validate(data).issues.map(\\.path.jsonPointer))
        let found = decode(data.jsonBytes())
        results.append([
            "id": .string(id), "test": test["description"] ?? .null,
            "expected": .array(expected.sorted().map(JSONValue.string)),
            "found": .array(found.sorted().map(JSONValue.string)),
        ])
    }
}
print(JSONValue.array(results).jsonString())
""")


compiled_ids = {case["id"] for case in cases}
uncompiled = {}
for attempt in range(6):
    for stale in sources.glob("G*.swift"):
        if stale.stem not in compiled_ids:
            stale.unlink()
    write_main(compiled_ids)
    build = subprocess.run(["swift", "build", "--package-path", str(work)], capture_output=True, text=True)
    if build.returncode == 0:
        break
    failing = set(re.findall(r"Harness/(G\d+)\.swift:\d+:\d+: error: (.*)", build.stdout + build.stderr))
    if not failing:
        sys.exit("the harness did not build:\n" + (build.stdout + build.stderr)[-4000:])
    for name, error in failing:
        uncompiled.setdefault(name, error)
        compiled_ids.discard(name)
else:
    sys.exit("the harness did not build after several attempts")

binary = subprocess.run(["swift", "build", "--package-path", str(work), "--show-bin-path"], capture_output=True,
                        text=True).stdout.strip()
run = subprocess.run([binary + "/Harness", str(work / "cases.json")], capture_output=True, text=True)
if run.returncode != 0:
    sys.exit("the harness failed:\n" + run.stderr[-4000:])
results = json.loads(run.stdout)
by_id = {case["id"]: case for case in cases}

for draft in arguments.drafts:
    mine = [case for case in cases if case["draft"] == draft]
    generated = len(mine)
    broken = [case for case in mine if case["id"] in uncompiled]
    rows = [row for row in results if by_id[row["id"]]["draft"] == draft]
    tested = [row for row in rows if "error" not in row]
    verdicts = sum(1 for row in tested if (not row["expected"]) == (not row["found"]))
    locations = sum(1 for row in tested if row["expected"] == row["found"])
    print(f"## {draft}: {generated} of {totals[draft]} test schemas generated "
          f"({100 * generated / max(totals[draft], 1):.1f}%), {len(broken)} of them did not compile\n")
    print(f"- instances decoded: {len(tested)}; verdict agrees: {verdicts} ({100 * verdicts / max(len(tested), 1):.1f}%); "
          f"error locations agree: {locations} ({100 * locations / max(len(tested), 1):.1f}%)")
    for row in rows:
        if "error" in row:
            print(f"- {by_id[row['id']]['file']}: {row['error']}")
    print("\n| refusals | reason |\n|---|---|")
    for reason, count in refusals[draft].most_common():
        print(f"| {count} | {reason} |")
    if broken:
        print("\n| did not compile | first error |\n|---|---|")
        for case in broken:
            print(f"| {case['file']} | {uncompiled[case['id']][:100]} |")
    print("\n| disagreement | test | AssaySchema | generated type |\n|---|---|---|---|")
    for row in tested:
        if row["expected"] != row["found"]:
            case = by_id[row["id"]]
            print(f"| {case['file']} {case['description'][:50]} | {row['test'][:60]} | {row['expected']} | {row['found']} |")
    print()
