import Foundation
import Testing
import TerminalEmulator

/// Our side of each deliberate divergence from libvterm that Scripts/difffuzz.sh skips
/// (docs/terminal-emulator.md, "Deliberate divergences"): the behaviour the docs promise, as
/// byte streams, and the docs' table kept in step with the rules in
/// Fuzz/difffuzz/Divergences.swift.
@Suite struct LibvtermDivergenceTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    private func terminal(_ bytes: String) -> Terminal {
        let terminal = Terminal(cols: 80, rows: 24)
        terminal.feed(bytes)
        return terminal
    }

    @Test("IL and DL move the cursor to the left margin (xterm, VT510)", arguments: ["\u{1B}[L", "\u{1B}[M", "\u{1B}[2L", "\u{1B}[3M"])
    func insertDeleteLineHomesColumn(_ sequence: String) {
        let terminal = terminal("abc\r\nde" + sequence)
        #expect(terminal.cursor.col == 0)
        #expect(terminal.cursor.row == 1)
    }

    @Test func malformedUTF8PrintsReplacementThenTheNextCharacter() {
        let terminal = Terminal(cols: 80, rows: 24)
        terminal.feed([0xDE, UInt8(ascii: "6"), 0xE4, 0xBA, UInt8(ascii: "x")])
        #expect(terminal.snapshot().line(0) == "\u{FFFD}6\u{FFFD}x")
    }

    @Test func everyModeOfAListApplies() {
        let terminal = terminal("\u{1B}[?7;25l\u{1B}[?;1049h")
        #expect(terminal.cursor.visible == false)
        #expect(terminal.modes.autowrap == false)
        #expect(terminal.activeBuffer == .alternate)
    }

    @Test("a region whose bottom is not below its top is ignored", arguments: ["\u{1B}[69r", "\u{1B}[5;5r", "\u{1B}[9;3r"])
    func emptyRegionIgnored(_ sequence: String) {
        let terminal = terminal("\tab" + sequence)
        #expect(terminal.cursor.col == 10)
    }

    @Test func sgrReadings() {
        let terminal = terminal("\u{1B}[6ma\u{1B}[0;4:mb\u{1B}[0;48:2::::2mc\u{1B}[0;48:2;7md")
        let cells = terminal.snapshot().cells[0]
        #expect(cells[0].attributes.blink)
        #expect(!cells[1].attributes.underline)
        #expect(cells[2].attributes.background == .rgb(0, 0, 2))
        #expect(cells[3].attributes.inverse)
        #expect(cells[3].attributes.background == .default)
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        let terminal = terminal("\u{1F52D}\u{8}%")
        #expect(terminal.snapshot().line(0) == " %")
    }

    @Test func decGraphicsYAndZAreLessAndGreaterOrEqual() {
        #expect(terminal("\u{1B}(0yz").snapshot().line(0) == "\u{2264}\u{2265}")
    }

    @Test func decalnFillsPlainAndHomes() {
        let terminal = terminal("\u{1B}[3mxy\u{1B}#8")
        #expect(terminal.cursor.row == 0 && terminal.cursor.col == 0)
        #expect(terminal.cell(row: 5, col: 5) == Cell(character: "E"))
    }

    @Test func erasedCellsKeepOnlyTheBackground() {
        let terminal = terminal("\u{1B}[1;3;4;7;31;42m\u{1B}[2K")
        #expect(terminal.cell(row: 0, col: 3).attributes == CellAttributes(background: .indexed(2)))
    }

    @Test func wideCharacterInInsertModeShiftsTwoCells() {
        let terminal = terminal("C\r\u{1B}[4h\u{1F52D}")
        #expect(terminal.snapshot().line(0) == "\u{1F52D}C")
        #expect(terminal.cell(row: 0, col: 2).character == "C")
    }

    @Test func repeatWithNothingPrintedDoesNothing() {
        let terminal = terminal("\u{1B}c\u{1B}[b")
        #expect(terminal.snapshot().line(0) == "")
        #expect(terminal.cursor.col == 0)
    }

    @Test func cursorAfterAWideCharacterInTheLastColumnsIsOnTheLastColumn() {
        let terminal = terminal("\u{1B}[1;79H\u{4E2D}")
        #expect(terminal.cursor.col == 79)
    }

    /// Where the cursor ends, for the divergences that are about the cursor (rows and columns
    /// 0-based, on 80x24).
    @Test("the cursor as xterm has it", arguments: [
        ("LF cancels a pending wrap", String(repeating: "x", count: 80) + "\ny", 1, 79),
        ("EL cancels a pending wrap", String(repeating: "x", count: 80) + "\u{1B}[K0", 0, 79),
        ("ICH cancels a pending wrap", String(repeating: "x", count: 80) + "\u{1B}[@0", 0, 79),
        ("autowrap off prints on the last column", String(repeating: "x", count: 80) + "\u{1B}[?7ly", 0, 79),
        ("DECRC restores the wrap flag", "\u{1B}[90G\u{1B}7x\u{1B}8y", 0, 79),
        ("CUU stops at the top margin", "\u{1B}[2;5r\u{1B}[3H\u{1B}[5A", 1, 0),
        ("CUD stops at the bottom margin", "\u{1B}[;5r\u{1B}[5B", 4, 0),
        ("CNL stops at the bottom margin", "\u{1B}[;5r\u{1B}[5E", 4, 0),
        ("RIS saves home", "\u{1B}[5;5H\u{1B}7\u{1B}c\u{1B}8", 0, 0),
        ("DECSC saves origin mode", "\u{1B}[5;10r\u{1B}[?6h\u{1B}7\u{1B}[?6l\u{1B}8\u{1B}[H", 4, 0),
        ("DECSTR resets origin mode", "\u{1B}[?6h\u{1B}[!p\u{1B}[5r", 0, 0),
        ("TBC 5 is ignored", "\u{1B}[5g\t", 0, 8),
        ("a huge parameter saturates", "\u{1B}[2147483647H", 23, 0),
        ("ESC SP P is an ESC sequence", "\u{1B} P ", 0, 1),
        ("a C1 control as UTF-8 is ignored", "ab\u{85}", 0, 2),
        ("an unassigned code point is narrow", "\u{3098}", 0, 1),
    ] as [(String, String, Int, Int)])
    func cursorAsXterm(_ name: String, _ stream: String, row: Int, col: Int) {
        let cursor = terminal(stream).cursor
        #expect(cursor.row == row && cursor.col == col, "\(name)")
    }

    @Test func decstrResetsCharsetsInsertModeRegionAndShowsTheCursor() {
        let terminal = terminal("ab\u{1B}(0\u{1B}[?25l\u{1B}[4h\u{1B}[6r\u{1B}[1;1H\u{1B}[!pq\u{1B}[L")
        #expect(terminal.cursor.visible)
        #expect(terminal.snapshot().line(1) == "qb")  // q overwrote a (not inserted, ASCII); IL on row 0
    }

    @Test func insertAndDeleteCharactersActOutsideTheRegion() {
        let terminal = terminal("\u{1B}[6r\u{1B}[Habc\u{1B}[H\u{1B}[P")
        #expect(terminal.snapshot().line(0) == "bc")
    }

    @Test("malformed sequences that xterm and we drop", arguments: [
        ("\u{1B}[;5\u{1B}[48mz", "z"),        // a CSI cut by ESC leaves nothing behind
        ("\u{1B}P\u{7}]\u{1B}\\x", "x"),      // BEL does not end a DCS
        ("\u{1B}[;?4hX", "X"),                 // a late private marker: ignored
        ("\u{1B}[58;1mX", "X"),                // an unknown colour kind is consumed, not bold
    ])
    func droppedAsXterm(_ stream: String, line: String) {
        let terminal = terminal(stream)
        #expect(terminal.snapshot().line(0) == line)
        #expect(terminal.cell(row: 0, col: 0).attributes == .plain)
    }

    /// Every rule the comparer names is in the docs' table, and every row of the table is a rule.
    @Test func docsListEveryRule() throws {
        let code = try ["Divergences.swift", "Comparison.swift"].map {
            try String(contentsOf: Self.repositoryRoot.appendingPathComponent("Fuzz/difffuzz/\($0)"), encoding: .utf8)
        }.joined()
        let docs = try String(contentsOf: Self.repositoryRoot.appendingPathComponent("docs/terminal-emulator.md"), encoding: .utf8)
        let ruleLiteral = try Regex(#"(?:\.stop\(|\.stopIf\(|\.rewrite\(|\.resync\(|return |explained\[)"([a-z0-9-]+)""#)
        let inCode = Set(code.matches(of: ruleLiteral).map { String($0.output[1].substring!) })
        let section = try #require(docs.range(of: "### Deliberate divergences"))
        let rowRule = try Regex(#"(?m)^\| `([a-z0-9-]+)` \|"#)
        let inDocs = Set(docs[section.upperBound...].matches(of: rowRule).map { String($0.output[1].substring!) })
        #expect(inCode.count >= 20)
        #expect(inCode == inDocs, "only in the code: \(inCode.subtracting(inDocs).sorted()); only in the docs: \(inDocs.subtracting(inCode).sorted())")
    }
}
