#!/usr/bin/env bash
# Runs `swift test` N times in a row with every core kept busy by `yes > /dev/null` loops (the
# loaded CI machine), and prints how often each test failed.
#
#   Scripts/stress.sh N [--filter REGEX] [--busy K] [--keep DIR] [--scratch-path DIR] [--no-build]
#
#   N               runs (each one a whole `swift test --skip-build`, built once before)
#   --filter        passed to swift test (e.g. TodoAcceptanceTests)
#   --busy K        busy loops to start (default: the number of cores)
#   --keep DIR      where the logs of failed runs are kept (default: .build/stress)
#   --scratch-path  the build folder to test (swift test holds a lock on its folder for a whole
#                   run: a second stress run at the same time needs a copy, `cp -a .build DIR`)
#   --no-build      do not build first (a copied build folder cannot be rebuilt in place)
#
# Exits 0 only when every run passed. The busy loops are stopped on exit, also on Ctrl-C.
set -uo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[[ $# -ge 1 && "$1" =~ ^[0-9]+$ ]] || usage
runs=$1; shift
filter=""
busy=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
keep=.build/stress
scratch=""
build=1
while [[ $# -gt 0 ]]; do
    case "$1" in
        --filter) filter=${2:?--filter needs a value}; shift 2 ;;
        --busy) busy=${2:?--busy needs a value}; shift 2 ;;
        --keep) keep=${2:?--keep needs a value}; shift 2 ;;
        --scratch-path) scratch=${2:?--scratch-path needs a value}; shift 2 ;;
        --no-build) build=0; shift ;;
        *) usage ;;
    esac
done

scratch_args=()
[[ -n "$scratch" ]] && scratch_args=(--scratch-path "$scratch")
if [[ $build -eq 1 ]]; then
    swift build --build-tests "${scratch_args[@]}" >/dev/null || { echo "stress: the build failed" >&2; exit 1; }
fi
mkdir -p "$keep"
rm -f "$keep"/failed-run-*.log

loops=()
stop_loops() { for pid in "${loops[@]:-}"; do [[ -n "$pid" ]] && kill "$pid" 2>/dev/null; done; }
trap stop_loops EXIT
trap 'exit 130' INT TERM
for _ in $(seq 1 "$busy"); do
    yes > /dev/null &
    loops+=($!)
done

args=(--skip-build "${scratch_args[@]}")
[[ -n "$filter" ]] && args+=(--filter "$filter")
declare -A failures=()
failed_runs=0
started=$(date +%s)
log=$(mktemp)
for run in $(seq 1 "$runs"); do
    run_started=$(date +%s)
    swift test "${args[@]}" > "$log" 2>&1
    status=$?
    # A run passed when swift test exited 0; the names of failed tests come from Swift
    # Testing's "✘ Test name(...)" lines and XCTest's "error: -[Suite test] :" lines.
    if [[ $status -ne 0 ]]; then
        failed_runs=$((failed_runs + 1))
        cp "$log" "$keep/failed-run-$run.log"
        names=$(grep -aoE '^✘ Test [^ ]+\(' "$log" | sed -E 's/^✘ Test //; s/\($//' | sort -u)
        names+=$'\n'$(grep -aoE 'error: -\[[^]]+\]' "$log" | sed -E 's/^error: -\[//; s/\]$//' | sort -u)
        [[ -z "${names//[$'\n' ]/}" ]] && names="(run failed, exit status $status: no test named)"
        while IFS= read -r name; do
            [[ -z "$name" ]] && continue
            failures["$name"]=$(( ${failures["$name"]:-0} + 1 ))
        done <<< "$names"
    fi
    printf 'run %d/%d: %s in %ds (%d failed so far)\n' "$run" "$runs" \
        "$([[ $status -eq 0 ]] && echo passed || echo FAILED)" $(( $(date +%s) - run_started )) "$failed_runs"
done
rm -f "$log"

echo
echo "$runs runs of swift test ${args[*]} with $busy busy loops, $(( $(date +%s) - started ))s: $failed_runs failed"
if [[ $failed_runs -gt 0 ]]; then
    echo "failures per test:"
    for name in "${!failures[@]}"; do printf '%6d  %s\n' "${failures[$name]}" "$name"; done | sort -rn
    echo "logs of the failed runs: $keep/failed-run-*.log"
    exit 1
fi
