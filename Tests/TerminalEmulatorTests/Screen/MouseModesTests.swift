import Testing
import TerminalEmulator

/// The mouse modes a program switches with DECSET / DECRST, as xterm tracks them.
@Suite struct MouseModesTests {
    @Test(arguments: [
        ("9", MouseTracking.x10), ("1000", .normal), ("1002", .buttonEvent), ("1003", .anyEvent),
    ])
    func trackingModeIsSetAndReset(mode: String, tracking: MouseTracking) {
        let terminal = Terminal()
        #expect(terminal.modes.mouseTracking == .off)
        terminal.feed("\(CSI)?\(mode)h")
        #expect(terminal.modes.mouseTracking == tracking)
        #expect(tracking.modeNumber.map(String.init) == mode)
        terminal.feed("\(CSI)?\(mode)l")
        #expect(terminal.modes.mouseTracking == .off)
        #expect(terminal.unhandledSequenceCount == 0)
    }

    @Test func theLastTrackingModeSetWins() {
        let terminal = Terminal()
        terminal.feed("\(CSI)?1000h\(CSI)?1002h")
        #expect(terminal.modes.mouseTracking == .buttonEvent)
        terminal.feed("\(CSI)?1003;1000h")
        #expect(terminal.modes.mouseTracking == .normal)
    }

    @Test func resettingAnyTrackingModeTurnsReportingOff() {
        let terminal = Terminal()
        terminal.feed("\(CSI)?1002h\(CSI)?1000l")
        #expect(terminal.modes.mouseTracking == .off, "xterm: DECRST of any tracking mode turns reporting off")
        terminal.feed("\(CSI)?1003h\(CSI)?9l")
        #expect(terminal.modes.mouseTracking == .off)
    }

    @Test(arguments: [("1005", MouseEncoding.utf8), ("1006", .sgr), ("1015", .urxvt)])
    func encodingIsSetAndReset(mode: String, encoding: MouseEncoding) {
        let terminal = Terminal()
        #expect(terminal.modes.mouseEncoding == .legacy)
        terminal.feed("\(CSI)?1000;\(mode)h")
        #expect(terminal.modes.mouseEncoding == encoding)
        #expect(terminal.modes.mouseTracking == .normal)
        terminal.feed("\(CSI)?\(mode)l")
        #expect(terminal.modes.mouseEncoding == .legacy)
        #expect(terminal.modes.mouseTracking == .normal, "the encoding does not switch tracking")
    }

    @Test func resettingAnEncodingThatIsNotActiveKeepsTheActiveOne() {
        let terminal = Terminal()
        terminal.feed("\(CSI)?1005h\(CSI)?1006h")
        #expect(terminal.modes.mouseEncoding == .sgr)
        terminal.feed("\(CSI)?1005l")
        #expect(terminal.modes.mouseEncoding == .sgr, "xterm: a reset only undoes the active encoding")
        terminal.feed("\(CSI)?1006l")
        #expect(terminal.modes.mouseEncoding == .legacy)
    }

    @Test func risTurnsMouseReportingOff() {
        let terminal = Terminal()
        terminal.feed("\(CSI)?1003h\(CSI)?1006h\(ESC)c")
        #expect(terminal.modes.mouseTracking == .off)
        #expect(terminal.modes.mouseEncoding == .legacy)
    }

    @Test func decstrKeepsTheMouseModesAsXtermDoes() {
        let terminal = Terminal()
        terminal.feed("\(CSI)?1002h\(CSI)?1006h\(CSI)?1h\(CSI)!p")
        #expect(terminal.modes.applicationCursorKeys == false, "DECSTR did run")
        #expect(terminal.modes.mouseTracking == .buttonEvent)
        #expect(terminal.modes.mouseEncoding == .sgr)
    }

    @Test func modesSplitAcrossChunksAreSeen() {
        let terminal = Terminal()
        terminal.feed("\(CSI)?10")
        terminal.feed("00;10")
        terminal.feed("06h")
        #expect(terminal.modes == TerminalModes(mouseTracking: .normal, mouseEncoding: .sgr))
    }
}
