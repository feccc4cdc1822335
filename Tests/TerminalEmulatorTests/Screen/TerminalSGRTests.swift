import Testing
@testable import TerminalEmulator

@Suite struct TerminalSGRTests {
    static func attributes(_ sgr: String) -> CellAttributes {
        screen("\(CSI)\(sgr)mX").cell(row: 0, col: 0).attributes
    }

    @Test(arguments: [
        ("1", CellAttributes(bold: true)),
        ("2", CellAttributes(dim: true)),
        ("3", CellAttributes(italic: true)),
        ("4", CellAttributes(underline: true)),
        ("4:3", CellAttributes(underline: true)),
        ("5", CellAttributes(blink: true)),
        ("7", CellAttributes(inverse: true)),
        ("8", CellAttributes(hidden: true)),
        ("9", CellAttributes(strikethrough: true)),
        ("31", CellAttributes(foreground: .indexed(1))),
        ("47", CellAttributes(background: .indexed(7))),
        ("92", CellAttributes(foreground: .indexed(10))),
        ("103", CellAttributes(background: .indexed(11))),
        ("38;5;208", CellAttributes(foreground: .indexed(208))),
        ("48;5;17", CellAttributes(background: .indexed(17))),
        ("38:5:208", CellAttributes(foreground: .indexed(208))),
        ("38;2;1;2;3", CellAttributes(foreground: .rgb(1, 2, 3))),
        ("48;2;255;128;0", CellAttributes(background: .rgb(255, 128, 0))),
        ("38:2:1:2:3", CellAttributes(foreground: .rgb(1, 2, 3))),
        ("38:2::1:2:3", CellAttributes(foreground: .rgb(1, 2, 3))),
        ("48:2:0:9:8:7", CellAttributes(background: .rgb(9, 8, 7))),
        ("1;38;5;1;4;48;2;1;2;3;7", CellAttributes(foreground: .indexed(1), background: .rgb(1, 2, 3), bold: true, underline: true, inverse: true)),
        ("1;2;3;4;5;7;8;9;22;23;24;25;27;28;29", CellAttributes()),
        ("4;4:0", CellAttributes()),
        ("31;44;39;49", CellAttributes()),
        ("1;31;0", CellAttributes()),
        ("1;31;", CellAttributes()),
        ("58:2::1:2:3;1", CellAttributes(bold: true)),
        // Out of range, as xterm: an index above 255 or a component above 255 is ignored (the
        // pen keeps its colour), the values are still consumed.
        ("38;5;2208", CellAttributes()),
        ("31;38;5;256", CellAttributes(foreground: .indexed(1))),
        ("48:5:300;1", CellAttributes(bold: true)),
        ("38;2;300;0;0;4", CellAttributes(underline: true)),
        ("48:2::1:2:256", CellAttributes()),
        // The colour's values as the next parameter's sub-parameters (`38;5:208`), as xterm
        // reads them: that group is the colour, what follows it is read as codes again.
        ("38;5:208", CellAttributes(foreground: .indexed(208))),
        ("48;2:1:2:3;1", CellAttributes(background: .rgb(1, 2, 3), bold: true)),
        ("38;:5", CellAttributes()),
        ("38;:5;4", CellAttributes(underline: true)),
        // A sub-parameter is never read as a code of its own.
        ("38;5;1:", CellAttributes(foreground: .indexed(1))),
        ("38;5;1:2;4", CellAttributes(foreground: .indexed(1), underline: true)),
    ] as [(String, CellAttributes)])
    func selectGraphicRendition(sgr: String, expected: CellAttributes) {
        #expect(Self.attributes(sgr) == expected)
    }

    @Test func emptySGRResets() {
        #expect(screen("\(CSI)1;31m\(CSI)mX").cell(row: 0, col: 0).attributes == .plain)
    }

    @Test func attributesStickToPrintedCells() {
        let screen = screen("a\(CSI)1mb\(CSI)0mc")
        #expect(screen.cells[0].prefix(3).map(\.attributes.bold) == [false, true, false])
    }
}
