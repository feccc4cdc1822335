import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessCore
import HarnessSystem

/// The sessions' timeouts carry the package's one timeout payload: a test catches them as
/// `any WaitTimeoutCarrying` and reads what was awaited, for how long, and what was seen last.
/// Their other errors carry none.
@Suite(.timeLimit(.minutes(10))) struct WaitTimeoutCarryingTests {
    @Test func aTerminalSessionTimeoutCarriesWhatItAwaitedAndTheLastRowsOfTheScreen() async throws {
        let session = try TerminalSession.launch(shell("printf 'first\\nsecond\\nthird\\nfourth\\n'; exec sleep 1000"))
        defer { session.terminate() }
        try await session.waitFor(text: "fourth")
        do {
            _ = try await examiningFailures { try await session.waitFor(text: "never shown", timeout: .milliseconds(50)) }
            Issue.record("the wait did not time out")
        } catch let error as any WaitTimeoutCarrying {
            let timeout = try #require(error.waitTimeout)
            #expect(timeout.awaited == #"text "never shown""#)
            #expect(timeout.timeout == .milliseconds(50))
            #expect(timeout.lastSeen == "screen: second / third / fourth")
            #expect(error is TerminalSessionError)
        }
    }

    @Test func aPipedSessionTimeoutCarriesTheExitAsAwaitedAndTheTailsOfBothOutputs() async throws {
        let watcher = OutputWatcher()
        var configuration = piped("sh", ["-c", "printf partial; printf oops >&2; exec sleep 1000"])
        configuration.onOutput = watcher.handler
        let session = try PipedSession.launch(configuration)
        defer { session.terminate() }
        try await watcher.wait(for: "partial", in: .standardOutput)
        try await watcher.wait(for: "oops", in: .standardError)
        do {
            _ = try await examiningFailures { try await session.waitForExit(timeout: .milliseconds(50)) }
            Issue.record("the wait did not time out")
        } catch let error as any WaitTimeoutCarrying {
            let timeout = try #require(error.waitTimeout)
            #expect(timeout.awaited == "\(session.executablePath) to exit")
            #expect(timeout.timeout == .milliseconds(50))
            #expect(timeout.lastSeen == "stdout (7 bytes): partial; stderr (4 bytes): oops")
        }
    }

    @Test func otherSessionErrorsCarryNoTimeout() async throws {
        let session = try TerminalSession.launch(shell("exit 3"))
        #expect(try await session.waitForExit() == .exited(3))
        let exited = await caughtError { try await session.waitFor(text: "never") }
        session.terminate()
        let terminated = await caughtError { try session.type("x") }
        let missing = await caughtError { try PipedSession.launch(piped("/no/such/program")) }
        for error in [exited, terminated, missing] {
            let carrying = try #require(error as? any WaitTimeoutCarrying, "\(String(describing: error))")
            #expect(carrying.waitTimeout == nil, "\(carrying)")
        }
    }
}
