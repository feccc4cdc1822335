import Foundation
import HarnessSystem
import TerminalEmulator

/// What a wait on the output stream found (``TerminalDriving/waitForOutput(text:timeout:fileID:filePath:line:column:)``).
///
/// Offsets are absolute UTF-8 offsets in the session's printed text (see
/// `TerminalEmulator.PrintedText`): they only grow, whatever was dropped before.
public struct OutputMatch: Sendable, Equatable, CustomStringConvertible {
    /// The text that matched.
    public var text: String
    /// What was printed between the cursor and the match (pexpect's `before`).
    public var before: String
    /// For a regex, each capture group's text (nil for a group that did not take part).
    public var groups: [String?]
    /// Where the match lies in the printed text; the session's output cursor is now at its end.
    public var range: Range<Int>

    /// Creates a match (the session makes them; tests may too).
    public init(text: String, before: String, groups: [String?] = [], range: Range<Int>) {
        self.text = text
        self.before = before
        self.groups = groups
        self.range = range
    }

    /// `"\"text\" at 12..<16"`.
    public var description: String { "\(text.debugDescription) at \(range)" }
}

/// What an output wait looks for, matched against the printed text after the cursor.
enum OutputPattern: Sendable, CustomStringConvertible {
    /// Text, with how far the wait has already searched: an absolute offset of the printed
    /// text from which no occurrence can start before the end seen last time, so each chunk
    /// the program writes is searched once, not the whole stream after the cursor again.
    case text(String, searched: Locked<Int> = Locked(0))
    case regex(CompiledRegex, pattern: String)

    var description: String {
        switch self {
        case .text(let text, _): "output \(text.debugDescription)"
        case .regex(_, let pattern): "output matching /\(pattern)/"
        }
    }

    /// The first match lying entirely at or after `cursor`, or nil.
    func firstMatch(in printed: PrintedText, after cursor: Int) -> OutputMatch? {
        let start = max(cursor, printed.startOffset)
        switch self {
        case .text(let needle, let searched):
            // An occurrence that starts before the last end seen minus the text's length was
            // found then; one that ends after it starts at or after that point.
            let resume = max(start, searched.withLock { $0 } - needle.utf8.count + 1)
            guard let range = printed.range(of: needle, from: resume) else {
                searched.withLock { $0 = max($0, printed.endOffset) }
                return nil
            }
            return OutputMatch(text: needle, before: printed.text(from: start, to: range.lowerBound), range: range)
        case .regex(let regex, _):
            let text = printed.text(from: start)
            guard let result = regex.firstMatch(in: text),
                  let found = Range(result.range, in: text) else { return nil }
            let lower = start + text.utf8.distance(from: text.startIndex, to: found.lowerBound)
            let upper = start + text.utf8.distance(from: text.startIndex, to: found.upperBound)
            let groups: [String?] = (1..<max(1, result.numberOfRanges)).map { index in
                Range(result.range(at: index), in: text).map { String(text[$0]) }
            }
            return OutputMatch(
                text: String(text[found]), before: String(text[..<found.lowerBound]), groups: groups, range: lower..<upper)
        }
    }
}

extension PrintedText {
    /// The end of what was printed after `cursor`, for failure messages: at most `limit`
    /// bytes (cut at a line start when possible), "(nothing)" when empty.
    func tail(after cursor: Int, limit: Int = 600) -> String {
        let start = max(cursor, startOffset)
        var text = self.text(from: max(start, endOffset - limit))
        let cut = max(start, endOffset - limit) > start
        if cut, let newline = text.firstIndex(of: "\n"), text.distance(from: text.startIndex, to: newline) < 120 {
            text = String(text[text.index(after: newline)...])
        }
        if text.isEmpty { return "(nothing)" }
        return (cut ? "…" : "") + text
    }
}
