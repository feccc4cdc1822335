#!/usr/bin/env bash
# Checks, end to end, what a failing test leaves behind: runs the tests that fail on purpose
# (Tests/HarnessTests/DeliberateFailureTests.swift and DeliberateFailureXCTests.swift, skipped
# unless HARNESS_DELIBERATE_FAILURES=1) with `swift test --attachments-path DIR` and checks that
#   - each failing Swift Testing test's screen (text, SVG and PNG) and recording are attached,
#     so DIR holds <TestFile>.<test>.screen.txt, .screen.svg, .screen.png (a PNG that decodes)
#     and .recording.cast;
#   - $HARNESS_ARTIFACTS/<TestFile>/<test>/ holds the same, for the XCTest test too;
#   - a plain `#expect` failure inside `TerminalApp.with` is enough (nothing throws);
#   - a failure that stops the test (FailureReporter.failAndStop, as a failed step) is
#     reported once, at its own line;
#   - a failed wait in TerminalApp.with, TerminalSession.withSession and PipedApp.with, and a
#     bare one outside any of them, is reported once, at the wait's line (not as a caught error
#     at the test's), and the session's screen and recording (the piped app's output) are
#     attached and kept;
#   - `harness swift-test` on two flows run through FlowCases (one failing) shows two cases in
#     JUnit and in the report, the failing one with its own timeline;
#   - without the variable the same tests are skipped and pass.
#
#   Scripts/attachments-check.sh [--no-build]
#
#   --no-build  do not build first (`swift build --build-tests`)
#
# Exits 0 when every check holds; otherwise prints what is missing and the tests' output.
set -uo pipefail
cd "$(dirname "$0")/.."

build=1
case "${1:-}" in
    --no-build) build=0 ;;
    "") ;;
    *) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
if [[ $build -eq 1 ]]; then
    swift build --build-tests || exit 2
fi

