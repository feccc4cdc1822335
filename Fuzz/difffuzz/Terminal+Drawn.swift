import TerminalEmulator

extension Terminal {
    /// The cursor as drawn so far (not the held frame's while mode 2026 is set).
    var drawnCursor: CursorState { isHoldingFrame ? drawnSnapshot().cursor : cursor }
}
