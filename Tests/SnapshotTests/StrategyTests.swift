import Foundation
import Harness
import TerminalEmulator
import TestSupport
import Testing

private struct Settings: Encodable {
    var name: String
    var zoom: Double
    var tags: [String]
    var path: String
}

private struct Todo {
    var title: String
    var done: Bool
}

@Suite struct StrategyTests {
    @Test func jsonIsPrettyWithSortedKeys() throws {
        let text = try SnapshotStrategy<Settings, String>.json.snapshot(Settings(name: "a", zoom: 1.5, tags: ["x"], path: "/tmp/a"))
        #expect(text == """
            {
              "name" : "a",
              "path" : "/tmp/a",
              "tags" : [
                "x"
              ],
              "zoom" : 1.5
            }
            """)
        #expect(SnapshotStrategy<Settings, String>.json.pathExtension == "json")
    }

    @Test func jsonEncodingErrorsFailTheAssertionClearly() throws {
        try withTemporaryDirectory { folder in
            let message = verifySnapshot(of: [Double.nan], as: .json, named: "nan", record: .missing, snapshotDirectory: folder)
            #expect(message?.contains("could not encode") == true)
            #expect(fileNames(in: folder).isEmpty)
        }
    }

    @Test func dumpShowsTheValuesStructure() throws {
        let text = try SnapshotStrategy<Todo, String>.dump.snapshot(Todo(title: "milk", done: false))
        #expect(text.contains("title: \"milk\""))
        #expect(text.contains("done: false"))
        #expect(!text.hasSuffix("\n"))
    }

    @Test func linesAndStringKeepTheText() throws {
        #expect(try SnapshotStrategy<String, String>.lines.snapshot("a\nb") == "a\nb")
        #expect(try SnapshotStrategy<String, String>.string.snapshot("z") == "z")
        let diffing = SnapshotDiffing<String>.lines
        #expect(diffing.fromData(diffing.toData("a\nb")) == "a\nb")
        #expect(diffing.fromData(diffing.toData("ends with newline\n")) == "ends with newline\n")
        #expect(diffing.fromData(Data([0xFF, 0xFE, 0x00])) == nil)
    }

    @Test func pullbackMakesAStrategyForANewType() throws {
        let titles: SnapshotStrategy<[Todo], String> = SnapshotStrategy<String, String>.lines.pullback { todos in
            todos.map { ($0.done ? "[x] " : "[ ] ") + $0.title }.joined(separator: "\n")
        }
        #expect(try titles.snapshot([Todo(title: "milk", done: true), Todo(title: "eggs", done: false)]) == "[x] milk\n[ ] eggs")
        try withTemporaryDirectory { folder in
            #expect(verifySnapshot(of: [Todo(title: "a", done: false)], as: titles, named: "t", record: .missing, snapshotDirectory: folder) != nil)
            #expect(verifySnapshot(of: [Todo(title: "a", done: false)], as: titles, named: "t", record: .never, snapshotDirectory: folder) == nil)
        }
    }

    @Test func pullbackCarriesTheScreenPictureAlong() throws {
        let fromText: SnapshotStrategy<String, String> = SnapshotStrategy<ScreenSnapshot, String>.framedScreen.pullback { text in
            let terminal = Terminal(cols: 6, rows: 1)
            terminal.feed(text)
            return terminal.snapshot()
        }
        #expect(fromText.companions.map(\.pathExtension) == ["svg"])
        try withTemporaryDirectory { folder in
            _ = verifySnapshot(of: "hi", as: fromText, named: "p", record: .missing, snapshotDirectory: folder)
            #expect(fileNames(in: folder) == ["pullbackCarriesTheScreenPictureAlong.p.svg", "pullbackCarriesTheScreenPictureAlong.p.txt"])
        }
    }

    @Test func aThrowingTransformFailsTheAssertion() throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "no screen yet" } }
        let strategy: SnapshotStrategy<Int, String> = SnapshotStrategy<String, String>.lines.pullback { (_: Int) throws -> String in throw Broken() }
        try withTemporaryDirectory { folder in
            let message = verifySnapshot(of: 1, as: strategy, named: "b", record: .missing, snapshotDirectory: folder)
            #expect(message?.contains("no screen yet") == true)
        }
    }

    @Test func framedScreenIsTheFramedText() throws {
        let screen = ScreenFixtures.plain()
        #expect(try SnapshotStrategy<ScreenSnapshot, String>.framedScreen.snapshot(screen) == screen.framed())
        #expect(SnapshotStrategy<ScreenSnapshot, String>.framedScreen.withoutCompanions.companions.isEmpty)
    }

    @Test func styledScreenAddsRunsOfNonPlainAttributes() throws {
        let terminal = Terminal(cols: 16, rows: 3)
        terminal.feed("\u{1B}[1;31mError\u{1B}[0m ok \u{1B}[7;44mX\u{1B}[0m\r\n\r\n\u{1B}[38;5;208;48;2;1;2;3;4;9mz\u{1B}[0m")
        let text = try SnapshotStrategy<ScreenSnapshot, String>.styledScreen.snapshot(terminal.snapshot())
        let layer = text.components(separatedBy: "\nstyle:\n").last ?? ""
        #expect(text.hasPrefix(terminal.snapshot().framed() + "\nstyle:\n"))
        #expect(layer == """
            row 0 cols 0-4: fg=red bold
            row 0 col 9: bg=blue inverse
            row 2 col 0: fg=208 bg=#010203 underline strikethrough
            """)
        #expect(try SnapshotStrategy<ScreenSnapshot, String>.styledScreen.snapshot(ScreenFixtures.plain()).hasSuffix("\nstyle: plain"))
    }

    @Test func colorNamesCoverEveryKind() {
        #expect(ScreenStyleLayer.name(of: .indexed(0)) == "black")
        #expect(ScreenStyleLayer.name(of: .indexed(12)) == "bright-blue")
        #expect(ScreenStyleLayer.name(of: .indexed(231)) == "231")
        #expect(ScreenStyleLayer.name(of: .rgb(255, 135, 0)) == "#ff8700")
        #expect(ScreenStyleLayer.describe(CellAttributes(dim: true, italic: true, blink: true, hidden: true)) == "dim italic blink hidden")
    }

    @Test func maskingTextAppliesToTheStrategysOutput() throws {
        let strategy = SnapshotStrategy<String, String>.lines.maskingText([.regex(#"pid \d+"#, fill: "#")])
        #expect(try strategy.snapshot("started pid 4242 ok") == "started ######## ok")
    }
}
