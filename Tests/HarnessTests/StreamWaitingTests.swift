import Foundation
import Testing
import Harness
@testable import HarnessCore
import TerminalEmulator

/// Waits that read what scrolled off and the output stream, on real PTYs. Each program waits
/// for the test (`read`) where order matters, so nothing depends on the scheduler.
@Suite struct StreamWaitingTests {
    // MARK: - Screen waits see what scrolled off

    @Test func aTextWaitFindsALineThatScrolledOffSinceTheInput() async throws {
        let session = try TerminalSession.launch(shell("read go; seq 1 2000; echo end; read done"))
        defer { session.terminate() }
        try session.type("\r")
        // The output wait returns once "end" was printed: "1500" has left the 24-row screen.
        try await session.waitForOutput(text: "end")
        let screen = try await session.waitFor(text: "1500")
        #expect(!screen.lines.contains("1500"))
        #expect(screen.scrollbackLines.contains("1500"))
        // Each match moves the horizon to its own line (the echoed Enter took line 0, so "1500" is line 1500), not to
        // the end of the output, so what follows the match can still be found.
        #expect(session.core.currentScreenHorizon == 1500)
        try await session.waitFor(text: "1501")
        #expect(session.core.currentScreenHorizon == 1501)
    }

    @Test func aTextWaitRegisteredBeforeTheOutputFindsItToo() async throws {
        let session = try TerminalSession.launch(shell("read go; seq 1 2000; read done"))
        defer { session.terminate() }
        // Registered while the program waits for input, so it is pending when the lines scroll.
        let waiter = Task { try await session.waitFor(text: "1234") }
        try session.type("\r")
        let screen = try await waiter.value
        #expect(screen.scrolledOffCount > 0)
    }

    @Test func linesThatScrolledOffBeforeTheLastInputAreNotMatchedAgain() async throws {
        let session = try TerminalSession.launch(shell("seq 1 100; read x; echo next"))
        defer { session.terminate() }
        try await session.waitFor(text: "100")
        try session.type("\r")
        try await session.waitFor(text: "next")
        // "50" scrolled off before the input: only the screen could show it, and it does not.
        let error = await caughtError { try await session.waitFor(text: "50", timeout: .seconds(600)) }
        guard case TerminalSessionError.exitedWhileWaiting? = error else {
            Issue.record("expected exitedWhileWaiting, got \(String(describing: error))")
            return
        }
    }

    @Test func aMatchMovesTheHorizon() async throws {
        let session = try TerminalSession.launch(shell("read go; seq 1 200; echo mark; seq 201 400; echo end"))
        defer { session.terminate() }
        try session.type("\r")
        try await session.waitFor(text: "mark")
        // Since "mark" matched, "150" (above it) is behind the horizon; "350" is not.
        try await session.waitFor(text: "350")
        let error = await caughtError { try await session.waitFor(text: "150", timeout: .seconds(600)) }
        guard case TerminalSessionError.exitedWhileWaiting? = error else {
            Issue.record("expected exitedWhileWaiting, got \(String(describing: error))")
            return
        }
    }

