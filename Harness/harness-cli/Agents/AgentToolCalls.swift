import Foundation
import HarnessCore
import HarnessFlows
import Stubs
import TerminalEmulator

/// What a tool call gives back: text for the agent to read, the same facts as
/// `structuredContent`, and whether it is an error (`isError`: the step failed, an argument is
/// wrong, the session does not exist).
struct ToolResult: Sendable {
    /// The text content.
    var text: String
    /// The structured content.
    var structured: [String: JSONValue]
    /// Whether the call failed.
    var isError = false
    /// A PNG picture shown after the text (MCP image content), when the call has one.
    var png: [UInt8]? = nil

    /// An error result saying `message`.
    static func error(_ message: String, _ structured: [String: JSONValue] = [:]) -> ToolResult {
        var fields = structured
        fields["error"] = .string(message)
        return ToolResult(text: message, structured: fields, isError: true)
    }

    /// The `tools/call` result.
    var json: JSONValue {
        var content: [JSONValue] = [["type": "text", "text": .string(text)]]
        if let png { content.append(["type": "image", "mimeType": "image/png", "data": .string(Data(png).base64EncodedString())]) }
        return ["content": .array(content), "structuredContent": .object(structured), "isError": .bool(isError)]
    }
}

/// A bad argument: the message of the error result.
struct ToolArgumentError: Error {
    let message: String
}

/// Runs the tools of `harness mcp` (``AgentTool``): each builds the flow line that does the
/// same and runs it on the session's ``StepSession``, so waits and failures are the flows'.
struct AgentToolCalls: Sendable {
    /// The server's sessions.
    let sessions: AgentSessions
    /// Where sessions leave their reports (nil: nowhere).
    let artifactsDirectory: String?
    /// The default limit of waits.
    let defaultTimeout: Duration

    /// Runs the tool `name` with `arguments`; never throws: every problem is an error result.
    ///
    /// - Parameter session: the id a `launch` gives its session (default: the next one).
    func call(_ name: String, _ arguments: [String: JSONValue], session id: String? = nil) async -> ToolResult {
        guard let tool = AgentTool.named(name) else { return .error("unknown tool \(name.debugDescription)") }
        let known = tool.inputSchema["properties"]?.object ?? [:]
        if let unknown = arguments.keys.sorted().first(where: { known[$0] == nil }) {
            return .error("\(name): unknown argument \(unknown.debugDescription) (it takes \(known.keys.sorted().joined(separator: ", ")))")
        }
        let arguments = ToolArguments(tool: name, values: arguments)
        do {
            for key in tool.inputSchema["required"]?.array?.compactMap(\.string) ?? [] where arguments.values[key] == nil {
                throw ToolArgumentError(message: "\(name): missing argument \(key.debugDescription)")
            }
            if name == "launch" { return try await launch(arguments, id: id ?? sessions.newID()) }
            let session = try session(arguments)
            if session.steps.piped != nil, !["output", "requests", "call", "spy", "save_flow", "close"].contains(name) {
                return .error("\(name): session \(session.id) runs with pipes, without a terminal: read `output`, then `close` it for its exit status")
            }
            switch name {
            case "type": return await input(session, "type " + FlowStringLiteral.quote(try arguments.string("text")))
            case "paste": return await input(session, "paste " + FlowStringLiteral.quote(try arguments.string("text")))
            case "press": return await input(session, "press " + (try arguments.strings("keys")).joined(separator: " "))
            case "click", "hover": return await input(session, "\(name) " + (try target(arguments)))
            case "scroll":
                let count = try arguments.integer("count").map { " \($0)" } ?? ""
                return await input(session, "scroll \(try arguments.string("direction"))\(count) at \(try target(arguments))")
            case "resize": return await input(session, "resize " + (try arguments.string("size")))
            case "wait_for": return await wait(session, try waitLine(arguments))
            case "screen": return try await screen(session, arguments)
            case "output": return await output(session)
            case "snapshot": return try await snapshot(session, arguments)
            case "requests": return await requests(session)
            case "call": return try await bridgeCall(session, arguments)
            case "spy": return try await spy(session, arguments)
            case "save_flow": return try await saveFlow(session, arguments)
            default: return await close(session)
            }
        } catch let error as ToolArgumentError {
            return .error(error.message)
        } catch {
            return .error("\(name): \(error)")
        }
    }

    private func session(_ arguments: ToolArguments) throws -> AgentSession {
        let id = try arguments.string("session")
        guard let session = sessions.session(id) else {
            throw ToolArgumentError(message: "\(arguments.tool): no session \(id.debugDescription) (launch returns the id; a closed session's id stays valid for save_flow)")
        }
        return session
    }

