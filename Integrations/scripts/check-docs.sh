#!/usr/bin/env bash
# Builds the DocC catalogs of the HTTP adapters (AssayHummingbird, AssayVapor) and fails on any
# warning (a broken symbol link, an undocumented parameter), as scripts/check-docs.sh does for the
# core's modules. The symbol graphs are extracted from the modules the build already made (run after
# `swift build`), so that nothing is compiled again.
#
#   Integrations/scripts/check-docs.sh [debug|release]    (debug by default)
#
# The build is looked for in INTEGRATIONS_SCRATCH_PATH (.build by default; CI shares the core's).
set -euo pipefail
cd "$(dirname "$0")/.."
configuration="${1:-debug}"
build="$(swift build -c "$configuration" --show-bin-path --scratch-path "${INTEGRATIONS_SCRATCH_PATH:-.build}")"
[ -d "$build/Modules" ] || { echo "check-docs: no build in $build (run swift build first)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The C modules the adapters' dependencies import (SwiftNIO's, BoringSSL's…): the module maps the
# build generated and those the packages ship, with their include folders.
clang=()
while IFS= read -r map; do clang+=(-Xcc "-fmodule-map-file=$map"); done < <(find "$build" -maxdepth 2 -name module.modulemap)
while IFS= read -r folder; do
    clang+=(-Xcc "-I$folder")
    if [ -f "$folder/module.modulemap" ]; then clang+=(-Xcc "-fmodule-map-file=$folder/module.modulemap"); fi
done < <(find "$(cd "${INTEGRATIONS_SCRATCH_PATH:-.build}" && pwd)/checkouts" -type d -path "*/Sources/*/include" -not -path "*/Tests/*")
status=0
for module in AssayHummingbird AssayVapor; do
    mkdir -p "$work/graphs-$module"
    swift symbolgraph-extract -module-name "$module" -target "$(uname -m)-unknown-linux-gnu" -I "$build/Modules" \
        "${clang[@]}" -minimum-access-level public -output-dir "$work/graphs-$module"
    # Only the module's own symbols (its extensions of the frameworks' types included).
    python3 - "$work/graphs-$module" "$module" <<'PY'
import json, pathlib, sys
folder, module = pathlib.Path(sys.argv[1]), sys.argv[2]
for path in folder.glob("*.symbols.json"):
    graph = json.loads(path.read_text())
    own = [s for s in graph["symbols"] if f"/Sources/{module}/" in s.get("location", {}).get("uri", f"/Sources/{module}/")]
    ids = {s["identifier"]["precise"] for s in own}
    graph["symbols"] = own
    graph["relationships"] = [r for r in graph["relationships"] if r["source"] in ids]
    path.write_text(json.dumps(graph))
PY
    [ -s "$work/graphs-$module/$module.symbols.json" ] || { echo "check-docs: no symbol graph for $module" >&2; exit 1; }
    log="$work/$module.log"
    docc convert "Sources/$module/Documentation.docc" --additional-symbol-graph-dir "$work/graphs-$module" \
        --output-path "$work/doc-$module" --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.assay.$module" >"$log" 2>&1 || status=1
    if grep -q "warning:\|error:" "$log"; then
        grep -A6 "warning:\|error:" "$log" >&2
        status=1
    fi
done
[ "$status" -eq 0 ] && echo "adapters' documentation: no warnings"
exit "$status"
