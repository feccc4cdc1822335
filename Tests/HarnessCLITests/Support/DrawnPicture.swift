import Foundation
import Harness
import HarnessFlows
import TerminalEmulator

/// A screen picture (``ScreenSVG``) as headless Chromium laid it out: for each `<text>`, where
/// the browser starts the glyph of each of its characters (`getStartPositionOfChar`).
/// ``problems(showing:)`` checks every glyph against its cell.
struct DrawnPicture: Decodable {
    /// Where the picture was: `document` (an SVG file), `thumb`, `player`, `zoom`, `expected` or
    /// `actual` (the two sides of a changed snapshot), or `other`.
    var place: String
    /// The picture's size in cells (from its `viewBox`).
    var cols: Int
    var rows: Int
    /// The framed text shown beside the picture (a changed snapshot's side), if any.
    var text: String?
    /// Its `<text>` elements.
    var texts: [DrawnText]

    /// One `<text>` element as laid out.
    struct DrawnText: Decodable {
        /// Its characters.
        var content: String
        /// How many characters (UTF-16 units) the browser laid out: fewer when it collapsed spaces.
        var laidOut: Int
        /// Where each laid-out character starts, `[x, y]` in the picture's pixels.
        var starts: [[Double]?]
    }

    /// What is wrong with the picture: characters the browser did not lay out (collapsed
    /// spaces) and glyphs that start off the grid of cells; given the `screen` it shows, also
    /// glyphs on a cell that holds another character and characters not drawn on their cell.
    func problems(showing screen: ScreenSnapshot? = nil, tolerance: Double = 0.5) -> [String] {
        let cellWidth = Double(ScreenSVG.cellWidth), cellHeight = Double(ScreenSVG.cellHeight)
        let baseline = Double(ScreenSVG.baseline)
        var problems: [String] = []
        var drawn = Set<[Int]>()
        for text in texts {
            let units = text.content.utf16.count
            guard text.laidOut == units else {
                problems.append("\(Self.quoted(text.content)): \(text.laidOut) of its \(units) characters laid out")
                continue
            }
            var offset = 0
            for character in text.content {
                defer { offset += character.utf16.count }
                if character == " " { continue }
                guard offset < text.starts.count, let start = text.starts[offset], start.count == 2 else {
                    problems.append("\(Self.quoted(text.content)): no position for '\(character)'")
                    continue
                }
                let (x, y) = (start[0], start[1])
                let col = Int((x / cellWidth).rounded()), row = Int(((y - baseline) / cellHeight).rounded())
                let glyph = "'\(character)' of \(Self.quoted(text.content)) starts at x \(Self.format(x)), y \(Self.format(y))"
                guard abs(x - Double(col) * cellWidth) <= tolerance, abs(y - (Double(row) * cellHeight + baseline)) <= tolerance else {
                    problems.append("\(glyph): between cells")
                    continue
                }
                drawn.insert([row, col])
                guard let screen else { continue }
                guard (0..<screen.rows).contains(row), (0..<screen.cols).contains(col) else {
                    problems.append("\(glyph): outside the screen")
                    continue
                }
                let cell = screen.cell(row: row, col: col)
                if cell.character.unicodeScalars.first != character.unicodeScalars.first {
                    problems.append("\(glyph): row \(row), col \(col), where the screen has '\(cell.character)'")
                }
            }
        }
        guard let screen else { return problems }
        for row in 0..<screen.rows {
            for col in 0..<screen.cols {
                let cell = screen.cell(row: row, col: col)
                guard cell.width > 0, !cell.character.isEmpty, cell.character != " ", !cell.attributes.hidden else { continue }
                if !drawn.contains([row, col]) { problems.append("row \(row), col \(col): '\(cell.character)' is not drawn on its cell") }
            }
        }
        return problems
    }

    /// The screen a framed snapshot text shows (rows between `│`), as the emulator reads it,
    /// with the `concealed` cells blank (the text shows what SGR 8 hides in the picture).
    static func screen(framed text: String, cols: Int, rows: Int, concealed: [(row: Int, cols: ClosedRange<Int>)] = []) -> ScreenSnapshot {
        let terminal = Terminal(cols: cols, rows: rows)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).filter { $0.hasPrefix("│") && $0.hasSuffix("│") }
        for (row, line) in lines.prefix(rows).enumerated() {
            terminal.feed("\u{1B}[\(row + 1);1H" + line.dropFirst().dropLast())
        }
        for (row, range) in concealed {
            terminal.feed("\u{1B}[\(row + 1);\(range.lowerBound + 1)H" + String(repeating: " ", count: range.count))
        }
        return terminal.snapshot()
    }

    private static func quoted(_ text: String) -> String {
        "\"" + (text.count > 40 ? String(text.prefix(40)) + "…" : text) + "\""
    }

    private static func format(_ value: Double) -> String {
        String(format: "%.2f", value)
    }
}
