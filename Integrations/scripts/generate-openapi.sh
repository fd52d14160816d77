#!/usr/bin/env bash
# Writes again the code swift-openapi-generator generates for AssayOpenAPI's examples, each with the
# openapi-generator-config.yaml beside it:
# - the notes service's types, server protocol and the client its tests use
#   (Examples/NotesService/Sources/NotesService/Generated), from its openapi.yaml;
# - a client of the clients service (Examples/ClientsService/Tests/ClientsServiceClientTests/
#   Generated), from the /openapi.json the service serves, kept beside it as openapi.json (the
#   service is built and started for it).
# The code is kept in git so that a build needs neither the generator nor its dependencies
# (OpenAPIKit, Yams, swift-algorithms); run this after changing a document or the service's models,
# and commit what it writes.
#
#   Integrations/scripts/generate-openapi.sh
set -euo pipefail
cd "$(dirname "$0")/.."
version=1.14.3
tools="$PWD/.build-openapi-generator"
if [ ! -x "$tools/swift-openapi-generator-$version/.build/release/swift-openapi-generator" ]; then
    mkdir -p "$tools"
    rm -rf "$tools/swift-openapi-generator-$version"
    git clone --quiet --depth 1 --branch "$version" https://github.com/apple/swift-openapi-generator \
        "$tools/swift-openapi-generator-$version"
    (cd "$tools/swift-openapi-generator-$version" && swift build -c release --product swift-openapi-generator)
fi
generator="$tools/swift-openapi-generator-$version/.build/release/swift-openapi-generator"
generate() {
    local folder="$1" document="$2"
    rm -rf "$folder/Generated"
    mkdir -p "$folder/Generated"
    (cd "$folder" && "$generator" generate --config openapi-generator-config.yaml --output-directory Generated \
        "$document" >/dev/null)
    echo "generate-openapi.sh: wrote $folder/Generated"
}

notes="$PWD/Examples/NotesService/Sources/NotesService/openapi.yaml"
generate Examples/NotesService/Sources/NotesService "$notes"

scratch="${INTEGRATIONS_SCRATCH_PATH:-.build}"
swift build --product clients-service --scratch-path "$scratch"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$(swift build --show-bin-path --scratch-path "$scratch")/clients-service" --port "$port" >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
clients=Examples/ClientsService/Tests/ClientsServiceClientTests
for _ in $(seq 1 100); do
    if curl -fs "http://127.0.0.1:$port/openapi.json" -o "$clients/openapi.json.new"; then break; fi
    sleep 0.2
done
python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1])), indent=2, sort_keys=True))' \
    "$clients/openapi.json.new" >"$clients/openapi.json"
rm "$clients/openapi.json.new"
generate "$clients" "$PWD/$clients/openapi.json"
