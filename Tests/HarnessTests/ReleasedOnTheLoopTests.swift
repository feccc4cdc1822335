import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessCore
import HarnessSystem

/// A session or an app whose last reference goes away on the event loop (a handler that held
/// it ran and was dropped there) is torn down without blocking the loop, which runs the
/// teardown: its program ends and its exit is reported.
@Suite(.timeLimit(.minutes(10))) struct ReleasedOnTheLoopTests {
    /// A program that exits when told to, whose `onExit` handler (which runs on the event
    /// loop, and is dropped there) holds a value until then.
    struct Trigger {
        let session: TerminalSession
        let ran = AsyncStream<Bool>.makeStream()

        init(holding value: any Sendable) throws {
            session = try TerminalSession.launch(shell("read line"))
            let ran = ran.continuation
            session.onExit { [value] _ in
                withExtendedLifetime(value) {}
                ran.yield(EventLoop.shared.inLoop)
            }
        }

        /// Ends the program: its handler runs, and releases the value, on the loop.
        func fire() async throws {
            defer { session.terminate() }
            try session.type("\r")
            var iterator = ran.stream.makeAsyncIterator()
            #expect(await iterator.next() == true, "the handler ran on the event loop")
        }
    }

    @Test func aSessionReleasedOnTheLoopEndsItsProgram() async throws {
        let ended = AsyncStream<HarnessCore.ExitStatus>.makeStream()
        let trigger: Trigger
        do {
            let session = try TerminalSession.launch(shell("exec sleep 1000"))
            session.onExit { ended.continuation.yield($0) }
            trigger = try Trigger(holding: session)
        }
        try await trigger.fire()
        var iterator = ended.stream.makeAsyncIterator()
        #expect(await iterator.next() == .signaled(SIGHUP))
    }

    @Test func anAppReleasedOnTheLoopEndsItsProgram() async throws {
        let ended = AsyncStream<HarnessCore.ExitStatus>.makeStream()
        let trigger: Trigger
        do {
            let app = try await TerminalApp.launch(AppLaunch(executable: "/bin/sh", arguments: ["-c", "exec sleep 1000"]))
            app.session.onExit { ended.continuation.yield($0) }
            trigger = try Trigger(holding: app)
        }
        try await trigger.fire()
        var iterator = ended.stream.makeAsyncIterator()
        #expect(await iterator.next() == .signaled(SIGHUP))
    }
}
