import Testing
@testable import TerminalEmulator

/// Operating system commands as byte streams: the title, OSC 8 hyperlinks, OSC 52 clipboard
/// writes and the shell's OSC 133 marks, with both terminators, cut anywhere, and malformed.
private let BEL = "\u{7}"
private let ST = "\(ESC)\\"

@Suite struct TerminalOSCTests {

    /// Feeds `text` whole, and checks that every cut in two and one byte at a time give the
    /// same snapshot; returns the terminal fed whole.
    static func fed(_ text: String, cols: Int = 20, rows: Int = 5, sourceLocation: SourceLocation = #_sourceLocation) -> Terminal {
        let bytes = Array(text.utf8)
        let whole = Terminal(cols: cols, rows: rows)
        whole.feed(bytes)
        let expected = whole.snapshot()
        for cut in 1..<max(1, bytes.count) {
            let split = Terminal(cols: cols, rows: rows)
            split.feed(Array(bytes[..<cut]))
            split.feed(Array(bytes[cut...]))
            #expect(split.snapshot() == expected, "split at byte \(cut)", sourceLocation: sourceLocation)
        }
        let bytewise = Terminal(cols: cols, rows: rows)
        for byte in bytes { bytewise.feed([byte]) }
        #expect(bytewise.snapshot() == expected, "one byte at a time", sourceLocation: sourceLocation)
        return whole
    }

    // MARK: - Title

    @Test(arguments: [BEL, ST])
    func titleWithEitherTerminator(end: String) {
        let terminal = Self.fed("\(ESC)]2;hello wörld\(end)x\(ESC)]1;icon only\(end)")
        #expect(terminal.snapshot().title == "hello wörld")
        #expect(terminal.snapshot().line(0) == "x")
    }

    // MARK: - OSC 8

