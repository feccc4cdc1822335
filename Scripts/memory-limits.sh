#!/usr/bin/env bash
# Pushes a lot of output through `harness run` and prints the harness's peak resident memory
# and time, for a pipe session (`launch pipes`) and a terminal session (`launch`): the check
# behind docs/RELIABILITY.md, "Output limits" (the goal: under 200 MB each, whatever the size).
#
#   Scripts/memory-limits.sh [--bytes N] [--no-build]
#
#   --bytes N   how much the program prints (default 1073741824, 1 GiB)
#   --no-build  use the harness already built (.build/release/harness)
#
# The program is `head -c N /dev/zero | tr '\0' a`, then `done` on a line of its own; the pipe
# flow checks stdout for `done`, the terminal flow waits for it on the screen. Peak memory is
# `Maximum resident set size` from GNU time (/usr/bin/time -v). HARNESS_OUTPUT_LIMIT is passed
# through when set.
set -euo pipefail
cd "$(dirname "$0")/.."

bytes=1073741824
build=1
while [[ $# -gt 0 ]]; do
    case "$1" in
        --bytes) bytes="$2"; shift 2 ;;
        --no-build) build=0; shift ;;
        *) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
[[ -x /usr/bin/time ]] || { echo "memory-limits.sh: needs GNU time (/usr/bin/time)" >&2; exit 2; }
if [[ $build -eq 1 ]]; then
    swift build -c release --product harness >&2
fi
harness="$PWD/.build/release/harness"

work="$(mktemp -d "${TMPDIR:-/tmp}/memory-limits.XXXXXX")"
trap 'rm -rf "$work"' EXIT
program="head -c $bytes /dev/zero | tr '\\\\0' a; echo; echo done"
printf 'app sh -c "%s"\nlaunch pipes\nstdout contains "done"\nexit 0\n' "$program" > "$work/pipe.flow"
printf 'app sh -c "%s"\nlaunch\nexpect "done"\n' "$program" > "$work/terminal.flow"

printf '%-9s %12s %14s %10s  %s\n' session bytes "peak RSS (MB)" seconds result
for flow in pipe terminal; do
    (cd "$work" && /usr/bin/time -v -o "$work/$flow.time" "$harness" run "$flow.flow" --jobs 1 --timeout 60m \
        > "$work/$flow.out" 2>&1) && result=passed || result="failed (see below)"
    peak=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$work/$flow.time")
    elapsed=$(awk -F': ' '/Elapsed \(wall clock\)/ { print $2 }' "$work/$flow.time")
    seconds=$(echo "$elapsed" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.1f", s }')
    printf '%-9s %12s %14s %10s  %s\n' "$flow" "$bytes" "$peak" "$seconds" "$result"
    [[ $result == passed ]] || cat "$work/$flow.out"
done
