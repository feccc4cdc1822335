extension TerminalDispatcher {
    // MARK: - Control sequences

    mutating func csiDispatch(_ parameters: CSIParameters, intermediates: Intermediates, final: UInt8) {
        if intermediates.count > 0 {
            dispatchWithIntermediate(parameters, intermediates, final)
            return
        }
        switch intermediates.privateMarker {
        case 0: break
        case UInt8(ascii: "?"):
            dispatchPrivate(parameters, final)
            return
        case UInt8(ascii: ">"):
            switch final {
            case UInt8(ascii: "c"): if parameters[0] == 0 { respond("\u{1B}[>1;10;0c") }  // DA2
            case UInt8(ascii: "u"): screen.pushKeyboardFlags(KittyKeyboardFlags(rawValue: parameters[0]))
            case UInt8(ascii: "m"), UInt8(ascii: "n"), UInt8(ascii: "q"), UInt8(ascii: "t"): break
            default: unhandledSequenceCount += 1
            }
            return
        case UInt8(ascii: "<") where final == UInt8(ascii: "u"):
            screen.popKeyboardFlags(parameters.value(at: 0, default: 1))
            return
        case UInt8(ascii: "=") where final == UInt8(ascii: "u"):
            let flags = KittyKeyboardFlags(rawValue: parameters[0])
            if !screen.setKeyboardFlags(flags, mode: parameters.value(at: 1, default: 1)) { unhandledSequenceCount += 1 }
            return
        default:
            if final != UInt8(ascii: "c") { unhandledSequenceCount += 1 }
            return
        }

        let p = parameters
        switch final {
        case UInt8(ascii: "@"): screen.insertBlankCharacters(p.value(at: 0, default: 1))
        case UInt8(ascii: "A"): screen.moveCursorUp(p.value(at: 0, default: 1))
        case UInt8(ascii: "B"), UInt8(ascii: "e"): screen.moveCursorDown(p.value(at: 0, default: 1))
        case UInt8(ascii: "C"), UInt8(ascii: "a"): screen.moveCursorForward(p.value(at: 0, default: 1))
        case UInt8(ascii: "D"): screen.moveCursorBackward(p.value(at: 0, default: 1))
        case UInt8(ascii: "E"):
            screen.moveCursorDown(p.value(at: 0, default: 1))
            screen.carriageReturn()
        case UInt8(ascii: "F"):
            screen.moveCursorUp(p.value(at: 0, default: 1))
            screen.carriageReturn()
        case UInt8(ascii: "G"), UInt8(ascii: "`"): screen.moveCursor(toCol: p.value(at: 0, default: 1) - 1)
        case UInt8(ascii: "H"), UInt8(ascii: "f"):
            screen.moveCursor(toRow: p.value(at: 0, default: 1) - 1, col: p.value(at: 1, default: 1) - 1)
        case UInt8(ascii: "I"): screen.tabForward(p.value(at: 0, default: 1))
        case UInt8(ascii: "J"):
            switch p[0] {
            case 0: screen.erase(inDisplay: .toEnd)
            case 1: screen.erase(inDisplay: .toStart)
            case 2: screen.erase(inDisplay: .all)
            case 3: screen.scrollback.removeAll()  // xterm's "erase saved lines"
            default: unhandledSequenceCount += 1
            }
        case UInt8(ascii: "K"):
            switch p[0] {
            case 0: screen.erase(inLine: .toEnd)
            case 1: screen.erase(inLine: .toStart)
            case 2: screen.erase(inLine: .all)
            default: unhandledSequenceCount += 1
            }
        case UInt8(ascii: "L"): screen.insertLines(p.value(at: 0, default: 1))
        case UInt8(ascii: "M"): screen.deleteLines(p.value(at: 0, default: 1))
        case UInt8(ascii: "P"): screen.deleteCharacters(p.value(at: 0, default: 1))
        case UInt8(ascii: "S"): screen.scrollUp(p.value(at: 0, default: 1))
        case UInt8(ascii: "T"):
            if p.count <= 1 { screen.scrollDown(p.value(at: 0, default: 1)) } else { unhandledSequenceCount += 1 }
        case UInt8(ascii: "X"): screen.eraseCharacters(p.value(at: 0, default: 1))
        case UInt8(ascii: "Z"): screen.tabBackward(p.value(at: 0, default: 1))
        case UInt8(ascii: "b"): repeatLastCharacter(p.value(at: 0, default: 1))
        case UInt8(ascii: "c"): if p[0] == 0 { respond("\u{1B}[?62;22c") }  // DA1: VT220, ANSI color
        case UInt8(ascii: "d"): screen.moveCursor(toRow: p.value(at: 0, default: 1) - 1)
        case UInt8(ascii: "g"):
            switch p[0] {
            case 0: screen.clearTabStop(all: false)
            case 3: screen.clearTabStop(all: true)
            default: break
            }
        case UInt8(ascii: "h"), UInt8(ascii: "l"):
            let on = final == UInt8(ascii: "h")
            for index in 0..<p.count {
                switch p[index] {
                case 4: screen.insertMode = on
                case 20: screen.newLineMode = on
                case 2, 12: break // keyboard lock, local echo
                default: unhandledSequenceCount += 1
                }
            }
        case UInt8(ascii: "m"): selectGraphicRendition(p)
        case UInt8(ascii: "n"):
            switch p[0] {
            case 5: respond("\u{1B}[0n")
            case 6: respond("\u{1B}[\(reportedRow);\(screen.cursorCol + 1)R")
            default: unhandledSequenceCount += 1
            }
        case UInt8(ascii: "r"):
            screen.setScrollRegion(top: p.value(at: 0, default: 1) - 1, bottom: p.value(at: 1, default: screen.rows) - 1)
        case UInt8(ascii: "s"): screen.saveCursor()
        case UInt8(ascii: "u"): screen.restoreCursor()
        case UInt8(ascii: "t"): reportWindow(p[0])
        default: unhandledSequenceCount += 1
        }
    }

    /// Window manipulation (XTWINOPS): the size reports are answered with the fixed cell size
    /// (``CellPixelSize/standard``), the rest does nothing.
    private mutating func reportWindow(_ operation: Int) {
        let cell = CellPixelSize.standard
        switch operation {
        case 14: respond("\u{1B}[4;\(screen.rows * cell.height);\(screen.cols * cell.width)t")  // text area in pixels
        case 16: respond("\u{1B}[6;\(cell.height);\(cell.width)t")  // one cell in pixels
        case 18: respond("\u{1B}[8;\(screen.rows);\(screen.cols)t")  // text area in cells
        default: break
        }
    }

    /// The cursor row as DSR 6 reports it (1-based, relative to the region in origin mode).
    var reportedRow: Int {
        screen.cursorRow - (screen.modes.originMode ? screen.scrollTop : 0) + 1
    }

    private mutating func dispatchWithIntermediate(_ p: CSIParameters, _ intermediates: Intermediates, _ final: UInt8) {
        switch (intermediates.privateMarker, intermediates.first, final) {
        case (0, UInt8(ascii: "!"), UInt8(ascii: "p")): screen.softReset()         // DECSTR
        case (0, UInt8(ascii: " "), UInt8(ascii: "q")): break                      // DECSCUSR cursor shape
        case (0, UInt8(ascii: "\""), UInt8(ascii: "p")): break                     // DECSCL
        case (0, UInt8(ascii: "\""), UInt8(ascii: "q")): break                     // DECSCA
        case (0, UInt8(ascii: "$"), UInt8(ascii: "p")): requestMode(p, private: false)  // DECRQM, ANSI mode
        case (UInt8(ascii: "?"), UInt8(ascii: "$"), UInt8(ascii: "p")): requestMode(p, private: true)  // DECRQM
        default: unhandledSequenceCount += 1
        }
    }

    // MARK: - DEC private modes

    private mutating func dispatchPrivate(_ p: CSIParameters, _ final: UInt8) {
        switch final {
        case UInt8(ascii: "h"), UInt8(ascii: "l"):
            let on = final == UInt8(ascii: "h")
            for index in 0..<p.count { setPrivateMode(p[index], on) }
        case UInt8(ascii: "n"):
            if p[0] == 6 { respond("\u{1B}[?\(reportedRow);\(screen.cursorCol + 1)R") } else { unhandledSequenceCount += 1 }
        case UInt8(ascii: "u"): respond("\u{1B}[?\(screen.modes.kittyKeyboard.rawValue)u")  // kitty keyboard query
        case UInt8(ascii: "s"), UInt8(ascii: "r"), UInt8(ascii: "c"): break // save/restore modes
        case UInt8(ascii: "J"), UInt8(ascii: "K"):
            // DECSED/DECSEL: selective erase, treated as a plain erase.
            var plain = Intermediates()
            plain.privateMarker = 0
            csiDispatch(p, intermediates: plain, final: final)
        default: unhandledSequenceCount += 1
        }
    }

    private mutating func setPrivateMode(_ mode: Int, _ on: Bool) {
        switch mode {
        case 1: screen.modes.applicationCursorKeys = on
        case 6:
            screen.modes.originMode = on
            screen.moveCursor(toRow: 0, col: 0)
        case 7: screen.modes.autowrap = on
        case 25: screen.modes.cursorVisible = on
        case 47:
            if on { screen.enterAlternateScreen(clear: false, saveCursor: false) }
            else { screen.leaveAlternateScreen(clear: false, restoreCursor: false) }
        case 1047:
            if on { screen.enterAlternateScreen(clear: false, saveCursor: false) }
            else { screen.leaveAlternateScreen(clear: true, restoreCursor: false) }
        case 1048:
            if on { screen.saveCursor() } else { screen.restoreCursor() }
        case 1049:
            if on { screen.enterAlternateScreen(clear: true, saveCursor: true) }
            else { screen.leaveAlternateScreen(clear: false, restoreCursor: true) }
        case 66: screen.modes.applicationKeypad = on
        case 2004: screen.modes.bracketedPaste = on
        case 9: setMouseTracking(.x10, on)
        case 1000: setMouseTracking(.normal, on)
        case 1002: setMouseTracking(.buttonEvent, on)
        case 1003: setMouseTracking(.anyEvent, on)
        case 1005: setMouseEncoding(.utf8, on)
        case 1006: setMouseEncoding(.sgr, on)
        case 1015: setMouseEncoding(.urxvt, on)
        case 2026: setSynchronizedOutput(on)
        case 1016: setMouseEncoding(.sgrPixels, on)
        case 1004: screen.modes.focusReporting = on
        case 3, 4, 5, 8, 12, 40, 45, 67, 69, 95, 1001, 1007,
             1034, 1035, 1036, 1037, 1039, 1042, 1043, 1070, 2027, 2031, 7727:
            break // columns, smooth scroll, reverse video, blink, mouse, focus, meta key, sync output...
        default: unhandledSequenceCount += 1
        }
    }

    /// Mode 2026: setting it keeps the screen as it is now as the frame shown until it is
    /// reset (setting it again while set keeps the first frame); resetting shows the update.
    private mutating func setSynchronizedOutput(_ on: Bool) {
        if on {
            guard heldFrame == nil else { return }
            heldFrame = screen.snapshot()
            heldFrameCount += 1
        } else {
            heldFrame = nil
        }
    }

    /// xterm: setting a tracking mode replaces the current one; resetting any of them turns
    /// reporting off (whichever mode was on).
    private mutating func setMouseTracking(_ tracking: MouseTracking, _ on: Bool) {
        screen.modes.mouseTracking = on ? tracking : .off
    }

    /// xterm: the encodings exclude each other; a reset only undoes the active one.
    private mutating func setMouseEncoding(_ encoding: MouseEncoding, _ on: Bool) {
        if on {
            screen.modes.mouseEncoding = encoding
        } else if screen.modes.mouseEncoding == encoding {
            screen.modes.mouseEncoding = .legacy
        }
    }
}
