import Testing
import Harness
import TerminalEmulator

/// The bytes of each mouse event in each tracking mode and encoding, as xterm sends them.
@Suite struct MouseEncodingTests {
    static func at(_ row: Int, _ col: Int) -> ScreenPosition { ScreenPosition(row: row, col: col) }

    /// `CSI M` and three bytes.
    static func legacy(_ code: Int, _ column: Int, _ row: Int) -> [UInt8] {
        [0x1b, 0x5b, 0x4d, UInt8(32 + code), UInt8(32 + column), UInt8(32 + row)]
    }

    static func text(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// (event, tracking, encoding, expected bytes or nil when nothing is sent).
    static let table: [(MouseEvent, MouseTracking, MouseEncoding, [UInt8]?)] = [
        // Legacy bytes: 32 + code, 32 + column, 32 + row (1-based).
        (MouseEvent(.press(.left), at: at(0, 0)), .normal, .legacy, legacy(0, 1, 1)),
        (MouseEvent(.press(.middle), at: at(4, 9)), .normal, .legacy, legacy(1, 10, 5)),
        (MouseEvent(.press(.right), at: at(4, 9)), .normal, .legacy, legacy(2, 10, 5)),
        (MouseEvent(.release(.right), at: at(4, 9)), .normal, .legacy, legacy(3, 10, 5)),
        (MouseEvent(.wheelUp, at: at(2, 3)), .normal, .legacy, legacy(64, 4, 3)),
        (MouseEvent(.wheelDown, at: at(2, 3)), .normal, .legacy, legacy(65, 4, 3)),
        (MouseEvent(.press(.left), at: at(0, 0), modifiers: .shift), .normal, .legacy, legacy(4, 1, 1)),
        (MouseEvent(.press(.left), at: at(0, 0), modifiers: .alt), .normal, .legacy, legacy(8, 1, 1)),
        (MouseEvent(.press(.left), at: at(0, 0), modifiers: .ctrl), .normal, .legacy, legacy(16, 1, 1)),
        (MouseEvent(.wheelDown, at: at(0, 0), modifiers: [.shift, .alt, .ctrl]), .normal, .legacy, legacy(65 + 28, 1, 1)),
        (MouseEvent(.motion(.left), at: at(1, 1)), .buttonEvent, .legacy, legacy(32, 2, 2)),
        (MouseEvent(.motion(.right), at: at(1, 1), modifiers: .ctrl), .anyEvent, .legacy, legacy(32 + 2 + 16, 2, 2)),
        (MouseEvent(.motion(nil), at: at(1, 1)), .anyEvent, .legacy, legacy(35, 2, 2)),
        // The last cell legacy bytes reach: column and row 223 (byte 255).
        (MouseEvent(.press(.left), at: at(222, 222)), .normal, .legacy, legacy(0, 223, 223)),
        // What each mode leaves out.
        (MouseEvent(.motion(.left), at: at(1, 1)), .normal, .legacy, nil),
        (MouseEvent(.motion(nil), at: at(1, 1)), .buttonEvent, .legacy, nil),
        (MouseEvent(.release(.left), at: at(1, 1)), .x10, .legacy, nil),
        (MouseEvent(.wheelUp, at: at(1, 1)), .x10, .legacy, nil),
        (MouseEvent(.motion(.left), at: at(1, 1)), .x10, .legacy, nil),
        // X10: the button only, no modifiers.
        (MouseEvent(.press(.right), at: at(1, 1), modifiers: .ctrl), .x10, .legacy, legacy(2, 2, 2)),
        (MouseEvent(.press(.left), at: at(1, 1)), .x10, .sgr, text("\u{1b}[<0;2;2M")),
        // SGR: decimal, 1-based, release with `m` and its own button.
        (MouseEvent(.press(.left), at: at(0, 0)), .normal, .sgr, text("\u{1b}[<0;1;1M")),
        (MouseEvent(.release(.left), at: at(0, 0)), .normal, .sgr, text("\u{1b}[<0;1;1m")),
        (MouseEvent(.release(.right), at: at(9, 19)), .normal, .sgr, text("\u{1b}[<2;20;10m")),
        (MouseEvent(.wheelUp, at: at(9, 19)), .normal, .sgr, text("\u{1b}[<64;20;10M")),
        (MouseEvent(.wheelDown, at: at(9, 19), modifiers: .ctrl), .normal, .sgr, text("\u{1b}[<81;20;10M")),
        (MouseEvent(.motion(.left), at: at(9, 19)), .buttonEvent, .sgr, text("\u{1b}[<32;20;10M")),
        (MouseEvent(.motion(nil), at: at(9, 19)), .anyEvent, .sgr, text("\u{1b}[<35;20;10M")),
        (MouseEvent(.press(.middle), at: at(0, 0), modifiers: [.shift, .alt]), .normal, .sgr, text("\u{1b}[<13;1;1M")),
        (MouseEvent(.press(.left), at: at(999, 4999)), .normal, .sgr, text("\u{1b}[<0;5000;1000M")),
        // SGR-Pixels (1016): SGR with the pixel in the middle of the cell (10x20 pixels a cell).
        (MouseEvent(.press(.left), at: at(0, 0)), .normal, .sgrPixels, text("\u{1b}[<0;6;11M")),
        (MouseEvent(.release(.left), at: at(2, 4)), .normal, .sgrPixels, text("\u{1b}[<0;46;51m")),
        (MouseEvent(.release(.right), at: at(2, 4)), .normal, .sgrPixels, text("\u{1b}[<2;46;51m")),
        (MouseEvent(.motion(nil), at: at(23, 79)), .anyEvent, .sgrPixels, text("\u{1b}[<35;796;471M")),
        (MouseEvent(.motion(nil), at: at(23, 79)), .buttonEvent, .sgrPixels, nil),
        // urxvt: 32 + code in decimal.
        (MouseEvent(.press(.left), at: at(0, 0)), .normal, .urxvt, text("\u{1b}[32;1;1M")),
        (MouseEvent(.release(.left), at: at(299, 299)), .normal, .urxvt, text("\u{1b}[35;300;300M")),
        // UTF-8 (1005): single bytes below 128, then two-byte UTF-8.
        (MouseEvent(.press(.left), at: at(0, 0)), .normal, .utf8, legacy(0, 1, 1)),
        (MouseEvent(.press(.left), at: at(0, 94)), .normal, .utf8, [0x1b, 0x5b, 0x4d, 32, 127, 33]),
        (MouseEvent(.press(.left), at: at(0, 95)), .normal, .utf8, [0x1b, 0x5b, 0x4d, 32, 0xC2, 0x80, 33]),
        (MouseEvent(.press(.left), at: at(299, 0)), .normal, .utf8, [0x1b, 0x5b, 0x4d, 32, 33] + Array("\u{14C}".utf8)),
        (MouseEvent(.press(.left), at: at(2014, 2014)), .normal, .utf8, [0x1b, 0x5b, 0x4d, 32, 0xDF, 0xBF, 0xDF, 0xBF]),
    ]

    @Test(arguments: table.indices)
    func encodesAsXtermDoes(index: Int) throws {
        let (event, tracking, encoding, expected) = Self.table[index]
        let bytes = try event.encoded(tracking: tracking, encoding: encoding)
        #expect(bytes == expected, "\(event) in \(tracking), \(encoding)")
    }

    @Test(arguments: [
        (MouseEncoding.legacy, at(0, 223)), (.legacy, at(223, 0)), (.utf8, at(0, 2015)), (.utf8, at(2015, 2015)),
        (.sgr, at(-1, 0)), (.legacy, at(0, -1)), (.sgr, at(0, Int.max)), (.urxvt, at(Int.max, Int.min)),
    ])
    func cellsPastTheEncodingsLimitAreNotSent(encoding: MouseEncoding, position: ScreenPosition) {
        #expect(throws: MouseError.unencodable(position: position, encoding: encoding, limit: encoding.coordinateLimit)) {
            try MouseEvent(.press(.left), at: position).encoded(tracking: .normal, encoding: encoding)
        }
    }

    @Test(arguments: [MouseTracking.x10, .normal, .anyEvent])
    func superIsNotEncoded(tracking: MouseTracking) {
        let event = MouseEvent(.press(.left), at: Self.at(0, 0), modifiers: [.shift, .super])
        #expect(throws: MouseError.superNotReported(gesture: "send \(event)")) {
            try event.encoded(tracking: tracking, encoding: .sgr)
        }
    }

    @Test func nothingIsEncodedWithoutMouseReporting() throws {
        let error = try #require(throws: MouseError.self) {
            try MouseEvent(.press(.left), at: Self.at(0, 0)).encoded(tracking: .off, encoding: .sgr)
        }
        #expect(error.description.contains("the app did not enable mouse reporting; it cannot be clicked"))
    }
}
