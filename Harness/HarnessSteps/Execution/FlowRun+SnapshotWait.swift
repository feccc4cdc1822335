import HarnessCore
import TerminalEmulator

extension FlowRun {
    /// How long the program must write nothing for a snapshot that differs to fail before
    /// the timeout: its screen has settled, so waiting longer would show the same screen.
    static let snapshotSettle = Duration.milliseconds(500)

    /// The screen a snapshot step compares: the first whose `render` equals `expected`, or the
    /// screen once the program wrote nothing for ``snapshotSettle`` (it still differs: the step
    /// fails now, not after the whole timeout), or the screen at the timeout. `settled` says
    /// whether the wait ended because the screen settled while differing.
    func snapshotScreen(
        _ session: TerminalSession, name: String, expected: String,
        render: @escaping @Sendable (ScreenSnapshot) -> String
    ) async -> (screen: ScreenSnapshot, settled: Bool) {
        let limit = timeout
        let screen = await withTaskGroup(of: ScreenSnapshot?.self) { group in
            group.addTask { try? await session.waitFor("the snapshot \(name)", timeout: limit) { render($0) == expected } }
            group.addTask { try? await session.waitUntilStable(quietFor: Self.snapshotSettle, timeout: limit) }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let screen else { return (session.screen, false) }
        return (screen, render(screen) != expected)
    }
}
