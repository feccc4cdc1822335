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
    /// `expect "text" | /regex/ [in AREA] [style ATTRIBUTES...] [within DURATION]`: wait until
    /// the screen shows it (inside the area, with the style in every cell, when given).
    case expect(FlowTextPattern, within: Duration?, area: ScreenArea? = nil, style: TextStyle? = nil)
    /// `expect-not "text" | /regex/`: the screen does not show it now.
    case expectNot(FlowTextPattern)
    /// `expect-output "text" | /regex/ [within DURATION]`: wait until the program prints it
    /// after the output cursor; the cursor moves past the match (pexpect's `expect`).
    case expectOutput(FlowTextPattern, within: Duration?)
    /// `expect-output-not "text" | /regex/`: nothing printed after the output cursor matches.
    case expectOutputNot(FlowTextPattern)
    /// `wait-stable DURATION`: wait until the screen has not changed for that long.
    case waitStable(Duration)
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
    /// `exit CODE`: wait for the program to exit with that status.
    case exit(code: Int32)

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
    /// `kill`: end the program's process group now.
    case kill

    // MARK: Runs without a terminal (pipes)

    /// `stdin "text"` or `stdin file PATH`: the standard input of a `launch pipes` run.
    case stdin(FlowStandardInput)
    /// `launch pipes`: starts the program with pipes instead of a terminal.
    case launchPipes
    /// `stdout CHECK` or `stderr CHECK`: waits for the program to exit, then checks the whole stream.
    case streamCheck(FlowStream, FlowStreamCheck)

    /// The command's keyword as written in a flow file.
    public var keyword: String {
        switch self {
        case .app: "app"
        case .env: "env"
        case .size: "size"
        case .clock: "clock"
        case .timeout: "timeout"
        case .stub: "stub"
        case .seed: "seed"
        case .launch: "launch"
        case .type: "type"
        case .press: "press"
        case .paste: "paste"
        case .resize: "resize"
        case .click: "click"
        case .doubleClick: "double-click"
        case .drag: "drag"
        case .scroll: "scroll"
        case .expect: "expect"
        case .expectNot: "expect-not"
        case .expectOutput: "expect-output"
        case .expectOutputNot: "expect-output-not"
        case .waitStable: "wait-stable"
        case .snapshot: "snapshot"
        case .snapshotTranscript: "snapshot-transcript"
        case .spyCount, .spyLast: "spy"
        case .eventSequence: "event"
        case .fileExists, .fileMissing, .fileEquals: "file"
        case .requestCount: "requests"
        case .exit: "exit"
        case .kill: "kill"
        case .call: "call"
        case .probe: "probe"
        case .given: "given"
        case .set: "set"
        case .carrier: "carrier"
        // Runs without a terminal (pipes)
        case .stdin: "stdin"
        case .launchPipes: "launch"
        case .streamCheck(let stream, _): stream.rawValue
        }
    }
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
}

/// A route of the flow's stub server.
public struct FlowStub: Sendable, Hashable {
    /// The HTTP method, upper case (`GET`).
    public var method: String
    /// The path, starting with `/` (a query string, if written, is kept).
    public var path: String
    /// What the route answers.
    public var response: FlowStubResponse
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
