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
    /// Bytes the terminal answers to the program (DSR 5/6, DA1/DA2, DECRQM, OSC 10/11/12
    /// colour queries). Called synchronously
    /// inside `feed`, once per fed chunk that produced answers, after the chunk is parsed.
    public var onResponse: (([UInt8]) -> Void)?

    private var parser = TerminalParser()
    var dispatcher: TerminalDispatcher

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
    /// the scroll region reset to the whole screen. A held synchronized frame is released (see
    /// ``releaseHeldFrame()``): the program redraws for the new size anyway.
    public func resize(cols: Int, rows: Int) {
        releaseHeldFrame()
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

    /// The cursor now (in the held frame while synchronized output holds one).
    public var cursor: CursorState {
        if let held = dispatcher.heldFrame { return held.cursor }
        let screen = dispatcher.screen
        return CursorState(row: screen.cursorRow, col: screen.cursorCol, visible: screen.modes.cursorVisible)
    }

    /// Everything printed so far as a text stream (see ``PrintedText``): what a pipe would
    /// have carried, escape sequences removed, across scrolling and both screens.
    public var printedText: PrintedText { dispatcher.printed }

    /// How many lines ever scrolled off the top of the main screen (kept, dropped or erased):
    /// a line's number in this count never changes (see ``ScreenSnapshot/scrolledOffCount``).
    /// While a synchronized frame is held, the count of that frame.
    public var scrolledOffCount: Int { dispatcher.heldFrame?.scrolledOffCount ?? dispatcher.screen.scrollback.totalPushed }

    /// Which screen is shown now.
    public var activeBuffer: ScreenBuffer { dispatcher.screen.activeBuffer }

    /// One cell now (cheaper than a whole snapshot); a blank cell when out of range. While a
    /// synchronized frame is held, the cell of that frame.
    public func cell(row: Int, col: Int) -> Cell {
        guard row >= 0, row < rows, col >= 0, col < cols else { return .blank }
        if let held = dispatcher.heldFrame { return held.cell(row: row, col: col) }
        return dispatcher.screen.cell(row: row, col: col)
    }

    /// An immutable copy of what is shown now: while synchronized output holds a frame (see
    /// ``isHoldingFrame``), that frame, not the update the program is drawing.
    public func snapshot() -> ScreenSnapshot {
        var snapshot = dispatcher.heldFrame ?? dispatcher.screen.snapshot()
        snapshot.theme = dispatcher.theme
        return snapshot
    }

    /// The alternate screen as it was when the program last left it (`ESC [ ? 1049 l` and
    /// the like), nil if it never did: a full-screen program's last frame after it exited.
    public var lastAlternateScreen: ScreenSnapshot? { dispatcher.screen.lastAlternateFrame }

    // MARK: - Synchronized output (mode 2026)

    /// Whether the program set synchronized output (`ESC [ ? 2026 h`) and has not reset it:
    /// ``snapshot()``, ``cell(row:col:)`` and ``cursor`` show the last complete frame (the
    /// screen when the mode was set) until the mode is reset, ``releaseHeldFrame()`` is
    /// called, the size changes or the terminal is reset (RIS). The emulator keeps no clock:
    /// its owner applies a safety limit by calling ``releaseHeldFrame()``.
    public var isHoldingFrame: Bool { dispatcher.heldFrame != nil }

    /// How many frames synchronized output held so far: tells one held frame from the next
    /// (the owner's limit releases only the frame it was armed for).
    public var heldFrameCount: Int { dispatcher.heldFrameCount }

    /// Shows the update the program is drawing now, as real terminals do when a synchronized
    /// frame takes too long, and ends the mode (a DECRQM then reports 2026 reset). Returns
    /// whether a frame was held.
    @discardableResult
    public func releaseHeldFrame() -> Bool {
        defer { dispatcher.heldFrame = nil }
        return dispatcher.heldFrame != nil
    }

    /// The screen as the program has drawn it so far, held synchronized frame or not (for
    /// diagnostics: waits and snapshots use ``snapshot()``).
    public func drawnSnapshot() -> ScreenSnapshot {
        var snapshot = dispatcher.screen.snapshot()
        snapshot.theme = dispatcher.theme
        return snapshot
    }

    // MARK: - Mode reports

    /// What DECRQM (`CSI ? mode $ p`) answers for a DEC private mode.
    public func privateModeStatus(_ mode: Int) -> TerminalModeStatus { dispatcher.privateModeStatus(mode) }

    /// What DECRQM (`CSI mode $ p`) answers for an ANSI mode.
    public func ansiModeStatus(_ mode: Int) -> TerminalModeStatus { dispatcher.ansiModeStatus(mode) }

    /// The default foreground colour the terminal reports (OSC 10 `?`) in the dark theme: the
    /// `#d0d0d0` of the harness's pictures.
    public static let defaultForeground = TerminalTheme.dark.foreground
    /// The default background colour the terminal reports (OSC 11 `?`) in the dark theme: `#101010`.
    public static let defaultBackground = TerminalTheme.dark.background

    /// Light or dark: the colours OSC 10/11 queries are answered with, and the theme its
    /// snapshots carry (``ScreenSnapshot/theme``) for pictures. Dark unless set.
    public var theme: TerminalTheme {
        get { dispatcher.theme }
        set { dispatcher.theme = newValue }
    }
}
