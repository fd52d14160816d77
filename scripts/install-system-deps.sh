#!/usr/bin/env bash
# Installs what the package needs from the system, if it is missing: SQLite's headers and library, which
# GRDB (AssayGRDB, the roster example) links against (Debian's libsqlite3-dev), and binutils (objdump,
# strip) for the self-contained binary's checks and release.
set -euo pipefail
missing=()
if ! [ -f /usr/include/sqlite3.h ] && ! pkg-config --exists sqlite3 2>/dev/null; then
    missing+=(libsqlite3-dev)
fi
command -v objdump >/dev/null && command -v strip >/dev/null || missing+=(binutils)
[ ${#missing[@]} = 0 ] && exit 0
if command -v apt-get >/dev/null; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq "${missing[@]}"
else
    echo "missing: ${missing[*]} (install them, or your system's equivalent)" >&2
    exit 1
fi
