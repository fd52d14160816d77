#!/usr/bin/env bash
# The assay command line against its peers, end to end from the file, in one run on one machine.
#   Benchmarks/cli.sh [RECORDS] [BIG_RECORDS]      (defaults 100000 and 1000000; run from anywhere)
# Generates the data with ../shared/bench/gen_data.py, installs the Python peers in a virtual
# environment (pinned requirements) and runs orjson + jsonschema-rs (iter_errors and is_valid) pinned
# to one core, for reference; then, in three rounds, the peer orjson + jsonschema-rs iter_errors
# (3 passes) and `assay validate --schema client.schema.json --format json` with --jobs 1 (pinned to
# the same core) and --jobs 2 (3 runs each), so that each ratio compares figures from the same phase
# of this shared host (a median of 5 runs moved by a fifth between runs). Reported: each round's
# ratios, the medians of all 9, ranges and peak RSS. The 1M-record file (3 runs of each --jobs case)
# checks that memory stays flat in the input's size.
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
    echo "$name $(python3 -c "print($end - $start)") $(sed -n 's/rss_kb=//p' "$LOG.rss")" >>"$LOG"
}
# The peer and assay in three rounds, each round the peer (3 passes) then 3 runs of each --jobs case,
# so that every ratio compares figures taken in the same phase of this shared host.
PEER_CASE="validate jsonschema-rs iter_errors (+orjson)"
$PIN $BIN validate --jobs 1 --quiet --format json --schema "$SCHEMA" "$DATA" >/dev/null || true
$BIN validate --jobs 2 --quiet --format json --schema "$SCHEMA" "$DATA" >/dev/null || true
for round in 1 2 3; do
    $PIN "$VENV/bin/python" "$SHARED/bench/bench_python.py" --data "$DATA" --only "$PEER_CASE" \
        --json "$LOG.peer$round" >/dev/null 2>&1
    for repeat in 1 2 3; do
        run "jobs=1 records=$RECORDS round=$round" "$DATA" $PIN $BIN validate --jobs 1
        run "jobs=2 records=$RECORDS round=$round" "$DATA" $BIN validate --jobs 2
    done
done
for round in 1 2 3; do
    run "jobs=1 records=$BIG round=-" "$BIGDATA" $PIN $BIN validate --jobs 1
    run "jobs=2 records=$BIG round=-" "$BIGDATA" $BIN validate --jobs 2
done
echo "== orjson + jsonschema-rs iter_errors and assay validate --format json, interleaved"
echo "(assay end to end from the file, process start included; the peer's loop over lines in memory)"
python3 - "$LOG" "$RECORDS" <<'PY'
import json, statistics, sys
log, records = sys.argv[1], int(sys.argv[2])
runs = {}
for line in open(log):
    parts = line.split()
    jobs, size, round_ = (part.split("=")[1] for part in parts[:3])
    runs.setdefault((jobs, int(size), round_), []).append((float(parts[3]), int(parts[4])))
peer = {}
for round_ in "123":
    result = next(r for r in json.load(open(f"{log}.peer{round_}"))["results"])
    assert not result.get("missed") and not result.get("false_alarms"), "the peer disagrees with the ground truth"
    peer[round_] = [records / t for t in result["times"]]
def rate(times, n): return n / statistics.median(times)
print("| round | peer records/s | --jobs 1 records/s | × peer | --jobs 2 records/s | × --jobs 1 |")
print("|---|---:|---:|---:|---:|---:|")
for round_ in "123":
    p = statistics.median(peer[round_])
    one = rate([t for t, _ in runs[("1", records, round_)]], records)
    two = rate([t for t, _ in runs[("2", records, round_)]], records)
    print(f"| {round_} | {p:,.0f} | {one:,.0f} | {one / p:.2f} | {two:,.0f} | {two / one:.2f} |")
all_peer = statistics.median(sum(peer.values(), []))
one_times = sum((runs[("1", records, r)] for r in "123"), [])
two_times = sum((runs[("2", records, r)] for r in "123"), [])
one, two = rate([t for t, _ in one_times], records), rate([t for t, _ in two_times], records)
print(f"| **all** (medians of 9) | **{all_peer:,.0f}** | **{one:,.0f}** | **{one / all_peer:.2f}** "
      f"| **{two:,.0f}** | **{two / one:.2f}** |")
print()
print("| case | runs | median s | records/s | range records/s | peak RSS MB |\n|---|---:|---:|---:|---:|---:|")
for jobs in "12":
    for n in sorted({key[1] for key in runs}):
        rs = sum((v for k, v in runs.items() if k[0] == jobs and k[1] == n), [])
        s = statistics.median(t for t, _ in rs)
        print(f"| --jobs {jobs}, {n:,} records | {len(rs)} | {s:.3f} | {n/s:,.0f} | "
              f"{n/max(t for t, _ in rs):,.0f}–{n/min(t for t, _ in rs):,.0f} | {max(m for _, m in rs)/1024:.0f} |")
PY
echo "== Agreement with the generator's ground truth ($DATA_DIR/clients-$RECORDS.invalid.tsv, 0-based line indices)"
$BIN validate --jobs 2 --quiet --format json --schema "$SCHEMA" "$DATA" >"$LOG" || true
python3 - "$LOG" "$DATA_DIR/clients-$RECORDS.invalid.tsv" <<'PY'
import json, sys
reported = {json.loads(line)["line"] for line in open(sys.argv[1]) if '"valid":false' in line}
truth = {int(line.split("\t")[0]) + 1 for line in open(sys.argv[2]) if line.strip()}
print(f"invalid records reported: {len(reported)}; ground truth: {len(truth)}; missed: {len(truth - reported)}; false alarms: {len(reported - truth)}")
PY
rm -f "$LOG" "$LOG.rss" "$LOG".peer*
