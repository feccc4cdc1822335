import CVTermScreen
import TerminalEmulator

/// A colour as both emulators can state it.
enum ComparedColor: Hashable, CustomStringConvertible {
    case `default`
    case indexed(Int)
    case rgb(UInt32)

    var description: String {
        switch self {
        case .default: return "default"
        case .indexed(let index): return "\(index)"
        case .rgb(let value):
            let digits = String(value, radix: 16)
            return "#" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
        }
    }
}

/// One cell with only what both emulators model: the scalars, the width, bold, underline,
/// italic, blink, inverse, strikethrough, the colours. (Not compared: faint and concealed, which
/// libvterm does not have; underline styles, which we do not keep.)
struct ComparedCell: Hashable {
    var scalars: [UInt32]  // empty for a blank cell (erased or a printed space)
    var width: Int         // 1, 2 the left half of a wide character, 0 its right half
    var bold = false, underline = false, italic = false, blink = false, inverse = false, strike = false
    var foreground = ComparedColor.default
    var background = ComparedColor.default

    var isBlank: Bool { width == 1 && scalars.isEmpty }

    /// `"a" bold fg=1`, short.
    var summary: String {
        var text: String
        switch width {
        case 0: text = "(right half)"
        default:
            let shown = scalars.isEmpty ? " " : String(String.UnicodeScalarView(scalars.compactMap(Unicode.Scalar.init)))
            text = "\"" + Escaping.escape(Array(shown.utf8)) + "\"" + (width == 2 ? " wide" : "")
        }
        for (on, name) in [(bold, "bold"), (underline, "underline"), (italic, "italic"), (blink, "blink"), (inverse, "inverse"), (strike, "strike")] where on {
            text += " " + name
        }
        if foreground != .default { text += " fg=\(foreground)" }
        if background != .default { text += " bg=\(background)" }
        return text
    }
}

/// A screen as the comparer sees it: cells, the cursor, which buffer is shown.
struct ComparedScreen {
    var cols: Int
    var rows: Int
    var cells: [ComparedCell]
    var cursorRow: Int
    var cursorCol: Int
    var cursorVisible: Bool
    var alternate: Bool

    func cell(_ row: Int, _ col: Int) -> ComparedCell { cells[row * cols + col] }

    /// A right half is compared by its width only: libvterm gives it no attributes of its own
    /// (the wide character's are drawn over both cells).
    static func rightHalf() -> ComparedCell { ComparedCell(scalars: [], width: 0) }
}

extension ComparedScreen {
    /// Ours, read through the public API: the screen as drawn so far, also while synchronized
    /// output (mode 2026, which libvterm 0.1.4 ignores) holds an older frame for waits to see.
    init(_ terminal: Terminal) {
        cols = terminal.cols
        rows = terminal.rows
        let snapshot = terminal.drawnSnapshot()
        cells = []
        cells.reserveCapacity(cols * rows)
        for line in snapshot.cells {
            for cell in line {
                var scalars = cell.character.unicodeScalars.map(\.value)
                if scalars == [0x20] { scalars = [] }
                if scalars.count > 6 { scalars = Array(scalars.prefix(6)) }  // libvterm keeps 6
                let a = cell.attributes
                if cell.width == 0 {
                    cells.append(Self.rightHalf())
                    continue
                }
                cells.append(ComparedCell(
                    scalars: cell.width == 0 ? [] : scalars, width: cell.width,
                    bold: a.bold, underline: a.underline, italic: a.italic, blink: a.blink,
                    inverse: a.inverse, strike: a.strikethrough,
                    foreground: ComparedColor(a.foreground), background: ComparedColor(a.background)))
            }
        }
        let cursor = snapshot.cursor
        cursorRow = cursor.row
        cursorCol = cursor.col
        cursorVisible = cursor.visible
        alternate = snapshot.activeBuffer == .alternate
    }

    /// libvterm's, through the C helper.
    init(_ terminal: OpaquePointer, cols: Int, rows: Int) {
        self.cols = cols
        self.rows = rows
        cells = []
        cells.reserveCapacity(cols * rows)
        var raw = DFZCell()
        for row in 0..<rows {
            for col in 0..<cols {
                dfz_cell(terminal, Int32(row), Int32(col), &raw)
                var scalars = withUnsafeBytes(of: raw.chars) { Array($0.bindMemory(to: UInt32.self).prefix(Int(raw.count))) }
                if scalars == [0x20] { scalars = [] }
                if raw.width == 0 {
                    cells.append(Self.rightHalf())
                    continue
                }
                cells.append(ComparedCell(
                    scalars: scalars, width: Int(raw.width),
                    bold: raw.bold != 0, underline: raw.underline != 0, italic: raw.italic != 0, blink: raw.blink != 0,
                    inverse: raw.inverse != 0, strike: raw.strike != 0,
                    foreground: ComparedColor(raw.fg), background: ComparedColor(raw.bg)))
            }
        }
        var row: Int32 = 0, col: Int32 = 0, visible: Int32 = 0
        dfz_cursor(terminal, &row, &col, &visible)
        cursorRow = Int(row)
        cursorCol = Int(col)
        cursorVisible = visible != 0
        alternate = dfz_alternate(terminal) != 0
    }
}

extension ComparedColor {
    init(_ color: TerminalColor) {
        switch color {
        case .default: self = .default
        case .indexed(let index): self = .indexed(Int(index))
        case .rgb(let r, let g, let b): self = .rgb(UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b))
        }
    }

    init(_ color: DFZColor) {
        switch color.kind {
        case 0: self = .default
        case 1: self = .indexed(Int(color.value))
        default: self = .rgb(color.value)
        }
    }
}
