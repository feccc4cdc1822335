extension ScreenSnapshot {
    // MARK: - Scrollback

    /// How many scrolled-off lines the snapshot holds (at most the terminal's scrollback limit).
    public var scrollbackCount: Int { scrollback.count }

    /// How many lines ever scrolled off the top of the main screen, including those dropped
    /// past the limit or erased by `ED 3`. It only grows, so a line keeps its number: the lines
    /// that scrolled off after an earlier snapshot `s` are ``linesScrolledOff(since:)`` with
    /// `s.scrolledOffCount`.
    public var scrolledOffCount: Int { scrollback.totalPushed }

    /// The scrolled-off lines, oldest first, as text (trailing blanks trimmed, a wide character
    /// once), like ``lines`` for the screen.
    public var scrollbackLines: [String] { (0..<scrollback.count).map { scrollbackLine($0) } }

    /// Scrolled-off line `index` (0 = the oldest held) as text; "" when out of range.
    public func scrollbackLine(_ index: Int) -> String {
        guard index >= 0, index < scrollback.count else { return "" }
        return Self.trimmingTrailingBlanks(text(ofStored: scrollback.line(index)))
    }

    /// The cell at column `col` of scrolled-off line `index`; a blank cell past the line's end
    /// or out of range. Colors, attributes, wide and combining characters are as they were
    /// drawn.
    public func scrollbackCell(line index: Int, col: Int) -> Cell {
        guard index >= 0, index < scrollback.count, col >= 0 else { return .blank }
        let line = scrollback.line(index)
        guard col < line.count else { return .blank }
        return publicCell(line[line.startIndex + col])
    }

    /// The cells of scrolled-off line `index`, as drawn, up to its last non-blank cell.
    public func scrollbackCells(line index: Int) -> [Cell] {
        guard index >= 0, index < scrollback.count else { return [] }
        return scrollback.line(index).map { publicCell($0) }
    }

    /// The text of the lines that scrolled off after `count` lines had (a previous
    /// ``scrolledOffCount``), oldest first; only those still held.
    public func linesScrolledOff(since count: Int) -> [String] {
        let first = max(count, scrollback.firstLineNumber) - scrollback.firstLineNumber
        guard first < scrollback.count else { return [] }
        return (first..<scrollback.count).map { scrollbackLine($0) }
    }

    /// The newest held scrolled-off line that scrolled off before `count` lines had (a wait's
    /// horizon) and for which `matches` is true: its index in ``scrollbackLines`` (0 = the
    /// oldest held) and how many lines above the screen's top it is (1 = just above). A wait
    /// that failed uses it to say the text is there, but older than what it searched.
    package func scrolledLine(before count: Int, where matches: (String) -> Bool) -> (index: Int, linesAboveScreen: Int)? {
        let end = min(count, scrollback.totalPushed) - scrollback.firstLineNumber
        guard end > 0 else { return nil }
        for index in stride(from: end - 1, through: 0, by: -1) where matches(scrollbackLine(index)) {
            return (index, scrollback.count - index)
        }
        return nil
    }

    // MARK: - Transcript

    /// The scrollback and then the screen: every line the program left on its main screen,
    /// in order, as a terminal's history shows it (tmux's `capture-pane -S -`).
    public var transcriptLines: [String] { scrollbackLines + lines }

    /// ``transcriptLines`` joined by "\n".
    public var transcript: String { transcriptLines.joined(separator: "\n") }

    /// How many lines the transcript has: ``scrollbackCount`` + ``rows``.
    package var transcriptLineCount: Int { scrollback.count + rows }

    /// Transcript line `index` (scrolled-off lines first, then the screen's rows) as text.
    public func transcriptLine(_ index: Int) -> String {
        index < scrollback.count ? scrollbackLine(index) : line(index - scrollback.count)
    }

    /// The cell at column `col` of transcript line `index` (see ``transcriptLine(_:)``).
    package func transcriptCell(line index: Int, col: Int) -> Cell {
        index < scrollback.count ? scrollbackCell(line: index, col: col) : cell(row: index - scrollback.count, col: col)
    }

    /// The transcript inside a frame, as ``framed()`` draws the screen: one framed line per
    /// transcript line, as wide as the widest line or the screen, then the cursor line.
    /// Trailing blank rows of the screen are left out (they are not output).
    package func framedTranscript() -> String {
        var rowsShown = rows
        while rowsShown > 0 && line(rowsShown - 1).isEmpty && cursor.row < rowsShown - 1 { rowsShown -= 1 }
        var texts: [String] = (0..<scrollback.count).map { text(ofStored: scrollback.line($0)) }
        for row in 0..<rowsShown { texts.append(rowText(row, from: 0, to: cols)) }
        let widths = texts.map { Self.displayWidth(of: $0) }
        let width = max(cols, widths.max() ?? 0)
        let border = String(repeating: "─", count: width)
        var out = ["┌" + border + "┐"]
        for (text, textWidth) in zip(texts, widths) {
            out.append("│" + text + String(repeating: " ", count: width - textWidth) + "│")
        }
        out.append("└" + border + "┘")
        out.append("scrollback: \(scrollback.count) lines, screen: \(rowsShown) of \(rows) rows")
        return out.joined(separator: "\n")
    }

    // MARK: - Helpers

    /// The public form of a stored cell.
    func publicCell(_ stored: StoredCell) -> Cell {
        if stored.isContinuation { return Cell(character: "", width: 0, attributes: attributes(of: stored)) }
        return Cell(character: text(of: stored.content), width: stored.isWide ? 2 : 1, attributes: attributes(of: stored))
    }

    /// Untrimmed text of stored cells (right halves of wide characters skipped).
    func text(ofStored cells: ArraySlice<StoredCell>) -> String {
        var text = ""
        for cell in cells where !cell.isContinuation { text += self.text(of: cell.content) }
        return text
    }

    /// Columns a line of cell text takes: a character is wide when the emulator drew it wide.
    static func displayWidth(of text: String) -> Int {
        var width = 0
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let kind: UInt8 = value < 0x10000 ? CharacterWidth.basicPlane[Int(value)] : CharacterWidth.astral(value)
            switch kind {
            case CharacterWidth.zero, CharacterWidth.combining: break
            default: width += Int(kind)
            }
        }
        return width
    }
}
