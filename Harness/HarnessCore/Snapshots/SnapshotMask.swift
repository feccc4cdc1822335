import TerminalEmulator

/// Dynamic content hidden from a snapshot (a clock, a spinner, a PID, a temporary path).
///
/// The masked characters are replaced with a fill character, one per cell so the layout keeps its
/// widths, before the snapshot is compared and before it is written, so the reference shows
/// where the dynamic content was.
///
/// ```swift
/// assertSnapshot(of: screen, as: .screen(masks: [
///     .regex(#"\d\d:\d\d:\d\d"#),                                  // the clock
///     .region(ScreenRegion(row: 0, col: 70, width: 10, height: 1)),  // the spinner's corner
/// ]))
/// ```
public enum SnapshotMask: Sendable, Hashable {
    /// Every match of a regular expression (Swift `Regex` syntax), searched row by row on a
    /// screen, over the whole text for plain text.
    case regex(String, fill: Character = "▒")
    /// A rectangle of the screen (rows and columns of cells; lines and characters for text).
    case region(ScreenRegion, fill: Character = "▒")

    /// The character that replaces masked content.
    public var fill: Character {
        switch self {
        case .regex(_, let fill), .region(_, let fill): fill
        }
    }

    /// Compiles a mask's pattern, or throws a clear error.
    static func compile(_ pattern: String) throws(SnapshotError) -> Regex<AnyRegexOutput> {
        do {
            return try Regex(pattern)
        } catch {
            throw SnapshotError.invalidMaskPattern(pattern: pattern, reason: "\(error)")
        }
    }
}