    // MARK: - launch

    private func launch(_ arguments: ToolArguments, id: String) async throws -> ToolResult {
        let program = try arguments.string("program")
        var lines = [(["app", FlowCommand.word(program)] + (try arguments.strings("args")).map(FlowCommand.word)).joined(separator: " ")]
        for (name, value) in try arguments.stringMap("env").sorted(by: { $0.key < $1.key }) {
            lines.append("env \(name)=\(value.isEmpty ? "" : FlowCommand.word(value))")
        }
        if let size = try arguments.optionalString("size") { lines.append("size \(size)") }
        if let timeout = try arguments.optionalString("timeout") { lines.append("timeout \(timeout)") }
        lines += try arguments.strings("stubs").map { "stub " + $0 }
        lines += try arguments.strings("setup")
        lines.append(try arguments.bool("pipes") ? "launch pipes" : "launch")
        let cwd = try arguments.optionalString("cwd").map { FlowPaths.join(FileManager.default.currentDirectoryPath, $0) }
            ?? FileManager.default.currentDirectoryPath
        let options = FlowExecutor.Options(defaultTimeout: defaultTimeout, artifactsDirectory: artifactsDirectory,
                                           traces: artifactsDirectory.map { _ in FlowTraceCollector(mode: .on) },
                                           stubServers: FlowStubServers.start)
        let bridge = try arguments.bool("bridge")
        let steps: StepSession
        do {
            steps = try await StepSession.launch(setup: lines, name: "mcp/\(id)", directory: cwd, options: options,
                                                 bridge: bridge)
        } catch {
            return .error(error.description)
        }
        let session = AgentSession(id: id, steps: steps)
        sessions.add(session)
        var result = screenResult(session, styles: false, area: nil)
        result.structured["session"] = .string(id)
        if let pid = steps.terminal?.pid ?? steps.piped?.pid { result.structured["pid"] = .int(Int(pid)) }
        result.text = "session \(id)\n" + result.text
        return result
    }

    // MARK: - Steps

    private func input(_ session: AgentSession, _ line: String) async -> ToolResult {
        let outcome = await session.input(line)
        return stepResult(session, line: line, outcome: outcome)
    }

    private func wait(_ session: AgentSession, _ line: String) async -> ToolResult {
        let outcome = await session.wait(line)
        return stepResult(session, line: line, outcome: outcome)
    }

    /// The result of a step: the screen after it, and on failure the flow's message.
    private func stepResult(_ session: AgentSession, line: String, outcome: StepSession.Result) -> ToolResult {
        var result = screenResult(session, styles: false, area: nil)
        result.structured["step"] = .string(line)
        switch outcome {
        case .passed:
            result.structured["passed"] = true
            result.text = "passed: \(line)\n" + result.text
        case .failed(let message):
            result.structured["passed"] = false
            result.structured["error"] = .string(message)
            result.text = message
            result.isError = true
        }
        return result
    }

    /// The flow line of a `wait_for`.
    private func waitLine(_ arguments: ToolArguments) throws -> String {
        let area = try arguments.optionalString("area").map { " in \($0)" } ?? ""
        let within = try arguments.optionalString("within").map { " within \($0)" } ?? ""
        if let milliseconds = try arguments.integer("stable_ms") { return "wait-stable \(milliseconds)ms\(area)" }
        if try arguments.bool("command_finished") { return "expect-command\(within)" }
        let text = try arguments.optionalString("text")
        let regex = try arguments.optionalString("regex")
        let pattern: String
        switch (text, regex) {
        case (let text?, nil): pattern = FlowStringLiteral.quote(text)
        case (nil, let regex?): pattern = "/" + regex.replacingOccurrences(of: "/", with: "\\/") + "/"
        default: throw ToolArgumentError(message: "wait_for: give one of text, regex, stable_ms or command_finished")
        }
        if try arguments.bool("gone") { return "expect-gone \(pattern)\(area)\(within)" }
        if try arguments.bool("output") { return "expect-output \(pattern)\(within)" }
        let style = try arguments.optionalString("style").map { " style \($0)" } ?? ""
        return "expect \(pattern)\(area)\(style)\(within)"
    }

    /// A mouse target: `"text"` or `ROW,COL`.
    private func target(_ arguments: ToolArguments) throws -> String {
        if let text = try arguments.optionalString("text") { return FlowStringLiteral.quote(text) }
        guard let row = try arguments.integer("row"), let column = try arguments.integer("column") else {
            throw ToolArgumentError(message: "\(arguments.tool): give text, or row and column")
        }
        return "\(row),\(column)"
    }

