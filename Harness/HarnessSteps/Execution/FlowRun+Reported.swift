import Foundation
import HarnessCore
import HarnessSystem
import TerminalEmulator

extension FlowRun {
    // MARK: - expect-command, command-status

    /// `expect-command`: waits until a shell command finishes (OSC 133 D), the first one not
    /// finished when input was last sent (see `TerminalDriving.waitForCommand`).
    package func expectCommand(within limit: Duration) async throws {
        let session = try session
        do {
            try await session.waitForCommand(timeout: limit)
        } catch {
            throw Self.waitFailure(error)
        }
    }

    /// `command-status N`: the last finished command's exit status (its D mark's) is `N`.
    package func commandStatus(_ expected: Int) throws {
        let finished = try session.screen.shellCommands.filter { $0.phase == .finished && $0.ran }
        guard let last = finished.last else {
            throw FlowStepFailure("no command has finished (no OSC 133 D mark after a C mark; see \"Shell integration\" in docs/FLOWS.md)")
        }
        guard last.exitStatus != expected else { return }
        let seen = finished.suffix(5).map { "\($0.commandText.map(\.debugDescription) ?? "command \($0.number)") \($0.exitStatus.map(String.init) ?? "none")" }
        throw FlowStepFailure("the last command \(last.summary), expected status \(expected)",
                              details: "Statuses seen (latest last): " + seen.joined(separator: ", "), showsScreen: false)
    }

    // MARK: - expect-title, expect-clipboard

    /// `expect-title` (`value` `.title`) and `expect-clipboard` (`.clipboard`): the Swift wait
    /// `waitFor(title:)`/`waitFor(clipboard:)` and its message, at the step's line.
    package func expect(_ value: ReportedValue, _ pattern: FlowTextPattern, within limit: Duration) async throws {
        let session = try session
        do {
            switch pattern {
            case .text(let text): try await session.waitFor(value, .text(text), timeout: limit, location: SourceCodeLocation())
            case .regex(let regex): try await session.waitFor(value, .regex(regex), timeout: limit, location: SourceCodeLocation())
            }
        } catch {
            throw FlowStepFailure(Self.waitFailure(error).problem, showsScreen: false)
        }
    }

    // MARK: - expect-not ... for, wait-stable ... in

    /// `expect-not ... for DURATION`: the screen does not show it now, nor at any change during
    /// `duration`: fails on the first screen that shows it, passes when the time is over (or
    /// when the program ended without showing it).
    package func expectNot(_ pattern: FlowTextPattern, area: ScreenArea?, style: TextStyle?, for duration: Duration) async throws {
        let session = try session
        let shows = try Self.screenShows(pattern, area: area, style: style, deciding: duration)
        let place = (area.map { " in \($0)" } ?? "") + (style.map { " styled \($0)" } ?? "")
        do {
            try await session.waitFor("the screen to show \(pattern)\(place)", timeout: duration, where: shows)
        } catch TerminalSessionError.timeout, TerminalSessionError.exitedWhileWaiting {
            // The last screen is judged once more: a regex whose matching was cut off at the
            // end of `duration` (the same instant as the wait's end, whichever the loop saw
            // first) counts as shown, so an undecided check never passes.
            guard shows(session.screen) else { return }
        }
        throw FlowStepFailure("the screen showed it\(place) during the \(FlowDurationParser.format(duration)) it must not")
    }

    /// `wait-stable DURATION in AREA`: waits until the area has not changed for `quiet`.
    package func waitStable(_ quiet: Duration, in area: ScreenArea) async throws {
        let limit = max(timeout, quiet + quiet)
        do {
            try await session.waitUntilStable(quietFor: quiet, in: area, timeout: limit)
        } catch {
            throw Self.waitFailure(error)
        }
    }
}

