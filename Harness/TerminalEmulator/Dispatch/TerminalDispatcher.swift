/// Turns parser actions into screen operations: reads "0 means default" parameters,
/// chooses the operation, collects answers for the program (DSR, DA) and counts what
/// it does not understand. Never throws: unknown input is ignored.
struct TerminalDispatcher: TerminalPerformer {
    var screen: Screen
    /// Answers to write back to the program, delivered by `Terminal` after each chunk.
    var responses: [UInt8] = []
    /// Sequences recognised by the parser but not implemented here.
    var unhandledSequenceCount = 0
    /// The printed text as a stream (characters, line feeds and tabs).
    var printed: PrintedText
    /// Synchronized output (mode 2026) is set: the screen as it was when the program set it,
    /// the last complete frame, which the terminal shows until the mode is reset.
    var heldFrame: ScreenSnapshot?
    /// How many times a frame was held so far (tells one held frame from the next).
    var heldFrameCount = 0
    /// The theme whose colours OSC 10/11 queries are answered with.
    var theme = TerminalTheme.dark

    init(cols: Int, rows: Int, scrollbackLimit: Int = Scrollback.defaultLimit, printedTextCapacity: Int = 1 << 20) {
        screen = Screen(cols: cols, rows: rows, scrollbackLimit: scrollbackLimit)
        printed = PrintedText(capacity: printedTextCapacity)
    }

    // MARK: - Printing and controls

    /// The last character put in the printed text, as shown (after the charset): what REP
    /// repeats there.
    var lastPrintedScalar: Unicode.Scalar?

    @inline(__always)
    mutating func print(_ scalar: Unicode.Scalar) {
        let charset = screen.charsets.active
        let shown = charset == .ascii || scalar.value >= 0x7F
            ? scalar : Unicode.Scalar(charset.translate(UInt8(scalar.value))) ?? scalar
        printed.append(shown)
        lastPrintedScalar = shown
        screen.print(scalar)
    }

    @inline(__always)
    mutating func printASCII(_ bytes: UnsafeBufferPointer<UInt8>) {
        let charset = screen.charsets.active
        if charset == .ascii {
            printed.append(ascii: bytes)
            if let last = bytes.last { lastPrintedScalar = Unicode.Scalar(last) }
        } else {
            // Line drawing (ESC ( 0): the stream holds what the screen shows, `─` for `q`.
            for byte in bytes {
                let shown = Unicode.Scalar(charset.translate(byte)) ?? Unicode.Scalar(byte)
                printed.append(shown)
                lastPrintedScalar = shown
            }
        }
        screen.printASCII(bytes)
    }

    /// REP (`CSI n b`): the screen prints its last character n more times, and so does the stream.
    mutating func repeatLastCharacter(_ count: Int) {
        if screen.lastPrinted != nil, let scalar = lastPrintedScalar {
            for _ in 0..<min(count, screen.cols * screen.rows) { printed.append(scalar) }
        }
        screen.repeatLastCharacter(count)
    }

    mutating func execute(_ control: UInt8) {
        switch control {
        case 0x08: screen.moveCursorBackward(1)             // BS
        case 0x09:                                          // HT
            printed.append("\t")
            screen.tabForward()
        case 0x0A, 0x0B, 0x0C:                              // LF, VT, FF
            printed.append("\n")
            screen.lineFeed()
        case 0x0D: screen.carriageReturn()                  // CR
        case 0x0E: screen.charsets.shiftedOut = true        // SO
        case 0x0F: screen.charsets.shiftedOut = false       // SI
        default: break                                      // NUL, BEL, ENQ, CAN, SUB...: nothing to draw
        }
    }

    // MARK: - Escape sequences

    mutating func escDispatch(intermediates: Intermediates, final: UInt8) {
        switch intermediates.count {
        case 0:
            switch final {
            case UInt8(ascii: "7"): screen.saveCursor()
            case UInt8(ascii: "8"): screen.restoreCursor()
            case UInt8(ascii: "D"): screen.index()
            case UInt8(ascii: "E"): screen.nextLine()
            case UInt8(ascii: "H"): screen.setTabStop()
            case UInt8(ascii: "M"): screen.reverseIndex()
            case UInt8(ascii: "c"):
                screen.fullReset()
                heldFrame = nil
            case UInt8(ascii: "="): screen.modes.applicationKeypad = true
            case UInt8(ascii: ">"): screen.modes.applicationKeypad = false
            case UInt8(ascii: "\\"): break                                  // ST ending a string
            case UInt8(ascii: "N"), UInt8(ascii: "O"): break               // SS2, SS3: G2/G3 unused
            default: unhandledSequenceCount += 1
            }
        case 1:
            switch intermediates[0] {
            case UInt8(ascii: "("): screen.charsets.g0 = Self.charset(final)
            case UInt8(ascii: ")"): screen.charsets.g1 = Self.charset(final)
            case UInt8(ascii: "*"), UInt8(ascii: "+"): break               // G2/G3 designations: unused
            case UInt8(ascii: "#"):
                if final == UInt8(ascii: "8") { screen.fillWithTestPattern() } else { unhandledSequenceCount += 1 }
            case UInt8(ascii: "%"), UInt8(ascii: " "): break               // UTF-8 select, S7C1T/S8C1T
            default: unhandledSequenceCount += 1
            }
        default:
            unhandledSequenceCount += 1
        }
    }

    static func charset(_ final: UInt8) -> Charset {
        switch final {
        case UInt8(ascii: "0"): return .decSpecialGraphics
        case UInt8(ascii: "A"): return .british
        default: return .ascii
        }
    }

    // MARK: - DCS

    mutating func hook(_ parameters: CSIParameters, intermediates: Intermediates, final: UInt8) {
        unhandledSequenceCount += 1 // DECRQSS, sixel, tmux passthrough...: not shown
    }

    mutating func put(_ byte: UInt8) {}

    mutating func unhook() {}

    // MARK: - Answers

    mutating func respond(_ text: String) {
        responses.append(contentsOf: Array(text.utf8))
    }
}
