import Foundation
import HarnessFlows

/// `harness mcp [--artifacts DIR] [--timeout DURATION]`: a Model Context Protocol server on
/// standard input and output (``MCPServer``) whose tools (``AgentTool``) let an agent drive
/// terminal programs through the step engine flows use, and save what it did as a `.flow`.
/// Exit 0 when the client goes away (end of input), after every session is closed.
enum MCPCommand: Command {
    static let name = "mcp"
    static let operands = ""
    static let summary = "serve the Model Context Protocol on stdin/stdout: agents drive terminal programs and save flows"
    static let options: [CommandOption] = [
        CommandOption(name: "artifacts", value: "DIR",
                      summary: "where each session leaves its report (`harness merge-reports DIR OUT` shows it; default: none)"),
        CommandOption(name: "timeout", value: "DURATION", summary: "the waits' limit unless a call gives `within` (default 10s)"),
    ]

    /// What the server tells the agent at `initialize`, and the help's last paragraph.
    static let instructions = """
        Drive terminal programs as a flow would: launch a session, send input (type, press, click, ...), \
        then wait_for what should appear before reading the screen (wait, never sleep). Expect text that \
        changed because of your input. When the session does what you wanted to test, call save_flow: \
        the .flow it writes replays the session (its app, size, stubs, inputs and waits) and `harness run` passes it. \
        Close sessions you no longer need.
        """

    static var helpDetails: String {
        let tools = AgentTool.all.map { tool in "  \(tool.name)\n" + wrapped(tool.description, indent: "      ") }
        return "Tools (docs/AGENTS.md):\n" + tools.joined(separator: "\n") + "\n\n" + wrapped(instructions, indent: "")
    }

    /// `text` wrapped at 100 columns, each line after `indent`.
    private static func wrapped(_ text: String, indent: String) -> String {
        var lines: [String] = []
        var line = indent
        for word in text.split(separator: " ") {
            if line.count > indent.count, line.count + 1 + word.count > 100 {
                lines.append(line)
                line = indent
            }
            line += (line.count > indent.count ? " " : "") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try parse(arguments)
        if let extra = parsed.positional.first { throw CommandError.usage("unexpected \(extra.debugDescription)") }
        let timeout = try parsed.duration("timeout", example: "10s or 500ms") ?? .seconds(10)
        let artifacts = parsed.value("artifacts").map { FlowPaths.join(FileManager.default.currentDirectoryPath, $0) }
        let server = MCPServer(tools: AgentToolCalls(sessions: AgentSessions(), artifactsDirectory: artifacts, defaultTimeout: timeout))
        await server.serve()
        return 0
    }
}
