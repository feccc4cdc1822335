extension ScreenSnapshot {
    /// Whether `area` shows the same cells (characters, widths, attributes, links) here and
    /// on `other`: both are where the area is found on each screen, so an area between two
    /// anchors that moved is a change, and an area on neither screen is no change.
    package func showsSame(as other: ScreenSnapshot, in area: ScreenArea) -> Bool {
        let here = area.region(on: self), there = area.region(on: other)
        guard let here, let there else { return here == nil && there == nil }
        guard here.width == there.width, here.height == there.height else { return false }
        for row in 0..<here.height {
            for col in 0..<here.width where cell(row: here.row + row, col: here.col + col)
                != other.cell(row: there.row + row, col: there.col + col) {
                return false
            }
        }
        return true
    }
}
