import TerminalEmulator

/// The documented, deliberate divergences from libvterm (docs/terminal-emulator.md,
/// "Differential fuzzing against libvterm"). Each rule acts on exactly one kind of sequence and
/// is counted when it does:
///
/// - `stop` rules end the comparison before the sequence (a state one side does not model);
/// - `rewrite` rules give libvterm a sequence meaning what ours means (a reading that differs
///   by design);
/// - `resync` rules align one piece of libvterm's state with ours after the sequence (a side
///   effect that differs by design), so that what follows is still compared.
struct Divergences {
    /// The screen's height (DECSTBM's bounds).
    let rows: Int

    enum Action {
        case compare
        case stop(String)
        case rewrite(String, [UInt8], then: Resync? = nil)
        case resync(String, Resync)
        /// A mark to join: compared only while ours' cursor is not on the last column.
        case joinUnlessAtRightEdge
        /// REP of `count`: compared only while the repeats fit on the cursor's line.
        case repeatUnlessWrapping(Int)
        /// Stops (a divergence) when the condition holds, compares otherwise.
        indirect case stopIf(String, CursorCondition, otherwise: Action)
    }

    /// A condition on the two cursors, checked by the comparison before the piece is fed.
    enum CursorCondition {
        /// Ours is outside the rows `top...bottom`.
        case oursOutsideRows(Int, Int)
        /// Ours is on the last column.
        case oursOnLastColumn
        /// libvterm's is on the last column.
        case libvtermOnLastColumn
        /// Ours is on the last column, libvterm's on the one before, on the same row: after a
        /// wide character printed in the last two columns.
        case splitByWideCharacterAtEdge
    }

    enum Resync {
        /// IL/DL: xterm (and the VT510) move the cursor to the left margin, libvterm leaves it.
        case carriageReturnIfOursAtColumn0
        /// A cursor restore: libvterm restores the cursor's visibility too, xterm does not.
        case cursorVisibility
        /// DECALN: xterm (and we) home the cursor, libvterm leaves it.
        case home
        /// CUU and CPL inside the region: xterm and we stop at its top margin, libvterm 0.1.4
        /// (outside origin mode) goes on to the screen's top; libvterm's row is set to ours then.
        case stoppedAtTopMargin(Int)
        /// CUD, CNL and VPR: the same at the bottom margin.
        case stoppedAtBottomMargin(Int)
        /// LF, VT, FF: xterm and we cancel a pending wrap, libvterm keeps it; libvterm's is
        /// cancelled (a CHA to its column, when on the last one).
        case cancelPendingWrap
    }

    /// What the rules track along a stream.
    struct State {
        var insertMode = false
        /// A character was printed since the start or the last RIS.
        var printed = false
        /// SO or a charset designation was seen: libvterm's DECSC does not save them.
        var shiftedOut = false
        /// The alternate screen is shown (1049 set).
        var alternate = false
        /// The last character printed is a wide one.
        var lastWide = false
        /// Nothing but characters, marks and SGR since the last character printed: the cursor
        /// is still just after it (where libvterm 0.1.4 joins a mark).
        var afterCharacter = false
        /// Autowrap (DEC mode 7) is on.
        var autowrap = true
        /// Origin mode (DEC mode 6) is on, and was when the cursor was last saved.
        var originMode = false
        var savedOriginMode = false
        /// DECSTR reset the saved cursor to home (xterm and we), and nothing saved it since.
        var savedCursorResetByDECSTR = false
        /// The piece is a cursor restore (set by the rules, read by `action`).
        var restoring = false
        /// The scroll region's rows (0-based, inclusive).
        var regionTop = 0
        var regionBottom = Int.max

        /// The piece saved the cursor (read and cleared by the comparison).
        var savedNow = false

        /// The cursor was saved (DECSC, SCOSC, modes 1048 and 1049 set).
        mutating func saved() {
            savedNow = true
            savedOriginMode = originMode
            savedCursorResetByDECSTR = false
        }
    }

    /// What to do with `token` (a piece as `Minimizer.pieces` cuts the stream).
    func action(_ token: ArraySlice<UInt8>, atEnd: Bool, state: inout State) -> Action {
        let autowrap = state.autowrap
        state.restoring = false
        let action = baseAction(token, atEnd: atEnd, state: &state)
        if state.restoring {
            // xterm's DECSC saves the wrap flag (a wrap pending on the last column) and DECRC
            // restores it, as ours; libvterm 0.1.4 keeps the one it had: not compared when its
            // cursor is on the last column, or ours was when the cursor was saved.
            return .stopIf("decrc-wrap-flag", .libvtermOnLastColumn, otherwise: action)
        }
        if !autowrap, Self.printedWidth(token) == 2 {
            // Autowrap off: a wide character that does not fit is moved to the next line by
            // libvterm 0.1.4; xterm (for the last character of a run) and we draw it in the last
            // two columns.
            return .stopIf("wide-at-edge-without-autowrap", .oursOnLastColumn, otherwise: action)
        }
        return action
    }

