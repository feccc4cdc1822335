/// What the terminal says about a mode when a program asks (DECRQM, `CSI ? Ps $ p` for a DEC
/// private mode, `CSI Ps $ p` for an ANSI mode): the `Pm` of its answer `CSI ? Ps ; Pm $ y`.
///
/// ```swift
/// terminal.privateModeStatus(2026)   // .reset until the program writes ESC [ ? 2026 h
/// terminal.privateModeStatus(2048)   // .notRecognized: in-band resize is not implemented
/// ```
public enum TerminalModeStatus: Int, Sendable, Hashable {
    /// The emulator does not implement the mode (0): a program should not rely on it.
    case notRecognized = 0
    /// The mode is on (1).
    case set = 1
    /// The mode is off (2).
    case reset = 2

    /// `.set` when `on`, else `.reset`.
    init(_ on: Bool) { self = on ? .set : .reset }
}
