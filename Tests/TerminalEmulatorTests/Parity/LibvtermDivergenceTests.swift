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
