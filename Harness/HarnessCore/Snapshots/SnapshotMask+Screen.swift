import TerminalEmulator

extension SnapshotMask {
    /// `screen` with every mask applied in order: masked cells show the mask's fill and keep their
    /// attributes; a wide character counts as two cells, and a half of one outside the mask becomes
    /// a blank so every row keeps its width.
    package static func apply(_ masks: [SnapshotMask], to screen: ScreenSnapshot) throws(SnapshotError) -> ScreenSnapshot {
        guard !masks.isEmpty else { return screen }
        var cells = screen.cells
        for mask in masks {
            switch mask {
            case let .regex(pattern, fill):
                let regex = try compile(pattern)
                for row in cells.indices {
                    // The row's text with, for each Unicode scalar, the cells it came from.
                    var text = ""
                    var spans: [Range<Int>] = []
                    for (col, cell) in cells[row].enumerated() where cell.width != 0 {
                        text += cell.character
                        let span = col..<min(cells[row].count, col + max(1, cell.width))
                        spans.append(contentsOf: repeatElement(span, count: cell.character.unicodeScalars.count))
                    }
                    var columns: [Range<Int>] = []
                    for match in text.matches(of: regex) where !match.range.isEmpty {
                        let first = text.unicodeScalars.distance(from: text.startIndex, to: match.range.lowerBound)
                        let last = text.unicodeScalars.distance(from: text.startIndex, to: match.range.upperBound) - 1
                        columns.append(spans[first].lowerBound..<spans[last].upperBound)
                    }
                    for range in columns { fillCells(&cells[row], range, with: fill) }
                }
            case let .region(region, fill):
                let top = max(0, region.row), bottom = min(cells.count, region.row + max(0, region.height))
                guard top < bottom else { continue }
                for row in top..<bottom {
                    let left = max(0, region.col), right = min(cells[row].count, region.col + max(0, region.width))
                    if left < right { fillCells(&cells[row], left..<right, with: fill) }
                }
            }
        }
        var masked = ScreenSnapshot(
            cols: screen.cols, rows: screen.rows, cells: cells,
            cursor: screen.cursor, title: screen.title, activeBuffer: screen.activeBuffer
        )
        masked.theme = screen.theme
        return masked
    }

    /// Replaces cells `range` of a row with `fill`, repairing wide characters cut by the edges.
    private static func fillCells(_ row: inout [Cell], _ range: Range<Int>, with fill: Character) {
        // A right half just inside the left edge: its left half is outside and becomes a blank.
        if range.lowerBound > 0, row[range.lowerBound].width == 0, row[range.lowerBound - 1].width == 2 {
            row[range.lowerBound - 1] = Cell(character: " ", width: 1, attributes: row[range.lowerBound - 1].attributes)
        }
        // A left half at the right edge: its right half is outside and becomes a blank.
        if range.upperBound < row.count, row[range.upperBound].width == 0 {
            row[range.upperBound] = Cell(character: " ", width: 1, attributes: row[range.upperBound].attributes)
        }
        for col in range {
            row[col] = Cell(character: String(fill), width: 1, attributes: row[col].attributes)
        }
    }
}
