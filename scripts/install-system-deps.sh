#!/usr/bin/env bash
# Installs what the package needs from the system, if it is missing: SQLite's headers and library, which
# GRDB (AssayGRDB, the roster example) links against. Debian's package: libsqlite3-dev.
set -euo pipefail
if [ -f /usr/include/sqlite3.h ] || pkg-config --exists sqlite3 2>/dev/null; then
    exit 0
fi
if command -v apt-get >/dev/null; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq libsqlite3-dev
else
    echo "SQLite's development files are missing: install libsqlite3-dev (or your system's equivalent)" >&2
    exit 1
fi
