import Foundation
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

/// The keyword table (``FlowKeyword``) is the one declaration of the flow language: every
/// keyword parses, prints back, is checked in order by its phase and needs, and is listed in
/// docs/FLOWS.md's command reference exactly as the table says.
@Suite struct FlowKeywordTableTests {
    /// Lines of every form of every keyword. A keyword added to the table without lines here
    /// fails ``everyKeywordHasSampleLines``.
    static let samples: [FlowKeyword: [String]] = [
        .app: [#"app ./todo --flag "two words""#, "app bc -q"],
        .env: ["env API_MODE=fast", #"env GREETING="hello world""#, "env EMPTY="],
        .size: ["size 120x40"],
        .clock: ["clock 2023-11-14T22:13:20Z"],
        .timeout: ["timeout 1.5s"],
        .stub: ["stub GET /todos 200 json todos.json", #"stub GET /t 500 text "boom" delay 2s"#, "stub GET /slow hang",
                "stub GET /drop close", "stub GET /todos sequence 500,200 json todos.json",
                "stub POST /todos body json new.json 201", #"stub GET /todos query page "2" header Accept contains "json" 200"#,
                "stub POST /log header X-Id /[0-9]+/ body /.*error.*/ 204"],
        .seed: ["seed fixtures/todos.json as todos.json"],
        .launch: ["launch", "launch pipes"],
        .type: [#"type "hello world""#],
        .press: [##"press enter ctrl-c "#" q"##],
        .paste: [#"paste "a\nb""#],
        .resize: ["resize 100x30"],
        .click: [#"click "OK""#, "click 3,10"],
        .doubleClick: [#"double-click "notes.txt""#],
        .drag: [#"drag 1,0 to "end""#],
        .scroll: ["scroll down 3 at 5,0", #"scroll up at "Log""#],
        .hover: [#"hover "Help""#, "hover 2,7"],
        .focus: ["focus in", "focus out"],
        .expect: [#"expect "Todos" within 2s"#, #"expect /O+ps/ in rows 2-10 style bold fg=red within 1s"#],
        .expectNot: [#"expect-not "Error""#, "expect-not /Err(or)?/", #"expect-not "Oops" in rows 1-2 style bold fg=red"#,
                     #"expect-not "Error" for 2s"#],
        .expectGone: [#"expect-gone "Saving…""#, #"expect-gone /\d+%/ in rows 2-3 within 5s"#],
        .expectOutput: [#"expect-output ">>>" within 2s"#, "expect-output /^45$/"],
        .expectOutputNot: [#"expect-output-not "Error""#],
        .waitStable: ["wait-stable 300ms", "wait-stable 1s in rows 0-3 cols 2-9"],
        .expectCommand: ["expect-command", "expect-command within 10s"],
        .commandStatus: ["command-status 3"],
        .expectTitle: [#"expect-title "vim - notes.txt""#, "expect-title /^vim/ within 2s"],
        .expectClipboard: [#"expect-clipboard "copied text""#, "expect-clipboard /^https:/ within 2s"],
        .snapshot: ["snapshot loaded", #"snapshot list between "Todos" and "q quit" exclusive"#],
        .snapshotTranscript: ["snapshot-transcript all"],
        .spy: ["spy database.save count 1", "spy database.save last saved.json"],
        .event: [#"event state sequence idle, "with space", loaded"#],
        .file: ["file todos.json exists", "file todos.json missing", "file data/todos.json equals expected.json"],
        .requests: ["requests GET /todos?page=2 count 2"],
        .expectRequest: ["expect-request POST /todos body json new.json", #"expect-request POST /todos body contains "Milk" count 1"#,
                         "expect-request GET /todos header Authorization /Bearer .+/ count 0"],
        .include: ["include common/setup.inc"],
        .exit: ["exit 3"],
        .kill: ["kill"],
        .call: [#"call state "{\"id\": 1}" equals state.json"#, "call __names", #"call reset equals "0""#],
        .probe: [#"probe items equals "[1, 2]""#],
        .given: ["given three", "given json fixtures/two.json"],
        .set: ["set greeting=Hi", "set mode="],
        .carrier: ["carrier arguments"],
        .tag: ["tag smoke", "tag nightly slow-network"],
        .matrix: ["matrix size=80x24,40x12", "matrix size=80x24 theme=dark,light color=on,off"],
        .stdin: [#"stdin "b\na\n""#, "stdin file input.txt"],
        .stdout: [#"stdout contains "x""#, "stdout matches /^a$/", "stdout equals out.txt", "stdout empty", "stdout snapshot sorted"],
        .stderr: [#"stderr contains "x""#, "stderr empty"],
    ]

    /// Parses one line on its own (no order checks), as the parser reads every line.
    static func command(_ line: String) throws -> FlowCommand {
        let parser = FlowParser.LineParser(scanner: FlowLineScanner(Substring(line), file: "t.flow", line: 1), directory: "/flows")
        return try #require(try parser.parseLine()?.command)
    }

    static var allSamples: [(FlowKeyword, String)] {
        samples.sorted { $0.key.rawValue < $1.key.rawValue }.flatMap { keyword, lines in lines.map { (keyword, $0) } }
    }

    @Test func everyKeywordHasSampleLines() {
        #expect(Set(Self.samples.keys) == Set(FlowKeyword.allCases), "keywords without samples: \(Set(FlowKeyword.allCases).subtracting(Self.samples.keys))")
    }

    @Test(arguments: allSamples)
    func everyLineParsesToItsKeywordAndPrintsBack(keyword: FlowKeyword, line: String) throws {
        let command = try Self.command(line)
        #expect(command.keyword == keyword)
        let printed = command.flowText
        #expect(printed.hasPrefix(keyword.rawValue))
        #expect(try Self.command(printed) == command, "printed as \(printed)")
    }

    /// The files a command names are checked by `load` only when its keyword needs files.
    @Test(arguments: allSamples)
    func aCommandThatNamesFilesHasAKeywordThatNeedsThem(keyword: FlowKeyword, line: String) throws {
        let command = try Self.command(line)
        if !command.written.files.isEmpty {
            #expect(keyword.definition.needs.union(keyword.definition.needsBeforeLaunch).contains(.files))
        }
    }

    @Test func theUnknownCommandErrorAndSuggestionsComeFromTheTable() {
        #expect(FlowParser.commandNames == FlowKeyword.allCases.map(\.rawValue))
        #expect(parseErrors("app ./t\nlaunch\nexpect-nott \"x\"") == [#"3:1: unknown command "expect-nott" (did you mean "expect-not"?)"#])
    }

    // MARK: - Order checks from the phases and needs

    /// A flow around `line`, launching the way the keyword needs.
    static func flow(_ keyword: FlowKeyword, before: [String] = [], after: [String] = []) -> String {
        let launch = keyword.definition.needs.contains(.pipes) ? "launch pipes" : "launch"
        return (["app ./t"] + before + [launch] + after).joined(separator: "\n")
    }

    static var phasedSamples: [(FlowKeyword, String)] {
        FlowKeyword.allCases.compactMap { keyword in
            // `include` reads its file when parsed: FlowIncludeTests checks where it may be.
            guard keyword != .app, keyword != .launch, keyword != .include, let line = samples[keyword]?.first else { return nil }
            return (keyword, line)
        }
    }

    @Test(arguments: phasedSamples)
    func theOrderChecksFollowThePhase(keyword: FlowKeyword, line: String) {
        let name = keyword.rawValue
        let beforeLaunch = parseErrors(Self.flow(keyword, before: [line]))
        let afterLaunch = parseErrors(Self.flow(keyword, after: [line]))
        let afterKill = parseErrors(Self.flow(keyword, after: ["kill", line]))
        switch keyword.definition.phase {
        case .setup:
            #expect(beforeLaunch == [])
            #expect(afterLaunch == ["3:1: \(name) must come before launch"])
        case .running, .ending:
            #expect(beforeLaunch == ["2:1: \(name) needs the running app: put it after launch"])
            #expect(afterLaunch == [])
            #expect(afterKill == ["4:1: \(name) needs the running app, but kill on line 3 ended it"])
        case .afterLaunch:
            #expect(beforeLaunch == ["2:1: \(name) needs the running app: put it after launch"])
            #expect(afterLaunch == [])
            #expect(afterKill == [])
        case .anywhere:
            #expect(beforeLaunch == [] && afterLaunch == [] && afterKill == [])
        case .setupThenRunning:
            #expect(beforeLaunch == [] && afterLaunch == [])
            #expect(afterKill == ["4:1: \(name) needs the running app, but kill on line 3 ended it"])
        case .launch:
            Issue.record("launch is not sampled here")
        }
    }

    @Test(arguments: phasedSamples)
    func aCommandOfTheOtherKindOfRunIsAnError(keyword: FlowKeyword, line: String) {
        let definition = keyword.definition
        let position = definition.phase == .setup ? "2:1" : "3:1"
        let placed = { (launch: String) in
            (definition.phase == .setup ? ["app ./t", line, launch] : ["app ./t", launch, line]).joined(separator: "\n")
        }
        let inPipes = parseErrors(placed("launch pipes"))
        let inTerminal = parseErrors(placed("launch"))
        let after = definition.phase != .setup
        if definition.needs(afterLaunch: after).contains(.terminal) {
            #expect(inPipes.first?.hasPrefix("\(position): `\(keyword.rawValue)` needs a terminal") == true, "\(inPipes)")
        } else {
            #expect(inPipes == [])
        }
        if definition.needs(afterLaunch: after).contains(.pipes) {
            #expect(inTerminal == ["\(position): `\(keyword.rawValue)` needs `launch pipes`: this flow launches in a terminal"])
        } else {
            #expect(inTerminal == [])
        }
    }

    // MARK: - docs/FLOWS.md's command reference

    static let document = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/FLOWS.md")

    /// The rows the table gives: `| `usage`<br>`usage` | phase | summary |`.
    static var expectedRows: [String] {
        FlowKeyword.allCases.map { keyword in
            let usages = keyword.usages.map { "`" + $0.replacingOccurrences(of: "|", with: "\\|") + "`" }.joined(separator: "<br>")
            return "| \(usages) | \(keyword.definition.phase) | \(keyword.definition.summary) |"
        }
    }

    /// The rows of the table under the heading "## Command reference", header and rule left out.
    static func documentedRows(in text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let heading = lines.firstIndex(of: "## Command reference") else { return [] }
        let table = lines[(heading + 1)...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        return Array(table.dropFirst(2))
    }

    @Test func theDocsCommandReferenceListsExactlyTheTable() throws {
        let rows = Self.documentedRows(in: try String(contentsOf: Self.document, encoding: .utf8))
        #expect(rows == Self.expectedRows, """
            docs/FLOWS.md's "## Command reference" differs from the keyword table; it should read:
            | Command | When | What it does |
            |---|---|---|
            \(Self.expectedRows.joined(separator: "\n"))
            """)
    }

    @Test func theDocsCheckNoticesAMissingOrChangedRow() throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        let row = try #require(Self.expectedRows.first { $0.contains("`wait-stable") })
        #expect(Self.documentedRows(in: text.replacingOccurrences(of: row + "\n", with: "")) != Self.expectedRows)
        #expect(Self.documentedRows(in: text.replacingOccurrences(of: "for that long. |", with: "for so long. |")) != Self.expectedRows)
    }
}
