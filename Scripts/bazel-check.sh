#!/usr/bin/env bash
# docs/NIGHTLY.md's Bazel recipe with a real Bazel (Debian's bazel-bootstrap, offline): the
# workspace in Tests/Bazel runs the bundled third-party flows and one flow that fails on purpose
# as an sh_test with shard_count = 3, each shard `harness run ... --shard auto`. Checked:
#   - Bazel runs 3 shards and the test fails (exit 3), in one shard only: the one holding the
#     failing flow, whose test.xml has that flow as its only failure; the other two pass;
#   - every shard touched TEST_SHARD_STATUS_FILE and wrote its JUnit to XML_OUTPUT_FILE and its
#     report to TEST_UNDECLARED_OUTPUTS_DIR;
#   - the 3 test.xml files merge (`harness merge-junit`) into one report holding every flow
#     `harness run --list` finds, once, and the 3 reports merge (`harness merge-reports`).
# Bazel's output root is .build-bazel/root (removed at the end); the merged reports stay in
# .build-bazel/report. Bazel runs in --batch mode: no server is left behind.
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
rm -rf "$out/root" "$out/report"
mkdir -p "$out/report"
started=$SECONDS

fail() { echo "bazel-check: $*" >&2; exit 1; }
bazel_() { (cd Tests/Bazel && bazel --output_user_root="$out/root" --batch "$@"); }
cleanup() {
    bazel_ clean --expunge >/dev/null 2>&1 || true
    chmod -R u+w "$out/root" 2>/dev/null || true
    rm -rf "$out/root"
}
trap cleanup EXIT

# --symlink_prefix=/: no bazel-* links in the source tree.
status=0
bazel_ test //:flows_test --test_env=HARNESS="$harness" --symlink_prefix=/ --test_output=errors \
    > "$out/report/bazel.log" 2>&1 || status=$?
[[ $status -eq 3 ]] || { tail -n 40 "$out/report/bazel.log" >&2; fail "bazel test exited $status; expected 3 (tests failed): one shard fails"; }
testlogs=$(bazel_ info --symlink_prefix=/ bazel-testlogs 2>/dev/null)

# Every flow the shards must run between them, named as in the runfiles tree.
expected=$( (cd Tests/Flows && "$harness" run third-party --list | sed 's|^|external/bundled_flows/|'
             cd ../Bazel && "$harness" run flows --list) | sort)
failing=flows/deliberately-failing.flow

failed_shards=0
for i in 1 2 3; do
    shard=$testlogs/flows_test/shard_${i}_of_3
    [[ -f $shard/test.xml ]] || fail "shard $i: no test.xml"
    [[ -f $shard/test.shard ]] || fail "shard $i: TEST_SHARD_STATUS_FILE was not touched"
    # TEST_UNDECLARED_OUTPUTS_DIR, zipped by Bazel: the shard's folder for merge-reports.
    [[ -f $shard/test.outputs/outputs.zip ]] || fail "shard $i: nothing in TEST_UNDECLARED_OUTPUTS_DIR"
    python3 -m zipfile -e "$shard/test.outputs/outputs.zip" "$out/report/shard-$i"
    [[ -f $out/report/shard-$i/index.html && -f $out/report/shard-$i/results.json ]] \
        || fail "shard $i: no report in TEST_UNDECLARED_OUTPUTS_DIR"
    grep -q "Running [0-9]* flows* on [0-9]* workers*, shard $i/3" "$shard/test.log" || fail "shard $i did not run shard $i/3"
    failures=$(grep -c '<failure ' "$shard/test.xml" || true)
    if grep -q "file=\"$failing\"" "$shard/test.xml"; then
        [[ $failures -eq 1 ]] || fail "shard $i: $failures failures; expected only $failing"
        failed_shards=$((failed_shards + 1))
    else
        [[ $failures -eq 0 ]] || fail "shard $i: $failures failures without $failing"
    fi
    cp "$shard/test.xml" "$out/report/shard-$i.xml"
done
[[ $failed_shards -eq 1 ]] || fail "$failed_shards shards ran $failing; expected 1"
grep -q "FAILED in 1 out of 3" "$out/report/bazel.log" || fail "Bazel does not say 1 of 3 shards failed"

"$harness" merge-junit "$out/report/junit.xml" "$out/report"/shard-?.xml
merged=$(grep -o 'file="[^"]*"' "$out/report/junit.xml" | sed 's/^file="//; s/"$//' | sort)
[[ $merged == "$expected" ]] || fail "the merged JUnit's flows differ from --list's: $(diff <(echo "$expected") <(echo "$merged"))"
"$harness" merge-reports "$out/report/merged" "$out/report"/shard-? > "$out/report/merge-reports.log"
cat "$out/report/merge-reports.log"
count=$(echo "$expected" | wc -l)
grep -q "^Merged 3 reports: [0-9]* passed, 1 failed" "$out/report/merge-reports.log" || fail "merge-reports does not show the one failure"
echo "bazel-check: OK in $((SECONDS - started)) s: 3 shards of $count flows, $failing failed its shard only (reports in .build-bazel/report)"
