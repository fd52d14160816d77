#!/usr/bin/env python3
"""Assay's pattern verdicts against Blaze's (sourcemeta `jsonschema validate --fast`, the fastest JSON
Schema validator known), pattern by pattern, on the patterns of real schemas.

    Benchmarks/blaze_patterns.py SCHEMAS [--only a,b] [--variants] [--bin DIR] [--blaze PATH]

SCHEMAS is the `schemas/` folder of sourcemeta-research/jsonschema-benchmark. For every `pattern` and
`patternProperties` key of a schema, the subjects are the distinct strings of its instances (values
and keys) and, with --variants, each with `..` and `./` before it, `/` and `.` after it, and in
upper case (strings the patterns' lookarounds and anchors decide on). Each pattern becomes the schema
`{"pattern": P}` (2020-12); Blaze validates the subjects as JSONL (`--fast --continue`) and its
failures are read from its `fail: … (entry #N)` lines; Assay's verdicts come from `ScalingProbe regex`
(`LinearRegex.firstMatchExists`). Every disagreement is printed.

Blaze: `pip install sourcemeta-jsonschema` (in a virtual environment: its command is `jsonschema`,
which python-jsonschema's command shadows); pass the binary with --blaze.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from regex_bench import instance_strings, walk_patterns  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def subjects_of(folder, variants):
    strings = list(dict.fromkeys(instance_strings(folder)))
    if variants:
        extra = []
        for text in strings:
            extra += [".." + text, "./" + text, text + "/", text + ".", text.upper()]
        strings = list(dict.fromkeys(strings + extra))
    return strings


def blaze_failures(blaze, pattern, subjects, folder):
    schema = os.path.join(folder, "schema.json")
    data = os.path.join(folder, "subjects.jsonl")
    json.dump({"$schema": "https://json-schema.org/draft/2020-12/schema", "pattern": pattern}, open(schema, "w"))
    with open(data, "w") as handle:
        for text in subjects:
            handle.write(json.dumps(text) + "\n")
    run = subprocess.run([blaze, "validate", "--fast", "--continue", schema, data], capture_output=True, text=True)
    if run.returncode not in (0, 2):
        return None
    return {int(number) - 1 for number in re.findall(r"^fail: .*\(entry #(\d+)\)$", run.stdout + run.stderr, re.M)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("schemas")
    parser.add_argument("--only", help="comma-separated schema folders (default: all)")
    parser.add_argument("--variants", action="store_true")
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build/release"))
    parser.add_argument("--blaze", default="jsonschema")
    arguments = parser.parse_args()
    names = arguments.only.split(",") if arguments.only else sorted(os.listdir(arguments.schemas))
    total = agree = 0
    refused = []
    with tempfile.TemporaryDirectory() as folder:
        for name in names:
            schema_folder = os.path.join(arguments.schemas, name)
            try:
                schema = json.load(open(os.path.join(schema_folder, "schema.json")))
            except (OSError, ValueError):
                continue
            patterns = []
            walk_patterns(schema, patterns)
            patterns = list(dict.fromkeys(patterns))
            subjects = subjects_of(schema_folder, arguments.variants)
            if not patterns or not subjects:
                continue
            schema_agree = schema_total = 0
            for pattern in patterns:
                failures = blaze_failures(arguments.blaze, pattern, subjects, folder)
                if failures is None:
                    refused.append((name, pattern, "Blaze"))
                    continue
                lines = "".join(json.dumps([pattern, text]) + "\n" for text in subjects)
                assay = subprocess.run([os.path.join(arguments.bin, "ScalingProbe"), "regex"], input=lines,
                                       capture_output=True, text=True, check=True).stdout.split("\n")[:-1]
                if assay and assay[0].startswith("E"):
                    refused.append((name, pattern, "Assay: " + assay[0]))
                    continue
                for index, (text, ours) in enumerate(zip(subjects, assay)):
                    theirs = index not in failures
                    schema_total += 1
                    if theirs == ours.startswith("1"):
                        schema_agree += 1
                    else:
                        print("  differ: %s %s on %s: Blaze %s, Assay %s" % (
                            name, json.dumps(pattern), json.dumps(text), theirs, ours.startswith("1")))
            print("%s: %d patterns, %d subjects, %d of %d verdicts agree" % (
                name, len(patterns), len(subjects), schema_agree, schema_total))
            total += schema_total
            agree += schema_agree
    print("all: %d of %d verdicts agree, %d disagree" % (agree, total, total - agree))
    for name, pattern, who in refused:
        print("  refused by %s: %s %s" % (who, name, json.dumps(pattern)))
    sys.exit(0 if agree == total and not refused else 1)


if __name__ == "__main__":
    main()
