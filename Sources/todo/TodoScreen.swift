import TodoCore

/// Draws the todo list's state as the bytes of a full-screen frame.
///
/// Pure: the same state, size and color setting give the same bytes. Every row is positioned,
/// cleared and drawn, so one write replaces the previous frame without flicker.
struct TodoScreen {
    var cols: Int
    var rows: Int
    var color: Bool
    /// A line for the footer that is not part of the state (a failed save).
    var notice: String?
    /// When the list was loaded, as the header shows it (from the clock, frozen under the harness).
    var loadedAt: String?

    /// Rows left for todos once the header and footer are drawn.
    static func pageSize(rows: Int) -> Int { max(1, rows - 2) }

    /// The frame for `state`.
    func render(_ state: TodoListState) -> String {
        var lines = [String](repeating: "", count: rows)
        switch state.status {
        case .idle:
            let middle = rows / 2
            put(&lines, middle - 1, centered("Todos", style: color ? "\u{1B}[1;36m" : "\u{1B}[1m"))
            put(&lines, middle, centered("Load your todos to begin.", style: nil))
            put(&lines, middle + 2, centered("[ Start ]", style: "\u{1B}[7m"))
            put(&lines, rows - 1, plain("Enter or Space: start  ·  q: quit", style: dimStyle))
        case .loading:
            put(&lines, rows / 2, centered("Loading…", style: color ? "\u{1B}[33m" : nil))
        case .error(let reason):
            let middle = rows / 2
            put(&lines, middle - 2, centered("Oops", style: color ? "\u{1B}[1;31m" : "\u{1B}[1m"))
            let reasonLines = wrap(reason, width: max(1, cols - 2), limit: max(1, rows - 6))
            for (offset, line) in reasonLines.enumerated() {
                put(&lines, middle - 1 + offset, centered(line, style: nil))
            }
            put(&lines, middle + reasonLines.count, centered("[ Try again ]", style: "\u{1B}[7m"))
            put(&lines, rows - 1, plain("Enter or Space: try again  ·  q: quit", style: dimStyle))
        case .loaded(let todos):
            var header = " Todos (\(todos.count))"
            if let loadedAt { header += " · loaded \(loadedAt)" }
            let position = todos.isEmpty ? "" : "\(state.selection + 1)/\(todos.count) "
            let headerWidth = max(0, cols - DisplayWidth.of(position))
            put(&lines, 0, plain(DisplayWidth.fit(header, toWidth: headerWidth) + position,
                                 style: color ? "\u{1B}[1;37;44m" : "\u{1B}[1;7m"))
            let page = Self.pageSize(rows: rows)
            if todos.isEmpty {
                put(&lines, 1, plain(" Nothing to do.", style: nil))
            }
            for row in 0 ..< page {
                let index = state.scrollOffset + row
                guard index < todos.count else { break }
                put(&lines, row + 1, item(todos[index], selected: index == state.selection))
            }
            put(&lines, rows - 1, plain(notice ?? (cols < 50 ? "↑↓ scroll · q quit" : "↑↓ j/k PgUp/PgDn Home/End scroll · q quit"), style: dimStyle))
        }
        if state.todos.isEmpty, case .loaded = state.status {} else if state.todos.isEmpty, let notice {
            put(&lines, rows - 1, plain(notice, style: dimStyle))
        }
        var frame = "\u{1B}[0m"
        for (row, line) in lines.enumerated() {
            // Cleared first, then drawn: after a full-width row the cursor waits on the last
            // column, and clearing there would erase that column (a cut title's "…").
            frame += "\u{1B}[\(row + 1);1H\u{1B}[K" + line + "\u{1B}[0m"
        }
        return frame
    }

    private var dimStyle: String? { color ? "\u{1B}[2m" : nil }

    private func item(_ todo: Todo, selected: Bool) -> String {
        let mark = todo.completed ? "[x]" : "[ ]"
        let title = DisplayWidth.truncate(todo.title, toWidth: max(1, cols - 5))
        let text = DisplayWidth.fit(" \(mark) \(title)", toWidth: cols)
        if selected { return "\u{1B}[7m" + text + "\u{1B}[0m" }
        if color && todo.completed {
            return "\u{1B}[32m" + String(text.prefix(4)) + "\u{1B}[0m" + String(text.dropFirst(4))
        }
        return text
    }

    private func put(_ lines: inout [String], _ row: Int, _ text: String) {
        guard row >= 0, row < lines.count else { return }
        lines[row] = text
    }

    private func plain(_ text: String, style: String?) -> String {
        let cut = DisplayWidth.truncate(text, toWidth: cols)
        guard let style else { return cut }
        return style + cut + "\u{1B}[0m"
    }

    private func centered(_ text: String, style: String?) -> String {
        let cut = DisplayWidth.truncate(text, toWidth: cols)
        let pad = String(repeating: " ", count: max(0, (cols - DisplayWidth.of(cut)) / 2))
        guard let style else { return pad + cut }
        return pad + style + cut + "\u{1B}[0m"
    }

    /// Splits `text` into lines of at most `width` columns at spaces, at most `limit` lines.
    private func wrap(_ text: String, width: Int, limit: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if DisplayWidth.of(candidate) <= width || current.isEmpty {
                current = candidate
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        if lines.count > limit {
            lines = Array(lines.prefix(limit))
            lines[limit - 1] += " …"
        }
        return lines.map { DisplayWidth.truncate($0, toWidth: width) }
    }
}
