import TerminalEmulator

extension ScreenSnapshot {
    /// Row `row` with trailing blanks kept (wide characters once), so text ending in spaces,
    /// such as a `"$ "` prompt, can be found.
    /// Reads the compact storage of that one row: building `cells` here made every search
    /// quadratic in the number of rows, enough to keep the cooperative pool busy for seconds
    /// on a loaded machine.
    func paddedLine(_ row: Int) -> String { rowText(row, from: 0, to: cols) }

    /// Whether `text` appears on one row (trailing blanks included), or, when it holds line
    /// breaks, in the screen's text.
    package func showsText(_ text: String) -> Bool {
        if text.contains("\n") { return self.text.contains(text) }
        // Every row and the text ASCII (the usual case): bytes decide, without the slower
        // character-aware searches below.
        var allASCII = true
        for row in 0..<rows {
            guard let found = ByteSearch.asciiContains(paddedLine(row), text) else {
                allASCII = false
                break
            }
            if found { return true }
        }
        if allASCII { return false }
        if contains(text) { return true }
        return (0..<rows).contains { paddedLine($0).contains(text) }
    }
}

extension ScreenSnapshot {
    /// The absolute number of the first line, among those that scrolled off since `horizon`
    /// and then the screen's rows, for which `matches` holds; nil when none does. A line's
    /// absolute number counts every line that ever scrolled off: row `r` of the screen is
    /// `scrolledOffCount + r`. Screen rows are given with their trailing blanks.
    func firstLineNumber(since horizon: Int, where matches: (String) -> Bool?) -> Int? {
        let scrolled = linesScrolledOff(since: horizon)
        let firstScrolled = scrolledOffCount - scrolled.count
        for (index, line) in scrolled.enumerated() where matches(line) == true { return firstScrolled + index }
        for row in 0..<rows where matches(paddedLine(row)) == true { return scrolledOffCount + row }
        return nil
    }

    /// The absolute number of the line where the first match starts in the text of the lines
    /// that scrolled off since `horizon` and the screen's rows, joined by "\n" (rows with
    /// trailing blanks, or trimmed when `trimmed`), as a multi-line text or regex wait sees it.
    func firstLineNumber(since horizon: Int, trimmed: Bool = false, matching find: (String) -> Range<String.Index>?) -> Int? {
        let scrolled = linesScrolledOff(since: horizon)
        let firstScrolled = scrolledOffCount - scrolled.count
        let screenLines = trimmed ? lines : (0..<rows).map { paddedLine($0) }
        let text = (scrolled + screenLines).joined(separator: "\n")
        guard let range = find(text) else { return nil }
        let breaks = text[..<range.lowerBound].reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
        return firstScrolled + breaks
    }
}
