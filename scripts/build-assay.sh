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
#
# Every module, the dependencies' included, is compiled to reach the metadata of a generic type
# (`Option<Int>`, `Dictionary<[Int32], Int32>`) through its accessor instead of by its mangled name:
# the runtime then neither demangles the name nor looks the type's conformances up among the
# binary's 6,000 (a first use of such a type cost up to 360,000 instructions; the start, arguments
# and metaschema, 17% fewer instructions, docs/performance.md).
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="$PWD/.build-static"
mkdir -p "$scratch"
log="$scratch/build-assay.log"
if ! swift build -c release --product assay --static-swift-stdlib --scratch-path "$scratch" \
    -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors >"$log" 2>&1; then
    tail -30 "$log" >&2
    echo "build-assay.sh: the static build failed (log: $log); a toolchain without static" \
        "libraries (lib/swift_static) can build the shared-library binary: swift build -c release --product assay" >&2
    exit 2
fi
echo "$scratch/release/assay"
