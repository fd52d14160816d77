#!/usr/bin/env bash
# Builds the DocC catalog of every documented module and fails on any warning (broken symbol links,
# undocumented parameters).
#
#   scripts/check-docs.sh                                   the core's modules
#   scripts/check-docs.sh --package Integrations --scratch-path PATH AssayHummingbird AssayVapor
#
# The symbol graphs are extracted from the modules as the build made them (`swift symbolgraph-extract`
# with the build's module maps), so that after `swift test` nothing is compiled again; a module not
# built yet is built first, with the usual flags.
set -euo pipefail
cd "$(dirname "$0")/.."
package=.
scratch=""
modules=()
while [ $# -gt 0 ]; do
    case "$1" in
    --package) package="$2"; shift 2 ;;
    --scratch-path) scratch="$2"; shift 2 ;;
    *) modules+=("$1"); shift ;;
    esac
done
[ ${#modules[@]} -gt 0 ] || modules=(AssayRegex AssayCore AssayJSON AssaySchema AssayCodable AssayGRDB AssayCLI AssayHTTP AssayGenerator)
cd "$package"
scratch="$(mkdir -p "${scratch:-.build}" && cd "${scratch:-.build}" && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for module in "${modules[@]}"; do
    if ! swift build --target "$module" --scratch-path "$scratch" >"$work/build.log" 2>&1; then
        tail -30 "$work/build.log" >&2
        exit 1
    fi
done
build="$(swift build --show-bin-path --scratch-path "$scratch" 2>/dev/null)"
# The C modules the modules import (Yams', SQLite's, SwiftNIO's, Assay's own…): the module maps the
# build generated and those the packages ship, with their include folders. Not the maps of the
# modules built again for the host (`*-tool.build`, for plugins and macros): the same module twice.
clang=()
while IFS= read -r map; do clang+=(-Xcc "-fmodule-map-file=$map"); done < <(
    find "$build" -maxdepth 2 -name module.modulemap -not -path "*-tool.build/*"
    find "$scratch/checkouts" -path "*/Sources/*/module.modulemap" -not -path "*/Tests/*" -not -path "*/include/*")
while IFS= read -r folder; do
    clang+=(-Xcc "-I$folder")
    if [ -f "$folder/module.modulemap" ]; then clang+=(-Xcc "-fmodule-map-file=$folder/module.modulemap"); fi
done < <(find "$scratch/checkouts" -type d -path "*/Sources/*/include" -not -path "*/Tests/*")
status=0
for module in "${modules[@]}"; do
    mkdir -p "$work/graphs-$module"
    swift symbolgraph-extract -module-name "$module" -target "$(uname -m)-unknown-linux-gnu" -I "$build/Modules" \
        "${clang[@]}" -minimum-access-level public -output-dir "$work/graphs-$module"
    # Only the module's own symbols (its extensions of other modules' types included): a module that
    # re-exports others (@_exported import) lists their symbols too.
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
[ "$status" -eq 0 ] && echo "documentation: no warnings (${modules[*]})"
exit "$status"
