/// A part of the screen that waits, style checks and snapshots can be limited to, so a clock
/// in a status bar needs no mask: a fixed rectangle, a band of rows, or the rows between two
/// lines found by their text.
///
/// ```swift
/// try await app.waitFor(text: "milk", in: .rows(2...10))
/// assertSnapshot(of: app.screen, as: .screen(area: .rows(between: "Todos", and: "q quit")))
/// ```
///
/// Rows and columns are 0-based, as in ``ScreenPosition``.
public enum ScreenArea: Sendable, Hashable, CustomStringConvertible {
    /// A fixed rectangle (cut to the screen).
    case rectangle(ScreenRegion)
    /// Rows `first...last`, the full width (cut to the screen).
    case rows(ClosedRange<Int>)
    /// From the first row containing `start` to the first row at or below it containing `end`,
    /// the full width; both rows included when `inclusive`, else only the rows strictly between
    /// them. Text is searched in each row as ``ScreenSnapshot/find(_:)`` does.
    case between(start: String, end: String, inclusive: Bool)

    /// The rows from the line containing `start` to the line containing `end`, both included
    /// (`inclusive: false` keeps only the rows strictly between them).
    public static func rows(between start: String, and end: String, inclusive: Bool = true) -> ScreenArea {
        .between(start: start, end: end, inclusive: inclusive)
    }

    /// `rows 2-10`, `rows 2-10 cols 0-39`, `rows between "Todos" and "q quit"` (with
    /// `exclusive` at the end when the anchors are left out).
    public var description: String {
        switch self {
        case .rectangle(let region):
            return "rows \(region.row)-\(region.row + region.height - 1) cols \(region.col)-\(region.col + region.width - 1)"
        case .rows(let rows):
            return "rows \(rows.lowerBound)-\(rows.upperBound)"
        case let .between(start, end, inclusive):
            return "rows between \(start.debugDescription) and \(end.debugDescription)" + (inclusive ? "" : " exclusive")
        }
    }

    /// The rectangle this area covers on `screen`, cut to the screen; nil when an anchor text
    /// is not on it, or the area is empty there (no row between two adjacent anchors, a band
    /// below the last row).
    public func region(on screen: ScreenSnapshot) -> ScreenRegion? {
        let region: ScreenRegion
        switch self {
        case .rectangle(let given):
            region = given
        case .rows(let rows):
            region = ScreenRegion(row: rows.lowerBound, col: 0, width: screen.cols, height: rows.count)
        case let .between(start, end, inclusive):
            guard let top = screen.find(start).first?.row,
                  let bottom = screen.find(end).first(where: { $0.row >= top })?.row else { return nil }
            let first = inclusive ? top : top + 1, last = inclusive ? bottom : bottom - 1
            guard first <= last else { return nil }
            region = ScreenRegion(row: first, col: 0, width: screen.cols, height: last - first + 1)
        }
        let top = max(0, region.row), bottom = min(screen.rows, region.row + max(0, region.height))
        let left = max(0, region.col), right = min(screen.cols, region.col + max(0, region.width))
        guard top < bottom, left < right else { return nil }
        return ScreenRegion(row: top, col: left, width: right - left, height: bottom - top)
    }

    /// What of a fixed area (a rectangle or a band of rows) is not on `screen`, in words, or nil
    /// when all of it is (an area between two texts is always on the screen when found):
    /// `rows 20-30 is partly outside the 80x24 screen: rows 24-30 are below its last row (23)`.
    /// Such an area is cut to the screen; a wait or check in it says so when it fails.
    package func outsidePart(on screen: ScreenSnapshot) -> String? {
        let given: ScreenRegion
        switch self {
        case .rectangle(let region): given = region
        case .rows(let rows): given = ScreenRegion(row: rows.lowerBound, col: 0, width: screen.cols, height: rows.count)
        case .between: return nil
        }
        let lastRow = given.row + given.height - 1, lastCol = given.col + given.width - 1
        var parts: [String] = []
        if given.row < 0 { parts.append("rows \(given.row)-\(min(lastRow, -1)) are above its first row (0)") }
        if lastRow >= screen.rows {
            parts.append("rows \(max(given.row, screen.rows))-\(lastRow) are below its last row (\(screen.rows - 1))")
        }
        if given.col < 0 { parts.append("cols \(given.col)-\(min(lastCol, -1)) are left of its first column (0)") }
        if lastCol >= screen.cols {
            parts.append("cols \(max(given.col, screen.cols))-\(lastCol) are right of its last column (\(screen.cols - 1))")
        }
        guard !parts.isEmpty else { return nil }
        let wholly = region(on: screen) == nil
        return "\(self) is \(wholly ? "wholly" : "partly") outside the \(screen.cols)x\(screen.rows) screen: "
            + parts.joined(separator: ", ")
    }
}
