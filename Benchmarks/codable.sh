#!/usr/bin/env bash
# AssayCodable: decoding the shared benchmark records into a validated Swift type, against plain
# Decodable (JSONValueDecoder and Foundation), Foundation's JSONDecoder + hand-written checks
# (../shared/bench/swift-foundation-baseline) and pydantic, in one run on one machine.
#   Benchmarks/codable.sh [RECORDS]        (default 100000; run from anywhere)
# A warm-up round and 3 measured rounds, variants interleaved, each a fresh process pinned to one core.
set -euo pipefail
cd "$(dirname "$0")/.."
RECORDS=${1:-100000}
source Benchmarks/common.sh
echo "== Python peers (same data, same machine, this run)"
$PIN "$VENV/bin/python" "$SHARED/bench/bench_python.py" --data "$DATA" \
    --only "pydantic,msgspec Struct" 2>/dev/null | grep -E "^\|" || true

swift build -c release --product AssayBench >/dev/null
BASELINE_BUILD=${TMPDIR:-/tmp}/assay-foundation-baseline-build
swift build -c release --package-path "$SHARED/bench/swift-foundation-baseline" --scratch-path "$BASELINE_BUILD" >/dev/null
BIN=.build/release/AssayBench
BASELINE=$BASELINE_BUILD/release/FoundationBaseline
TRUTH="${DATA%.ndjson}.invalid.tsv"
LOG=$(mktemp)
for round in warmup 1 2 3; do
    for variant in decode decode-validated-bare decode-validated foundation-decode foundation-decode-validated; do
        echo "round=$round" >>"$LOG"
        $PIN "$BIN" "$variant" "$DATA" >>"$LOG" 2>&1
    done
    for variant in decode+checks decode+checks+keys; do
        echo "round=$round" >>"$LOG"
        $PIN "$BASELINE" "$variant" "$DATA" "$TRUTH" 2>/dev/null | grep "^variant=" | sed 's/^variant=/variant=baseline:/' >>"$LOG"
    done
done
echo "== Swift (end to end from the file; median of 3 runs)"
python3 - "$LOG" <<'PY'
import statistics, sys
runs, rnd = {}, None
for line in open(sys.argv[1]):
    if line.startswith("round="): rnd = line.split("=")[1].strip()
    elif line.startswith("variant=") and rnd != "warmup":
        f = dict(kv.split("=", 1) for kv in line.split())
        runs.setdefault(f["variant"], []).append((float(f["seconds"]), int(f["records"]), f.get("failures", f.get("invalid", "?"))))
print("| variant | median s | records/s | range records/s | invalid |\n|---|---:|---:|---:|---:|")
for v, rs in runs.items():
    s = statistics.median(r[0] for r in rs); n = rs[0][1]
    print(f"| {v} | {s:.3f} | {n/s:,.0f} | {n/max(r[0] for r in rs):,.0f}–{n/min(r[0] for r in rs):,.0f} | {rs[0][2]} |")
PY
rm -f "$LOG"
