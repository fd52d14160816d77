#!/usr/bin/env bash
# Sets up what the report's browser test needs, from nothing, and prints the virtual environment's
# python: Debian's chromium and chromium-driver (installed when missing), and selenium from PyPI in
# .build-browser/venv (scripts/report-browser/requirements.txt).
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    if command -v apt-get >/dev/null; then
        sudo=""
        [ "$(id -u)" = 0 ] || sudo="sudo"
        $sudo apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver fonts-noto-core fonts-noto-cjk >&2
    else
        echo "setup.sh: the report's browser test needs chromium and chromedriver: install them" >&2
        exit 2
    fi
fi
venv=.build-browser/venv
if ! "$venv/bin/python" -c "import selenium" 2>/dev/null; then
    python3 -m venv "$venv" >&2
    "$venv/bin/pip" install -q -r scripts/report-browser/requirements.txt >&2
fi
echo "$PWD/$venv/bin/python"
