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

    /// What the feed loop parses in place (runs of printable ASCII found eight bytes at a time,
    /// whole UTF-8 characters, control sequence parameters) against the byte-at-a-time path:
    /// a control, DEL, `~` or a high byte at every place in an eight-byte word; characters
    /// valid, invalid and cut short; parameters past the cap and sub-parameters.
    static let fastPathInputs: [[UInt8]] = [
        Array((0..<9).map { String(repeating: "a", count: $0) + "\u{7F}~}\t" + String(repeating: "b", count: 9 - $0) + "\u{7}" }.joined().utf8),
        Array((0..<9).map { String(repeating: "c", count: $0) + "é" + String(repeating: " ", count: $0) + "中\r\n" }.joined().utf8),
        // A surrogate, past U+10FFFF, overlong, cut by ASCII, cut by ESC, overlong three-byte.
        Array("ok".utf8) + [0xED, 0xA0, 0x80] + Array("x".utf8) + [0xF4, 0x90, 0x80, 0x80] + Array("y".utf8)
            + [0xC0, 0x80] + Array("z".utf8) + [0xE4, 0xB8] + Array("w".utf8) + [0xF0, 0x9F, 0x98, 0x1B]
            + Array("[1mv".utf8) + [0xE0, 0x9F, 0x80] + Array("u😀".utf8),
        Array("\(CSI)\((1...40).map(String.init).joined(separator: ";"))mX\(CSI)38:5:9;4:3;99999;1mY\(CSI)?1;2\u{18}Z\(CSI)1\u{8}5CW".utf8),
        Array(("\(CSI)44mblue\(CSI)K\r\n\(CSI)m" + String(repeating: "0123456789abcdefghij ", count: 4) + "\r\n~").utf8),
    ]

    @Test(arguments: fastPathInputs)
    func everySplitGivesTheSameScreenStreamAndScrollback(bytes: [UInt8]) {
        let whole = Terminal(cols: 20, rows: 3)
        whole.feed(bytes)
        let expected = whole.snapshot()
        let text = whole.printedText.text(from: 0)
        let bytewise = Terminal(cols: 20, rows: 3)
        for byte in bytes { bytewise.feed([byte]) }
        #expect(bytewise.snapshot() == expected)
        #expect(bytewise.printedText.text(from: 0) == text)
        #expect(bytewise.unhandledSequenceCount == whole.unhandledSequenceCount)
        for cut in stride(from: 1, to: bytes.count, by: 3) {
            let split = Terminal(cols: 20, rows: 3)
            split.feed(Array(bytes[..<cut]))
            split.feed(Array(bytes[cut...]))
            #expect(split.snapshot() == expected, "split at byte \(cut)")
            #expect(split.printedText.text(from: 0) == text, "split at byte \(cut)")
        }
    }
}
