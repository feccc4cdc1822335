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
    /// Cursor position and visibility.
    public let cursor: CursorState
    /// The window title (OSC 0 / OSC 2).
    public let title: String
    /// Which screen is shown.
    public let activeBuffer: ScreenBuffer
    /// The theme of the terminal it was taken from (``Terminal/theme``): the palette pictures
    /// of it are drawn with. Not compared by `==` (it is how the screen is shown, not what).
    public var theme = TerminalTheme.dark
    /// The shell's prompts and commands, from its OSC 133 marks, oldest first (the latest
    /// 1,000): see ``ShellCommand``. Empty for a program that sends no marks.
    public var shellCommands: [ShellCommand] { marks.commands }
    /// How many commands ever finished (also those no longer in ``shellCommands``).
    package var finishedCommandCount: Int { marks.finishedCount }
    /// What the program wrote to the clipboard with OSC 52, oldest first (the latest 1,000).
    public var clipboardWrites: [ClipboardWrite] { marks.clipboardWrites }
    /// How many clipboard writes ever came.
    package var clipboardWriteCount: Int { marks.clipboardWriteCount }
    /// The text of the last clipboard write; nil when the program wrote none.
    public var clipboard: String? { marks.clipboardWrites.last?.text }

    /// The cells as the screen stores them, row after row: 16 bytes each, no String. Taking a
    /// snapshot copies this array and nothing else; text and cells are built when asked for.
    let stored: ContiguousArray<StoredCell>
    /// The grapheme clusters `stored` refers to.
    let clusters: [String]
    /// The hyperlinks `stored` refers to (index 0: no link).
    let links: LinkTable
    /// The shell's marks and the clipboard writes.
    let marks: ShellMarks
    /// The cells as given, when the snapshot was made from public cells (returned as is).
    private let given: [[Cell]]?
    /// The lines that scrolled off the top of the main screen (shared with the terminal's
    /// own scrollback, see `Scrollback`): see ScreenSnapshot+Scrollback.swift.
    let scrollback: Scrollback

    /// The grid, `rows` arrays of `cols` cells. Built on each access from the compact storage:
    /// keep it in a local when reading many cells, or use ``cell(row:col:)``.
    public var cells: [[Cell]] {
        if let given { return given }
        return (0..<rows).map { row in (0..<cols).map { col in cell(row: row, col: col) } }
    }

    /// Creates a snapshot from its parts (the terminal makes them; tests may too).
    package init(cols: Int, rows: Int, cells: [[Cell]], cursor: CursorState, title: String, activeBuffer: ScreenBuffer) {
        self.cols = cols
        self.rows = rows
        self.cursor = cursor
        self.title = title
        self.activeBuffer = activeBuffer
        self.given = cells
        self.scrollback = Scrollback(limit: 0)
        self.marks = ShellMarks()
        var table = ClusterTable()
        var links = LinkTable()
        var stored = ContiguousArray<StoredCell>()
        stored.reserveCapacity(rows * cols)
        for row in 0..<rows {
            for col in 0..<cols {
                let cell = row < cells.count && col < cells[row].count ? cells[row][col] : .blank
                stored.append(StoredCell(cell, interning: &table, links: &links))
            }
        }
        self.stored = stored
        self.clusters = table.strings
        self.links = links
    }

    /// A snapshot of stored cells (row-major, `rows * cols` of them) and their cluster table.
    init(cols: Int, rows: Int, stored: ContiguousArray<StoredCell>, clusters: [String],
         cursor: CursorState, title: String, activeBuffer: ScreenBuffer, scrollback: Scrollback = Scrollback(limit: 0),
         links: LinkTable = LinkTable(), marks: ShellMarks = ShellMarks()) {
        self.scrollback = scrollback
        self.links = links
        self.marks = marks
        self.cols = cols
        self.rows = rows
        self.stored = stored
        self.clusters = clusters
        self.given = nil
        self.cursor = cursor
        self.title = title
        self.activeBuffer = activeBuffer
    }

    public static func == (lhs: ScreenSnapshot, rhs: ScreenSnapshot) -> Bool {
        guard lhs.cols == rhs.cols, lhs.rows == rhs.rows, lhs.cursor == rhs.cursor,
              lhs.title == rhs.title, lhs.activeBuffer == rhs.activeBuffer else { return false }
        guard lhs.scrollback == rhs.scrollback, lhs.marks == rhs.marks else { return false }
        if lhs.stored == rhs.stored && lhs.clusters == rhs.clusters && lhs.links == rhs.links { return true }
        return lhs.cells == rhs.cells
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
            let startsInside = !stored[row * cols + left].isContinuation
            if !startsInside { text = " " }
            text += rowText(row, from: left + (startsInside ? 0 : 1), to: right)
            return Self.trimmingTrailingBlanks(text)
        }.joined(separator: "\n")
    }

    /// The cell at a position; a blank cell when out of range.
    public func cell(row: Int, col: Int) -> Cell {
        guard row >= 0, row < rows, col >= 0, col < cols else { return .blank }
        if let given { return row < given.count && col < given[row].count ? given[row][col] : .blank }
        return publicCell(stored[row * cols + col])
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

    /// The public attributes of a stored cell, its hyperlink's URI included.
    @inline(__always)
    func attributes(of cell: StoredCell) -> CellAttributes {
        var attributes = cell.attributes
        if cell.link != 0, Int(cell.link) < links.uris.count { attributes.link = links.uris[Int(cell.link)] }
        return attributes
    }

    /// The text a stored cell's content stands for (" " for a blank).
    func text(of content: UInt32) -> String { ClusterTable.text(of: content, clusters: clusters) }

    /// Appends a stored cell's text to `text`; returns how many scalars it added.
    @inline(__always)
    private func append(_ content: UInt32, to output: inout String.UnicodeScalarView) -> Int {
        if content == 0 {
            output.append(" ")
            return 1
        }
        if content & StoredCell.clusterFlag != 0 {
            let cluster = text(of: content).unicodeScalars
            output.append(contentsOf: cluster)
            return cluster.count
        }
        output.append(Unicode.Scalar(content) ?? "\u{FFFD}")
        return 1
    }

    /// Untrimmed text of cells `from..<to` of a row (right halves of wide characters skipped,
    /// a blank as " ", also a given cell whose character is "").
    package func rowText(_ row: Int, from: Int, to: Int) -> String {
        if let given {
            var text = ""
            for col in from..<to {
                let cell = row < given.count && col < given[row].count ? given[row][col] : .blank
                if cell.width != 0 { text += cell.character.isEmpty ? " " : cell.character }
            }
            return text
        }
        var text = String.UnicodeScalarView()
        let base = row * cols
        for col in from..<to {
            let cell = stored[base + col]
            if cell.isContinuation { continue }
            _ = append(cell.content, to: &text)
        }
        return String(text)
    }

    /// Trimmed row text plus, for each Unicode scalar of it, the column it came from.
    func indexedRowText(_ row: Int) -> (String, [Int]) {
        var text = String.UnicodeScalarView()
        var columns: [Int] = []
        columns.reserveCapacity(cols)
        if given != nil {
            for col in 0..<cols {
                let cell = cell(row: row, col: col)
                if cell.width == 0 { continue }
                text.append(contentsOf: cell.character.unicodeScalars)
                columns.append(contentsOf: repeatElement(col, count: cell.character.unicodeScalars.count))
            }
        } else {
            let base = row * cols
            for col in 0..<cols {
                let cell = stored[base + col]
                if cell.isContinuation { continue }
                let added = append(cell.content, to: &text)
                columns.append(contentsOf: repeatElement(col, count: added))
            }
        }
        var trimmedCount = text.count
        var index = text.endIndex
        while index > text.startIndex {
            let before = text.index(before: index)
            guard text[before] == " " else { break }
            index = before
            trimmedCount -= 1
        }
        columns.removeLast(columns.count - trimmedCount)
        return (String(text[..<index]), columns)
    }

    static func trimmingTrailingBlanks(_ text: String) -> String {
        // On the UTF-8 bytes: a space is one byte, and never part of another character's.
        let utf8 = text.utf8
        var end = utf8.endIndex
        while end > utf8.startIndex, utf8[utf8.index(before: end)] == 0x20 { end = utf8.index(before: end) }
        return end == utf8.endIndex ? text : String(text[..<end])
    }
}
