import Foundation
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

/// The pure core of `harness record`: input bytes and screens to flow text.
@Suite struct FlowRecorderTests {
    @Test(arguments: [
        ("hi", [FlowRecordedInput.text("hi")]),
        ("\r", [.key(.enter)]),
        ("\t\u{7F}", [.key(.tab), .key(.backspace)]),
        ("\u{1B}[A\u{1B}OB\u{1B}[C\u{1B}[D", [.key(.up), .key(.down), .key(.right), .key(.left)]),
        ("\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~", [.key(.home), .key(.end), .key(.home), .key(.end)]),
        ("\u{1B}[5~\u{1B}[6~\u{1B}[2~\u{1B}[3~", [.key(.pageUp), .key(.pageDown), .key(.insert), .key(.delete)]),
        ("\u{1B}OP\u{1B}OS\u{1B}[15~\u{1B}[24~", [.key(.f(1)), .key(.f(4)), .key(.f(5)), .key(.f(12))]),
        ("\u{1B}[Z", [.key(.backTab)]),
        ("\u{1B}", [.key(.escape)]),
        ("\u{03}\u{04}\u{00}\u{1C}", [.key(.ctrl("c")), .key(.ctrl("d")), .key(.ctrl("@")), .key(.ctrl("\\"))]),
        ("\u{1B}x\u{1B}\u{7F}", [.key(.alt(.character("x"))), .key(.alt(.backspace))]),
        ("ab\u{1B}[Acd", [.text("ab"), .key(.up), .text("cd")]),
        ("\u{1B}[200~one\rtwo\u{1B}[201~", [.paste("one\ntwo")]),
        ("\u{1B}[1;5C\u{1B}[1;2B", [.key(.ctrl(.right)), .key(.shift(.down))]),
        ("\u{1B}[15;6~\u{1B}[1;3P", [.key(.ctrl(.shift(.f(5)))), .key(.alt(.f(1)))]),
        ("\u{1B}[1;17C", [.text("\u{1B}[1;17C")]),
        ("é✓", [.text("é✓")]),
    ])
    func decodesKeys(input: String, expected: [FlowRecordedInput]) {
        #expect(FlowInputDecoder.decode(Array(input.utf8)) == expected)
    }

    @Test func decodedKeysEncodeBackToTheSameBytes() {
        let keys: [Key] = [.enter, .tab, .backTab, .backspace, .up, .down, .left, .right, .home, .end, .pageUp,
                               .pageDown, .insert, .delete] + (1...12).map { .f($0) }
            + ["a", "z", "@", "]"].map { .ctrl(Character($0)) } + [.alt(.character("x")), .alt(.enter)]
            // What xterm sends with modifiers held (the second parameter), as `press` sends them.
            + [.ctrl(.left), .shift(.up), .alt(.home), .ctrl(.shift(.end)), .shift(.f(3)), .ctrl(.f(12)),
               .ctrl(.delete), .alt(.pageUp), .shift(.insert)]
        for key in keys {
            #expect(FlowInputDecoder.decode((try? key.encoded()) ?? []) == [.key(key)], "\(key)")
        }
    }

