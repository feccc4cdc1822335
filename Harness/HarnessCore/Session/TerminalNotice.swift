import Foundation

/// Something the terminal did on its own, that a reader of a test's trace should know:
/// today, a synchronized frame (mode 2026) the program did not end in time, shown by the
/// safety limit (``TerminalSession/Configuration/synchronizedOutputLimit``) or at its exit.
///
/// ```swift
/// for notice in session.notices { print(notice.text) }
/// // synchronized frame 3 released by the 150 ms limit (the program did not reset mode 2026)
/// ```
public struct TerminalNotice: Sendable, Equatable {
    /// When it happened.
    public let date: Date
    /// What happened, one line.
    public let text: String

    init(date: Date = Date(), text: String) {
        self.date = date
        self.text = text
    }
}
