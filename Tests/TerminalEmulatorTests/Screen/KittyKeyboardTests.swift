import Testing
import TerminalEmulator

/// The kitty keyboard protocol's flags as a program switches them (push, pop, set, query),
/// one stack per screen; and the other input modes: focus reporting (1004),
/// SGR-Pixels (1016) and the size reports in pixels.
@Suite struct KittyKeyboardTests {
    /// Feeds `bytes` and returns what the terminal answered.
    static func answers(_ terminal: Terminal, _ bytes: String) -> String {
        var answer: [UInt8] = []
        terminal.onResponse = { answer += $0 }
        terminal.feed(bytes)
        terminal.onResponse = nil
        return String(decoding: answer, as: UTF8.self)
    }

    @Test func startsWithNoFlagsAndAnswersTheQuery() {
        let terminal = Terminal()
        #expect(terminal.modes.kittyKeyboard == [])
        #expect(Self.answers(terminal, "\(CSI)?u") == "\(CSI)?0u")
    }

    @Test func pushSetsTheFlagsAndPopRestoresThePreviousOnes() {
        let terminal = Terminal()
        terminal.feed("\(CSI)>1u")
        #expect(terminal.modes.kittyKeyboard == .disambiguate)
        terminal.feed("\(CSI)>25u")  // what Textual pushes: 1 + 8 + 16
        #expect(terminal.modes.kittyKeyboard == [.disambiguate, .reportAllKeysAsEscapeCodes, .reportAssociatedText])
        #expect(Self.answers(terminal, "\(CSI)?u") == "\(CSI)?25u")
        terminal.feed("\(CSI)<u")  // pops one
        #expect(terminal.modes.kittyKeyboard == .disambiguate)
        terminal.feed("\(CSI)<u")
        #expect(terminal.modes.kittyKeyboard == [])
        #expect(terminal.unhandledSequenceCount == 0)
    }

    @Test func popTakesACountAndAnEmptiedStackHasNoFlags() {
        let terminal = Terminal()
        terminal.feed("\(CSI)=2u")  // no push: sets the base entry
        terminal.feed("\(CSI)>1u\(CSI)>3u\(CSI)>7u")
        terminal.feed("\(CSI)<2u")
        #expect(terminal.modes.kittyKeyboard.rawValue == 1)
        terminal.feed("\(CSI)<5u")  // more than pushed: the stack is empty, every flag reset
        #expect(terminal.modes.kittyKeyboard == [])
        #expect(Self.answers(terminal, "\(CSI)?u") == "\(CSI)?0u")
    }

    @Test(arguments: [
        ("\(CSI)=9u", 9), ("\(CSI)=9;1u", 9), ("\(CSI)=8;2u", 3 | 8), ("\(CSI)=1;3u", 2), ("\(CSI)=0u", 0),
    ])
    func setChangesTheTopEntry(_ sequence: String, _ expected: Int) {
        let terminal = Terminal()
        terminal.feed("\(CSI)>5u\(CSI)>3u")
        terminal.feed(sequence)
        #expect(terminal.modes.kittyKeyboard.rawValue == expected)
        terminal.feed("\(CSI)<u")  // the entry below is untouched
        #expect(terminal.modes.kittyKeyboard.rawValue == 5)
    }

    @Test func anUnknownSetModeChangesNothingAndIsCounted() {
        let terminal = Terminal()
        terminal.feed("\(CSI)>1u\(CSI)=8;4u")
        #expect(terminal.modes.kittyKeyboard == .disambiguate)
        #expect(terminal.unhandledSequenceCount == 1)
    }

    @Test func bitsTheProtocolDoesNotDefineAreDropped() {
        let terminal = Terminal()
        terminal.feed("\(CSI)>255u")
        #expect(terminal.modes.kittyKeyboard == .all)
        #expect(Self.answers(terminal, "\(CSI)?u") == "\(CSI)?31u")
    }

