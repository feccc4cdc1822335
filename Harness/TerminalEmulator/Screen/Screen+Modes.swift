extension Screen {
    // MARK: - Alternate screen

    /// Shows the alternate buffer (cleared first when `clear`), saving the cursor first when `saveCursor`.
    mutating func enterAlternateScreen(clear: Bool, saveCursor save: Bool) {
        if save { saveCursor() }
        if activeBuffer == .main {
            swap(&grid, &hiddenGrid)
            activeBuffer = .alternate
            modes.alternateScreen = true
            showKeyboardFlagsOfActiveScreen()
        }
        if clear { grid.fillAll(with: eraseBlank) }
    }

    /// Shows the main buffer again (clearing the alternate one first when `clear`),
    /// restoring the cursor saved on entry when `restoreCursor`.
    mutating func leaveAlternateScreen(clear: Bool, restoreCursor restore: Bool) {
        if activeBuffer == .alternate {
            lastAlternateFrame = snapshot()
            if clear { grid.fillAll(with: eraseBlank) }
            swap(&grid, &hiddenGrid)
            activeBuffer = .main
            modes.alternateScreen = false
            showKeyboardFlagsOfActiveScreen()
        }
        if restore { restoreCursor() }
    }

    // MARK: - Resets

    /// RIS: everything back to power-on state (size kept), except the scrollback, which
    /// keeps what scrolled off (as in xterm and tmux), the cluster and link tables its lines
    /// use, and what the program reported (shell marks, clipboard writes: history, not state).
    mutating func fullReset() {
        var fresh = Screen(cols: cols, rows: rows, scrollbackLimit: 0)
        fresh.scrollback = scrollback
        fresh.clusters = clusters
        fresh.links = links
        fresh.marks = marks
        self = fresh
    }

    /// DECSTR: modes, pen, region, charsets and saved cursor reset; content and cursor kept.
    /// The mouse modes are kept, as in xterm (only RIS turns mouse reporting off).
    mutating func softReset() {
        modes.cursorVisible = true
        modes.originMode = false
        modes.autowrap = true
        modes.applicationCursorKeys = false
        modes.applicationKeypad = false
        insertMode = false
        pendingWrap = false
        pen = StoredCell.blank.with(link: pen.link)  // an open hyperlink stays open
        charsets = CharsetState()
        scrollTop = 0
        scrollBottom = rows - 1
        if activeBuffer == .main { savedMain = SavedCursor() } else { savedAlternate = SavedCursor() }
    }
}
