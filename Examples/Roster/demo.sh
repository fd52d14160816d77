#!/usr/bin/env bash
# The roster example run the README shows: `Examples/Roster/demo.sh` prints it, and CI compares its
# output with Examples/Roster/demo.expected. Each command is echoed with its exit status.
set -uo pipefail
cd "$(dirname "$0")/../.."
swift build --product roster >/dev/null 2>&1 || { echo "swift build --product roster failed" >&2; exit 2; }
roster="$(swift build --product roster --show-bin-path)/roster"
db="$(mktemp -d)/roster.sqlite"
step() {
    printf '$ roster'
    for argument in "$@"; do
        if [[ "$argument" == *" "* ]]; then printf ' "%s"' "$argument"; else printf ' %s' "$argument"; fi
    done
    printf '\n'
    "$roster" "$@" --db "$db" 2>&1
    echo "(exit $?)"
}
step add-team Lakers
step add-team Celtics
step add-team " Lakers "
step add-player --name "  LeBron James " --age 39 --team Lakers
step add-player --name B --age 12 --team Knicks --lang ru
step add-player --name "   " --age 12 --team Lakers --errors nserror
step check-field name "   "
step check-field age 30
step import Examples/Roster/bad-players.json
step import Examples/Roster/players.json
step list
step delete-team Celtics --lang zh-Hans
rm -rf "$(dirname "$db")"
