import Foundation
import Testing
import Harness
import HarnessCore
@testable import HarnessFlows
@testable import HarnessSteps
import TestSupport

/// Failures that say what happened: the scrollback near-miss, an area partly off the screen,
/// a pipes check with stderr and the status; and `--trace on` keeping every recording.
@Suite struct HonestFailureFlowTests {
    /// `expect` for a line that scrolled off before the last match says where it is.
    @Test func aLineThatScrolledOffBeforeTheLastMatchIsNamedInTheScrollback() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let failed = try #require(failure(of: try await fixture.run("""
            app sh -c "echo alpha; seq 100 160; exec cat"
            launch
            expect "160"
            timeout 100ms
            expect "alpha"
            """)))
        #expect(failed.summary.contains("Timed out after 100 ms waiting for text \"alpha\"; the scrollback has it, printed before the last match or input"))
        #expect(failed.summary.hasSuffix("scrolled-off line 1 of 39, 39 lines above the screen."))

        // The same wait in Swift's steps (the one engine) and a text nowhere at all: no such note.
        let nowhere = try #require(failure(of: try await fixture.run("""
            app sh -c "echo alpha; seq 100 160; exec cat"
            launch
            expect "160"
            timeout 100ms
            expect /omega/
            """)))
        #expect(!nowhere.summary.contains("scrollback"))
    }

    /// In Swift: the session's near-miss, and its waits' timeouts carrying it.
    @Test func theSwiftWaitSaysItToo() async throws {
        var launch = AppLaunch(executable: "/bin/sh", arguments: ["-c", "echo alpha; seq 100 160; exec cat"])
        launch.defaultTimeout = mustSucceedTimeout
        try await TerminalApp.with(launch) { app in
            try await app.waitFor(text: "160")
            #expect(app.scrollbackNearMiss(text: "alpha") == "the scrollback has it, printed before the last match or input "
                + "(a wait searches only what scrolled off after those): scrolled-off line 1 of 39, 39 lines above the screen")
            #expect(app.scrollbackNearMiss(regex: "^alp") != nil)
            #expect(app.scrollbackNearMiss(text: "omega") == nil)

            // The session's own waits say it when they time out, and only then.
            for wait in [{ try await app.waitFor(text: "alpha", timeout: .milliseconds(100)) },
                         { try await app.waitFor(regex: "^alp", timeout: .milliseconds(100)) }] {
                let error = await #expect(throws: TerminalSessionError.self) { try await wait() }
                #expect(error?.description.contains("; the scrollback has it, printed before the last match or input") == true,
                        "\(String(describing: error))")
            }
            let nowhere = await #expect(throws: TerminalSessionError.self) { try await app.waitFor(text: "omega", timeout: .milliseconds(100)) }
            #expect(nowhere?.description.contains("scrollback") == false, "\(String(describing: nowhere))")
        }
    }

    /// An area partly below the screen is named as such, with the screen's size.
    @Test func anAreaPartlyOutsideTheScreenIsNamed() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let failed = try #require(failure(of: try await fixture.run("""
            app sh -c "echo top; exec cat"
            size 40x10
            launch
            expect "top"
            expect "Saved" in rows 8-14 within 100ms
            """)))
        #expect(failed.summary.contains("(rows 8-14 is partly outside the 40x10 screen: rows 10-14 are below its last row (9))"))
        let screen = try await TerminalApp.with(AppLaunch(executable: "/bin/sh", arguments: ["-c", "echo top; exec cat"])) { app in
            try await app.waitFor(text: "top")
        }
        #expect(ScreenArea.rows(30...40).outsidePart(on: screen) == "rows 30-40 is wholly outside the 80x24 screen: rows 30-40 are below its last row (23)")
        #expect(ScreenArea.rectangle(ScreenRegion(row: -1, col: 70, width: 20, height: 2)).outsidePart(on: screen)
            == "rows -1-0 cols 70-89 is partly outside the 80x24 screen: rows -1--1 are above its first row (0), cols 80-89 are right of its last column (79)")
        #expect(ScreenArea.rows(0...23).outsidePart(on: screen) == nil)
        #expect(ScreenArea.rows(between: "a", and: "b").outsidePart(on: screen) == nil)
    }

    /// A failed `stdout` check shows stderr and the exit status next to stdout.
    @Test func aFailedPipesCheckShowsStderrAndTheStatus() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let failed = try #require(failure(of: try await fixture.run("""
            app sh -c "echo oops >&2; exit 3"
            launch pipes
            stdout contains "done"
            """)))
        #expect(failed.message.contains("stdout does not contain it\nstdout (0 bytes)\nstderr (5 bytes): oops\\n\nthe program exited with code 3 (status 3)"))
    }

    /// `--trace on` keeps the recording of a passed flow; `off` only of failed ones.
    @Test(arguments: [FlowTraceMode.on, .off])
    func traceOnKeepsEveryRecording(mode: FlowTraceMode) async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let artifacts = fixture.folder + "/artifacts"
        var options = testOptions(artifacts: artifacts)
        options.traces = FlowTraceCollector(mode: mode)
        let outcome = try await fixture.run("""
            app sh -c "echo hello; exec cat"
            launch
            expect "hello"
            """, name: "passing.flow", options: options)
        #expect(outcome == .passed)
        let piped = try await fixture.run("""
            app sh -c "echo out; echo err >&2"
            launch pipes
            exit 0
            """, name: "piped.flow", options: options)
        #expect(piped == .passed)
        let cast = artifacts + "/passing.cast"
        #expect(FileManager.default.fileExists(atPath: cast) == (mode == .on))
        if mode == .on {
            #expect(try String(contentsOfFile: cast, encoding: .utf8).contains("hello"))
            #expect(try String(contentsOfFile: artifacts + "/piped.stdout.txt", encoding: .utf8) == "out\n")
            #expect(try String(contentsOfFile: artifacts + "/piped.stderr.txt", encoding: .utf8) == "err\n")
        }
        #expect(options.traces?.traces["passing.flow"]?[1] != nil || mode == .off)
    }
}
