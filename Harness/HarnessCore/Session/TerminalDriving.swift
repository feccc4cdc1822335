import TerminalEmulator

/// A program on a terminal that a test drives: a ``TerminalSession``, or a ``TerminalApp``
/// (which drives its session).
///
/// Typing, keys, the mouse, the screen, the output stream and the waits are written once, in
/// extensions of this protocol, and both types have them. A helper written against
/// `some TerminalDriving` works with either:
///
/// ```swift
/// func calculate(_ expression: String, on terminal: some TerminalDriving) async throws -> String {
///     try terminal.type(expression + "\r")
///     return try await terminal.waitForOutput(regex: "^-?[0-9.]+$").text
/// }
/// ```
public protocol TerminalDriving: Sendable {
    /// The session that runs the program: the session itself, or the app's session.
    var terminalSession: TerminalSession { get }
}

extension TerminalSession: TerminalDriving {
    /// The session itself.
    public var terminalSession: TerminalSession { self }
}

extension TerminalDriving {
    /// The session's engine: the terminal it reads (on the event loop), the screen model and the waiters.
    var core: SessionCore { terminalSession.core }

    /// What the terminal shows now.
    public var screen: ScreenSnapshot { core.snapshot() }

    /// How the program ended, once it did and its output was read; nil while it runs.
    public var exitStatus: ExitStatus? { core.currentExitStatus }

    /// The current terminal size.
    public var size: TerminalSize { core.currentSize }

    /// The terminal modes the program set (application cursor keys, bracketed paste, ...).
    public var modes: TerminalModes { core.modes }

    /// What the terminal did on its own so far, oldest first: synchronized frames (mode 2026)
    /// it showed because the program did not end them within
    /// ``TerminalSession/Configuration/synchronizedOutputLimit`` (or before it exited). Each is
    /// also a line of the test's or flow's trace.
    public var notices: [TerminalNotice] { core.notices }

    /// Sets the window size (`TIOCSWINSZ`; the kernel sends SIGWINCH to the foreground process
    /// group) and resizes the screen model, on the harness's event loop, in order with the
    /// output it reads; returns when it is done (``screen`` and ``size`` show the new size, and
    /// input sent next finds the program at that size).
    public func resize(cols: Int, rows: Int, fileID: StaticString = #fileID, line: UInt = #line) async throws {
        try await core.resize(TerminalSize(cols: cols, rows: rows))
        journalInput("resize \(cols)x\(rows)", fileID: fileID, line: line)
    }

    /// ``resize(cols:rows:fileID:line:)`` for a caller that cannot await: the event loop
    /// resizes next, and the following waits see the new screen (``screen`` shows it, and the
    /// program has the size, once the loop has resized).
    package func resize(cols: Int, rows: Int, fileID: StaticString = #fileID, line: UInt = #line) throws {
        try core.startResizing(TerminalSize(cols: cols, rows: rows))
        journalInput("resize \(cols)x\(rows)", fileID: fileID, line: line)
    }
}
