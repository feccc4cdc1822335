import TerminalEmulator

/// Draws a screen snapshot as an SVG picture, for reviewers to see a screen in a pull request.
///
/// The picture is a monospace grid of fixed-size cells: backgrounds as rectangles, text in runs
/// of cells sharing a style (one `<text>` element each, every glyph placed on its cell; a run
/// ends at a stretch of blanks, so no renderer's whitespace handling moves a glyph), wide
/// characters over two cells, and the cursor as an outlined cell when it is visible. Colors
/// follow xterm (16 basic colors, the 256-color cube and grays, truecolor); bold, dim, italic,
/// underline, strikethrough, inverse and hidden are drawn; blink is not.
/// The output is deterministic: the same screen always gives the same bytes.
///
/// ```swift
/// let svg = ScreenSVG.render(terminal.snapshot())
/// try svg.write(to: url, atomically: true, encoding: .utf8)
/// ```
public enum ScreenSVG {
    /// A cell's width in pixels.
    package static let cellWidth = 9
    /// A cell's height in pixels.
    package static let cellHeight = 18
    /// The font size in pixels.
    package static let fontSize = 15
    /// From a cell's top to the baseline of its text, in pixels.
    package static let baseline = 14

    /// The SVG document for `snapshot`, in `palette`'s colors (default: those of the snapshot's
    /// theme, ``TerminalPalette/init(theme:)``).
    public static func render(_ snapshot: ScreenSnapshot, palette: TerminalPalette? = nil) -> String {
        let palette = palette ?? TerminalPalette(theme: snapshot.theme)
        let width = snapshot.cols * cellWidth
        let height = snapshot.rows * cellHeight
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" "
        out += "viewBox=\"0 0 \(width) \(height)\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" "
        out += "font-size=\"\(fontSize)\" xml:space=\"preserve\" style=\"white-space:pre\">\n"
        if !snapshot.title.isEmpty {
            out += "<title>\(escape(snapshot.title))</title>\n"
        }
        out += "<rect width=\"\(width)\" height=\"\(height)\" fill=\"\(palette.defaultBackground)\"/>\n"

        let grid = snapshot.cells  // built once: the snapshot makes its cells on each access
        let styles = grid.map { row in row.map { CellStyle($0.attributes, palette: palette) } }
        out += backgrounds(snapshot, styles)
        out += "<g fill=\"\(palette.defaultForeground)\">\n"
        out += texts(snapshot, grid, styles, palette: palette)
        out += "</g>\n"
        out += cursor(snapshot, palette: palette)
        out += "</svg>\n"
        return out
    }

    /// The SVG document for `snapshot` with `masks` applied first (the same fill as the text snapshot).
    public static func render(
        _ snapshot: ScreenSnapshot, masks: [SnapshotMask], palette: TerminalPalette? = nil
    ) throws(SnapshotError) -> String {
        render(try SnapshotMask.apply(masks, to: snapshot), palette: palette)
    }

    // MARK: - Layers

    private static func backgrounds(_ snapshot: ScreenSnapshot, _ styles: [[CellStyle]]) -> String {
        var out = ""
        for row in 0..<snapshot.rows {
            var col = 0
            while col < snapshot.cols {
                guard let color = styles[row][col].background else {
                    col += 1
                    continue
                }
                var end = col + 1
                while end < snapshot.cols, styles[row][end].background == color { end += 1 }
                out += "<rect x=\"\(col * cellWidth)\" y=\"\(row * cellHeight)\" width=\"\((end - col) * cellWidth)\" "
                out += "height=\"\(cellHeight)\" fill=\"\(color)\"/>\n"
                col = end
            }
        }
        return out
    }

    /// One `<text>` per run of cells sharing a style. An undecorated run holds no two blank cells
    /// in a row and neither starts nor ends with one (a stretch of blanks ends it, and the next
    /// run starts at its own cell), so no renderer's whitespace handling can move a glyph; a
    /// decorated run keeps its blanks, which its line crosses, and says so with `xml:space`.
    private static func texts(_ snapshot: ScreenSnapshot, _ grid: [[Cell]], _ styles: [[CellStyle]], palette: TerminalPalette) -> String {
        var out = ""
        for row in 0..<snapshot.rows {
            let cells = grid[row]
            var col = 0
            while col < snapshot.cols {
                let cell = cells[col]
                let style = styles[row][col]
                if cell.width == 0 || style.hidden || (isBlank(cell.character) && !style.decorated) {
                    col += 1
                    continue
                }
                func joins(_ index: Int) -> Bool {
                    index < snapshot.cols && cells[index].width > 0 && isSingleBasicScalar(cells[index].character)
                        && styles[row][index].drawsText(like: style)
                }
                // A character of several scalars or outside the basic plane is a run of its own.
                var run = [(col: col, character: cell.character)]
                var end = col + max(1, cell.width)
                if isSingleBasicScalar(cell.character) {
                    while joins(end) {
                        // A blank joins only between two drawn characters, unless a line crosses it.
                        if isBlank(cells[end].character), !style.decorated, !joins(end + 1) || isBlank(cells[end + 1].character) {
                            break
                        }
                        run.append((end, cells[end].character))
                        end += cells[end].width
                    }
                }
                col = end
                out += "<text x=\"\(positions(of: run))\" y=\"\(row * cellHeight + baseline)\""
                if let length = fittedLength(of: run) { out += " textLength=\"\(length)\"" }
                if style.decorated, run.contains(where: { isBlank($0.character) }) { out += " xml:space=\"preserve\"" }
                out += style.svgAttributes(defaultForeground: palette.defaultForeground)
                out += ">" + escape(run.map(\.character).joined()) + "</text>\n"
            }
        }
        return out
    }

