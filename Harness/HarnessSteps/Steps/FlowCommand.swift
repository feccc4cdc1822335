import Foundation
import HarnessCore
import HarnessWire
import TerminalEmulator

/// One command of a `.flow` file, with its arguments already checked and converted.
///
/// The executor maps each case onto the session, the stub server or the bridge; see
/// `docs/FLOWS.md` for what each command means.
public enum FlowCommand: Sendable, Equatable {
    /// `app PATH [ARGS...]`: the program to launch (resolved at run time, see ``FlowApp``).
    case app(FlowApp)
    /// `env NAME=VALUE`: an environment variable for the program.
    case env(name: String, value: String)
    /// `size COLSxROWS`: the terminal size at launch (default 80x24).
    case size(TerminalSize)
    /// `clock 2023-11-14T22:13:20Z`: a frozen clock for the app (launch protocol `--harness-clock`).
    case clock(Date)
    /// `timeout DURATION`: the default time limit of the waits that follow.
    case timeout(Duration)
    /// `stub METHOD PATH ...`: a route of the flow's own stub HTTP server.
    case stub(FlowStub)
    /// `seed FILE as NAME`: `FILE` copied into the storage sandbox as `NAME` before launch.
    case seed(file: FlowFileReference, name: String)
    /// `launch`: starts the program.
    case launch
    /// `type "text"`: the text's UTF-8 bytes written to the terminal.
    case type(String)
    /// `press KEY [KEY...]`: keys, in order.
    case press([Key])
    /// `paste "text"`: the text as a paste (bracketed when the program enabled bracketed paste).
    case paste(String)
    /// `resize COLSxROWS`: the terminal resized (the program gets SIGWINCH).
    case resize(TerminalSize)
    /// `click "text" | ROW,COL`: a left click (press and release) on the first cell of the
    /// text's first occurrence, or on a 0-based cell.
    case click(MouseTarget)
    /// `double-click "text" | ROW,COL`: two left clicks there.
    case doubleClick(MouseTarget)
    /// `drag ROW,COL to ROW,COL`: the left button pressed on the first target, moved to the
    /// second with it held, and released there.
    case drag(from: MouseTarget, to: MouseTarget)
    /// `scroll up|down [N] at "text" | ROW,COL`: N notches of the wheel (default 1).
    case scroll(ScrollDirection, count: Int, at: MouseTarget)
    /// `hover "text" | ROW,COL`: the pointer moved there with no button held (mode 1003 only).
    case hover(MouseTarget)
    /// `focus in|out`: the terminal gained or lost the focus (`CSI I`, `CSI O`; mode 1004 only).
    case focus(FocusChange)
    /// `expect "text" | /regex/ [in AREA] [style ATTRIBUTES...] [within DURATION]`: wait until
    /// the screen shows it (inside the area, with the style in every cell, when given).
    case expect(FlowTextPattern, within: Duration?, area: ScreenArea? = nil, style: TextStyle? = nil)
    /// `expect-not "text" | /regex/ [in AREA] [style ATTRIBUTES...] [for DURATION]`: the screen
    /// does not show it now (inside the area, with the style in every cell, when given); with
    /// `for`, it does not show it during that time either (the step fails as soon as it does).
    case expectNot(FlowTextPattern, area: ScreenArea? = nil, style: TextStyle? = nil, during: Duration? = nil)
    /// `expect-gone "text" | /regex/ [in AREA] [within DURATION]`: wait until the screen no
    /// longer shows it (inside the area when given): a dialog closed, a spinner stopped.
    case expectGone(FlowTextPattern, area: ScreenArea?, within: Duration?)
    /// `expect-output "text" | /regex/ [within DURATION]`: wait until the program prints it
    /// after the output cursor; the cursor moves past the match (pexpect's `expect`).
    case expectOutput(FlowTextPattern, within: Duration?)
    /// `expect-output-not "text" | /regex/`: nothing printed after the output cursor matches.
    case expectOutputNot(FlowTextPattern)
    /// `wait-stable DURATION [in AREA]`: wait until the screen (or the part the area covers)
    /// has not changed for that long.
    case waitStable(Duration, area: ScreenArea? = nil)
    /// `snapshot NAME [AREA]`: compare the screen (or the part `AREA` covers) with the
    /// reference snapshot `NAME`.
    case snapshot(name: String, area: ScreenArea? = nil)
    /// `snapshot-transcript NAME`: compare the transcript (scrollback and screen) with the
    /// reference snapshot `NAME`.
    case snapshotTranscript(name: String)
    /// `spy NAME count N`: the app's spy `NAME` recorded exactly `N` calls (bridge).
    case spyCount(name: String, count: Int)
    /// `spy NAME last FILE.json`: the spy's last call equals the JSON in the file (bridge).
    case spyLast(name: String, file: FlowFileReference)
    /// `event NAME sequence V1,V2,...`: the bridge event `NAME` took these values, in order.
    case eventSequence(name: String, values: [String])
    /// `file NAME exists`: the sandbox holds `NAME`.
    case fileExists(name: String)
    /// `file NAME missing`: the sandbox does not hold `NAME`.
    case fileMissing(name: String)
    /// `file NAME equals FILE`: the sandbox's `NAME` has the same bytes as `FILE`.
    case fileEquals(name: String, file: FlowFileReference)
    /// `requests METHOD PATH count N`: the stub server received exactly `N` such requests.
    case requestCount(method: String, path: String, count: Int)
    /// `expect-request METHOD PATH [query|header|body ...] [count N]`: the stub server received
    /// such a request (waiting up to the timeout for the first), or exactly `N` of them.
    case expectRequest(FlowRequestExpectation)
    /// `include FILE`: the setup lines of another file, spliced in where the line is (the
    /// parser replaces it, so a parsed script never holds one).
    case include(FlowFileReference)
    /// `exit CODE`: wait for the program to exit with that status.
    case exit(code: Int32)

