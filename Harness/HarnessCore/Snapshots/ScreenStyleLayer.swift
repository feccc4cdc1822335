import TerminalEmulator

/// The style layer of a screen snapshot: for each row, the runs of cells that share the same
/// non-plain colors and attributes, one line per run.
///
/// ```
/// row 0 cols 0-4: fg=red bold
/// row 2 col 7: bg=#102030 inverse
/// ```
/// Colors are named for the 16 basic ones (`red`, `bright-blue`), numbered for the 256-color
/// palette (`fg=208`) and in hex for truecolor (`fg=#ff8700`). The right half of a wide
/// character belongs to the run of its left half.
package enum ScreenStyleLayer {
    /// The layer's lines, top to bottom, left to right; empty when the whole screen is plain.
    public static func lines(of screen: ScreenSnapshot) -> [String] {
        runs(of: screen).map { run in
            let columns = run.columns.count == 1 ? "col \(run.columns.lowerBound)" : "cols \(run.columns.lowerBound)-\(run.columns.upperBound - 1)"
            return "row \(run.row) \(columns): \(describe(run.attributes))"
        }
    }

    /// One run of the layer: cells of a row side by side sharing non-plain attributes.
    package struct Run: Sendable, Equatable {
        /// The row, 0-based.
        package var row: Int
        /// The columns, 0-based.
        package var columns: Range<Int>
        /// What the cells share.
        package var attributes: CellAttributes
    }

    /// The layer's runs, top to bottom, left to right; empty when the whole screen is plain.
    package static func runs(of screen: ScreenSnapshot) -> [Run] {
        var out: [Run] = []
        for (row, cells) in screen.cells.enumerated() {
            var start = 0
            while start < cells.count {
                let attributes = cells[start].attributes
                var end = start + 1
                while end < cells.count, cells[end].attributes == attributes { end += 1 }
                if attributes != .plain { out.append(Run(row: row, columns: start..<end, attributes: attributes)) }
                start = end
            }
        }
        return out
    }

    /// The layer as one text block, introduced by a `style:` line.
    public static func text(of screen: ScreenSnapshot) -> String {
        let lines = lines(of: screen)
        return lines.isEmpty ? "style: plain" : (["style:"] + lines).joined(separator: "\n")
    }

    /// Attributes as `fg=red bg=blue bold inverse link=URI` (plain parts left out).
    public static func describe(_ attributes: CellAttributes) -> String {
        var parts: [String] = []
        if attributes.foreground != .default { parts.append("fg=" + name(of: attributes.foreground)) }
        if attributes.background != .default { parts.append("bg=" + name(of: attributes.background)) }
        parts += attributes.setFlagNames
        if let link = attributes.link { parts.append("link=" + link) }
        return parts.isEmpty ? "plain" : parts.joined(separator: " ")
    }

    /// A color's name: `default`, a basic color's name, a palette number, or `#rrggbb`.
    public static func name(of color: TerminalColor) -> String {
        switch color {
        case .default, .rgb: color.description
        case .indexed(let index): color.basicName ?? String(index)
        }
    }
}
