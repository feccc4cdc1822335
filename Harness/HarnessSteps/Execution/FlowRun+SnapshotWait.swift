import HarnessCore
import HarnessSystem
import TerminalEmulator

extension FlowRun {
    /// How long the program must write nothing, with nothing else under way, for a snapshot
    /// that differs to fail before the timeout.
    static let snapshotSettle = Duration.milliseconds(500)

    /// What "the screen had settled" means, as a failure says it.
    static let settledMeaning = "no stub answer pending, the program's processes asleep, "
        + "nothing written for \(FlowDurationParser.format(snapshotSettle))"

    /// The screen a snapshot step compares: the first whose `render` equals `expected`, or the
    /// screen once it has settled (``settledScreen(_:server:limit:)``: it still differs, so the step
    /// fails now, not after the whole timeout), or the screen at the timeout. `settled` says
    /// whether the wait ended because the screen settled while differing.
    func snapshotScreen(
        _ session: TerminalSession, name: String, expected: String,
        render: @escaping @Sendable (ScreenSnapshot) -> String
    ) async -> (screen: ScreenSnapshot, settled: Bool) {
        let limit = timeout
        let server = stubServer as? any FlowStubServer
        let screen = await withTaskGroup(of: ScreenSnapshot?.self) { group in
            group.addTask { try? await session.waitFor("the snapshot \(name)", timeout: limit) { render($0) == expected } }
            group.addTask { await Self.settledScreen(session, server: server, limit: limit) }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let screen else { return (session.screen, false) }
        return (screen, render(screen) != expected)
    }

    /// The screen once nothing can change it without the flow: the program wrote nothing for
    /// ``snapshotSettle``, none of its processes is running or runnable (`/proc` on Linux: a
    /// program computing silently is not done), and then no request to the flow's stub server
    /// (`server`) is waiting for its answer (a `delay` is under way) or half sent. Each is
    /// evidence, checked in that order after a quiet period: the processes first, because once
    /// they sleep whatever they sent is in the kernel's buffers, and the server reads it before
    /// it counts (a request sent just before the check, not read yet, counts). A busy process
    /// gets another quiet period; a pending answer is awaited (the server says when the last is
    /// sent), then another quiet period. Nil when the task is cancelled or a wait ends
    /// otherwise; the snapshot's own wait, with the step's timeout, bounds it.
    static func settledScreen(_ session: TerminalSession, server: (any FlowStubServer)?, limit: Duration) async -> ScreenSnapshot? {
        while !Task.isCancelled {
            guard let screen = try? await session.waitUntilStable(quietFor: Self.snapshotSettle, timeout: limit) else { return nil }
            if session.exitStatus == nil, !Posix.busyMembers(ofSession: session.pid).isEmpty { continue }
            if let server, await server.pendingAnswerCountAfterReading() > 0 {
                await server.waitUntilNoPendingAnswer()
                continue
            }
            return screen
        }
        return nil
    }
}