    /// Where a run's glyphs start: its first cell when it is fitted to its cells
    /// (``fittedLength(of:)``), else each character's cell, so a wide character or a glyph from a
    /// fallback font of another width cannot move the others.
    private static func positions(of run: [(col: Int, character: String)]) -> String {
        if fittedLength(of: run) != nil || run.count == 1 { return String(run[0].col * cellWidth) }
        return run.map { String($0.col * cellWidth) }.joined(separator: " ")
    }

    /// The `textLength` of a run of printable ASCII: a monospace font gives these characters
    /// one advance, so spreading the run over its cells puts each glyph on its cell.
    private static func fittedLength(of run: [(col: Int, character: String)]) -> Int? {
        guard run.count > 1, run.allSatisfy({ isPrintableASCII($0.character) }) else { return nil }
        return run.count * cellWidth
    }

    private static func cursor(_ snapshot: ScreenSnapshot, palette: TerminalPalette) -> String {
        guard snapshot.cursor.visible, snapshot.rows > 0, snapshot.cols > 0 else { return "" }
        let row = min(max(0, snapshot.cursor.row), snapshot.rows - 1)
        var col = min(max(0, snapshot.cursor.col), snapshot.cols - 1)
        if snapshot.cell(row: row, col: col).width == 0, col > 0 { col -= 1 }
        let span = max(1, min(snapshot.cell(row: row, col: col).width, snapshot.cols - col))
        return "<rect class=\"cursor\" x=\"\(col * cellWidth)\" y=\"\(row * cellHeight)\" width=\"\(span * cellWidth - 1)\" "
            + "height=\"\(cellHeight - 1)\" fill=\"\(palette.defaultForeground)\" fill-opacity=\"0.35\" "
            + "stroke=\"\(palette.defaultForeground)\" stroke-width=\"1\"/>\n"
    }

    // MARK: - Text

    private static func isBlank(_ character: String) -> Bool {
        character.isEmpty || character == " "
    }

    /// Whether `character` is one scalar of the basic plane, so one entry of an `x` list in every
    /// renderer (renderers count a list's characters in code points or in UTF-16 units).
    private static func isSingleBasicScalar(_ character: String) -> Bool {
        character.utf16.count == 1
    }

    /// Whether `character` is one printable ASCII character (space to tilde).
    private static func isPrintableASCII(_ character: String) -> Bool {
        character.utf8.count == 1 && (0x20..<0x7F).contains(character.utf8.first!)
    }

    /// `text` safe inside an XML element or attribute: markup characters escaped, characters
    /// XML 1.0 forbids (most control characters) replaced by U+FFFD.
    package static func escape(_ text: String) -> String {
        TextEscaping.map(text) { scalar in
            if let entity = TextEscaping.xmlEntity(scalar, quotes: true) { return entity }
            let value = scalar.value
            let allowed = (value >= 0x20 && value < 0x7F) || (value >= 0xA0 && value <= 0xD7FF)
                || (value >= 0xE000 && value <= 0xFFFD) || value >= 0x10000 || "\t\n\r".unicodeScalars.contains(scalar)
            return allowed ? nil : "\u{FFFD}"
        }
    }
}

/// How one cell is drawn in the picture, with inverse and colors resolved.
struct CellStyle {
    /// `#rrggbb` of the text.
    var foreground: String
    /// `#rrggbb` of the background, `nil` for the screen's default.
    var background: String?
    /// The cell's attributes that the text is drawn with: its colors and inverse are resolved
    /// into `foreground` and `background` (so left at their defaults here), blink is not drawn.
    var drawn: CellAttributes

    init(_ attributes: CellAttributes, palette: TerminalPalette) {
        var foreground = palette.hex(attributes.foreground) ?? palette.defaultForeground
        var background = palette.hex(attributes.background)
        if attributes.inverse {
            (foreground, background) = (background ?? palette.defaultBackground, foreground)
        }
        self.foreground = foreground
        self.background = background
        drawn = attributes
        drawn.foreground = .default
        drawn.background = .default
        drawn.inverse = false
        drawn.blink = false
    }

    /// Whether the text is concealed (SGR 8): its cells show only their background.
    var hidden: Bool { drawn.hidden }

    /// Whether blanks in the run are drawn (an underline or a line through them shows).
    var decorated: Bool { drawn.underline || drawn.strikethrough }

    /// Whether text in this style and `other` can share one `<text>` element (the background is
    /// drawn separately, so it may differ).
    func drawsText(like other: CellStyle) -> Bool {
        foreground == other.foreground && drawn == other.drawn
    }

    /// The `<text>` attributes that differ from the defaults, each with a leading space.
    func svgAttributes(defaultForeground: String) -> String {
        var out = ""
        if foreground != defaultForeground { out += " fill=\"\(foreground)\"" }
        if drawn.bold { out += " font-weight=\"bold\"" }
        if drawn.italic { out += " font-style=\"italic\"" }
        if drawn.dim { out += " opacity=\"0.5\"" }
        let decorations = [drawn.underline ? "underline" : nil, drawn.strikethrough ? "line-through" : nil].compactMap { $0 }
        if !decorations.isEmpty { out += " text-decoration=\"\(decorations.joined(separator: " "))\"" }
        return out
    }
}
