#!/usr/bin/env bash
# Runs schemathesis (PyPI) against the example service's own OpenAPI document: a bounded number of
# generated requests per operation, every check on (no 5xx, every status, media type and body as
# the document says). Sets up its own virtual environment in .build-schemathesis/ and starts the
# service on a free loopback port with a database in memory; stops it on exit.
# Usage: Integrations/scripts/schemathesis.sh [MAX_EXAMPLES]   (100 by default)
# The service is built in INTEGRATIONS_SCRATCH_PATH (.build by default; CI shares the core's).
set -euo pipefail
cd "$(dirname "$0")/.."

examples="${1:-100}"
venv=.build-schemathesis/venv
version=4.32.5
if ! "$venv/bin/schemathesis" --version 2>/dev/null | grep -q "$version"; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "schemathesis==$version"
fi

scratch="${INTEGRATIONS_SCRATCH_PATH:-.build}"
swift build --product clients-service --scratch-path "$scratch"
binary="$(swift build --show-bin-path --scratch-path "$scratch")/clients-service"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
log="$(mktemp)"
"$binary" --host 127.0.0.1 --port "$port" >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 100); do
    if curl -fs "http://127.0.0.1:$port/openapi.json" >/dev/null; then break; fi
    if ! kill -0 "$server" 2>/dev/null; then
        echo "clients-service did not start:" >&2
        cat "$log" >&2
        exit 1
    fi
    sleep 0.2
done

"$venv/bin/schemathesis" --config-file schemathesis.toml run "http://127.0.0.1:$port/openapi.json" \
    --max-examples "$examples" --seed 1 --no-color \
    --request-timeout 10 --suppress-health-check all --generation-database none
