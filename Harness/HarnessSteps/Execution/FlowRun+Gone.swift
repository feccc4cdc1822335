import Foundation
import HarnessCore
import TerminalEmulator

extension FlowRun {
    // MARK: - expect-gone

    /// `expect-gone`: waits until the screen no longer shows the text or a match of the regex
    /// (inside `area` when given): a dialog closed, a spinner stopped. The wait is the
    /// session's screen wait with the condition negated, so it ends on the first screen
    /// without it (at once when it is already gone).
    package func expectGone(_ pattern: FlowTextPattern, area: ScreenArea?, within limit: Duration) async throws {
        let session = try session
        let shows = try Self.screenShows(pattern, area: area, style: nil, deciding: limit)
        let place = area.map { " in \($0)" } ?? ""
        do {
            try await session.waitFor("the screen to stop showing \(pattern)\(place)", timeout: limit) { !shows($0) }
        } catch {
            throw Self.waitFailure(error)
        }
    }

    /// Whether a screen shows `pattern`: anywhere as `expect` sees it (text on the screen's
    /// rows, a regex with `^` and `$` at every row), or, with `area` or `style`, on one row
    /// inside the area with the style in every cell (`StyledTextQuery`, as `expect ... in`).
    /// These checks pass when the pattern is absent, so a regex is matched until `limit` from
    /// now and one that backtracks past it counts as shown: undecided is never a pass.
    package static func screenShows(
        _ pattern: FlowTextPattern, area: ScreenArea?, style: TextStyle?, deciding limit: Duration
    ) throws -> @Sendable (ScreenSnapshot) -> Bool {
        guard area != nil || style != nil else {
            switch pattern {
            case .text(let text):
                return { $0.showsText(text) }
            case .regex(let regex):
                let compiled = try CompiledRegex(lines: regex).within(limit)
                return { compiled.decides($0.text) ?? true }
            }
        }
        let target: StyledTextQuery.Target
        switch pattern {
        case .text(let text): target = .text(text)
        case .regex(let regex): target = try .regex(compiling: regex)
        }
        let query = StyledTextQuery(target, area: area, style: style)
        return { screen in
            if case .matched = query.verdict(on: screen) { return true }
            return false
        }
    }
}