    // MARK: What the program reports: shell marks, title, clipboard

    /// `expect-command [within DURATION]`: wait until a shell command finishes (its OSC 133 D
    /// mark): the first one that was not finished when input was last sent, or after the one
    /// the previous `expect-command` saw finish.
    case expectCommand(within: Duration?)
    /// `command-status N`: the last finished command's exit status (its D mark's) is `N`.
    case commandStatus(Int)
    /// `expect-title "text" | /regex/ [within DURATION]`: wait until the title (OSC 0/2) is
    /// exactly the text, or the regex matches it.
    case expectTitle(FlowTextPattern, within: Duration?)
    /// `expect-clipboard "text" | /regex/ [within DURATION]`: wait until the program's last
    /// clipboard write (OSC 52) is exactly the text, or the regex matches it.
    case expectClipboard(FlowTextPattern, within: Duration?)

    // MARK: The bridge's calls and the launch options

    /// `call NAME [JSON] [equals JSON]`: calls the app's probe or handler `NAME` (bridge) with
    /// the params (`null` without), and compares the reply when `equals` is given.
    case call(name: String, params: FlowJSON?, expected: FlowJSON?)
    /// `probe NAME equals JSON`: the app's probe `NAME` reads this value (bridge).
    case probe(name: String, expected: FlowJSON)
    /// `given NAME` or `given json JSON`: before `launch` the initial state (`NAME` only, the
    /// launch protocol's initial state); after it, a call of the app's `given` handler.
    case given(FlowGiven)
    /// `set KEY=VALUE`: a free-form launch value (`--harness-set KEY=VALUE`).
    case set(key: String, value: String)
    /// `carrier arguments|environment`: where the launch options go (default: the environment).
    case carrier(LaunchCarrier)
    /// `tag NAME [NAME...]`: names `harness run --tag` and `--skip-tag` select the flow by.
    case tag([String])
    /// `matrix AXIS=V1,V2 [AXIS=...]`: the flow runs once per combination (``FlowMatrix``).
    case matrix(FlowMatrix)
    /// `kill`: end the program's process group now.
    case kill

