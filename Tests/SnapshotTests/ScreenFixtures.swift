import TerminalEmulator

/// Screens the snapshot tests draw on.
enum ScreenFixtures {
    /// A small screen with plain text, a cursor at row 1, col 3.
    static func plain() -> ScreenSnapshot {
        let terminal = Terminal(cols: 12, rows: 3)
        terminal.feed("hello\r\nabc")
        return terminal.snapshot()
    }

    /// A colourful screen: basic, bright, 256-color and truecolor colors, every attribute,
    /// a wide character, markup characters, and the cursor on the last row.
    static func colourful() -> ScreenSnapshot {
        let terminal = Terminal(cols: 30, rows: 8)
        terminal.feed("\u{1B}]2;Colours & <tags>\u{07}")
        terminal.feed("\u{1B}[1;31mError\u{1B}[0m: disk \u{1B}[4mfull\u{1B}[0m\r\n")
        terminal.feed("\u{1B}[42;30m OK \u{1B}[0m \u{1B}[7minverse\u{1B}[0m \u{1B}[2mdim\u{1B}[0m\r\n")
        terminal.feed("\u{1B}[38;5;208morange\u{1B}[0m \u{1B}[48;5;240m gray \u{1B}[0m \u{1B}[38;2;16;32;48;48;2;250;240;230mrgb\u{1B}[0m\r\n")
        terminal.feed("\u{1B}[3mitalic\u{1B}[0m \u{1B}[9mstruck\u{1B}[0m \u{1B}[8mhidden\u{1B}[0m\r\n")
        terminal.feed("\u{1B}[94mwide: 日本\u{1B}[0m <a&b> \"q\"\r\n")
        terminal.feed("\r\n> ")
        return terminal.snapshot()
    }
}
