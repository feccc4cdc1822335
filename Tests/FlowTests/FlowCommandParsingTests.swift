import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

@Suite struct FlowCommandParsingTests {
    static let interactionCases: [(String, FlowCommand)] = [
        (#"type "hello world""#, .type("hello world")),
        ("type hello", .type("hello")),
        ("press enter", .press([.enter])),
        ("press ctrl-c alt-x f1 f12 pgup pgdn q", .press([.ctrl("c"), .alt(.character("x")), .f(1), .f(12), .pageUp, .pageDown, .character("q")])),
        (##"press "#""##, .press([.character("#")])),
        ("press esc escape backtab shift-tab space tab backspace", .press([.escape, .escape, .backTab, .backTab, .character(" "), .tab, .backspace])),
        ("press up down left right home end insert delete", .press([.up, .down, .left, .right, .home, .end, .insert, .delete])),
        (#"paste "a\nb""#, .paste("a\nb")),
        ("resize 100x30", .resize(TerminalSize(cols: 100, rows: 30))),
        (#"expect "Loading…""#, .expect(.text("Loading…"), within: nil)),
        (#"expect "Todos" within 2s"#, .expect(.text("Todos"), within: .seconds(2))),
        (#"expect /\d+ items/ within 500ms"#, .expect(.regex(#"\d+ items"#), within: .milliseconds(500))),
        (#"expect /a\/b/"#, .expect(.regex("a/b"), within: nil)),
        (#"expect-not "Error""#, .expectNot(.text("Error"))),
        ("expect-not /Err(or)?/", .expectNot(.regex("Err(or)?"))),
        ("wait-stable 300ms", .waitStable(.milliseconds(300))),
        ("snapshot loaded-80x24", .snapshot(name: "loaded-80x24")),
        ("spy database.save count 1", .spyCount(name: "database.save", count: 1)),
        ("spy database.save last saved.json", .spyLast(name: "database.save", file: FlowFileReference(written: "saved.json", directory: "/flows"))),
        ("event state sequence idle,loading,loaded", .eventSequence(name: "state", values: ["idle", "loading", "loaded"])),
        (#"event state sequence idle, "with space", loaded"#, .eventSequence(name: "state", values: ["idle", "with space", "loaded"])),
        ("file todos.json exists", .fileExists(name: "todos.json")),
        ("file todos.json missing", .fileMissing(name: "todos.json")),
        ("file data/todos.json equals expected/todos.json", .fileEquals(name: "data/todos.json", file: FlowFileReference(written: "expected/todos.json", directory: "/flows"))),
        ("requests GET /todos count 2", .requestCount(method: "GET", path: "/todos", count: 2)),
        ("timeout 1.5s", .timeout(.milliseconds(1500))),
        ("exit 0", .exit(code: 0)),
        ("kill", .kill),
    ]

    @Test(arguments: interactionCases)
    func interactionCommandParses(line: String, expected: FlowCommand) throws {
        let script = try parseFlow(after: [line])
        #expect(script.steps.last?.command == expected)
        #expect(script.steps.last?.position == SourcePosition(file: "t.flow", line: 3, column: 1))
    }

    static let setupCases: [(String, FlowCommand)] = [
        ("env API_MODE=fast", .env(name: "API_MODE", value: "fast")),
        (#"env GREETING="hello world""#, .env(name: "GREETING", value: "hello world")),
        ("env EMPTY=", .env(name: "EMPTY", value: "")),
        ("env LIST=a,b,c", .env(name: "LIST", value: "a,b,c")),
        ("size 120x40", .size(TerminalSize(cols: 120, rows: 40))),
        ("clock 2023-11-14T22:13:20Z", .clock(Date(timeIntervalSince1970: 1_700_000_000))),
        ("clock 2023-11-14T23:13:20+01:00", .clock(Date(timeIntervalSince1970: 1_700_000_000))),
        ("clock 2023-11-14T22:13:20.500Z", .clock(Date(timeIntervalSince1970: 1_700_000_000.5))),
        ("stub GET /todos 200 json todos.json", .stub(FlowStub(method: "GET", path: "/todos", response: .respond(status: 200, body: .json(FlowFileReference(written: "todos.json", directory: "/flows")), delay: nil)))),
        (#"stub GET /todos 500 text "boom" delay 2s"#, .stub(FlowStub(method: "GET", path: "/todos", response: .respond(status: 500, body: .text("boom"), delay: .seconds(2))))),
        ("stub POST /todos 204", .stub(FlowStub(method: "POST", path: "/todos", response: .respond(status: 204, body: .empty, delay: nil)))),
        ("stub GET /todos 200 delay 0ms", .stub(FlowStub(method: "GET", path: "/todos", response: .respond(status: 200, body: .empty, delay: .zero)))),
        ("stub GET /slow hang", .stub(FlowStub(method: "GET", path: "/slow", response: .hang))),
        ("stub GET /drop close", .stub(FlowStub(method: "GET", path: "/drop", response: .close))),
        ("stub GET /todos sequence 500,200 json /abs/t.json", .stub(FlowStub(method: "GET", path: "/todos", response: .sequence(statuses: [500, 200], json: FlowFileReference(written: "/abs/t.json", directory: "/flows"))))),
        ("stub GET /todos sequence 503, 503 ,200", .stub(FlowStub(method: "GET", path: "/todos", response: .sequence(statuses: [503, 503, 200], json: nil)))),
        ("seed fixtures/todos.json as todos.json", .seed(file: FlowFileReference(written: "fixtures/todos.json", directory: "/flows"), name: "todos.json")),
    ]

    @Test(arguments: setupCases)
    func setupCommandParses(line: String, expected: FlowCommand) throws {
        let script = try parseFlow(setup: [line])
        #expect(script.steps[1].command == expected)
        #expect(script.steps[1].position.line == 2)
    }

    @Test func theClockIsTheScriptsFrozenClockAndRoundTripsAsText() throws {
        let script = try parseFlow(setup: ["clock 2023-11-14T22:13:20Z"])
        #expect(script.frozenClock == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(script.steps[1].command.flowText == "clock 2023-11-14T22:13:20Z")
        #expect(FlowExecutor.launchProtocol(for: script) == .arguments)
    }

    @Test func appKeepsPathArgumentsAndFlowDirectory() throws {
        let script = try FlowParser.parse(#"app ../bin/todo --list "two words" -x # comment"# + "\nlaunch", file: "a.flow", directory: "/repo/Tests/Flows")
        #expect(script.app == FlowApp(written: "../bin/todo", arguments: ["--list", "two words", "-x"], flowDirectory: "/repo/Tests/Flows"))
    }

    @Test func fileReferencesResolveAgainstTheFlowFolder() throws {
        let script = try parseFlow(setup: ["seed ../fixtures/./t.json as t.json"])
        #expect(script.seeds.first?.file.absolutePath == "/fixtures/t.json")
        #expect(script.seeds.first?.file.written == "../fixtures/./t.json")
    }

    @Test func commentsBlankLinesAndCRLFAreIgnored() throws {
        let source = "# a flow\r\n\r\napp ./todo   # the app\r\n  launch\r\n\ttype \"a # not a comment\" # but this is\r\n"
        let script = try FlowParser.parse(source, file: "t.flow", directory: "/")
        #expect(script.steps.map(\.command) == [
            .app(FlowApp(written: "./todo", arguments: [], flowDirectory: "/")), .launch, .type("a # not a comment"),
        ])
        #expect(script.steps[1].position == SourcePosition(file: "t.flow", line: 4, column: 3))
        #expect(script.steps[2].position.column == 2)
    }

    @Test func scriptAccessorsCollectTheSetup() throws {
        let script = try parseFlow(
            setup: ["env A=1", "env B=2", "size 100x30", "stub GET /todos 200", "seed s.json as s.json"],
            after: ["spy save count 1", "requests GET /todos count 1"]
        )
        #expect(script.environment.map(\.name) == ["A", "B"])
        #expect(script.initialSize == TerminalSize(cols: 100, rows: 30))
        #expect(script.stubs.count == 1)
        #expect(script.seeds.map(\.name) == ["s.json"])
        #expect(script.stepsAfterLaunch.count == 2)
        #expect(script.usesBridge)
        #expect(script.usesStubServer)
        let plain = try parseFlow()
        #expect(plain.initialSize == TerminalSize(cols: 80, rows: 24))
        #expect(!plain.usesBridge && !plain.usesStubServer)
    }

    @Test func afterExitOnlyReadingCommandsAreAllowed() throws {
        let script = try parseFlow(after: ["exit 0", #"expect "bye""#, "snapshot final", "file out.txt exists", "requests GET /x count 0", "event state sequence done"])
        #expect(script.steps.count == 8)
    }

    @Test func loadChecksReferencedFilesAndUsesTheFileFolder() throws {
        let folder = try TemporaryDirectory(prefix: "flowtests").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try writeFile("[]", at: "flows/todos.json", in: folder)
        try writeFile("app ./todo\nstub GET /todos 200 json todos.json\nseed missing.json as a.json\nlaunch\n", at: "flows/a.flow", in: folder)
        #expect {
            try FlowParser.load(path: folder + "/flows/a.flow", displayName: "flows/a.flow")
        } throws: { error in
            let errors = (error as? FlowParseErrors)?.errors ?? []
            return errors.count == 1 && errors[0].position == SourcePosition(file: "flows/a.flow", line: 3, column: 1)
                && errors[0].kind == .missingFile(written: "missing.json", resolved: folder + "/flows/missing.json")
        }
        try writeFile("{}", at: "flows/missing.json", in: folder)
        let script = try FlowParser.load(path: folder + "/flows/a.flow")
        #expect(script.directory == folder + "/flows")
        #expect(script.file == folder + "/flows/a.flow")
    }

    @Test func unreadableFileIsAParseError() {
        #expect(throws: FlowParseErrors.self) { try FlowParser.load(path: "/nonexistent/x.flow") }
    }

    /// What cannot be read says why: a FIFO is not a regular file (and is never opened, so
    /// nothing blocks on it); bytes that are not UTF-8 are named with their offset, line and column.
    @Test func aFIFOAndBytesThatAreNotUTF8SayWhatTheyAre() throws {
        let folder = try TemporaryDirectory(prefix: "flowtests").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fifo = folder + "/pipe.flow"
        try #require(mkfifo(fifo, 0o600) == 0, "mkfifo \(fifo): errno \(errno)")
        #expect {
            try FlowParser.load(path: fifo, displayName: "pipe.flow")
        } throws: { error in
            let errors = (error as? FlowParseErrors)?.errors ?? []
            return errors.count == 1
                && errors[0].kind == .notARegularFile(path: fifo, type: "a FIFO (named pipe)")
                && errors[0].description == "pipe.flow:1:1: cannot read the flow file: \(fifo) is a FIFO (named pipe), not a regular file"
        }

        let latin1 = folder + "/latin1.flow"
        try Data(Array("app ./todo\nlaunch\ntype \"caf".utf8) + [0xE9] + Array("\"\n".utf8)).write(to: URL(fileURLWithPath: latin1))
        #expect {
            try FlowParser.load(path: latin1, displayName: "latin1.flow")
        } throws: { error in
            let errors = (error as? FlowParseErrors)?.errors ?? []
            return errors.count == 1 && errors[0].kind == .invalidUTF8(byte: 0xE9, offset: 27)
                && errors[0].description
                    == "latin1.flow:3:10: the flow file is not valid UTF-8: byte 0xE9 at offset 27 (save it as UTF-8)"
        }
    }

    @Test func appResolution() throws {
        let folder = try TemporaryDirectory(prefix: "flowtests").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try writeFile("#!/bin/sh\n", at: "bin/tool", in: folder)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder + "/bin/tool")
        #expect(try FlowApp(written: "bin/tool", arguments: [], flowDirectory: folder).resolveExecutable() == folder + "/bin/tool")
        #expect(try FlowApp(written: "tool", arguments: [], flowDirectory: "/").resolveExecutable(searchPath: "/nope:\(folder)/bin") == folder + "/bin/tool")
        #expect(try FlowApp(written: "sh", arguments: [], flowDirectory: folder).resolveExecutable(searchPath: "/bin:/usr/bin").hasSuffix("/sh"))
        #expect(throws: FlowAppResolutionError.notFound(name: "no-such-tool-xyz", searchPath: "/bin")) {
            try FlowApp(written: "no-such-tool-xyz", arguments: [], flowDirectory: folder).resolveExecutable(searchPath: "/bin")
        }
        #expect(throws: FlowAppResolutionError.self) {
            try FlowApp(written: "./missing", arguments: [], flowDirectory: folder).resolveExecutable()
        }
    }
}