    @Test func aLineOrientedSessionBecomesExpectOutputOfTheAnswerAndThePrompt() throws {
        var recorder = FlowRecorder(app: "python3", arguments: ["-q"], size: TerminalSize(cols: 80, rows: 24))
        recorder.input(Array("1+1\r".utf8), screen: [">>>"], output: ">>> ")
        recorder.input(Array("1/0\r".utf8), screen: [], output: "1+1\n2\n>>> ")
        recorder.input([0x04], screen: [], output: "1/0\nTraceback (most recent call last):\nZeroDivisionError: division by zero\n>>> ")
        recorder.finish(.exited(.exited(0)), screen: [], output: "\n")
        #expect(recorder.flowText == """
            # Recorded with harness record.
            app python3 -q
            size 80x24
            launch
            expect-output ">>>"
            type "1+1"
            press enter
            expect-output "2"
            expect-output ">>>"
            type "1/0"
            press enter
            expect-output "ZeroDivisionError: division by zero"
            expect-output ">>>"
            press ctrl-d
            exit 0

            """)
        // The flow it wrote parses.
        _ = try FlowParser.parse(recorder.flowText, file: "r.flow", directory: "/tmp")
    }

    @Test func shellSessionBecomesTypeAndPressWithExpectsOfNewOutput() throws {
        var recorder = FlowRecorder(app: "bc", arguments: ["-q"], size: TerminalSize(cols: 60, rows: 10))
        // Typed one key at a time: the echo is not output worth expecting.
        recorder.input(Array("2".utf8), screen: [""])
        recorder.input(Array("+".utf8), screen: ["2"])
        recorder.input(Array("3".utf8), screen: ["2+"])
        recorder.input([0x0D], screen: ["2+3"])
        recorder.input(Array("quit".utf8), screen: ["2+3", "5", ""])
        recorder.input([0x0D], screen: ["2+3", "5", "quit"])
        recorder.finish(.exited(.exited(0)), screen: ["2+3", "5", "quit"])
        #expect(recorder.flowText == """
            # Recorded with harness record.
            app bc -q
            size 60x10
            launch
            type "2+3"
            press enter
            expect "5"
            type "quit"
            press enter
            exit 0

            """)
        let script = try FlowParser.parse(recorder.flowText, file: "rec.flow", directory: "/tmp")
        #expect(script.steps.map(\.command.flowText) == recorder.commands.map(\.flowText))
    }

    @Test func fullScreenChangesExpectTheLowestNewLineAndKillEndsIt() {
        var recorder = FlowRecorder(app: "./todo", arguments: [], size: TerminalSize(cols: 40, rows: 5))
        recorder.input([0x0D], screen: ["", "  Todos", "  [ Start ]", "", "Enter: start · q: quit"])
        recorder.input([0x1B, 0x5B, 0x42, 0x1B, 0x5B, 0x42], screen: ["Todos (2)", "[ ] Buy milk", "[ ] Walk", "", "q quit"])
        recorder.input([0x1B, 0x5B, 0x42], screen: ["Todos (2)", "[ ] Buy milk", "[ ] Walk", "", "q quit"])
        recorder.resize(to: TerminalSize(cols: 50, rows: 6), screen: ["Todos (2)", "[ ] Buy milk", "[ ] Walk", "", "q quit"])
        recorder.finish(.killed, screen: ["Todos (2)", "", "", "", "", "bye"])
        #expect(recorder.commands == [
            .app(FlowApp(written: "./todo", arguments: [], flowDirectory: "")),
            .size(TerminalSize(cols: 40, rows: 5)),
            .launch,
            .expect(.text("Enter: start · q: quit"), within: nil),
            .press([.enter]),
            .expect(.text("q quit"), within: nil),
            .press([.down, .down, .down]),
            .resize(TerminalSize(cols: 50, rows: 6)),
            .expect(.text("bye"), within: nil),
            .kill,
        ])
    }

    @Test func signalsEndAsExitStatusesAndSpecialCharactersAreQuoted() throws {
        var recorder = FlowRecorder(app: "my tool", arguments: ["--name", "a b"], size: TerminalSize(cols: 80, rows: 24))
        recorder.input(Array("say \"#1\"".utf8), screen: [])
        recorder.input(Array("#".utf8), screen: [])
        recorder.finish(.exited(.signaled(15)), screen: [])
        let text = recorder.flowText
        #expect(text.contains("app \"my tool\" --name \"a b\"\n"))
        #expect(text.contains("type \"say \\\"#1\\\"#\"\n"))
        #expect(text.hasSuffix("exit 143\n"))
        let script = try FlowParser.parse(text, file: "rec.flow", directory: "/tmp")
        #expect(script.steps.map(\.command.flowText) == recorder.commands.map(\.flowText))
    }

    @Test func everyCommandsFlowTextParsesBack() throws {
        let source = """
            app ./todo --flag "two words"
            env NAME="a value"
            env EMPTY=
            size 100x30
            timeout 1.5s
            stub GET /todos 200 json todos.json delay 20ms
            stub POST /todos 201 text "created \\"x\\""
            stub GET /hang hang
            stub GET /close close
            stub GET /seq sequence 500,200 json todos.json
            seed todos.json as data/todos.json
            launch
            type "hi\\tthere\\e"
            press enter ctrl-c alt-x f5 "#" pgup
            paste "a\\nb"
            resize 90x20
            expect "Loading…" within 2s
            expect /\\d+ todos\\/day/
            expect-not "Oops"
            wait-stable 200ms
            snapshot loaded-screen
            spy database.save count 1
            spy database.save last saved.json
            event state sequence idle, "with space", loaded
            file todos.json exists
            file other.json missing
            file todos.json equals sorted.json
            requests GET /todos count 2
            exit 130
            """
        let script = try FlowParser.parse(source, file: "all.flow", directory: "/flows")
        let rendered = script.steps.map(\.command.flowText).joined(separator: "\n")
        let again = try FlowParser.parse(rendered, file: "all.flow", directory: "/flows")
        #expect(again.steps.map(\.command) == script.steps.map(\.command))
    }
}
