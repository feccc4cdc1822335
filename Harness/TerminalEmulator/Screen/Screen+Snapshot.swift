extension Screen {
    /// The public cell at a position.
    func cell(row: Int, col: Int) -> Cell {
        let stored = grid[row, col]
        var attributes = stored.attributes
        if stored.link != 0 { attributes.link = links.uris[Int(stored.link)] }
        if stored.isContinuation {
            return Cell(character: "", width: 0, attributes: attributes)
        }
        return Cell(character: clusters.text(of: stored.content), width: stored.isWide ? 2 : 1, attributes: attributes)
    }

    /// An immutable copy of what is shown: the cells are copied as stored (row by row), the
    /// strings are built only when the snapshot is read.
    func snapshot() -> ScreenSnapshot {
        var stored = ContiguousArray<StoredCell>()
        stored.reserveCapacity(rows * cols)
        for row in 0..<rows {
            let start = grid.rowStart[row]
            stored.append(contentsOf: grid.cells[start..<(start + cols)])
        }
        return ScreenSnapshot(
            cols: cols, rows: rows, stored: stored, clusters: clusters.strings,
            cursor: CursorState(row: cursorRow, col: cursorCol, visible: modes.cursorVisible),
            title: title, activeBuffer: activeBuffer, scrollback: scrollback, links: links, marks: marks
        )
    }
}
