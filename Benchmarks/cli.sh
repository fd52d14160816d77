#!/usr/bin/env bash
# The assay command line against its peers, end to end from the file, in one run on one machine.
#   Benchmarks/cli.sh [RECORDS] [BIG_RECORDS]      (defaults 100000 and 1000000; run from anywhere)
# Generates the data with ../shared/bench/gen_data.py, installs the Python peers in a virtual
# environment (pinned requirements) and runs orjson + jsonschema-rs (iter_errors and is_valid) pinned
# to one core; then `assay validate --schema client.schema.json --format json` with --jobs 1 (pinned
# to the same core) and --jobs 2: a warm-up and 9 measured runs each, interleaved; the median is
# reported with the range and peak RSS (the host is shared: a median of 5 moved by a fifth between
# runs). The 1M-record file, 3 runs each, checks that memory stays flat in the input's size.
set -euo pipefail
cd "$(dirname "$0")/.."
RECORDS=${1:-100000}
BIG=${2:-1000000}
source Benchmarks/common.sh
BIGDATA="$DATA_DIR/clients-$BIG.ndjson"
[ -f "$BIGDATA" ] || python3 "$SHARED/bench/gen_data.py" --records "$BIG" --out "$DATA_DIR"
echo "== Python peers (same data, same machine, this run; pinned to one core)"
$PIN "$VENV/bin/python" "$SHARED/bench/bench_python.py" --data "$DATA" \
    --only "orjson.loads,jsonschema-rs" 2>/dev/null | grep -E "^\|" || true

swift build -c release --product assay >/dev/null
BIN=.build/release/assay
LOG=$(mktemp)
run() { # name, file, command...
    local name=$1 file=$2; shift 2
    local start end
    start=$(date +%s.%N)
    /usr/bin/time -f "rss_kb=%M" -o "$LOG.rss" "$@" --quiet --format json --schema "$SCHEMA" "$file" >/dev/null || [ $? = 1 ]
    end=$(date +%s.%N)
    echo "$name $(wc -l <"$file") $(python3 -c "print($end - $start)") $(sed -n 's/rss_kb=//p' "$LOG.rss")" >>"$LOG"
}
for round in warmup 1 2 3 4 5 6 7 8 9; do
    for jobs in 1 2; do
        pin=""; [ "$jobs" = 1 ] && pin=$PIN
        if [ "$round" = warmup ]; then
            $pin $BIN validate --jobs $jobs --quiet --format json --schema "$SCHEMA" "$DATA" >/dev/null || true
            continue
        fi
        run "jobs=$jobs records=$RECORDS" "$DATA" $pin $BIN validate --jobs $jobs
    done
done
for round in 1 2 3; do
    run "jobs=1 records=$BIG" "$BIGDATA" $PIN $BIN validate --jobs 1
    run "jobs=2 records=$BIG" "$BIGDATA" $BIN validate --jobs 2
done
echo "== assay validate --format json (end to end from the file, process start included; median of the runs)"
python3 - "$LOG" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    parts = line.split()
    name = " ".join(parts[:2]); records, seconds, rss = int(parts[2]), float(parts[3]), int(parts[4])
    runs.setdefault(name, []).append((records, seconds, rss))
print("| case | runs | median s | records/s | range records/s | peak RSS MB |\n|---|---:|---:|---:|---:|---:|")
for name, rs in runs.items():
    n = rs[0][0]; s = statistics.median(r[1] for r in rs)
    print(f"| {name} | {len(rs)} | {s:.3f} | {n/s:,.0f} | {n/max(r[1] for r in rs):,.0f}–{n/min(r[1] for r in rs):,.0f} | {max(r[2] for r in rs)/1024:.0f} |")
PY
echo "== Agreement with the generator's ground truth ($DATA_DIR/clients-$RECORDS.invalid.tsv, 0-based line indices)"
$BIN validate --jobs 2 --quiet --format json --schema "$SCHEMA" "$DATA" >"$LOG" || true
python3 - "$LOG" "$DATA_DIR/clients-$RECORDS.invalid.tsv" <<'PY'
import json, sys
reported = {json.loads(line)["line"] for line in open(sys.argv[1]) if '"valid":false' in line}
truth = {int(line.split("\t")[0]) + 1 for line in open(sys.argv[2]) if line.strip()}
print(f"invalid records reported: {len(reported)}; ground truth: {len(truth)}; missed: {len(truth - reported)}; false alarms: {len(reported - truth)}")
PY
rm -f "$LOG" "$LOG.rss"
