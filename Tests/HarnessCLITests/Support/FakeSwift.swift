import Foundation
import TestSupport

/// A stand-in for `swift` that `harness swift-test --swift` runs instead of a real (and, nested
/// in `swift test`, deadlocking) `swift test`. It knows two commands:
///
/// - `swift test list`: prints `tests.txt` of its folder (one name a line) after a build line,
///   and with `--event-stream-output-path` writes a test record with its tags for each line
///   `NAME TAG,TAG` of `tags.txt`;
/// - `swift test ... --filter R... --xunit-output F --event-stream-output-path E`: runs each
///   listed test that one of the patterns matches as SwiftPM would: a Swift Testing name
///   (ending in `)`) is matched with its source location after it (`NAME/Fake.swift:LINE:2`),
///   an XCTest name as it is (and only with `--parallel` does it get an xUnit file). A name
///   holding `Fails` fails at `Tests/FakeTests/Fake.swift:LINE:9`, one holding `Skipped` is
///   skipped, the others pass. It writes `F-swift-testing.xml` (and `F` for XCTest), the
///   event stream in `E`, appends every test it ran to `ran.txt`, and appends its arguments'
///   count and `HARNESS_ARTIFACTS` to `calls.txt`, and its `TMPDIR` to `tmpdirs.txt`.
///
/// The patterns are POSIX extended regular expressions here (bash's `=~`), which is why the
/// command's patterns use nothing beyond them.
struct FakeSwift {
    let folder: TemporaryDirectory
    /// The fake `swift`.
    var executable: String { folder.path + "/swift" }
    /// The package folder to give `--package-path`.
    var package: String { folder.path + "/package" }

    init(tests: [String]) throws {
        folder = try TemporaryDirectory(prefix: "fake-swift")
        try folder.write(Self.script, at: "swift", executable: true)
        try folder.write("// swift-tools-version:6.0\n", at: "package/Package.swift")
        try folder.write(tests.map { $0 + "\n" }.joined(), at: "tests.txt")
    }

    /// Every test name the fake ran, once per run.
    func ran() throws -> [String] {
        let path = folder.path + "/ran.txt"
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// One line per `swift test` run: `ARGUMENT-COUNT HARNESS_ARTIFACTS`.
    func calls() throws -> [String] {
        let path = folder.path + "/calls.txt"
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    func remove() { folder.remove() }

    static let script = #"""
        #!/usr/bin/env bash
        set -u
        here=$(cd "$(dirname "$0")" && pwd)
        [ "${1:-}" = test ] || { echo "fake swift: only 'swift test' is known" >&2; exit 64; }
        shift
        if [ "${1:-}" = list ]; then
            echo "Building for debugging..."
            cat "$here/tests.txt"
            # With an event stream: a test record per line of tags.txt (`NAME TAG,TAG`), its tags as `.TAG`.
            while [ $# -gt 0 ]; do
                if [ "$1" = --event-stream-output-path ] && [ -f "$here/tags.txt" ]; then
                    while read -r name tags; do
                        printf '{"kind":"test","payload":{"id":"%s","kind":"function","_tags":[".%s"]}}\n' "$name" "${tags//,/\",\".}"
                    done < "$here/tags.txt" > "$2"
                fi
                shift
            done
            exit 0
        fi
        filters=() xunit="" events="" parallel=0 count=$#
        while [ $# -gt 0 ]; do
            case "$1" in
                --filter) filters+=("$2"); shift ;;
                --xunit-output) xunit=$2; shift ;;
                --event-stream-output-path) events=$2; shift ;;
                --event-stream-version) shift ;;
                --parallel) parallel=1 ;;
            esac
            shift
        done
        echo "$count ${HARNESS_ARTIFACTS:-unset}" >> "$here/calls.txt"
        echo "${TMPDIR:-unset}" >> "$here/tmpdirs.txt"
        xml() { local t=${1//&/&amp;}; t=${t//</&lt;}; t=${t//>/&gt;}; printf '%s' "${t//\"/&quot;}"; }
        json() { local t=${1//\\/\\\\}; printf '%s' "${t//\"/\\\"}"; }
        st="" xc="" failed=0 line=0
        : > "$events"
        while IFS= read -r name; do
            line=$((line + 1))
            subject=$name
            case "$name" in *")") subject="$name/Fake.swift:$line:2" ;; esac
            selected=0
            for re in "${filters[@]}"; do
                if [[ $subject =~ $re ]]; then selected=1; break; fi
            done
            [ $selected = 1 ] || continue
            case "$name" in *")") ;; *) [ $parallel = 1 ] || { echo "$name" >> "$here/ran.txt"; continue; } ;; esac
            echo "$name" >> "$here/ran.txt"
            type=${name%/*}; type=${type//\//.}; test=${name##*/}
            if [ "$type" = "$name" ]; then type=${name%%.*}; test=${name#*.}; fi
            body=" />"
            case "$name" in
                *Fails*) body="><failure message=\"Expectation failed (error)\" /></testcase>"; failed=1 ;;
                *Skipped*) body="><skipped>not here</skipped></testcase>" ;;
            esac
            entry="<testcase classname=\"$(xml "$type")\" name=\"$(xml "$test")\" time=\"0.25\"$body"
            case "$name" in
                *")")
                    st+="$entry"$'\n'
                    id="$(json "$name")/Fake.swift:$line:2"
                    echo "{\"kind\":\"test\",\"payload\":{\"id\":\"$id\",\"kind\":\"function\",\"name\":\"$(json "$test")\",\"sourceLocation\":{\"_filePath\":\"$PWD/Tests/FakeTests/Fake.swift\",\"column\":2,\"fileID\":\"FakeTests/Fake.swift\",\"line\":$line}},\"version\":0}" >> "$events"
                    case "$name" in *Fails*)
                        echo "{\"kind\":\"event\",\"payload\":{\"kind\":\"issueRecorded\",\"issue\":{\"isKnown\":false,\"sourceLocation\":{\"_filePath\":\"$PWD/Tests/FakeTests/Fake.swift\",\"column\":9,\"fileID\":\"FakeTests/Fake.swift\",\"line\":$line}},\"messages\":[{\"symbol\":\"fail\",\"text\":\"Expectation failed: it fails\"}],\"testID\":\"$id\"},\"version\":0}" >> "$events" ;;
                    esac ;;
                *) xc+="$entry"$'\n' ;;
            esac
        done < "$here/tests.txt"
        printf '<testsuites>\n<testsuite name="TestResults">\n%s</testsuite>\n</testsuites>\n' "$st" > "${xunit%.xml}-swift-testing.xml"
        if [ $parallel = 1 ]; then
            printf '<testsuites>\n<testsuite name="TestResults">\n%s</testsuite>\n</testsuites>\n' "$xc" > "$xunit"
        fi
        exit $failed
        """#
}
