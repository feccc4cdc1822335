extension Screen {
    // MARK: - Printing

    /// Prints a run of printable ASCII (the hot path): whole row segments at a time.
    mutating func printASCII(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty else { return }
        if charsets.active != .ascii || insertMode {
            for byte in bytes { printCharacter(charsets.active.translate(byte), width: 1) }
            return
        }
        var index = 0
        let total = bytes.count
        let pen = self.pen
        let cols = self.cols
        while index < total {
            if pendingWrap { wrapIfAllowed() }
            var available = cols - cursorCol
            if !modes.autowrap && available < total - index {
                // Without autowrap, characters past the edge all land on the last column:
                // only the ones that fit and the very last one matter.
                if available > 1 {
                    writeASCII(bytes, from: index, count: available - 1, pen: pen)
                    index += available - 1
                    cursorCol += available - 1
                }
                index = total - 1
                available = 1
            }
            let count = min(available, total - index)
            writeASCII(bytes, from: index, count: count, pen: pen)
            index += count
            if cursorCol + count >= cols {
                cursorCol = cols - 1
                pendingWrap = modes.autowrap
            } else {
                cursorCol += count
            }
        }
        lastPrinted = (UInt32(bytes[total - 1]), 1)
    }

    /// Writes `count` ASCII cells at the cursor without moving it (the caller checked they fit):
    /// one pass through the row's cells, a wide character cut at either end blanked first.
    @inline(__always)
    private mutating func writeASCII(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int, count: Int, pen: StoredCell) {
        let col = cursorCol, cols = self.cols
        let start = grid.rowStart[cursorRow]
        let blank = eraseBlank
        var cell = pen
        cell.flags &= StoredCell.attributeMask
        grid.cells.withUnsafeMutableBufferPointer { cells in
            let line = cells.baseAddress! + start
            Self.breakWideCharacter(line, at: col, cols: cols, blank: blank)
            Self.breakWideCharacter(line, at: col + count, cols: cols, blank: blank)
            let source = bytes.baseAddress! + index
            for offset in 0..<count {
                cell.content = UInt32(source[offset])
                line[col + offset] = cell
            }
        }
    }

    /// Prints one decoded scalar, honouring its display width and the active charset.
    mutating func print(_ scalar: Unicode.Scalar) {
        var value = scalar.value
        let kind: UInt8 = value < 0x10000 ? widthTable[Int(value)] : CharacterWidth.astral(value)
        switch kind {
        case CharacterWidth.zero:
            return
        case CharacterWidth.combining:
            attachCombining(scalar)
        default:
            if value < 0x7F { value = charsets.active.translate(UInt8(value)) }
            printCharacter(value, width: Int(kind))
        }
    }

    /// Prints a character of width 1 or 2 at the cursor, wrapping and inserting as modes say.
    mutating func printCharacter(_ content: UInt32, width: Int) {
        if pendingWrap { wrapIfAllowed() }
        if width == 2 && cursorCol == cols - 1 {
            if cols < 2 { return }
            if modes.autowrap {
                // Written on the next line only: the last column keeps what it holds, as in
                // xterm (a character, its colours, a wide character's right half).
                wrapToNextLine()
            } else {
                cursorCol = cols - 2
            }
        }
        if insertMode { insertBlankCharacters(width) }
        let col = cursorCol, cols = self.cols
        let start = grid.rowStart[cursorRow]
        let blank = eraseBlank
        var cell = pen
        cell.flags &= StoredCell.attributeMask
        cell.content = content
        grid.cells.withUnsafeMutableBufferPointer { cells in
            let line = cells.baseAddress! + start
            Self.breakWideCharacter(line, at: col, cols: cols, blank: blank)
            Self.breakWideCharacter(line, at: col + width, cols: cols, blank: blank)
            if width == 2 {
                cell.flags |= StoredCell.wide
                line[col] = cell
                cell.flags = (cell.flags & StoredCell.attributeMask) | StoredCell.continuation
                cell.content = 0
                line[col + 1] = cell
            } else {
                line[col] = cell
            }
        }
        lastPrinted = (content, width)
        if col + width >= cols {
            cursorCol = cols - 1
            pendingWrap = modes.autowrap
        } else {
            cursorCol = col + width
        }
    }

    /// Adds a combining mark (or ZWJ, variation selector) to the character before the cursor.
    mutating func attachCombining(_ scalar: Unicode.Scalar) {
        var col = pendingWrap ? cursorCol : cursorCol - 1
        guard col >= 0 else { return }
        if grid[cursorRow, col].isContinuation && col > 0 { col -= 1 }
        var cell = grid[cursorRow, col]
        var text = cell.content == 0 ? " " : clusters.text(of: cell.content)
        text.unicodeScalars.append(scalar)
        guard let index = clusters.intern(text) else { return }
        cell.content = StoredCell.clusterFlag | index
        grid[cursorRow, col] = cell
        if let last = lastPrinted { lastPrinted = (cell.content, last.width) }
    }

    /// REP: prints the last graphic character `count` more times.
    mutating func repeatLastCharacter(_ count: Int) {
        guard let last = lastPrinted else { return }
        for _ in 0..<min(count, cols * rows) { printCharacter(last.content, width: last.width) }
    }

    /// If `col` is the right half of a wide character, blanks both halves.
    @inline(__always)
    mutating func breakWideCharacter(row: Int, at col: Int) {
        guard col > 0, col < cols, grid[row, col].isContinuation else { return }
        grid[row, col - 1] = eraseBlank
        grid[row, col] = eraseBlank
    }

    /// `breakWideCharacter` on a row's cells already in hand (the printing paths).
    @inline(__always)
    static func breakWideCharacter(_ line: UnsafeMutablePointer<StoredCell>, at col: Int, cols: Int, blank: StoredCell) {
        guard col > 0, col < cols, line[col].isContinuation else { return }
        line[col - 1] = blank
        line[col] = blank
    }

    /// A pending wrap happens only if autowrap is still on (it may have been reset since).
    @inline(__always)
    mutating func wrapIfAllowed() {
        if modes.autowrap { wrapToNextLine() } else { pendingWrap = false }
    }

    /// Autowrap: column 0 of the next line, scrolling at the bottom of the region.
    @inline(__always)
    mutating func wrapToNextLine() {
        pendingWrap = false
        cursorCol = 0
        index()
    }
}
