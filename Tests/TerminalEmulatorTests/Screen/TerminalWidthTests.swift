import Testing
@testable import TerminalEmulator

@Suite struct TerminalWidthTests {
    @Test(arguments: [
        ("a", 1), ("é", 1), ("中", 2), ("ｱ", 1), ("Ａ", 2), ("가", 2), ("😀", 2), ("🚀", 2),
        ("\u{301}", 3), ("\u{200D}", 3), ("\u{FE0F}", 3), ("\u{200B}", 0), ("\u{1F9FF}", 2),
        ("─", 1), ("\u{E0100}", 3), ("\u{20000}", 2), ("\u{3FFFD}", 2),
    ] as [(String, Int)])
    func widthClass(character: String, expected: Int) {
        #expect(Int(CharacterWidth.of(character.unicodeScalars.first!.value)) == expected)
    }

    @Test func wideCharactersTakeTwoCells() {
        let screen = screen("a中b😀c")
        #expect(screen.line(0) == "a中b😀c")
        #expect(screen.cursor.col == 7)
        #expect(screen.cell(row: 0, col: 1) == Cell(character: "中", width: 2))
        #expect(screen.cell(row: 0, col: 2) == Cell(character: "", width: 0))
        #expect(screen.cell(row: 0, col: 4).character == "😀")
    }

    @Test func wideCharacterAtLastColumnWraps() {
        let screen = screen("123456789中")
        #expect(screen.lines == ["123456789", "中", "", ""])
        #expect(screen.cursor == CursorState(row: 1, col: 2))
    }

    /// As xterm: the wide character that does not fit is written on the next line only; the
    /// last column keeps what it held (a character, its colours, a wide character's right half).
    @Test(arguments: [
        ("\u{1B}[10GX\u{1B}[10G中", "123456789X"),
        ("\u{1B}[10G\u{1B}[41m中", "123456789"),
        ("\u{1B}[9G中\u{1B}[10G好", "12345678中"),
    ])
    func wideCharacterAtLastColumnLeavesThatColumn(stream: String, firstLine: String) {
        let screen = screen("123456789" + stream)
        #expect(screen.line(0) == firstLine)
        #expect(screen.cell(row: 0, col: 9).attributes.background == .default)
        #expect(screen.line(1).hasSuffix("好") || screen.line(1).hasSuffix("中"))
        #expect(screen.cursor == CursorState(row: 1, col: 2))
    }

    @Test func wideCharacterFillsLineExactly() {
        let screen = screen("12345678中x")
        #expect(screen.lines == ["12345678中", "x", "", ""])
    }

    @Test func combiningMarksJoinThePreviousCell() {
        let screen = screen("e\u{301}x")
        #expect(screen.cell(row: 0, col: 0).character == "e\u{301}")
        #expect(screen.cell(row: 0, col: 1).character == "x")
        #expect(screen.cursor.col == 2)
    }

    @Test func combiningAfterPendingWrapJoinsLastColumn() {
        let screen = screen("123456789e\u{301}")
        #expect(screen.cell(row: 0, col: 9).character == "e\u{301}")
        #expect(screen.cursor == CursorState(row: 0, col: 9))
    }

    @Test func combiningAfterWideCharacterJoinsIt() {
        let screen = screen("中\u{309A}x")
        #expect(screen.cell(row: 0, col: 0).character == "中\u{309A}")
        #expect(screen.cell(row: 0, col: 2).character == "x")
    }

    @Test func zeroWidthJoinerSequenceStaysInOneCell() {
        let family = "👨\u{200D}👩"
        let screen = screen(family + "x")
        // The ZWJ joins the first emoji; the second emoji is then printed in its own cells
        // (we do not do grapheme clustering of emoji sequences, like most terminals).
        #expect(screen.cell(row: 0, col: 0).character == "👨\u{200D}")
        #expect(screen.cell(row: 0, col: 2).character == "👩")
    }

    @Test func variationSelectorJoins() {
        #expect(screen("✔\u{FE0F}x").cell(row: 0, col: 0).character == "✔\u{FE0F}")
    }

    @Test func zeroWidthCharactersAreIgnored() {
        let screen = screen("a\u{200B}b\u{FEFF}c")
        #expect(screen.line(0) == "abc")
        #expect(screen.cursor.col == 3)
    }

    @Test func combiningMarkAtStartIsDropped() {
        #expect(screen("\u{301}a").line(0) == "a")
    }
}
