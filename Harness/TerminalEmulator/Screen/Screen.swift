/// The screen model: two buffers (main, alternate), the cursor, the pen, modes, scroll
/// region, tab stops, charsets and saved cursors. The dispatcher drives it with
/// operations named after what they do (`moveCursor`, `erase(inDisplay:)`, `insertLines`).
struct Screen {
    private(set) var cols: Int
    private(set) var rows: Int
    /// The buffer shown now.
    var grid: ScreenGrid
    /// The other buffer.
    var hiddenGrid: ScreenGrid
    var activeBuffer: ScreenBuffer = .main

    var cursorRow = 0
    var cursorCol = 0
    /// The last column was written: the next printable character wraps first (DECAWM).
    var pendingWrap = false
    /// Attributes and colors for the next printed character.
    var pen = StoredCell.blank
    var modes = TerminalModes()
    /// IRM (`CSI 4 h`): printing inserts instead of overwriting.
    var insertMode = false
    /// LNM (`CSI 20 h`): LF also returns the carriage.
    var newLineMode = false
    /// Scroll region, inclusive rows.
    var scrollTop = 0
    var scrollBottom: Int
    var tabStops: [Bool]
    var charsets = CharsetState()
    var savedMain: SavedCursor?
    var savedAlternate: SavedCursor?
    /// The alternate screen as it was when the program last left it (a full-screen program's
    /// last frame, which the main screen it restores no longer shows).
    var lastAlternateFrame: ScreenSnapshot?
    var title = ""
    /// The kitty keyboard flags' stacks, one per screen (``Screen+Keyboard``).
    var keyboardStacks = (main: KittyKeyboardStack(), alternate: KittyKeyboardStack())
    var clusters = ClusterTable()
    /// The OSC 8 hyperlinks cells refer to (`StoredCell.link`); the pen's `link` is the open one.
    var links = LinkTable()
    /// The shell's OSC 133 marks and the OSC 52 clipboard writes.
    var marks = ShellMarks()
    /// Lines that scrolled off the top of the main buffer.
    var scrollback: Scrollback
    /// Content and width of the last printed graphic character, for REP.
    var lastPrinted: (content: UInt32, width: Int)?
    /// The BMP width table, held here so the hot path does not go through a global.
    let widthTable: [UInt8] = CharacterWidth.basicPlane

    init(cols: Int, rows: Int, scrollbackLimit: Int = Scrollback.defaultLimit) {
        let cols = max(1, cols), rows = max(1, rows)
        scrollback = Scrollback(limit: scrollbackLimit)
        self.cols = cols
        self.rows = rows
        grid = ScreenGrid(cols: cols, rows: rows)
        hiddenGrid = ScreenGrid(cols: cols, rows: rows)
        scrollBottom = rows - 1
        tabStops = Self.defaultTabStops(cols)
    }

    static func defaultTabStops(_ cols: Int) -> [Bool] {
        (0..<cols).map { $0 > 0 && $0 % 8 == 0 }
    }

    /// The blank that erasing leaves: the pen's background, nothing else (xterm's BCE).
    @inline(__always)
    var eraseBlank: StoredCell {
        StoredCell(content: 0, foreground: 0, background: pen.background, flags: 0)
    }

    // MARK: - Resize

    /// Resizes both buffers: content kept from the top left (no reflow), except that the
    /// shown buffer drops rows at the top when needed to keep the cursor's row on screen.
    mutating func resize(cols newCols: Int, rows newRows: Int) {
        let newCols = max(1, newCols), newRows = max(1, newRows)
        guard newCols != cols || newRows != rows else { return }
        let dropped = max(0, cursorRow - (newRows - 1))
        if activeBuffer == .main {
            // Rows pushed off the top by a smaller screen go to the scrollback, as in xterm.
            for row in 0..<dropped { pushToScrollback(row: row) }
        }
        grid = grid.resized(cols: newCols, rows: newRows, firstRow: dropped)
        hiddenGrid = hiddenGrid.resized(cols: newCols, rows: newRows, firstRow: 0)
        cursorRow -= dropped
        if newCols > cols {
            tabStops += (cols..<newCols).map { $0 % 8 == 0 }
        } else {
            tabStops.removeLast(cols - newCols)
        }
        cols = newCols
        rows = newRows
        cursorRow = min(cursorRow, rows - 1)
        cursorCol = min(cursorCol, cols - 1)
        pendingWrap = false
        scrollTop = 0
        scrollBottom = rows - 1
        savedMain = savedMain.map { clamp($0) }
        savedAlternate = savedAlternate.map { clamp($0) }
    }

    // MARK: - Scrollback

    /// Copies a row of the shown buffer to the scrollback (the caller checked it is the main one).
    mutating func pushToScrollback(row: Int) {
        let start = grid.rowStart[row]
        let cols = self.cols
        grid.cells.withUnsafeBufferPointer { cells in
            scrollback.push(UnsafeBufferPointer(rebasing: cells[start..<(start + cols)]))
        }
    }

    /// Scrolls the region up `count` lines; rows leaving the top of the main screen go to
    /// the scrollback when the region starts at the top row (as xterm does).
    mutating func scrollRegionUp(_ count: Int) {
        if activeBuffer == .main && scrollTop == 0 {
            for row in 0..<min(count, scrollBottom + 1) { pushToScrollback(row: row) }
        }
        grid.scrollUp(top: scrollTop, bottom: scrollBottom, count: count, blank: eraseBlank)
    }

    private func clamp(_ saved: SavedCursor) -> SavedCursor {
        var saved = saved
        saved.row = min(saved.row, rows - 1)
        saved.col = min(saved.col, cols - 1)
        return saved
    }
}
