/// The size of a terminal in character cells.
public struct TerminalSize: Sendable, Hashable, CustomStringConvertible {
    /// Number of columns (cells per row).
    public var cols: Int
    /// Number of rows.
    public var rows: Int

    /// Creates a size of `cols` columns by `rows` rows.
    public init(cols: Int, rows: Int) {
        self.cols = cols
        self.rows = rows
    }

    /// The classic 80 columns by 24 rows.
    public static let standard = TerminalSize(cols: 80, rows: 24)

    /// `"80x24"`.
    public var description: String { "\(cols)x\(rows)" }
}
