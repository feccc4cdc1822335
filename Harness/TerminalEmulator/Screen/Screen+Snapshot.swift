extension Screen {
    /// The public cell at a position.
    func cell(row: Int, col: Int) -> Cell {
        let stored = grid[row, col]
        if stored.isContinuation {
            return Cell(character: "", width: 0, attributes: stored.attributes)
        }
        return Cell(character: clusters.text(of: stored.content), width: stored.isWide ? 2 : 1, attributes: stored.attributes)
    }

    /// An immutable copy of what is shown.
    func snapshot() -> ScreenSnapshot {
        var cells: [[Cell]] = []
        cells.reserveCapacity(rows)
        for row in 0..<rows {
            var line: [Cell] = []
            line.reserveCapacity(cols)
            for col in 0..<cols { line.append(cell(row: row, col: col)) }
            cells.append(line)
        }
        return ScreenSnapshot(
            cols: cols, rows: rows, cells: cells,
            cursor: CursorState(row: cursorRow, col: cursorCol, visible: modes.cursorVisible),
            title: title, activeBuffer: activeBuffer
        )
    }
}
