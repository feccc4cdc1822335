import HarnessFlows
import Stubs

/// One tool `harness mcp` offers: its name, what it does, and the JSON schema of its arguments.
/// Where a tool does what a flow command does, its description ends with that command's line
/// from the flow keyword table (``FlowKeyword/Definition``), so the two never disagree.
struct AgentTool: Sendable {
    /// The tool's name (`launch`, `wait_for`, ...).
    let name: String
    /// What it does, for the agent.
    let description: String
    /// The JSON schema of its arguments.
    let inputSchema: JSONValue

    /// The tool as `tools/list` lists it.
    var listed: JSONValue {
        ["name": .string(name), "description": .string(description), "inputSchema": inputSchema]
    }

    /// A tool whose description is `lead`, then what the flow commands `keywords` do, with
    /// their forms, from the keyword table.
    init(_ name: String, _ lead: String, flow keywords: [FlowKeyword] = [], required: [String] = [],
         _ properties: [(String, JSONValue)]) {
        self.name = name
        var text = lead
        if !keywords.isEmpty {
            text += " The same as the flow "
            text += keywords.map { keyword in
                "`\(keyword.usages[0])` (\(keyword.definition.summary.trimmingSuffix(".")))"
            }.joined(separator: ", ")
            text += ": the same waits and failure messages."
        }
        self.description = text
        var schema: [String: JSONValue] = [
            "type": "object",
            "properties": .object(Dictionary(properties, uniquingKeysWith: { first, _ in first })),
            "additionalProperties": false,
        ]
        if !required.isEmpty { schema["required"] = .array(required.map(JSONValue.string)) }
        self.inputSchema = .object(schema)
    }

    /// The tool named `name`, if any.
    static func named(_ name: String) -> AgentTool? { all.first { $0.name == name } }

    // MARK: - Schema pieces

    static func string(_ summary: String) -> JSONValue { ["type": "string", "description": .string(summary)] }
    static func integer(_ summary: String) -> JSONValue { ["type": "integer", "description": .string(summary)] }
    static func boolean(_ summary: String) -> JSONValue { ["type": "boolean", "description": .string(summary)] }
    static func strings(_ summary: String) -> JSONValue {
        ["type": "array", "items": ["type": "string"], "description": .string(summary)]
    }
    static let session: (String, JSONValue) = ("session", string("The session id `launch` returned."))
    static let within: (String, JSONValue) = ("within", string("The wait's limit as a flow writes it (`5s`, `500ms`); default: the session's timeout."))
    static let area: (String, JSONValue) = ("area", string("A part of the screen as a flow writes it: `rows 2-10`, `rows 0-3 cols 0-39`, `between \"Todos\" and \"q quit\"`."))
    static let target: [(String, JSONValue)] = [
        ("text", string("The text whose first cell is the target (its first occurrence on the screen).")),
        ("row", integer("The target cell's row, 0-based (with `column`, instead of `text`).")),
        ("column", integer("The target cell's column, 0-based.")),
    ]

    // MARK: - The tools

