#!/usr/bin/env bash
# The HTML report's browser test, from nothing (run by .ci/run): Chromium, chromedriver and selenium
# (setup.sh), the assay tool (a debug build), then check_report.py on RECORDS generated records
# (default 20,000) in .build-browser/check. SCREENSHOT, when given, receives the light page's picture
# (docs/images/report.png is the README's).
#
#   scripts/report-browser/test.sh [RECORDS] [SCREENSHOT]
set -euo pipefail
cd "$(dirname "$0")/../.."
python=$(scripts/report-browser/setup.sh)
swift build --product assay >&2
assay="$(swift build --show-bin-path)/assay"
rm -rf .build-browser/check
screenshot=()
[ -n "${2:-}" ] && screenshot=(--screenshot "$2")
"$python" scripts/report-browser/check_report.py --assay "$assay" --work .build-browser/check \
    --records "${1:-20000}" "${screenshot[@]}"
