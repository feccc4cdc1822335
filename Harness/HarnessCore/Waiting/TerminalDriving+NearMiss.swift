import Foundation
import TerminalEmulator

/// How long a timed-out regex wait's error may spend looking for its pattern in the scrollback.
private let nearMissBudget = Duration.milliseconds(200)

extension TerminalDriving {
    /// Why a screen wait did not see a line that is there: a text or regex wait searches the
    /// screen and the lines that scrolled off since its horizon (the last input or the last
    /// matching screen wait), so a line that scrolled off earlier is never found again.
    ///
    /// Returns, for a wait that failed, where the newest such line is, or nil when the
    /// scrollback holds none: `the scrollback has it, printed before the last match or input:
    /// scrolled-off line 3 of 40, 38 lines above the screen`.
    package func scrollbackNearMiss(where matches: (String) -> Bool) -> String? {
        let screen = self.screen
        guard let found = screen.scrolledLine(before: core.currentScreenHorizon, where: matches) else { return nil }
        let above = found.linesAboveScreen == 1 ? "just above the screen" : "\(found.linesAboveScreen) lines above the screen"
        return "the scrollback has it, printed before the last match or input (a wait searches only what scrolled off "
            + "after those): scrolled-off line \(found.index + 1) of \(screen.scrollbackCount), \(above)"
    }

    /// ``scrollbackNearMiss(where:)`` for a line holding `text` (a text with line breaks is not
    /// looked for line by line: nil).
    package func scrollbackNearMiss(text: String) -> String? {
        guard !text.contains("\n") else { return nil }
        return scrollbackNearMiss { $0.contains(text) }
    }

    /// ``scrollbackNearMiss(where:)`` for a line the regex matches. Looked for after a wait
    /// timed out, so briefly: a pattern that backtracks for longer than ``nearMissBudget`` gets
    /// no hint rather than a late error.
    package func scrollbackNearMiss(regex pattern: String) -> String? {
        guard let expression = try? CompiledRegex(lines: pattern).within(nearMissBudget) else { return nil }
        return scrollbackNearMiss { expression.matches($0) }
    }
}