    @Test func aRegexWaitSpansScrolledOffLinesAndTheScreen() async throws {
        let session = try TerminalSession.launch(shell("read go; seq 1 500; read done"))
        defer { session.terminate() }
        try session.type("\r")
        let screen = try await session.waitFor(regex: #"^249\n250$"#)
        #expect(screen.transcript.contains("249\n250"))
        try await session.waitFor(regex: #"^500$"#)
    }

    // MARK: - The output stream

    @Test func anOutputWaitConsumesSoAnOldPromptNeverSatisfiesANewWait() async throws {
        let session = try TerminalSession.launch(shell(#"printf '> '; read a; echo "got $a"; printf '> '; read b"#))
        defer { session.terminate() }
        let first = try await session.waitForOutput(text: "> ")
        #expect(first.before == "")
        #expect(first.range == 0..<2)
        // The program waits for input now, so this wait can only be satisfied by a new prompt.
        let second = Task { try await session.waitForOutput(text: "> ") }
        try session.type("hello\r")
        let match = try await second.value
        #expect(match.before == "hello\ngot hello\n")
        #expect(match.text == "> ")
        #expect(session.outputAfterCursor == "")
    }

    @Test func anOutputRegexReturnsItsGroupsAndItsPlace() async throws {
        let session = try TerminalSession.launch(shell("printf 'total: 42 items\\ndone\\n'; read x"))
        defer { session.terminate() }
        let match = try await session.waitForOutput(regex: #"^total: (\d+) (items|things)$"#)
        #expect(match.text == "total: 42 items")
        #expect(match.groups == ["42", "items"])
        #expect(match.range == 0..<15)
        try await session.waitForOutput(text: "done")
        let error = await caughtError { try await session.waitForOutput(regex: "([unclosed") }
        guard case TerminalSessionError.invalidRegex? = error else {
            Issue.record("expected invalidRegex, got \(String(describing: error))")
            return
        }
    }

    @Test func colorsAndCursorMovesAreNotPartOfTheOutput() async throws {
        let session = try TerminalSession.launch(shell(#"printf '\033[1;31mError\033[m:\033[10Gfile\r\n'; read x"#))
        defer { session.terminate() }
        try await session.waitForOutput(text: "Error:file\n")
    }

    @Test func theOutputOfALongRunIsAllThereInOrder() async throws {
        let session = try TerminalSession.launch(shell("seq 1 3000"))
        defer { session.terminate() }
        #expect(try await session.waitForExit() == .exited(0))
        let expected = (1...3000).map(String.init).joined(separator: "\n") + "\n"
        #expect(session.output == expected)
        try await session.waitForOutput(text: "1\n2\n3\n")
        try await session.waitForOutput(text: "2999\n3000\n")
    }

    @Test func aTimeoutShowsTheOutputAfterTheCursor() async throws {
        let session = try TerminalSession.launch(shell("printf 'first\\nsecond\\n'; read x"))
        defer { session.terminate() }
        try await session.waitForOutput(text: "first\n")
        // Negative on purpose: the program waits for input that never comes.
        let error = await caughtError { try await session.waitForOutput(text: "third", timeout: .milliseconds(200)) }
        guard case TerminalSessionError.timeout(let failure)? = error else {
            Issue.record("expected a timeout, got \(String(describing: error))")
            return
        }
        #expect(failure.awaited == "output \"third\"")
        #expect(failure.output == "second\n")
        #expect("\(error!)".contains("Output since the last output match:\nsecond\n"))
    }

    @Test func anExitBeforeTheOutputFailsAtOnceShowingTheOutput() async throws {
        let session = try TerminalSession.launch(shell("echo bye; exit 4"))
        defer { session.terminate() }
        let error = await caughtError { try await session.waitForOutput(text: "never", timeout: .seconds(600)) }
        guard case TerminalSessionError.exitedWhileWaiting(let failure, let status)? = error else {
            Issue.record("expected exitedWhileWaiting, got \(String(describing: error))")
            return
        }
        #expect(status == .exited(4))
        #expect(failure.output == "bye\n")
    }

    @Test func aFailedWaitNamesTheLineItWasWrittenOn() async throws {
        let session = try TerminalSession.launch(shell("echo bye; read x"))
        defer { session.terminate() }
        try await session.waitForOutput(text: "bye")
        let line = #line + 1
        let timedOut = await caughtError { try await session.waitForOutput(text: "never", timeout: .milliseconds(100)) }
        #expect("\(timedOut!)".hasPrefix("HarnessTests/StreamWaitingTests.swift:\(line): Timed out after 100 ms waiting for output"))
        try session.type("\r")
        let exitLine = #line + 1
        let exited = await caughtError { try await session.waitFor(text: "never", timeout: .seconds(600)) }
        #expect("\(exited!)".hasPrefix("HarnessTests/StreamWaitingTests.swift:\(exitLine): The program exited with code 0"))
    }

    @Test func consumeOutputSkipsWhatWasPrinted() async throws {
        let session = try TerminalSession.launch(shell("echo one; read x; echo two; read y"))
        defer { session.terminate() }
        try await session.waitForOutput(text: "one")
        #expect(session.consumeOutput() == "\n")
        try session.type("\r")
        let match = try await session.waitForOutput(text: "two")
        #expect(match.before == "\n")
    }
}
