#!/usr/bin/env bash
# Runs the whole test suite once under strace and fails when the test process closed a
# descriptor that was not open (close → EBADF).
#
#   Scripts/closes.sh [--no-build] [--stacks] [--keep FILE] [-- swift-testing arguments]
#
#   --no-build  do not build first (`swift build --build-tests`)
#   --stacks    record a stack with every close (strace -k; slower) and print it for each
#               bad close and for the close before it of the same number
#   --keep      where the trace is written (default: a temporary file, removed on success)
#
# Why: a descriptor closed twice is a bug that usually shows as EBADF and nothing else, but
# when another thread was given the same number in between, the second close takes that
# thread's pipe or socket away. That is how the suite was once killed by SIGPIPE, one run in
# many. The bad close shows as EBADF in almost every run, so one traced run finds it.
# Closes in the programs the tests start (sh, tmux, python3...) are not counted: only the
# test process's own threads. When strace itself fails (it once could not resume a program
# a test's shell had started, PTRACE_LISTEN: EIO, and gave up, taking the test process with
# it), the run says nothing about the tests: its trace is still checked, and the suite is
# traced once more. (strace's -b execve, which would let those programs go, cannot be used
# with --seccomp-bpf, and without it a traced run on a loaded machine takes 3-4 times longer.)
# Exits 0 only when no such close was found and every test passed (a traced run is also a
# loaded run: a test that fails under the tracer depends on timing).
set -uo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
build=1
stacks=0
keep=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --no-build) build=0; shift ;;
        --stacks) stacks=1; shift ;;
        --keep) keep=${2:?--keep needs a value}; shift 2 ;;
        --) shift; break ;;
        *) usage ;;
    esac
done

command -v strace >/dev/null || { echo "closes.sh: strace is not installed (apt-get install strace)" >&2; exit 2; }
if [[ $build -eq 1 ]]; then
    swift build --build-tests || exit 2
fi
binary=$(swift build --show-bin-path)/TerminalHarnessPackageTests.xctest
[[ -x "$binary" ]] || { echo "closes.sh: $binary is not built (run without --no-build)" >&2; exit 2; }

trace=${keep:-$(mktemp /tmp/closes-trace.XXXXXX)}
output=$(mktemp /tmp/closes-output.XXXXXX)
trap 'rm -f "$output"' EXIT
stack_args=()
[[ $stacks -eq 1 ]] && stack_args=(-k)

check_trace() {  # TRACE -> 0 when the test process closed no descriptor that was not open
python3 - "$1" <<'EOF'
import re, sys

# strace -f -o: "PID syscall(...) = result", a call split in two by another thread's call
# ("<unfinished ...>" then "<... close resumed>"), and with -k stack lines " > frame".
record = re.compile(r'^(\d+)\s+(.*)$')
lines = open(sys.argv[1], errors='replace').read().split('\n')
if not lines[0].strip():
    sys.exit("closes.sh: the trace is empty: the test process did not start under strace")
test_process = lines[0].split()[0]
process_of = {test_process: test_process}   # thread or process id -> its process
pending = {}                                # id -> the first half of an unfinished call
last_close = {}                             # (process, fd) -> (line number, text, stack)
bad = []
current = None                              # the record stack lines belong to

def finish(entry):
    pid, call, index = entry['pid'], entry['call'], entry['index']
    spawned = re.match(r'(clone3?|vfork|fork)\(', call)
    result = re.search(r'= (-?\d+)', call)
    if spawned and result and int(result.group(1)) > 0:
        child = result.group(1)
        thread = 'CLONE_THREAD' in call
        process_of[child] = process_of.get(pid, pid) if thread else child
        return
    close = re.match(r'close\((-?\d+)\)', call)
    if not close or process_of.get(pid) != test_process:
        return
    fd = close.group(1)
    key = (test_process, fd)
    if 'EBADF' in call:
        bad.append((entry, last_close.get(key)))
    elif result and result.group(1) == '0':
        last_close[key] = entry

for index, line in enumerate(lines, 1):
    if line.startswith(' > '):
        if current is not None:
            current['stack'].append(line)
        continue
    match = record.match(line)
    if not match:
        continue
    pid, rest = match.groups()
    current = None
    if rest.endswith('<unfinished ...>'):
        pending[pid] = rest[:-len('<unfinished ...>')]
        continue
    if rest.startswith('<... '):
        head = pending.pop(pid, '')
        rest = head + rest.split('resumed>', 1)[-1]
    entry = {'pid': pid, 'call': rest, 'index': index, 'stack': []}
    current = entry
    finish(entry)

# Stacks arrive after the record they belong to, so the report is printed at the end.
for entry, previous in bad:
    print(f"bad close: thread {entry['pid']}: {entry['call']}  (trace line {entry['index']})")
    for frame in entry['stack'][:25]:
        print('   ', frame.strip())
    if previous:
        print(f"  closed before by thread {previous['pid']}: {previous['call']}  (trace line {previous['index']})")
        for frame in previous['stack'][:25]:
            print('   ', frame.strip())
    else:
        print("  no earlier successful close of that number in the trace")
print(f"closes.sh: {len(bad)} close(s) of a descriptor that was not open, in the test process")
sys.exit(1 if bad else 0)
EOF
}

