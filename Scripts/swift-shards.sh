#!/usr/bin/env bash
# The nightly recipe of docs/NIGHTLY.md ("Swift suites"), on this project: the todo app's Swift
# acceptance suite as 3 shards of `harness swift-test` and the bundled flows as 2 shards of
# `harness run`, merged by `harness merge-reports`; the merged report must hold the same tests
# with the same totals as an unsharded run of the same tests (and as many Swift tests as
# `swift test list` names). Exit 1 on a mismatch, with both reports left in .build/swift-shards.
#
#   Scripts/swift-shards.sh              builds the tests first (swift build --build-tests)
#   Scripts/swift-shards.sh --no-build   uses the last build (as .ci/run does, after swift test)
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
    --no-build) ;;
    "") swift build --build-tests ;;
    *) echo "usage: Scripts/swift-shards.sh [--no-build]" >&2; exit 64 ;;
esac
harness="$(swift build --show-bin-path)/harness"
out=.build/swift-shards
rm -rf "$out"
mkdir -p "$out"
# The suite, as `swift test --filter` and harness swift-test's `-- --filter` read it.
suite='^TodoAcceptanceTests\.TodoAcceptanceTests/'

# Runs "$@" with its output in $out/NAME.log; a failed test (exit 1) is data, anything else stops.
step() {
    local name=$1
    shift
    local status=0
    "$@" > "$out/$name.log" 2>&1 || status=$?
    if [ "$status" -gt 1 ]; then
        echo "swift-shards: $name exited with $status:" >&2
        tail -n 30 "$out/$name.log" >&2
        exit 1
    fi
    echo "  $name: $(tail -n 1 "$out/$name.log")"
}

# The merge's totals (`Merged N reports: 40 passed, 0 failed`) and every test's name.
summary() { sed -n 's/^Merged [0-9]* reports*: //p' "$out/$1.log"; }
names() { grep -o 'file="[^"]*"' "$out/$1/junit.xml" | sort; }

seconds=$SECONDS
echo "Sharded: 3 Swift shards, 2 flow shards"
for i in 1 2 3; do
    step "swift-$i" "$harness" swift-test --shard "$i/3" --artifacts "$out/swift-$i" -- --skip-build --filter "$suite"
done
for i in 1 2; do
    step "flows-$i" "$harness" run Tests/Flows --shard "$i/2" --artifacts "$out/flows-$i"
done
step sharded "$harness" merge-reports "$out/sharded" "$out/swift-1" "$out/swift-2" "$out/swift-3" "$out/flows-1" "$out/flows-2"
# The merge proves the run whole from the shards' plans: without Swift shard 3 it must fail,
# naming that shard, and write nothing.
lost_status=0
"$harness" merge-reports "$out/lost" "$out/swift-1" "$out/swift-2" "$out/flows-1" "$out/flows-2" > "$out/lost.log" 2>&1 || lost_status=$?
sharded_seconds=$((SECONDS - seconds))

seconds=$SECONDS
echo "Unsharded: the same tests in one run each"
step swift-all "$harness" swift-test --artifacts "$out/swift-all" -- --skip-build --filter "$suite"
step flows-all "$harness" run Tests/Flows --artifacts "$out/flows-all"
step whole "$harness" merge-reports "$out/whole" "$out/swift-all" "$out/flows-all"
whole_seconds=$((SECONDS - seconds))

listed=$(swift test list --skip-build 2> /dev/null | grep -cE "$suite" || true)
# A parameterized test's cases are cases of their own (`test(_:) [ARGUMENTS]`): count their tests.
ran=$({ grep -o 'file="TodoAcceptanceTests\.TodoAcceptanceTests/[^"]*"' "$out/sharded/junit.xml" || true; } | sed 's/ \[.*"$/"/' | sort -u | wc -l)
echo "Sharded ${sharded_seconds}s: $(summary sharded)"
echo "Unsharded ${whole_seconds}s: $(summary whole)"
echo "Swift tests listed: $listed, in the merged shards: $ran"

status=0
if [ -z "$(summary sharded)" ] || [ "$(summary sharded)" != "$(summary whole)" ]; then
    echo "swift-shards: the merged shards' totals differ from the unsharded run's" >&2
    status=1
fi
if ! diff <(names sharded) <(names whole) > "$out/names.diff"; then
    echo "swift-shards: the merged shards do not hold the same tests as the unsharded run:" >&2
    cat "$out/names.diff" >&2
    status=1
fi
if [ "$listed" -eq 0 ] || [ "$listed" != "$ran" ]; then
    echo "swift-shards: swift test list names $listed tests of the suite, the shards ran $ran" >&2
    status=1
fi
if [ "$lost_status" != 1 ] || ! grep -q "harness swift-test suite .*: shard 3/3 is missing" "$out/lost.log" || [ -e "$out/lost" ]; then
    echo "swift-shards: a merge without Swift shard 3 did not fail naming it (exit $lost_status):" >&2
    cat "$out/lost.log" >&2
    status=1
else
    echo "A merge without Swift shard 3 fails: $(grep -o 'shard 3/3 is missing[^:]*' "$out/lost.log" | head -1)"
fi
# The Swift tests that run steps carry the steps' trace in the merged report, as flows do.
traced=$(python3 - "$out/sharded/results.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
print(sum(1 for flow in report["flows"]
          if flow["path"].startswith("TodoAcceptanceTests.") and (flow["attempts"][-1].get("trace") or {}).get("steps")))
PY
)
echo "Swift tests with a step trace in the merged report: $traced"
if [ "${traced:-0}" -lt 10 ]; then
    echo "swift-shards: only ${traced:-0} Swift tests carry their steps' trace in the merged report" >&2
    status=1
fi
[ "$status" = 0 ] && echo "swift-shards: OK (reports in $out/sharded and $out/whole)"
exit "$status"