    private func baseAction(_ token: ArraySlice<UInt8>, atEnd: Bool, state: inout State) -> Action {
        let afterCharacter = state.afterCharacter
        state.afterCharacter = Self.staysAfterCharacter(token, afterCharacter)
        if let first = token.first, first >= 0x20 && first != 0x7F {
            if first < 0x7F {
                state.printed = true
                state.lastWide = false
            } else if let scalar = String(decoding: token, as: UTF8.self).unicodeScalars.first {
                // After a mark (joined or not) libvterm may have no character to repeat, and hangs.
                state.printed = !Self.oursJoins(scalar)
                if state.printed { state.lastWide = Self.isWide(scalar.value) }
            }
        }
        if let first = token.first, first >= 0x80 {
            // libvterm inserts one cell for a wide character in insert mode; xterm and we two.
            if state.insertMode, let scalar = String(decoding: token, as: UTF8.self).unicodeScalars.first, Self.isWide(scalar.value) {
                return .stop("insert-mode-wide")
            }
            if let scalar = String(decoding: token, as: UTF8.self).unicodeScalars.first, token.count == scalar.utf8.count,
               scalar.value >= 0xA0, Self.oursIgnores(scalar) {
                // A zero-width character we ignore, as xterm ignores formatting characters
                // (U+200B, U+06DD...): libvterm 0.1.4 joins some to the character before. libvterm
                // does not get it.
                return .rewrite("zero-width-ignored", [])
            }
            if let scalar = String(decoding: token, as: UTF8.self).unicodeScalars.first, token.count == scalar.utf8.count,
               (0x80...0x9F).contains(scalar.value) {
                // A C1 control written as UTF-8 (U+0080...U+009F): we ignore it; libvterm 0.1.4
                // prints it as a character and can move its cursor before column 0. (xterm
                // executes some of them on the ground state: NEL, CSI...; not modelled.)
                return .stop("c1-as-utf8")
            }
            if let scalar = String(decoding: token, as: UTF8.self).unicodeScalars.first, token.count == scalar.utf8.count,
               scalar.properties.generalCategory == .unassigned {
                // An unassigned code point: libvterm 0.1.4 (Markus Kuhn's wcwidth) draws those in
                // U+2E80...U+A4CF wide; we follow the Unicode data (wide only where listed).
                return .stop("unassigned-code-point")
            }
            if let scalar = String(decoding: token, as: UTF8.self).unicodeScalars.first, scalar.value >= 0x80, Self.oursJoins(scalar),
               token.count == scalar.utf8.count {
                // After a move, a line feed, a scroll, at the start: we join the mark to the cell
                // before the cursor (as tmux); libvterm 0.1.4 drops it, or draws the last
                // character printed again with it, where that one was.
                return afterCharacter ? .joinUnlessAtRightEdge : .stop("combining-after-move")
            }
            return invalidUTF8(token, atEnd: atEnd)
        }
        if token.elementsEqual("\u{1B}c".utf8) || token.elementsEqual("\u{1B}[!p".utf8) { state.insertMode = false }
        if token.elementsEqual("\u{1B}c".utf8) {
            defer {
                state.printed = false
                state.alternate = false
                state.autowrap = true
                state.originMode = false
                state.savedOriginMode = false
                state.savedCursorResetByDECSTR = false
                state.regionTop = 0
                state.regionBottom = Int.max
            }
            // RIS on the alternate screen: xterm and we are back on the main screen, libvterm
            // 0.1.4 stays on the alternate one; it leaves it first.
            // xterm and we save the cursor at home on RIS; libvterm 0.1.4 keeps what was saved.
            if state.alternate { return .rewrite("ris-leaves-alternate", Array("\u{1B}[?1049l\u{1B}c\u{1B}7".utf8)) }
            return .rewrite("ris-saves-home", Array("\u{1B}c\u{1B}7".utf8))
        }
        if (token.count == 1 && [0x0A, 0x0B, 0x0C].contains(token.first!))
            || token.elementsEqual("\u{1B}D".utf8) || token.elementsEqual("\u{1B}M".utf8) {
            // LF, VT, FF, IND, RI after a character in the last column: xterm and we cancel the wrap
            // that was pending, libvterm 0.1.4 keeps it (the next character wraps).
            return .resync("line-feed-cancels-wrap", .cancelPendingWrap)
        }
        if token.contains(0x0E) { state.shiftedOut = true }  // SO, also inside an ESC sequence
        guard token.count >= 2, token.first == 0x1B else { return .compare }
        if token.dropFirst().first.map({ $0 < 0x20 }) ?? false {
            // Controls between ESC and the rest (`\e\b[...`): only the crash is looked for.
            let separators = token.filter { $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ":") }.count
            if separators >= 16 { return .stop("libvterm-csi-17-arguments") }
            if token.contains(where: { $0 >= 0x80 }) {
                let introducer = token.dropFirst().first(where: { $0 >= 0x20 })
                return .stop(introducer == UInt8(ascii: "[") ? "csi-with-non-ascii" : "esc-with-non-ascii")
            }
            // The rules apply to the sequence without its controls (they are executed and the
            // sequence goes on); one that would rewrite it cannot: the comparison stops.
            let stripped = token.filter { $0 >= 0x20 || $0 == 0x1B }
            if let introducer = token.firstIndex(where: { $0 == UInt8(ascii: "P") || $0 == UInt8(ascii: "]") }),
               stripped.dropFirst().first == token[introducer],
               token[(introducer + 1)...].contains(where: { $0 < 0x20 && $0 != 0x07 && $0 != 0x1B }) {
                return .stop("string-with-controls")
            }
            switch baseAction(stripped[...], atEnd: atEnd, state: &state) {
            case .compare: return .compare
            case .stop(let rule): return .stop(rule)
            default: return .stop(stripped.dropFirst().first == UInt8(ascii: "[") ? "csi-with-controls" : "esc-with-controls")
            }
        }
        if token.contains(where: { $0 >= 0x80 }) {
            // A byte of 0x80 or more inside an ESC sequence (`\e(\xCB`, `\e\x94`): ignored by
            // the VT500 parser and us (the sequence goes on); libvterm ends the sequence.
            return .stop("esc-with-non-ascii")
        }
        let second = token[token.startIndex + 1]
        if (0x20...0x2F).contains(second) && token.contains(where: { $0 < 0x20 && $0 != 0x1B }) {
            // A control inside an ESC sequence with an intermediate (`\e#\a8`): executed and
            // the sequence goes on for xterm and us; libvterm 0.1.4 does not finish it the same way.
            return .stop("esc-with-controls")
        }
        if (0x20...0x2F).contains(second), let final = token.last, token.count >= 3,
           [UInt8(ascii: "P"), UInt8(ascii: "]"), UInt8(ascii: "X"), UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "[")].contains(final) {
            // `ESC SP P`: an ESC sequence with an intermediate, ignored by the VT500 parser and
            // us; libvterm 0.1.4 starts a DCS (or OSC, CSI...) at the final byte.
            return .stop("esc-intermediate-then-introducer")
        }
        switch second {
        case UInt8(ascii: "_"), UInt8(ascii: "^"), UInt8(ascii: "X"): return .stop("apc-pm-sos-strings")
        case UInt8(ascii: "n"), UInt8(ascii: "o"), UInt8(ascii: "N"), UInt8(ascii: "O"), UInt8(ascii: "|"), UInt8(ascii: "}"), UInt8(ascii: "~"):
            return .stop("g2-g3-shifts")  // LS2, LS3, SS2, SS3, LS1R-LS3R: we model G0 and G1 only
        case UInt8(ascii: "#") where token.count == 3 && [UInt8(ascii: "3"), UInt8(ascii: "4"), UInt8(ascii: "6")].contains(token.last!):
            return .stop("double-width-lines")
        case UInt8(ascii: "("), UInt8(ascii: ")"):
            state.shiftedOut = true
            // A charset we do not know is ASCII for us; libvterm keeps the one designated before.
            if token.count == 3, let final = token.last, ![UInt8(ascii: "0"), UInt8(ascii: "A"), UInt8(ascii: "B")].contains(final),
               (0x30...0x7E).contains(final) {
                return .rewrite("unknown-charset", [0x1B, second, UInt8(ascii: "B")])
            }
        case UInt8(ascii: "#") where token.count == 3 && token.last == UInt8(ascii: "8"):
            return .stop("decaln")  // libvterm fills with the pen and leaves the cursor; xterm and we: plain, home
        default: break
        }
        if second == UInt8(ascii: "7") && token.count == 2 { state.saved() }
        if second == UInt8(ascii: "8") && token.count == 2 {
            if let stop = restoreStop(&state) { return stop }
            return .resync("decrc-cursor-visibility", .cursorVisibility)
        }
        if second == UInt8(ascii: "P") && token.last == 0x07 {
            // BEL inside a DCS: libvterm 0.1.4 ends the string there; xterm rings the bell and
            // the string goes on, as for us (ST ends it).
            return .stop("dcs-bel")
        }
        if second == UInt8(ascii: "P") || second == UInt8(ascii: "]"),
           token.dropFirst(2).contains(where: { $0 < 0x20 && $0 != 0x07 && $0 != 0x1B }) {
            return .stop("string-with-controls")  // libvterm executes them; the VT500 parser (and we) do not
        }
        guard second == UInt8(ascii: "[") else { return .compare }
        let body = token.dropFirst(2)
        // Counted whether or not the sequence ends in this stream: the crash comes first.
        let separators = body.filter { $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ":") }.count
        if separators >= 16 { return .stop("libvterm-csi-17-arguments") }
        if body.contains(where: { $0 >= 0x80 }) { return .stop("csi-with-non-ascii") }
        if body.split(whereSeparator: { !(0x30...0x39).contains($0) }).contains(where: { $0.drop { $0 == 0x30 }.count >= 10 }) {
            // A parameter of 10 digits or more: libvterm 0.1.4 keeps it in an int, which
            // overflows (`\e[2147483647H` goes home); xterm and we saturate at 65535.
            return .stop("libvterm-parameter-overflow")
        }
        if body.dropFirst().contains(where: { (0x3C...0x3F).contains($0) }) {
            // A private marker (`<=>?`) after the first byte (`\e[;?4h`): the VT500 parser, xterm
            // and we ignore the sequence; libvterm 0.1.4 ends it there and prints the rest.
            return .stop("csi-private-marker-late")
        }
        if let intermediate = body.firstIndex(where: { (0x20...0x2F).contains($0) }),
           body[intermediate...].contains(where: { (0x30...0x3F).contains($0) }) {
            return .stop("csi-parameter-after-intermediate")  // VT500: the sequence is ignored; libvterm prints the rest
        }
        guard let final = body.last, (0x40...0x7E).contains(final) else {
            // Cut by an ESC: the VT500 parser and we drop it; libvterm 0.1.4 keeps its parameters
            // for the next sequence (`\e[;5\e[48m` is `48;5` to it). libvterm does not get it.
            if atEnd { return .compare }
            if body.contains(where: { $0 < 0x20 }) { return .stop("csi-with-controls") }
            return .rewrite("csi-cut-by-esc", [])
        }
        let inner = body.dropLast()
        if final != UInt8(ascii: "m") && inner.contains(UInt8(ascii: ":")) {
            // Sub-parameters in a control other than SGR (`\e[4:3r`): xterm ignores the whole
            // sequence; libvterm 0.1.4 reads the values before each `:`, and so do we for most.
            return .stop("csi-subparameters")
        }
        if inner.contains(where: { $0 < 0x20 }) {
            return .stop("csi-with-controls")  // executed inside the sequence: the rules above cannot rewrite it
        }
        if final == UInt8(ascii: "p"), inner.last == UInt8(ascii: "!"), inner.dropLast().allSatisfy({ (0x30...0x3B).contains($0) }) {
            // DECSTR (with or without parameters, as xterm reads it): xterm and we reset the pen,
            // the charsets (G0 and G1 ASCII, G0 in use) and show the cursor; libvterm 0.1.4
            // keeps them. xterm and we also save the cursor at home: a later restore stops.
            state.insertMode = false
            state.autowrap = true
            state.originMode = false
            state.savedOriginMode = false
            state.savedCursorResetByDECSTR = true
            state.regionTop = 0
            state.regionBottom = Int.max
            // Its scroll region and origin mode too, which libvterm keeps (its cursor saved and
            // restored around them, as xterm's DECSTR does not move the cursor).
            return .rewrite("decstr", Array(token) + Array("\u{1B}7\u{1B}[r\u{1B}[?6l\u{1B}8\u{1B}[m\u{1B}(B\u{1B})B\u{0F}\u{1B}[?25h\u{1B}[4l\u{1B}[?7h".utf8))
        }
        let isPlain = inner.allSatisfy { (0x30...0x3B).contains($0) }  // digits, ':' and ';' only
        let isPrivate = inner.first == UInt8(ascii: "?") && inner.dropFirst().allSatisfy { (0x30...0x3B).contains($0) }
        let parameters = String(decoding: inner.drop { $0 == UInt8(ascii: "?") }, as: UTF8.self)
            .split(separator: ";", omittingEmptySubsequences: false)
        let modes = parameters.map { Self.mainValue($0) }  // modes by value: `047` is 47, `48:` is 48
        switch final {
        case UInt8(ascii: "h"), UInt8(ascii: "l"):
            guard isPrivate || isPlain else { return .compare }
            let restores = final == UInt8(ascii: "l") && (modes.contains(1048) || modes.contains(1049))
            if restores, let stop = restoreStop(&state) { return stop }
            if isPrivate && modes.contains(1049) { state.alternate = final == UInt8(ascii: "h") }
            if isPrivate && final == UInt8(ascii: "h") && (modes.contains(1048) || modes.contains(1049)) { state.saved() }
            if isPrivate && modes.contains(7) { state.autowrap = final == UInt8(ascii: "h") }
            if isPrivate && final == UInt8(ascii: "l") && modes.contains(7) && parameters.count == 1 {
                // Autowrap reset while a wrap is pending: xterm and we then print on the last
                // column, libvterm 0.1.4 still wraps; libvterm's pending wrap is cancelled.
                return .resync("autowrap-off-cancels-wrap", .cancelPendingWrap)
            }
            if isPrivate && modes.contains(6) { state.originMode = final == UInt8(ascii: "h") }
            if isPrivate && modes.contains(47) { return .stop("mode-47") }
            if isPrivate && final == UInt8(ascii: "h") && modes.contains(1047) { return .stop("mode-1047-entry") }
            if isPrivate && final == UInt8(ascii: "h") && modes.contains(5) { return .stop("reverse-video-screen") }
            if !isPrivate && modes.contains(4) { state.insertMode = final == UInt8(ascii: "h") }
            if parameters.count > 1 || parameters.contains("") {
                // libvterm 0.1.4 applies only the first mode of a list; xterm and we each of them
                // (an empty one is no mode): libvterm gets one sequence per mode.
                let marker = isPrivate ? "?" : ""
                var split = parameters.filter { !$0.isEmpty }.map { "\u{1B}[\(marker)\($0)" + String(UnicodeScalar(final)) }.joined()
                // No mode at all: still a sequence (it ends an ESC left open before it), mode 0,
                // which neither has.
                if split.isEmpty { split = "\u{1B}[\(marker)0" + String(UnicodeScalar(final)) }
                return .rewrite("mode-lists", Array(split.utf8), then: restores ? .cursorVisibility : nil)
            }
            if restores { return .resync("decrc-cursor-visibility", .cursorVisibility) }
        case UInt8(ascii: "s") where isPlain:
            // SCOSC and SCORC: libvterm 0.1.4 has neither; they mean DECSC and DECRC.
            state.saved()
            return .rewrite("csi-s-u", Array("\u{1B}7".utf8))
        case UInt8(ascii: "u") where isPlain:
            if let stop = restoreStop(&state) { return stop }
            return .rewrite("csi-s-u", Array("\u{1B}8".utf8), then: .cursorVisibility)
        case UInt8(ascii: "L"), UInt8(ascii: "M"):
            if isPlain { return .resync("il-dl-cursor-column", .carriageReturnIfOursAtColumn0) }
        case UInt8(ascii: "r") where isPlain:
            // xterm ignores a region whose bottom is not below its top; libvterm clamps it.
            let top = modes.first.flatMap { $0 } ?? 0, bottom = parameters.count > 1 ? modes[1] ?? 0 : 0
            let bottomRow = bottom == 0 || bottom > rows ? rows : bottom
            if max(top, 1) >= bottomRow { return .stop("decstbm-empty-region") }
            state.regionTop = max(top, 1) - 1
            state.regionBottom = bottomRow - 1
            if parameters.count > 1 && bottom == 0 && !parameters[1].isEmpty {
                // An explicit 0 bottom is the last row for xterm and us; libvterm takes it literally.
                return .rewrite("decstbm-zero-bottom", Array("\u{1B}[\(parameters[0]);\(rows)r".utf8))
            }
        case UInt8(ascii: "b") where !state.printed:
            return .stop("libvterm-rep-hang")  // libvterm 0.1.4 loops for ever on REP with nothing printed
        case UInt8(ascii: "b") where state.lastWide:
            return .stop("libvterm-rep-wide")  // libvterm 0.1.4 can abort (a null write) repeating a wide character
        case UInt8(ascii: "b") where state.insertMode:
            return .stop("rep-in-insert-mode")  // libvterm overwrites; xterm and we insert, as for any character
        case UInt8(ascii: "b") where isPlain:
            // The count is the parameter's value before any sub-parameter (`86:` is 86 for both).
            let count = (parameters.first ?? "").split(separator: ":", omittingEmptySubsequences: false).first.flatMap { Int($0) } ?? 1
            return .repeatUnlessWrapping(max(1, count))
        case UInt8(ascii: "@"), UInt8(ascii: "P"):
            // ICH and DCH on a row outside the scroll region: libvterm 0.1.4 ignores them;
            // xterm and we act (only left and right margins limit them, which neither has set).
            // Both cancel a pending wrap for xterm and us, not for libvterm.
            if isPlain { return .stopIf("ich-dch-outside-region", .oursOutsideRows(state.regionTop, state.regionBottom),
                                     otherwise: .resync("ich-dch-cancel-wrap", .cancelPendingWrap)) }
        case UInt8(ascii: "K"), UInt8(ascii: "J"), UInt8(ascii: "X"):
            // EL and ED 0-2 (and DECSEL, DECSED), ECH cancel a pending wrap for xterm and us,
            // not for libvterm 0.1.4 (EL 7, ED 3 do nothing to the cursor).
            let erases = final == UInt8(ascii: "X") || (0...2).contains(modes.first.flatMap { $0 } ?? 0)
            if (isPlain || (isPrivate && final != UInt8(ascii: "X"))) && erases { return .resync("erase-cancels-wrap", .cancelPendingWrap) }
        case UInt8(ascii: "A"), UInt8(ascii: "F"):
            if isPlain && !state.originMode { return .resync("cursor-stops-at-margins", .stoppedAtTopMargin(state.regionTop)) }
        case UInt8(ascii: "B"), UInt8(ascii: "E"), UInt8(ascii: "e"):
            if isPlain && !state.originMode && state.regionBottom < rows - 1 {
                return .resync("cursor-stops-at-margins", .stoppedAtBottomMargin(state.regionBottom))
            }
        case UInt8(ascii: "g") where isPlain:
            // TBC with another parameter than 0 and 3 (ECMA-48's 2 and 5 clear more stops):
            // xterm and we ignore it, libvterm 0.1.4 clears every stop.
            if !modes.allSatisfy({ $0 == nil || $0 == 0 || $0 == 3 }) || parameters.count > 1 { return .stop("tbc-other-parameters") }
        case UInt8(ascii: "j"), UInt8(ascii: "k"):
            return .stop("hpb-vpb")  // ECMA-48's HPB and VPB: libvterm moves the cursor; xterm and we do not know them
        case UInt8(ascii: "T"):
            if isPlain && parameters.count > 1 { return .stop("sd-with-parameters") }
        case UInt8(ascii: "m"):
            guard isPlain else { return .compare }
            // Codes by value (`06` is 6, `038` is 38).
            let parameters = parameters.map { $0.isEmpty || $0.contains(":") ? $0 : Substring(String(Int($0) ?? 0)) }
            for (index, parameter) in parameters.enumerated() where ["38", "48", "58"].contains(parameter) && index + 1 < parameters.count {
                let kind = parameters[index + 1]
                let values = parameters.dropFirst(index + 1).prefix(kind == "5" ? 2 : kind.hasPrefix("2") ? 4 : 1)
                if values.contains(where: { $0.contains(":") }) {
                    // A colour in the `;` form whose values carry sub-parameters (`38;5;548:`,
                    // `48;2;;5:`): malformed; xterm reads values by parameter, we by value,
                    // libvterm its own way.
                    return .stop("sgr-colour-mixed-separators")
                }
            }
            if let rewritten = rewriteSGR(parameters) {
                // Nothing left: mode 0 (which neither has) rather than nothing, to end an ESC left open.
                return .rewrite("sgr-reading", Array((rewritten.isEmpty ? "\u{1B}[?0h" : "\u{1B}[\(rewritten)m").utf8))
            }
        default: break
        }
        return .compare
    }

    /// A cursor restore libvterm cannot do as xterm and we do: after SO (its DECSC does not save
    /// the shift state), or on the alternate screen (xterm and we keep a saved cursor per screen,
    /// libvterm one for both).
    private func restoreStop(_ state: inout State) -> Action? {
        state.restoring = true
        if state.shiftedOut { return .stop("decrc-charsets") }
        // xterm's DECSC saves origin mode (the VT510's too), and DECSTR saves home; libvterm
        // 0.1.4 does neither.
        if state.originMode != state.savedOriginMode { return .stop("decrc-origin-mode") }
        if state.savedCursorResetByDECSTR { return .stop("decstr-saved-cursor") }
        // In origin mode with a region set, xterm (and we) restore the saved row as it is, even
        // above the region; libvterm 0.1.4 clamps it into the region.
        if state.originMode && (state.regionTop > 0 || state.regionBottom < rows - 1) { return .stop("decrc-origin-region") }
        if state.alternate { return .stop("saved-cursor-per-screen") }
        return nil
    }

    /// SGR as ours reads it, spelt so that libvterm reads it the same way, or nil when it already
    /// does: `6` (rapid blink) is blink for us, as ECMA-48 says (libvterm and xterm ignore it);
    /// an empty sub-parameter is 0 for us, as an empty parameter is (libvterm takes the
    /// code's default: `4:` underlines, `48:2:::` is white).
    private func rewriteSGR(_ parameters: [Substring]) -> String? {
        var changed = false
        var rewritten: [String] = []
        var index = 0
        while index < parameters.count {
            let parameter = parameters[index]
            index += 1
            if parameter.hasPrefix("38:") || parameter.hasPrefix("48:") || parameter.hasPrefix("58:") {
                // The colon form: `2:cs:r:g:b` (ITU T.416, with the colour space) loses the colour
                // space, which libvterm 0.1.4 does not expect; a colour with too few values is
                // ignored by us (and xterm), libvterm reads the next parameters: it is dropped.
                var parts = parameter.split(separator: ":", omittingEmptySubsequences: false).map { $0.isEmpty ? "0" : String($0) }
                if parts.count != parameter.split(separator: ":", omittingEmptySubsequences: true).count { changed = true }
                if parts[1] == "2" && parts.count >= 6 {
                    parts.remove(at: 2)
                    changed = true
                }
                let needed = parts[1] == "5" ? 3 : parts[1] == "2" ? 5 : Int.max
                if parts.count < needed || Self.outOfRange(parts[2..<needed]) {
                    changed = true
                    continue
                }
                rewritten.append(parts.joined(separator: ":"))
                continue
            }
            if ["38", "48", "58"].contains(parameter) {
                // Values missing (`48` last, `48;5`, `48;2;1;2`): we (and xterm) ignore the
                // colour; libvterm 0.1.4 reads the values a previous sequence left in its array.
                let count = index < parameters.count ? (parameters[index] == "5" ? 2 : parameters[index] == "2" ? 4 : 0) : -1
                if count == -1 || (count > 0 && parameters.count - index < count) {
                    changed = true
                    index = parameters.count
                    continue
                }
            }
            if ["38", "48", "58"].contains(parameter), index < parameters.count {
                // 5;n or 2;r;g;b: colour values, not codes.
                let count = parameters[index] == "5" ? 2 : parameters[index] == "2" ? 4 : 0
                if count == 0 && !parameters[index].contains(":") {
                    // Another kind (`58;1`): xterm and we take it as the kind and ignore the
                    // colour; libvterm 0.1.4 reads it as the next code (bold here).
                    changed = true
                    index += 1
                    continue
                }
                let values = parameters[index..<min(parameters.count, index + count)].dropFirst()
                if count > 0 && values.count == count - 1 && Self.outOfRange(values) {
                    // An index or a component above 255: xterm and we ignore the colour,
                    // libvterm 0.1.4 keeps the value's low byte (`38;5;2208` is 160).
                    changed = true
                    index += count
                    continue
                }
                rewritten.append(String(parameter))
                // An empty value is 0 for us, as any empty parameter; libvterm 0.1.4 reads an
                // empty component of `2;r;g;b` as 255.
                let given = parameters[index..<min(parameters.count, index + count)]
                if parameter == "58" {
                    // The underline colour: libvterm 0.1.4 does not know SGR 58 and reads its
                    // values as codes; we do not compare it. libvterm does not get it.
                    changed = true
                    index += count
                    continue
                }
                if given.dropFirst().contains(where: \.isEmpty) { changed = true }
                rewritten += given.enumerated().map { $0.offset > 0 && $0.element.isEmpty ? "0" : String($0.element) }
                index += count
                continue
            }
            if parameter == "6" || parameter.hasPrefix("6:") {
                changed = true
                rewritten.append("5")
                continue
            }
            let parts = parameter.split(separator: ":", omittingEmptySubsequences: false)
            if parts.count > 1 && parts.contains(where: \.isEmpty) {
                changed = true
                rewritten.append(parts.map { $0.isEmpty ? "0" : String($0) }.joined(separator: ":"))
            } else {
                rewritten.append(String(parameter))
            }
        }
        guard changed else { return nil }
        // Nothing left: ours did nothing; libvterm gets mode 0, which neither has (an empty SGR would reset).
        return rewritten.isEmpty ? "" : rewritten.joined(separator: ";")
    }

    /// The width of the character `token` prints (1 or 2), nil when it prints none.
    private static func printedWidth(_ token: ArraySlice<UInt8>) -> Int? {
        guard let first = token.first, first >= 0x20, first != 0x7F else { return nil }
        if first < 0x7F { return 1 }
        guard let scalar = String(decoding: token, as: UTF8.self).unicodeScalars.first else { return nil }
        if oursJoins(scalar) || (0x80..<0xA0).contains(scalar.value) { return nil }
        return isWide(scalar.value) ? 2 : 1
    }

    /// Whether the cursor is still just after the last character printed once `token` is done:
    /// a character is printed (or U+FFFD for malformed UTF-8), a mark or an SGR leaves it
    /// as it was, anything else may have moved it.
    private static func staysAfterCharacter(_ token: ArraySlice<UInt8>, _ before: Bool) -> Bool {
        guard let first = token.first else { return before }
        if first >= 0x20 && first < 0x7F { return true }
        if first >= 0x80 {
            if let scalar = String(decoding: token, as: UTF8.self).unicodeScalars.first, token.count == scalar.utf8.count {
                if oursJoins(scalar) { return before }
                if scalar.value < 0xA0 { return false }  // a C1 control
            }
            return true
        }
        let isSGR = token.count >= 3 && first == 0x1B && token[token.startIndex + 1] == UInt8(ascii: "[")
            && token.last == UInt8(ascii: "m") && token.dropFirst(2).dropLast().allSatisfy { (0x30...0x3B).contains($0) }
        return isSGR ? before : false
    }

    /// A parameter's value before any sub-parameter (`48:` is 48), nil when empty.
    private static func mainValue(_ parameter: Substring) -> Int? {
        Int(parameter.prefix { $0 != ":" })
    }

    /// Whether a colour value is above 255 (what xterm, and we, ignore the colour for).
    private static func outOfRange<C: Collection>(_ values: C) -> Bool where C.Element: StringProtocol {
        values.contains { value in
            !value.isEmpty && value.allSatisfy(\.isNumber) && (Int(value).map { $0 > 255 } ?? true)
        }
    }

    /// Malformed UTF-8: ours prints U+FFFD for each maximal invalid subpart (Unicode's
    /// recommendation, and xterm's), libvterm drops a truncated sequence; libvterm gets the
    /// U+FFFDs ours shows. Not at the end of the stream, where ours still waits for the rest.
    private func invalidUTF8(_ token: ArraySlice<UInt8>, atEnd: Bool) -> Action {
        var decoder = UTF8()
        var iterator = token.makeIterator()
        if case .scalarValue(let scalar) = decoder.decode(&iterator), scalar.utf8.count == token.count { return .compare }
        var out: [UInt8] = []
        var index = token.startIndex
        while index < token.endIndex {
            let length = Self.validPrefixLength(token[index...])
            if atEnd && length < 0 && Self.isTruncatedStart(token[index...]) {
                // A valid start cut by the end of the stream: both still wait for the rest.
                break
            }
            if length > 0, let scalar = String(decoding: token[index..<index + length], as: UTF8.self).unicodeScalars.first,
               scalar != "\u{FFFD}" || token[index] == 0xEF {
                out += token[index..<index + length]
                index += length
            } else {
                out += [0xEF, 0xBF, 0xBD]
                index += max(1, -length)
            }
        }
        return .rewrite("invalid-utf8", out)
    }

    /// Whether `bytes` is the start of a valid scalar with bytes missing at its end.
    private static func isTruncatedStart(_ bytes: ArraySlice<UInt8>) -> Bool {
        let lead = bytes[bytes.startIndex]
        let (length, secondRange): (Int, ClosedRange<UInt8>)
        switch lead {
        case 0xC2...0xDF: (length, secondRange) = (2, 0x80...0xBF)
        case 0xE0: (length, secondRange) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, secondRange) = (3, 0x80...0xBF)
        case 0xED: (length, secondRange) = (3, 0x80...0x9F)
        case 0xF0: (length, secondRange) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, secondRange) = (4, 0x80...0xBF)
        case 0xF4: (length, secondRange) = (4, 0x80...0x8F)
        default: return false
        }
        guard bytes.count < length else { return false }
        for (offset, byte) in bytes.dropFirst().enumerated() {
            guard offset == 0 ? secondRange.contains(byte) : (0x80...0xBF).contains(byte) else { return false }
        }
        return true
    }

    /// The length of the valid scalar at the start of `bytes` (positive), or minus the length
    /// of its maximal invalid subpart (at least 1 byte).
    private static func validPrefixLength(_ bytes: ArraySlice<UInt8>) -> Int {
        let lead = bytes[bytes.startIndex]
        let (length, secondRange): (Int, ClosedRange<UInt8>)
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: (length, secondRange) = (2, 0x80...0xBF)
        case 0xE0: (length, secondRange) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, secondRange) = (3, 0x80...0xBF)
        case 0xED: (length, secondRange) = (3, 0x80...0x9F)
        case 0xF0: (length, secondRange) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, secondRange) = (4, 0x80...0xBF)
        case 0xF4: (length, secondRange) = (4, 0x80...0x8F)
        default: return -1
        }
        var count = 1
        for byte in bytes.dropFirst() {
            let ok = count == 1 ? secondRange.contains(byte) : (0x80...0xBF).contains(byte)
            guard ok else { return -count }
            count += 1
            if count == length { return length }
        }
        return -count
    }

    /// The rule that explains a cell's difference, if any.
    func explains(ours: ComparedCell, libvterm: ComparedCell, row: Int, col: Int, _ a: ComparedScreen, _ b: ComparedScreen) -> String? {
        // Erased and inserted blanks: libvterm gives them the whole pen (bold, italic, underline,
        // inverse, the foreground); xterm and we only the background colour.
        if ours.isBlank && libvterm.isBlank && ours.background == libvterm.background { return "blank-cell-pen" }
        // Half of a wide character overwritten: xterm and we blank the other half, libvterm keeps
        // it (a left half it then reports as 1 cell wide, or a right half with nothing before it).
        if ours.isBlank, libvterm.width == 1, let first = libvterm.scalars.first, Self.isWide(first),
           col + 1 >= b.cols || b.cell(row, col + 1).width != 0 {
            return "wide-character-halves"
        }
        if ours.isBlank, libvterm.width == 0, col == 0 || a.cell(row, col - 1).width != 2 { return "wide-character-halves" }
        if ours.width == 1, libvterm.width == 2, ours.scalars == libvterm.scalars, col + 1 < a.cols, a.cell(row, col + 1).isBlank,
           libvterm.scalars.first.map({ !Self.isWide($0) }) ?? true {
            return "wide-character-halves"  // a narrow character on the left half: libvterm's stale right half
        }
        // A mark after the cursor moved (or the screen scrolled) on from what was printed last: we
        // join it to the cell before the cursor, blank here; libvterm drops it, or draws the last
        // printed character again with it.
        if libvterm.isBlank || (libvterm.scalars.count == ours.scalars.count && libvterm.scalars.dropFirst() == ours.scalars.dropFirst()),
           ours.width == 1, ours.scalars.first == 0x20, ours.scalars.count > 1,
           ours.scalars.dropFirst().allSatisfy({ Unicode.Scalar($0).map(Self.joins) ?? false }) {
            return "combining-after-move"
        }
        // DEC Special Graphics `y` and `z`: ≤ and ≥ (U+2264/5, as xterm draws them); libvterm
        // maps them to the slanted ⩽ and ⩾ (U+2A7D/E). `_` is a blank (U+00A0) for xterm and
        // us; libvterm leaves it `_`.
        if ours.width == libvterm.width, !ours.scalars.isEmpty, ours.scalars.count == libvterm.scalars.count,
           ours.scalars.dropFirst() == libvterm.scalars.dropFirst(),
           [(UInt32(0x2264), UInt32(0x2A7D)), (0x2265, 0x2A7E), (0xA0, 0x5F)].contains(where: { $0 == (ours.scalars[0], libvterm.scalars[0]) }) {
            var same = libvterm
            same.scalars = ours.scalars
            // (With marks joined, the attributes are `combining-takes-pen`'s.)
            if same == ours || (ours.scalars.count > 1 && same.width == ours.width) { return "dec-graphics-glyphs" }
        }
        // A mark joined to a character: libvterm gives the cell the pen's attributes at that
        // moment, xterm and we keep the character's.
        if ours.scalars.count > 1, ours.scalars == libvterm.scalars, ours.width == libvterm.width { return "combining-takes-pen" }
        // A combining mark or joiner with no character before it: we drop it, libvterm shows it alone.
        if !libvterm.scalars.isEmpty, libvterm.scalars.allSatisfy({ Unicode.Scalar($0).map(Self.joins) ?? false }),
           ours.isBlank || !ours.scalars.allSatisfy({ Unicode.Scalar($0).map(Self.joins) ?? false }) {
            return "combining-without-base"
        }
        return nil
    }

    /// Whether we draw `value` two cells wide (asked of a scratch terminal of ours, cached).
    private static func isWide(_ value: UInt32) -> Bool {
        guard let scalar = Unicode.Scalar(value) else { return false }
        return wideCache.answer(for: scalar, feeding: String(scalar)) { $0.cell(row: 0, col: 0).width == 2 }
    }

    private static let wideCache = Cache()

    /// Whether we join `scalar` to the cell before (a mark, a joiner, a Hangul jamo...): `a` then
    /// it leaves the cursor on column 1 (cached).
    private static func oursJoins(_ scalar: Unicode.Scalar) -> Bool {
        joinsCache.answer(for: scalar, feeding: "a" + String(scalar)) {
            $0.cursor.col == 1 && $0.cell(row: 0, col: 0).character.unicodeScalars.count > 1
        }
    }

    private static let joinsCache = Cache()

    /// Whether we ignore `scalar` (`a` then it leaves the cursor on column 1 and `a` alone; cached).
    private static func oursIgnores(_ scalar: Unicode.Scalar) -> Bool {
        ignoresCache.answer(for: scalar, feeding: "a" + String(scalar)) {
            $0.cursor.col == 1 && $0.cell(row: 0, col: 0).character == "a"
        }
    }

    private static let ignoresCache = Cache()

    /// Answers about single scalars, each found once by feeding a scratch terminal of ours.
    private final class Cache: @unchecked Sendable {
        var value: [UInt32: Bool] = [:]

        func answer(for scalar: Unicode.Scalar, feeding text: String, _ question: (Terminal) -> Bool) -> Bool {
            if let known = value[scalar.value] { return known }
            let scratch = Terminal(cols: 4, rows: 1, scrollbackLimit: 0, printedTextCapacity: 16)
            scratch.feed(text)
            let answer = question(scratch)
            value[scalar.value] = answer
            return answer
        }
    }

    private static func joins(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark, .format: return true
        default: return false
        }
    }

    /// The rule that explains a cursor position's difference, if any: after a wide character
    /// in the last two columns, xterm and we put the cursor on the last column (a wrap pending),
    /// libvterm keeps it on the character's first column.
    func explainsCursor(_ a: ComparedScreen, _ b: ComparedScreen) -> String? {
        if a.cursorRow == b.cursorRow, a.cursorCol == a.cols - 1, b.cursorCol == b.cols - 2,
           b.cell(b.cursorRow, b.cols - 2).width == 2 {
            return "pending-wrap-after-wide"
        }
        return nil
    }
}