# A traced run that goes on for 10 minutes (it takes about half a minute on a quiet machine) is
# stopped, described (Scripts/ci-step.sh: each thread's state and kernel wait channel) and counted
# as a failure of the tracer, like strace's own failures below: it is traced once more.
deadline=${CLOSES_DEADLINE:-600}
diagnostics=${CI_DIAGNOSTICS:-$(mktemp /tmp/closes-diagnostics.XXXXXX)}
for attempt in 1 2; do
    CI_DIAGNOSTICS=$diagnostics Scripts/ci-step.sh "$deadline" strace -f -qq --seccomp-bpf "${stack_args[@]}" -o "$trace" \
        -e trace=close,clone,clone3,fork,vfork \
        "$binary" --testing-library swift-testing "$@" > "$output" 2>&1
    status=$?
    if [[ $status -eq 124 ]]; then
        [[ -z "${CI_DIAGNOSTICS:-}" ]] && cut -c1-200 "$diagnostics" | head -150 >&2
        echo "closes.sh: the traced run was stopped after ${deadline}s; the last calls it traced:" >&2
        tail -40 "$trace" | cut -c1-200 >&2
        echo "closes.sh: the test output's last lines:" >&2
        tail -20 "$output" | cut -c1-200 >&2
        if [[ $attempt -eq 1 ]]; then
            echo "closes.sh: tracing the suite once more" >&2
            continue
        fi
    fi
    if [[ $status -ne 0 ]]; then
        grep -a -E "recorded an issue|unexpected signal|error:" -A8 "$output" | head -200
    fi
    tail -1 "$output"
    check_trace "$trace"
    verdict=$?
    tracer_failure=$(grep -a -m1 '^strace: ' "$output")
    if [[ $attempt -eq 1 && $status -ne 0 && $verdict -eq 0 && -n "$tracer_failure" ]]; then
        echo "closes.sh: strace itself failed ($tracer_failure); this run says nothing about the tests, tracing them once more" >&2
        continue
    fi
    break
done
if [[ $status -ne 0 ]]; then
    trap - EXIT
    echo "closes.sh: the traced test run failed (exit $status); its output: $output" >&2
fi
[[ -z "${CI_DIAGNOSTICS:-}" ]] && rm -f "$diagnostics"
if [[ $verdict -eq 0 && $status -eq 0 && -z "$keep" ]]; then rm -f "$trace"; else echo "trace: $trace"; fi
[[ $verdict -eq 0 && $status -eq 0 ]]
