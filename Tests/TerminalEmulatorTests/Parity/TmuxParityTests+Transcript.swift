import Foundation
import Testing
import TerminalEmulator

extension TmuxParityTests {
    // MARK: - Transcript

    /// Replays each scrolling recording in tmux with a history large enough for all of it, and
    /// requires tmux's history plus screen (`capture-pane -p -S -`) to be our transcript
    /// (scrollback plus screen), line by line.
    @Test(
        .enabled(if: tmuxPath != nil, "tmux is not installed: the parity test needs it as the reference emulator"),
        arguments: scrollingFixtures
    )
    func sameTranscriptAsTmux(fixture: String) async throws {
        let file = Self.fixtures.appendingPathComponent("\(fixture).bytes")
        let bytes = try Data(contentsOf: file)
        let path = file.path
        let theirs = try await Self.onOwnThread { try Self.renderWithTmux(file: path, capture: .history) }
        let terminal = Terminal(cols: Self.cols, rows: Self.rows)
        bytes.withUnsafeBytes { terminal.feed($0) }
        let ours = terminal.snapshot()

        // A replay that scrolled nothing would compare two screens: make sure it did not.
        #expect(ours.scrollbackCount > Self.rows, "\(fixture): the recording should scroll more than a screen")
        if let difference = Self.transcriptDifference(fixture: fixture, tmux: theirs, ours: ours) {
            Issue.record(Comment(rawValue: difference))
        }
    }

    /// Where tmux's capture and our transcript first differ, as a failure message (the line's
    /// index, whether it is in our scrollback or on our screen, both texts, the lines before
    /// it, our screen); nil when they agree. Both sides are normalised as in the screen test
    /// (trailing blanks of each line trimmed), and blank lines at the end are left out.
    static func transcriptDifference(fixture: String, tmux: [String], ours snapshot: ScreenSnapshot) -> String? {
        let expected = withoutTrailingBlankLines(tmux.map(normalised))
        let actual = withoutTrailingBlankLines(snapshot.transcriptLines.map(normalised))
        let common = min(expected.count, actual.count)
        let index = (0..<common).first { expected[$0] != actual[$0] } ?? common
        guard index < max(expected.count, actual.count) else { return nil }

        func text(_ lines: [String], _ index: Int) -> String {
            index < lines.count ? lines[index].debugDescription : "(no line: the transcript ends before)"
        }
        let whereOurs = index < snapshot.scrollbackCount
            ? "our scrollback line \(index) of \(snapshot.scrollbackCount)"
            : "our screen row \(index - snapshot.scrollbackCount)"
        let context = max(0, index - 3)..<index
        return """
            \(fixture): transcript line \(index) differs (\(whereOurs)); tmux has \(expected.count) lines, we have \(actual.count)
              tmux: \(text(expected, index))
              ours: \(text(actual, index))
            the lines before it, alike on both sides:
            \(context.map { "  \($0): \(actual[$0].debugDescription)" }.joined(separator: "\n"))
            our screen:
            \(snapshot.framed())
            """
    }

    static func withoutTrailingBlankLines(_ lines: [String]) -> [String] {
        var lines = lines
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }
}
