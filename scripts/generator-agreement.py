#!/usr/bin/env python3
"""No drift between generated Swift and the schema (issue 29): every test group's schema of the
JSON-Schema-Test-Suite is generated with the built `assay generate swift`, all the generated files are
compiled together in a scratch package, and every test instance is decoded with the generated root
type. The instance must be refused if and only if AssaySchema (formats asserted) says it is invalid,
and the errors must name the same instance locations (JSON Pointers): each place the generated type
names is one of AssaySchema's errors or of their causes (an enum generated for a oneOf reports the
chosen alternative's failures where they are, which AssaySchema gives as the causes of the oneOf's
error), and each of AssaySchema's errors is named at its place or at a cause's.

Prints, per draft: schemas generated, the refusals by reason, files that did not compile, instances
whose verdict agrees, instances whose error locations agree, and every disagreement.

With --schemastore DIR (a checkout of github.com/SchemaStore/schemastore, or its src/ folders), the
corpus is every SchemaStore schema that has test files: its src/test/NAME/*.json files (valid) and
src/negative_test/NAME/*.json (invalid) are the instances. Either way it also counts how many of the
generated schemas' constraint keywords are enforced by typed rules rather than checked against the
schema with AssaySchema.

Usage: scripts/generator-agreement.py [--work DIR] [--assay PATH] [--schemastore DIR] [--modules N]
                                     [--registry PREFIX=DIR ...] [DRAFT ...]
  (draft7 and draft2020-12 by default; the scratch package is kept in DIR, /tmp/assay-agreement by
  default, so that a second run builds only what changed; its first build compiles the package's
  dependencies, some minutes)"""
import argparse, collections, json, os, pathlib, re, shutil, subprocess, sys

root = pathlib.Path(__file__).resolve().parent.parent
suite = pathlib.Path(os.environ.get("JSON_SCHEMA_TEST_SUITE", root.parent / "shared" / "JSON-Schema-Test-Suite"))
parser = argparse.ArgumentParser()
parser.add_argument("--work", default="/tmp/assay-agreement")
parser.add_argument("--assay", default=str(root / ".build" / "debug" / "assay"))
parser.add_argument("--schemastore")
parser.add_argument("--generate-only", action="store_true",
                    help="generate and count, without compiling the types or decoding the instances")
parser.add_argument("--modules", type=int, default=1,
                    help="compile the generated files in this many modules (a large corpus in one module can "
                         "take the compiler past its memory)")
parser.add_argument("--registry", action="append", default=[], metavar="PREFIX=DIR",
                    help="resolve $refs under PREFIX from files in DIR (repeatable), for the generator and for "
                         "AssaySchema; the suite's remotes (http://localhost:1234/) always are")
parser.add_argument("drafts", nargs="*", default=["draft7", "draft2020-12"])
arguments = parser.parse_args()
if arguments.schemastore:
    arguments.drafts = ["schemastore"]
else:
    arguments.registry.append(f"http://localhost:1234/={suite / 'remotes'}")
registries = [entry.split("=", 1) for entry in arguments.registry]
work = pathlib.Path(arguments.work)
sources = work / "Sources" / "Harness"
modules = [f"Types{k}" for k in range(max(arguments.modules, 1))]


def module_of(name):
    """The module a generated file is compiled in: fixed by its number, so reruns rebuild little."""
    return modules[int(name[1:]) % len(modules)]
dialects = {"draft7": "http://json-schema.org/draft-07/schema#", "draft2020-12": "https://json-schema.org/draft/2020-12/schema"}

# Generated into a staging folder, then copied where they changed: a second run recompiles only
# the files whose text changed.
staging = work / "staging"
if staging.exists():
    shutil.rmtree(staging)
staging.mkdir(parents=True)
sources.mkdir(parents=True, exist_ok=True)
for module in modules:
    (work / "Sources" / module).mkdir(parents=True, exist_ok=True)
for stale in (work / "Sources").iterdir():
    if stale.name != "Harness" and stale.name not in modules:
        shutil.rmtree(stale)
products = f""".product(name: "AssayCodable", package: {json.dumps(root.name)}),
                .product(name: "AssaySchema", package: {json.dumps(root.name)}),"""
