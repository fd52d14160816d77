#!/usr/bin/env python3
"""Pattern matching speed on patterns from real schemas: Assay's LinearRegex against V8 (node's
RegExp with the `u` flag) and against Rust's regex crates through jsonschema-rs (PyPI), in one run.

    Benchmarks/regex_bench.py SCHEMAS [--subjects N] [--rounds R] [--bin DIR]

SCHEMAS is the `schemas/` folder of sourcemeta-research/jsonschema-benchmark (each FOLDER/schema.json
with FOLDER/instances.jsonl). Every `pattern` and `patternProperties` key of its schemas is a
pattern; its subjects are the strings of its own schema's instances (values and keys, in order,
repeated up to N), or of all instances when its schema has none. Each engine matches every subject
of every pattern R times and its best pass per pattern counts; the verdicts must agree.

- Assay: `ScalingProbe regex-bench` (release), `LinearRegex.firstMatchExists(in:)` per subject.
- V8: `RegExp(pattern, "u").test(subject)` per subject in node.
- jsonschema-rs: one `is_valid` call per pattern on the array of subjects with the schema
  `{"items": {"anyOf": [{"pattern": P}, {"maxLength": 1000000}]}}` — the pattern tested once on every
  item, which is valid either way — with its default engine (fancy-regex, which hands patterns without
  lookarounds to the regex crate) and with `RegexOptions()` (the regex crate alone, which refuses
  lookarounds). The same call with `{"minLength": 0}` for the pattern measures what is not matching,
  and is subtracted (shown apart).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def walk_patterns(node, out):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern" and isinstance(value, str):
                out.append(value)
            if key == "patternProperties" and isinstance(value, dict):
                out.extend(value.keys())
            walk_patterns(value, out)
    elif isinstance(node, list):
        for item in node:
            walk_patterns(item, out)


def walk_strings(node, out):
    if isinstance(node, str):
        out.append(node)
    elif isinstance(node, dict):
        for key, value in node.items():
            out.append(key)
            walk_strings(value, out)
    elif isinstance(node, list):
        for item in node:
            walk_strings(item, out)


def instance_strings(folder):
    """The strings of FOLDER/instances.jsonl (values and keys, in order); none when it is missing."""
    strings = []
    try:
        for line in open(os.path.join(folder, "instances.jsonl"), encoding="utf-8"):
            if line.strip():
                walk_strings(json.loads(line), strings)
    except OSError:
        pass
    return strings


def workload(schemas, count):
    everything = []
    by_schema = {}
    for name in sorted(os.listdir(schemas)):
        folder = os.path.join(schemas, name)
        try:
            schema = json.load(open(os.path.join(folder, "schema.json")))
        except (OSError, ValueError):
            continue
        patterns = []
        walk_patterns(schema, patterns)
        strings = instance_strings(folder)
        everything.extend(strings)
        by_schema[name] = (list(dict.fromkeys(patterns)), strings)
    cases = []
    for name, (patterns, strings) in by_schema.items():
        pool = strings or everything
        subjects = (pool * (count // max(1, len(pool)) + 1))[:count]
        for pattern in patterns:
            cases.append({"schema": name, "pattern": pattern, "subjects": subjects})
    return cases


NODE = r"""
const fs = require('fs');
const rounds = Number(process.argv[3]);
{
  const {pattern, subjects} = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  let re;
  try { re = new RegExp(pattern, 'u'); } catch (e) { console.log('E'); process.exit(0); }
  let best = Infinity, matches = 0;
  for (let r = 0; r < rounds; r++) {
    matches = 0;
    const start = process.hrtime.bigint();
    for (const s of subjects) if (re.test(s)) matches++;
    best = Math.min(best, Number(process.hrtime.bigint() - start));
  }
  console.log(matches + ' ' + best);
}
"""


def run_rust(cases, rounds, options, gave_up):
    import jsonschema_rs
    results = []
    for case in cases:
        subjects = case["subjects"]
        try:
            kwargs = {"pattern_options": options} if options is not None else {}
            validator = jsonschema_rs.validator_for(
                {"items": {"anyOf": [{"pattern": case["pattern"]}, {"maxLength": 1000000}]}}, **kwargs)
            counter = jsonschema_rs.validator_for({"pattern": case["pattern"]}, **kwargs)
        except Exception:  # the engine refuses the pattern
            results.append(None)
            continue
        baseline = jsonschema_rs.validator_for({"items": {"anyOf": [{"minLength": 0}, {"maxLength": 1000000}]}})
        best = base = float("inf")
        for _ in range(rounds):
            start = time.perf_counter_ns()
            if not validator.is_valid(subjects):
                # Every item is valid: fancy-regex gave up (its backtracking limit), which
                # jsonschema-rs reports as a failed `pattern`.
                errors = [str(error).splitlines()[0] for error in validator.iter_errors(subjects)]
                gave_up.append((case["pattern"], errors[0] if errors else "?"))
            best = min(best, time.perf_counter_ns() - start)
            start = time.perf_counter_ns()
            assert baseline.is_valid(subjects)
            base = min(base, time.perf_counter_ns() - start)
        matches = sum(1 for s in subjects if counter.is_valid(s))
        results.append((matches, best, base))
    return results


def parse(output):
    results = []
    for line in output.splitlines():
        if line == "E":
            results.append(None)
        else:
            matches, ns = line.split()
            results.append((int(matches), int(ns)))
    return results


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("schemas")
    parser.add_argument("--subjects", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build/release"))
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds V8 may take on one pattern")
    parser.add_argument("--no-build", action="store_true")
    arguments = parser.parse_args()
    if not arguments.no_build:
        subprocess.run(["swift", "build", "-c", "release", "--product", "ScalingProbe"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    import jsonschema_rs
    cases = workload(arguments.schemas, arguments.subjects)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "cases.jsonl")
        with open(path, "w", encoding="utf-8") as handle:
            for case in cases:
                handle.write(json.dumps({"pattern": case["pattern"], "subjects": case["subjects"]}) + "\n")
        script = os.path.join(folder, "bench.js")
        open(script, "w").write(NODE)
        assay = parse(subprocess.run([os.path.join(arguments.bin, "ScalingProbe"), "regex-bench", path,
                                      str(arguments.rounds)], check=True, capture_output=True, text=True).stdout)
        # One node process per pattern, so that a pattern V8 backtracks on for longer than --timeout
        # seconds is reported as such and the others still run.
        v8 = []
        timeouts = []
        one = os.path.join(folder, "case.json")
        for case in cases:
            with open(one, "w", encoding="utf-8") as handle:
                json.dump({"pattern": case["pattern"], "subjects": case["subjects"]}, handle)
            try:
                output = subprocess.run(["node", script, one, str(arguments.rounds)], check=True,
                                        capture_output=True, text=True, timeout=arguments.timeout).stdout
                v8.extend(parse(output))
            except subprocess.TimeoutExpired:
                v8.append(None)
                timeouts.append(case)
    gave_up = []
    fancy = run_rust(cases, arguments.rounds, None, gave_up)
    plain = run_rust(cases, arguments.rounds, jsonschema_rs.RegexOptions(), gave_up)

    engines = [("Assay LinearRegex", assay), ("V8", v8), ("jsonschema-rs (fancy-regex)", fancy),
               ("jsonschema-rs (regex crate)", plain)]
    subjects = sum(len(case["subjects"]) for case in cases)
    print("%d patterns from %d schemas, %s subjects in all (%d rounds, best pass per pattern)" % (
        len(cases), len({case["schema"] for case in cases}), format(subjects, ","), arguments.rounds))
    timed_out = {id(case) for case in timeouts}
    refused = {name: [cases[i]["pattern"] for i, r in enumerate(results)
                      if r is None and not (name == "V8" and id(cases[i]) in timed_out)]
               for name, results in engines}
    for name, patterns in refused.items():
        if patterns:
            print("%s refuses %d: %s" % (name, len(patterns), ", ".join(json.dumps(p) for p in patterns[:8])))
    for pattern, error in sorted(set(gave_up)):
        print("jsonschema-rs reported an array of valid strings invalid, for %s: %s" % (json.dumps(pattern), error))
    for case in timeouts:
        print("V8 did not finish %s on the %s instances' strings within %g s" % (
            json.dumps(case["pattern"]), case["schema"], arguments.timeout))
    # Verdicts: every engine that compiled a pattern counts the same matches as V8 (as Assay where
    # V8 did not finish).
    disagreements = 0
    for index, case in enumerate(cases):
        reference = v8[index] if v8[index] is not None else assay[index]
        for name, results in engines:
            if results[index] is not None and reference is not None and results[index][0] != reference[0]:
                disagreements += 1
                print("DISAGREE %s on %s: %d matches, against %d" % (name, json.dumps(case["pattern"]),
                                                                     results[index][0], reference[0]))
    # Totals over the patterns every engine compiled (jsonschema-rs with its overhead subtracted).
    common = [i for i in range(len(cases)) if all(results[i] is not None for _, results in engines)]
    print("\nOver the %d patterns all four compile (%s matches):" % (
        len(common), format(sum(len(cases[i]["subjects"]) for i in common), ",")))
    print("| engine | total ms | ns per match | × Assay |")
    print("|---|---:|---:|---:|")
    totals = {}
    for name, results in engines:
        if name.startswith("jsonschema-rs"):
            total = sum(max(0, results[i][1] - results[i][2]) for i in common)
        else:
            total = sum(results[i][1] for i in common)
        totals[name] = total
    count = sum(len(cases[i]["subjects"]) for i in common)
    for name, total in totals.items():
        print("| %s | %.1f | %.1f | %.2f |" % (name, total / 1e6, total / count, total / totals["Assay LinearRegex"]))
    overhead = sum(fancy[i][2] for i in common)
    print("(jsonschema-rs: %.1f ms of the same calls without a pattern subtracted)" % (overhead / 1e6))
    # Patterns with lookarounds: Assay against V8 and fancy-regex (the regex crate refuses them).
    lookaround = [i for i in range(len(cases)) if plain[i] is None and all(
        r[i] is not None for r in (assay, v8, fancy))]
    if lookaround:
        print("\nThe %d patterns only fancy-regex among the Rust engines compiles (lookarounds):" % len(lookaround))
        for name, results in engines[:3]:
            if name.startswith("jsonschema-rs"):
                total = sum(max(0, results[i][1] - results[i][2]) for i in lookaround)
            else:
                total = sum(results[i][1] for i in lookaround)
            print("  %s: %.1f ms" % (name, total / 1e6))
    print("\ndisagreements: %d" % disagreements)
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