    /// Every tool, in the order `tools/list` gives them.
    static let all: [AgentTool] = [
        AgentTool("launch", "Starts a program in a pseudo-terminal (or with pipes), in a sandbox of its own with the "
                  + "hermetic environment flows get, with its own stub HTTP server when `stubs` are given; returns the "
                  + "session id and the first screen. Several sessions may run at once.",
                  flow: [.app, .env, .size, .stub], required: ["program"], [
                      ("program", string("The program: a path, or a name looked up in PATH.")),
                      ("args", strings("Its arguments.")),
                      ("cwd", string("The folder it runs in, and relative paths (stub files, a saved flow) are read from; default: the server's.")),
                      ("env", ["type": "object", "additionalProperties": ["type": "string"],
                               "description": "Environment variables for the program."]),
                      ("size", string("The terminal size, COLSxROWS (default 80x24).")),
                      ("pipes", boolean("Runs the program with pipes instead of a terminal (standard output and error are then read with `output`).")),
                      ("stubs", strings("Routes of the session's stub server, each as a flow's stub line after `stub`: `GET /todos 200 json todos.json`, `GET /todos 500 text \"down\"`, `POST /save hang`.")),
                      ("bridge", boolean("Launches with the bridge (for `call` and `spy`) even when nothing else needs it.")),
                      ("setup", strings("More setup lines of a flow, written as in a flow: `set api.timeout=86400`, `clock 2023-11-14T22:13:20Z`, `seed data.json as todos.json`, `carrier arguments`.")),
                      ("timeout", string("The default limit of the session's waits (`10s` unless given).")),
                  ]),
        AgentTool("type", "Types text into the session's terminal.", flow: [.type], required: ["session", "text"],
                  [session, ("text", string("The text; a line feed or `\\r` in it is the Enter key's byte."))]),
        AgentTool("press", "Presses keys, in order, by name: `enter`, `ctrl-c`, `down`, `shift-tab`, `f5`, `alt-enter`.",
                  flow: [.press], required: ["session", "keys"], [session, ("keys", strings("The keys' names."))]),
        AgentTool("paste", "Pastes text (bracketed when the program enabled it).", flow: [.paste], required: ["session", "text"],
                  [session, ("text", string("The text."))]),
        AgentTool("click", "Clicks a text or a cell with the mouse.", flow: [.click], required: ["session"], [session] + target),
        AgentTool("scroll", "Turns the mouse wheel over a text or a cell.", flow: [.scroll], required: ["session", "direction"],
                  [session, ("direction", ["type": "string", "enum": ["up", "down"], "description": "up or down"]),
                   ("count", integer("Notches (default 1)."))] + target),
        AgentTool("hover", "Moves the mouse onto a text or a cell with no button held.", flow: [.hover], required: ["session"],
                  [session] + target),
        AgentTool("resize", "Resizes the terminal (the program receives SIGWINCH).", flow: [.resize], required: ["session", "size"],
                  [session, ("size", string("COLSxROWS, e.g. 100x30."))]),
        AgentTool("wait_for", "Waits until the screen shows a text or a match of a regex (or, with `gone`, no longer shows "
                  + "it; with `output`, until the program prints it), or until the screen is stable, or a shell command "
                  + "finished; returns the outcome and the screen. A wait that times out is an error result with the "
                  + "message a flow prints, the screen as it was included. Wait before reading: never sleep.",
                  flow: [.expect, .expectGone, .expectOutput, .waitStable, .expectCommand], required: ["session"], [
                      session,
                      ("text", string("The text to wait for.")),
                      ("regex", string("A regular expression to wait for instead (ICU syntax, as flows).")),
                      ("gone", boolean("Waits until it is no longer shown.")),
                      ("output", boolean("Waits on what the program prints (the stream, as `expect-output`) instead of the screen.")),
                      area,
                      ("style", string("The style every cell of the text must have, as a flow writes it: `bold fg=red`, `inverse not-bold`.")),
                      ("stable_ms", integer("Waits until the screen (or the area) has not changed for this many milliseconds.")),
                      ("command_finished", boolean("Waits until the shell's command finishes (OSC 133 marks).")),
                      within,
                  ]),
        AgentTool("screen", "Reads the screen: its text, the cursor, and with `styles` the styled runs (colors and "
                  + "attributes). Reading does not wait: call `wait_for` first.", required: ["session"], [
                      session, ("styles", boolean("Adds the runs of cells with colors or attributes.")), area,
                  ]),
        AgentTool("output", "What the program printed since the previous `output` call (the stream, as `expect-output` "
                  + "sees it; standard output and error for a program launched with pipes).", required: ["session"], [session]),
        AgentTool("snapshot", "The screen as framed text (trailing blanks visible) with its style layer, as an SVG picture, "
                  + "and as a PNG image to look at (drawn with GNU Unifont; the text says why when there is none).",
                  required: ["session"], [session, ("name", string("A name for the snapshot in the session's timeline."))]),
        AgentTool("requests", "The stub server's journal: every request the program sent, the route that answered it, "
                  + "and for a request no route matched the near misses.", required: ["session"], [session]),
        AgentTool("call", "Calls the app's probe or handler through the bridge with JSON params; returns the reply.",
                  flow: [.call], required: ["session", "name"],
                  [session, ("name", string("The probe or handler.")), ("json", string("The params as JSON text (default null)."))]),
        AgentTool("spy", "The calls the app's spy recorded (through the bridge): their count and the last one.",
                  flow: [.spy], required: ["session", "name"], [session, ("name", string("The spy's name."))]),
        AgentTool("save_flow", "Writes the session as a .flow that replays it: its app, size, environment and stubs, each "
                  + "input, and after each input the wait used, or where only the screen was read an `expect` of a line "
                  + "that appeared since (as `harness record` chooses). `harness run` on it passes.",
                  required: ["session", "path"], [session, ("path", string("The .flow file to write (relative to the session's cwd)."))]),
        AgentTool("close", "Ends the session's program (unless it ended), its stub server and sandbox; returns the exit status.",
                  required: ["session"], [session]),
    ]
}

extension String {
    /// The string without `suffix` at its end.
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
