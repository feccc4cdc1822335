extension Screen {
    // MARK: - Cursor movement

    /// Top row the cursor may reach: the region's top when origin mode is set.
    var originTop: Int { modes.originMode ? scrollTop : 0 }

    /// CUP/HVP: moves to a 0-based row and column, relative to the region in origin mode.
    mutating func moveCursor(toRow row: Int, col: Int) {
        pendingWrap = false
        if modes.originMode {
            cursorRow = min(max(scrollTop + row, scrollTop), scrollBottom)
        } else {
            cursorRow = min(max(row, 0), rows - 1)
        }
        cursorCol = min(max(col, 0), cols - 1)
    }

    /// CHA/HPA: moves to a 0-based column.
    mutating func moveCursor(toCol col: Int) {
        pendingWrap = false
        cursorCol = min(max(col, 0), cols - 1)
    }

    /// VPA: moves to a 0-based row (relative to the region in origin mode).
    mutating func moveCursor(toRow row: Int) {
        moveCursor(toRow: row, col: cursorCol)
    }

    /// CUU: up, stopping at the region's top when the cursor is inside it.
    mutating func moveCursorUp(_ count: Int) {
        pendingWrap = false
        let top = cursorRow >= scrollTop ? scrollTop : 0
        cursorRow = max(top, cursorRow - count)
    }

    /// CUD: down, stopping at the region's bottom when the cursor is inside it.
    mutating func moveCursorDown(_ count: Int) {
        pendingWrap = false
        let bottom = cursorRow <= scrollBottom ? scrollBottom : rows - 1
        cursorRow = min(bottom, cursorRow + count)
    }

    /// CUF.
    mutating func moveCursorForward(_ count: Int) {
        pendingWrap = false
        cursorCol = min(cols - 1, cursorCol + count)
    }

    /// CUB (and BS with count 1).
    mutating func moveCursorBackward(_ count: Int) {
        pendingWrap = false
        cursorCol = max(0, cursorCol - count)
    }

    /// CR.
    mutating func carriageReturn() {
        pendingWrap = false
        cursorCol = 0
    }

    /// IND (and LF, VT, FF): down one line, scrolling the region at its bottom.
    mutating func index() {
        pendingWrap = false
        if cursorRow == scrollBottom {
            scrollRegionUp(1)
        } else if cursorRow < rows - 1 {
            cursorRow += 1
        }
    }

    /// LF, VT, FF: an index, plus a carriage return in new-line mode.
    mutating func lineFeed() {
        index()
        if newLineMode { cursorCol = 0 }
    }

    /// RI: up one line, scrolling the region down at its top.
    mutating func reverseIndex() {
        pendingWrap = false
        if cursorRow == scrollTop {
            grid.scrollDown(top: scrollTop, bottom: scrollBottom, count: 1, blank: eraseBlank)
        } else if cursorRow > 0 {
            cursorRow -= 1
        }
    }

    /// NEL: CR + IND.
    mutating func nextLine() {
        carriageReturn()
        index()
    }

    // MARK: - Tabs

    /// HT / CHT: to the next tab stop (or the last column), `count` times. A wrap pending on
    /// the last column stays pending (the cursor cannot move), as in xterm.
    mutating func tabForward(_ count: Int = 1) {
        for _ in 0..<count {
            var col = cursorCol + 1
            while col < cols - 1 && !tabStops[col] { col += 1 }
            cursorCol = min(col, cols - 1)
        }
    }

    /// CBT: to the previous tab stop (or column 0), `count` times.
    mutating func tabBackward(_ count: Int = 1) {
        pendingWrap = false
        for _ in 0..<count {
            var col = cursorCol - 1
            while col > 0 && !tabStops[col] { col -= 1 }
            cursorCol = max(col, 0)
        }
    }

    /// HTS: a tab stop at the cursor's column.
    mutating func setTabStop() {
        tabStops[cursorCol] = true
    }

    /// TBC 0 (at the cursor) or 3 (all).
    mutating func clearTabStop(all: Bool) {
        if all {
            tabStops = [Bool](repeating: false, count: cols)
        } else {
            tabStops[cursorCol] = false
        }
    }

    // MARK: - Saved cursor

    /// DECSC / CSI s: saves position, pen, origin mode and charsets (per buffer).
    mutating func saveCursor() {
        let saved = SavedCursor(
            row: cursorRow, col: cursorCol, pendingWrap: pendingWrap, pen: pen,
            originMode: modes.originMode, charsets: charsets
        )
        if activeBuffer == .main { savedMain = saved } else { savedAlternate = saved }
    }

    /// DECRC / CSI u: restores what `saveCursor` saved, or homes the cursor with a plain pen.
    mutating func restoreCursor() {
        let saved = (activeBuffer == .main ? savedMain : savedAlternate) ?? SavedCursor()
        cursorRow = min(saved.row, rows - 1)
        cursorCol = min(saved.col, cols - 1)
        pendingWrap = saved.pendingWrap && cursorCol == cols - 1
        pen = saved.pen.with(link: pen.link)  // a hyperlink is not part of the saved cursor
        modes.originMode = saved.originMode
        charsets = saved.charsets
    }
}
