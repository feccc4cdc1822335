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
    }

    enum Resync {
        /// IL/DL: xterm (and the VT510) move the cursor to the left margin, libvterm leaves it.
        case carriageReturnIfOursAtColumn0
        /// A cursor restore: libvterm restores the cursor's visibility too, xterm does not.
        case cursorVisibility
        /// DECALN: xterm (and we) home the cursor, libvterm leaves it.
        case home
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
    }

    /// What to do with `token` (a piece as `Minimizer.pieces` cuts the stream).
    func action(_ token: ArraySlice<UInt8>, atEnd: Bool, state: inout State) -> Action {
        let afterCharacter = state.afterCharacter
        state.afterCharacter = Self.staysAfterCharacter(token, afterCharacter)
        if let first = token.first, first >= 0x20 && first != 0x7F {
            if first < 0x7F {
                state.printed = true
                state.lastWide = false
            } else if let scalar = String(decoding: token, as: UTF8.self).unicodeScalars.first {
                // After a mark (joined or not) libvterm may have no character to repeat, and hangs.
                state.printed = !Self.joins(scalar)
                if state.printed { state.lastWide = Self.isWide(scalar.value) }
            }
        }
        if let first = token.first, first >= 0x80 {
            // libvterm inserts one cell for a wide character in insert mode; xterm and we two.
            if state.insertMode, let scalar = String(decoding: token, as: UTF8.self).unicodeScalars.first, Self.isWide(scalar.value) {
                return .stop("insert-mode-wide")
            }
            if let scalar = String(decoding: token, as: UTF8.self).unicodeScalars.first, scalar.value >= 0x80, Self.joins(scalar),
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
            }
            // RIS on the alternate screen: xterm and we are back on the main screen, libvterm
            // 0.1.4 stays on the alternate one; it leaves it first.
            if state.alternate { return .rewrite("ris-leaves-alternate", Array("\u{1B}[?1049l\u{1B}c".utf8)) }
        }
        if token.first == 0x0E { state.shiftedOut = true }
        guard token.count >= 2, token.first == 0x1B else { return .compare }
        if token.dropFirst().first.map({ $0 < 0x20 }) ?? false {
            // Controls between ESC and the rest (`\e\b[...`): only the crash is looked for.
            let separators = token.filter { $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ":") }.count
            return separators >= 16 ? .stop("libvterm-csi-17-arguments") : .compare
        }
        let second = token[token.startIndex + 1]
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
        if second == UInt8(ascii: "8") && token.count == 2 {
            if let stop = restoreStop(state) { return stop }
            return .resync("decrc-cursor-visibility", .cursorVisibility)
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
        if let intermediate = body.firstIndex(where: { (0x20...0x2F).contains($0) }),
           body[intermediate...].contains(where: { (0x30...0x3F).contains($0) }) {
            return .stop("csi-parameter-after-intermediate")  // VT500: the sequence is ignored; libvterm prints the rest
        }
        guard let final = body.last, (0x40...0x7E).contains(final) else { return .compare }
        let inner = body.dropLast()
        if inner.contains(where: { $0 < 0x20 }) {
            return .stop("csi-with-controls")  // executed inside the sequence: the rules above cannot rewrite it
        }
        if token.dropFirst(2).elementsEqual("!p".utf8) {
            // DECSTR: xterm and we reset the pen (SGR 0); libvterm 0.1.4 keeps it.
            return .rewrite("decstr-pen", Array("\u{1B}[!p\u{1B}[m".utf8))
        }
        let isPlain = inner.allSatisfy { (0x30...0x3B).contains($0) }  // digits, ':' and ';' only
        let isPrivate = inner.first == UInt8(ascii: "?") && inner.dropFirst().allSatisfy { (0x30...0x3B).contains($0) }
        let parameters = String(decoding: inner.drop { $0 == UInt8(ascii: "?") }, as: UTF8.self)
            .split(separator: ";", omittingEmptySubsequences: false)
        let modes = parameters.map { Int($0) }  // modes by value: `047` is 47
        switch final {
        case UInt8(ascii: "h"), UInt8(ascii: "l"):
            guard isPrivate || isPlain else { return .compare }
            let restores = final == UInt8(ascii: "l") && (modes.contains(1048) || modes.contains(1049))
            if restores, let stop = restoreStop(state) { return stop }
            if isPrivate && modes.contains(1049) { state.alternate = final == UInt8(ascii: "h") }
            if isPrivate && modes.contains(47) { return .stop("mode-47") }
            if isPrivate && final == UInt8(ascii: "h") && modes.contains(1047) { return .stop("mode-1047-entry") }
            if isPrivate && final == UInt8(ascii: "h") && modes.contains(5) { return .stop("reverse-video-screen") }
            if !isPrivate && modes.contains(4) { state.insertMode = final == UInt8(ascii: "h") }
            if parameters.count > 1 || parameters.contains("") {
                // libvterm 0.1.4 applies only the first mode of a list; xterm and we each of them
                // (an empty one is no mode): libvterm gets one sequence per mode.
                let marker = isPrivate ? "?" : ""
                let split = parameters.filter { !$0.isEmpty }.map { "\u{1B}[\(marker)\($0)" + String(UnicodeScalar(final)) }.joined()
                return .rewrite("mode-lists", Array(split.utf8), then: restores ? .cursorVisibility : nil)
            }
            if restores { return .resync("decrc-cursor-visibility", .cursorVisibility) }
        case UInt8(ascii: "s") where isPlain:
            // SCOSC and SCORC: libvterm 0.1.4 has neither; they mean DECSC and DECRC.
            return .rewrite("csi-s-u", Array("\u{1B}7".utf8))
        case UInt8(ascii: "u") where isPlain:
            if let stop = restoreStop(state) { return stop }
            return .rewrite("csi-s-u", Array("\u{1B}8".utf8), then: .cursorVisibility)
        case UInt8(ascii: "L"), UInt8(ascii: "M"):
            if isPlain { return .resync("il-dl-cursor-column", .carriageReturnIfOursAtColumn0) }
        case UInt8(ascii: "r") where isPlain:
            // xterm ignores a region whose bottom is not below its top; libvterm clamps it.
            let top = Int(parameters.first ?? "") ?? 0, bottom = parameters.count > 1 ? Int(parameters[1]) ?? 0 : 0
            let bottomRow = bottom == 0 || bottom > rows ? rows : bottom
            if max(top, 1) >= bottomRow { return .stop("decstbm-empty-region") }
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
        case UInt8(ascii: "j"), UInt8(ascii: "k"):
            return .stop("hpb-vpb")  // ECMA-48's HPB and VPB: libvterm moves the cursor; xterm and we do not know them
        case UInt8(ascii: "T"):
            if isPlain && parameters.count > 1 { return .stop("sd-with-parameters") }
        case UInt8(ascii: "m"):
            guard isPlain else { return .compare }
            if let rewritten = rewriteSGR(parameters) {
                return .rewrite("sgr-reading", rewritten.isEmpty ? [] : Array("\u{1B}[\(rewritten)m".utf8))
            }
        default: break
        }
        return .compare
    }

    /// A cursor restore libvterm cannot do as xterm and we do: after SO (its DECSC does not save
    /// the shift state), or on the alternate screen (xterm and we keep a saved cursor per screen,
    /// libvterm one for both).
    private func restoreStop(_ state: State) -> Action? {
        if state.shiftedOut { return .stop("decrc-charsets") }
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
            if ["38", "48", "58"].contains(parameter), index < parameters.count {
                // 5;n or 2;r;g;b: colour values, not codes.
                let count = parameters[index] == "5" ? 2 : parameters[index] == "2" ? 4 : 0
                let values = parameters[index..<min(parameters.count, index + count)].dropFirst()
                if count > 0 && values.count == count - 1 && Self.outOfRange(values) {
                    // An index or a component above 255: xterm and we ignore the colour,
                    // libvterm 0.1.4 keeps the value's low byte (`38;5;2208` is 160).
                    changed = true
                    index += count
                    continue
                }
                rewritten.append(String(parameter))
                rewritten += parameters[index..<min(parameters.count, index + count)].map(String.init)
                index += count
                continue
            }
            if parameter == "6" {
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
        // Nothing left: ours did nothing, so libvterm gets nothing (an empty SGR would reset).
        return rewritten.isEmpty ? "" : rewritten.joined(separator: ";")
    }

    /// Whether the cursor is still just after the last character printed once `token` is done:
    /// a character is printed (or U+FFFD for malformed UTF-8), a mark or an SGR leaves it
    /// as it was, anything else may have moved it.
    private static func staysAfterCharacter(_ token: ArraySlice<UInt8>, _ before: Bool) -> Bool {
        guard let first = token.first else { return before }
        if first >= 0x20 && first < 0x7F { return true }
        if first >= 0x80 {
            if let scalar = String(decoding: token, as: UTF8.self).unicodeScalars.first, token.count == scalar.utf8.count {
                if joins(scalar) { return before }
                if scalar.value < 0xA0 { return false }  // a C1 control
            }
            return true
        }
        let isSGR = token.count >= 3 && first == 0x1B && token[token.startIndex + 1] == UInt8(ascii: "[")
            && token.last == UInt8(ascii: "m") && token.dropFirst(2).dropLast().allSatisfy { (0x30...0x3B).contains($0) }
        return isSGR ? before : false
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
        if atEnd { return .compare }
        var out: [UInt8] = []
        var index = token.startIndex
        while index < token.endIndex {
            let length = Self.validPrefixLength(token[index...])
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
        if ours.width == libvterm.width, ours.scalars.count == 1, libvterm.scalars.count == 1,
           [(UInt32(0x2264), UInt32(0x2A7D)), (0x2265, 0x2A7E), (0xA0, 0x5F)].contains(where: { $0 == (ours.scalars[0], libvterm.scalars[0]) }) {
            var same = libvterm
            same.scalars = ours.scalars
            if same == ours { return "dec-graphics-glyphs" }
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
        if let known = wideCache.value[value] { return known }
        guard let scalar = Unicode.Scalar(value) else { return false }
        let scratch = Terminal(cols: 4, rows: 1, scrollbackLimit: 0, printedTextCapacity: 16)
        scratch.feed(String(scalar))
        let wide = scratch.cell(row: 0, col: 0).width == 2
        wideCache.value[value] = wide
        return wide
    }

    private static let wideCache = Cache()

    private final class Cache: @unchecked Sendable {
        var value: [UInt32: Bool] = [:]
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
