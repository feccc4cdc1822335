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
}
