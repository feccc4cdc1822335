import Foundation
import HarnessSystem
import TerminalEmulator

extension TerminalDriving {
    /// Waits until the part of the screen `area` covers has not changed for `quietFor`, and
    /// returns the screen then: a clock, a spinner or a blinking cursor elsewhere does not
    /// hold it up. Event driven: each wait for a change of the area lasts the quiet period; a
    /// change starts a new one. An area between anchors that moves counts as a change; when
    /// the program has ended, nothing changes any more and the wait succeeds.
    ///
    /// Throws `TerminalSessionError.timeout` when the area kept changing for `timeout` (nil:
    /// the session's default).
    @discardableResult
    public func waitUntilStable(
        quietFor: Duration = .milliseconds(200), in area: ScreenArea, timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> ScreenSnapshot {
        let limit = timeout ?? core.defaultTimeout
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limit)
        let description = "the screen \(area) to be stable for \(TerminalSessionError.format(quietFor))"
        // The inner waits time out on purpose: only this wait's own failure is the test's.
        return try await CallSiteFailures.reporting("\(filePath)") {
            var seen = screen
            while true {
                let window = min(quietFor, clock.now.duration(to: deadline))
                do {
                    seen = try await waitFor(
                        description, timeout: max(window, .zero), fileID: fileID, filePath: filePath, line: line, column: column,
                        where: { [seen] in !$0.showsSame(as: seen, in: area) })
                } catch TerminalSessionError.timeout(var failure) {
                    if window >= quietFor { return self.screen }
                    failure.awaited = description
                    failure.limit = limit
                    throw TerminalSessionError.timeout(failure)
                } catch TerminalSessionError.exitedWhileWaiting {
                    return self.screen  // the final screen: nothing changes any more
                }
            }
        }
    }
}