    @Test(arguments: [BEL, ST])
    func hyperlinkIsACellAttribute(end: String) {
        let terminal = Self.fed("a\(ESC)]8;id=1;https://example.com/a?b=c\(end)li\(CSI)1mnk\(CSI)0m!\(ESC)]8;;\(end)z")
        let screen = terminal.snapshot()
        #expect(screen.line(0) == "alink!z")
        #expect(screen.cell(row: 0, col: 0).attributes.link == nil)
        for col in 1...5 { #expect(screen.cell(row: 0, col: col).attributes.link == "https://example.com/a?b=c", "col \(col)") }
        #expect(screen.cell(row: 0, col: 3).attributes.bold, "SGR still applies inside a link")
        #expect(screen.cell(row: 0, col: 5).attributes.link != nil, "SGR 0 does not close the link")
        #expect(screen.cell(row: 0, col: 6).attributes.link == nil)
        #expect(terminal.cell(row: 0, col: 2).attributes.link == "https://example.com/a?b=c")
    }

    @Test func linksSurviveScrollingAndWideCharacters() {
        let terminal = Self.fed("\(ESC)]8;;file:///tmp/x\(BEL)中\r\n\(ESC)]8;;\(BEL)b\r\nc\r\nd", cols: 6, rows: 2)
        let screen = terminal.snapshot()
        #expect(screen.scrollbackCell(line: 0, col: 0).attributes.link == "file:///tmp/x")
        #expect(screen.scrollbackCell(line: 0, col: 1).attributes.link == "file:///tmp/x")
        #expect(screen.scrollbackCell(line: 1, col: 0).attributes.link == nil)
    }

    @Test func aLinkMatchesAStyle() throws {
        let screen = Self.fed("\(ESC)]8;;https://a.test\(BEL)docs\(ESC)]8;;\(BEL) text").snapshot()
        let match = try #require(screen.locate("docs").first)
        #expect(TextStyle.link("https://a.test").matches(match))
        #expect(!TextStyle.link("https://b.test").matches(match))
        #expect(TextStyle.link("https://b.test").differences(from: match.cells[0].attributes) == ["link: expected https://b.test, found https://a.test"])
        let plain = try #require(screen.locate("text").first)
        #expect(TextStyle.link("").matches(plain))
        #expect(TextStyle.plain.matches(plain) && !TextStyle.plain.matches(match))
        #expect(TextStyle(bold: true, link: "https://a.test").description == "bold link=https://a.test")
        #expect(TextStyle.link("").description == "not-link")
    }

    @Test func aSnapshotMadeFromCellsKeepsTheirLinks() {
        let cell = Cell(character: "x", attributes: CellAttributes(link: "https://x.test"))
        let screen = ScreenSnapshot(cols: 2, rows: 1, cells: [[cell, .blank]], cursor: CursorState(row: 0, col: 0, visible: true),
                                    title: "", activeBuffer: .main)
        #expect(screen.cell(row: 0, col: 0).attributes.link == "https://x.test")
        #expect(MemoryLayout<StoredCell>.size == 16, "a cell stays 16 bytes")
    }

    // MARK: - OSC 52

    @Test(arguments: [BEL, ST])
    func clipboardWritesAreDecoded(end: String) {
        // "héllo" and "a\nb", then a write with the default selection and a clear.
        let terminal = Self.fed("\(ESC)]52;c;aMOpbGxv\(end)\(ESC)]52;;YQpi\(end)\(ESC)]52;p;\(end)")
        let screen = terminal.snapshot()
        #expect(screen.clipboardWrites.map(\.text) == ["héllo", "a\nb", ""])
        #expect(screen.clipboardWrites.map(\.selection) == ["c", "s0", "p"])
        #expect(screen.clipboard == "")
        #expect(screen.clipboardWriteCount == 3)
    }

    @Test func aClipboardReadIsNeverAnswered() {
        let terminal = Terminal()
        var answers: [[UInt8]] = []
        terminal.onResponse = { answers.append($0) }
        terminal.feed("\(ESC)]52;c;?\(BEL)")
        #expect(answers.isEmpty)
        #expect(terminal.snapshot().clipboardWrites.isEmpty)
    }

    @Test(arguments: [
        "\(ESC)]52;c;not base64!\(BEL)", "\(ESC)]52;c;QQ=x\(BEL)", "\(ESC)]52;c;Q\(BEL)", "\(ESC)]52\(BEL)",
        "\(ESC)]52;c;QUJD\u{18}", // cancelled by CAN: never dispatched
    ])
    func malformedClipboardWritesAreIgnored(stream: String) {
        let terminal = Self.fed(stream + "ok")
        #expect(terminal.snapshot().clipboardWrites.isEmpty)
        #expect(terminal.snapshot().line(0) == "ok")
    }

    @Test func aPayloadAtTheCapIsNotTrustedForLinksOrTheClipboard() {
        let long = String(repeating: "QUJD", count: TerminalParser.oscCapacity / 4)
        let terminal = Terminal()
        terminal.feed("\(ESC)]52;c;\(long)\(BEL)\(ESC)]8;;https://\(String(repeating: "a", count: TerminalParser.oscCapacity))\(BEL)x")
        #expect(terminal.snapshot().clipboardWrites.isEmpty)
        #expect(terminal.cell(row: 0, col: 0).attributes.link == nil)
    }

    // MARK: - OSC 133

    /// A bash-like session: D and A before each prompt, B after it, C before the command runs.
    static func prompt(_ status: Int?, end: String = BEL) -> String {
        (status.map { "\(ESC)]133;D;\($0)\(end)" } ?? "") + "\(ESC)]133;A\(end)$ \(ESC)]133;B\(end)"
    }

    @Test(arguments: [BEL, ST])
    func shellMarksBecomeCommands(end: String) {
        let stream = "\(ESC)]133;D;0\(end)" + Self.prompt(nil, end: end) + "true\r\n\(ESC)]133;C\(end)"
            + Self.prompt(0, end: end) + "(exit 3)\r\n\(ESC)]133;C\(end)out\r\n" + Self.prompt(3, end: end)
        let screen = Self.fed(stream, cols: 20, rows: 6).snapshot()
        let commands = screen.shellCommands
        #expect(commands.map(\.phase) == [.finished, .finished, .input])
        #expect(commands.map(\.commandText) == ["true", "(exit 3)", nil])
        #expect(commands.map(\.exitStatus) == [0, 3, nil])
        #expect(commands.map(\.promptLine) == [0, 1, 3])
        #expect(commands.map(\.inputLine) == [0, 1, 3])
        #expect(commands.map(\.outputLine) == [1, 2, nil])
        #expect(commands.map(\.endLine) == [1, 3, nil])
        #expect(commands.map(\.number) == [0, 1, 2])
        #expect(screen.finishedCommandCount == 2)
        #expect(commands[1].summary == #""(exit 3)" finished with status 3"#)
    }

    @Test func aDMarkWithoutARunningCommandMeansNothing() {
        let screen = Self.fed(Self.prompt(5) + "\r\n" + Self.prompt(7)).snapshot()
        #expect(screen.shellCommands.allSatisfy { !$0.ran })
        #expect(screen.finishedCommandCount == 0)
    }

    @Test func aNewPromptEndsARunningCommandWithoutAStatus() {
        let screen = Self.fed(Self.prompt(nil) + "sleep\r\n\(ESC)]133;C\(BEL)^C\r\n" + Self.prompt(nil)).snapshot()
        #expect(screen.shellCommands[0].phase == .finished)
        #expect(screen.shellCommands[0].exitStatus == nil)
        #expect(screen.finishedCommandCount == 1)
    }

    @Test func commandsKeepTheirLinesWhileScrolling() {
        let stream = Self.prompt(nil) + "seq\r\n\(ESC)]133;C\(BEL)1\r\n2\r\n3\r\n4\r\n" + Self.prompt(0)
        let screen = Self.fed(stream, cols: 10, rows: 3).snapshot()
        #expect(screen.shellCommands[0].promptLine == 0)
        #expect(screen.shellCommands[0].endLine == 5)
        #expect(screen.scrolledOffCount == 3)
        #expect(screen.shellCommands[0].exitStatus == 0)
    }

    @Test(arguments: [
        ("D;12;aid=4", 12), ("D", nil), ("D;", nil), ("D;x", nil), ("D;-1", nil), ("D;1234567890", nil),
    ] as [(String, Int?)])
    func theDMarksStatus(mark: String, status: Int?) {
        let screen = Self.fed(Self.prompt(nil) + "x\r\n\(ESC)]133;C\(BEL)\(ESC)]133;\(mark)\(BEL)").snapshot()
        #expect(screen.shellCommands.last?.phase == .finished)
        #expect(screen.shellCommands.last?.exitStatus == status)
    }

    @Test(arguments: ["\(ESC)]133\(BEL)", "\(ESC)]133;\(BEL)", "\(ESC)]133;AB\(BEL)", "\(ESC)]133;Z\(BEL)", "\(ESC)]133;C\u{1A}"])
    func malformedShellMarksAreIgnored(stream: String) {
        let screen = Self.fed(stream + "ok").snapshot()
        #expect(screen.shellCommands.isEmpty)
        #expect(screen.line(0) == "ok")
    }

    @Test func marksSurviveAFullReset() {
        let terminal = Self.fed(Self.prompt(nil) + "x\r\n\(ESC)]133;C\(BEL)\(ESC)]133;D;1\(BEL)\(ESC)]52;c;eA==\(BEL)\(ESC)c")
        #expect(terminal.snapshot().shellCommands.first?.exitStatus == 1)
        #expect(terminal.snapshot().clipboard == "x")
    }
}
