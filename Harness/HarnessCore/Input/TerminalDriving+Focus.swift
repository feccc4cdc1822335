import TerminalEmulator

extension TerminalDriving {
    /// Tells the program the terminal gained or lost the focus (`CSI I`, `CSI O`), as a
    /// terminal does when its window is (de)activated, if the program enabled focus reporting
    /// (mode 1004); otherwise throws ``FocusError/reportingOff(_:)`` and sends nothing.
    ///
    /// ```swift
    /// try session.focus(.out)
    /// try await session.waitFor(text: "paused")
    /// ```
    public func focus(_ change: FocusChange, fileID: StaticString = #fileID, line: UInt = #line) throws {
        guard core.modes.focusReporting else { throw FocusError.reportingOff(change) }
        try core.send(change.bytes)
        journalInput("focus \(change)", fileID: fileID, line: line)
    }
}