    // MARK: Runs without a terminal (pipes)

    /// `stdin "text"` or `stdin file PATH`: the standard input of a `launch pipes` run.
    case stdin(FlowStandardInput)
    /// `launch pipes`: starts the program with pipes instead of a terminal.
    case launchPipes
    /// `stdout CHECK` or `stderr CHECK`: waits for the program to exit, then checks the whole stream.
    case streamCheck(FlowStream, FlowStreamCheck)

    /// The command's keyword: its row of the table (``FlowKeyword/definition``).
    public var keyword: FlowKeyword { written.keyword }

    /// The command as a flow file writes it: keyword, arguments, and the files they name.
    /// ``flowText`` prints it; the parser reads it back to an equal command.
    package var written: FlowWrittenCommand {
        typealias Line = FlowWrittenCommand
        switch self {
        case .app(let app): return Line(.app).word(app.written).words(app.arguments)
        case .env(let name, let value): return Line(.env, "\(name)=\(value.isEmpty ? "" : Self.word(value))")
        case .size(let size): return Line(.size, "\(size)")
        case .clock(let date): return Line(.clock, FlowClock.format(date))
        case .timeout(let duration): return Line(.timeout, FlowDurationParser.format(duration))
        case .stub(let stub):
            return Line(.stub, stub.method).word(stub.path).raw(stub.match.words).naming(stub.match.file).stubResponse(stub.response)
        case .seed(let file, let name): return Line(.seed).file(file).raw("as").word(name)
        case .launch: return Line(.launch)
        case .type(let text): return Line(.type).quoted(text)
        case .press(let keys): return Line(.press).raw(keys.map(Self.keyWord))
        case .paste(let text): return Line(.paste).quoted(text)
        case .resize(let size): return Line(.resize, "\(size)")
        case .click(let target): return Line(.click, Self.target(target))
        case .doubleClick(let target): return Line(.doubleClick, Self.target(target))
        case .drag(let from, let to): return Line(.drag, Self.target(from), "to", Self.target(to))
        case .scroll(let direction, let count, let target):
            return Line(.scroll, "\(direction)").raw(count == 1 ? [] : ["\(count)"]).raw(["at", Self.target(target)])
        case .hover(let target): return Line(.hover, Self.target(target))
        case .focus(let change): return Line(.focus, "\(change)")
        case .expect(let pattern, let within, let area, let style):
            return Line(.expect).pattern(pattern, area: area, style: style, within: within)
        case .expectNot(let pattern, let area, let style, let during):
            return Line(.expectNot).pattern(pattern, area: area, style: style, during: during)
        case .expectGone(let pattern, let area, let within): return Line(.expectGone).pattern(pattern, area: area, within: within)
        case .expectOutput(let pattern, let within): return Line(.expectOutput).pattern(pattern, within: within)
        case .expectOutputNot(let pattern): return Line(.expectOutputNot).pattern(pattern)
        case .waitStable(let duration, let area):
            return Line(.waitStable, FlowDurationParser.format(duration)).raw(area.map { ["in", Self.areaText($0)] } ?? [])
        case .snapshot(let name, let area): return Line(.snapshot, name).raw(area.map { [Self.areaText($0)] } ?? [])
        case .snapshotTranscript(let name): return Line(.snapshotTranscript, name)
        case .spyCount(let name, let count): return Line(.spy, name, "count", "\(count)")
        case .spyLast(let name, let file): return Line(.spy, name, "last").file(file)
        case .eventSequence(let name, let values):
            return Line(.event, name, "sequence", values.map(Self.listElement).joined(separator: ","))
        case .fileExists(let name): return Line(.file).word(name).raw("exists")
        case .fileMissing(let name): return Line(.file).word(name).raw("missing")
        case .fileEquals(let name, let file): return Line(.file).word(name).raw("equals").file(file)
        case .requestCount(let method, let path, let count): return Line(.requests, method).word(path).raw(["count", "\(count)"])
        case .expectRequest(let expected):
            return Line(.expectRequest, expected.method).word(expected.path).raw(expected.match.words).naming(expected.match.file)
                .raw(expected.count.map { ["count", "\($0)"] } ?? [])
        case .include(let file): return Line(.include).file(file)
        case .exit(let code): return Line(.exit, "\(code)")
        case .expectCommand(let within): return Line(.expectCommand).raw(within.map { ["within", FlowDurationParser.format($0)] } ?? [])
        case .commandStatus(let status): return Line(.commandStatus, "\(status)")
        case .expectTitle(let pattern, let within): return Line(.expectTitle).pattern(pattern, within: within)
        case .expectClipboard(let pattern, let within): return Line(.expectClipboard).pattern(pattern, within: within)
        case .kill: return Line(.kill)
        case .call(let name, let params, let expected):
            return Line(.call).word(name).json(params).raw(expected == nil ? [] : ["equals"]).json(expected)
        case .probe(let name, let expected): return Line(.probe).word(name).raw("equals").json(expected)
        case .given(.name(let name)): return name == "json" ? Line(.given).quoted(name) : Line(.given).word(name)
        case .given(.json(let json)): return Line(.given, "json").json(json)
        case .set(let key, let value): return Line(.set, "\(key)=\(value.isEmpty ? "" : Self.word(value))")
        case .carrier(let carrier): return Line(.carrier, carrier.rawValue)
        case .tag(let names): return Line(.tag).raw(names)
        case .matrix(let matrix): return Line(.matrix).raw(matrix.assignments)
        // Runs without a terminal (pipes)
        case .stdin(.text(let text)): return Line(.stdin).quoted(text)
        case .stdin(.file(let file)): return Line(.stdin, "file").file(file)
        case .launchPipes: return Line(.launch, "pipes")
        case .streamCheck(let stream, let check):
            let line = Line(stream == .stdout ? .stdout : .stderr, check.flowText)
            if case .equals(let file) = check { return line.naming(file) }
            return line
        }
    }
}

