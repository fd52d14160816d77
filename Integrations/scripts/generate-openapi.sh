#!/usr/bin/env bash
# Writes again the code swift-openapi-generator generates for the notes service (AssayOpenAPI's
# example): the server's types and protocol in Examples/NotesService/Sources/NotesService/Generated,
# and the tests' client, types and server protocol in Examples/NotesService/Tests/NotesServiceTests/
# Generated, each from openapi.yaml with the openapi-generator-config.yaml beside it. The code is
# kept in git so that a build needs neither the generator nor its dependencies (OpenAPIKit, Yams,
# swift-algorithms); run this after changing the document, and commit what it writes.
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
document="$PWD/Examples/NotesService/Sources/NotesService/openapi.yaml"
for folder in Examples/NotesService/Sources/NotesService Examples/NotesService/Tests/NotesServiceTests; do
    rm -rf "$folder/Generated"
    mkdir -p "$folder/Generated"
    (cd "$folder" && "$generator" generate --config openapi-generator-config.yaml --output-directory Generated \
        "$document" >/dev/null)
    echo "generate-openapi.sh: wrote $folder/Generated"
done
