import Testing
@testable import TerminalEmulator

/// DECRQM (`CSI ? Ps $ p`, `CSI Ps $ p`) and the OSC 10/11/12 colour queries, byte for byte.
@Suite struct TerminalModeReportTests {
    /// What the terminal answers after being fed `setup`, then `query`.
    static func answer(to query: String, after setup: String = "") -> String {
        let terminal = Terminal(cols: 10, rows: 5)
        terminal.feed(setup)
        var answers: [[UInt8]] = []
        terminal.onResponse = { answers.append($0) }
        terminal.feed(query)
        return answers.map { String(decoding: $0, as: UTF8.self) }.joined()
    }

    /// Every DEC private mode the emulator models, the sequence that sets it, and its state on
    /// a fresh terminal.
    static let modeled: [(mode: Int, fresh: TerminalModeStatus)] = [
        (1, .reset), (6, .reset), (7, .set), (25, .set), (47, .reset), (1047, .reset), (1049, .reset),
        (66, .reset), (2004, .reset), (9, .reset), (1000, .reset), (1002, .reset), (1003, .reset),
        (1005, .reset), (1006, .reset), (1015, .reset), (1016, .reset), (1004, .reset), (2026, .reset),
    ]

    @Test(arguments: modeled)
    func aModeledPrivateModeIsReportedSetAfterHAndResetAfterL(mode: Int, fresh: TerminalModeStatus) {
        let query = "\(CSI)?\(mode)$p"
        #expect(Self.answer(to: query) == "\(CSI)?\(mode);\(fresh.rawValue)$y")
        #expect(Self.answer(to: query, after: "\(CSI)?\(mode)h") == "\(CSI)?\(mode);1$y")
        #expect(Self.answer(to: query, after: "\(CSI)?\(mode)h\(CSI)?\(mode)l") == "\(CSI)?\(mode);2$y")
    }

    /// Modes the emulator accepts and ignores, or does not know: "not recognized", set or not,
    /// so a program does not rely on them (2048 in-band resize, among others).
    @Test(arguments: [2048, 12, 1001, 2027, 7727, 3, 9999, 0])
    func anUnmodeledPrivateModeIsNotRecognized(mode: Int) {
        #expect(Self.answer(to: "\(CSI)?\(mode)$p") == "\(CSI)?\(mode);0$y")
        #expect(Self.answer(to: "\(CSI)?\(mode)$p", after: "\(CSI)?\(mode)h") == "\(CSI)?\(mode);0$y")
    }

    @Test func theTableAgreesWithThePublicModes() {
        let terminal = Terminal(cols: 10, rows: 5)
        terminal.feed("\(CSI)?1h\(CSI)?2004h\(CSI)?1002h\(CSI)?1006h\(CSI)?1049h")
        #expect(terminal.modes.applicationCursorKeys && terminal.privateModeStatus(1) == .set)
        #expect(terminal.modes.bracketedPaste && terminal.privateModeStatus(2004) == .set)
        #expect(terminal.modes.mouseTracking == .buttonEvent && terminal.privateModeStatus(1002) == .set)
        #expect(terminal.privateModeStatus(1000) == .reset && terminal.privateModeStatus(1003) == .reset)
        #expect(terminal.modes.mouseEncoding == .sgr && terminal.privateModeStatus(1006) == .set)
        #expect(terminal.modes.alternateScreen && terminal.privateModeStatus(1049) == .set)
        #expect(terminal.privateModeStatus(1048) == .reset)
    }

    @Test(arguments: [
        ("\(CSI)4$p", "", "\(CSI)4;2$y"),
        ("\(CSI)4$p", "\(CSI)4h", "\(CSI)4;1$y"),
        ("\(CSI)20$p", "", "\(CSI)20;2$y"),
        ("\(CSI)20$p", "\(CSI)20h", "\(CSI)20;1$y"),
        ("\(CSI)20$p", "\(CSI)20h\(CSI)20l", "\(CSI)20;2$y"),
        ("\(CSI)2$p", "", "\(CSI)2;0$y"),
        ("\(CSI)12$p", "", "\(CSI)12;0$y"),
        ("\(CSI)2026$p", "", "\(CSI)2026;0$y"),
    ])
    func ansiModes(query: String, setup: String, expected: String) {
        #expect(Self.answer(to: query, after: setup) == expected)
    }

    @Test func aQueryArrivingInPiecesIsAnsweredOnce() {
        let terminal = Terminal(cols: 10, rows: 5)
        var answers: [String] = []
        terminal.onResponse = { answers.append(String(decoding: $0, as: UTF8.self)) }
        for byte in Array("\(CSI)?2026$p".utf8) { terminal.feed([byte]) }
        #expect(answers == ["\(CSI)?2026;2$y"])
        #expect(terminal.unhandledSequenceCount == 0)
    }

    // MARK: - OSC 10/11/12

    static let foreground = "rgb:d0d0/d0d0/d0d0"
    static let background = "rgb:1010/1010/1010"

    @Test(arguments: [
        ("\(ESC)]10;?\u{07}", "\(ESC)]10;\(foreground)\u{07}"),
        ("\(ESC)]11;?\u{07}", "\(ESC)]11;\(background)\u{07}"),
        ("\(ESC)]10;?\(ESC)\\", "\(ESC)]10;\(foreground)\(ESC)\\"),
        ("\(ESC)]11;?\(ESC)\\", "\(ESC)]11;\(background)\(ESC)\\"),
        ("\(ESC)]12;?\u{07}", "\(ESC)]12;\(foreground)\u{07}"),
        ("\(ESC)]10;?;?\u{07}", "\(ESC)]10;\(foreground)\u{07}\(ESC)]11;\(background)\u{07}"),
        ("\(ESC)]10;#ffffff\u{07}", ""),
        ("\(ESC)]11;rgb:ffff/ffff/ffff\u{07}\(ESC)]11;?\u{07}", "\(ESC)]11;\(background)\u{07}"),
        ("\(ESC)]11;??\u{07}", ""),
    ])
    func colourQueries(query: String, expected: String) {
        #expect(Self.answer(to: query) == expected)
    }

    /// A light terminal answers with its light colours, and its snapshots carry the theme.
    @Test func aLightTerminalReportsLightColours() {
        let terminal = Terminal(cols: 10, rows: 5)
        terminal.theme = .light
        var answers: [String] = []
        terminal.onResponse = { answers.append(String(decoding: $0, as: UTF8.self)) }
        terminal.feed("\(ESC)]10;?;?\u{07}")
        #expect(answers == ["\(ESC)]10;rgb:1010/1010/1010\u{07}\(ESC)]11;rgb:f4f4/f4f4/f4f4\u{07}"])
        #expect(terminal.snapshot().theme == .light && terminal.drawnSnapshot().theme == .light)
        #expect(Terminal(cols: 1, rows: 1).snapshot().theme == .dark)
        #expect(TerminalTheme.light.colorFGBG == "0;15" && TerminalTheme.dark.colorFGBG == "15;0")
    }

    @Test func theReportedColoursAreTheDefaults() {
        #expect(Terminal.defaultForeground == .rgb(0xD0, 0xD0, 0xD0))
        #expect(Terminal.defaultBackground == .rgb(0x10, 0x10, 0x10))
    }
}