/// Every keyword of the flow language, and its row of the table: when it may appear, what it
/// needs, its arguments and a one-line summary. The parser's recognition and dispatch, the
/// order checks, the printer (``FlowCommand/keyword``), `harness run --help` and the check of
/// docs/FLOWS.md's command reference all read this table.
///
/// The names are declared beside ``FlowCommand``; each keyword's row (grammar, phase, needs) is
/// the flow module's (`FlowKeyword+Table.swift`; docs/ARCHITECTURE.md, "Adding a step").
public enum FlowKeyword: String, CaseIterable, Sendable {
    case app, env, size, clock, timeout, stub, seed, launch, type, press, paste, resize
    case click, doubleClick = "double-click", drag, scroll, hover, focus
    case expect, expectNot = "expect-not", expectGone = "expect-gone", expectOutput = "expect-output"
    case expectOutputNot = "expect-output-not", waitStable = "wait-stable", snapshot, snapshotTranscript = "snapshot-transcript"
    case spy, event, file, requests, expectRequest = "expect-request", include, exit, kill
    // What the program reports: shell marks, title, clipboard
    case expectCommand = "expect-command", commandStatus = "command-status", expectTitle = "expect-title"
    case expectClipboard = "expect-clipboard"
    // The bridge's calls and the launch options
    case call, probe, given, set, carrier
    // Which runs the flow belongs to: tags and the matrix
    case tag, matrix
    // Runs without a terminal (pipes)
    case stdin, stdout, stderr
}

/// A JSON value a flow gives or expects (`call`, `probe`, `given json`): a quoted string holding
/// the JSON (`"{\"id\": 1}"`), or a bare word naming a file relative to the flow file.
public enum FlowJSON: Sendable, Hashable, CustomStringConvertible {
    /// JSON written in the flow, checked when the flow is parsed.
    case inline(String)
    /// A file holding JSON, read when the step runs.
    case file(FlowFileReference)

    /// The argument as a flow file writes it.
    public var description: String {
        switch self {
        case .inline(let json): FlowStringLiteral.quote(json)
        case .file(let file): FlowCommand.word(file.written)
        }
    }
}

