#!/usr/bin/env bash
# Checks that an `assay` binary is self-contained: it loads no Swift runtime library, and runs from a
# folder of its own with an empty environment, so the toolchain cannot be on its library path.
#
#   scripts/check-self-contained.sh [BINARY]    (default: builds it with scripts/build-assay.sh)
#
# Prints the oldest glibc and libstdc++ the binary asks for (from its symbol versions). Exits 1 on
# the first failed check, naming it.
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${1:-$(scripts/build-assay.sh)}"
fail() {
    echo "check-self-contained: $*" >&2
    exit 1
}
[ -x "$binary" ] || fail "$binary is not an executable"

# Where the toolchain keeps its shared libraries (libswiftCore.so and the rest).
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")

# 1. Nothing Swift among the libraries the dynamic loader resolves.
libraries=$(ldd "$binary")
if grep -Eiq 'libswift|libFoundation|libdispatch|libBlocksRuntime|libicu|/swift/' <<<"$libraries"; then
    fail "ldd lists a Swift runtime library:"$'\n'"$libraries"
fi

# 2. Run from a folder of its own, with an empty environment; every object the loader opens is
#    listed (LD_DEBUG=libs) and none comes from the toolchain.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp "$binary" "$scratch/assay"
cp Examples/clients/client.schema.json Examples/clients/address.schema.json Examples/clients/clients.ndjson "$scratch/"
status=0
(cd "$scratch" && env -i LD_DEBUG=libs LD_DEBUG_OUTPUT="$scratch/loader" ./assay validate --quiet \
    --schema client.schema.json --format json clients.ndjson >"$scratch/out.ndjson") || status=$?
[ "$status" = 1 ] || fail "the copied binary exited $status on the example data, expected 1"
[ "$(wc -l <"$scratch/out.ndjson")" = 1000 ] || fail "the copied binary did not report 1,000 documents"
[ "$(grep -c '"valid":false' "$scratch/out.ndjson")" = 39 ] || fail "the copied binary did not find the 39 invalid records"
loaded=$(cat "$scratch"/loader.* | sed -n 's/.*calling init: //p' | sort -u)
[ -n "$loaded" ] || fail "LD_DEBUG listed no library: the check cannot tell"
if grep -q "^$toolchain" <<<"$loaded"; then
    fail "a library came from the toolchain ($toolchain):"$'\n'"$loaded"
fi
version=$(env -i "$scratch/assay" --version)

glibc=$(objdump -T "$binary" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)
glibcxx=$(objdump -T "$binary" | grep -o 'GLIBCXX_[0-9.]*' | sort -uV | tail -1)
echo "self-contained: assay $version loads only $(tr '\n' ' ' <<<"$loaded")"
echo "it needs $glibc and $glibcxx or later"
