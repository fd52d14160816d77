#!/usr/bin/env bash
# The load benchmark of issue 28 (a benchmark, not a test): wrk against the example service on
# loopback, each route for a bounded time, stopping by itself. Compares the create route as the
# service has it (Assay's validated decoding, then the checked insert) with the same route decoding
# with Foundation's JSONDecoder and no validation (`POST /plain/clients` of http-bench), then loads
# the field check and the read; first the decoding alone of both, with no database, for one client
# and for a batch of 100 (and, before the server starts, the same bodies decoded in the process
# with no HTTP). Every request must succeed: any non-2xx answer or socket error fails
# the run. Figures go to docs/performance.md by hand, with the machine.
# Usage: [TURNS=5] Integrations/scripts/load.sh [SECONDS] [CONNECTIONS]   (30 and 32 by default)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-30}"
connections="${2:-32}"
command -v wrk >/dev/null || { apt-get install -y -q wrk >/dev/null 2>&1 || { apt-get update -q && apt-get install -y -q wrk; }; }

swift build -c release --product http-bench
binary="$(swift build -c release --show-bin-path)/http-bench"
# The decoding alone, in the process (no HTTP): RequestContent.decode against JSONDecoder.
echo "== decoding alone, in the process"
"$binary" --decode-only 200000
# The same routes answered by the server's router in the process (middleware, handler, response),
# with no socket: what the decoding changes in a request, without the load generator's noise.
echo "== the decoding routes answered in the process (router, handler, response; no socket)"
"$binary" --handler-only 100000
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$binary" "$port" >/dev/null 2>&1 &
server=$!
work="$(mktemp -d)"
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do
    curl -fs "http://127.0.0.1:$port/openapi.json" >/dev/null && break
    sleep 0.2
done
# One client to read back.
curl -fs -X POST "http://127.0.0.1:$port/clients" -H 'Content-Type: application/json' \
    -d '{"name": "Ann Lee", "age": 30, "email": "ann@example.com"}' >/dev/null

# Each request a new client: a unique email per thread and request.
cat >"$work/create.lua" <<'LUA'
local threads = 0
function setup(thread) thread:set("tid", threads); threads = threads + 1 end
function init(args) path = args[1]; prefix = args[2] or "ann"; counter = 0 end
function request()
    counter = counter + 1
    local body = string.format(
        '{"name": "  Ann Lee ", "age": 30, "email": "%s.%d.%d@example.com"}', prefix, tid, counter)
    return wrk.format("POST", path, {["Content-Type"] = "application/json"}, body)