    @Test func theMainAndTheAlternateScreenHaveStacksOfTheirOwn() {
        let terminal = Terminal()
        terminal.feed("\(CSI)>1u")
        terminal.feed("\(CSI)?1049h")
        #expect(terminal.modes.kittyKeyboard == [])  // a fresh stack on the alternate screen
        terminal.feed("\(CSI)>11u")
        #expect(Self.answers(terminal, "\(CSI)?u") == "\(CSI)?11u")
        terminal.feed("\(CSI)?1049l")
        #expect(terminal.modes.kittyKeyboard == .disambiguate)  // the main screen's, kept
        terminal.feed("\(CSI)<u")
        terminal.feed("\(CSI)?1049h")
        #expect(terminal.modes.kittyKeyboard.rawValue == 11)  // the alternate screen's, kept too
    }

    @Test func theStackKeepsTheNewestSixteenEntries() {
        let terminal = Terminal()
        for flags in 1...20 { terminal.feed("\(CSI)>\(flags % 32)u") }
        terminal.feed("\(CSI)<15u")
        #expect(terminal.modes.kittyKeyboard.rawValue == 5)  // entry 16 of the 16 kept (5...20)
        terminal.feed("\(CSI)<u")
        #expect(terminal.modes.kittyKeyboard == [])
    }

    @Test func aFullResetClearsTheStacks() {
        let terminal = Terminal()
        terminal.feed("\(CSI)>1u\u{1B}c")
        #expect(terminal.modes.kittyKeyboard == [])
    }

    @Test func aPushSplitAcrossFeedsIsApplied() {
        let terminal = Terminal()
        for byte in "\(CSI)>9u".utf8 { terminal.feed([byte]) }
        #expect(terminal.modes.kittyKeyboard.rawValue == 9)
    }

    // MARK: - Focus, pixel mouse, sizes in pixels

    @Test func focusReportingIsMode1004() {
        let terminal = Terminal()
        #expect(!terminal.modes.focusReporting)
        terminal.feed("\(CSI)?1004h")
        #expect(terminal.modes.focusReporting)
        terminal.feed("\(CSI)?1004l")
        #expect(!terminal.modes.focusReporting)
        #expect(terminal.unhandledSequenceCount == 0)
    }

    @Test func sgrPixelsIsAnEncodingThatReplacesSGR() {
        let terminal = Terminal()
        terminal.feed("\(CSI)?1000;1006h\(CSI)?1016h")
        #expect(terminal.modes.mouseEncoding == .sgrPixels)
        #expect(MouseEncoding.sgrPixels.modeNumber == 1016)
        terminal.feed("\(CSI)?1006l")  // not the active one: no effect
        #expect(terminal.modes.mouseEncoding == .sgrPixels)
        terminal.feed("\(CSI)?1016l")
        #expect(terminal.modes.mouseEncoding == .legacy)
        terminal.feed("\(CSI)?1016h\(CSI)?1006h")
        #expect(terminal.modes.mouseEncoding == .sgr)
    }

    @Test(arguments: [
        ("\(CSI)14t", "\(CSI)4;480;800t"), ("\(CSI)16t", "\(CSI)6;20;10t"), ("\(CSI)18t", "\(CSI)8;24;80t"), ("\(CSI)22;0t", ""),
    ])
    func sizeReportsUseTheFixedCellSize(_ query: String, _ answer: String) {
        let terminal = Terminal(cols: 80, rows: 24)
        #expect(Self.answers(terminal, query) == answer)
        #expect(CellPixelSize.standard.width == 10 && CellPixelSize.standard.height == 20)
    }

    @Test func aCellIsReportedAtThePixelInItsMiddle() {
        let pixel = CellPixelSize.standard.reportedPixel(row: 2, col: 4)
        #expect(pixel.x == 46 && pixel.y == 51)
        // Counted from 0 or from 1, the pixel divides back to the cell.
        #expect((pixel.x - 1) / 10 == 4 && pixel.x / 10 == 4 && (pixel.y - 1) / 20 == 2 && pixel.y / 20 == 2)
    }
}
