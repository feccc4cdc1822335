import TerminalEmulator

extension ScreenSnapshot {
    /// Row `row` with trailing blanks kept (wide characters once), so text ending in spaces,
    /// such as a `"$ "` prompt, can be found.
    func paddedLine(_ row: Int) -> String {
        var text = ""
        for cell in cells[row] where cell.width != 0 {
            text += cell.character.isEmpty ? " " : cell.character
        }
        return text
    }

    /// Whether `text` appears on one row (trailing blanks included), or, when it holds line
    /// breaks, in the screen's text.
    func showsText(_ text: String) -> Bool {
        if text.contains("\n") { return self.text.contains(text) }
        if contains(text) { return true }
        return (0..<rows).contains { paddedLine($0).contains(text) }
    }
}