libraries = "".join(f"""
        .target(
            name: "{module}",
            dependencies: [
                {products}
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),""" for module in modules)
package_text = f"""// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Harness",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: {json.dumps(str(root))})],
    targets: [{libraries}
        .executableTarget(
            name: "Harness",
            dependencies: [
                {products}
                {", ".join(json.dumps(module) for module in modules)},
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
"""
if not (work / "Package.swift").exists() or (work / "Package.swift").read_text() != package_text:
    (work / "Package.swift").write_text(package_text)

cases = []  # id, draft, file, schema, tests (description, text), type, keywords (typed, checked)
refusals = {draft: collections.Counter() for draft in arguments.drafts}
totals = collections.Counter()
keywords = {draft: collections.Counter() for draft in arguments.drafts}
reasons = {draft: collections.Counter() for draft in arguments.drafts}
schema_file = work / "schema.json"
CONSTRAINTS = {
    "type", "enum", "const", "minLength", "maxLength", "pattern", "format", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "uniqueItems", "required", "dependentRequired",
    "dependencies", "allOf", "anyOf", "oneOf", "not", "if", "dependentSchemas", "patternProperties",
    "unevaluatedProperties", "unevaluatedItems", "propertyNames", "minProperties", "maxProperties", "contains",
    "minContains", "maxContains", "prefixItems", "additionalItems", "additionalProperties"}
