import Testing
@testable import TerminalEmulator

@Suite struct TerminalResponseTests {
    static func answer(to input: String, cols: Int = 10, rows: Int = 5) -> String {
        let terminal = Terminal(cols: cols, rows: rows)
        var answers: [[UInt8]] = []
        terminal.onResponse = { answers.append($0) }
        terminal.feed(input)
        return answers.map { String(decoding: $0, as: UTF8.self) }.joined()
    }

    @Test(arguments: [
        ("\(CSI)5n", "\(CSI)0n"),
        ("\(CSI)6n", "\(CSI)1;1R"),
        ("\(CSI)3;7H\(CSI)6n", "\(CSI)3;7R"),
        ("\(CSI)2;4r\(CSI)?6h\(CSI)2;2H\(CSI)6n", "\(CSI)2;2R"),
        ("\(CSI)?6n", "\(CSI)?1;1R"),
        ("\(CSI)c", "\(CSI)?62;22c"),
        ("\(CSI)0c", "\(CSI)?62;22c"),
        ("\(CSI)>c", "\(CSI)>1;10;0c"),
        ("\(CSI)>0c", "\(CSI)>1;10;0c"),
        ("plain text", ""),
    ])
    func answers(input: String, expected: String) {
        #expect(Self.answer(to: input) == expected)
    }

    @Test func severalQueriesInOneChunkAnswerInOrder() {
        #expect(Self.answer(to: "\(CSI)5n\(CSI)2;2H\(CSI)6n") == "\(CSI)0n\(CSI)2;2R")
    }
}
