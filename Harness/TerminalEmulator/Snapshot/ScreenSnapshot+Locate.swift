extension ScreenSnapshot {
    // MARK: - Locating text

    /// Every place a row shows `text` (row by row, left to right), with the cells it covers,
    /// so their style can be read or checked. With `area`, only matches lying entirely inside
    /// it count (none when the area is not on the screen).
    ///
    /// ```swift
    /// let terminal = Terminal(cols: 20, rows: 2)
    /// terminal.feed("\u{1B}[1;31mOops\u{1B}[0m")
    /// let oops = terminal.snapshot().locate("Oops")
    /// oops.first?.style.isBold                                        // true
    /// TextStyle(bold: true, foreground: .named(.red)).matches(oops[0]) // every cell checked
    /// ```
    public func locate(_ text: String, in area: ScreenArea? = nil) -> [ScreenMatch] {
        guard !text.isEmpty, !text.contains("\n") else { return [] }
        return locate(in: area) { line in line.ranges(of: text) }
    }

    /// Every match of a regular expression (Swift `Regex` syntax), searched row by row, with
    /// the cells it covers; empty matches are left out. See ``locate(_:in:)``.
    /// - Throws: `ScreenQueryError.invalidRegex` when the pattern does not compile.
    public func locate(regex pattern: String, in area: ScreenArea? = nil) throws -> [ScreenMatch] {
        let regex: Regex<AnyRegexOutput>
        do {
            regex = try Regex(pattern)
        } catch {
            throw ScreenQueryError.invalidRegex(pattern: pattern, reason: "\(error)")
        }
        return locate(in: area) { line in line.matches(of: regex).map(\.range) }
    }

    /// The matches `ranges` finds in each row's text (trailing blanks trimmed), with their
    /// cells, inside `area` when given. For matchers other than Swift's `Regex`
    /// (`NSRegularExpression` in the harness).
    package func locate(in area: ScreenArea?, ranges: (String) -> [Range<String.Index>]) -> [ScreenMatch] {
        var bounds = ScreenRegion(row: 0, col: 0, width: cols, height: rows)
        if let area {
            guard let region = area.region(on: self) else { return [] }
            bounds = region
        }
        var found: [ScreenMatch] = []
        for row in bounds.row..<(bounds.row + bounds.height) {
            let (line, columns) = indexedRowText(row)
            let scalars = line.unicodeScalars
            for range in ranges(line) where !range.isEmpty {
                let first = scalars.distance(from: scalars.startIndex, to: range.lowerBound)
                let last = scalars.distance(from: scalars.startIndex, to: range.upperBound) - 1
                guard first < columns.count, last < columns.count else { continue }
                let start = columns[first]
                let end = columns[last] + max(1, cell(row: row, col: columns[last]).width)
                guard start >= bounds.col, end <= bounds.col + bounds.width else { continue }
                found.append(ScreenMatch(
                    position: ScreenPosition(row: row, col: start), text: String(line[range]),
                    cells: (start..<min(end, cols)).map { cell(row: row, col: $0) }))
            }
        }
        return found
    }

    // MARK: - Regions

    /// The part of the screen inside `region` (cut to the screen) as a screen of its own: its
    /// cells, its title and buffer, and the cursor moved with it (hidden, at the top-left
    /// corner, when it lies outside). A wide character cut by an edge becomes a blank.
    /// Snapshot it like any screen: `assertSnapshot(of: screen.region(rows), as: .screen())`.
    public func region(_ region: ScreenRegion) -> ScreenSnapshot {
        let top = max(0, region.row), bottom = max(top, min(rows, region.row + max(0, region.height)))
        let left = max(0, region.col), right = max(left, min(cols, region.col + max(0, region.width)))
        var cells: [[Cell]] = []
        for row in top..<bottom {
            var line = (left..<right).map { cell(row: row, col: $0) }
            if let first = line.first, first.width == 0 { line[0] = Cell(character: " ", attributes: first.attributes) }
            if let last = line.last, last.width == 2 {
                line[line.count - 1] = Cell(character: " ", attributes: last.attributes)
            }
            cells.append(line)
        }
        let inside = (top..<bottom).contains(cursor.row) && (left..<right).contains(cursor.col)
        let moved = inside
            ? CursorState(row: cursor.row - top, col: cursor.col - left, visible: cursor.visible)
            : CursorState(row: 0, col: 0, visible: false)
        var part = ScreenSnapshot(
            cols: right - left, rows: bottom - top, cells: cells, cursor: moved, title: title, activeBuffer: activeBuffer)
        part.theme = theme
        return part
    }

    /// The part of the screen `area` covers (see ``region(_:)-(ScreenRegion)``).
    /// - Throws: `ScreenQueryError.areaNotFound` when the area is not on this screen (an
    ///   anchor text is missing, or no row lies between them).
    public func region(_ area: ScreenArea) throws(ScreenQueryError) -> ScreenSnapshot {
        guard let found = area.region(on: self) else { throw ScreenQueryError.areaNotFound(area.description) }
        return region(found)
    }
}