work=$(mktemp -d /tmp/attachments-check.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/attachments"   # swift test refuses an --attachments-path that does not exist

HARNESS_DELIBERATE_FAILURES=1 HARNESS_ARTIFACTS="$work/artifacts" \
    swift test --skip-build --filter DeliberateFailure --skip aFlowCase --attachments-path "$work/attachments" > "$work/output" 2>&1
status=$?

problems=()
problem() { problems+=("$1"); }
# The screen (text, SVG, PNG) and the recording a failed test attached.
check_attached() {  # TEST
    local file
    for file in screen.txt screen.svg screen.png recording.cast; do
        [[ -s "$work/attachments/DeliberateFailureTests.$1.$file" ]] \
            || problem "--attachments-path holds no DeliberateFailureTests.$1.$file"
    done
}

[[ $status -ne 0 ]] || problem "the deliberately failing tests passed (swift test exited 0)"
for test in aFailedExpectationInsideWith aStoppedStep aFailedStep; do
    check_attached "$test"
    for file in screen.txt screen.svg screen.png recording.cast; do
        [[ -s "$work/artifacts/DeliberateFailureTests/$test/$file" ]] \
            || problem "HARNESS_ARTIFACTS holds no DeliberateFailureTests/$test/$file"
    done
    grep -q 'deliberate screen' "$work/attachments/DeliberateFailureTests.$test.screen.txt" 2>/dev/null \
        || problem "the attached screen of $test does not show the app's line"
    grep -q "Test $test() failed after .* with 1 issue" "$work/output" \
        || problem "$test() did not fail with exactly 1 issue"
done
python3 Scripts/picture-check.py png "$work/attachments/DeliberateFailureTests.aFailedStep.screen.png" >/dev/null \
    || problem "the attached screen.png of aFailedStep is not a valid PNG"
xctest="$work/artifacts/DeliberateFailureXCTests/testAFailedAssertionInsideWith"
grep -q 'deliberate screen' "$xctest/screen.txt" 2>/dev/null || problem "HARNESS_ARTIFACTS holds no screen.txt for the XCTest test"
[[ -s "$xctest/recording.cast" ]] || problem "HARNESS_ARTIFACTS holds no recording.cast for the XCTest test"
[[ $(grep -c 'Test aStoppedStep() recorded an issue' "$work/output") -eq 1 ]] \
    || problem "the stopped test's failure was not reported exactly once"
grep -q 'Test aStoppedStep() recorded an issue at DeliberateFailureTests.swift:4242:' "$work/output" \
    || problem "the stopped test's failure is not reported at its own line (4242)"

[[ $(grep -c 'Test aFailedStep() recorded an issue' "$work/output") -eq 1 ]] \
    || problem "the failed step was not reported exactly once"
step_line=$(grep -n 'AppStep(.type("x"), expect: .noText("deliberate"))' Tests/HarnessTests/DeliberateFailureTests.swift | cut -d: -f1)
grep -q "Test aFailedStep() recorded an issue at DeliberateFailureTests.swift:$step_line:" "$work/output" \
    || problem "the failed step is not reported at its own line ($step_line)"
grep -q 'expect-not "deliberate": the screen shows it' "$work/output" \
    || problem "the failed step's message is not the step engine's"
ls "$work/artifacts/swift-tests/"*DeliberateFailureTests-aFailedStep*.json > /dev/null 2>&1 \
    || problem "HARNESS_ARTIFACTS holds no trace (swift-tests/*DeliberateFailureTests-aFailedStep*.json)"
grep -q 'expect-not \\"deliberate\\"' "$work/artifacts/swift-tests/"*DeliberateFailureTests-aFailedStep*.json 2>/dev/null \
    || problem "the trace of the failed step's test does not hold the step"
# A plain #expect that failed inside a traced `with`: its trace holds the waits and says the test failed.
grep -q 'the test recorded a failure while the app was open' "$work/artifacts/swift-tests/"*DeliberateFailureTests-aFailedExpectationInsideWith*.json 2>/dev/null \
    || problem "the trace of the test whose #expect failed does not say it failed"

# A failed wait: one issue, at the line marked "the failed wait", and no "Caught error".
for test in aFailedWait aFailedSessionWait aFailedPipedWait aFailedBareWait; do
    wait_line=$(grep -n "the failed wait of $test\$" Tests/HarnessTests/DeliberateFailureTests.swift | cut -d: -f1)
    [[ $(grep -c "Test $test() recorded an issue" "$work/output") -eq 1 ]] \
        || problem "$test(): the failed wait was not reported exactly once"
    grep -q "Test $test() recorded an issue at DeliberateFailureTests.swift:$wait_line:" "$work/output" \
        || problem "$test(): the failed wait is not reported at its own line ($wait_line)"
    ! grep -q "Test $test() recorded an issue.*Caught error" "$work/output" \
        || problem "$test(): the failed wait is reported as a caught error"
done
check_attached aFailedSessionWait
check_attached aFailedWait
grep -q 'deliberate screen' "$work/attachments/DeliberateFailureTests.aFailedSessionWait.screen.txt" 2>/dev/null \
    || problem "the attached screen of aFailedSessionWait does not show the program's line"
# (What the piped program wrote may not be read yet when its 1 ms wait fails: the files must
# be there, not hold it.)
for file in stdout.txt stderr.txt status.txt; do
    [[ -e "$work/attachments/DeliberateFailureTests.aFailedPipedWait.$file" ]] \
        || problem "--attachments-path holds no DeliberateFailureTests.aFailedPipedWait.$file"
done
grep -q 'the app still ran' "$work/artifacts/DeliberateFailureTests/aFailedPipedWait/status.txt" 2>/dev/null \
    || problem "HARNESS_ARTIFACTS holds no DeliberateFailureTests/aFailedPipedWait/status.txt saying the app still ran"

# Two flows through FlowCases under harness swift-test: two cases, the failing one with its timeline.
harness="$(swift build --show-bin-path)/harness"
HARNESS_DELIBERATE_FAILURES=1 "$harness" swift-test --artifacts "$work/swift-test" --junit "$work/swift-test.xml" \
    -- --skip-build --filter 'DeliberateFailureTests/aFlowCase' > "$work/swift-test-output" 2>&1
[[ $? -eq 1 ]] || problem "harness swift-test of the flow cases did not exit 1 (one flow fails): $(tail -n 3 "$work/swift-test-output")"
for flow in passes fails; do
    grep -q "name=\"aFlowCase(_:) \[DeliberateFlows/$flow.flow\]\"" "$work/swift-test.xml" 2>/dev/null \
        || problem "harness swift-test's JUnit has no case for DeliberateFlows/$flow.flow"
done
[[ $(grep -c '<testcase ' "$work/swift-test.xml" 2>/dev/null) -eq 2 ]] || problem "harness swift-test's JUnit does not hold exactly two cases"
grep -q 'type="TestFailure"' "$work/swift-test.xml" 2>/dev/null || problem "harness swift-test's JUnit failure is not a TestFailure"
python3 - "$work/swift-test/results.json" <<'PYTHON' || problem "harness swift-test's report does not show the two flow cases, the failing one with its timeline"
import json, sys
report = json.load(open(sys.argv[1]))
flows = {flow["path"].rsplit("[", 1)[-1]: flow for flow in report["flows"]}
assert sorted(flows) == ["DeliberateFlows/fails.flow]", "DeliberateFlows/passes.flow]"], flows.keys()
failed = flows["DeliberateFlows/fails.flow]"]
assert failed["status"] == "failed" and flows["DeliberateFlows/passes.flow]"]["status"] == "passed"
steps = failed["attempts"][-1]["trace"]["steps"]
assert any(step["result"] == "failed" and "never printed" in step["text"] for step in steps), steps
assert report["caseKind"] == "tests" and report["title"] == "Swift tests"
PYTHON
grep -q '<h2>Tests</h2>' "$work/swift-test/index.html" 2>/dev/null || problem "harness swift-test's report page does not say Tests"

if ! env -u HARNESS_DELIBERATE_FAILURES swift test --skip-build --filter DeliberateFailure > "$work/skipped" 2>&1; then
    problem "without HARNESS_DELIBERATE_FAILURES the deliberate tests did not pass (skipped):"
    cat "$work/skipped" >&2
fi

if [[ ${#problems[@]} -gt 0 ]]; then
    printf 'attachments-check: %s\n' "${problems[@]}" >&2
    echo "--- the deliberately failing tests' output:" >&2
    cat "$work/output" >&2
    echo "--- attachments: $(ls "$work/attachments" | tr '\n' ' ')" >&2
    exit 1
fi
echo "attachments-check: a failing test's screen, SVG, PNG and recording are attached and kept; a stopped test's failure and a failed wait (in a scope or bare) are reported once, at their own line; harness swift-test shows each flow case with its timeline"
