import Testing
@testable import TerminalEmulator

/// Garbage in never crashes and never breaks the screen's invariants.
@Suite struct TerminalRobustnessTests {
    /// Deterministic pseudo-random bytes biased towards escape-sequence material.
    static func noise(seed: UInt64, count: Int) -> [UInt8] {
        var state = seed
        let alphabet = Array("\u{1B}[;?0123456789:HJKLMPX@mrhlABCDEFGSTdbcnsu()#%]P\\\u{7}\u{8}\u{9}\u{A}\u{D}\u{E}\u{F}a中😀\u{301}".utf8)
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let value = UInt8(truncatingIfNeeded: state >> 33)
            return value < 200 ? alphabet[Int(value) % alphabet.count] : value
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomInputKeepsInvariants(seed: UInt64) {
        let terminal = Terminal(cols: 13, rows: 7)
        let bytes = Self.noise(seed: seed, count: 20_000)
        var offset = 0
        var step = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + 1 + Int(seed &* UInt64(step) % 97))
            terminal.feed(Array(bytes[offset..<end]))
            offset = end
            step += 1
            if step % 50 == 0 { terminal.resize(cols: 5 + step % 17, rows: 2 + step % 9) }
            let screen = terminal.snapshot()
            #expect(screen.cells.count == screen.rows && screen.cells.allSatisfy { $0.count == screen.cols })
            #expect((0..<screen.rows).contains(screen.cursor.row) && (0..<screen.cols).contains(screen.cursor.col))
            for row in screen.cells {
                for (col, cell) in row.enumerated() {
                    // A right half always follows a wide character, and a wide one is followed by its right half.
                    if cell.width == 0 { #expect(col > 0 && row[col - 1].width == 2) }
                    if cell.width == 2 { #expect(col + 1 < row.count && row[col + 1].width == 0) }
                }
            }
        }
    }

    // MARK: - Found by fuzzing (Scripts/fuzz.sh vt)

    /// A wide character printed at the last column wraps and must not cut a wide character that
    /// ended on that column in two (its left half stayed "wide"): as in xterm, the last column
    /// is left as it was, so that character stays whole.
    @Test func wideCharacterWrappingFromTheRightHalfOfAnotherLeavesItWhole() {
        let terminal = Terminal(cols: 4, rows: 3)
        terminal.feed(Array("tr\u{6B3D}\u{1B}[;9H\u{4E15}".utf8))  // tr欽, CUP to column 9 (clamped to 4), 丕
        let screen = terminal.snapshot()
        #expect(screen.cells[0].map(\.width) == [1, 1, 2, 0])
        #expect(screen.line(0) == "tr\u{6B3D}")
        #expect(screen.line(1) == "\u{4E15}")
        #expect(screen.cells[1].map(\.width) == [2, 0, 1, 1])
    }

    @Test func hugeParametersAreClamped() {
        let terminal = Terminal(cols: 10, rows: 5)
        terminal.feed("\u{1B}[65535;65535H\u{1B}[65535@\u{1B}[65535L\u{1B}[65535b\u{1B}[65535S\u{1B}[65535Ix")
        #expect(terminal.cursor.row == 4)
    }
}