    // MARK: - Reading

    private func screen(_ session: AgentSession, _ arguments: ToolArguments) async throws -> ToolResult {
        let area = try arguments.optionalString("area")
        await session.steps.noteRead("# screen" + (area.map { " in \($0)" } ?? ""))
        return screenResult(session, styles: try arguments.bool("styles"), area: area)
    }

    /// The screen (or the area's part of it) as text and fields; an area not on the screen is an error.
    func screenResult(_ session: AgentSession, styles: Bool, area: String?) -> ToolResult {
        guard var screen = session.screen else {
            return ToolResult(text: "(a program launched with pipes has no screen: read output)", structured: ["session": .string(session.id)])
        }
        if let area {
            let parsed = session.steps.parse("expect \"\" in \(area)")
            guard case .success(.expect(_, _, let screenArea?, _)) = parsed else {
                if case .failure(let failure) = parsed { return .error("screen: \(failure)") }
                return .error("screen: \(area.debugDescription) is not an area")
            }
            do { screen = try screen.region(screenArea) } catch { return .error("screen: \(error)") }
        }
        let lines = screen.lines
        let text = lines.joined(separator: "\n")
        var fields: [String: JSONValue] = [
            "session": .string(session.id),
            "text": .string(text),
            "cursor": ["row": .int(screen.cursor.row), "column": .int(screen.cursor.col), "visible": .bool(screen.cursor.visible)],
            "size": .string("\(screen.cols)x\(screen.rows)"),
        ]
        if let status = session.steps.terminal?.exitStatus { fields["exited"] = .string("\(status)") }
        // The text content: the screen's lines without trailing blanks (`snapshot` frames them),
        // then where the cursor is.
        var content = text.trimmingCharacters(in: .newlines) + "\ncursor: row \(screen.cursor.row), col \(screen.cursor.col)"
        if styles {
            fields["styles"] = .array(Self.styleRuns(of: screen))
            content += "\n" + ScreenStyleLayer.text(of: screen)
        }
        return ToolResult(text: content, structured: fields)
    }

    /// The runs of cells with colors or attributes: row, column, length, text and style.
    static func styleRuns(of screen: ScreenSnapshot) -> [JSONValue] {
        let cells = screen.cells
        return ScreenStyleLayer.runs(of: screen).map { run in
            ["row": .int(run.row), "column": .int(run.columns.lowerBound), "length": .int(run.columns.count),
             "text": .string(cells[run.row][run.columns].map(\.character).joined()),
             "style": .string(ScreenStyleLayer.describe(run.attributes))]
        }
    }

    private func output(_ session: AgentSession) async -> ToolResult {
        await session.steps.noteRead("# output")
        let text = session.newOutput()
        return ToolResult(text: text, structured: ["session": .string(session.id), "output": .string(text)])
    }

    private func snapshot(_ session: AgentSession, _ arguments: ToolArguments) async throws -> ToolResult {
        let name = try arguments.optionalString("name") ?? "screen"
        await session.steps.noteRead("# snapshot \(name)")
        guard let screen = session.screen else { return .error("snapshot: a program launched with pipes has no screen") }
        var text = screen.framed() + "\n" + ScreenStyleLayer.text(of: screen)
        // The picture an agent can look at: a PNG (GNU Unifont), or why there is none.
        let png: [UInt8]?
        do { png = try ScreenPNG.render(screen) } catch {
            png = nil
            text += "\n(no PNG of the screen: \(error))"
        }
        var result = ToolResult(text: text, structured: ["session": .string(session.id), "name": .string(name), "text": .string(text),
                                                         "svg": .string(ScreenSVG.render(screen))])
        result.png = png
        return result
    }

