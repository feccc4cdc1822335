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
        } catch TerminalSessionError.exitedWhileWaiting(_, let status, _, _, _) {
            throw FlowStepFailure("the program \(status) before a command finished")
        } catch {
            let failure = Self.waitFailure(error, what: "no command finished", limit: limit)
            throw FlowStepFailure(failure.problem + "; " + session.commandWaitState, details: failure.details,
                                  showsScreen: failure.showsScreen)
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

    /// `expect-title`: waits until the title is exactly the text, or the regex matches it. A
    /// timeout names the title of the last screen the wait checked, not a newer one.
    package func expectTitle(_ pattern: FlowTextPattern, within limit: Duration) async throws {
        let session = try session
        let matches = try Self.matcher(pattern, within: limit)
        let checked = Locked(session.screen.title)
        do {
            try await session.waitFor(Self.awaited(pattern, "the title", regexPrefix: "a title matching"), timeout: limit) { screen in
                checked.withLock { $0 = screen.title }
                return matches(screen.title)
            }
        } catch {
            let title = checked.withLock { $0 }
            throw Self.reportedFailure(error, what: "the title never became it", limit: limit,
                                       seen: title.isEmpty ? "the program set no title" : "the title is \(title.debugDescription)")
        }
    }

    /// `expect-clipboard`: waits until the program's last clipboard write (OSC 52) is exactly
    /// the text, or the regex matches it. A timeout names the writes of the last screen the
    /// wait checked.
    package func expectClipboard(_ pattern: FlowTextPattern, within limit: Duration) async throws {
        let session = try session
        let matches = try Self.matcher(pattern, within: limit)
        let checked = Locked(session.screen.clipboardWrites.suffix(3).map(\.text))
        do {
            try await session.waitFor(Self.awaited(pattern, "the clipboard", regexPrefix: "a clipboard write matching"), timeout: limit) { screen in
                checked.withLock { $0 = screen.clipboardWrites.suffix(3).map(\.text) }
                return screen.clipboard.map(matches) ?? false
            }
        } catch {
            let writes = checked.withLock { $0 }.map(\.debugDescription)
            throw Self.reportedFailure(error, what: "the clipboard never held it", limit: limit,
                                       seen: writes.isEmpty ? "the program wrote nothing to the clipboard (OSC 52)"
                                           : "its last writes: " + writes.joined(separator: ", "))
        }
    }

    /// What a wait on `pattern` is waiting for: `the title "x"`, `a title matching /x/`.
    package static func awaited(_ pattern: FlowTextPattern, _ subject: String, regexPrefix: String) -> String {
        switch pattern {
        case .text(let text): "\(subject) \(text.debugDescription)"
        case .regex(let regex): "\(regexPrefix) /\(regex)/"
        }
    }

    /// Exact text, or a regex matched as the screen's lines are, giving up (no match) after
    /// `limit`, the wait's own: a pattern that backtracks ends the wait at its timeout.
    package static func matcher(_ pattern: FlowTextPattern, within limit: Duration) throws -> @Sendable (String) -> Bool {
        switch pattern {
        case .text(let text): return { $0 == text }
        case .regex(let regex):
            let compiled = try CompiledRegex(lines: regex).within(limit)
            return { compiled.matches($0) }
        }
    }

    /// A failed wait on what the program reports: `what within 5s; seen`, without the last bytes.
    package static func reportedFailure(_ error: any Error, what: String, limit: Duration, seen: String) -> FlowStepFailure {
        if case TerminalSessionError.exitedWhileWaiting(_, let status, _, _, _) = error {
            return FlowStepFailure("the program \(status); \(seen)", showsScreen: false)
        }
        let failure = waitFailure(error, what: what, limit: limit)
        return FlowStepFailure(failure.problem + "; " + seen, showsScreen: false)
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
            guard shows(try session.screen) else { return }
        }
        throw FlowStepFailure("the screen showed it\(place) during the \(FlowDurationParser.format(duration)) it must not")
    }

    /// `wait-stable DURATION in AREA`: waits until the area has not changed for `quiet`.
    package func waitStable(_ quiet: Duration, in area: ScreenArea) async throws {
        let limit = max(timeout, quiet + quiet)
        do {
            try await session.waitUntilStable(quietFor: quiet, in: area, timeout: limit)
        } catch {
            throw Self.waitFailure(error, what: "the screen kept changing in \(area)", limit: limit)
        }
    }
}

