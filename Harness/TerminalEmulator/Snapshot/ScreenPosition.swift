/// A cell position on the screen, 0-based; `col` counts cells (a wide character takes two).
public struct ScreenPosition: Sendable, Hashable, CustomStringConvertible {
    /// Row, 0 at the top.
    public var row: Int
    /// Column in cells, 0 at the left.
    public var col: Int

    /// Creates a position.
    public init(row: Int, col: Int) {
        self.row = row
        self.col = col
    }

    /// "row R, col C".
    public var description: String { "row \(row), col \(col)" }
}
