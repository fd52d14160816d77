#!/usr/bin/env bash
# Runs schemathesis (PyPI) against the example services' OpenAPI documents: a bounded number of
# generated requests per operation, every check on (no 5xx, every status, media type and body as
# the document says) — the clients service's own /openapi.json, and the notes service
# (swift-openapi-generator's server behind AssayServerMiddleware) against the openapi.yaml its code
# was generated from. Sets up its own virtual environment in .build-schemathesis/ and starts each
# service on a free loopback port (in memory); stops them on exit.
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
swift build --product notes-service --scratch-path "$scratch"
bin="$(swift build --show-bin-path --scratch-path "$scratch")"
servers=()
trap 'for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done' EXIT

# Starts a service on a free loopback port and waits until PATH answers; sets `port`. Called as a
# command, not in `$(…)`: a subshell's `servers` would be its own, and the trap would stop nothing
# (the services stayed running after the script, found 2026-12-06).
port=""
start() {
    local name="$1" path="$2" log
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    log="$scratch/$name.log"
    "$bin/$name" --port "$port" >"$log" 2>&1 &
    servers+=($!)
    for _ in $(seq 1 100); do
        if curl -fs "http://127.0.0.1:$port$path" >/dev/null; then
            return
        fi
        if ! kill -0 "${servers[-1]}" 2>/dev/null; then
            echo "$name did not start:" >&2
            cat "$log" >&2
            exit 1
        fi
        sleep 0.2
    done
    echo "$name did not answer $path" >&2
    exit 1
}

# schemathesis [--config-file FILE] run DOCUMENT [--url BASE]
run() {
    "$venv/bin/schemathesis" "$@" \
        --max-examples "$examples" --seed 1 --no-color \
        --request-timeout 10 --suppress-health-check all --generation-database none
}

# The clients service serves its own document.
start clients-service /openapi.json
run --config-file schemathesis.toml run "http://127.0.0.1:$port/openapi.json"
# AssayOpenAPI's example: swift-openapi-generator's server behind AssayServerMiddleware, tested
# against the document its code was generated from.
start notes-service /notes
run --config-file Examples/NotesService/schemathesis.toml run Examples/NotesService/Sources/NotesService/openapi.yaml --url "http://127.0.0.1:$port"
