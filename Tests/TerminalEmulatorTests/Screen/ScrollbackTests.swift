import Testing
@testable import TerminalEmulator

@Suite struct ScrollbackTests {
    /// A terminal after `text` was fed.
    static func terminal(_ text: String, cols: Int = 10, rows: Int = 3, limit: Int = 10_000) -> Terminal {
        let terminal = Terminal(cols: cols, rows: rows, scrollbackLimit: limit)
        terminal.feed(text)
        return terminal
    }

    static func numbered(_ range: ClosedRange<Int>) -> String {
        range.map { "line\($0)" }.joined(separator: "\r\n")
    }

    @Test func linesThatScrollOffTheTopAreKeptInOrder() {
        let screen = Self.terminal(Self.numbered(1...5)).snapshot()
        #expect(screen.scrollbackLines == ["line1", "line2"])
        #expect(screen.lines == ["line3", "line4", "line5"])
        #expect(screen.transcriptLines == ["line1", "line2", "line3", "line4", "line5"])
        #expect(screen.transcript == "line1\nline2\nline3\nline4\nline5")
        #expect(screen.scrolledOffCount == 2)
        #expect(screen.transcriptLineCount == 5)
        #expect(screen.transcriptLine(1) == "line2")
        #expect(screen.transcriptLine(2) == "line3")
    }

    @Test(arguments: [0, 1, 5, 31, 32, 33, 100])
    func theLimitIsNeverExceededAndKeepsTheNewest(limit: Int) {
        let screen = Self.terminal(Self.numbered(1...203), limit: limit).snapshot()
        #expect(screen.scrollbackCount == min(limit, 200))
        #expect(screen.scrolledOffCount == 200)
        #expect(screen.scrollbackLines == (201 - min(limit, 200)..<201).map { "line\($0)" })
    }

    /// A scrolled-off row keeps every cell up to its last one that is not a plain blank: a
    /// character, or a blank with a background colour left by an erase. The columns cover
    /// both sides of the blocks of four cells the trailing blanks are tested in.
    @Test(arguments: [0, 1, 2, 3, 4, 5, 7, 8, 75, 76, 77, 78, 79])
    func aScrolledOffRowKeepsEveryCellUpToItsLastNonBlankOne(col: Int) {
        let character = Self.terminal("\(CSI)1;\(col + 1)Hx\r\n\n", cols: 80, rows: 2)
        #expect(character.snapshot().scrollbackCells(line: 0).count == col + 1)
        #expect(character.snapshot().scrollbackLine(0) == String(repeating: " ", count: col) + "x")

        let erased = Self.terminal("\(CSI)1;\(col + 1)H\(CSI)44m\(CSI)1X\(CSI)m\r\n\n", cols: 80, rows: 2)
        let cells = erased.snapshot().scrollbackCells(line: 0)
        #expect(cells.count == col + 1)
        #expect(cells.last?.attributes.background == .indexed(4))

        let plain = Self.terminal("\(CSI)1;\(col + 1)H\(CSI)1X\r\n\n", cols: 80, rows: 2)
        #expect(plain.snapshot().scrollbackCells(line: 0).isEmpty)
    }

    @Test func memoryIsBoundedByTheLimit() {
        let terminal = Terminal(cols: 80, rows: 24, scrollbackLimit: 100)
        for round in 0..<2_000 { terminal.feed("round \(round)\r\n") }
        let screen = terminal.snapshot()
        #expect(screen.scrollbackCount == 100)
        // Stored: at most the limit plus one open chunk.
        #expect(screen.scrollback.sealed.count * Scrollback.chunkSize <= 100 + Scrollback.chunkSize)
        #expect(screen.scrollbackLine(99) == "round 1976")
    }

    @Test func theAlternateScreenNeverAddsToIt() {
        let terminal = Self.terminal("a\r\nb\r\nc\r\nd")
        #expect(terminal.snapshot().scrollbackLines == ["a"])
        terminal.feed("\u{1B}[?1049h" + Self.numbered(1...20) + "\u{1B}D\u{1B}[5S")
        #expect(terminal.snapshot().scrollbackLines == ["a"])
        terminal.feed("\u{1B}[?1049l\r\ne")
        #expect(terminal.snapshot().scrollbackLines == ["a", "b"])
    }

    @Test func eraseSavedLinesClearsItButTheCountGoesOn() {
        let terminal = Self.terminal(Self.numbered(1...6))
        terminal.feed("\u{1B}[3J")
        let cleared = terminal.snapshot()
        #expect(cleared.scrollbackLines == [])
        #expect(cleared.lines == ["line4", "line5", "line6"])
        #expect(cleared.scrolledOffCount == 3)
        terminal.feed("\r\nline7")
        #expect(terminal.snapshot().scrollbackLines == ["line4"])
        #expect(terminal.snapshot().linesScrolledOff(since: 3) == ["line4"])
    }

    /// Blanks that carry a hyperlink (OSC 8 over spaces) are not trailing blanks: they scroll
    /// off with their link.
    @Test func trailingBlanksWithALinkAreKept() {
        let terminal = Terminal(cols: 12, rows: 2)
        terminal.feed("a\u{1B}]8;;https://x.test/\u{07}      \u{1B}]8;;\u{07}\r\n\r\n\r\n")
        let snapshot = terminal.snapshot()
        #expect(snapshot.scrollbackCells(line: 0).count >= 7)
        #expect(snapshot.scrollbackCell(line: 0, col: 6).attributes.link == "https://x.test/")
        #expect(snapshot.scrollbackCell(line: 0, col: 7).attributes.link == nil)
    }

