#!/usr/bin/env bash
# Builds the DocC catalog of every documented module and fails on any warning (broken symbol links,
# undocumented parameters). Usage: scripts/check-docs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for module in AssayRegex AssayCore AssayJSON AssaySchema AssayCodable AssayGRDB AssayCLI AssayHTTP; do
    swift build --target "$module" -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir \
        -Xswiftc "$work/graphs-$module" >/dev/null
    # Only the module's own symbol graphs: its dependencies' documentation is theirs to fix.
    mkdir -p "$work/own-$module"
    for graph in "$work/graphs-$module/$module".symbols.json "$work/graphs-$module/$module"@*.symbols.json; do
        if [ -f "$graph" ]; then cp "$graph" "$work/own-$module/"; fi
    done
    # A module that re-exports others (@_exported import) lists their symbols too: keep the ones
    # declared in its own sources.
    python3 - "$work/own-$module" "$module" <<'PY'
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
    log="$work/$module.log"
    docc convert "Sources/$module/Documentation.docc" --additional-symbol-graph-dir "$work/own-$module" \
        --output-path "$work/doc-$module" --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.assay.$module" >"$log" 2>&1 || status=1
    if grep -q "warning:\|error:" "$log"; then
        grep -A6 "warning:\|error:" "$log" >&2
        status=1
    fi
done
[ "$status" -eq 0 ] && echo "documentation: no warnings"
exit "$status"
