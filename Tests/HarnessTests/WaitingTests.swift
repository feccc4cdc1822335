import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessCore
import TerminalEmulator

@Suite(.serialized) struct WaitingTests {
    @Test func exitWhileWaitingFailsAtOnceWithStatusAndScreen() async throws {
        let session = try TerminalSession.launch(shell("echo bye; exit 3"))
        defer { session.terminate() }
        // The timeout is far longer than the test: only failing at exit ends this wait.
        let error = await caughtError { try await session.waitFor(text: "never shown", timeout: .seconds(600)) }
        guard case TerminalSessionError.exitedWhileWaiting(let failure, let status)? = error else {
            Issue.record("expected exitedWhileWaiting, got \(String(describing: error))")
            return
        }
        #expect(failure.awaited == "text \"never shown\"")
        #expect(status == .exited(3))
        #expect(failure.screen.framed().contains("│bye "))
        #expect("\(error!)".contains("exited with code 3"))
    }

    @Test func aConditionMetByTheFinalScreenSucceedsAfterExit() async throws {
        let session = try TerminalSession.launch(shell("echo done"))
        defer { session.terminate() }
        #expect(try await session.waitForExit() == .exited(0))
        let screen = try await session.waitFor(text: "done")
        #expect(screen.line(0) == "done")
        let error = await caughtError { try await session.waitFor(text: "other") }
        guard case TerminalSessionError.exitedWhileWaiting? = error else {
            Issue.record("expected exitedWhileWaiting, got \(String(describing: error))")
            return
        }
    }

    @Test func timeoutShowsWhatWasAwaitedTheFramedScreenAndLastBytes() async throws {
        let session = try TerminalSession.launch(shell("printf 'visible\\033[1m!\\n'; read x"))
        defer { session.terminate() }
        try await session.waitFor(text: "visible")
        let error = await caughtError { try await session.waitFor(text: "absent", timeout: .milliseconds(150)) }
        guard case TerminalSessionError.timeout(let failure)? = error else {
            Issue.record("expected a timeout, got \(String(describing: error))")
            return
        }
        #expect(failure.awaited == "text \"absent\"")
        #expect(failure.limit == .milliseconds(150))
        #expect(failure.screen.framed() == session.screen.framed())
        #expect(failure.screen.framed().hasPrefix("┌" + String(repeating: "─", count: 80) + "┐"))
        #expect(failure.lastBytes.contains("visible\\e[1m!\\r\\n"))
        let message = "\(error!)"
        #expect(message.contains("Timed out after 150 ms waiting for text \"absent\""))
        #expect(message.contains("│visible!" + String(repeating: " ", count: 72) + "│"))
        #expect(message.contains("Last bytes received: visible\\e[1m!\\r\\n"))
    }

    @Test func regexWaitMatchesAndAnInvalidPatternIsAnError() async throws {
        let session = try TerminalSession.launch(shell("echo 'total: 42 items'; read x"))
        defer { session.terminate() }
        let screen = try await session.waitFor(regex: #"^total: \d+ items$"#)
        #expect(screen.contains("42"))
        let error = await caughtError { try await session.waitFor(regex: "([unclosed") }
        guard case TerminalSessionError.invalidRegex(let pattern, _)? = error else {
            Issue.record("expected invalidRegex, got \(String(describing: error))")
            return
        }
        #expect(pattern == "([unclosed")
    }

    @Test func predicateWaitReturnsTheScreenThatSatisfiedIt() async throws {
        let session = try TerminalSession.launch(.init(executable: "cat", environment: testEnvironment))
        defer { session.terminate() }
        // The line shows twice: the terminal's echo, then cat's copy.
        async let copied = session.waitFor("cat's copy on row 1") { $0.line(1) == "first" }
        try session.type("first\r")
        let screen = try await copied
        #expect(screen.lines.prefix(2) == ["first", "first"])
    }

    @Test func cancellingTheTaskEndsTheWait() async throws {
        let session = try TerminalSession.launch(shell("read x"))
        defer { session.terminate() }
        let waiting = Task { try await session.waitFor(text: "never", timeout: .seconds(600)) }
        waiting.cancel()
        let error = await caughtError { try await waiting.value }
        #expect(error is CancellationError)
    }

    @Test func manyConcurrentWaitsAllResolve() async throws {
        let session = try TerminalSession.launch(.init(executable: "cat", environment: testEnvironment))
        defer { session.terminate() }
        try await withThrowingTaskGroup(of: ScreenSnapshot.self) { group in
            for index in 0..<20 {
                group.addTask { try await session.waitFor(text: "word\(index)") }
            }
            for index in 0..<20 { try session.type("word\(index) ") }
            var count = 0
            for try await _ in group { count += 1 }
            #expect(count == 20)
        }
    }

    @Test func waitUntilStableWaitsForOutputToStop() async throws {
        // The program prints a line, waits for the test, then prints 3,000 more and "end"
        // without pausing (shell builtins only: no fork, no sleep), so the only quiet period
        // after the wait starts is the one after "end", however slow the machine.
        let session = try TerminalSession.launch(shell(
            "echo tick0; read go; i=1; while [ $i -le 3000 ]; do echo tick$i; i=$((i+1)); done; echo end; read x"))
        defer { session.terminate() }
        try await session.waitFor(text: "tick0")
        let stable = Task { try await session.waitUntilStable(quietFor: .seconds(1)) }
        try session.type("\r")
        let screen = try await stable.value
        #expect(screen.contains("end"))
        #expect(screen == session.screen)
    }

    @Test func waitUntilStableTimesOutWhileOutputContinues() async throws {
        let session = try TerminalSession.launch(shell("while :; do echo x; sleep 0.01; done"))
        defer { session.terminate() }
        try await session.waitFor(text: "x")
        let error = await caughtError { try await session.waitUntilStable(quietFor: .seconds(5), timeout: .milliseconds(300)) }
        guard case TerminalSessionError.timeout(let failure)? = error else {
            Issue.record("expected a timeout, got \(String(describing: error))")
            return
        }
        #expect(failure.awaited == "the screen to be stable for 5 s")
    }

    @Test func waitForExitTimesOutWhileTheProgramRuns() async throws {
        let session = try TerminalSession.launch(shell("read x"))
        defer { session.terminate() }
        let error = await caughtError { try await session.waitForExit(timeout: .milliseconds(100)) }
        guard case TerminalSessionError.timeout(let failure)? = error else {
            Issue.record("expected a timeout, got \(String(describing: error))")
            return
        }
        #expect(failure.awaited == "the program to exit")
        #expect(session.exitStatus == nil)
    }

    @Test func recordingHoldsOutputAndInputWithIncreasingTimes() async throws {
        let session = try TerminalSession.launch(.init(executable: "cat", environment: testEnvironment))
        defer { session.terminate() }
        try session.type("ping")
        try await session.waitFor(text: "ping")
        try session.press(.enter, .ctrl("d"))
        try await session.waitForExit()
        let recording = session.recording
        #expect(recording.size == .standard)
        #expect(recording.term == "xterm-256color")
        #expect(recording.events.first { $0.kind == .input }?.bytes == Array("ping".utf8))
        #expect(String(decoding: recording.outputBytes, as: UTF8.self).contains("ping"))
        let times = recording.events.map(\.time)
        #expect(times == times.sorted())
        #expect(recording.asciicast().contains(", \"o\", \"ping"))
    }
}
