import Testing
@testable import todo

@Suite struct KeyDecoderTests {
    @Test(arguments: [
        ("\u{1B}[A", [InputKey.up]), ("\u{1B}OA", [.up]), ("\u{1B}[B", [.down]), ("\u{1B}OB", [.down]),
        ("\u{1B}[5~", [.pageUp]), ("\u{1B}[6~", [.pageDown]), ("\u{1B}[H", [.home]), ("\u{1B}[1~", [.home]),
        ("\u{1B}OH", [.home]), ("\u{1B}[F", [.end]), ("\u{1B}[4~", [.end]), ("\u{1B}[1;5A", [.up]),
        ("\r", [.enter]), ("\n", [.enter]), (" ", [.space]), ("\u{3}", [.interrupt]),
        ("jkq", [.character("j"), .character("k"), .character("q")]), ("\u{1B}[99~x", [.character("x")]),
        ("\u{1B}x", [.character("x")]),
    ])
    func decodes(input: String, expected: [InputKey]) {
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array(input.utf8)) == expected)
    }

    @Test(arguments: ["\u{1B}[5~", "\u{1B}OA", "\u{1B}[1;5B"])
    func sequencesSplitAcrossReadsAreCompleted(sequence: String) {
        let bytes = Array(sequence.utf8)
        for split in 1 ..< bytes.count {
            var decoder = KeyDecoder()
            let first = decoder.decode(Array(bytes[..<split]))
            let second = decoder.decode(Array(bytes[split...]))
            var whole = KeyDecoder()
            #expect(first.isEmpty)
            #expect(second == whole.decode(bytes))
        }
    }
}
