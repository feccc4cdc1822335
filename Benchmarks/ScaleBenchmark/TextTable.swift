/// Rows printed as an aligned plain-text table: the first column left-aligned, the others
/// right-aligned, two spaces between columns, no trailing blanks.
struct TextTable {
    let header: [String]
    private(set) var rows: [[String]] = []

    init(_ header: String...) {
        self.header = header
    }

    mutating func add(_ cells: String...) {
        precondition(cells.count == header.count, "a row of \(cells.count) cells in a table of \(header.count) columns")
        rows.append(cells)
    }

    /// The table, one line per row, the header underlined.
    var text: String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            let text = cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + padding : padding + cell
            }.joined(separator: "  ")
            return String(text.reversed().drop { $0 == " " }.reversed())
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }
}
