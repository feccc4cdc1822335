import Testing
@testable import TerminalEmulator

/// Feeding a stream whole or cut anywhere must give the same screen.
@Suite struct TerminalSplitFeedTests {
    static let inputs: [String] = [
        "héllo 中文 😀 e\u{301}\r\nnext",
        "\(CSI)1;31mred\(CSI)38;2;1;2;3mrgb\(CSI)m\(CSI)2;3H\(CSI)K\(CSI)?1049hALT",
        "\(ESC)]0;tïtle\u{7}\(ESC)(0lqk\(ESC)(B\(CSI)?25l\(ESC)7\(CSI)5;5H\(ESC)8x",
        "12345678中文\(CSI)2;1H\(CSI)4h插入\(CSI)4l\(CSI)3b",
        "\u{FF}\u{80}bad\(CSI)38:2::9:8:7mX\(ESC)P1$qm\(ESC)\\\(ESC)#8",
    ]

    @Test(arguments: inputs)
    func everySplitGivesTheSameScreen(input: String) {
        let bytes = Array(input.utf8)
        let whole = Terminal(cols: 12, rows: 4)
        whole.feed(bytes)
        let expected = whole.snapshot()
        for cut in 1..<bytes.count {
            let split = Terminal(cols: 12, rows: 4)
            split.feed(Array(bytes[..<cut]))
            split.feed(Array(bytes[cut...]))
            #expect(split.snapshot() == expected, "split at byte \(cut)")
            #expect(split.modes == whole.modes && split.title == whole.title)
        }
        let bytewise = Terminal(cols: 12, rows: 4)
        for byte in bytes { bytewise.feed([byte]) }
        #expect(bytewise.snapshot() == expected, "one byte at a time")
    }
}