/// What a `given` line gives: a state's name, or a whole state as JSON (after `launch` only).
public enum FlowGiven: Sendable, Hashable {
    /// `given NAME`: the initial state's name before `launch`, the JSON string `"NAME"` after it.
    case name(String)
    /// `given json JSON`: the params of the app's `given` handler.
    case json(FlowJSON)
}

/// A command with the place it was written, so a failure can point at its line.
public struct FlowStep: Sendable, Equatable {
    /// The command.
    public var command: FlowCommand
    /// Where the command's keyword starts.
    public var position: SourcePosition

    /// Creates a step.
    public init(command: FlowCommand, position: SourcePosition) {
        (self.command, self.position) = (command, position)
    }
}

/// What `expect` and `expect-not` look for: literal text or a regular expression.
public enum FlowTextPattern: Sendable, Equatable, CustomStringConvertible {
    /// Literal text, found anywhere on a screen line.
    case text(String)
    /// An `NSRegularExpression` pattern (checked at parse time), matched line by line; `\/` in
    /// the flow file is already unescaped to `/`.
    case regex(String)

    /// The pattern as a flow file writes it.
    public var description: String {
        switch self {
        case .text(let text): FlowStringLiteral.quote(text)
        case .regex(let pattern): "/" + pattern.replacingOccurrences(of: "/", with: "\\/") + "/"
        }
    }
}

/// A path written in a flow file to a file beside it (`json`, `seed`, `equals`, `last`).
public struct FlowFileReference: Sendable, Hashable, CustomStringConvertible {
    /// The path as written.
    public var written: String
    /// The absolute path: `written` if absolute, else joined to the flow file's directory
    /// (lexically; nothing is read when parsing).
    public var absolutePath: String

    /// Creates a reference, resolving `written` against `directory`.
    public init(written: String, directory: String) {
        self.written = written
        self.absolutePath = FlowPaths.join(directory, written)
    }

    /// The path as written.
    public var description: String { written }
}

/// The `app` line: the program and its arguments, resolved when the flow runs.
public struct FlowApp: Sendable, Hashable {
    /// The program as written.
    public var written: String
    /// Its arguments, unquoted.
    public var arguments: [String]
    /// The directory of the flow file, for relative paths.
    public var flowDirectory: String

    /// Creates an app line's value.
    public init(written: String, arguments: [String], flowDirectory: String) {
        (self.written, self.arguments, self.flowDirectory) = (written, arguments, flowDirectory)
    }
}

/// A route of the flow's stub server.
public struct FlowStub: Sendable, Hashable {
    /// The HTTP method, upper case (`GET`).
    public var method: String
    /// The path, starting with `/` (a query string, if written, is kept).
    public var path: String
    /// What else a request must have to be answered by this route (query, headers, body).
    public var match = FlowRequestMatch()
    /// What the route answers.
    public var response: FlowStubResponse

    /// Creates a stub line's value.
    public init(method: String, path: String, match: FlowRequestMatch = FlowRequestMatch(), response: FlowStubResponse) {
        (self.method, self.path, self.match, self.response) = (method, path, match, response)
    }
}

/// What a stubbed route does.
public enum FlowStubResponse: Sendable, Hashable {
    /// Answers `status` with `body`, after `delay` when given.
    case respond(status: Int, body: FlowStubBody, delay: Duration?)
    /// Accepts the request and never answers.
    case hang
    /// Closes the connection without answering.
    case close
    /// Answers the statuses in turn, one per request, the last one repeating; `json`, when given,
    /// is the body of the 2xx answers (the others have no body).
    case sequence(statuses: [Int], json: FlowFileReference?)
}

/// The body of a stubbed answer.
public enum FlowStubBody: Sendable, Hashable {
    /// No body.
    case empty
    /// The file's bytes with `Content-Type: application/json`.
    case json(FlowFileReference)
    /// The text with `Content-Type: text/plain; charset=utf-8`.
    case text(String)
}
