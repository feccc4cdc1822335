// libFuzzer target `vt`: the VT parser and screen model, fed in chunks with resizes between them.
//
// Input: 4 header bytes, then the bytes the program writes.
//   byte 0, 1: the first size (cols 1...64, rows 1...24; small, for speed);
//   byte 2, 3: the seed of the generator that cuts the rest into chunks of 1...64 bytes (now and
//              then up to 512) and resizes the terminal between chunks one time in four.
// After every step: the cursor is on the screen, the snapshot holds rows x cols cells, wide
// characters are whole, combined characters exist, the scrollback holds at most
// `scrollbackLimit` lines. At the end, every reading of the snapshot, scrollback,
// transcript and printed text runs too, and the public cells are checked the same way and
// against the terminal's own (after every step that would cost most of the time).
import FuzzSupport
@testable import TerminalEmulator

private let scrollbackLimit = 40  // above Scrollback.chunkSize (32): sealing and dropping both run
private let printedTextCapacity = 256

private func checkInvariants(_ terminal: Terminal, readEverything: Bool) {
    let cols = terminal.cols, rows = terminal.rows
    let cursor = terminal.cursor
    fuzzCheck(cursor.row >= 0 && cursor.row < rows && cursor.col >= 0 && cursor.col < cols,
          "cursor \(cursor.row),\(cursor.col) outside \(cols)x\(rows)")
    let snapshot = terminal.snapshot()
    fuzzCheck(snapshot.cols == cols && snapshot.rows == rows, "snapshot size \(snapshot.cols)x\(snapshot.rows), terminal \(cols)x\(rows)")
    fuzzCheck(snapshot.stored.count == rows * cols, "snapshot stores \(snapshot.stored.count) cells for \(cols)x\(rows)")
    // Every step: the stored cells (cheap). At the end: the public cells too.
    let stored = snapshot.stored
    for row in 0..<rows {
        for col in 0..<cols {
            let cell = stored[row * cols + col]
            if cell.isWide {
                fuzzCheck(col + 1 < cols && stored[row * cols + col + 1].isContinuation,
                          "wide character at \(row),\(col) without its right half")
            }
            if cell.isContinuation {
                fuzzCheck(col > 0 && stored[row * cols + col - 1].isWide, "right half at \(row),\(col) without its wide character")
            }
            if cell.content & StoredCell.clusterFlag != 0 {
                fuzzCheck(Int(cell.content & ~StoredCell.clusterFlag) < snapshot.clusters.count, "cell \(row),\(col) refers to a missing cluster")
            }
        }
    }
    if readEverything {
        let cells = snapshot.cells
        fuzzCheck(cells.count == rows, "\(cells.count) lines of cells for \(rows) rows")
        for (row, line) in cells.enumerated() {
            fuzzCheck(line.count == cols, "line \(row) has \(line.count) cells for \(cols) columns")
            for (col, cell) in line.enumerated() {
                fuzzCheck(cell == terminal.cell(row: row, col: col), "cell \(row),\(col) differs between snapshot and terminal")
                switch cell.width {
                case 2: fuzzCheck(col + 1 < cols && line[col + 1].width == 0, "wide cell at \(row),\(col) without its right half")
                case 0: fuzzCheck(col > 0 && line[col - 1].width == 2, "right half cell at \(row),\(col) without its wide cell")
                case 1: break
                default: fuzzCheck(false, "cell \(row),\(col) has width \(cell.width)")
                }
            }
        }
    }
    fuzzCheck(snapshot.scrollbackCount <= scrollbackLimit, "scrollback holds \(snapshot.scrollbackCount) lines, limit \(scrollbackLimit)")
    fuzzCheck(snapshot.scrolledOffCount >= snapshot.scrollbackCount, "scrolled off \(snapshot.scrolledOffCount) < held \(snapshot.scrollbackCount)")
    guard readEverything else { return }
    // Each reading once (they share the line rendering; repeating them would cost the most time).
    fuzzCheck(snapshot.lines.count == rows, "lines count")
    _ = snapshot.framed()
    for index in 0..<snapshot.scrollbackCount {
        let line = snapshot.scrollbackCells(line: index)
        for (col, cell) in line.enumerated() {
            fuzzCheck(cell == snapshot.scrollbackCell(line: index, col: col), "scrollback cell \(index),\(col)")
        }
        _ = snapshot.scrollbackCell(line: index, col: line.count + 3)
    }
    fuzzCheck(snapshot.transcriptLineCount == snapshot.scrollbackCount + rows, "transcript line count")
    let transcript = snapshot.framedTranscript()
    fuzzCheck(!transcript.isEmpty, "an empty framed transcript")
    _ = snapshot.transcriptLine(snapshot.transcriptLineCount - 1)
    _ = snapshot.linesScrolledOff(since: max(0, snapshot.scrolledOffCount - 5))
    _ = snapshot.find("a")
    let printed = terminal.printedText
    fuzzCheck(printed.endOffset - printed.startOffset <= printed.capacity, "printed text over capacity")
    _ = printed.text(from: 0)
    _ = printed.text(from: printed.startOffset + 1, to: printed.endOffset - 1)
    _ = printed.range(of: "a", from: 0)
    _ = terminal.title
    _ = terminal.modes
    _ = terminal.unhandledSequenceCount
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = inputBuffer(data, size)
    guard size >= 4 else { return 0 }
    let terminal = Terminal(
        cols: 1 + Int(bytes[0]) % 64, rows: 1 + Int(bytes[1]) % 24,
        scrollbackLimit: scrollbackLimit, printedTextCapacity: printedTextCapacity)
    var answers = 0
    terminal.onResponse = { answers += $0.count }
    var generator = FuzzGenerator(seed: UInt64(bytes[2]) << 8 | UInt64(bytes[3]))
    var offset = 4
    checkInvariants(terminal, readEverything: false)
    while offset < size {
        let length = generator.chunkLength()
        let end = min(size, offset + length)
        terminal.feed(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[offset..<end])))
        offset = end
        checkInvariants(terminal, readEverything: false)
        if generator.next(4) == 0 {
            terminal.resize(cols: 1 + generator.next(64), rows: 1 + generator.next(24))
            checkInvariants(terminal, readEverything: false)
        }
    }
    checkInvariants(terminal, readEverything: true)
    return 0
}

runFuzzer(fuzzOneInput)
