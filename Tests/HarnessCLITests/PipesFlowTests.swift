import Foundation
import Testing
@testable import Harness

/// Flows that run their program with pipes: input from the `stdin` line, stdout and stderr
/// checked apart, the exit status. Each check is run once against a program that satisfies it
/// and once against one that does not, so none of them can pass a broken program.
@Suite struct PipesFlowTests {
    @Test func sortReadsTheInputAndItsOutputIsChecked() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write("apple\nfig\npear\n", at: "expected/sorted.txt")
        let outcome = try await fixture.run(#"""
            app sort
            env LC_ALL=C
            stdin "pear\napple\nfig\n"
            launch pipes
            stdout equals expected/sorted.txt
            stdout contains "fig"
            stdout matches /^apple$/
            stderr empty
            exit 0
            """#)
        #expect(outcome == .passed)
    }

    @Test func theInputCanComeFromAFile() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write("one\ntwo\nthree\n", at: "fixtures/lines.txt")
        let outcome = try await fixture.run("""
            app wc -l
            stdin file fixtures/lines.txt
            launch pipes
            stdout matches /^\\s*3$/
            exit 0
            """)
        #expect(outcome == .passed)
    }

    @Test func stdoutAndStderrAreKeptApart() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run("""
            app sh -c "echo to-out; echo to-err >&2; exit 3"
            launch pipes
            stdout contains "to-out"
            stderr contains "to-err"
            exit 3
            """)
        #expect(outcome == .passed)
        let mixed = try await fixture.run("""
            app sh -c "echo to-out; echo to-err >&2"
            launch pipes
            stdout contains "to-err"
            """)
        let failed = try #require(failure(of: mixed))
        #expect(failed.message.hasPrefix(#"stdout contains "to-err": stdout does not contain it"#))
        #expect(failed.message.contains("to-out"))
    }

    /// Each check against output that breaks it: the failure names the line, says what is wrong
    /// and shows the end of the stream.
    static let brokenCases: [(check: String, line: String, message: String)] = [
        (#"stdout contains "banana""#, "5", #"stdout contains "banana": stdout does not contain it"#),
        (#"stdout matches /^banana$/"#, "5", "stdout matches /^banana$/: stdout does not match it"),
        ("stdout empty", "5", "stdout empty: stdout is not empty"),
        (#"stderr contains "apple""#, "5", #"stderr contains "apple": stderr does not contain it"#),
        ("stdout equals expected/wrong.txt", "5", "stdout equals expected/wrong.txt: stdout differs from expected/wrong.txt"),
        ("exit 1", "5", "exit 1: the program exited with code 0 (status 0), expected status 1"),
    ]

    @Test(arguments: brokenCases)
    func aCheckTheOutputBreaksFails(check: String, line: String, message: String) async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write("apple\nfig\n", at: "expected/wrong.txt")
        let outcome = try await fixture.run("""
            app sort
            env LC_ALL=C
            stdin "pear\\napple\\nfig\\n"
            launch pipes
            \(check)
            """)
        let failed = try #require(failure(of: outcome))
        #expect(failed.position?.line == Int(line))
        #expect(failed.message.hasPrefix(message), "\(failed.message)")
    }

    @Test func aProgramThatNeverExitsFailsWithWhatItPrinted() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        // The program prints, then waits for input that never comes on an open pipe of its own.
        let outcome = try await fixture.run("""
            app sh -c "echo started; exec sleep 600"
            launch pipes
            stdout contains "started"
            """, options: testOptions(timeout: .milliseconds(500)))
        let failed = try #require(failure(of: outcome))
        #expect(failed.message.contains("the program did not exit within 500ms"), "\(failed.message)")
        #expect(failed.message.contains("started"))
    }

    @Test func aFailedPipesRunLeavesBothStreamsAsArtifacts() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let artifacts = fixture.folder + "/artifacts"
        let outcome = try await fixture.run("""
            app sh -c "echo out-line; echo err-line >&2; exit 4"
            launch pipes
            exit 0
            """, options: testOptions(artifacts: artifacts))
        let failed = try #require(failure(of: outcome))
        #expect(failed.message.contains("exited with code 4"))
        #expect(failed.message.contains("err-line"))
        let stdout = try String(contentsOfFile: artifacts + "/t.stdout.txt", encoding: .utf8)
        let stderr = try String(contentsOfFile: artifacts + "/t.stderr.txt", encoding: .utf8)
        #expect(stdout == "out-line\n")
        #expect(stderr == "err-line\n")
    }

    @Test func streamSnapshotsAreRecordedThenCompared() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let source = """
            app sh -c "printf 'b\\na\\n' | sort"
            env LC_ALL=C
            launch pipes
            stdout snapshot sorted
            """
        // No reference and record mode `never`: a failure, not a silent pass.
        let missing = try await fixture.run(source, options: testOptions(record: .never))
        #expect(failure(of: missing) != nil)
        // Recorded as the exact bytes (the recording run fails, asking to check it), then compared.
        let recording = try await fixture.run(source, options: testOptions(record: .missing))
        #expect(failure(of: recording)?.message.contains("recorded it") == true)
        let reference = fixture.folder + "/__Snapshots__/t/t.sorted.txt"
        #expect(try String(contentsOfFile: reference, encoding: .utf8) == "a\nb\n")
        #expect(try await fixture.run(source) == .passed)
        // A program whose output changed fails with a diff.
        try fixture.write("a\nc\n", at: "__Snapshots__/t/t.sorted.txt")
        let changed = try await fixture.run(source)
        let failed = try #require(failure(of: changed))
        #expect(failed.message.contains("-c"), "\(failed.message)")
        #expect(failed.message.contains("+b"), "\(failed.message)")
    }

    @Test func terminalCommandsAreParseErrorsInAPipesRun() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        #expect(throws: (any Error).self) {
            try fixture.script("app sort\nlaunch pipes\nexpect \"a\"\n")
        }
    }
}
