import Testing
@testable import TerminalEmulator

/// Printing, wrapping, cursor movement, tabs, index/reverse index.
@Suite struct TerminalCursorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let input: String
        let lines: [String]
        let cursor: (row: Int, col: Int)
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "CR LF", input: "ab\r\ncd", lines: ["ab", "cd", "", ""], cursor: (1, 2)),
        Case(name: "LF keeps column", input: "ab\ncd", lines: ["ab", "  cd", "", ""], cursor: (1, 4)),
        Case(name: "BS", input: "abc\u{8}\u{8}X", lines: ["aXc", "", "", ""], cursor: (0, 2)),
        Case(name: "BS stops at column 0", input: "\u{8}\u{8}X", lines: ["X", "", "", ""], cursor: (0, 1)),
        Case(name: "autowrap with pending wrap", input: "0123456789", lines: ["0123456789", "", "", ""], cursor: (0, 9)),
        Case(name: "pending wrap then print wraps", input: "0123456789X", lines: ["0123456789", "X", "", ""], cursor: (1, 1)),
        Case(name: "pending wrap cleared by CR", input: "0123456789\rX", lines: ["X123456789", "", "", ""], cursor: (0, 1)),
        Case(name: "wrap at bottom scrolls", input: "\(CSI)4;1H0123456789AB", lines: ["", "", "0123456789", "AB"], cursor: (3, 2)),
        Case(name: "LF at bottom scrolls", input: "a\nb\nc\nd\ne", lines: [" b", "  c", "   d", "    e"], cursor: (3, 5)),
        Case(name: "HT default stops", input: "a\tb\tc", lines: ["a       bc", "", "", ""], cursor: (0, 9)),
        Case(name: "HT stops at last column", input: "a\t\t\tb", lines: ["a        b", "", "", ""], cursor: (0, 9)),
        Case(name: "HTS and TBC 0", input: "\(CSI)4G\(ESC)H\r\tX\(CSI)4G\(CSI)g\r\tY", lines: ["   X    Y", "", "", ""], cursor: (0, 9)),
        // xterm: HT and CHT only move the cursor; a wrap pending on the last column stays pending.
        Case(name: "HT keeps a pending wrap", input: "0123456789\tX", lines: ["0123456789", "X", "", ""], cursor: (1, 1)),
        Case(name: "CHT keeps a pending wrap", input: "\(CSI)3g\tb\(CSI)2Ic", lines: ["         b", "c", "", ""], cursor: (1, 1)),
        Case(name: "TBC 3 clears all", input: "\(CSI)3g\tX", lines: ["         X", "", "", ""], cursor: (0, 9)),
        Case(name: "CHT and CBT", input: "\(CSI)2IX\(CSI)ZY", lines: ["        YX", "", "", ""], cursor: (0, 9)),
        Case(name: "CUP", input: "\(CSI)2;3HX", lines: ["", "  X", "", ""], cursor: (1, 3)),
        Case(name: "CUP defaults", input: "abc\(CSI)HX", lines: ["Xbc", "", "", ""], cursor: (0, 1)),
        Case(name: "CUP zero means one", input: "abc\(CSI)0;0HX", lines: ["Xbc", "", "", ""], cursor: (0, 1)),
        Case(name: "CUP clamps", input: "\(CSI)99;99HX", lines: ["", "", "", "         X"], cursor: (3, 9)),
        Case(name: "HVP", input: "\(CSI)3;2fX", lines: ["", "", " X", ""], cursor: (2, 2)),
        Case(name: "CUU CUD CUF CUB", input: "\(CSI)3;5H\(CSI)2A\(CSI)3C\(CSI)BX\(CSI)4DY", lines: ["", "    Y  X", "", ""], cursor: (1, 5)),
        Case(name: "CUU clamps at top", input: "\(CSI)2;2H\(CSI)9AX", lines: [" X", "", "", ""], cursor: (0, 2)),
        Case(name: "CUB clamps", input: "ab\(CSI)20DX", lines: ["Xb", "", "", ""], cursor: (0, 1)),
        Case(name: "CNL CPL", input: "\(CSI)2;5H\(CSI)EX\(CSI)2FY", lines: ["Y", "", "X", ""], cursor: (0, 1)),
        Case(name: "CHA HPA VPA", input: "\(CSI)4GX\(CSI)3`Y\(CSI)3dZ", lines: ["  YX", "", "   Z", ""], cursor: (2, 4)),
        Case(name: "IND", input: "\(CSI)2;3HX\(ESC)DY", lines: ["", "  X", "   Y", ""], cursor: (2, 4)),
        Case(name: "IND scrolls at bottom", input: "top\(CSI)4;1H\(ESC)DX", lines: ["", "", "", "X"], cursor: (3, 1)),
        Case(name: "RI", input: "\(CSI)2;1H\(ESC)MX", lines: ["X", "", "", ""], cursor: (0, 1)),
        Case(name: "RI scrolls at top", input: "top\(CSI)H\(ESC)MX", lines: ["X", "top", "", ""], cursor: (0, 1)),
        Case(name: "NEL", input: "ab\(ESC)Ecd", lines: ["ab", "cd", "", ""], cursor: (1, 2)),
        Case(name: "REP", input: "ab\(CSI)3bc", lines: ["abbbbc", "", "", ""], cursor: (0, 6)),
        Case(name: "DECSC DECRC", input: "\(CSI)2;3H\(ESC)7\(CSI)HX\(ESC)8Y", lines: ["X", "  Y", "", ""], cursor: (1, 3)),
        Case(name: "CSI s u", input: "\(CSI)3;4H\(CSI)s\(CSI)HX\(CSI)uY", lines: ["X", "", "   Y", ""], cursor: (2, 4)),
        Case(name: "DECRC without save homes", input: "\(CSI)3;4H\(ESC)8X", lines: ["X", "", "", ""], cursor: (0, 1)),
        Case(name: "autowrap off overwrites last column", input: "\(CSI)?7l0123456789ABC", lines: ["012345678C", "", "", ""], cursor: (0, 9)),
        Case(name: "autowrap off, one char at a time", input: "\(CSI)?7l\(CSI)1;9HA\u{e9}\u{e8}", lines: ["        A\u{e8}", "", "", ""], cursor: (0, 9)),
        Case(name: "pending wrap dropped when autowrap is reset", input: "0123456789\(CSI)?7lX", lines: ["012345678X", "", "", ""], cursor: (0, 9)),
        Case(name: "NUL and BEL ignored", input: "a\u{0}\u{7}b", lines: ["ab", "", "", ""], cursor: (0, 2)),
        Case(name: "LNM makes LF return", input: "\(CSI)20hab\ncd", lines: ["ab", "cd", "", ""], cursor: (1, 2)),
    ]

    @Test(arguments: cases)
    func sequence(_ c: Case) {
        let screen = screen(c.input)
        #expect(screen.lines == c.lines, "\n\(screen.framed())")
        #expect(screen.cursor.row == c.cursor.row && screen.cursor.col == c.cursor.col, "\n\(screen.framed())")
    }
}
