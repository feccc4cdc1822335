import CVTermScreen
import TerminalEmulator

/// What differs between the two screens at one point of a stream.
struct ScreenDifference {
    var cells: [(row: Int, col: Int, ours: ComparedCell, libvterm: ComparedCell)] = []
    var cursor: (ours: (Int, Int), libvterm: (Int, Int))?
    var cursorVisible: (ours: Bool, libvterm: Bool)?
    var alternate: (ours: Bool, libvterm: Bool)?

    var isEmpty: Bool { cells.isEmpty && cursor == nil && cursorVisible == nil && alternate == nil }

    /// What kind of difference this is (`text`, `width`, `bold`, `fg`, `cursor`...): reports with
    /// the same kinds are shown once.
    var kinds: [String] {
        var kinds = Set<String>()
        for cell in cells {
            let a = cell.ours, b = cell.libvterm
            if a.width != b.width { kinds.insert("width") } else if a.scalars != b.scalars { kinds.insert("text") }
            if a.bold != b.bold { kinds.insert("bold") }
            if a.underline != b.underline { kinds.insert("underline") }
            if a.italic != b.italic { kinds.insert("italic") }
            if a.blink != b.blink { kinds.insert("blink") }
            if a.inverse != b.inverse { kinds.insert("inverse") }
            if a.strike != b.strike { kinds.insert("strike") }
            if a.foreground != b.foreground { kinds.insert("fg") }
            if a.background != b.background { kinds.insert("bg") }
        }
        if cursor != nil { kinds.insert("cursor") }
        if cursorVisible != nil { kinds.insert("cursor-visible") }
        if alternate != nil { kinds.insert("screen") }
        return kinds.sorted()
    }

    /// A few lines: the cursor, then up to `limit` differing cells.
    func describe(limit: Int = 8) -> [String] {
        var lines: [String] = []
        if let alternate { lines.append("screen shown: ours \(alternate.ours ? "alternate" : "main"), libvterm \(alternate.libvterm ? "alternate" : "main")") }
        if let cursor { lines.append("cursor (row,col): ours \(cursor.ours.0),\(cursor.ours.1), libvterm \(cursor.libvterm.0),\(cursor.libvterm.1)") }
        if let cursorVisible { lines.append("cursor visible: ours \(cursorVisible.ours), libvterm \(cursorVisible.libvterm)") }
        for cell in cells.prefix(limit) {
            lines.append("cell \(cell.row),\(cell.col): ours \(cell.ours.summary) | libvterm \(cell.libvterm.summary)")
        }
        if cells.count > limit { lines.append("... and \(cells.count - limit) more cells") }
        return lines
    }
}

/// Feeds one stream to both emulators and compares their screens.
struct Comparison {
    let cols: Int
    let rows: Int
    let divergences: Divergences

