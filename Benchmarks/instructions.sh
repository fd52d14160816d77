#!/usr/bin/env bash
# Instructions per record of `assay validate` on issue 25's workloads, counted by valgrind's callgrind:
# deterministic where wall time on a shared host is not, so two builds compare to the instruction.
#
#   Benchmarks/instructions.sh ASSAY [RECORDS] [WORKLOAD...]
#
# ASSAY is a release binary (scripts/build-assay.sh builds the self-contained one); RECORDS (5,000 by
# default) are the first lines of each workload's 50,000-record file, which
# `python3 Benchmarks/workloads.py --generate-only` writes to $TMPDIR/assay-workloads. Each workload
# is counted twice, on an empty file (the start: arguments, the schema, its metaschema check) and on
# the records, as the benchmark runs it (`--jobs 1 --format json --formats assert`, report to
# /dev/null); the difference divided by RECORDS is what one record costs.
set -euo pipefail
if [ $# -lt 1 ]; then
    echo "usage: $0 ASSAY [RECORDS] [WORKLOAD...]" >&2
    exit 2
fi
assay=$1
records=${2:-5000}
shift $(($# < 2 ? $# : 2))
workloads=${*:-clients geo tree events numeric config}
command -v valgrind >/dev/null || { echo "$0: valgrind is needed (apt-get install valgrind)" >&2; exit 2; }
data=${TMPDIR:-/tmp}/assay-workloads
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# valgrind does not read the DWARF of Swift 6.3: a copy without it.
cp "$assay" "$scratch/assay"
strip --strip-debug "$scratch/assay"
: >"$scratch/empty.ndjson"

count() {
    # assay exits 1 when a record is invalid: its status is not the count's.
    {
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$scratch/assay" validate --jobs 1 --quiet \
            --format json --formats assert --schema "$1" "$2" 2>&1 >/dev/null || true
    } | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

printf '%-8s %8s %14s %14s %12s\n' workload records start total per-record
for workload in $workloads; do
    source_file="$data/$workload-50000.ndjson"
    if [ ! -f "$source_file" ]; then
        echo "$0: $source_file is missing: python3 Benchmarks/workloads.py --generate-only" >&2
        exit 2
    fi
    head -n "$records" "$source_file" >"$scratch/records.ndjson"
    schema="$data/$workload.schema.json"
    start=$(count "$schema" "$scratch/empty.ndjson")
    total=$(count "$schema" "$scratch/records.ndjson")
    printf '%-8s %8d %14d %14d %12d\n' "$workload" "$records" "$start" "$total" $(((total - start) / records))
done