end
LUA
# A batch of 100 clients (names, ages and emails of different lengths), the same body each request.
cat >"$work/batch.lua" <<'LUA'
function init(args)
    path = args[1]
    local names = {"Ann Lee", "  Bob Stone ", "Chiara Rossi", "Dmitri Ivanov", "Eve", "Fatima Al Sayed"}
    local items = {}
    for i = 1, 100 do
        local name = names[(i % #names) + 1]
        items[i] = string.format('{"name": "%s", "age": %d, "email": " User.%d@Example.com "}',
            name, 18 + (i * 7) % 80, i)
    end
    body = "[" .. table.concat(items, ", ") .. "]"
end
function request()
    return wrk.format("POST", path, {["Content-Type"] = "application/json"}, body)
end
LUA
cat >"$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '" Ann@Example.com "'
LUA
# Fails the run on any answer that is not 2xx, or a socket error.
cat >"$work/done.lua" <<'LUA'
function done(summary, latency, requests)
    local e = summary.errors
    io.write(string.format("requests %d, non-2xx %d, socket errors %d\n", summary.requests, e.status,
        e.connect + e.read + e.write + e.timeout))
    if e.status + e.connect + e.read + e.write + e.timeout > 0 then os.exit(1) end
end
LUA
cat "$work/done.lua" >>"$work/create.lua"
cat "$work/done.lua" >>"$work/post.lua"
cat "$work/done.lua" >>"$work/batch.lua"

cpu_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
run() {
    echo "== $1"
    shift
    wrk -t2 -c"$connections" -d"${seconds}s" --latency "$@"
}
# A pair compared in turns (A, B, A, B, …; TURNS of them, 5 by default, each a TURNS-th of the
# time), so that drift of the machine falls on both; the medians are printed last, and how many
# turns each side won.
compare() {
    local name_a="$1" path_a="$2" name_b="$3" path_b="$4" prefix="$5" script="${6:-create}"
    local turns="${TURNS:-5}"
    local slice=$(( (seconds + turns - 1) / turns ))
    local rates_a=() rates_b=() cpu=() cpu_a=() cpu_b=()
    for turn in $(seq 1 "$turns"); do
        for side in a b; do
            local name path
            if [ "$side" = a ]; then name="$name_a"; path="$path_a"; else name="$name_b"; path="$path_b"; fi
            echo "== $name (turn $turn)"
            local before after
            before="$(cpu_ticks)"
            out="$(wrk -t2 -c"$connections" -d"${slice}s" --latency -s "$work/$script.lua" \
                "http://127.0.0.1:$port" -- "$path" "$prefix$side$turn")"
            after="$(cpu_ticks)"
            echo "$out" | grep -E "Latency  |50%|99%|Requests/sec|requests .*non-2xx"
            # The server's own CPU time per request (user + system), steadier than the rate when
            # the load generator shares the machine.
            echo "$out" | awk -v ticks=$((after - before)) -v hz="$(getconf CLK_TCK)" \
                '/^requests / {printf "server CPU per request: %.1f us\n", ticks / hz * 1e6 / $2}' | tr -d ','
            cpu+=("$(echo "$out" | awk -v ticks=$((after - before)) -v hz="$(getconf CLK_TCK)" \
                '/^requests / {gsub(",", "", $2); printf "%.1f", ticks / hz * 1e6 / $2}')")
            echo "$out" | grep -q "non-2xx 0, socket errors 0" || { echo "failed requests" >&2; exit 1; }
            rate="$(echo "$out" | awk '/Requests\/sec/ {print $2}')"
            if [ "$side" = a ]; then rates_a+=("$rate"); cpu_a+=("${cpu[-1]}"); else rates_b+=("$rate"); cpu_b+=("${cpu[-1]}"); fi
        done
    done
    median() { printf "%s\n" "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
    local wins_a=0
    for index in "${!rates_a[@]}"; do
        if awk -v a="${rates_a[$index]}" -v b="${rates_b[$index]}" 'BEGIN { exit !(a > b) }'; then
            wins_a=$((wins_a + 1))
        fi
    done
    echo "-- median requests/s: $name_a $(median "${rates_a[@]}"), $name_b $(median "${rates_b[@]}")"
    echo "-- median server CPU per request (us): $name_a $(median "${cpu_a[@]}"), $name_b $(median "${cpu_b[@]}")"
    echo "-- turns with more requests/s: $name_a $wins_a of $turns"
}
compare "POST /decode/assay (Assay's validated decoding, create rules, no database)" /decode/assay \
    "POST /decode/plain (JSONDecoder, no validation, no database)" /decode/plain decode
compare "POST /decode/assay/batch (100 clients, each checked, no database)" /decode/assay/batch \
    "POST /decode/plain/batch (100 clients, JSONDecoder, no validation, no database)" /decode/plain/batch \
    batch batch
compare "POST /clients (the example's create: validated decoding, checked insert)" /clients \
    "POST /plain/clients (JSONDecoder, no validation, plain insert)" /plain/clients create
run "POST /clients/validate?field=email (one field checked)" -s "$work/post.lua" \
    "http://127.0.0.1:$port/clients/validate?field=email"
run "GET /clients/1 (row checked as it is read)" -s "$work/done.lua" "http://127.0.0.1:$port/clients/1"
