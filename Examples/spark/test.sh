#!/usr/bin/env bash
# The Spark example's integration test, from nothing (run by .ci/run): Java and pyspark
# (setup.sh), the self-contained assay (scripts/build-assay.sh), then Examples/spark/check.py on
# RECORDS generated records (default 200,000) in .build-spark/check.
set -euo pipefail
cd "$(dirname "$0")/../.."
spark_submit=$(Examples/spark/setup.sh)
assay=$(scripts/build-assay.sh)
"$(dirname "$spark_submit")/python" Examples/spark/check.py --spark-submit "$spark_submit" --assay "$assay" \
    --work .build-spark/check --records "${1:-200000}"
