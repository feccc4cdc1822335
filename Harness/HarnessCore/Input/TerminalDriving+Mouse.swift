import TerminalEmulator

/// Mouse gestures, encoded as xterm reports them for the mode and encoding the program
/// enabled (``TerminalModes/mouseTracking``, ``TerminalModes/mouseEncoding``).
///
/// Cells are 0-based, as on the screen (``ScreenSnapshot/cell(row:col:)``); a text target
/// points at the first cell of the text's first occurrence. A gesture is written in one piece,
/// or not at all: when the program did not enable mouse reporting, when its mode cannot report
/// the gesture (no release in X10 mode, so no drag), when the text is not on the screen, or
/// when the cell is off the screen or past the encoding's limit, it throws a ``MouseError``
/// and sends nothing, so a test never clicks into the void.
///
/// ```swift
/// try await session.waitFor(text: "Yes")
/// try session.click(text: "Yes")
/// try session.scroll(.down, count: 3, at: .cell(row: 5, col: 0))
/// try session.drag(from: .cell(row: 1, col: 0), to: .cell(row: 1, col: 20))
/// try session.hover(.text("Help"))                  // mode 1003 only
/// ```
///
/// In pixel mode (1016, SGR-Pixels) the reports carry the pixel in the middle of the cell
/// (``CellPixelSize``), so a click lands on the same cell.
extension TerminalDriving {
    /// Presses and releases `button` on the target (X10 mode reports the press only).
    public func click(
        _ target: MouseTarget, button: MouseButton = .left, modifiers: KeyModifiers = [],
        fileID: StaticString = #fileID, line: UInt = #line
    ) throws {
        try sendGesture("click \(target)", target, fileID: fileID, line: line) { at in
            [(MouseEvent(.press(button), at: at, modifiers: modifiers), true),
             (MouseEvent(.release(button), at: at, modifiers: modifiers), false)]
        }
    }

    /// Clicks the first cell of the first occurrence of `text` on the screen.
    public func click(
        text: String, button: MouseButton = .left, modifiers: KeyModifiers = [],
        fileID: StaticString = #fileID, line: UInt = #line
    ) throws {
        try click(.text(text), button: button, modifiers: modifiers, fileID: fileID, line: line)
    }

    /// Clicks a 0-based cell.
    public func click(
        row: Int, col: Int, button: MouseButton = .left, modifiers: KeyModifiers = [],
        fileID: StaticString = #fileID, line: UInt = #line
    ) throws {
        try click(.cell(row: row, col: col), button: button, modifiers: modifiers, fileID: fileID, line: line)
    }

    /// Two clicks in one write, so the program sees them well within its double-click interval.
    public func doubleClick(
        _ target: MouseTarget, button: MouseButton = .left, modifiers: KeyModifiers = [],
        fileID: StaticString = #fileID, line: UInt = #line
    ) throws {
        try sendGesture("double-click \(target)", target, fileID: fileID, line: line) { at in
            let click: [(MouseEvent, Bool)] = [
                (MouseEvent(.press(button), at: at, modifiers: modifiers), true),
                (MouseEvent(.release(button), at: at, modifiers: modifiers), false),
            ]
            return click + click
        }
    }

    /// Double-clicks the first cell of the first occurrence of `text`.
    public func doubleClick(
        text: String, button: MouseButton = .left, modifiers: KeyModifiers = [],
        fileID: StaticString = #fileID, line: UInt = #line
    ) throws {
        try doubleClick(.text(text), button: button, modifiers: modifiers, fileID: fileID, line: line)
    }

    /// Double-clicks a 0-based cell.
    public func doubleClick(
        row: Int, col: Int, button: MouseButton = .left, modifiers: KeyModifiers = [],
        fileID: StaticString = #fileID, line: UInt = #line
    ) throws {
        try doubleClick(.cell(row: row, col: col), button: button, modifiers: modifiers, fileID: fileID, line: line)
    }

