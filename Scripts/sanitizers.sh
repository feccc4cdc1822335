#!/usr/bin/env bash
# Builds the tests with a sanitizer in a scratch folder of its own and runs the whole suite
# under it; exits non-zero on any failed test or any sanitizer report (docs/RELIABILITY.md,
# "Sanitizers").
#
#   Scripts/sanitizers.sh thread|address [--filter REGEX] [--log FILE]
#
#   thread    ThreadSanitizer: data races and deadlocks (the package's one lock,
#             `Locked`, is a pthread mutex, which TSan models)
#   address   AddressSanitizer: use after free, overflows, double frees (leak checking off: the
#             Swift runtime keeps metadata caches for the life of the process)
#   --filter  passed to swift test
#   --log     where the run's output goes (default: .build-<sanitizer>/sanitizer.log)
set -uo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[[ $# -ge 1 ]] || usage
sanitizer=$1; shift
case "$sanitizer" in thread|address) ;; *) usage ;; esac
filter=()
scratch=".build-$sanitizer"
log="$scratch/sanitizer.log"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --filter) filter=(--filter "${2:?--filter needs a value}"); shift 2 ;;
        --log) log=${2:?--log needs a value}; shift 2 ;;
        *) usage ;;
    esac
done

# A report fails the run: TSan exits 66 when it reported anything; ASan stops at the first.
export TSAN_OPTIONS="exitcode=66 second_deadlock_stack=1 history_size=4 ${TSAN_OPTIONS:-}"
export ASAN_OPTIONS="detect_leaks=0 abort_on_error=0 ${ASAN_OPTIONS:-}"

swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch" || exit 1
mkdir -p "$(dirname "$log")"
start=$(date +%s)
swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" "${filter[@]}" > "$log" 2>&1
status=$?
elapsed=$(( $(date +%s) - start ))
reports=$(grep -c -E "^WARNING: ThreadSanitizer|^==[0-9]+==ERROR: AddressSanitizer" "$log")
summary=$(grep -E "^(✔|✘|━) Test run with" "$log" | tail -1)
echo "sanitizers.sh $sanitizer: exit $status, $reports report(s), ${elapsed}s: $summary"
if [[ $status -ne 0 ]]; then
    grep -a -E "recorded an issue|unexpected signal|Fatal error" "$log" | grep -v "known issue" | cut -c1-300 | head -30
fi
if [[ $reports -gt 0 ]]; then
    grep -n -A30 -E "^WARNING: ThreadSanitizer|^==[0-9]+==ERROR: AddressSanitizer" "$log" | head -200
fi
[[ $status -eq 0 && $reports -eq 0 ]]