    /// Feeds `bytes`, cut at `cuts` (ascending, the last one the end), and compares after each
    /// piece. Returns the first point with a difference no documented divergence explains (the
    /// offset it was seen at and what differs), or nil; `explained` counts what rules did.
    func run(_ bytes: [UInt8], cuts: [Int], explained: inout [String: Int]) -> (offset: Int, difference: ScreenDifference)? {
        let ours = Terminal(cols: cols, rows: rows)
        let theirs = dfz_new(Int32(rows), Int32(cols))!
        defer { dfz_free(theirs) }
        var cuts = cuts[...]
        func feedBoth(_ piece: ArraySlice<UInt8>, libvterm: [UInt8]? = nil) {
            piece.withUnsafeBytes { ours.feed($0) }
            (libvterm.map { $0[...] } ?? piece).withUnsafeBufferPointer { dfz_write(theirs, $0.baseAddress, $0.count) }
        }
        func check(_ offset: Int) -> ScreenDifference? {
            let difference = compare(ComparedScreen(ours), ComparedScreen(theirs, cols: cols, rows: rows), explained: &explained)
            return difference.isEmpty ? nil : difference
        }
        func align(_ resync: Divergences.Resync, rule: String) {
            let cursor = ours.drawnCursor
            var row: Int32 = 0, col: Int32 = 0, visible: Int32 = 0
            dfz_cursor(theirs, &row, &col, &visible)
            switch resync {
            case .carriageReturnIfOursAtColumn0:
                if cursor.col == 0 && col != 0 && Int(row) == cursor.row {
                    explained[rule, default: 0] += 1
                    feedBoth([], libvterm: [0x0D])
                }
            case .home:
                if cursor.row == 0 && cursor.col == 0 && (row, col) != (0, 0) {
                    explained[rule, default: 0] += 1
                    feedBoth([], libvterm: Array("\u{1B}[H".utf8))
                }
            case .stoppedAtTopMargin(let top):
                if top > 0 && cursor.row == top && Int(row) < top {
                    explained[rule, default: 0] += 1
                    feedBoth([], libvterm: Array("\u{1B}[\(cursor.row + 1);\(col + 1)H".utf8))
                }
            case .stoppedAtBottomMargin(let bottom):
                if cursor.row == bottom && Int(row) > bottom {
                    explained[rule, default: 0] += 1
                    feedBoth([], libvterm: Array("\u{1B}[\(cursor.row + 1);\(col + 1)H".utf8))
                }
            case .cancelPendingWrap:
                if Int(col) == cols - 1 {
                    explained[rule, default: 0] += 1
                    feedBoth([], libvterm: Array("\u{1B}[\(cols)G".utf8))
                }
            case .cursorVisibility:
                if cursor.visible != (visible != 0) {
                    explained[rule, default: 0] += 1
                    feedBoth([], libvterm: Array("\u{1B}[?25\(cursor.visible ? "h" : "l")".utf8))
                }
            }
        }
        // Ours was on the last column when the cursor was last saved (a wrap may be saved).
        var savedOnLastColumn = false
        func holds(_ condition: Divergences.CursorCondition) -> Bool {
            let cursor = ours.drawnCursor
            var row: Int32 = 0, col: Int32 = 0, visible: Int32 = 0
            dfz_cursor(theirs, &row, &col, &visible)
            switch condition {
            case .oursOutsideRows(let top, let bottom): return cursor.row < top || cursor.row > bottom
            case .oursOnLastColumn: return cursor.col == cols - 1
            case .libvtermOnLastColumn: return Int(col) == cols - 1 || savedOnLastColumn
            case .splitByWideCharacterAtEdge:
                return cursor.row == Int(row) && cursor.col == cols - 1 && Int(col) == cols - 2
            }
        }
        var offset = 0
        // libvterm's saved cursor starts zeroed (black on black, hidden cursor); ours and xterm's
        // "nothing saved" is home with the plain pen: libvterm saves its initial state first.
        dfz_write(theirs, "\u{1B}7", 2)
        var state = Divergences.State()
        // A malformed UTF-8 piece was just rewritten: ours shows its last U+FFFD only when the
        // next byte comes, so a stop compares after a NUL (which both ignore).
        var afterInvalidUTF8 = false
        func stop() -> (offset: Int, difference: ScreenDifference)? {
            if afterInvalidUTF8 { feedBoth([0x00]) }
            return check(offset).map { (offset, $0) }
        }
        for token in Minimizer.pieces(bytes) {
            let end = offset + token.count
            let slice = bytes[offset..<end]
            if holds(.splitByWideCharacterAtEdge) {
                // After a wide character in the last two columns, xterm's and our cursor is on
                // the last column, libvterm's on the character's first: what comes next (a
                // character, a relative move) lands one column apart.
                explained["pending-wrap-after-wide", default: 0] += 1
                return stop()
            }
            var action = divergences.action(slice, atEnd: end == bytes.count, state: &state)
            if case .stopIf(let rule, let condition, let otherwise) = action {
                if holds(condition) {
                    explained[rule, default: 0] += 1
                    return stop()
                }
                action = otherwise
            }
            defer {
                if case .rewrite("invalid-utf8", _, _) = action { afterInvalidUTF8 = true } else { afterInvalidUTF8 = false }
            }
            switch action {
            case .stop(let rule):
                explained[rule, default: 0] += 1
                return stop()
            case .compare:
                // Cut inside the token as the stream says: a sequence split across feeds.
                var start = offset
                while let cut = cuts.first, cut <= end {
                    cuts.removeFirst()
                    guard cut > start else { continue }
                    feedBoth(bytes[start..<cut])
                    start = cut
                    if let difference = check(cut) { return (cut, difference) }
                }
                if start < end { feedBoth(bytes[start..<end]) }
            case .joinUnlessAtRightEdge:
                // A mark newer than libvterm 0.1.4's table (U+0617...): a character of its own there.
                if let scalar = String(decoding: slice, as: UTF8.self).unicodeScalars.first, !Self.libvtermJoins(scalar) {
                    explained["mark-unknown-to-libvterm", default: 0] += 1
                    return stop()
                }
                // A mark after a character in the last column: xterm and we join it to that
                // character; libvterm 0.1.4 wraps first and shows the mark alone on the next line.
                if ours.drawnCursor.col == cols - 1 {
                    explained["combining-at-right-edge", default: 0] += 1
                    return stop()
                }
                feedBoth(slice)
            case .repeatUnlessWrapping(let count):
                // REP past the right edge: xterm and we wrap, as for any printed character;
                // libvterm 0.1.4 stops at the last column.
                if ours.drawnCursor.col + count >= cols - 1 {
                    explained["rep-wraps", default: 0] += 1
                    return stop()
                }
                feedBoth(slice)
            case .rewrite(let rule, let replacement, let resync):
                explained[rule, default: 0] += 1
                feedBoth(slice, libvterm: replacement)
                if rule == "invalid-utf8" {
                    // Ours shows the last U+FFFD only when the next byte arrives: a NUL (which
                    // both ignore) brings it now, before any rule looks at the cursor. (Not at the
                    // end, where a cut sequence is left waiting on both sides.)
                    if end < bytes.count { feedBoth([0x00]) }
                    while let cut = cuts.first, cut <= end { cuts.removeFirst() }
                }
                if let resync { align(resync, rule: "decrc-cursor-visibility") }
            case .stopIf:
                break  // resolved above
            case .resync(let rule, let resync):
                feedBoth(slice)
                align(resync, rule: rule)
            }
            offset = end
            if state.savedNow {
                state.savedNow = false
                savedOnLastColumn = ours.drawnCursor.col == cols - 1
            }
            while let cut = cuts.first, cut <= end {
                cuts.removeFirst()
                if let difference = check(cut) { return (cut, difference) }
            }
        }
        return check(bytes.count).map { (bytes.count, $0) }
    }

