#!/usr/bin/env bash
# Runs the Spark example from nothing: Java and pyspark (setup.sh), the self-contained assay
# (scripts/build-assay.sh), RECORDS generated client records (../shared/bench/gen_data.py), then the
# job on MASTER:
#
#   Examples/spark/run.sh [RECORDS] [MASTER]        defaults: 200000, local[2]
#
# Output in .build-spark/out: valid/ and quarantine/ (a part file per partition) and totals.json.
set -euo pipefail
cd "$(dirname "$0")/../.."
records="${1:-200000}"
master="${2:-local[2]}"
spark_submit=$(Examples/spark/setup.sh)
assay=$(scripts/build-assay.sh)
data=.build-spark/data
if [ ! -f "$data/clients-$records.ndjson" ]; then
    python3 ../shared/bench/gen_data.py --records "$records" --out "$data" >&2
fi
rm -rf .build-spark/out
# The schema's folder goes to every executor: a folder of its own.
mkdir -p .build-spark/schema
cp ../shared/bench/client.schema.json .build-spark/schema/
# spark-submit finds Spark through the `python` on PATH: the virtual environment's.
PATH="$(dirname "$spark_submit"):$PATH" PYSPARK_PYTHON="$(dirname "$spark_submit")/python" "$spark_submit" --master "$master" Examples/spark/validate_job.py --assay "$assay" \
    --schema .build-spark/schema/client.schema.json --input "$data/clients-$records.ndjson" --output .build-spark/out