    @Test func eraseDisplayTwoAndFullResetKeepIt() {
        let terminal = Self.terminal(Self.numbered(1...4))
        terminal.feed("\u{1B}[2J\u{1B}c")
        #expect(terminal.snapshot().scrollbackLines == ["line1"])
        #expect(terminal.snapshot().lines == ["", "", ""])
    }

    @Test func onlyARegionAtTheTopAddsToIt() {
        // Region rows 2-3 (1-based): scrolling inside it loses the line, as in xterm.
        let middle = Self.terminal("top\u{1B}[2;3r\u{1B}[3;1Hx\r\ny\r\nz", rows: 4)
        #expect(middle.snapshot().scrollbackLines == [])
        // Region rows 1-2: the top row leaves into the scrollback; the rows below stay.
        let top = Self.terminal("\u{1B}[4;1Hfooter\u{1B}[1;2r\u{1B}[1;1Ha\r\nb\r\nc", rows: 4)
        #expect(top.snapshot().scrollbackLines == ["a"])
        #expect(top.snapshot().lines == ["b", "c", "", "footer"])
    }

    @Test func scrollUpAddsLinesAndScrollDownDoesNot() {
        let terminal = Self.terminal("a\r\nb\r\nc\u{1B}[2S")
        #expect(terminal.snapshot().scrollbackLines == ["a", "b"])
        terminal.feed("\u{1B}[2T\u{1B}M")
        #expect(terminal.snapshot().scrollbackLines == ["a", "b"])
    }

    @Test func shrinkingTheScreenPushesTheTopRowsIntoIt() {
        let terminal = Self.terminal("a\r\nb\r\nc\r\nd", rows: 4)
        terminal.resize(cols: 10, rows: 2)
        #expect(terminal.snapshot().scrollbackLines == ["a", "b"])
        #expect(terminal.snapshot().lines == ["c", "d"])
    }

    @Test func stylesWideAndCombiningCharactersSurvive() {
        let terminal = Self.terminal("\u{1B}[1;31mred\u{1B}[m 中e\u{301}\u{1B}[48;2;1;2;3m \u{1B}[m\r\nx\r\ny\r\nz")
        let screen = terminal.snapshot()
        #expect(screen.scrollbackLine(0) == "red 中é")
        let red = screen.scrollbackCell(line: 0, col: 0)
        #expect(red.character == "r")
        #expect(red.attributes.bold)
        #expect(red.attributes.foreground == .indexed(1))
        #expect(screen.scrollbackCell(line: 0, col: 4) == Cell(character: "中", width: 2))
        #expect(screen.scrollbackCell(line: 0, col: 5).width == 0)
        #expect(screen.scrollbackCell(line: 0, col: 6).character == "e\u{301}")
        // A blank with a background is kept (it is not a plain blank).
        #expect(screen.scrollbackCell(line: 0, col: 7).attributes.background == .rgb(1, 2, 3))
        #expect(screen.scrollbackCells(line: 0).count == 8)
        #expect(screen.scrollbackCell(line: 0, col: 50) == .blank)
        #expect(screen.scrollbackCell(line: 7, col: 0) == .blank)
        #expect(screen.transcriptCell(line: 0, col: 0) == red)
        #expect(screen.transcriptCell(line: 1, col: 0).character == "x")
    }

    @Test func aSnapshotDoesNotChangeWhenMoreScrolls() {
        let terminal = Self.terminal(Self.numbered(1...40))
        let before = terminal.snapshot()
        terminal.feed("\r\n" + Self.numbered(41...100))
        let after = terminal.snapshot()
        #expect(before.scrollbackCount == 37)
        #expect(before.scrollbackLine(36) == "line37")
        #expect(after.scrollbackCount == 97)
        #expect(after.linesScrolledOff(since: before.scrolledOffCount).first == "line38")
        #expect(before != after)
        #expect(before == before)
    }

    @Test func snapshotsDifferingOnlyInScrollbackAreNotEqual() {
        let one = Self.terminal("x\r\na\r\nb\r\nc").snapshot()
        let other = Self.terminal("y\r\na\r\nb\r\nc").snapshot()
        #expect(one.lines == other.lines)
        #expect(one != other)
    }

    @Test func framedTranscriptShowsEveryLineAndLeavesOutBlankRowsBelow() {
        let terminal = Self.terminal("one\r\ntwo\r\nthree\r\nfour\r\n", cols: 5, rows: 3)
        #expect(terminal.snapshot().framedTranscript() == """
            ┌─────┐
            │one  │
            │two  │
            │three│
            │four │
            │     │
            └─────┘
            scrollback: 2 lines, screen: 3 of 3 rows
            """)
        let short = Self.terminal("hi", cols: 4, rows: 3)
        #expect(short.snapshot().framedTranscript() == "┌────┐\n│hi  │\n└────┘\nscrollback: 0 lines, screen: 1 of 3 rows")
    }
}
