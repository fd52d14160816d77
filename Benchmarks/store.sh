#!/usr/bin/env bash
# AssayGRDB: inserting the roster example's players into SQLite in one transaction, plain GRDB against
# a validated change set and the validated persistence callbacks, in one run on one machine.
#   Benchmarks/store.sh [PLAYERS] [ROUNDS]     (defaults 100000 and 5; run from anywhere)
# A warm-up round, then ROUNDS measured rounds with the variants interleaved, each a fresh process (a
# fresh database file holding the teams) pinned to one core. Prints the median of each variant and
# its ratio to plain GRDB.
set -euo pipefail
cd "$(dirname "$0")/.."
PLAYERS=${1:-100000}
ROUNDS=${2:-5}
PIN="taskset -c 1"
command -v taskset >/dev/null || PIN=""
swift build -c release --product StoreBench >/dev/null
BIN=.build/release/StoreBench
LOG=$(mktemp)
for round in warmup $(seq 1 "$ROUNDS"); do
    for variant in plain changeset hooks; do
        echo "round=$round $($PIN "$BIN" "$variant" "$PLAYERS")" >>"$LOG"
    done
done
python3 - "$LOG" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    fields = dict(kv.split("=", 1) for kv in line.split())
    if fields["round"] == "warmup": continue
    runs.setdefault(fields["variant"], []).append(float(fields["seconds"]))
plain = statistics.median(runs["plain"])
print("| variant | median s | min s | max s | players/s (median) | vs plain GRDB |")
print("|---|---|---|---|---|---|")
for variant in ["plain", "changeset", "hooks"]:
    values = runs[variant]
    median = statistics.median(values)
    records = int(open(sys.argv[1]).readline().split("records=")[1].split()[0])
    print(f"| {variant} | {median:.3f} | {min(values):.3f} | {max(values):.3f} | {int(records / median):,} | {median / plain:.2f}× |")
PY
rm -f "$LOG"
