import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessCore

/// A regex wait ends at its timeout however its pattern backtracks: `(a*)*b` against rows of
/// `a` takes time exponential in a row's length (for 80 columns, far more than any test
/// has), and the matching gives up at the wait's deadline, so the wait fails with its
/// ordinary timeout error. Without the deadline the event loop would be stuck in the match and
/// the wait would not end before the suite's time limit.
@Suite(.timeLimit(.minutes(2))) struct RegexDeadlineTests {
    static let catastrophic = "(a*)*b"
    /// Three full rows of `a`, then a line the test waits for first.
    static let script = "head -c 240 /dev/zero | tr '\\0' a; echo; echo ready; read x"

    @Test func aBacktrackingScreenWaitFailsWithItsTimeout() async throws {
        let session = try TerminalSession.launch(shell(Self.script))
        defer { session.terminate() }
        try await session.waitFor(text: "ready")
        let error = await caughtError { try await session.waitFor(regex: Self.catastrophic, timeout: .milliseconds(300)) }
        guard case TerminalSessionError.timeout(let failure)? = error else {
            Issue.record("expected a timeout, got \(String(describing: error))")
            return
        }
        #expect(failure.awaited == "regex /\(Self.catastrophic)/")
        #expect(failure.limit == .milliseconds(300))
        #expect("\(error!)".contains("Timed out after 300 ms waiting for regex /\(Self.catastrophic)/"))
    }

    @Test func aBacktrackingOutputWaitFailsWithItsTimeout() async throws {
        let session = try TerminalSession.launch(shell(Self.script))
        defer { session.terminate() }
        try await session.waitFor(text: "ready")
        let error = await caughtError { try await session.waitForOutput(regex: Self.catastrophic, timeout: .milliseconds(300)) }
        guard case TerminalSessionError.timeout(let failure)? = error else {
            Issue.record("expected a timeout, got \(String(describing: error))")
            return
        }
        #expect(failure.awaited == "output matching /\(Self.catastrophic)/")
    }

    /// A deadline already past stops the matching at its first progress report: no match.
    @Test func aPastDeadlineEndsTheMatchAsNoMatch() throws {
        let regex = try CompiledRegex(lines: Self.catastrophic).within(.zero)
        let text = String(repeating: "a", count: 200)
        #expect(regex.firstMatch(in: text) == nil)
        #expect(regex.allMatches(in: text).isEmpty)
        // A pattern that matches at once still matches with the deadline.
        #expect(try CompiledRegex(lines: "a+").within(.seconds(60)).firstRange(in: text) != nil)
    }
}
