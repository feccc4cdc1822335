/// Which mouse events a program asked the terminal to report (DECSET 9, 1000, 1002, 1003).
///
/// The modes exclude each other: setting one replaces the other, and resetting any of them
/// turns reporting off, as in xterm.
public enum MouseTracking: Sendable, Hashable, CustomStringConvertible {
    /// No mouse reporting (the power-on state): a click reaches nothing.
    case off
    /// Mode 9, X10 compatibility: button presses only, no release, no wheel, no modifiers.
    case x10
    /// Mode 1000, normal tracking: presses, releases and the wheel, with modifiers.
    case normal
    /// Mode 1002, button-event tracking: as 1000, plus motion while a button is held (drags).
    case buttonEvent
    /// Mode 1003, any-event tracking: as 1002, plus motion with no button held.
    case anyEvent

    /// The DECSET number of the mode (nil for ``off``).
    public var modeNumber: Int? {
        switch self {
        case .off: return nil
        case .x10: return 9
        case .normal: return 1000
        case .buttonEvent: return 1002
        case .anyEvent: return 1003
        }
    }

    /// `"off"`, `"X10 (mode 9)"`, `"normal (mode 1000)"`...
    public var description: String {
        switch self {
        case .off: return "off"
        case .x10: return "X10 (mode 9)"
        case .normal: return "normal (mode 1000)"
        case .buttonEvent: return "button-event (mode 1002)"
        case .anyEvent: return "any-event (mode 1003)"
        }
    }
}

/// How mouse reports are encoded (DECSET 1005, 1006, 1015, 1016; none of them: xterm's legacy form).
///
/// The encodings exclude each other: setting one replaces the other, and resetting one only
/// has an effect when it is the active one, as in xterm.
public enum MouseEncoding: Sendable, Hashable, CustomStringConvertible {
    /// The legacy X10 form: `CSI M` and three bytes of 32 + value; columns and rows up to 223.
    case legacy
    /// Mode 1005: as legacy, but values from 96 on are sent as two-byte UTF-8 (up to 2015).
    case utf8
    /// Mode 1006, SGR: `CSI < button ; column ; row M` (press, motion) or `m` (release).
    case sgr
    /// Mode 1015, urxvt: `CSI 32+button ; column ; row M`.
    case urxvt
    /// Mode 1016, SGR-Pixels: SGR's form with the position in pixels instead of cells (see
    /// ``CellPixelSize``: a cell is reported at the pixel in its middle).
    case sgrPixels

    /// The DECSET number of the encoding (nil for ``legacy``).
    public var modeNumber: Int? {
        switch self {
        case .legacy: return nil
        case .utf8: return 1005
        case .sgr: return 1006
        case .urxvt: return 1015
        case .sgrPixels: return 1016
        }
    }

    /// `"legacy"`, `"SGR (mode 1006)"`...
    public var description: String {
        switch self {
        case .legacy: return "legacy X10 bytes"
        case .utf8: return "UTF-8 (mode 1005)"
        case .sgr: return "SGR (mode 1006)"
        case .urxvt: return "urxvt (mode 1015)"
        case .sgrPixels: return "SGR-Pixels (mode 1016)"
        }
    }
}