    /// Whether libvterm joins `scalar` to the character before it (asked of a scratch
    /// libvterm: `a` then the mark leaves the cursor on column 1; cached).
    static func libvtermJoins(_ scalar: Unicode.Scalar) -> Bool {
        if let known = joinsCache.value[scalar.value] { return known }
        let scratch = dfz_new(1, 8)!
        defer { dfz_free(scratch) }
        let bytes = Array(("a" + String(scalar)).utf8)
        bytes.withUnsafeBufferPointer { dfz_write(scratch, $0.baseAddress, $0.count) }
        var row: Int32 = 0, col: Int32 = 0, visible: Int32 = 0
        dfz_cursor(scratch, &row, &col, &visible)
        joinsCache.value[scalar.value] = col == 1
        return col == 1
    }

    private static let joinsCache = JoinsCache()

    private final class JoinsCache: @unchecked Sendable {
        var value: [UInt32: Bool] = [:]
    }

    /// The differences between two screens that no documented divergence explains.
    func compare(_ a: ComparedScreen, _ b: ComparedScreen, explained: inout [String: Int]) -> ScreenDifference {
        var difference = ScreenDifference()
        for row in 0..<rows {
            for col in 0..<cols {
                let x = a.cell(row, col), y = b.cell(row, col)
                guard x != y else { continue }
                if let rule = divergences.explains(ours: x, libvterm: y, row: row, col: col, a, b) {
                    explained[rule, default: 0] += 1
                    continue
                }
                difference.cells.append((row, col, x, y))
            }
        }
        if (a.cursorRow, a.cursorCol) != (b.cursorRow, b.cursorCol) {
            if let rule = divergences.explainsCursor(a, b) {
                explained[rule, default: 0] += 1
            } else {
                difference.cursor = ((a.cursorRow, a.cursorCol), (b.cursorRow, b.cursorCol))
            }
        }
        if a.cursorVisible != b.cursorVisible { difference.cursorVisible = (a.cursorVisible, b.cursorVisible) }
        if a.alternate != b.alternate { difference.alternate = (a.alternate, b.alternate) }
        return difference
    }

    /// Both screens, whole, after `bytes` (for a reproducer's report).
    func screens(_ bytes: [UInt8]) -> (ours: ComparedScreen, libvterm: ComparedScreen) {
        let ours = Terminal(cols: cols, rows: rows)
        let theirs = dfz_new(Int32(rows), Int32(cols))!
        defer { dfz_free(theirs) }
        ours.feed(bytes)
        bytes.withUnsafeBufferPointer { dfz_write(theirs, $0.baseAddress, $0.count) }
        return (ComparedScreen(ours), ComparedScreen(theirs, cols: cols, rows: rows))
    }
}
