import Testing
@testable import TerminalEmulator

/// Erase, insert/delete, scrolling and scroll regions.
@Suite struct TerminalEditingTests {
    static let filled = "0123456789\r\nabcdefghij\r\nABCDEFGHIJ\r\nklmnopqrst"

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let input: String
        let lines: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "ED 0", input: "\(CSI)2;4H\(CSI)J", lines: ["0123456789", "abc", "", ""]),
        Case(name: "ED 1", input: "\(CSI)2;4H\(CSI)1J", lines: ["", "    efghij", "ABCDEFGHIJ", "klmnopqrst"]),
        Case(name: "ED 2", input: "\(CSI)2J", lines: ["", "", "", ""]),
        Case(name: "ED 3 keeps screen", input: "\(CSI)3J", lines: ["0123456789", "abcdefghij", "ABCDEFGHIJ", "klmnopqrst"]),
        Case(name: "EL 0", input: "\(CSI)2;4H\(CSI)K", lines: ["0123456789", "abc", "ABCDEFGHIJ", "klmnopqrst"]),
        Case(name: "EL 1", input: "\(CSI)2;4H\(CSI)1K", lines: ["0123456789", "    efghij", "ABCDEFGHIJ", "klmnopqrst"]),
        Case(name: "EL 2", input: "\(CSI)2;4H\(CSI)2K", lines: ["0123456789", "", "ABCDEFGHIJ", "klmnopqrst"]),
        Case(name: "ECH", input: "\(CSI)2;4H\(CSI)3X", lines: ["0123456789", "abc   ghij", "ABCDEFGHIJ", "klmnopqrst"]),
        Case(name: "ECH default 1", input: "\(CSI)2;4H\(CSI)X", lines: ["0123456789", "abc efghij", "ABCDEFGHIJ", "klmnopqrst"]),
        Case(name: "ICH", input: "\(CSI)2;4H\(CSI)2@", lines: ["0123456789", "abc  defgh", "ABCDEFGHIJ", "klmnopqrst"]),
        Case(name: "DCH", input: "\(CSI)2;4H\(CSI)2P", lines: ["0123456789", "abcfghij", "ABCDEFGHIJ", "klmnopqrst"]),
        Case(name: "IL", input: "\(CSI)2;4H\(CSI)L", lines: ["0123456789", "", "abcdefghij", "ABCDEFGHIJ"]),
        Case(name: "DL", input: "\(CSI)2;4H\(CSI)2M", lines: ["0123456789", "klmnopqrst", "", ""]),
        Case(name: "SU", input: "\(CSI)S", lines: ["abcdefghij", "ABCDEFGHIJ", "klmnopqrst", ""]),
        Case(name: "SD", input: "\(CSI)2T", lines: ["", "", "0123456789", "abcdefghij"]),
        Case(name: "SU 2", input: "\(CSI)2S", lines: ["ABCDEFGHIJ", "klmnopqrst", "", ""]),
        Case(name: "SU 3", input: "\(CSI)3S", lines: ["klmnopqrst", "", "", ""]),
        Case(name: "SD 1", input: "\(CSI)T", lines: ["", "0123456789", "abcdefghij", "ABCDEFGHIJ"]),
        Case(name: "SU more than the screen", input: "\(CSI)9S", lines: ["", "", "", ""]),
        Case(name: "IRM inserts", input: "\(CSI)1;3H\(CSI)4hXY\(CSI)4lZ", lines: ["01XYZ34567", "abcdefghij", "ABCDEFGHIJ", "klmnopqrst"]),
        Case(name: "DECSTBM scrolls region only", input: "\(CSI)2;3r\(CSI)3;1H\nX", lines: ["0123456789", "ABCDEFGHIJ", "X", "klmnopqrst"]),
        Case(name: "DECSTBM RI at region top", input: "\(CSI)2;3r\(CSI)2;1H\(ESC)MX", lines: ["0123456789", "X", "abcdefghij", "klmnopqrst"]),
        Case(name: "DECSTBM homes cursor", input: "\(CSI)2;3rX", lines: ["X123456789", "abcdefghij", "ABCDEFGHIJ", "klmnopqrst"]),
        Case(name: "IL inside region", input: "\(CSI)1;3r\(CSI)2;1H\(CSI)L", lines: ["0123456789", "", "abcdefghij", "klmnopqrst"]),
        Case(name: "DL inside region", input: "\(CSI)1;3r\(CSI)1;1H\(CSI)M", lines: ["abcdefghij", "ABCDEFGHIJ", "", "klmnopqrst"]),
        Case(name: "IL outside region ignored", input: "\(CSI)1;2r\(CSI)4;1H\(CSI)L", lines: ["0123456789", "abcdefghij", "ABCDEFGHIJ", "klmnopqrst"]),
        Case(name: "SU in region", input: "\(CSI)2;3r\(CSI)S", lines: ["0123456789", "ABCDEFGHIJ", "", "klmnopqrst"]),
        Case(name: "invalid region ignored", input: "\(CSI)3;2r\(CSI)4;1H\nX", lines: ["abcdefghij", "ABCDEFGHIJ", "klmnopqrst", "X"]),
        Case(name: "origin mode CUP relative to region", input: "\(CSI)2;3r\(CSI)?6h\(CSI)1;1HX\(CSI)9;1HY", lines: ["0123456789", "Xbcdefghij", "YBCDEFGHIJ", "klmnopqrst"]),
        Case(name: "DECALN", input: "\(ESC)#8", lines: ["EEEEEEEEEE", "EEEEEEEEEE", "EEEEEEEEEE", "EEEEEEEEEE"]),
        Case(name: "RIS clears", input: "\(ESC)cX", lines: ["X", "", "", ""]),
    ]

    @Test(arguments: cases)
    func sequence(_ c: Case) {
        let screen = screen(Self.filled + c.input)
        #expect(screen.lines == c.lines, "\n\(screen.framed())")
    }

    @Test func eraseKeepsBackgroundColor() {
        let screen = screen("\(CSI)44m\(CSI)2J")
        #expect(screen.cell(row: 2, col: 3).attributes.background == .indexed(4))
        #expect(screen.cell(row: 2, col: 3).character == " ")
    }

    @Test func erasingHalfAWideCharacterBlanksBoth() {
        let screen = screen("a中b\(CSI)1;3H\(CSI)X")
        #expect(screen.line(0) == "a  b")
        #expect(screen.cell(row: 0, col: 1) == .blank)
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        let screen = screen("中\(CSI)1;2HX")
        #expect(screen.line(0) == " X")
        #expect(screen.cell(row: 0, col: 0).width == 1)
    }

    @Test func decstrResetsModesButKeepsText() {
        let terminal = Terminal(cols: 10, rows: 4)
        terminal.feed("hello\(CSI)?25l\(CSI)?6h\(CSI)2;3r\(CSI)1m\(CSI)4h\(CSI)!p")
        #expect(terminal.modes.cursorVisible)
        #expect(!terminal.modes.originMode)
        terminal.feed("\(CSI)4;1H\nX")
        let screen = terminal.snapshot()
        #expect(screen.line(0) == "")
        #expect(screen.line(3) == "X")
        #expect(screen.cell(row: 3, col: 0).attributes.bold == false)
    }
}
