#!/usr/bin/env bash
# AssayJSON against its peers, on the shared benchmark data, in one run on one machine.
#   Benchmarks/run.sh [RECORDS]            (default 100000; run from anywhere)
# Generates the data with ../shared/bench/gen_data.py, installs the Python peers in a virtual
# environment (pinned requirements), runs their parse-only cases, then the Swift variants: a warm-up
# round and 3 measured rounds, variants interleaved, each run a fresh process pinned to one core.
# Prints a markdown table of medians for docs/performance.md. The schema-* variants time validation
# of pre-parsed records against client.schema.json (formats asserted), like the Python harness's
# "validate only (pre-parsed)" cases: on `JSONValue` trees (schema-validate, schema-is-valid) and on
# `JSONDocument`s read in place (the *-document variants).
set -euo pipefail
cd "$(dirname "$0")/.."
RECORDS=${1:-100000}
source Benchmarks/common.sh
echo "== Python peers (same data, same machine, this run)"
$PIN "$VENV/bin/python" "$SHARED/bench/bench_python.py" --data "$DATA" \
    --only "json.loads,orjson.loads,msgspec.json.decode,simdjson,jsonschema-rs" 2>/dev/null | grep -E "^\|" || true

swift build -c release --product AssayBench >/dev/null
BIN=.build/release/AssayBench
VARIANTS="split parse-tape parse-tree reader-tape decode foundation-decode schema-validate schema-is-valid schema-validate-document schema-is-valid-document parse-schema-validate parse-schema-is-valid"
LOG=$(mktemp)
for round in warmup 1 2 3; do
    for variant in $VARIANTS; do
        echo "round=$round" >>"$LOG"
        $PIN /usr/bin/time -f "rss_kb=%M" "$BIN" "$variant" "$DATA" "$SCHEMA" >>"$LOG" 2>&1
    done
done
echo "== Swift (end to end from the file; median of 3 runs)"
python3 - "$LOG" <<'PY'
import statistics, sys
runs, rnd, cur = {}, None, None
for line in open(sys.argv[1]):
    if line.startswith("round="): rnd = line.split("=")[1].strip()
    elif line.startswith("variant="):
        f = dict(kv.split("=", 1) for kv in line.split()); cur = f["variant"]
        if rnd != "warmup": runs.setdefault(cur, []).append([float(f["seconds"]), int(f["records"]), float(f["MB_per_s"]) * float(f["seconds"]), 0, f["failures"], float(f["loop_seconds"])])
    elif line.startswith("rss_kb=") and rnd != "warmup" and cur in runs: runs[cur][-1][3] = int(line.split("=")[1])
print("| variant | median s | records/s | range records/s | MB/s | loop only: records/s | loop only: MB/s | failures | peak RSS MB |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for v, rs in runs.items():
    s = statistics.median(r[0] for r in rs); n = rs[0][1]; mb = rs[0][2] / s
    loop = statistics.median(r[5] for r in rs)
    loop_cells = f"{n/loop:,.0f} | {rs[0][2]/loop:.1f}" if v not in ("split", "reader-tape") else "– | –"
    print(f"| {v} | {s:.3f} | {n/s:,.0f} | {n/max(r[0] for r in rs):,.0f}–{n/min(r[0] for r in rs):,.0f} | {mb:.1f} | {loop_cells} | {rs[0][4]} | {max(r[3] for r in rs)/1024:.0f} |")
PY
rm -f "$LOG"
