#!/usr/bin/env python3
"""How much of the JSON-Schema-Test-Suite `assay generate swift` turns into Swift types (issue 29):
every test group's schema of the chosen drafts is generated with the built `assay`, and the refusals
are counted by their reason (the keyword or construct named in the message). Prints a table for
docs/generator.md. Compiling the output and comparing verdicts is the next step, not done here.

Usage: scripts/generator-coverage.py [ASSAY] [DRAFT ...]   (.build/debug/assay; draft7 draft2020-12)"""
import collections, json, os, pathlib, re, subprocess, sys, tempfile

root = pathlib.Path(__file__).resolve().parent.parent
suite = pathlib.Path(os.environ.get("JSON_SCHEMA_TEST_SUITE", root.parent / "shared" / "JSON-Schema-Test-Suite"))
assay = sys.argv[1] if len(sys.argv) > 1 else str(root / ".build" / "debug" / "assay")
drafts = sys.argv[2:] or ["draft7", "draft2020-12"]

with tempfile.TemporaryDirectory() as work:
    for draft in drafts:
        generated, total = 0, 0
        reasons = collections.Counter()
        for path in sorted((suite / "tests" / draft).glob("*.json")):
            for group in json.loads(path.read_text()):
                total += 1
                schema = pathlib.Path(work) / "schema.json"
                schema.write_text(json.dumps(group["schema"]))
                run = subprocess.run([assay, "generate", "swift", str(schema)], capture_output=True, text=True)
                if run.returncode == 0:
                    generated += 1
                    continue
                message = run.stderr.strip().split(": ", 2)[-1]
                # The construct: "the keyword X ...", "$ref ... does not resolve", or the message's start.
                keyword = re.match(r"the keyword (\S+)", message)
                reason = f"keyword {keyword.group(1)}" if keyword else re.sub(r'"[^"]*"', '"…"', message)[:70]
                reasons[reason] += 1
        print(f"## {draft}: {generated} of {total} test schemas generated ({100 * generated / max(total, 1):.1f}%)\n")
        print("| refusals | reason |\n|---|---|")
        for reason, count in reasons.most_common(25):
            print(f"| {count} | {reason} |")
        print()
