import Testing
@testable import TerminalEmulator

@Suite struct ScreenSnapshotTests {
    static let sample = screen("hello 中文\r\n  world hello\r\n\r\nend", cols: 14, rows: 4)

    @Test func linesAndText() {
        #expect(Self.sample.lines == ["hello 中文", "  world hello", "", "end"])
        #expect(Self.sample.text == "hello 中文\n  world hello\n\nend")
        #expect(Self.sample.line(9) == "")
    }

    @Test func rectangle() {
        #expect(Self.sample.text(in: ScreenRegion(row: 0, col: 2, width: 6, height: 2)) == "llo 中\nworld")
        #expect(Self.sample.text(in: ScreenRegion(row: 0, col: 7, width: 3, height: 1)) == " 文")
        #expect(Self.sample.text(in: ScreenRegion(row: 5, col: 0, width: 3, height: 1)) == "")
    }

    @Test func findText() {
        #expect(Self.sample.find("hello") == [ScreenPosition(row: 0, col: 0), ScreenPosition(row: 1, col: 8)])
        #expect(Self.sample.find("文") == [ScreenPosition(row: 0, col: 8)])
        #expect(Self.sample.contains("world"))
        #expect(!Self.sample.contains("absent"))
        #expect(Self.sample.find("") == [])
    }

    @Test func findRegex() throws {
        let matches = try Self.sample.find(regex: "w[a-z]+|文")
        #expect(matches == [
            ScreenMatch(position: ScreenPosition(row: 0, col: 8), text: "文"),
            ScreenMatch(position: ScreenPosition(row: 1, col: 2), text: "world"),
        ])
    }

    @Test func invalidRegexThrowsTypedError() {
        #expect(throws: ScreenQueryError.self) { try Self.sample.find(regex: "(unclosed") }
    }

    @Test func framedShowsBlanksAndCursor() {
        let terminal = Terminal(cols: 5, rows: 2)
        terminal.feed("ab\r\n中\(CSI)?25l")
        #expect(terminal.snapshot().framed() == """
            ┌─────┐
            │ab   │
            │中   │
            └─────┘
            cursor: row 1, col 2, hidden
            """)
    }

    @Test func cellOutOfRangeIsBlank() {
        #expect(Self.sample.cell(row: -1, col: 0) == .blank)
    }

    @Test func snapshotsAreIndependentOfLaterFeeds() {
        let terminal = Terminal(cols: 5, rows: 1)
        terminal.feed("a")
        let before = terminal.snapshot()
        terminal.feed("b")
        #expect(before.line(0) == "a")
        #expect(terminal.snapshot().line(0) == "ab")
    }
}
