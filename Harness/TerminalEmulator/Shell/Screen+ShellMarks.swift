extension Screen {
    /// The command line a shell shows from `command`'s B mark to the cursor (where the C mark
    /// is): rows joined by line breaks, blanks at both ends trimmed; nil without a B mark, when
    /// its row scrolled off, or when nothing was typed.
    func commandText(from command: ShellCommand) -> String? {
        guard let inputLine = command.inputLine else { return nil }
        let firstRow = inputLine - scrollback.totalPushed
        guard firstRow >= 0, firstRow <= cursorRow else { return nil }
        var rows: [String] = []
        for row in firstRow...cursorRow {
            let from = row == firstRow ? min(command.inputColumn, cols) : 0
            let to = row == cursorRow && !pendingWrap ? cursorCol : cols
            var text = ""
            for col in from..<max(from, to) where !grid[row, col].isContinuation {
                text += clusters.text(of: grid[row, col].content)
            }
            rows.append(text)
        }
        let text = rows.joined(separator: "\n")
        let trimmed = text.drop { $0 == " " || $0 == "\n" }
        let result = String(trimmed.reversed().drop { $0 == " " || $0 == "\n" }.reversed())
        return result.isEmpty ? nil : result
    }
}
