#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/) and runs one of them, or all.
#
#   scripts/fuzz.sh TARGET SECONDS [LIBFUZZER OPTIONS…]   one target for SECONDS
#   scripts/fuzz.sh all SECONDS                            every target, one after the other
#
# TARGET: json, ndjson, yaml, schema-compile, schema-validate, regex, email, decode. Each starts from
# its checked-in seeds in Fuzz/Corpus/TARGET; what it finds goes to a working corpus in
# .build-fuzz/corpus/TARGET (kept between runs, never checked in) and crashes, leaks and slow inputs
# to .build-fuzz/artifacts/. Exits non-zero on the first finding, with the reproducing input's path:
# add it to Fuzz/Regressions/TARGET/ and to a test, then fix it.
#
# FUZZ_CONFIGURATION=debug builds the targets without the optimiser, in .build-fuzz-debug: about a
# sixth of the release build's time (157 against 884 s on 2 cores; it compiles swift-syntax for the
# macros too) at 2 to 45 times fewer executions a second, for CI's smoke run. Long runs use the
# release build (the default).
#
# FUZZ_TRACE_CMP=0 builds them without libFuzzer's comparison tracing (trace-cmp), in a scratch folder
# of its own (.build-fuzz-nocmp): coverage is still traced edge by edge, AddressSanitizer still on,
# but mutations are no longer guided by the operands of comparisons. The regex target spends about
# half its time in those callbacks (the lazy DFA's and the Pike VM's loops compare scalars), so its
# long run, from a corpus grown with tracing on, uses it.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
targets=(json ndjson yaml schema-compile schema-validate regex email decode report)

if [ $# -lt 2 ]; then
    echo "usage: scripts/fuzz.sh TARGET|all SECONDS [libFuzzer options…]" >&2
    exit 2
fi
target="$1"
seconds="$2"
shift 2
extra=("$@")

configuration="${FUZZ_CONFIGURATION:-release}"
case "$configuration" in
release) scratch="$root/.build-fuzz" ;;
debug) scratch="$root/.build-fuzz-debug" ;;
*) echo "fuzz.sh: FUZZ_CONFIGURATION is release or debug, not $configuration" >&2; exit 2 ;;
esac
coverage=edge,inline-8bit-counters,pc-table,trace-cmp
case "${FUZZ_TRACE_CMP:-1}" in
1) ;;
0) scratch="$scratch-nocmp" coverage=edge,inline-8bit-counters,pc-table ;;
*) echo "fuzz.sh: FUZZ_TRACE_CMP is 1 or 0, not $FUZZ_TRACE_CMP" >&2; exit 2 ;;
esac
mkdir -p "$scratch"
# Where the toolchain keeps libclang_rt.fuzzer_no_main (Fuzz/Package.swift links it).
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")
ASSAY_FUZZER_LIBRARIES=$(dirname "$(find "$toolchain/lib" -name 'libclang_rt.fuzzer_no_main-x86_64.a' | head -1)")
export ASSAY_FUZZER_LIBRARIES
# Every module is built with AddressSanitizer and libFuzzer's coverage instrumentation (what
# -sanitize=fuzzer turns on), but libFuzzer itself is linked only into the fuzz binary (Fuzz/Package.swift):
# with --sanitize=fuzzer, the macro tool AssayCodable needs would get libFuzzer's `main` besides its own.
build_start=$SECONDS
if ! (cd Fuzz && swift build -c "$configuration" --scratch-path "$scratch" -Xswiftc -sanitize=address \
    -Xswiftc -sanitize-coverage="$coverage" -Xswiftc -enable-testing \
    >"$scratch/build.log" 2>&1); then
    tail -40 "$scratch/build.log" >&2
    echo "fuzz.sh: the fuzz targets did not build (log: $scratch/build.log)" >&2
    exit 2
fi
echo "fuzz.sh: the targets built in $((SECONDS - build_start)) s"
binary="$scratch/$configuration/AssayFuzz"

run_one() {
    local name="$1"
    local corpus="$scratch/corpus/$name"
    local artifacts="$scratch/artifacts/$name/"
    mkdir -p "$corpus" "$artifacts"
    local seeds=("$root/Fuzz/Corpus/$name")
    [ -d "$root/Fuzz/Regressions/$name" ] && seeds+=("$root/Fuzz/Regressions/$name")
    echo "== $name: $seconds s"
    local log="$scratch/$name.log"
    local status=0
    ASSAY_FUZZ_TARGET="$name" SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$binary" \
        "$corpus" "${seeds[@]}" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=4096 \
        -artifact_prefix="$artifacts" -print_final_stats=1 ${extra[@]+"${extra[@]}"} >"$log" 2>&1 || status=$?
    grep -E "^(#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY|Test unit written|oracle failed|ALARM|Done )" "$log" || true
    if [ "$status" != 0 ]; then
        echo "fuzz.sh: $name found a problem (exit $status; log: $log); the input is in $artifacts" >&2
        return 1
    fi
}

if [ "$target" = all ]; then
    for name in "${targets[@]}"; do run_one "$name"; done
else
    run_one "$target" "$@"
fi
