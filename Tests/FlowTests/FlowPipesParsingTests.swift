import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

/// `stdin`, `launch pipes` and the `stdout`/`stderr` checks: what they parse to, how they print
/// back, and every mistake the parser reports about them.
@Suite struct FlowPipesParsingTests {
    /// Parses `app ./tool`, `setup`, `launch pipes`, then `after`, in folder `/flows`.
    static func parsePipes(setup: [String] = [], after: [String] = []) throws -> FlowScript {
        let source = (["app ./tool"] + setup + ["launch pipes"] + after).joined(separator: "\n")
        return try FlowParser.parse(source, file: "t.flow", directory: "/flows")
    }

    static let checkCases: [(String, FlowCommand)] = [
        (#"stdout contains "apple""#, .streamCheck(.stdout, .contains("apple"))),
        ("stdout contains apple", .streamCheck(.stdout, .contains("apple"))),
        (#"stderr contains "no such file\n""#, .streamCheck(.stderr, .contains("no such file\n"))),
        (#"stdout matches /^\d+ lines$/"#, .streamCheck(.stdout, .matches(#"^\d+ lines$"#))),
        (#"stderr matches /a\/b/"#, .streamCheck(.stderr, .matches("a/b"))),
        ("stdout equals expected/out.txt", .streamCheck(.stdout, .equals(FlowFileReference(written: "expected/out.txt", directory: "/flows")))),
        ("stderr equals /abs/err.txt", .streamCheck(.stderr, .equals(FlowFileReference(written: "/abs/err.txt", directory: "/flows")))),
        ("stdout empty", .streamCheck(.stdout, .empty)),
        ("stderr empty # nothing went wrong", .streamCheck(.stderr, .empty)),
        ("stdout snapshot sorted", .streamCheck(.stdout, .snapshot(name: "sorted"))),
        ("stderr snapshot usage-80", .streamCheck(.stderr, .snapshot(name: "usage-80"))),
    ]

    @Test(arguments: checkCases)
    func streamChecksParse(line: String, expected: FlowCommand) throws {
        let script = try Self.parsePipes(after: [line])
        #expect(script.steps.last?.command == expected)
        #expect(script.steps.last?.position == SourcePosition(file: "t.flow", line: 3, column: 1))
        #expect(script.steps[1].command == .launchPipes)
        #expect(script.launchesWithPipes)
        #expect(script.launchIndex == 1)
    }

    static let inputCases: [(String, FlowStandardInput)] = [
        (#"stdin "pear\napple\n""#, .text("pear\napple\n")),
        ("stdin hello", .text("hello")),
        (#"stdin """#, .text("")),
        (#"stdin "file""#, .text("file")),
        ("stdin file fixtures/lines.txt", .file(FlowFileReference(written: "fixtures/lines.txt", directory: "/flows"))),
    ]

    @Test(arguments: inputCases)
    func standardInputParses(line: String, expected: FlowStandardInput) throws {
        let script = try Self.parsePipes(setup: [line])
        #expect(script.steps[1].command == .stdin(expected))
        #expect(script.standardInput == expected)
    }

    @Test func everyPipesCommandPrintsBackToItself() throws {
        let source = """
            app sort -r
            env LC_ALL=C
            stdin "b\\na \\"quoted\\"\\n"
            stub GET /x 200
            seed s.json as s.json
            clock 2023-11-14T22:13:20Z
            launch pipes
            stdout contains "a \\"quoted\\""
            stdout matches /^b\\/c$/
            stdout equals "out file.txt"
            stderr empty
            stdout snapshot sorted
            stderr snapshot errors
            exit 0
            file s.json exists
            requests GET /x count 0
            """
        let script = try FlowParser.parse(source, file: "all.flow", directory: "/flows")
        let rendered = script.steps.map(\.command.flowText).joined(separator: "\n")
        #expect(rendered.contains("launch pipes\n"))
        let again = try FlowParser.parse(rendered, file: "all.flow", directory: "/flows")
        #expect(again.steps.map(\.command) == script.steps.map(\.command))
        let fromFile = try FlowParser.parse("app ./t\nstdin file \"in put.txt\"\nlaunch pipes\nkill\nstdout empty", file: "f.flow", directory: "/flows")
        let fileText = fromFile.steps.map(\.command.flowText).joined(separator: "\n")
        #expect(fileText == "app ./t\nstdin file \"in put.txt\"\nlaunch pipes\nkill\nstdout empty")
    }

    @Test func aPipesRunWithoutStdinReadsNothingAndSpeaksTheProtocolOnlyWhenAsked() throws {
        let plain = try Self.parsePipes(after: ["exit 0"])
        #expect(plain.standardInput == nil)
        #expect(FlowExecutor.launchProtocol(for: plain) == .none)
        let stubbed = try Self.parsePipes(setup: ["stub GET /x 200"], after: ["requests GET /x count 1"])
        #expect(FlowExecutor.launchProtocol(for: stubbed) == .arguments)
        #expect(!(try parseFlow()).launchesWithPipes)
    }

    // MARK: - Errors

    static let terminalOnly = ["size 80x24", "type x", "press enter", "paste x", "resize 80x24", #"expect "x""#, "expect-not /x/",
                               "wait-stable 1s", "snapshot screen", "spy save count 1", "event state sequence a"]

    @Test(arguments: terminalOnly)
    func terminalCommandsAreErrorsInAPipesRun(line: String) {
        let keyword = String(line.prefix { $0 != " " })
        let setup = keyword == "size"
        let source = "app ./tool\n" + (setup ? line + "\nlaunch pipes" : "launch pipes\n" + line)
        let errors = parseErrors(source)
        let lineNumber = setup ? 2 : 3
        #expect(errors.count == 1, "got \(errors)")
        #expect(errors.first?.hasPrefix("\(lineNumber):1: `\(keyword)` needs a terminal: this flow launches with pipes") == true, "got \(errors)")
    }

    @Test func theHintsPointAtTheStreamChecks() {
        #expect(parseErrors("app ./t\nlaunch pipes\nexpect \"x\"") == [
            "3:1: `expect` needs a terminal: this flow launches with pipes (check the output with `stdout contains` or `stdout matches`)",
        ])
        #expect(parseErrors("app ./t\nlaunch pipes\nsnapshot s") == [
            "3:1: `snapshot` needs a terminal: this flow launches with pipes (use `stdout snapshot NAME`)",
        ])
        // A terminal command before `launch pipes` is about the terminal, not about the order.
        #expect(parseErrors("app ./t\npress enter\nlaunch pipes") == ["2:1: `press` needs a terminal: this flow launches with pipes"])
    }

    static let orderErrorCases: [(source: String, expected: [String])] = [
        ("app ./t\nlaunch pipes\nstdin \"x\"", ["3:1: stdin must come before launch"]),
        ("app ./t\nstdin a\nstdin b\nlaunch pipes", ["3:1: stdin (the standard input) already given on line 2"]),
        ("app ./t\nstdin a\nlaunch", ["2:1: `stdin` needs `launch pipes`: this flow launches in a terminal"]),
        ("app ./t\nlaunch\nstdout contains x", ["3:1: `stdout` needs `launch pipes`: this flow launches in a terminal"]),
        ("app ./t\nlaunch\nstderr empty", ["3:1: `stderr` needs `launch pipes`: this flow launches in a terminal"]),
        ("app ./t\nstdout empty\nlaunch pipes", ["2:1: stdout needs the running app: put it after launch"]),
        ("app ./t\nstdout empty", ["2:1: stdout needs the running app: put it after launch", "2:1: the flow never launches the app"]),
        ("app ./t\nlaunch\nlaunch pipes", ["3:1: launch (once per flow) already given on line 2"]),
        ("app ./t\nlaunch pipes\nlaunch pipes", ["3:1: launch (once per flow) already given on line 2"]),
        ("app ./t\nlaunch pipes\nstdout snapshot out\nstderr snapshot out", ["4:1: stderr snapshot out already given on line 3"]),
        ("app ./t\nlaunch pipes\nexit 0\nexit 0", ["4:1: exit needs the running app, but exit on line 3 ended it"]),
        ("app ./t\nlaunch pipes\nkill\nexit 0", ["4:1: exit needs the running app, but kill on line 3 ended it"]),
    ]

    @Test(arguments: orderErrorCases)
    func orderErrors(source: String, expected: [String]) {
        let errors = parseErrors(source)
        #expect(errors.count == expected.count, "got \(errors)")
        for (error, prefix) in zip(errors, expected) {
            #expect(error.hasPrefix(prefix), "got \(error)")
        }
    }

    static let lineErrors: [(line: String, expected: String)] = [
        ("stdout", #"3:7: stdout: missing "contains", "matches", "equals", "empty" or "snapshot""#),
        ("stdout contain x", #"3:8: unexpected "contain" (expected "contains", "matches", "equals", "empty" or "snapshot"; did you mean "contains"?)"#),
        (#"stdout contains """#, #"3:17: unexpected """" (expected non-empty text)"#),
        ("stdout contains", "3:16: stdout: missing the text to look for"),
        (#"stdout matches "x""#, #"3:16: unexpected "x" (expected a /regex/)"#),
        ("stdout matches /a(b/", "3:16: invalid regex /a(b/: it does not compile"),
        ("stdout matches //", "3:16: invalid regex //: the pattern is empty"),
        ("stderr matches", "3:15: stderr: missing a /regex/"),
        ("stdout equals", "3:14: stdout: missing the expected file"),
        ("stdout snapshot ../x", #"3:17: invalid name "../x": a snapshot name uses letters, digits, - _ and ."#),
        ("stdout empty now", #"3:14: unexpected "now" (expected the end of the line)"#),
        ("stderr contains a b", #"3:19: unexpected "b" (expected the end of the line)"#),
    ]

    @Test(arguments: lineErrors)
    func lineErrorHasPositionAndMessage(line: String, expected: String) {
        let errors = parseErrors("app ./t\nlaunch pipes\n" + line)
        #expect(errors == [expected])
    }

    static let setupLineErrors: [(source: String, expected: String)] = [
        ("app ./t\nlaunch pipe", #"2:8: unexpected "pipe" (expected "pipes" or the end of the line)"#),
        ("app ./t\nlaunch \"pipes\"", #"2:8: unexpected "pipes" (expected "pipes" or the end of the line)"#),
        ("app ./t\nstdin\nlaunch pipes", #"2:6: stdin: missing the input text ("...") or "file PATH""#),
        ("app ./t\nstdin file\nlaunch pipes", "2:11: stdin: missing the input file"),
        ("app ./t\nstdin a b\nlaunch pipes", #"2:9: unexpected "b" (expected the end of the line)"#),
    ]

    @Test(arguments: setupLineErrors)
    func setupLineErrorHasPositionAndMessage(source: String, expected: String) {
        #expect(parseErrors(source) == [expected])
    }

    @Test func loadChecksTheInputAndExpectedFilesExist() throws {
        let folder = try TemporaryDirectory(prefix: "flowtests").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try writeFile("app sort\nstdin file in.txt\nlaunch pipes\nstdout equals out.txt\n", at: "flows/p.flow", in: folder)
        #expect {
            try FlowParser.load(path: folder + "/flows/p.flow", displayName: "flows/p.flow")
        } throws: { error in
            let errors = (error as? FlowParseErrors)?.errors ?? []
            return errors.map(\.description) == [
                "flows/p.flow:2:1: file \"in.txt\" not found (looked at \(folder)/flows/in.txt)",
                "flows/p.flow:4:1: file \"out.txt\" not found (looked at \(folder)/flows/out.txt)",
            ]
        }
        try writeFile("b\na\n", at: "flows/in.txt", in: folder)
        try writeFile("a\nb\n", at: "flows/out.txt", in: folder)
        let script = try FlowParser.load(path: folder + "/flows/p.flow")
        #expect(script.standardInput == .file(FlowFileReference(written: "in.txt", directory: folder + "/flows")))
    }
}
