import Testing
@testable import TerminalEmulator

@Suite struct PrintedTextTests {
    @Test func keepsPrintedCharactersLineFeedsAndTabsOnly() {
        let terminal = Terminal(cols: 20, rows: 2)
        terminal.feed("a\tb\r\n\u{1B}[31mred\u{1B}[m\u{1B}[2;5H\u{1B}]0;title\u{07}x\u{08}y\u{07}\r\n中e\u{301}")
        #expect(terminal.printedText.text(from: 0) == "a\tb\nredxy\n中e\u{301}")
        #expect(terminal.printedText.startOffset == 0)
        #expect(terminal.printedText.endOffset == terminal.printedText.text(from: 0).utf8.count)
    }

    /// The stream holds what the screen shows: repeated characters (REP) and line drawing.
    @Test func repeatsAndLineDrawingAreWhatTheScreenShows() {
        let terminal = Terminal(cols: 20, rows: 2)
        terminal.feed("ab\u{1B}[3b|\u{1B}(0lqqk\u{1B}(B|é\u{1B}[2b")
        #expect(terminal.snapshot().line(0) == "abbbb|┌──┐|ééé")
        #expect(terminal.printedText.text(from: 0) == "abbbb|┌──┐|ééé")
        // One scalar at a time too (the parser's slow path), and shifted out to G1.
        let slow = Terminal(cols: 20, rows: 2)
        for byte in Array("\u{1B})0x\u{0E}x\u{0F}x".utf8) { slow.feed([byte]) }
        #expect(slow.printedText.text(from: 0) == "x│x")
    }

    /// docs/FLOWS.md ("Screens and streams"): text placed with cursor moves is joined in drawing
    /// order with nothing between, and what is later erased or overwritten stays.
    @Test func textPlacedWithCursorMovesIsJoinedInDrawingOrder() {
        let terminal = Terminal(cols: 20, rows: 6)
        terminal.feed("a\u{1B}[5;1Hb\rc\u{1B}[Ad")
        #expect(terminal.printedText.text(from: 0) == "abcd")
        #expect(terminal.snapshot().line(3) == " d" && terminal.snapshot().line(4) == "c")
        terminal.feed("\u{1B}[2J\u{1B}[Hz")
        #expect(terminal.printedText.text(from: 0) == "abcdz")
    }

    @Test func goesOnAcrossScrollingAndTheAlternateScreen() {
        let terminal = Terminal(cols: 10, rows: 2)
        terminal.feed((1...50).map { "\($0)" }.joined(separator: "\r\n"))
        terminal.feed("\u{1B}[?1049hfull\u{1B}[?1049l")
        let text = terminal.printedText.text(from: 0)
        #expect(text.hasPrefix("1\n2\n3\n"))
        #expect(text.hasSuffix("49\n50full"))
    }

    @Test func findsTextAfterAnOffsetOnly() {
        var stream = PrintedText()
        "abc>>> def>>> ".unicodeScalars.forEach { stream.append($0) }
        #expect(stream.range(of: ">>>", from: 0) == 3..<6)
        #expect(stream.range(of: ">>>", from: 4) == 10..<13)
        #expect(stream.range(of: ">>>", from: 11) == nil)
        #expect(stream.range(of: "", from: 0) == nil)
        #expect(stream.text(from: 6, to: 10) == " def")
        #expect(stream.text(from: 100) == "")
    }

    @Test func dropsTheOlderHalfPastItsCapacityAndOffsetsStayAbsolute() {
        var stream = PrintedText(capacity: 64)
        for index in 0..<100 { "\(index % 10)".unicodeScalars.forEach { stream.append($0) } }
        #expect(stream.endOffset == 100)
        #expect(stream.startOffset > 0)
        #expect(stream.endOffset - stream.startOffset <= 64)
        #expect(stream.text(from: 0) == stream.text(from: stream.startOffset))
        #expect(stream.text(from: 98) == "89")
        #expect(stream.range(of: "89", from: 97) == 98..<100)
    }

    @Test func neverCutsACharacterInTwo() {
        var stream = PrintedText(capacity: 64)
        for _ in 0..<100 { stream.append("é") }
        #expect(stream.text(from: 0).allSatisfy { $0 == "é" })
        #expect(stream.text(from: stream.startOffset + 1).allSatisfy { $0 == "é" })
    }
}
