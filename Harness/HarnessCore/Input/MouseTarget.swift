import TerminalEmulator

/// Where a mouse gesture points: a cell, or the text a row shows.
///
/// ```swift
/// try session.click(.text("OK"))                 // the first cell of the first "OK"
/// try session.click(.cell(row: 3, col: 10))      // 0-based, as ScreenSnapshot.cell(row:col:)
/// ```
public enum MouseTarget: Sendable, Hashable, CustomStringConvertible {
    /// A cell, 0-based (row 0 at the top, column 0 at the left), as ``ScreenPosition``.
    case cell(row: Int, col: Int)
    /// The first occurrence of the text on the screen (rows top to bottom, then left to
    /// right, as ``ScreenSnapshot/find(_:)`` finds it), pointed at its first cell.
    case text(String)

    /// A target at a position.
    public static func at(_ position: ScreenPosition) -> MouseTarget { .cell(row: position.row, col: position.col) }

    /// `"row 3, col 10"` or `"\"OK\""`.
    public var description: String {
        switch self {
        case .cell(let row, let col): return ScreenPosition(row: row, col: col).description
        case .text(let text): return text.debugDescription
        }
    }

    /// The cell on `screen`.
    /// - Throws: ``MouseError/textNotFound(text:screen:)`` or ``MouseError/outsideScreen(position:cols:rows:)``.
    package func position(on screen: ScreenSnapshot) throws(MouseError) -> ScreenPosition {
        switch self {
        case .cell(let row, let col):
            let position = ScreenPosition(row: row, col: col)
            guard (0..<screen.rows).contains(row), (0..<screen.cols).contains(col) else {
                throw .outsideScreen(position: position, cols: screen.cols, rows: screen.rows)
            }
            return position
        case .text(let text):
            guard let first = screen.find(text).first else { throw .textNotFound(text: text, screen: screen.framed()) }
            return first
        }
    }
}

/// Which way the wheel turns.
public enum ScrollDirection: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Away from the user: the content moves down, earlier lines show (wheel button 4).
    case up
    /// Towards the user (wheel button 5).
    case down

    /// `"up"` or `"down"`.
    public var description: String { self == .up ? "up" : "down" }
}
