import Foundation
import HarnessSystem
import Stubs

/// A Model Context Protocol server on a pair of descriptors (standard input and output for
/// `harness mcp`): newline-delimited JSON-RPC 2.0, as the protocol's stdio transport says.
/// Requests run concurrently (a long `wait_for` does not hold up a `ping` or another session);
/// `notifications/cancelled` cancels one; a `tools/call` with a progress token gets
/// `notifications/progress` when it begins and every second while it runs. Only protocol goes to the output.
///
/// When the input ends (the client went away) or a stop signal arrives, the requests in flight
/// are cancelled and every session is closed: its program, stub server and sandbox are gone
/// before ``serve()`` returns.
final class MCPServer: Sendable {
    /// The protocol versions the server speaks, newest first; `initialize` answers the
    /// client's when it is one of them, else the newest.
    static let protocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]

    /// JSON-RPC's error codes.
    enum ErrorCode: Int {
        case parseError = -32700, invalidRequest = -32600, methodNotFound = -32601, invalidParams = -32602
    }

    private let tools: AgentToolCalls
    private let input: Int32
    private let output: Int32
    /// Writes one message at a time, in order.
    private let writer = DispatchQueue(label: "harness.mcp.output")
    /// The requests in flight, by their id's JSON text.
    private let running = Locked<[String: Task<Void, Never>]>([:])
    /// Whether a stop signal ended the input.
    private let stopped = Locked(false)

    init(tools: AgentToolCalls, input: Int32 = 0, output: Int32 = 1) {
        self.tools = tools
        self.input = input
        self.output = output
    }

    /// Serves until the input ends or a stop signal arrives; then closes every session.
    func serve() async {
        let wake: (read: Int32, write: Int32)
        do { wake = try Posix.makePipe() } catch { return }
        var sources: [any DispatchSourceProtocol] = []
        for signalNumber in UserTerminal.stopSignals {
            Posix.ignoreSignal(signalNumber)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { [stopped] in
                stopped.withLock { $0 = true }
                UserTerminal.writeAll(wake.write, [0])
            }
            source.resume()
            sources.append(source)
        }
        let lines = AsyncStream<Data> { continuation in
            let reader = Thread { [input] in
                var pending = Data()
                while let bytes = UserTerminal.readOrWake(input, wake: wake.read), !bytes.isEmpty {
                    pending.append(contentsOf: bytes)
                    while let end = pending.firstIndex(of: 0x0A) {
                        continuation.yield(pending[pending.startIndex..<end])
                        pending = pending[(end + 1)...]
                    }
                }
                if !pending.isEmpty { continuation.yield(pending) }
                continuation.finish()
            }
            reader.start()
        }
        for await line in lines { receive(Data(line)) }
        for source in sources { source.cancel() }
        // At the end of input the requests in flight finish (their waits have limits), so that
        // `printf '...' | harness mcp` answers every line; after a stop signal they are cancelled.
        let inFlight = running.withLock { Array($0.values) }
        if stopped.withLock({ $0 }) { for task in inFlight { task.cancel() } }
        for task in inFlight { await task.value }
        await tools.sessions.closeAll()
        writer.sync {}
        Posix.closeIgnoringErrors(wake.read)
        Posix.closeIgnoringErrors(wake.write)
    }

    // MARK: - Messages

    /// Handles one line: a request (answered from a task of its own), a notification, or garbage.
    func receive(_ line: Data) {
        guard line.contains(where: { ![0x20, 0x09, 0x0D].contains($0) }) else { return }
        guard let message = JSONValue.message(line) else {
            return sendError(id: .null, .parseError, "Parse error: the line is not JSON")
        }
        guard case .object(let fields) = message else {
            return sendError(id: .null, .invalidRequest, "Invalid Request: a message is a JSON object (batches are not supported)")
        }
        let id = fields["id"]
        if let id, id.string == nil, id.integer == nil {
            return sendError(id: .null, .invalidRequest, "Invalid Request: the id must be a string or an integer")
        }
        guard fields["jsonrpc"] == "2.0" else {
            return sendError(id: id ?? .null, .invalidRequest, "Invalid Request: \"jsonrpc\" must be \"2.0\"")
        }
        guard let method = fields["method"]?.string else {
            if fields["result"] != nil || fields["error"] != nil { return }  // a response: the server sends no requests
            return sendError(id: id ?? .null, .invalidRequest, "Invalid Request: no \"method\"")
        }
        var params = fields["params"] ?? [:]
        guard let id else { return notification(method, params) }
        let key = id.jsonText
        // Calls on one session run in the order they arrived, each after the previous one
        // ended (a client may send `type` and `wait_for` without awaiting the first); calls
        // on other sessions, and other requests, run meanwhile. A `launch` gets its session's
        // id now, so the calls sent right behind it follow it.
        var chain: String?
        if method == "tools/call", params["name"] == "launch", case .object(var members) = params {
            let id = tools.sessions.newID()
            members["_session"] = .string(id)
            params = .object(members)
            chain = id
        } else if method == "tools/call" {
            chain = params["arguments"]?["session"]?.string
        }
        let (request, chainKey) = (params, chain.map(Self.chainKey))
        running.withLock { running in
            let previous = chainKey.flatMap { running[$0] }
            let task = Task {
                await previous?.value
                let result = await self.respond(method, request)
                // Removed once answered, so that the end of input, which awaits the requests
                // still listed, never ends the process between the answer's making and its
                // sending. A session's last call stays listed, finished.
                defer { self.running.withLock { _ = $0.removeValue(forKey: key) } }
                guard !Task.isCancelled else { return }  // cancelled: no answer (the protocol says so)
                switch result {
                case .success(let value): self.send(["jsonrpc": "2.0", "id": id, "result": value])
                case .failure(let error): self.sendError(id: id, error.code, error.message)
                }
            }
            running[key] = task
            if let chainKey { running[chainKey] = task }
        }
    }

    /// The key under which ``running`` keeps the last call on a session.
    private static func chainKey(_ session: String) -> String { "session " + session }

    /// A JSON-RPC error: its code and message.
    struct RequestError: Error {
        let code: ErrorCode
        let message: String
    }

    /// The result of a request.
    private func respond(_ method: String, _ params: JSONValue) async -> Result<JSONValue, RequestError> {
        guard case .object = params else { return .failure(RequestError(code: .invalidParams, message: "Invalid params: params must be an object")) }
        switch method {
        case "initialize":
            let asked = params["protocolVersion"]?.string
            let version = asked.flatMap { Self.protocolVersions.contains($0) ? $0 : nil } ?? Self.protocolVersions[0]
            return .success([
                "protocolVersion": .string(version),
                "capabilities": ["tools": ["listChanged": false]],
                "serverInfo": ["name": "harness", "title": "Terminal harness", "version": "1.0.0"],
                "instructions": .string(MCPCommand.instructions),
            ])
        case "ping":
            return .success([:])
        case "tools/list":
            return .success(["tools": .array(AgentTool.all.map(\.listed))])
        case "tools/call":
            guard let name = params["name"]?.string else {
                return .failure(RequestError(code: .invalidParams, message: "Invalid params: tools/call needs \"name\", a string"))
            }
            guard AgentTool.named(name) != nil else {
                return .failure(RequestError(code: .invalidParams, message: "Unknown tool: \(name)"))
            }
            let arguments = params["arguments"] ?? [:]
            guard let members = arguments.object else {
                return .failure(RequestError(code: .invalidParams, message: "Invalid params: \"arguments\" must be an object"))
            }
            let heartbeat = params["_meta"]?["progressToken"].map { progress(token: $0, tool: name) }
            let result = await tools.call(name, members.filter { $0.key != "_session" }, session: params["_session"]?.string)
            heartbeat?.cancel()
            return .success(result.json)
        default:
            return .failure(RequestError(code: .methodNotFound, message: "Method not found: \(method)"))
        }
    }

    /// A notification: `notifications/cancelled` cancels its request; the rest need nothing.
    private func notification(_ method: String, _ params: JSONValue) {
        guard method == "notifications/cancelled", let id = params["requestId"] else { return }
        running.withLock { $0[id.jsonText] }?.cancel()
    }

    /// Sends `notifications/progress` for `token` now (progress 0: the call began), then every
    /// second until cancelled.
    private func progress(token: JSONValue, tool: String) -> Task<Void, Never> {
        send(["jsonrpc": "2.0", "method": "notifications/progress",
              "params": ["progressToken": token, "progress": 0, "message": .string("\(tool): started")]])
        return Task {
            var seconds = 0
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))  // a heartbeat for the client, not a synchronization
                guard !Task.isCancelled else { return }
                seconds += 1
                send(["jsonrpc": "2.0", "method": "notifications/progress",
                      "params": ["progressToken": token, "progress": .int(seconds), "message": .string("\(tool): \(seconds)s")]])
            }
        }
    }

    // MARK: - Output

    private func sendError(id: JSONValue, _ code: ErrorCode, _ message: String) {
        send(["jsonrpc": "2.0", "id": id, "error": ["code": .int(code.rawValue), "message": .string(message)]])
    }

    /// Writes one message and its line feed.
    private func send(_ message: JSONValue) {
        let bytes = Array((message.jsonText + "\n").utf8)
        writer.async { [output] in StandardStreams.write(bytes, to: output) }
    }
}
