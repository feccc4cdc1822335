/// Where the cursor is (0-based) and whether it is shown.
public struct CursorState: Sendable, Hashable {
    /// Row, 0 at the top.
    public var row: Int
    /// Column, 0 at the left.
    public var col: Int
    /// False after DECTCEM reset (`ESC [ ? 25 l`).
    public var visible: Bool

    /// Creates a cursor state.
    public init(row: Int, col: Int, visible: Bool = true) {
        self.row = row
        self.col = col
        self.visible = visible
    }
}
