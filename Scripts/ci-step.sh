#!/usr/bin/env bash
# Runs one CI step with a deadline and keeps a line of what it took.
#
#   Scripts/ci-step.sh SECONDS COMMAND [ARGS...]
#
#   CI_STEPS_LOG     file the line "SECONDS STATUS COMMAND" is appended to (default: none)
#   CI_DIAGNOSTICS   file a hung step's diagnostics are appended to (default: standard error)
#
# Why: a step that hangs takes the whole CI budget with it and leaves nothing to read (that is
# how one CI run ended: it ran out of its 90 minutes somewhere after the sharded run, and
# what it printed last said nothing of where). A step that runs past its deadline is stopped;
# before that, the processes it started are described (state, kernel wait channel, each
# thread of a test process, and its stacks when gdb can attach), then the step and every
# process it started are killed and the step fails with status 124. The deadline is a guard
# against hangs, many times what the step takes on a loaded machine: it never decides a pass.
set -uo pipefail

limit=${1:?usage: ci-step.sh SECONDS COMMAND [ARGS...]}
shift
[[ $# -gt 0 ]] || { echo "usage: ci-step.sh SECONDS COMMAND [ARGS...]" >&2; exit 2; }
diagnostics=${CI_DIAGNOSTICS:-/dev/stderr}

descendants() {  # PID -> PID and every process below it, one a line (one listing of all)
    ps -eo pid=,ppid= | awk -v root="$1" '
        { parent[$1] = $2 }
        END { for (p in parent) { q = p; while (q != root && (q in parent) && q > 1) q = parent[q]; if (q == root) print p } }'
}

describe() {  # PIDS... -> what each process and each thread of a test process is doing
    local pid task
    echo "== ci-step: '$*' is still running after ${limit}s; its processes:"
    ps -o pid,ppid,pgid,stat,wchan:28,etimes,args -p "$(echo "${processes[@]}" | tr ' ' ,)" 2>/dev/null | cut -c1-220
    for pid in "${processes[@]}"; do
        [[ -r /proc/$pid/cmdline ]] || continue
        case "$(basename "$(readlink "/proc/$pid/exe" 2>/dev/null)")" in
            *.xctest|harness|swift-test|swift-build|swift-run) ;;
            *) continue ;;
        esac
        echo "-- threads of $pid ($(tr '\0' ' ' < "/proc/$pid/cmdline" | cut -c1-120)):"
        for task in /proc/"$pid"/task/*; do
            printf '   %s %s %s wchan=%s syscall=%s\n' "${task##*/}" \
                "$(cut -d' ' -f2-3 "$task/stat" 2>/dev/null)" "$(cat "$task/comm" 2>/dev/null)" \
                "$(cat "$task/wchan" 2>/dev/null)" "$(cut -d' ' -f1 "$task/syscall" 2>/dev/null)"
        done
        if command -v gdb >/dev/null && [[ "$(awk '/^TracerPid/ {print $2}' "/proc/$pid/status")" == 0 ]]; then
            timeout 60 gdb -p "$pid" -batch -nx -ex 'set pagination off' -ex 'thread apply all bt 12' 2>/dev/null \
                | grep -E '^(Thread|#)' | cut -c1-200 | head -400
        fi
    done
}

flag=$(mktemp /tmp/ci-step.XXXXXX)
rm -f "$flag"
start=$SECONDS
set -m   # the step runs in a process group of its own, so that it can be stopped whole
"$@" &
step=$!
set +m   # the watchdog stays in this script's group
(
    { sleep "$limit" & wait $!; } 2>/dev/null   # no "Killed" report when the step ends first
    : > "$flag"
    mapfile -t processes < <(descendants "$step")
    describe "$@" >> "$diagnostics" 2>&1
    # Stop the tree before killing it, listing it again until nothing new appears: a process
    # that started a child between the listing and the kill (the harness's own children leave
    # the process group with setsid) would leave that child running.
    stopped=()
    while mapfile -t processes < <(descendants "$step"); [[ ${#processes[@]} -gt ${#stopped[@]} ]]; do
        for pid in "${processes[@]}"; do kill -STOP "$pid" 2>/dev/null; done
        stopped=("${processes[@]}")
    done
    for pid in "${stopped[@]}"; do kill -KILL "$pid" 2>/dev/null; done
    kill -KILL -- -"$step" 2>/dev/null
    echo "ci-step: stopped '$*' after ${limit}s (diagnostics above or in ${CI_DIAGNOSTICS:-standard error})" >&2
) &
watchdog=$!
# `wait` also returns when the step is only stopped (the watchdog stops it before the kill).
while wait "$step"; status=$?; [[ -d /proc/$step && "$(awk '{print $3}' "/proc/$step/stat" 2>/dev/null)" != Z ]]; do :; done
if [[ -e $flag ]]; then
    { wait "$watchdog"; } 2>/dev/null   # let it finish its kills
    status=124
    rm -f "$flag"
else
    pkill -KILL -P "$watchdog" 2>/dev/null
    kill -KILL "$watchdog" 2>/dev/null
    { wait "$watchdog"; } 2>/dev/null
fi
[[ -n "${CI_STEPS_LOG:-}" ]] && printf '%5ds  exit %3d  %s\n' "$((SECONDS - start))" "$status" "$*" >> "$CI_STEPS_LOG"
exit "$status"
