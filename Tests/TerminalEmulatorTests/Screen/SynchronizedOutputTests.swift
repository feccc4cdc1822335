import Testing
@testable import TerminalEmulator

/// Synchronized output (DEC private mode 2026): between `ESC [ ? 2026 h` and `ESC [ ? 2026 l`
/// the screen shown is the last complete frame, however the update is split across writes.
@Suite struct SynchronizedOutputTests {
    static let begin = "\(CSI)?2026h"
    static let end = "\(CSI)?2026l"

    /// A whole frame: clears the screen and draws three lines.
    static let frame = "\(begin)\(CSI)H\(CSI)2JTitle: done\r\nItems: 3\r\nStatus: ready\(end)"

    @Test func aFrameFedInPiecesIsNeverSeenHalfDrawn() {
        let terminal = Terminal(cols: 20, rows: 4)
        terminal.feed("Title: old\r\nItems: 0")
        let before = terminal.snapshot()
        let bytes = Array(Self.frame.utf8)
        let endStart = bytes.count - Array(Self.end.utf8).count
        for index in bytes.indices {
            terminal.feed([bytes[index]])
            if index < endStart + Array(Self.end.utf8).count - 1 {
                // Anything before the last byte of the reset: the previous frame, every query.
                #expect(terminal.snapshot() == before, "byte \(index)")
                #expect(terminal.cursor == before.cursor)
                #expect(terminal.cell(row: 0, col: 7) == before.cell(row: 0, col: 7))
                #expect(terminal.scrolledOffCount == before.scrolledOffCount)
            }
        }
        #expect(!terminal.isHoldingFrame)
        #expect(terminal.snapshot().lines == ["Title: done", "Items: 3", "Status: ready", ""])
    }

    @Test(arguments: [1, 2, 3, 5, 7, 64])
    func anyChunkingShowsOnlyCompleteFrames(chunk: Int) {
        let terminal = Terminal(cols: 20, rows: 4)
        let bytes = Array((Self.frame + Self.frame.replacingOccurrences(of: "3", with: "4")).utf8)
        var seen: Set<[String]> = []
        var start = 0
        while start < bytes.count {
            terminal.feed(Array(bytes[start..<min(bytes.count, start + chunk)]))
            seen.insert(terminal.snapshot().lines)
            start += chunk
        }
        let empty = ["", "", "", ""]
        let first = ["Title: done", "Items: 3", "Status: ready", ""]
        let second = ["Title: done", "Items: 4", "Status: ready", ""]
        #expect(seen.isSubset(of: [empty, first, second]), "\(seen)")
        #expect(terminal.snapshot().lines == second)
    }

    @Test func theHeldFrameIsTheScreenWhenTheModeWasSet() {
        let terminal = Terminal(cols: 10, rows: 2)
        terminal.feed("one\(Self.begin)two")
        #expect(terminal.isHoldingFrame)
        #expect(terminal.snapshot().line(0) == "one")
        #expect(terminal.drawnSnapshot().line(0) == "onetwo")
        // Setting it again while held keeps the first frame.
        terminal.feed("\(Self.begin)three")
        #expect(terminal.snapshot().line(0) == "one")
        #expect(terminal.heldFrameCount == 1)
        terminal.feed(Self.end)
        #expect(terminal.snapshot().line(0) == "onetwothre")
        terminal.feed(Self.begin)
        #expect(terminal.heldFrameCount == 2)
    }

    @Test func releasingTheHeldFrameShowsTheUpdateAndEndsTheMode() {
        let terminal = Terminal(cols: 10, rows: 2)
        terminal.feed("\(Self.begin)half")
        #expect(terminal.snapshot().line(0) == "")
        #expect(terminal.releaseHeldFrame())
        #expect(terminal.snapshot().line(0) == "half")
        #expect(!terminal.isHoldingFrame)
        #expect(terminal.privateModeStatus(2026) == .reset)
        #expect(!terminal.releaseHeldFrame())
        terminal.feed(" more")
        #expect(terminal.snapshot().line(0) == "half more")
    }

    @Test(arguments: ["\(ESC)c", "resize"])
    func aResetOrAResizeReleasesTheFrame(action: String) {
        let terminal = Terminal(cols: 10, rows: 2)
        terminal.feed("\(Self.begin)half")
        if action == "resize" { terminal.resize(cols: 12, rows: 3) } else { terminal.feed(action) }
        #expect(!terminal.isHoldingFrame)
        #expect(terminal.snapshot() == terminal.drawnSnapshot())
    }

    @Test func modesAndAnswersAreLiveWhileAFrameIsHeld() {
        // Input is encoded with the modes the program set, even inside its frame.
        let terminal = Terminal(cols: 10, rows: 2)
        var answers: [String] = []
        terminal.onResponse = { answers.append(String(decoding: $0, as: UTF8.self)) }
        terminal.feed("\(Self.begin)\(CSI)?1h\(CSI)?2026$p\(CSI)2;3H\(CSI)6n")
        #expect(terminal.modes.applicationCursorKeys)
        #expect(answers == ["\(CSI)?2026;1$y\(CSI)2;3R"])
        #expect(terminal.cursor.row == 0 && terminal.cursor.col == 0)
    }

    @Test func thePrintedTextIsAStreamAndNotHeld() {
        let terminal = Terminal(cols: 10, rows: 2)
        terminal.feed("\(Self.begin)abc")
        #expect(terminal.printedText.text(from: 0) == "abc")
    }
}