    /// Presses `button` on `from`, moves to `to` with it held (reported in modes 1002 and
    /// 1003; mode 1000 reports only the press and the release) and releases it there.
    /// X10 mode (9) reports no release, so a drag throws there.
    public func drag(
        from: MouseTarget, to: MouseTarget, button: MouseButton = .left, modifiers: KeyModifiers = [],
        fileID: StaticString = #fileID, line: UInt = #line
    ) throws {
        let (modes, screen) = core.modesAndScreen
        let gesture = "drag from \(from) to \(to)"
        guard modes.mouseTracking != .off else { throw MouseError.reportingOff(gesture: gesture, screen: screen.framed()) }
        let start = try from.position(on: screen)
        let end = try to.position(on: screen)
        try send(gesture, modes: modes, fileID: fileID, line: line, events: [
            (MouseEvent(.press(button), at: start, modifiers: modifiers), true),
            (MouseEvent(.motion(button), at: end, modifiers: modifiers), false),
            (MouseEvent(.release(button), at: end, modifiers: modifiers), true),
        ])
    }

    /// Moves the pointer onto the target with no button held (reported only in any-event
    /// mode, 1003: in modes 1000 and 1002 it throws and nothing is sent).
    public func hover(
        _ target: MouseTarget, modifiers: KeyModifiers = [],
        fileID: StaticString = #fileID, line: UInt = #line
    ) throws {
        try sendGesture("hover \(target)", target, fileID: fileID, line: line) { at in
            [(MouseEvent(.motion(nil), at: at, modifiers: modifiers), true)]
        }
    }

    /// Turns the wheel `count` notches over the target (not reported in X10 mode).
    public func scroll(
        _ direction: ScrollDirection, count: Int = 1, at target: MouseTarget, modifiers: KeyModifiers = [],
        fileID: StaticString = #fileID, line: UInt = #line
    ) throws {
        guard count >= 1 else { throw MouseError.invalidCount(count) }
        let action: MouseEvent.Action = direction == .up ? .wheelUp : .wheelDown
        try sendGesture("scroll \(direction) \(count) at \(target)", target, fileID: fileID, line: line) { at in
            Array(repeating: (MouseEvent(action, at: at, modifiers: modifiers), true), count: count)
        }
    }

    /// Sends events as they are; every one must be reported by the program's mode.
    public func sendMouse(
        _ events: [MouseEvent],
        fileID: StaticString = #fileID, line: UInt = #line
    ) throws {
        let (modes, screen) = core.modesAndScreen
        let gesture = "send \(events.map(\.description).joined(separator: ", "))"
        guard modes.mouseTracking != .off else { throw MouseError.reportingOff(gesture: gesture, screen: screen.framed()) }
        for event in events { _ = try MouseTarget.at(event.position).position(on: screen) }
        try send(gesture, modes: modes, fileID: fileID, line: line, events: events.map { ($0, true) })
    }

    // MARK: - Writing

    /// Checks the mode, finds the target's cell, encodes every event, then writes them at once.
    private func sendGesture(
        _ gesture: String, _ target: MouseTarget, fileID: StaticString, line: UInt,
        events: (ScreenPosition) -> [(MouseEvent, required: Bool)]
    ) throws {
        let (modes, screen) = core.modesAndScreen
        guard modes.mouseTracking != .off else { throw MouseError.reportingOff(gesture: gesture, screen: screen.framed()) }
        let position = try target.position(on: screen)
        try send(gesture, modes: modes, fileID: fileID, line: line, events: events(position))
    }

    private func send(
        _ gesture: String, modes: TerminalModes, fileID: StaticString, line: UInt, events: [(MouseEvent, required: Bool)]
    ) throws {
        if events.contains(where: { $0.0.modifiers.contains(.super) }) { throw MouseError.superNotReported(gesture: gesture) }
        var bytes: [UInt8] = []
        for (event, required) in events {
            if let encoded = try event.encoded(tracking: modes.mouseTracking, encoding: modes.mouseEncoding) {
                bytes += encoded
            } else if required {
                throw MouseError.notReported(gesture: gesture, event: "\(event.action)", tracking: modes.mouseTracking)
            }
        }
        try core.send(bytes)
        journalInput(gesture, fileID: fileID, line: line)
    }
}