MAPS = {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
ONE = {"items", "additionalProperties", "additionalItems", "not", "if", "then", "else", "contains", "propertyNames",
       "unevaluatedProperties", "unevaluatedItems"}
LISTS = {"allOf", "anyOf", "oneOf", "prefixItems", "items"}


def constraint_places(schema, pointer=""):
    """The JSON Pointers of the constraint keywords of a schema and its subschemas."""
    places, pending = [], [(schema, pointer)]
    while pending:
        node, here = pending.pop()
        if not isinstance(node, dict):
            continue
        for key, value in node.items():
            place = here + "/" + key.replace("~", "~0").replace("/", "~1")
            if key in CONSTRAINTS and not (key == "additionalProperties" and value is True):
                places.append(place)
            if key in MAPS and isinstance(value, dict):
                pending += [(v, place + "/" + k.replace("~", "~0").replace("/", "~1")) for k, v in value.items()]
            elif key in LISTS and isinstance(value, list):
                pending += [(v, f"{place}/{i}") for i, v in enumerate(value)]
            elif key in ONE and isinstance(value, dict):
                pending.append((value, place))
    return places


def checked_prefixes(notes):
    """What the generator checks with AssaySchema, read from its notes: whole schemas and keywords,
    each with the reason its note gives (the keyword, or why the schema has no Swift form)."""
    prefixes = []
    for note in notes:
        match = re.match(r"note: #(\S*): (.*) — no typed rule", note)
        if match:
            prefixes += [(match.group(1) + "/" + k, "the keyword " + k) for k in match.group(2).split(", ")]
            continue
        match = re.match(r"note: #(\S*): (.*?) — the value is checked against its schema( at #(\S*))? with AssaySchema", note)
        if match:
            reason = re.sub(r"[\"“][^\"”]*[\"”]", "…", match.group(2))
            reason = re.sub(r"\d+", "N", reason)[:110]
            prefixes.append((match.group(4) if match.group(3) else match.group(1), reason))
    return prefixes


def generate(name, draft, label, description, schema, tests):
    schema_file.write_text(json.dumps(schema))
    run = subprocess.run(
        [arguments.assay, "generate", "swift", str(schema_file), "--type-prefix", name, "--root-name", "Root",
         "-o", str(staging / f"{name}.swift")] + [f"--registry={entry}" for entry in arguments.registry],
        capture_output=True, text=True)
    if run.returncode != 0:
        message = run.stderr.strip().splitlines()[-1].split(": ", 2)[-1] if run.stderr.strip() else "?"
        refusals[draft][re.sub(r'"[^"]*"', '"…"', message)[:90]] += 1
        return
    prefixes = checked_prefixes(run.stderr.splitlines())
    places = constraint_places(schema)
    checked = 0
    for place in places:
        # The innermost place checking it names why.
        covering = [(p, reason) for p, reason in prefixes if place == p or place.startswith(p + "/")]
        if covering:
            checked += 1
            reasons[draft][max(covering, key=lambda item: len(item[0]))[1]] += 1
    keywords[draft]["typed"] += len(places) - checked
    keywords[draft]["checked"] += checked
    cases.append({"id": name, "draft": draft, "file": label, "description": description, "schema": schema,
                  "tests": tests, "type": f"{name}Root"})


if arguments.schemastore:
    store = pathlib.Path(arguments.schemastore)
    store = store / "src" if (store / "src").exists() else store
    names = sorted({p.name for folder in ("test", "negative_test") if (store / folder).exists()
                    for p in (store / folder).iterdir()})
    for name in names:
        path = store / "schemas" / "json" / f"{name}.json"
        if not path.exists():
            continue
        try:
            schema = json.loads(path.read_text())
        except (ValueError, UnicodeDecodeError):
            continue
        tests = []
        for folder in ("test", "negative_test"):
            for test in sorted((store / folder / name).glob("*.json")) if (store / folder / name).exists() else []:
                try:
                    text = test.read_text()
                    json.loads(text)
                except (ValueError, UnicodeDecodeError):
                    continue
                tests.append({"description": f"{folder}/{test.name}", "text": text})
        if not tests:
            continue
        totals["schemastore"] += 1
        generate(f"S{totals['schemastore']}", "schemastore", name, name, schema, tests)
else:
    for draft in arguments.drafts:
        for path in sorted((suite / "tests" / draft).glob("*.json")):
            for index, group in enumerate(json.loads(path.read_text())):
                totals[draft] += 1
                schema = group["schema"]
                if isinstance(schema, dict) and "$schema" not in schema:
                    schema = {"$schema": dialects[draft], **schema}
                tests = [{"description": test["description"], "text": json.dumps(test["data"])} for test in group["tests"]]
                generate(f"G{sum(totals.values())}", draft, f"{path.name}#{index}", group["description"], schema, tests)

(work / "cases.json").write_text(json.dumps(cases))
for stale in sources.glob("*.swift"):
    if stale.name != "main.swift":
        stale.unlink()  # generated files live in the Types modules
for module in modules:
    for stale in (work / "Sources" / module).glob("*.swift"):
        if not (staging / stale.name).exists() or module_of(stale.stem) != module:
            stale.unlink()
for fresh in staging.glob("*.swift"):
    target = work / "Sources" / module_of(fresh.stem) / fresh.name
    if not target.exists() or target.read_bytes() != fresh.read_bytes():
        shutil.copyfile(fresh, target)


def write_main(ids):
    table = ",\n".join(f'    "{case["id"]}": {{ pointers({case["type"]}.self, $0) }}' for case in cases if case["id"] in ids)
    text = ("""import AssayCodable
import AssaySchema
import Foundation
""" + "".join(f"import {module}\n" for module in modules) + """

/// The error locations of decoding `bytes` as `type`; empty when it decodes.
func pointers<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) -> Set<String> {
    do {
        _ = try JSONValueDecoder().decodeValidated(T.self, from: bytes)
        return []
    } catch {
        return Set(error.issues.filter { $0.severity == .error }.map(\\.path.jsonPointer))
    }
}

/// An error's location and its causes' (a union's error names the union, its causes the
/// alternatives' failures).
func places(_ error: SchemaError) -> Set<String> {
    error.causes.reduce(into: [error.instanceLocation.jsonPointer]) { $0.formUnion(places($1)) }
}

func elements(_ value: JSONValue?) -> [JSONValue] {
    if case .array(let items)? = value { return items }
    return []
}

let decoders: [String: ([UInt8]) -> Set<String>] = [
""" + table + """
]

var schemaOptions = JSONSchema.Options(assertFormats: true)
""" + "".join(f'schemaOptions.registry.map(prefix: {json.dumps(prefix)}, toDirectory: {json.dumps(directory)})\n'
              for prefix, directory in registries) + """
let cases = try JSONValue(parsing: Array(FileManager.default.contents(atPath: CommandLine.arguments[1])!))
var results: [JSONValue] = []
for case .object(let entry) in elements(cases) {
    guard case .string(let id)? = entry["id"], let decode = decoders[id], let schemaValue = entry["schema"] else { continue }
    let schema: JSONSchema
    do {
        schema = try JSONSchema(schemaValue, options: schemaOptions)
    } catch {
        results.append(["id": .string(id), "error": .string("AssaySchema does not compile it: \\(error)")])
        continue
    }
    for case .object(let test) in elements(entry["tests"]) {
        guard case .string(let text)? = test["text"], let data = try? JSONValue(parsing: Array(text.utf8)) else {
            continue
        }
        let errors = schema.validate(data).errors
        let expected = Set(errors.map(\\.instanceLocation.jsonPointer))
        let found = decode(Array(text.utf8))
        results.append([
            "id": .string(id), "test": test["description"] ?? .null,
            "expected": .array(expected.sorted().map(JSONValue.string)),
            "places": .array(errors.map { .array(places($0).sorted().map(JSONValue.string)) }),
            "found": .array(found.sorted().map(JSONValue.string)),
        ])
    }
}
print(JSONValue.array(results).jsonString())
""")
    main = sources / "main.swift"
    if not main.exists() or main.read_text() != text:
        main.write_text(text)


def locations_agree(row):
    """Every place the generated type names is one AssaySchema names (an error's or one of its causes':
    a union's error names the union, its causes the failures of the alternative the enum chose), and
    every error of AssaySchema is named, at its place or at a cause's."""
    places = [set(group) for group in row.get("places", [[place] for place in row["expected"]])]
    found = set(row["found"])
    return found <= set().union(*places) and all(group & found for group in places)


if arguments.generate_only:
    for draft in arguments.drafts:
        generated = sum(1 for case in cases if case["draft"] == draft)
        typed, checked = keywords[draft]["typed"], keywords[draft]["checked"]
        print(f"## {draft}: {generated} of {totals[draft]} schemas generated ({100 * generated / max(totals[draft], 1):.1f}%)\n")
        print(f"- constraint keywords of the generated schemas: {typed + checked}; typed rules: {typed} "
              f"({100 * typed / max(typed + checked, 1):.1f}%); checked against the schema: {checked}")
        print("\n| refusals | reason |\n|---|---|")
        for reason, count in refusals[draft].most_common():
            print(f"| {count} | {reason} |")
        print("\n| keywords checked against the schema | why (the generator's note) |\n|---|---|")
        for reason, count in reasons[draft].most_common(25):
            print(f"| {count} | {reason} |")
        print()
    sys.exit(0)

compiled_ids = {case["id"] for case in cases}
uncompiled = {}
for attempt in range(6):
    for module in modules:
        for stale in (work / "Sources" / module).glob("[GS]*.swift"):
            if stale.stem not in compiled_ids:
                stale.unlink()
    write_main(compiled_ids)  # rewritten only when its text changes, below
    build = subprocess.run(["swift", "build", "--package-path", str(work)], capture_output=True, text=True)
    if build.returncode == 0:
        break
    output = build.stdout + build.stderr
    failing = set(re.findall(r"Types\d+/([GS]\d+)\.swift:\d+:\d+: error: (.*)", output))
    # Errors in macro expansions name the type, not the file.
    failing |= {(name, error) for error, name in re.findall(r"error: (.*?'([GS]\d+)[A-Z][^']*'.*)", output)}
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
    locations = sum(1 for row in tested if locations_agree(row))
    print(f"## {draft}: {generated} of {totals[draft]} test schemas generated "
          f"({100 * generated / max(totals[draft], 1):.1f}%), {len(broken)} of them did not compile\n")
    print(f"- instances decoded: {len(tested)}; verdict agrees: {verdicts} ({100 * verdicts / max(len(tested), 1):.1f}%); "
          f"error locations agree: {locations} ({100 * locations / max(len(tested), 1):.1f}%)")
    typed, checked = keywords[draft]["typed"], keywords[draft]["checked"]
    print(f"- constraint keywords of the generated schemas: {typed + checked}; typed rules: {typed} "
          f"({100 * typed / max(typed + checked, 1):.1f}%); checked against the schema: {checked}")
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
        if not locations_agree(row):
            case = by_id[row["id"]]
            print(f"| {case['file']} {case['description'][:50]} | {row['test'][:60]} | {row['expected']} | {row['found']} |")
    print()
