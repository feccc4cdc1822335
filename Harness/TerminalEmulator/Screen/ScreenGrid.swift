/// The cells of one screen buffer in one flat array, with a row map so that scrolling
/// moves row indices instead of cells.
struct ScreenGrid {
    private(set) var cols: Int
    private(set) var rows: Int
    /// Physical storage, `rows * cols` cells.
    var cells: ContiguousArray<StoredCell>
    /// Logical row -> offset of its first cell in `cells`.
    var rowStart: ContiguousArray<Int>

    init(cols: Int, rows: Int, blank: StoredCell = .blank) {
        self.cols = cols
        self.rows = rows
        cells = ContiguousArray(repeating: blank, count: cols * rows)
        rowStart = ContiguousArray((0..<rows).map { $0 * cols })
    }

    @inline(__always)
    subscript(row: Int, col: Int) -> StoredCell {
        get { cells[rowStart[row] + col] }
        set { cells[rowStart[row] + col] = newValue }
    }

    /// Sets cells `from..<to` of a row to `blank`.
    @inline(__always)
    mutating func fill(row: Int, from: Int, to: Int, with blank: StoredCell) {
        guard from < to else { return }
        let start = rowStart[row]
        cells.withUnsafeMutableBufferPointer { buffer in
            Self.fill(buffer.baseAddress! + start + from, count: to - from, with: blank)
        }
    }

    /// Every cell to `blank`.
    mutating func fillAll(with blank: StoredCell) {
        cells.withUnsafeMutableBufferPointer { buffer in
            Self.fill(buffer.baseAddress!, count: buffer.count, with: blank)
        }
    }

    /// Writes `blank` into `count` cells from `start`: while a cell is 16 bytes, with one
    /// 16-byte store per cell (a line feed at the bottom blanks a whole row, so this is on the
    /// scrolling path); otherwise cell by cell.
    @inline(__always)
    static func fill(_ start: UnsafeMutablePointer<StoredCell>, count: Int, with blank: StoredCell) {
        guard MemoryLayout<StoredCell>.stride == 16 else {
            start.update(repeating: blank, count: count)
            return
        }
        var pattern = SIMD2<UInt64>()
        withUnsafeMutableBytes(of: &pattern) { $0.storeBytes(of: blank, as: StoredCell.self) }
        let raw = UnsafeMutableRawPointer(start)
        for index in 0..<count {
            raw.storeBytes(of: pattern, toByteOffset: index &* 16, as: SIMD2<UInt64>.self)
        }
    }

    /// Scrolls rows `top...bottom` up by `count`: the top rows leave, blank rows enter at the bottom.
    mutating func scrollUp(top: Int, bottom: Int, count: Int, blank: StoredCell) {
        let height = bottom - top + 1
        guard count > 0, height > 0 else { return }
        let count = min(count, height)
        if count < height { rotateLeft(top: top, bottom: bottom, by: count) }
        for row in (bottom - count + 1)...bottom { fill(row: row, from: 0, to: cols, with: blank) }
    }

    /// Scrolls rows `top...bottom` down by `count`: blank rows enter at the top.
    mutating func scrollDown(top: Int, bottom: Int, count: Int, blank: StoredCell) {
        let height = bottom - top + 1
        guard count > 0, height > 0 else { return }
        let count = min(count, height)
        if count < height { rotateLeft(top: top, bottom: bottom, by: height - count) }
        for row in top..<(top + count) { fill(row: row, from: 0, to: cols, with: blank) }
    }

    /// Rotates the row map of `top...bottom` left by `shift` (`0 < shift < height`), in place.
    /// Through the buffer pointer: reversing `rowStart[a..<b]` slices copied the whole map on
    /// every scroll (an allocation per line feed at the bottom, most of a scroll's cost).
    private mutating func rotateLeft(top: Int, bottom: Int, by shift: Int) {
        rowStart.withUnsafeMutableBufferPointer { map in
            if shift == 1 {
                // One line: the usual case (a line feed at the bottom).
                let first = map[top]
                for index in top..<bottom { map[index] = map[index + 1] }
                map[bottom] = first
                return
            }
            // Three reversals.
            func reverse(_ lower: Int, _ upper: Int) {
                var low = lower, high = upper
                while low < high {
                    map.swapAt(low, high)
                    low += 1
                    high -= 1
                }
            }
            reverse(top, top + shift - 1)
            reverse(top + shift, bottom)
            reverse(top, bottom)
        }
    }

    /// A copy of this grid at another size: rows from `firstRow` on are kept from the top,
    /// columns from the left; a wide character cut by the new right edge becomes a blank.
    func resized(cols newCols: Int, rows newRows: Int, firstRow: Int) -> ScreenGrid {
        var grid = ScreenGrid(cols: newCols, rows: newRows)
        for row in 0..<newRows {
            let source = firstRow + row
            guard source < rows else { break }
            for col in 0..<min(cols, newCols) { grid[row, col] = self[source, col] }
            if newCols < cols, newCols > 0, grid[row, newCols - 1].isWide {
                grid[row, newCols - 1] = .blank
            }
        }
        return grid
    }
}
