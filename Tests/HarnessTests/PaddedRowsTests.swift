import Testing
@testable import HarnessCore
import TerminalEmulator

/// Text waits search rows with their trailing blanks (a `"$ "` prompt), read from the
/// snapshot's compact storage one row at a time.
@Suite struct PaddedRowsTests {
    private static func screen(_ rows: [String], cols: Int) -> ScreenSnapshot {
        let terminal = Terminal(cols: cols, rows: rows.count)
        terminal.feed(rows.enumerated().map { "\u{1B}[\($0.offset + 1);1H\($0.element)" }.joined())
        return terminal.snapshot()
    }

    @Test func findsTextThatEndsInBlanks() {
        let screen = Self.screen(["", "$ ", "wide 界 end"], cols: 12)
        #expect(screen.showsText("$ "))
        #expect(screen.showsText("$   "))
        #expect(screen.showsText("界 end "))
        #expect(!screen.showsText("$  x"))
        #expect(screen.paddedLine(2) == "wide 界 end ")
    }

    @Test func givenCellsWithAnEmptyCharacterReadAsBlanks() {
        let blank = Cell(character: "", width: 1, attributes: .plain)
        let a = Cell(character: "a", width: 1, attributes: .plain)
        let screen = ScreenSnapshot(cols: 3, rows: 1, cells: [[a, blank, a]],
                                    cursor: CursorState(row: 0, col: 0, visible: true), title: "", activeBuffer: .main)
        #expect(screen.paddedLine(0) == "a a")
        #expect(screen.showsText("a a"))
    }

    @Test func givenRowsShorterThanTheScreenArePaddedWithBlanks() {
        let a = Cell(character: "a", width: 1, attributes: .plain)
        let screen = ScreenSnapshot(cols: 3, rows: 2, cells: [[a]],
                                    cursor: CursorState(row: 0, col: 0, visible: true), title: "", activeBuffer: .main)
        #expect(screen.paddedLine(0) == "a  ")
        #expect(screen.paddedLine(1) == "   ")
        #expect(screen.cell(row: 1, col: 2) == .blank)
    }
}
