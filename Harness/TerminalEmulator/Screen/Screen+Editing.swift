extension Screen {
    // MARK: - Erasing

    /// ED: erases part of the display.
    mutating func erase(inDisplay mode: EraseMode) {
        pendingWrap = false
        let blank = eraseBlank
        switch mode {
        case .toEnd:
            erase(inLine: .toEnd)
            for row in (cursorRow + 1)..<rows { grid.fill(row: row, from: 0, to: cols, with: blank) }
        case .toStart:
            erase(inLine: .toStart)
            for row in 0..<cursorRow { grid.fill(row: row, from: 0, to: cols, with: blank) }
        case .all:
            grid.fillAll(with: blank)
        }
    }

    /// EL: erases part of the cursor's line.
    mutating func erase(inLine mode: EraseMode) {
        pendingWrap = false
        switch mode {
        case .toEnd: eraseCells(from: cursorCol, to: cols)
        case .toStart: eraseCells(from: 0, to: cursorCol + 1)
        case .all: eraseCells(from: 0, to: cols)
        }
    }

    /// ECH: erases `count` cells from the cursor without moving anything.
    mutating func eraseCharacters(_ count: Int) {
        pendingWrap = false
        eraseCells(from: cursorCol, to: min(cols, cursorCol + count))
    }

    private mutating func eraseCells(from: Int, to: Int) {
        breakWideCharacter(row: cursorRow, at: from)
        breakWideCharacter(row: cursorRow, at: to)
        grid.fill(row: cursorRow, from: from, to: to, with: eraseBlank)
    }

    // MARK: - Inserting and deleting

    /// ICH: inserts `count` blanks at the cursor; cells shift right, the rightmost are lost.
    mutating func insertBlankCharacters(_ count: Int) {
        guard case let (row, col, count)? = beginCharacterEdit(count) else { return }
        if cols - count > col { breakWideCharacter(row: row, at: cols - count) }
        var target = cols - 1
        while target >= col + count {
            grid[row, target] = grid[row, target - count]
            target -= 1
        }
        grid.fill(row: row, from: col, to: col + count, with: eraseBlank)
    }

    /// DCH: deletes `count` cells at the cursor; cells shift left, blanks enter at the right.
    mutating func deleteCharacters(_ count: Int) {
        guard case let (row, col, count)? = beginCharacterEdit(count) else { return }
        breakWideCharacter(row: row, at: col + count)
        for target in col..<(cols - count) {
            grid[row, target] = grid[row, target + count]
        }
        grid.fill(row: row, from: cols - count, to: cols, with: eraseBlank)
    }

    /// What ICH and DCH start with: the pending wrap is cancelled, `count` is cut to the cells
    /// from the cursor to the right margin, and a wide character under the cursor is broken.
    /// Returns the cursor's cell and the count, or nil when there is nothing to shift.
    private mutating func beginCharacterEdit(_ count: Int) -> (row: Int, col: Int, count: Int)? {
        pendingWrap = false
        let row = cursorRow, col = cursorCol
        let count = min(count, cols - col)
        guard count > 0 else { return nil }
        breakWideCharacter(row: row, at: col)
        return (row, col, count)
    }

    /// IL: inserts `count` blank lines at the cursor's row (inside the scroll region only).
    mutating func insertLines(_ count: Int) {
        guard cursorRow >= scrollTop, cursorRow <= scrollBottom else { return }
        pendingWrap = false
        grid.scrollDown(top: cursorRow, bottom: scrollBottom, count: count, blank: eraseBlank)
        cursorCol = 0
    }

    /// DL: deletes `count` lines at the cursor's row (inside the scroll region only).
    mutating func deleteLines(_ count: Int) {
        guard cursorRow >= scrollTop, cursorRow <= scrollBottom else { return }
        pendingWrap = false
        grid.scrollUp(top: cursorRow, bottom: scrollBottom, count: count, blank: eraseBlank)
        cursorCol = 0
    }

    /// SU: scrolls the region up `count` lines.
    mutating func scrollUp(_ count: Int) {
        scrollRegionUp(count)
    }

    /// SD: scrolls the region down `count` lines.
    mutating func scrollDown(_ count: Int) {
        grid.scrollDown(top: scrollTop, bottom: scrollBottom, count: count, blank: eraseBlank)
    }

    /// DECSTBM: sets the scroll region (0-based, inclusive) and homes the cursor.
    /// An invalid region (top not above bottom) is ignored.
    mutating func setScrollRegion(top: Int, bottom: Int) {
        let top = max(0, top), bottom = min(rows - 1, bottom)
        guard top < bottom else { return }
        scrollTop = top
        scrollBottom = bottom
        moveCursor(toRow: 0, col: 0)
    }

    /// DECALN: fills the screen with "E", resets the region and homes the cursor.
    mutating func fillWithTestPattern() {
        var cell = StoredCell.blank
        cell.content = 0x45
        grid.fillAll(with: cell)
        scrollTop = 0
        scrollBottom = rows - 1
        modes.originMode = false
        moveCursor(toRow: 0, col: 0)
    }
}
