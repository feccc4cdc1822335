import TerminalEmulator

/// One mouse event at a cell, encoded into the bytes xterm would send for it
/// (``encoded(tracking:encoding:)``). Positions are 0-based, as everywhere on the screen
/// (``ScreenPosition``): row 0 is the top row, column 0 the left column; the reports the
/// program receives count from 1, as xterm's do.
///
/// ```swift
/// let press = MouseEvent(.press(.left), at: ScreenPosition(row: 2, col: 4))
/// try press.encoded(tracking: .normal, encoding: .sgr)   // ESC [ < 0 ; 5 ; 3 M
/// ```
public struct MouseEvent: Sendable, Hashable, CustomStringConvertible {
    /// What the mouse did.
    public enum Action: Sendable, Hashable, CustomStringConvertible {
        /// A button went down.
        case press(MouseButton)
        /// A button went up.
        case release(MouseButton)
        /// The pointer moved onto the cell, with a button held (a drag) or none.
        case motion(MouseButton?)
        /// One notch of the wheel away from the user (scrolls the content up: earlier lines).
        case wheelUp
        /// One notch of the wheel towards the user.
        case wheelDown

        /// `"press left"`, `"motion"`, `"wheel up"`...
        public var description: String {
            switch self {
            case .press(let button): return "press \(button)"
            case .release(let button): return "release \(button)"
            case .motion(let button?): return "motion with \(button) held"
            case .motion(nil): return "motion"
            case .wheelUp: return "wheel up"
            case .wheelDown: return "wheel down"
            }
        }
    }

    /// What the mouse did.
    public var action: Action
    /// The cell, 0-based.
    public var position: ScreenPosition
    /// The keys held meanwhile.
    public var modifiers: KeyModifiers

    /// An event at a 0-based cell.
    public init(_ action: Action, at position: ScreenPosition, modifiers: KeyModifiers = []) {
        self.action = action
        self.position = position
        self.modifiers = modifiers
    }

    /// `"press left at row 2, col 4"` (with `" with ctrl-shift"` when keys are held).
    public var description: String {
        "\(action) at \(position)" + (modifiers.isEmpty ? "" : " with \(modifiers)")
    }
}

/// A mouse button.
public enum MouseButton: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The primary button (button 1).
    case left
    /// Button 2.
    case middle
    /// Button 3.
    case right

    /// `"left"`, `"middle"`, `"right"`.
    public var description: String {
        switch self {
        case .left: return "left"
        case .middle: return "middle"
        case .right: return "right"
        }
    }
}

/// Why a mouse gesture was not sent. Nothing at all is written to the program when one of
/// these is thrown.
public enum MouseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The program did not enable mouse reporting (no DECSET 9, 1000, 1002 or 1003), so a
    /// real terminal would not pass the click on either. `screen` is the framed screen.
    case reportingOff(gesture: String, screen: String)
    /// The program's tracking mode does not report this event (X10 reports no release, no
    /// wheel; mode 1000 no motion), so the gesture cannot reach it.
    case notReported(gesture: String, event: String, tracking: MouseTracking)
    /// The cell cannot be encoded in the program's encoding (legacy bytes reach column and
    /// row 223, UTF-8 2015): xterm would not report it correctly, so nothing is sent.
    case unencodable(position: ScreenPosition, encoding: MouseEncoding, limit: Int)
    /// The cell is not on the screen (0-based rows and columns, `cols` x `rows` cells).
    case outsideScreen(position: ScreenPosition, cols: Int, rows: Int)
    /// `click(text:)` and the like: no row of the screen shows the text.
    case textNotFound(text: String, screen: String)
    /// A count that must be at least 1 (wheel notches) was not.
    case invalidCount(Int)
    /// The gesture holds Super: xterm's mouse reports carry shift, alt and control only.
    case superNotReported(gesture: String)

    /// A readable explanation, with the screen where there is one.
    public var description: String {
        switch self {
        case .reportingOff(_, let screen), .textNotFound(_, let screen):
            return screen.isEmpty ? summary : "\(summary)\nScreen:\n\(screen)"
        default:
            return summary
        }
    }

    /// The explanation in one line, without the screen.
    public var summary: String {
        switch self {
        case .reportingOff(let gesture, _):
            return "Cannot \(gesture): the app did not enable mouse reporting; it cannot be clicked "
                + "(no DECSET 9, 1000, 1002 or 1003 was received; nothing was sent)"
        case .notReported(let gesture, let event, let tracking):
            let hint = event == "motion" ? "; only any-event mode (1003) reports motion with no button held" : ""
            return "Cannot \(gesture): the app's mouse mode \(tracking) does not report \(event)\(hint) (nothing was sent)"
        case .unencodable(let position, let encoding, let limit):
            return "Cannot report a mouse event at \(position) in the \(encoding) encoding: "
                + "it reaches row and column \(limit) (1-based) only (nothing was sent)"
        case .outsideScreen(let position, let cols, let rows):
            return "Mouse position \(position) is outside the \(cols)x\(rows) screen "
                + "(rows 0...\(rows - 1), columns 0...\(cols - 1), 0-based)"
        case .textNotFound(let text, _):
            return "Cannot find \(text.debugDescription) on the screen to point the mouse at it (nothing was sent)"
        case .invalidCount(let count):
            return "A wheel count must be at least 1, not \(count)"
        case .superNotReported(let gesture):
            return "Cannot \(gesture): xterm's mouse reports have no Super modifier (only shift, alt and ctrl; nothing was sent)"
        }
    }
}
