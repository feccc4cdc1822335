// A session's state lives on the event loop: touched from a test's task it stops the process;
// what a test reads synchronously is what the loop published, the same as the loop's state.

import Foundation
import TestSupport
import Testing
@testable import HarnessCore
import HarnessSystem

@Suite struct SessionStateOnTheLoopTests {
    @Test func theSessionsStateTouchedOffTheLoopStopsTheProcess() async {
        Self.expectStoppedOffTheLoop(await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let session = try? TerminalSession.launch(.init(executable: "cat", environment: testEnvironment))
            guard let session else { return }  // exits 0: the expectation fails
            _ = session.core.state.value.size
        })
    }

    @Test func aPipedSessionsStateTouchedOffTheLoopStopsTheProcess() async {
        Self.expectStoppedOffTheLoop(await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let session = try? PipedSession.launch(.init(executable: "cat", environment: testEnvironment))
            guard let session else { return }
            _ = session.core.state.value.isReleased
        })
    }

    /// The process stopped, saying why: loop-bound state touched off the loop.
    static func expectStoppedOffTheLoop(_ result: ExitTest.Result?) {
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("touched off its thread"), "\(message)")
    }

    @Test func whatTheTestReadsIsWhatTheLoopPublished() async throws {
        let session = try TerminalSession.launch(.init(
            executable: "cat", environment: testEnvironment, defaultTimeout: mustSucceedTimeout))
        defer { session.terminate() }
        try session.type("hello")
        try await session.waitFor(text: "hello")
        let onTheLoop = await session.core.onLoop { state in (state.snapshot(), state.size, state.terminal.modes) }
        #expect(session.screen == onTheLoop.0)
        #expect(session.size == onTheLoop.1)
        #expect(session.modes == onTheLoop.2)
        try await session.resize(cols: 50, rows: 12)
        let resized = await session.core.onLoop { state in (state.snapshot(), state.size) }
        #expect(session.size == TerminalSize(cols: 50, rows: 12) && resized.1 == session.size)
        #expect(session.screen == resized.0)
    }
}
