import HarnessCore
import HarnessSteps
import TerminalEmulator

extension FlowKeyword {
    /// The keyword's row.
    public var definition: Definition {
        typealias Line = FlowParser.LineParser
        switch self {
        case .app:
            return .init(.setup, .custom("PATH [ARGS...]", parse: Line.app),
                         "The program to launch and its arguments (required, once).")
        case .env:
            return .init(.setup, .custom("NAME=VALUE", parse: Line.env), "An environment variable for the program.")
        case .size:
            return .init(.setup, needs: .terminal, .custom("COLSxROWS", parse: Line.size), "The terminal size at launch (default 80x24).")
        case .clock:
            return .init(.setup, needs: .launchOptions, .custom("DATETIME", parse: Line.clock),
                         "A frozen clock for the app, ISO 8601 with a time zone.")
        case .timeout:
            return .init(.anywhere, .custom("DURATION", parse: Line.timeout), "The default limit of the waits that follow.")
        case .stub:
            return .init(.setup, needs: [.launchOptions, .stubServer, .files],
                         .custom("METHOD PATH [CONDITIONS] STATUS [json FILE|text \"...\"] [delay DURATION]",
                                 "METHOD PATH [CONDITIONS] hang", "METHOD PATH [CONDITIONS] close",
                                 "METHOD PATH [CONDITIONS] sequence S1,S2,... [json FILE]", parse: Line.stub),
                         "A route of the flow's own stub HTTP server, for the requests that meet its conditions.")
        case .seed:
            return .init(.setup, needs: [.launchOptions, .files], .custom("FILE as NAME", parse: Line.seed),
                         "Copies a file into the app's storage sandbox before launch.")
        case .launch:
            return .init(.launch, .custom("", "pipes", parse: Line.launch), "Starts the program, in a terminal or with pipes.")
        case .type:
            return .init(.running, needs: .terminal, .custom("\"text\"", parse: Line.type), "Writes the text's UTF-8 bytes.")
        case .press:
            return .init(.running, needs: .terminal, .custom("KEY [KEY...]", parse: Line.press), "Presses keys, in order.")
        case .paste:
            return .init(.running, needs: .terminal, .custom("\"text\"", parse: Line.paste),
                         "Pastes text (bracketed when the program enabled it).")
        case .resize:
            return .init(.running, needs: .terminal, .custom("COLSxROWS", parse: Line.resize), "Resizes the terminal (SIGWINCH).")
        case .click:
            return .init(.running, needs: .terminal, .custom("\"text\"|ROW,COL", parse: Line.click),
                         "Clicks the text's first cell, or a 0-based cell.")
        case .doubleClick:
            return .init(.running, needs: .terminal, .custom("\"text\"|ROW,COL", parse: Line.doubleClick), "Two clicks there.")
        case .drag:
            return .init(.running, needs: .terminal, .custom("\"text\"|ROW,COL to \"text\"|ROW,COL", parse: Line.drag),
                         "Drags with the left button from one place to the other.")
        case .scroll:
            return .init(.running, needs: .terminal, .custom("up|down [N] at \"text\"|ROW,COL", parse: Line.scroll),
                         "Turns the mouse wheel N notches (default 1) there.")
        case .hover:
            return .init(.running, needs: .terminal, .custom("\"text\"|ROW,COL", parse: Line.hover),
                         "Moves the mouse there with no button held (mode 1003).")
        case .focus:
            return .init(.running, needs: .terminal, .custom("in|out", parse: Line.focus),
                         "Tells the program the terminal gained or lost the focus (mode 1004).")
        case .expect:
            return .init(.afterLaunch, needs: .terminal, .pattern([.area, .style, .within]) {
                .expect($0.pattern, within: $0.within, area: $0.area, style: $0.style)
            }, "Waits until the screen shows it (inside the area, with the style, when given).")
        case .expectNot:
            return .init(.afterLaunch, needs: .terminal, .pattern([.area, .style, .during]) {
                .expectNot($0.pattern, area: $0.area, style: $0.style, during: $0.during)
            }, "The screen does not show it now (inside the area, with the style, when given), nor for the time given.")
        case .expectGone:
            return .init(.afterLaunch, needs: .terminal, .pattern([.area, .within]) {
                .expectGone($0.pattern, area: $0.area, within: $0.within)
            }, "Waits until the screen no longer shows it (inside the area when given).")
        case .expectOutput:
            return .init(.afterLaunch, needs: .terminal, .pattern(.within) { .expectOutput($0.pattern, within: $0.within) },
                         "Waits until the program prints it after the output cursor, and moves the cursor past it.")
        case .expectOutputNot:
            return .init(.afterLaunch, needs: .terminal, .pattern([]) { .expectOutputNot($0.pattern) },
                         "Nothing printed after the output cursor shows it.")
        case .waitStable:
            return .init(.running, needs: .terminal, .custom("DURATION [in AREA]", parse: Line.waitStable),
                         "Waits until the screen (or the area) has not changed for that long.")
        case .snapshot:
            return .init(.afterLaunch, needs: .terminal, .custom("NAME [AREA]", parse: Line.snapshot),
                         "Compares the screen (or the area) with a reference snapshot.")
        case .snapshotTranscript:
            return .init(.afterLaunch, needs: .terminal, .custom("NAME", parse: Line.snapshotTranscript),
                         "Compares the transcript (scrollback and screen) with a reference snapshot.")
        case .spy:
            return .init(.running, needs: [.terminal, .bridge, .files], .custom("NAME count N", "NAME last FILE.json", parse: Line.spy),
                         "The app's spy recorded exactly N calls, or its last call equals the file's JSON.")
        case .event:
            return .init(.afterLaunch, needs: [.terminal, .bridge], .custom("NAME sequence V1,V2,...", parse: Line.event),
                         "The app's bridge events NAME took these values, in order.")
        case .file:
            return .init(.afterLaunch, needs: [.launchOptions, .files],
                         .custom("NAME exists", "NAME missing", "NAME equals FILE", parse: Line.file),
                         "A file of the app's storage sandbox exists, is missing, or has the file's bytes.")
        case .requests:
            return .init(.afterLaunch, needs: [.launchOptions, .stubServer], .custom("METHOD PATH count N", parse: Line.requests),
                         "The stub server received exactly N such requests.")
        case .expectRequest:
            return .init(.afterLaunch, needs: [.launchOptions, .stubServer, .files],
                         .custom("METHOD PATH [query NAME MATCH]... [header NAME MATCH]... [body json FILE|body contains \"...\"|body /regex/] [count N]",
                                 parse: Line.expectRequest),
                         "The stub server received such a request (waiting for the first), or exactly N of them.")
        case .include:
            return .init(.setup, needs: .files, .custom("FILE", parse: Line.include),
                         "The setup lines of another file (app, env, size, stub, ...), relative to this one.")
        case .exit:
            return .init(.ending, .custom("CODE", parse: Line.exit), "Waits for the program to exit with that status.")
        case .kill:
            return .init(.ending, .custom("", parse: Line.kill), "Ends the program's process group now.")
        case .expectCommand:
            return .init(.afterLaunch, needs: .terminal, .custom("[within DURATION]", parse: Line.expectCommand),
                         "Waits until the shell's command finishes (OSC 133 marks).")
        case .commandStatus:
            return .init(.afterLaunch, needs: .terminal, .custom("N", parse: Line.commandStatus),
                         "The last finished command's exit status is N.")
        case .expectTitle:
            return .init(.afterLaunch, needs: .terminal, .pattern(.within) { .expectTitle($0.pattern, within: $0.within) },
                         "Waits until the title is the text, or matches the regex.")
        case .expectClipboard:
            return .init(.afterLaunch, needs: .terminal, .pattern(.within) { .expectClipboard($0.pattern, within: $0.within) },
                         "Waits until the program's last clipboard write is the text, or matches the regex.")
        case .call:
            return .init(.running, needs: [.terminal, .bridge, .files], .custom("NAME [JSON] [equals JSON]", parse: Line.call),
                         "Calls the app's probe or handler through the bridge, and compares the reply.")
        case .probe:
            return .init(.running, needs: [.terminal, .bridge, .files], .custom("NAME equals JSON", parse: Line.probe),
                         "The app's probe reads this value.")
        case .given:
            return .init(.setupThenRunning, needs: [.terminal, .bridge, .files], beforeLaunch: .launchOptions,
                         .custom("NAME", "json JSON", parse: Line.given),
                         "Before launch the state the app starts in; after it, a call of the app's given handler.")
        case .set:
            return .init(.setup, needs: .launchOptions, .custom("KEY=VALUE", parse: Line.set), "A free-form launch value.")
        case .carrier:
            return .init(.setup, .custom("arguments|environment", parse: Line.carrier), "Where the launch options go.")
        case .tag:
            return .init(.setup, .custom("NAME [NAME...]", parse: Line.tag), "Tags that `harness run --tag` and `--skip-tag` select by.")
        case .matrix:
            return .init(.setup, .custom("AXIS=V1,V2,... [AXIS=...]", parse: Line.matrix),
                         "Runs the flow once per combination of size=COLSxROWS,..., theme=dark,light and color=on,off.")
        // Runs without a terminal (pipes)
        case .stdin:
            return .init(.setup, needs: [.pipes, .files], .custom("\"text\"", "file PATH", parse: Line.stdin),
                         "The standard input of a pipes run.")
        case .stdout, .stderr:
            return .init(.afterLaunch, needs: [.pipes, .files],
                         .custom("contains \"text\"", "matches /regex/", "equals FILE", "empty", "snapshot NAME", parse: Line.streamCheck),
                         "After the program exited, checks the whole stream.")
        }
    }
}
