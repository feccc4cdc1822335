import Testing
@testable import TerminalEmulator

@Suite struct TerminalResizeTests {
    @Test func growingKeepsContent() {
        let terminal = Terminal(cols: 5, rows: 2)
        terminal.feed("abc\r\nde")
        terminal.resize(cols: 8, rows: 4)
        let screen = terminal.snapshot()
        #expect(screen.cols == 8 && screen.rows == 4)
        #expect(screen.lines == ["abc", "de", "", ""])
        #expect(screen.cursor == CursorState(row: 1, col: 2))
        #expect(terminal.cols == 8 && terminal.rows == 4)
    }

    @Test func shrinkingKeepsCursorRowOnScreen() {
        let terminal = Terminal(cols: 10, rows: 4)
        terminal.feed("1\r\n2\r\n3\r\n4234567")
        terminal.resize(cols: 5, rows: 2)
        let screen = terminal.snapshot()
        #expect(screen.lines == ["3", "42345"])
        #expect(screen.cursor == CursorState(row: 1, col: 4))
    }

    @Test func shrinkingCutsWideCharacterAtEdge() {
        let terminal = Terminal(cols: 4, rows: 1)
        terminal.feed("a中")
        terminal.resize(cols: 2, rows: 1)
        #expect(terminal.snapshot().line(0) == "a")
    }

    @Test func scrollRegionIsResetToWholeScreen() {
        let terminal = Terminal(cols: 5, rows: 4)
        terminal.feed("\(CSI)1;2r")
        terminal.resize(cols: 5, rows: 3)
        terminal.feed("a\r\nb\r\nc\r\nd")
        #expect(terminal.snapshot().lines == ["b", "c", "d"])
    }

    @Test func tabStopsExtendOnGrowth() {
        let terminal = Terminal(cols: 10, rows: 1)
        terminal.resize(cols: 20, rows: 1)
        terminal.feed("\t\tX")
        #expect(terminal.snapshot().line(0) == String(repeating: " ", count: 16) + "X")
    }

    @Test func invalidSizesAreClampedToOne() {
        let terminal = Terminal(cols: 0, rows: -3)
        terminal.feed("ab")
        #expect(terminal.cols == 1 && terminal.rows == 1)
        #expect(terminal.snapshot().line(0) == "b")
    }
}
