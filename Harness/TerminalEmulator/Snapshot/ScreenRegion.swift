/// A rectangle of cells: top-left corner and size, 0-based.
public struct ScreenRegion: Sendable, Hashable {
    /// Top row.
    public var row: Int
    /// Left column.
    public var col: Int
    /// Width in cells.
    public var width: Int
    /// Height in rows.
    public var height: Int

    /// Creates a region.
    public init(row: Int, col: Int, width: Int, height: Int) {
        self.row = row
        self.col = col
        self.width = width
        self.height = height
    }
}
