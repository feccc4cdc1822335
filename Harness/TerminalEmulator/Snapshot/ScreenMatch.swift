/// Text found on one screen row: where it starts, what it says and the cells it covers.
///
/// ```swift
/// let oops = screen.locate("Oops").first
/// oops?.position            // row 11, col 38
/// oops?.style.isBold        // true when its first cell is bold
/// ```
public struct ScreenMatch: Sendable, Hashable, CustomStringConvertible {
    /// Where the match starts.
    public var position: ScreenPosition
    /// The matched text.
    public var text: String
    /// The cells the match covers, left to right (a wide character's two cells both); empty
    /// when the match was made without them (``ScreenSnapshot/find(regex:)``).
    public var cells: [Cell]

    /// Creates a match.
    public init(position: ScreenPosition, text: String, cells: [Cell] = []) {
        self.position = position
        self.text = text
        self.cells = cells
    }

    /// The attributes of the first cell (plain when there is none). Use
    /// ``TextStyle/matches(_:)-(ScreenMatch)`` to check every cell.
    public var style: CellAttributes { cells.first?.attributes ?? .plain }

    /// The attributes every cell shares, or nil when they differ.
    public var uniformStyle: CellAttributes? {
        guard let first = cells.first?.attributes else { return nil }
        return cells.allSatisfy { $0.attributes == first } ? first : nil
    }

    /// The rectangle the match covers: one row, as many columns as cells.
    public var region: ScreenRegion {
        ScreenRegion(row: position.row, col: position.col, width: max(cells.count, 1), height: 1)
    }

    /// `"Oops" at row 11, col 38`.
    public var description: String { "\(text.debugDescription) at \(position)" }
}
