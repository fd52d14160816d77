#!/usr/bin/env bash
# Sets up what the Spark example needs, from nothing, and prints the path of spark-submit:
#   Java 17 or later (Debian's openjdk-17-jre-headless when there is none), and a virtual
#   environment in .build-spark/venv with pyspark from PyPI (Examples/spark/requirements.txt).
set -euo pipefail
cd "$(dirname "$0")/../.."
java_major() { java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1; }
if ! command -v java >/dev/null || [ "$(java_major)" -lt 17 ]; then
    if command -v apt-get >/dev/null; then
        sudo=""
        [ "$(id -u)" = 0 ] || sudo="sudo"
        $sudo apt-get update -qq >&2
        $sudo apt-get install -y -qq openjdk-17-jre-headless >&2
    else
        echo "setup.sh: Spark needs Java 17 or later: install it (e.g. openjdk-17-jre-headless)" >&2
        exit 2
    fi
fi
venv=.build-spark/venv
if ! "$venv/bin/python" -c "import pyspark" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q -r Examples/spark/requirements.txt >&2
fi
echo "$PWD/$venv/bin/spark-submit"
