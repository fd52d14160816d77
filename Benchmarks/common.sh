# Shared set-up of the benchmark scripts (sourced): the data, the Python peers' virtual environment,
# the core to pin to. Expects RECORDS; sets SHARED, DATA_DIR, VENV, DATA, SCHEMA, PIN.
SHARED=${SHARED:-$(cd .. && pwd)/shared}
DATA_DIR=${DATA_DIR:-${TMPDIR:-/tmp}/assay-bench-data}
VENV=${VENV:-${TMPDIR:-/tmp}/assay-bench-venv}
DATA="$DATA_DIR/clients-$RECORDS.ndjson"
SCHEMA="$SHARED/bench/client.schema.json"
PIN="taskset -c 1"
command -v taskset >/dev/null || PIN=""

[ -f "$DATA" ] || python3 "$SHARED/bench/gen_data.py" --records "$RECORDS" --out "$DATA_DIR"
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet -r "$SHARED/bench/requirements.txt"
fi
