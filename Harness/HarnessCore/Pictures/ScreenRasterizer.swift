import TerminalEmulator

/// Draws a screen snapshot as pixels over GNU Unifont (``UnifontFont``): a cell is 8×16 pixels,
/// a wide character's glyph spans its two cells.
///
/// Colors and attributes are resolved as ``ScreenSVG`` resolves them (the same palette, inverse
/// swapping text and background, blink not drawn); bold is drawn one pixel thicker, italic
/// slanted by a pixel in the top half, dim at half intensity over the background, underline on
/// the cell's bottom row, strikethrough through its middle, hidden text as its background only.
/// A visible cursor inverts its cell. A character the font lacks is drawn as a box.
///
/// ```swift
/// var rasterizer = ScreenRasterizer(font: try UnifontFont.load(), palette: .xterm)
/// let png = PNGEncoder.encode(rasterizer.raster(of: terminal.snapshot()))
/// ```
package struct ScreenRasterizer {
    /// A cell's width in pixels.
    package static let cellWidth = 8
    /// A cell's height in pixels.
    package static let cellHeight = UnifontGlyph.height

    /// The font glyphs come from.
    package let font: UnifontFont
    /// The colors of the picture.
    package let palette: TerminalPalette
    private var glyphs: [UInt32: UnifontGlyph?] = [:]
    private var colors: [String: UInt32] = [:]
    private var styles: [CellAttributes: (ink: UInt32, paper: UInt32, style: CellStyle)] = [:]

    /// A rasterizer drawing with `font` in `palette`'s colors.
    package init(font: UnifontFont, palette: TerminalPalette = .xterm) {
        self.font = font
        self.palette = palette
    }

    /// The picture of `snapshot`: `cols * 8` by `rows * 16` pixels.
    package mutating func raster(of snapshot: ScreenSnapshot) -> Raster {
        let background = color(palette.defaultBackground)
        var raster = Raster(width: snapshot.cols * Self.cellWidth, height: snapshot.rows * Self.cellHeight, color: background)
        let grid = snapshot.cells
        let cursor = cursorCell(snapshot)
        for row in 0..<snapshot.rows {
            // Backgrounds first: a wide character's glyph spans the next cell, drawn after it.
            var inks: [(ink: UInt32, style: CellStyle)] = []
            for col in 0..<snapshot.cols {
                var (ink, paper, style) = resolved(grid[row][col].attributes, background: background)
                if let cursor, cursor.row == row, (cursor.col..<cursor.col + cursor.span).contains(col) { swap(&ink, &paper) }
                if style.drawn.dim { ink = Self.blend(ink, paper) }
                raster.fill(x: col * Self.cellWidth, y: row * Self.cellHeight, width: Self.cellWidth, height: Self.cellHeight, color: paper)
                inks.append((ink, style))
            }
            for col in 0..<snapshot.cols {
                let cell = grid[row][col], (ink, style) = inks[col]
                guard cell.width > 0, !style.hidden else { continue }
                let span = min(max(1, cell.width), snapshot.cols - col) * Self.cellWidth
                draw(cell.character, style: style.drawn, ink: ink, x: col * Self.cellWidth, y: row * Self.cellHeight, span: span, into: &raster)
            }
        }
        return raster
    }

    // MARK: - Cells

    private func cursorCell(_ snapshot: ScreenSnapshot) -> (row: Int, col: Int, span: Int)? {
        guard snapshot.cursor.visible, snapshot.rows > 0, snapshot.cols > 0 else { return nil }
        let row = min(max(0, snapshot.cursor.row), snapshot.rows - 1)
        var col = min(max(0, snapshot.cursor.col), snapshot.cols - 1)
        if snapshot.cell(row: row, col: col).width == 0, col > 0 { col -= 1 }
        return (row, col, max(1, min(snapshot.cell(row: row, col: col).width, snapshot.cols - col)))
    }

    /// Draws `character` (a base and its combining marks) in a cell `span` pixels wide.
    private mutating func draw(_ character: String, style: CellAttributes, ink: UInt32, x: Int, y: Int, span: Int, into raster: inout Raster) {
        var first = true
        for scalar in character.unicodeScalars {
            if !first && !Self.isMark(scalar) { continue }
            defer { first = false }
            if first && scalar == " " { continue }
            let glyph = glyph(scalar.value) ?? Self.box(width: span)
            let offset = glyph.width < span ? (span - glyph.width) / 2 : 0
            for gy in 0..<UnifontGlyph.height {
                let slant = style.italic && gy < UnifontGlyph.height / 2 ? 1 : 0
                for gx in 0..<min(glyph.width, span) {
                    let set = glyph.isSet(x: gx, y: gy) || (style.bold && glyph.isSet(x: gx - 1, y: gy))
                    let px = x + offset + gx + slant
                    if set, px < x + span { raster[px, y + gy] = ink }
                }
            }
        }
        if style.underline { raster.fill(x: x, y: y + Self.cellHeight - 1, width: span, height: 1, color: ink) }
        if style.strikethrough { raster.fill(x: x, y: y + Self.cellHeight / 2, width: span, height: 1, color: ink) }
    }

    private mutating func glyph(_ scalar: UInt32) -> UnifontGlyph? {
        if let known = glyphs[scalar] { return known }
        let found = font.glyph(scalar)
        glyphs[scalar] = found
        return found
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark: true
        default: false
        }
    }

    /// The glyph of a character the font lacks: an outlined box.
    private static func box(width: Int) -> UnifontGlyph {
        let bit = { (col: Int) in UInt16(0x8000) >> UInt16(col) }
        let side = bit(1) | bit(width - 2)
        let edge = (1...width - 2).reduce(UInt16(0)) { $0 | bit($1) }
        let rows = (0..<UnifontGlyph.height).map { $0 == 2 || $0 == 13 ? edge : (3..<13).contains($0) ? side : 0 }
        return UnifontGlyph(width: width, rows: rows)
    }

    // MARK: - Colors

    /// The text and background colors of `attributes` (inverse applied, as ``ScreenSVG`` does)
    /// and its style, resolved once per distinct attributes.
    private mutating func resolved(_ attributes: CellAttributes, background: UInt32) -> (ink: UInt32, paper: UInt32, style: CellStyle) {
        if let known = styles[attributes] { return known }
        let style = CellStyle(attributes, palette: palette)
        let value = (color(style.foreground), style.background.map { color($0) } ?? background, style)
        styles[attributes] = value
        return value
    }

    private mutating func color(_ hex: String) -> UInt32 {
        if let known = colors[hex] { return known }
        let value = UInt32(hex.dropFirst(), radix: 16) ?? 0
        colors[hex] = value
        return value
    }

    /// `a` at half intensity over `b`.
    private static func blend(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var out: UInt32 = 0
        for shift: UInt32 in [16, 8, 0] {
            out |= ((((a >> shift) & 0xFF) + ((b >> shift) & 0xFF)) / 2) << shift
        }
        return out
    }
}