    private func requests(_ session: AgentSession) async -> ToolResult {
        await session.steps.noteRead("# requests")
        guard let server = session.steps.stubServer else {
            return ToolResult(text: "no stub server (launch with stubs)", structured: ["session": .string(session.id), "requests": []])
        }
        let stubs = Dictionary(server.stubs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var lines: [String] = []
        let requests = server.requests.map { request -> JSONValue in
            var fields: [String: JSONValue] = ["method": .string(request.method), "target": .string(request.target),
                                               "body": .string(request.bodyText ?? "")]
            if let id = request.stubID, let stub = stubs[id] {
                fields["matched"] = .string("\(stub)")
                lines.append("\(request.method) \(request.target) -> \(stub)")
            } else {
                let report = server.nearMissReport(for: request)
                fields["matched"] = .null
                fields["nearMisses"] = .string(report.description)
                lines.append("\(request.method) \(request.target) -> no route matched\n\(report)")
            }
            return .object(fields)
        }
        return ToolResult(text: lines.isEmpty ? "no requests" : lines.joined(separator: "\n"),
                          structured: ["session": .string(session.id), "requests": .array(requests)])
    }

    // MARK: - The bridge

    private func bridgeCall(_ session: AgentSession, _ arguments: ToolArguments) async throws -> ToolResult {
        let name = try arguments.string("name")
        let params = try arguments.optionalString("json") ?? "null"
        let line = "call \(FlowCommand.word(name)) \(FlowStringLiteral.quote(params))"
        let outcome = await session.steps.perform(line)
        guard outcome == .passed else { return stepResult(session, line: line, outcome: outcome) }
        var result = stepResult(session, line: line, outcome: outcome)
        if let reply = await session.steps.lastReply { result.structured["reply"] = (try? JSONValue(parsing: reply)) ?? .string(reply) }
        return result
    }

    private func spy(_ session: AgentSession, _ arguments: ToolArguments) async throws -> ToolResult {
        let name = try arguments.string("name")
        await session.steps.noteRead("# spy \(name)")
        guard let records = session.steps.spyRecords(name) else { return .error("spy: the session has no bridge (launch with bridge: true)") }
        let calls = records.compactMap { try? JSONValue(parsing: $0) }
        return ToolResult(text: "\(name): \(records.count) calls" + (records.last.map { ", the last \($0)" } ?? ""),
                          structured: ["session": .string(session.id), "name": .string(name), "count": .int(records.count),
                                       "calls": .array(calls), "last": calls.last ?? .null])
    }

    // MARK: - save_flow, close

    private func saveFlow(_ session: AgentSession, _ arguments: ToolArguments) async throws -> ToolResult {
        let path = FlowPaths.join(session.directory, try arguments.string("path"))
        let text = session.flowText(in: FlowPaths.directory(of: path))
        do {
            try FileManager.default.createDirectory(atPath: FlowPaths.directory(of: path), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            return .error("save_flow: cannot write \(path): \(error.localizedDescription)")
        }
        return ToolResult(text: "wrote \(path)\n\(text)", structured: ["session": .string(session.id), "path": .string(path), "flow": .string(text)])
    }

    private func close(_ session: AgentSession) async -> ToolResult {
        let status = await session.close()
        let described = status.map { "\($0)" } ?? "unknown"
        var fields: [String: JSONValue] = ["session": .string(session.id), "status": .string(described)]
        if case .exited(let code)? = status { fields["exitCode"] = .int(Int(code)) }
        return ToolResult(text: "closed \(session.id): the program \(described)", structured: fields)
    }
}

/// A tool's arguments, read with a clear error for each wrong type.
struct ToolArguments {
    let tool: String
    let values: [String: JSONValue]

    private func wrong(_ key: String, _ expected: String) -> ToolArgumentError {
        ToolArgumentError(message: "\(tool): argument \(key.debugDescription) must be \(expected), not \(values[key]!)")
    }

    func optionalString(_ key: String) throws -> String? {
        guard let value = values[key], value != .null else { return nil }
        guard let text = value.string else { throw wrong(key, "a string") }
        return text
    }

    func string(_ key: String) throws -> String {
        guard let text = try optionalString(key) else { throw ToolArgumentError(message: "\(tool): missing argument \(key.debugDescription)") }
        return text
    }

    func strings(_ key: String) throws -> [String] {
        guard let value = values[key], value != .null else { return [] }
        guard let items = value.array, items.allSatisfy({ $0.string != nil }) else { throw wrong(key, "an array of strings") }
        return items.compactMap(\.string)
    }

    func stringMap(_ key: String) throws -> [String: String] {
        guard let value = values[key], value != .null else { return [:] }
        guard let members = value.object, members.values.allSatisfy({ $0.string != nil }) else {
            throw wrong(key, "an object of strings")
        }
        return members.compactMapValues(\.string)
    }

    func integer(_ key: String) throws -> Int? {
        guard let value = values[key], value != .null else { return nil }
        guard let number = value.integer else { throw wrong(key, "an integer") }
        return number
    }

    func bool(_ key: String) throws -> Bool {
        guard let value = values[key], value != .null else { return false }
        guard let flag = value.bool else { throw wrong(key, "true or false") }
        return flag
    }
}
