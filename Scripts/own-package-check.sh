#!/usr/bin/env bash
# Checks README.md's "Use it in your own package" the way a user meets it: makes a package of
# one's own in a temporary folder, builds it against this clone and runs its tests with
# `swift test --attachments-path DIR`. The package's manifest and its first test are the
# section's two Swift blocks as written (only the `.package(url: ...)` line becomes a path to
# this clone); its executable `greeter` links HarnessHost (it greets the name a stub server
# serves when the test gives it a network). Beside the README's test, one test per kind fails
# on purpose: a wait in TerminalSession.withSession, in TerminalApp.with, in PipedApp.with and in
# no scope, a `server.verify` and an `assertSnapshot`. It checks that
#   - the manifest resolves and the package builds (`swift build --build-tests`), and the
#     README's test passes (`BuildProducts.executable(named:)` finds the executable);
#   - each failing test records one issue, at the line of its wait, verify or assertSnapshot
#     (not at its @Test line, not as a "Caught error");
#   - DIR holds each terminal test's screen (text, SVG, PNG) and recording, and the piped
#     test's stdout.txt, stderr.txt and status.txt.
#
#   Scripts/own-package-check.sh [--scratch-path DIR]
#
#   --scratch-path DIR  make the package and build it in DIR, and keep the build, so that a
#                       second run builds only what changed (by default both are in a
#                       temporary folder, removed)
#
# Exits 0 when every check holds; 1 when one does not (saying which, then the tests' output);
# 2 when the package cannot be made from the README or does not build.
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

usage() { sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
work=$(mktemp -d /tmp/own-package-check.XXXXXX)
trap 'rm -rf "$work"' EXIT
# Where the package and its build go: the same paths each time, or SwiftPM rebuilds it all.
root=$work
case "${1:-}" in
    --scratch-path) [[ -n "${2:-}" && -z "${3:-}" ]] || usage
                    mkdir -p "$2" && root=$(cd "$2" && pwd) ;;
    "") ;;
    *) usage ;;
esac

fail() { echo "own-package-check: $1" >&2; exit 2; }

# The section's Swift blocks: the manifest first, then the test.
section='Use it in your own package'
block() {
    awk -v section="## $section" -v wanted="$1" '
        $0 == section { inside = 1; next }
        inside && /^## / { exit }
        inside && !open && /^```swift$/ { open = 1; count++; next }
        open && /^```$/ { open = 0; next }
        open && count == wanted { print }
    ' README.md
}
manifest=$(block 1)
readme_test=$(block 2)
[[ -n "$manifest" && -n "$readme_test" ]] || fail "README.md's \"$section\" has no manifest and test (two \`\`\`swift blocks)"

# A path dependency's identity is its folder's name: the package is reached as TerminalHarness,
# the name the README's URL gives it, whatever this clone is called.
ln -sfn "$repo" "$root/TerminalHarness"
package="$root/Greeter"
rm -rf "$package"
mkdir -p "$package/Sources/greeter" "$package/Tests/GreeterTests/__Snapshots__/GreeterFailureTests" "$work/attachments"
url_line='^( *)\.package\(url: "[^"]*/TerminalHarness\.git", branch: "main"\),$'
grep -Eq "$url_line" <<< "$manifest" || fail "the README's manifest has no line .package(url: \".../TerminalHarness.git\", branch: \"main\"),"
sed -E "s|$url_line|\\1.package(path: \"../TerminalHarness\"),|" <<< "$manifest" > "$package/Package.swift"
printf '%s\n' "$readme_test" > "$package/Tests/GreeterTests/ReadmeTests.swift"
readme_test_name=$(sed -nE 's/^@Test func ([A-Za-z_]+)\(.*/\1/p' <<< "$readme_test" | head -1)
[[ -n "$readme_test_name" ]] || fail "the README's test block has no @Test func"

cat > "$package/Sources/greeter/main.swift" <<'SWIFT'
// Greets NAME (or, given a network by the harness, the name its /name answers), then each line
// typed, until the end of its input; with --stay it stays after the greeting, reading nothing.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HarnessHost

func say(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }

let launch = try HarnessHost.start(appName: "greeter")
let arguments = Array(launch.remainingArguments.dropFirst())
if arguments.first == "--help" {
    say("Usage: greeter [NAME] [--stay]")
    exit(0)
}
var name = arguments.first { !$0.hasPrefix("--") } ?? "World"
if let network = launch.options?.networkBaseURL {
    name = (try? String(contentsOf: network.appendingPathComponent("name"), encoding: .utf8)) ?? "nobody"
}
say("Hello, \(name)!")
while arguments.contains("--stay") { pause() }
while let line = readLine() { say("Hello, \(line)!") }
SWIFT

# One failing test per kind; the line each must be reported at ends with "// fails here".
cat > "$package/Tests/GreeterTests/GreeterFailureTests.swift" <<'SWIFT'
import Foundation
import Harness
import Stubs
import Testing

let size = TerminalSize(cols: 30, rows: 4)

func greeter(_ arguments: String...) throws -> AppLaunch {
    var launch = AppLaunch(executable: try BuildProducts.executable(named: "greeter").path, arguments: arguments)
    launch.size = size
    return launch
}

@Test func aFailedSessionWait() async throws {
    let configuration = TerminalSession.Configuration(executable: try BuildProducts.executable(named: "greeter").path, size: size)
    try await TerminalSession.withSession(configuration) { session in
        try await session.waitFor(text: "Hello, World!")
        try await session.waitFor(text: "Goodbye", timeout: .milliseconds(100))  // fails here
    }
}

