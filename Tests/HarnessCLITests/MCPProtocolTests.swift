import Foundation
import Harness
import HarnessSystem
import Stubs
import TestSupport
import Testing

/// `harness mcp` spoken to by hand: requests written to its standard input as lines of JSON,
/// its answers read back from standard output (the whole input is given at once: at its end
/// the server answers every request still in flight, then closes its sessions and exits).
@Suite struct MCPProtocolTests {
    /// The answers to `lines`, by request id, and what the server printed besides.
    struct Exchange {
        var answers: [JSONValue] = []
        var notifications: [JSONValue] = []
        var stdout = ""
        var stderr = ""
        var status: Int32 = 0

        /// The answer to request `id`.
        func answer(_ id: JSONValue) throws -> JSONValue {
            try #require(answers.first { $0.member("id") == id },
                         "no answer to \(id) (harness mcp exited \(status)) in:\n\(stdout)\nstderr:\n\(stderr)")
        }
    }

    func exchange(_ lines: [String], in folder: String? = nil, environment extra: [String: String] = [:],
                  options: [String] = []) async throws -> Exchange {
        let input = Data((lines.joined(separator: "\n") + "\n").utf8)
        let output = try await runProduct("harness", ["mcp"] + options, input: input, environment: testEnvironment.merging(extra) { $1 },
                                          workingDirectory: folder)
        var exchange = Exchange(stdout: output.stdout, stderr: output.stderr, status: output.status)
        for line in output.stdout.split(separator: "\n") {
            let message = try #require(try? JSONValue(parsing: String(line)), "not JSON on stdout: \(line)")
            if message.member("id") != nil { exchange.answers.append(message) } else { exchange.notifications.append(message) }
        }
        return exchange
    }

    static func request(_ id: Int, _ method: String, _ params: String = "{}") -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#
    }

    static func call(_ id: Int, _ tool: String, _ arguments: String) -> String {
        request(id, "tools/call", #"{"name":"\#(tool)","arguments":\#(arguments)}"#)
    }

    @Test func initializeNegotiatesTheVersionAndEveryLineIsOneMessage() async throws {
        let exchange = try await exchange([
            Self.request(1, "initialize", #"{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}"#),
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            Self.request(2, "initialize", #"{"protocolVersion":"1999-01-01","capabilities":{},"clientInfo":{"name":"t","version":"1"}}"#),
            Self.request(3, "ping"),
        ])
        #expect(exchange.status == 0)
        #expect(exchange.answers.count == 3)
        #expect(exchange.notifications.isEmpty)
        #expect(try exchange.answer(1).member("result")?.member("protocolVersion") == .string("2025-06-18"))
        #expect(try exchange.answer(2).member("result")?.member("protocolVersion") == .string("2025-11-25"))
        #expect(try exchange.answer(1).member("result")?.member("capabilities")?.member("tools") != nil)
        #expect(try exchange.answer(3).member("result") == .object([:]))
    }

    @Test func toolsListGivesEveryToolWithASchema() async throws {
        let exchange = try await exchange([Self.request(1, "tools/list")])
        let tools = try #require(try exchange.answer(1).member("result")?.member("tools")?.elements)
        let names = tools.compactMap { $0.member("name")?.text }
        #expect(names == ["launch", "type", "press", "paste", "click", "scroll", "hover", "resize", "wait_for", "screen",
                          "output", "snapshot", "requests", "call", "spy", "save_flow", "close"])
        for tool in tools {
            #expect(tool.member("inputSchema")?.member("type") == .string("object"))
            #expect((tool.member("description")?.text ?? "").isEmpty == false)
        }
        // Where a tool does what a flow command does, its description quotes the keyword table.
        let press = try #require(tools.first { $0.member("name") == .string("press") }?.member("description")?.text)
        #expect(press.contains("`press KEY [KEY...]` (Presses keys, in order)"))
    }

    @Test func malformedRequestsGetTheirErrorCodesAndTheServerKeepsServing() async throws {
        let exchange = try await exchange([
            "this is not json",
            "[1, 2]",
            #"{"jsonrpc":"1.0","id":3,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":{"no":1},"method":"ping"}"#,
            Self.request(5, "no/such/method"),
            Self.request(6, "tools/call", #"{"arguments":{}}"#),
            Self.request(7, "tools/call", #"{"name":"no_such_tool","arguments":{}}"#),
            Self.request(8, "tools/call", #"{"name":"screen","arguments":[1]}"#),
            Self.request(9, "ping"),
        ])
        let errors = exchange.answers.compactMap { answer -> Int? in answer.member("error")?.member("code")?.integer }
        #expect(errors.filter { $0 == -32700 }.count == 1)
        #expect(errors.filter { $0 == -32600 }.count == 3)
        #expect(try exchange.answer(3).member("error")?.member("code")?.integer == -32600)
        #expect(try exchange.answer(5).member("error")?.member("code")?.integer == -32601)
        #expect(try exchange.answer(6).member("error")?.member("code")?.integer == -32602)
        #expect(try exchange.answer(7).member("error")?.member("code")?.integer == -32602)
        #expect(try exchange.answer(8).member("error")?.member("code")?.integer == -32602)
        #expect(try exchange.answer(9).member("result") == .object([:]))
    }

    @Test func toolErrorsAreResultsWithTheFlowsMessage() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let exchange = try await exchange([
            Self.call(1, "screen", #"{"session":"s99"}"#),
            Self.call(2, "launch", #"{"program":"no-such-program-anywhere"}"#),
            Self.call(3, "launch", #"{"program":"/bin/sh","args":["-c","echo ready; exec cat"],"size":"40x5"}"#),
            Self.call(4, "wait_for", #"{"session":"s2","text":"ready"}"#),
            Self.call(5, "wait_for", #"{"session":"s2","text":"never shown","within":"300ms"}"#),
            Self.call(6, "press", #"{"session":"s2","keys":["entr"]}"#),
            Self.call(7, "type", #"{"session":"s2","text":5}"#),
            Self.call(8, "close", #"{"session":"s2"}"#),
            Self.request(9, "ping"),
        ], in: folder.path)
        func result(_ id: Int) throws -> JSONValue { try #require(try exchange.answer(.number(Double(id))).member("result")) }
        func message(_ id: Int) throws -> String { try result(id).member("content")?.elements?.first?.member("text")?.text ?? "" }

        #expect(try result(1).member("isError") == .bool(true))
        #expect(try message(1).contains(#"no session "s99""#))
        #expect(try result(2).member("isError") == .bool(true))
        #expect(try message(2).contains("no-such-program-anywhere is not installed"))
        #expect(try result(3).member("structuredContent")?.member("session") == .string("s2"))
        #expect(try result(4).member("isError") == .bool(false))
        #expect(try result(4).member("structuredContent")?.member("text")?.text?.contains("ready") == true)
        // The wait's failure is the flow's: what it waited for, its limit, and the screen.
        #expect(try result(5).member("isError") == .bool(true))
        #expect(try message(5).hasPrefix(#"expect "never shown" within 300ms: Timed out after 300 ms waiting for text "never shown"."#))
        #expect(try message(5).contains("ready"))
        #expect(try result(5).member("structuredContent")?.member("text")?.text?.contains("ready") == true)
        #expect(try message(6).contains(#"unknown key "entr""#))
        #expect(try message(7).contains(#"argument "text" must be a string"#))
        #expect(try result(8).member("structuredContent")?.member("status") != nil)
        #expect(try exchange.answer(9).member("result") == .object([:]))
    }

    @Test func theEndOfInputClosesEverySessionAndLeavesNoProcessNorSandbox() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let temporary = try TemporaryDirectory()  // the sandboxes' parent (TMPDIR)
        defer { temporary.remove() }
        // Each program leaves a grandchild in the background (the program's own death does not take
        // it along). s2, with pipes, hands its grandchild's pid through a FIFO to s1, whose screen
        // then shows it: once s1 shows "got", both grandchildren run.
        let fifo = folder.path + "/handover"
        #expect(try await runProgram("/usr/bin/mkfifo", [fifo]).status == 0)
        let exchange = try await exchange([
            Self.call(1, "launch", #"{"program":"/bin/sh","args":["-c","sleep 600 & read line < handover; echo got $line; wait"]}"#),
            Self.call(2, "launch", #"{"program":"/bin/sh","args":["-c","sleep 600 & echo $! > handover; wait"],"pipes":true}"#),
            Self.call(3, "wait_for", #"{"session":"s1","regex":"got [0-9]+"}"#),
        ], in: folder.path, environment: ["TMPDIR": temporary.path])
        #expect(exchange.status == 0)
        #expect(try exchange.answer(.number(3)).member("result")?.member("isError") == .bool(false), "\(exchange.stdout)")
        for id in [1, 2] {
            // Each program leads its process group: the group, the background sleep with it, is gone.
            let pid = try #require(try exchange.answer(.number(Double(id))).member("result")?.member("structuredContent")?
                .member("pid")?.integer)
            let living = Posix.livingMembers(ofProcessGroup: Int32(pid))
            #expect(living.isEmpty, "processes \(living) of session s\(id) outlived harness mcp")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
        #expect(left.isEmpty, "left behind in TMPDIR: \(left)")
    }
}

extension JSONValue {
    /// The member `key` of an object.
    func member(_ key: String) -> JSONValue? { if case .object(let members) = self { members[key] } else { nil } }
    /// The elements of an array.
    var elements: [JSONValue]? { if case .array(let items) = self { items } else { nil } }
    /// The string.
    var text: String? { if case .string(let text) = self { text } else { nil } }
    /// The integer.
    var integer: Int? { if case .number(let number) = self { Int(exactly: number) } else { nil } }
}

extension MCPProtocolTests {
    @Test func aCancelledCallIsNotAnsweredAndAProgressTokenGetsProgress() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let exchange = try await exchange([
            Self.call(1, "launch", #"{"program":"/bin/sh","args":["-c","echo up; exec cat"]}"#),
            Self.request(2, "tools/call", #"{"name":"wait_for","arguments":{"session":"s1","text":"never shown","within":"120s"},"_meta":{"progressToken":"p2"}}"#),
            #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"test"}}"#,
            Self.request(3, "tools/call", #"{"name":"wait_for","arguments":{"session":"s1","text":"up"},"_meta":{"progressToken":7}}"#),
        ], in: folder.path)
        #expect(exchange.answers.contains { $0.member("id") == .number(2) } == false)
        #expect(try exchange.answer(.number(3)).member("result")?.member("isError") == .bool(false))
        let tokens = exchange.notifications.filter { $0.member("method") == .string("notifications/progress") }
            .compactMap { $0.member("params")?.member("progressToken") }
        #expect(tokens.contains(.number(7)))
    }

    @Test func savedFlowsNameTheirFilesFromTheirOwnFolder() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/bin/todo",
                                                   withDestinationPath: try BuildProducts.executable(named: "todo").path)
        try folder.write(#"[{"userId": 1, "id": 1, "title": "Buy milk", "completed": false}]"#, at: "data/todos.json")
        let exchange = try await exchange([
            Self.call(1, "launch", #"{"program":"bin/todo","stubs":["GET /todos 200 json data/todos.json"],"setup":["set api.timeout=86400"]}"#),
            Self.call(2, "wait_for", #"{"session":"s1","text":"[ Start ]"}"#),
            Self.call(3, "press", #"{"session":"s1","keys":["enter"]}"#),
            Self.call(4, "wait_for", #"{"session":"s1","text":"Buy milk"}"#),
            Self.call(5, "save_flow", #"{"session":"s1","path":"flows/todo.flow"}"#),
        ], in: folder.path)
        let flow = try #require(try exchange.answer(.number(5)).member("result")?.member("structuredContent")?.member("flow")?.text,
                                Comment(rawValue: exchange.stdout))
        #expect(flow.contains("app ../bin/todo\n"))
        #expect(flow.contains("stub GET /todos 200 json ../data/todos.json\n"))
        let run = try await runHarness(["run", "flows"], in: folder.path)
        #expect(run.lastLine == "1 passed, 0 failed", "\(flow)\n\(run.stdout)")
    }
}

extension MCPProtocolTests {
    @Test func callAndSpyGoThroughTheBridge() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let todo = try BuildProducts.executable(named: "todo").path
        let exchange = try await exchange([
            Self.call(1, "launch", #"{"program":"\#(todo)","bridge":true}"#),
            Self.call(2, "wait_for", #"{"session":"s1","text":"[ Start ]"}"#),
            Self.call(3, "call", #"{"session":"s1","name":"__spy.count","json":"{\"name\": \"database.save\"}"}"#),
            Self.call(4, "call", #"{"session":"s1","name":"no.such.probe"}"#),
            Self.call(5, "spy", #"{"session":"s1","name":"database.save"}"#),
        ], in: folder.path)
        func result(_ id: Int) throws -> JSONValue { try #require(try exchange.answer(.number(Double(id))).member("result")) }
        #expect(try result(3).member("structuredContent")?.member("reply") == .number(0), "\(exchange.stdout)")
        #expect(try result(4).member("isError") == .bool(true))
        #expect(try result(4).member("structuredContent")?.member("error")?.text?
            .contains("the app refused the call: it exposes no probe or handler named no.such.probe") == true)
        #expect(try result(5).member("structuredContent")?.member("count") == .number(0))
    }
}

extension MCPProtocolTests {
    /// `snapshot` shows the agent the screen as a PNG (MCP image content) beside the framed text.
    @Test func aSnapshotCarriesThePNGOfTheScreen() async throws {
        let exchange = try await exchange([
            Self.call(1, "launch", #"{"program":"/bin/sh","args":["-c","echo ready; exec cat"],"size":"20x5"}"#),
            Self.call(2, "wait_for", #"{"session":"s1","text":"ready"}"#),
            Self.call(3, "snapshot", #"{"session":"s1","name":"ready"}"#),
        ])
        let content = try exchange.answer(3).member("result")?.member("content")
        let image = try #require(content?.elements?.first { $0.member("type") == "image" }, "no image in \(String(describing: content))")
        #expect(image.member("mimeType") == "image/png")
        let data = try #require(image.member("data")?.text.flatMap { Data(base64Encoded: $0) })
        let bytes = [UInt8](data)
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "not a PNG")
        // IHDR: width and height, big-endian, after the signature, the chunk's length and type.
        func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        #expect(bytes.count > 24 && word(16) == 20 * 8 && word(20) == 5 * 16, "a 20x5 screen is 160x80 pixels")
    }

    @Test func everyCallIsInTheSessionsReportThatMergeReportsShows() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        _ = try await exchange([
            Self.call(1, "launch", #"{"program":"/bin/sh","args":["-c","echo up; exec cat"]}"#),
            Self.call(2, "wait_for", #"{"session":"s1","text":"up"}"#),
            Self.call(3, "type", #"{"session":"s1","text":"hello\r"}"#),
            Self.call(4, "screen", #"{"session":"s1"}"#),
            Self.call(5, "wait_for", #"{"session":"s1","text":"never","within":"100ms"}"#),
            Self.call(6, "close", #"{"session":"s1"}"#),
        ], in: folder.path, options: ["--artifacts", "artifacts"])
        let merged = try await runHarness(["merge-reports", "merged", "artifacts"], in: folder.path)
        #expect(merged.status == 0, "\(merged.stdout)\(merged.stderr)")
        let results = try String(contentsOfFile: folder.path + "/merged/results.json", encoding: .utf8)
        for step in [#"expect \"up\""#, #"type \"hello\\r\""#, "# screen", #"expect \"never\" within 100ms"#] {
            #expect(results.contains(step), "the report lacks \(step)")
        }
        #expect(results.contains("mcp\\/s1") || results.contains("mcp/s1"))
    }
}

