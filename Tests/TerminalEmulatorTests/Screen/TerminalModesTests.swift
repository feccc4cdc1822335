import Testing
@testable import TerminalEmulator

@Suite struct TerminalModesTests {
    @Test func decPrivateModesSetAndReset() {
        let terminal = Terminal(cols: 10, rows: 4)
        terminal.feed("\(CSI)?1h\(CSI)?2004h\(CSI)?25l\(CSI)?7l\(CSI)?6h\(ESC)=")
        #expect(terminal.modes == TerminalModes(
            applicationCursorKeys: true, bracketedPaste: true, cursorVisible: false,
            autowrap: false, originMode: true, alternateScreen: false, applicationKeypad: true))
        terminal.feed("\(CSI)?1;2004;6l\(CSI)?25;7h\(ESC)>")
        #expect(terminal.modes == TerminalModes())
        #expect(terminal.unhandledSequenceCount == 0)
    }

    @Test func knownButUnimplementedModesAreNotCounted() {
        let terminal = Terminal()
        terminal.feed("\(CSI)?1000h\(CSI)?1006h\(CSI)?12l\(CSI)?1034h\(CSI)?2026h\(CSI)?1004h")
        #expect(terminal.unhandledSequenceCount == 0)
    }

    @Test func unknownSequencesAreCountedAndIgnored() {
        let terminal = Terminal(cols: 10, rows: 2)
        terminal.feed("a\(CSI)?9999h\(CSI)5y\(ESC)]999;x\u{7}\(ESC)Pq#0\(ESC)\\\(ESC)Zb")
        #expect(terminal.snapshot().line(0) == "ab")
        #expect(terminal.unhandledSequenceCount == 5)
    }

    @Test(arguments: ["1049", "1047", "47"])
    func alternateScreenKeepsMainContent(mode: String) {
        let terminal = Terminal(cols: 10, rows: 3)
        terminal.feed("main\(CSI)?\(mode)h")
        #expect(terminal.activeBuffer == .alternate)
        #expect(terminal.modes.alternateScreen)
        terminal.feed("\(CSI)2J\(CSI)HALT")
        #expect(terminal.snapshot().line(0) == "ALT")
        terminal.feed("\(CSI)?\(mode)l")
        let screen = terminal.snapshot()
        #expect(screen.activeBuffer == .main)
        #expect(screen.line(0) == "main")
    }

    @Test func mode1049SavesAndRestoresCursorAndClears() {
        let terminal = Terminal(cols: 10, rows: 3)
        terminal.feed("\(CSI)?1049hjunk\(CSI)?1049l")
        terminal.feed("\(CSI)2;3H\(CSI)?1049h")
        #expect(terminal.snapshot().line(0) == "", "1049 clears the alternate screen on entry")
        terminal.feed("\(CSI)3;1Hx\(CSI)?1049lY")
        #expect(terminal.snapshot().line(1) == "  Y")
    }

    @Test func mode1047ClearsAlternateOnLeave() {
        let terminal = Terminal(cols: 10, rows: 3)
        terminal.feed("\(CSI)?1047hold\(CSI)?1047l\(CSI)?47h")
        #expect(terminal.snapshot().line(0) == "")
    }

    @Test func mode47KeepsAlternateContent() {
        let terminal = Terminal(cols: 10, rows: 3)
        terminal.feed("\(CSI)?47hold\(CSI)?47l\(CSI)?47h")
        #expect(terminal.snapshot().line(0) == "old")
    }

    @Test func cursorVisibilityShowsInSnapshot() {
        #expect(screen("\(CSI)?25l").cursor.visible == false)
        #expect(screen("\(CSI)?25l\(CSI)?25h").cursor.visible == true)
    }

    @Test func decSpecialGraphicsDrawsLines() {
        let screen = screen("\(ESC)(0lqqk\r\nx  x\r\nmqqj\(ESC)(Bq")
        #expect(screen.lines == ["┌──┐", "│  │", "└──┘q", ""])
    }

    @Test func shiftOutUsesG1() {
        let screen = screen("\(ESC))0a\u{0E}qn\u{0F}q")
        #expect(screen.line(0) == "a─┼q")
    }

    @Test func britishCharset() {
        #expect(screen("\(ESC)(A#1").line(0) == "£1")
    }

    @Test func titleFromOSC0And2() {
        let terminal = Terminal()
        terminal.feed("\(ESC)]0;first\u{7}")
        #expect(terminal.title == "first")
        terminal.feed("\(ESC)]2;sécond\(ESC)\\")
        #expect(terminal.title == "sécond")
        #expect(terminal.snapshot().title == "sécond")
        terminal.feed("\(ESC)c")
        #expect(terminal.title == "")
    }

    @Test func risResetsEverything() {
        let terminal = Terminal(cols: 10, rows: 3)
        terminal.feed("abc\(CSI)?1049h\(CSI)?25l\(CSI)1mx\(ESC)c")
        #expect(terminal.modes == TerminalModes())
        #expect(terminal.activeBuffer == .main)
        #expect(terminal.snapshot().text == "\n\n")
        #expect(terminal.cursor == CursorState(row: 0, col: 0, visible: true))
    }

    @Test func savedCursorRestoresPenAndCharset() {
        let screen = screen("\(CSI)1m\(ESC)(0\(ESC)7\(CSI)m\(ESC)(B\(ESC)8q")
        #expect(screen.cell(row: 0, col: 0) == Cell(character: "─", attributes: CellAttributes(bold: true)))
    }
}
