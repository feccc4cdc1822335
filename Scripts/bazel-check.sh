#!/usr/bin/env bash
# docs/NIGHTLY.md's Bazel recipe with a real Bazel (Debian's bazel-bootstrap, offline): the
# workspace in Tests/Bazel runs the bundled third-party flows and one flow that fails on purpose
# as an sh_test with shard_count = 3, each shard `harness run ... --shard auto`. Checked:
#   - the test fails (bazel exits 3) in one shard only: the one holding the failing flow, whose
#     test.xml has that flow as its only failure; the other two pass;
#   - every shard touched TEST_SHARD_STATUS_FILE, ran its own shard, and wrote its JUnit to
#     XML_OUTPUT_FILE and its report to TEST_UNDECLARED_OUTPUTS_DIR;
#   - the 3 test.xml files merge (`harness merge-junit`) into one report holding every flow
#     `harness run --list` finds, once, and the 3 reports merge (`harness merge-reports`).
# The commands are the docs' (the Bazel section), in the same order. Bazel's output root is
# .build-bazel/root, removed at the end; the merged reports stay in .build-bazel/report.
# Bazel runs in --batch mode: no server is left behind.
#
#   Scripts/bazel-check.sh              builds harness first (swift build --product harness)
#   Scripts/bazel-check.sh --no-build   uses the last debug build (as .ci/run does)
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
    --no-build) ;;
    "") swift build --product harness ;;
    *) echo "usage: Scripts/bazel-check.sh [--no-build]" >&2; exit 64 ;;
esac
command -v bazel >/dev/null || (apt-get update && apt-get install -y bazel-bootstrap)

root=$PWD
harness="$(swift build --show-bin-path)/harness"
out=$root/.build-bazel
started=$SECONDS

fail() { echo "bazel-check: $*" >&2; exit 1; }
# `bazel` as the docs run it, in Tests/Bazel, with its output root in .build-bazel, no server
# left running and no bazel-* links in the source tree.
bazel() { (cd "$root/Tests/Bazel" && command bazel --output_user_root="$out/root" --batch "$1" --symlink_prefix=/ "${@:2}"); }
cleanup() {
    bazel clean --expunge >/dev/null 2>&1 || true
    chmod -R u+w "$out/root" 2>/dev/null || true
    rm -rf "$out/root"
}
trap cleanup EXIT
chmod -R u+w "$out" 2>/dev/null || true
rm -rf "$out"
mkdir -p "$out/report"
cd "$out/report"

# The docs' commands: 3 shards (exit 3: a test failed, here on purpose), then both merges.
status=0
bazel test //:flows_test --test_env=HARNESS="$harness" || status=$?
testlogs=$(bazel info bazel-testlogs)
"$harness" merge-junit junit.xml "$testlogs"/flows_test/shard_*_of_3/test.xml
for i in 1 2 3; do
    python3 -m zipfile -e "$testlogs/flows_test/shard_${i}_of_3/test.outputs/outputs.zip" shard-$i
done
"$harness" merge-reports report shard-1 shard-2 shard-3 | tee merge-reports.log

[[ $status -eq 3 ]] || fail "bazel test exited $status; expected 3 (tests failed): one shard fails"
# Every flow the shards must run between them, named as in the runfiles tree.
expected=$( (cd "$root/Tests/Flows" && "$harness" run third-party --list | sed 's|^|external/bundled_flows/|'
             cd "$root/Tests/Bazel" && "$harness" run flows --list) | sort)
count=$(echo "$expected" | wc -l)
failing=flows/deliberately-failing.flow
failed_shards=0
for i in 1 2 3; do
    shard=$testlogs/flows_test/shard_${i}_of_3
    [[ -f $shard/test.shard ]] || fail "shard $i: TEST_SHARD_STATUS_FILE was not touched"
    grep -q "^Running [0-9]* flows* on [0-9]* workers*, shard $i/3" "$shard/test.log" || fail "shard $i did not run shard $i/3"
    [[ -f shard-$i/index.html && -f shard-$i/results.json ]] || fail "shard $i: no report in TEST_UNDECLARED_OUTPUTS_DIR"
    failures=$(grep -c '<failure ' "$shard/test.xml" || true)
    if grep -q "file=\"$failing\"" "$shard/test.xml"; then
        [[ $failures -eq 1 ]] || fail "shard $i: $failures failures; expected only $failing"
        failed_shards=$((failed_shards + 1))
    else
        [[ $failures -eq 0 ]] || fail "shard $i: $failures failures without $failing"
    fi
done
[[ $failed_shards -eq 1 ]] || fail "$failed_shards shards ran $failing; expected 1"
merged=$(grep -o 'file="[^"]*"' junit.xml | sed 's/^file="//; s/"$//' | sort)
[[ $merged == "$expected" ]] || fail "the merged JUnit's flows differ from --list's: $(diff <(echo "$expected") <(echo "$merged"))"
grep -q "^Merged 3 reports: [0-9]* passed, 1 failed" merge-reports.log || fail "merge-reports does not show the one failure"
echo "bazel-check: OK in $((SECONDS - started)) s: 3 shards of $count flows, $failing failed its shard only (reports in .build-bazel/report)"
