import HarnessSystem
import TerminalEmulator

/// What a terminal wait that failed knew, as values: what it awaited, for how long, the screen
/// it checked last, what that screen showed instead, and what the program printed. The
/// message (``TerminalSessionError/failureMessage``, a flow's failure) is rendered from it at
/// the edge; nothing reads a message back.
public struct WaitFailure: Sendable {
    /// What the wait waited for: `text "Ready"`, `the title "Inbox"`.
    public var awaited: String
    /// How long it waited.
    public var limit: Duration
    /// The screen the wait checked last (a timeout never shows a newer one), or the final
    /// screen when the program ended.
    public var screen: ScreenSnapshot
    /// What the checked screen showed instead, or where else the awaited thing was seen, as a
    /// clause (`the title is "Drafts"`, `instead "Oops" is not bold`); nil when the wait knows
    /// nothing more.
    public var nearMiss: String?
    /// The escaped printable form of the last bytes the program wrote.
    public var lastBytes: String
    /// The end of the printed text after the output cursor (what an output wait could match).
    public var output: String
    /// Where the wait was written (set by the public waits; nil inside the core).
    package var location: SourceCodeLocation?

    /// What was awaited, with the near miss's first line: `the title "x"; the title is "y"`.
    package var awaitedAndMiss: String {
        awaited + (nearMiss.map { "; " + ($0.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? $0) } ?? "")
    }

    /// The near miss's lines after its first (the cells that differ), or nil.
    package var nearMissDetails: String? {
        guard let nearMiss, let newline = nearMiss.firstIndex(of: "\n") else { return nil }
        return String(nearMiss[nearMiss.index(after: newline)...])
    }

    /// The first line of a timeout's message, the same in every front end (a Swift wait's
    /// error, a flow's failure): `Timed out after 2 s waiting for the title "x"; the title is "y".`
    package var timeoutHeadline: String {
        "Timed out after \(TerminalSessionError.format(limit)) waiting for \(awaitedAndMiss)."
    }

    /// The first line of the message of a wait the program's end decided: `The program exited
    /// with code 1 while waiting for text "x".`
    package func exitHeadline(_ status: ExitStatus) -> String {
        "The program \(status) while waiting for \(awaitedAndMiss)."
    }

    /// The last three non-blank rows of the screen (`screen: row / row / row`), or the end of
    /// the output when the screen is blank; at most 200 characters.
    package var lastSeen: String {
        let rows = screen.lines.map { line -> String in
            var text = line
            while text.last == " " { text.removeLast() }
            return text
        }.filter { !$0.isEmpty }
        let seen = rows.isEmpty
            ? "output: " + (output.isEmpty ? "(none)" : output.split(separator: "\n").suffix(3).joined(separator: " / "))
            : "screen: " + rows.suffix(3).joined(separator: " / ")
        return seen.count > 200 ? "…" + seen.suffix(199) : seen
    }
}
