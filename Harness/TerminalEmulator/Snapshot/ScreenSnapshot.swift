/// An immutable copy of what a `Terminal` shows at one moment: cells, cursor, title, buffer.
///
/// ```swift
/// let terminal = Terminal(cols: 20, rows: 3)
/// terminal.feed("\u{1B}[2;3Hhello")
/// let screen = terminal.snapshot()
/// screen.line(1)            // "  hello"
/// screen.find("hello")      // [row 1, col 2]
/// ```
public struct ScreenSnapshot: Sendable, Equatable {
    /// Width in cells.
    public let cols: Int
    /// Height in rows.
    public let rows: Int
    /// The grid, `rows` arrays of `cols` cells.
    public let cells: [[Cell]]
    /// Cursor position and visibility.
    public let cursor: CursorState
    /// The window title (OSC 0 / OSC 2).
    public let title: String
    /// Which screen is shown.
    public let activeBuffer: ScreenBuffer

    /// Creates a snapshot from its parts (the terminal makes them; tests may too).
    public init(cols: Int, rows: Int, cells: [[Cell]], cursor: CursorState, title: String, activeBuffer: ScreenBuffer) {
        self.cols = cols
        self.rows = rows
        self.cells = cells
        self.cursor = cursor
        self.title = title
        self.activeBuffer = activeBuffer
    }

    // MARK: - Text

    /// Each row as text: a wide character once, right halves skipped, trailing blanks trimmed.
    public var lines: [String] { (0..<rows).map { line($0) } }

    /// All rows joined by "\n" (each trimmed as in `lines`).
    public var text: String { lines.joined(separator: "\n") }

    /// Row `row` as text, trailing blanks trimmed; "" when the row is out of range.
    public func line(_ row: Int) -> String {
        guard row >= 0, row < rows else { return "" }
        return Self.trimmingTrailingBlanks(rowText(row, from: 0, to: cols))
    }

    /// The text of a rectangle, one line per row, each line's trailing blanks trimmed.
    /// A wide character whose left half is outside the rectangle shows as a blank.
    public func text(in region: ScreenRegion) -> String {
        let top = max(0, region.row), bottom = min(rows, region.row + max(0, region.height))
        let left = max(0, region.col), right = min(cols, region.col + max(0, region.width))
        guard top < bottom, left < right else { return "" }
        return (top..<bottom).map { row in
            var text = ""
            if cells[row][left].width == 0 { text = " " }
            text += rowText(row, from: left + (cells[row][left].width == 0 ? 1 : 0), to: right)
            return Self.trimmingTrailingBlanks(text)
        }.joined(separator: "\n")
    }

    /// The cell at a position; a blank cell when out of range.
    public func cell(row: Int, col: Int) -> Cell {
        guard row >= 0, row < rows, col >= 0, col < cols else { return .blank }
        return cells[row][col]
    }

    // MARK: - Search

    /// True when some row contains `text`.
    public func contains(_ text: String) -> Bool { !find(text).isEmpty }

    /// Every position (row by row, left to right) where a row contains `text`.
    public func find(_ text: String) -> [ScreenPosition] {
        guard !text.isEmpty else { return [] }
        var found: [ScreenPosition] = []
        for row in 0..<rows {
            let (line, columns) = indexedRowText(row)
            for range in line.ranges(of: text) {
                let offset = line.unicodeScalars.distance(from: line.startIndex, to: range.lowerBound)
                found.append(ScreenPosition(row: row, col: columns[offset]))
            }
        }
        return found
    }

    /// Every match of a regular expression (Swift `Regex` syntax), searched row by row.
    /// - Throws: `ScreenQueryError.invalidRegex` when the pattern does not compile.
    public func find(regex pattern: String) throws -> [ScreenMatch] {
        let regex: Regex<AnyRegexOutput>
        do {
            regex = try Regex(pattern)
        } catch {
            throw ScreenQueryError.invalidRegex(pattern: pattern, reason: "\(error)")
        }
        var found: [ScreenMatch] = []
        for row in 0..<rows {
            let (line, columns) = indexedRowText(row)
            for match in line.matches(of: regex) {
                let offset = line.unicodeScalars.distance(from: line.startIndex, to: match.range.lowerBound)
                let col = offset < columns.count ? columns[offset] : cols
                found.append(ScreenMatch(position: ScreenPosition(row: row, col: col), text: String(line[match.range])))
            }
        }
        return found
    }

    // MARK: - Framing

    /// The screen inside a box frame so trailing blanks are visible, then a line noting the cursor:
    /// ```
    /// ┌─────┐
    /// │hi   │
    /// └─────┘
    /// cursor: row 0, col 2, visible
    /// ```
    public func framed() -> String {
        let border = String(repeating: "─", count: cols)
        var out = ["┌" + border + "┐"]
        for row in 0..<rows {
            out.append("│" + rowText(row, from: 0, to: cols) + "│")
        }
        out.append("└" + border + "┘")
        out.append("cursor: row \(cursor.row), col \(cursor.col), \(cursor.visible ? "visible" : "hidden")")
        return out.joined(separator: "\n")
    }

    // MARK: - Helpers

    /// Untrimmed text of cells `from..<to` of a row (right halves of wide characters skipped).
    func rowText(_ row: Int, from: Int, to: Int) -> String {
        var text = ""
        for col in from..<to {
            let cell = cells[row][col]
            if cell.width == 0 { continue }
            text += cell.character
        }
        return text
    }

    /// Trimmed row text plus, for each Unicode scalar of it, the column it came from.
    func indexedRowText(_ row: Int) -> (String, [Int]) {
        var text = ""
        var columns: [Int] = []
        for col in 0..<cols {
            let cell = cells[row][col]
            if cell.width == 0 { continue }
            text += cell.character
            columns.append(contentsOf: repeatElement(col, count: cell.character.unicodeScalars.count))
        }
        let trimmed = Self.trimmingTrailingBlanks(text)
        columns.removeLast(columns.count - trimmed.unicodeScalars.count)
        return (trimmed, columns)
    }

    static func trimmingTrailingBlanks(_ text: String) -> String {
        var scalars = Substring(text).unicodeScalars
        while let last = scalars.last, last == " " { scalars.removeLast() }
        return String(scalars)
    }
}
