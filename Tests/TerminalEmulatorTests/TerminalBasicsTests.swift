import Testing
@testable import TerminalEmulator

@Suite struct TerminalBasicsTests {
    @Test func printsTextAndMovesCursor() {
        let terminal = Terminal(cols: 10, rows: 3)
        terminal.feed("ab\r\ncd\u{1B}[3;5Hx")
        let screen = terminal.snapshot()
        #expect(screen.lines == ["ab", "cd", "    x"])
        #expect(screen.cursor == CursorState(row: 2, col: 5, visible: true))
    }
}
