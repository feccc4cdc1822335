import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

@Suite struct FlowValueParsingTests {
    static let durations: [(String, Duration?)] = [
        ("500ms", .milliseconds(500)), ("5s", .seconds(5)), ("1.5s", .milliseconds(1500)), ("2m", .seconds(120)),
        ("0.25m", .seconds(15)), ("0ms", .zero), ("1.000000001s", .nanoseconds(1_000_000_001)), ("24h", nil),
        ("5", nil), ("s", nil), (".5s", nil), ("5.s", nil), ("-1s", nil), ("1e3ms", nil), ("1441m", nil),
        ("1.0000000001s", nil), ("5 s", nil), ("５s", nil),
    ]

    @Test(arguments: durations)
    func duration(text: String, expected: Duration?) {
        #expect(FlowDurationParser.parse(text) == expected)
    }

    @Test(arguments: ["500ms", "5s", "1.5s", "2m", "1.25s"])
    func durationFormatRoundTrips(text: String) {
        #expect(FlowDurationParser.format(FlowDurationParser.parse(text)!) == text)
    }

    static let sizes: [(String, TerminalSize?)] = [
        ("80x24", TerminalSize(cols: 80, rows: 24)), ("1x1", TerminalSize(cols: 1, rows: 1)),
        ("4096x4096", TerminalSize(cols: 4096, rows: 4096)), ("4097x1", nil), ("80X24", nil),
        ("x24", nil), ("80x", nil), ("80x24x1", nil), ("-80x24", nil), ("0x0", nil),
    ]

    @Test(arguments: sizes)
    func size(text: String, expected: TerminalSize?) {
        #expect(TerminalSize(parsing: text) == expected)
    }

    static let strings: [(String, String)] = [
        (#""plain""#, "plain"),
        (#""tab\there""#, "tab\there"),
        (#""line\nbreak\r""#, "line\nbreak\r"),
        (#""quote \" and backslash \\""#, "quote \" and backslash \\"),
        (#""\e[1m""#, "\u{1B}[1m"),
        (#""\x41\x7f\x00""#, "A\u{7F}\u{0}"),
        (#""\u{1F600} \u{e9}""#, "😀 é"),
        (##""# inside""##, "# inside"),
        (#""""#, ""),
        (#""naïve 日本""#, "naïve 日本"),
    ]

    @Test(arguments: strings)
    func stringEscapes(literal: String, expected: String) throws {
        let script = try parseFlow(after: ["paste \(literal)"])
        #expect(script.steps.last?.command == .paste(expected))
    }

    @Test(arguments: ["plain", "tab\there \"q\" \\ \u{1B}[0m \u{0} é 😀"])
    func quoteIsTheInverseOfTheParser(text: String) throws {
        let script = try parseFlow(after: ["paste \(FlowStringLiteral.quote(text))"])
        #expect(script.steps.last?.command == .paste(text))
    }

    @Test func regexUnescapesSlashOnlyAndKeepsOtherEscapes() throws {
        let script = try parseFlow(after: [#"expect /\/todos\/\d+ \(ok\)/"#])
        #expect(script.steps.last?.command == .expect(.regex(#"/todos/\d+ \(ok\)"#), within: nil))
        #expect(FlowTextPattern.regex("a/b").description == #"/a\/b/"#)
    }

    static let keyByteCases: [(String, [UInt8], [UInt8])] = [
        ("enter", [13], [13]), ("tab", [9], [9]), ("backtab", Array("\u{1B}[Z".utf8), Array("\u{1B}[Z".utf8)),
        ("backspace", [127], [127]), ("esc", [27], [27]),
        ("up", Array("\u{1B}[A".utf8), Array("\u{1B}OA".utf8)), ("left", Array("\u{1B}[D".utf8), Array("\u{1B}OD".utf8)),
        ("home", Array("\u{1B}[H".utf8), Array("\u{1B}OH".utf8)), ("end", Array("\u{1B}[F".utf8), Array("\u{1B}OF".utf8)),
        ("pgup", Array("\u{1B}[5~".utf8), Array("\u{1B}[5~".utf8)), ("delete", Array("\u{1B}[3~".utf8), Array("\u{1B}[3~".utf8)),
        ("f1", Array("\u{1B}OP".utf8), Array("\u{1B}OP".utf8)), ("f4", Array("\u{1B}OS".utf8), Array("\u{1B}OS".utf8)),
        ("f5", Array("\u{1B}[15~".utf8), Array("\u{1B}[15~".utf8)), ("f12", Array("\u{1B}[24~".utf8), Array("\u{1B}[24~".utf8)),
        ("ctrl-c", [3], [3]), ("CTRL-A", [1], [1]), ("ctrl-space", [0], [0]), ("ctrl-[", [27], [27]), ("ctrl-?", [127], [127]),
        ("alt-x", [27, 120], [27, 120]), ("alt-enter", [27, 13], [27, 13]), ("space", [32], [32]), ("é", [0xC3, 0xA9], [0xC3, 0xA9]),
    ]

    @Test(arguments: keyByteCases)
    func keyBytes(name: String, normal: [UInt8], application: [UInt8]) throws {
        let key = try Key(parsing: name)
        #expect(try key.encoded() == normal)
        #expect(try key.encoded(applicationCursorKeys: true) == application)
        #expect(try Key(parsing: key.name) == key)
    }

    @Test(arguments: ["entr", "f0", "f13", "ctrl-", "ctrl-nothing", "alt-", "hyper-x", "shift-", "release:", ""])
    func invalidKeyNames(name: String) {
        #expect((try? Key(parsing: name)) == nil)
    }

    @Test func suggestions() {
        #expect(FlowSuggestion.closest(to: "entr", in: Key.commonNames) == "enter")
        #expect(FlowSuggestion.closest(to: "pgdwn", in: Key.commonNames) == "pgdn")
        #expect(FlowSuggestion.closest(to: "expct", in: FlowParser.commandNames) == "expect")
        #expect(FlowSuggestion.closest(to: "wait", in: FlowParser.commandNames) == "wait-stable")
        #expect(FlowSuggestion.closest(to: "xyzzy", in: FlowParser.commandNames) == nil)
    }
}
