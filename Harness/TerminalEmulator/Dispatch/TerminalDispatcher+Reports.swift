/// The answers to a program's questions about the terminal's state: DECRQM (is this mode
/// set?) and the OSC 10/11/12 colour queries. Every mode DECRQM reports is read through
/// ``privateModeStatus(_:)`` or ``ansiModeStatus(_:)``: a mode the emulator starts to model
/// is answered by adding its case there.
extension TerminalDispatcher {
    // MARK: - DECRQM

    /// DECRQM (`CSI ? Ps $ p`, or `CSI Ps $ p` for an ANSI mode): answers
    /// `CSI ? Ps ; Pm $ y` (`CSI Ps ; Pm $ y`) with Pm 1 set, 2 reset, 0 not recognized.
    mutating func requestMode(_ parameters: CSIParameters, private isPrivate: Bool) {
        let mode = parameters[0]
        let status = isPrivate ? privateModeStatus(mode) : ansiModeStatus(mode)
        respond("\u{1B}[\(isPrivate ? "?" : "")\(mode);\(status.rawValue)$y")
    }

    /// The state of a DEC private mode as DECRQM reports it: set or reset for each mode the
    /// emulator models, "not recognized" for the rest (those it accepts and ignores, such as
    /// 1004 focus events, 1016 pixel mouse or 2048 in-band resize, included: a program must
    /// not turn on what the terminal would then mishandle).
    func privateModeStatus(_ mode: Int) -> TerminalModeStatus {
        let modes = screen.modes
        switch mode {
        case 1: return .init(modes.applicationCursorKeys)
        case 6: return .init(modes.originMode)
        case 7: return .init(modes.autowrap)
        case 25: return .init(modes.cursorVisible)
        case 47, 1047, 1049: return .init(modes.alternateScreen)
        case 1048: return .reset  // save/restore cursor: an action, never a state that stays set
        case 66: return .init(modes.applicationKeypad)
        case 2004: return .init(modes.bracketedPaste)
        case 9: return .init(modes.mouseTracking == .x10)
        case 1000: return .init(modes.mouseTracking == .normal)
        case 1002: return .init(modes.mouseTracking == .buttonEvent)
        case 1003: return .init(modes.mouseTracking == .anyEvent)
        case 1005: return .init(modes.mouseEncoding == .utf8)
        case 1006: return .init(modes.mouseEncoding == .sgr)
        case 1015: return .init(modes.mouseEncoding == .urxvt)
        case 1016: return .init(modes.mouseEncoding == .sgrPixels)
        case 1004: return .init(modes.focusReporting)
        case 2026: return .init(heldFrame != nil)
        default: return .notRecognized
        }
    }

    /// The state of an ANSI mode as DECRQM reports it: 4 (IRM, insert) and 20 (LNM, new
    /// line) are modeled, the rest not recognized.
    func ansiModeStatus(_ mode: Int) -> TerminalModeStatus {
        switch mode {
        case 4: return .init(screen.insertMode)
        case 20: return .init(screen.newLineMode)
        default: return .notRecognized
        }
    }

    // MARK: - Colour queries

    /// The default foreground (OSC 10), background (OSC 11) and cursor colour (OSC 12) the
    /// terminal reports: the theme's, which the harness draws its pictures with.
    var reportedColors: [TerminalColor] { [theme.foreground, theme.background, theme.foreground] }

    /// OSC 10/11/12 with `?` arguments: each `?` asks for the colour of its position (`OSC 10 ;
    /// ? ; ?` asks for the foreground and the background, as xterm allows), answered
    /// `OSC n ; rgb:RRRR/GGGG/BBBB` with the query's terminator (BEL or ST). Setting a colour
    /// is accepted and ignored.
    mutating func answerColorQuery(_ first: Int, _ arguments: ArraySlice<UInt8>, bellTerminated: Bool) {
        let terminator = bellTerminated ? "\u{07}" : "\u{1B}\\"
        for (offset, argument) in arguments.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).enumerated() {
            let number = first + offset
            guard number <= 12, argument.elementsEqual([UInt8(ascii: "?")]),
                  case let .rgb(red, green, blue) = reportedColors[number - 10] else { continue }
            respond("\u{1B}]\(number);rgb:\(Self.hex16(red))/\(Self.hex16(green))/\(Self.hex16(blue))\(terminator)")
        }
    }

    /// An 8-bit channel as xterm reports it in 16 bits: `d0` -> `d0d0`.
    static func hex16(_ value: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        let pair = String([digits[Int(value >> 4)], digits[Int(value & 0xF)]])
        return pair + pair
    }
}
