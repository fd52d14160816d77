#!/usr/bin/env bash
# Builds the release `assay` as one self-contained executable and prints its path:
#
#   scripts/build-assay.sh            → .build-static/release/assay
#
# The Swift runtime, Foundation and its ICU data are linked in (`--static-swift-stdlib`): the binary
# needs only the C and C++ runtime of the system (libc, libm, libstdc++, libgcc_s), runs on a Linux
# machine without Swift, and starts without resolving some twenty shared libraries (a small schema
# and one line: about 7 ms instead of 12, docs/performance.md). It is larger (about 85 MB).
# This is the binary the speed figures in docs/performance.md are measured with.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="$PWD/.build-static"
mkdir -p "$scratch"
log="$scratch/build-assay.log"
if ! swift build -c release --product assay --static-swift-stdlib --scratch-path "$scratch" >"$log" 2>&1; then
    tail -30 "$log" >&2
    echo "build-assay.sh: the static build failed (log: $log); a toolchain without static" \
        "libraries (lib/swift_static) can build the shared-library binary: swift build -c release --product assay" >&2
    exit 2
fi
echo "$scratch/release/assay"
