/// A VT500/xterm-compatible terminal: bytes in, screen model out.
///
/// Not thread-safe: the owner serialises calls. Snapshots are immutable `Sendable` values
/// that can go anywhere.
///
/// ```swift
/// let terminal = Terminal(cols: 80, rows: 24)
/// terminal.onResponse = { bytes in /* write them to the program */ }
/// terminal.feed("\u{1B}[1;31mError\u{1B}[m\r\n")
/// terminal.snapshot().line(0)   // "Error"
/// ```
///
/// Lines that scroll off the top of the main screen are kept in a scrollback (see
/// ``ScreenSnapshot/scrollbackLines`` and ``ScreenSnapshot/transcriptLines``), and everything
/// printed is also kept as a text stream (``printedText``).
public final class Terminal {
    /// Width in cells.
    public private(set) var cols: Int
    /// Height in rows.
    public private(set) var rows: Int
    /// Bytes the terminal answers to the program (DSR 5/6, DA1/DA2). Called synchronously
    /// inside `feed`, once per fed chunk that produced answers, after the chunk is parsed.
    public var onResponse: (([UInt8]) -> Void)?

    private var parser = TerminalParser()
    private var dispatcher: TerminalDispatcher

    /// A blank terminal of the given size (at least 1x1).
    ///
    /// - Parameters:
    ///   - scrollbackLimit: how many lines that scrolled off the top of the main screen are
    ///     kept (default 10,000; 0 keeps none). Older lines are dropped.
    ///   - printedTextCapacity: how many bytes of ``printedText`` are kept (default 1 MiB).
    public init(cols: Int = 80, rows: Int = 24, scrollbackLimit: Int = 10_000, printedTextCapacity: Int = 1 << 20) {
        self.cols = max(1, cols)
        self.rows = max(1, rows)
        dispatcher = TerminalDispatcher(
            cols: self.cols, rows: self.rows, scrollbackLimit: scrollbackLimit, printedTextCapacity: printedTextCapacity)
    }

    // MARK: - Input

    /// Parses bytes the program wrote (the hot path). Partial sequences continue on the next call.
    public func feed(_ bytes: UnsafeRawBufferPointer) {
        parser.feed(bytes, into: &dispatcher)
        if !dispatcher.responses.isEmpty {
            let answer = dispatcher.responses
            dispatcher.responses.removeAll(keepingCapacity: true)
            onResponse?(answer)
        }
    }

    /// Parses bytes the program wrote.
    public func feed(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { feed($0) }
    }

    /// Parses text the program wrote, as UTF-8.
    public func feed(_ text: String) {
        var text = text
        text.withUTF8 { feed(UnsafeRawBufferPointer($0)) }
    }

    /// Changes the size; content is kept from the top left (no reflow), the cursor clamped,
    /// the scroll region reset to the whole screen.
    public func resize(cols: Int, rows: Int) {
        self.cols = max(1, cols)
        self.rows = max(1, rows)
        dispatcher.screen.resize(cols: self.cols, rows: self.rows)
    }

    // MARK: - State

    /// Modes the program set (cursor keys, bracketed paste, alternate screen...).
    public var modes: TerminalModes { dispatcher.screen.modes }

    /// The window title (OSC 0 / OSC 2).
    public var title: String { dispatcher.screen.title }

    /// The shell's prompts and commands from its OSC 133 marks (see ``ShellCommand``).
    public var shellCommands: [ShellCommand] { dispatcher.screen.marks.commands }

    /// Sequences ignored because they are unknown or malformed.
    public var unhandledSequenceCount: Int {
        dispatcher.unhandledSequenceCount + parser.malformedSequenceCount
    }

    /// The cursor now.
    public var cursor: CursorState {
        let screen = dispatcher.screen
        return CursorState(row: screen.cursorRow, col: screen.cursorCol, visible: screen.modes.cursorVisible)
    }

    /// Everything printed so far as a text stream (see ``PrintedText``): what a pipe would
    /// have carried, escape sequences removed, across scrolling and both screens.
    public var printedText: PrintedText { dispatcher.printed }

    /// How many lines ever scrolled off the top of the main screen (kept, dropped or erased):
    /// a line's number in this count never changes (see ``ScreenSnapshot/scrolledOffCount``).
    public var scrolledOffCount: Int { dispatcher.screen.scrollback.totalPushed }

    /// Which screen is shown now.
    public var activeBuffer: ScreenBuffer { dispatcher.screen.activeBuffer }

    /// One cell now (cheaper than a whole snapshot); a blank cell when out of range.
    public func cell(row: Int, col: Int) -> Cell {
        guard row >= 0, row < rows, col >= 0, col < cols else { return .blank }
        return dispatcher.screen.cell(row: row, col: col)
    }

    /// An immutable copy of what is shown now.
    public func snapshot() -> ScreenSnapshot {
        dispatcher.screen.snapshot()
    }
}