@Test func aFailedAppWait() async throws {
    try await TerminalApp.with(try greeter()) { app in
        try await app.waitFor(text: "Hello, World!")
        try await app.waitFor(text: "Goodbye", timeout: .milliseconds(100))  // fails here
    }
}

@Test func aFailedPipedWait() async throws {
    try await PipedApp.with(try greeter("--stay")) { app in
        try await app.session.waitForExit(timeout: .milliseconds(100))  // fails here
    }
}

@Test func aFailedBareWait() async throws {
    let session = try TerminalSession.launch(.init(executable: try BuildProducts.executable(named: "greeter").path, size: size))
    defer { session.terminate() }
    try await session.waitFor(text: "Goodbye", timeout: .milliseconds(100))  // fails here
}

@Test func aFailedVerify() async throws {
    let server = try StubServer()
    defer { server.stop() }
    try server.stub(.get("/name"), .text("Bo"))
    var launch = try greeter()
    launch.network = server.baseURL
    try await TerminalApp.with(launch) { app in
        try await app.waitFor(text: "Hello, Bo!")
        try server.verify(.post("/name"))  // fails here
    }
}

@Test func aFailedSnapshot() async throws {
    try await TerminalApp.with(try greeter()) { app in
        try await app.waitFor(text: "Hello, World!")
        assertSnapshot(of: app.screen, as: .screen(), named: "greeting")  // fails here
    }
}
SWIFT
# The reference the snapshot test compares with: the screen of another greeting.
cat > "$package/Tests/GreeterTests/__Snapshots__/GreeterFailureTests/aFailedSnapshot.greeting.txt" <<'TEXT'
┌──────────────────────────────┐
│Hello, Bo!                    │
│                              │
│                              │
│                              │
└──────────────────────────────┘
cursor: row 1, col 0, visible
TEXT
failing_tests=(aFailedSessionWait aFailedAppWait aFailedPipedWait aFailedBareWait aFailedVerify aFailedSnapshot)
terminal_tests=(aFailedSessionWait aFailedAppWait aFailedVerify aFailedSnapshot)

cd "$package"
start=$SECONDS
if ! swift build --build-tests --scratch-path "$root/build" > "$work/build-output" 2>&1; then
    cat "$work/build-output" >&2
    fail "the package made from README.md's \"$section\" does not build (above: swift build --build-tests)"
fi
build_seconds=$((SECONDS - start))
swift test --skip-build --scratch-path "$root/build" --attachments-path "$work/attachments" > "$work/output" 2>&1
status=$?

problems=()
problem() { problems+=("$1"); }

[[ $status -ne 0 ]] || problem "the deliberately failing tests passed (swift test exited 0)"
grep -q "Test $readme_test_name() passed" "$work/output" || problem "the README's test $readme_test_name() did not pass"
for test in "${failing_tests[@]}"; do
    line=$(grep -n "" Tests/GreeterTests/GreeterFailureTests.swift \
        | awk -F: -v test="$test" '$0 ~ "func " test "\\(" { inside = 1 } inside && /\/\/ fails here$/ { print $1; exit }')
    [[ $(grep -c "Test $test() recorded an issue" "$work/output") -eq 1 ]] \
        || problem "$test(): not exactly one issue recorded"
    grep -q "Test $test() recorded an issue at GreeterFailureTests.swift:$line:" "$work/output" \
        || problem "$test(): the issue is not recorded at the failing line ($line)"
    ! grep -q "Test $test() recorded an issue.*Caught error" "$work/output" \
        || problem "$test(): the failure is recorded as a caught error"
done
for test in "${terminal_tests[@]}"; do
    for file in screen.txt screen.svg screen.png recording.cast; do
        [[ -s "$work/attachments/GreeterFailureTests.$test.$file" ]] \
            || problem "--attachments-path holds no GreeterFailureTests.$test.$file"
    done
    grep -q 'Hello, ' "$work/attachments/GreeterFailureTests.$test.screen.txt" 2>/dev/null \
        || problem "the attached screen of $test() does not show the greeting"
done
python3 "$repo/Scripts/picture-check.py" png "$work/attachments/GreeterFailureTests.aFailedAppWait.screen.png" > /dev/null 2>&1 \
    || problem "the attached screen.png of aFailedAppWait() is not a valid PNG"
# (What the piped program wrote may not be read yet when its wait fails: the files must be there.)
for file in stdout.txt stderr.txt status.txt; do
    [[ -e "$work/attachments/GreeterFailureTests.aFailedPipedWait.$file" ]] \
        || problem "--attachments-path holds no GreeterFailureTests.aFailedPipedWait.$file"
done

if [[ ${#problems[@]} -eq 0 ]]; then
    echo "own-package-check: the README's package builds (${build_seconds} s) and its test passes; in it a failed wait (withSession, TerminalApp, PipedApp, bare), verify and assertSnapshot each record one issue at their own line and leave their screen and recording (the piped output) under --attachments-path"
    exit 0
fi
{
    printf 'own-package-check: %s\n' "${problems[@]}"
    echo "--- the package's tests' output:"
    cat "$work/output"
    echo "--- attachments: $(ls "$work/attachments" | tr '\n' ' ')"
} >&2
exit 1
