import Foundation
import Harness
import Testing
import TerminalEmulator

/// A failed check on a screen prints what a person would look at, in a few KB.
@Suite struct ReadableValuesTests {
    /// A busy 80x24 screen with styles, wide characters and 500 lines of scrollback.
    static func busyScreen() -> ScreenSnapshot {
        let terminal = Terminal(cols: 80, rows: 24)
        for line in 1...500 { terminal.feed("\u{1B}[1;31mline \(line)\u{1B}[0m 界 é\r\n") }
        terminal.feed("\u{1B}]2;title\u{07}Saved")
        return terminal.snapshot()
    }

    @Test func aScreenDescribesItselfAsItsFramedRows() {
        let screen = Self.busyScreen()
        let text = String(describing: screen)
        #expect(text.hasPrefix("ScreenSnapshot 80x24 (main screen, 477 lines of scrollback, title \"title\")\n┌"))
        #expect(text.contains("│line 500 界 é"))
        #expect(text.hasSuffix("cursor: row 23, col 5, visible"))
        #expect(String(reflecting: screen) == text)
        #expect(screen.testDescription == text)
        var dumped = ""
        dump(screen, to: &dumped)
        #expect(dumped.utf8.count < 8_192, "dump printed \(dumped.utf8.count) bytes")
        #expect(!dumped.contains("StoredCell"))
    }

    /// What Swift Testing records for a failing `#expect` that reads a screen: the screen once,
    /// framed, in a few KB (it was 150 KB of stored cells).
    @Test func aFailingExpectOnAScreenPrintsAFewKilobytes() {
        let screen = Self.busyScreen()
        withKnownIssue {
            #expect(screen.contains("Loaded"))
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("│line 500 界 é") && text.utf8.count < 6_000 && !text.contains("StoredCell")
        }
    }

    static let cellCases: [(Cell, String)] = [
        (Cell(character: "a"), #""a""#),
        (Cell(character: "界", width: 2), #""界" wide"#),
        (Cell(character: "", width: 0), #""" right half"#),
        (Cell(character: "x", attributes: CellAttributes(foreground: .indexed(1), bold: true)), #""x" bold fg=red"#),
        (Cell(character: "y", attributes: CellAttributes(background: .rgb(16, 32, 255), underline: true)),
         #""y" underline bg=#1020ff"#),
        (Cell(character: "z", attributes: CellAttributes(foreground: .indexed(12), background: .indexed(208))),
         #""z" fg=bright-blue bg=color(208)"#),
    ]

    @Test(arguments: cellCases)
    func cellsDescribeTheirCharacterAndStyle(cell: Cell, expected: String) {
        #expect(cell.description == expected)
        #expect(cell.testDescription == expected)
    }
}
