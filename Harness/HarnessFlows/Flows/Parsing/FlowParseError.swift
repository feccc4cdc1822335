import HarnessCore
import HarnessSteps

/// A mistake in a flow file, with where it is: `login.flow:7:12: unknown key "entr" (did you mean "enter"?)`.
public struct FlowParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the mistake is.
    public var position: SourcePosition
    /// What the mistake is.
    public var kind: Kind

    /// Creates an error.
    public init(_ kind: Kind, at position: SourcePosition) {
        self.kind = kind
        self.position = position
    }

    /// The kinds of mistakes, each with what is needed to explain it.
    public enum Kind: Sendable, Equatable {
        /// The flow file could not be read.
        case unreadableFile(reason: String)
        /// The flow path leads to something other than a regular file (a FIFO, a socket, a device).
        case notARegularFile(path: String, type: String)
        /// The flow file's bytes are not UTF-8: the first invalid byte, at `offset` from the
        /// start of the file (the position says its line and column).
        case invalidUTF8(byte: UInt8, offset: Int)
        /// A NUL character in a program's path, argument or environment, which a program cannot
        /// receive (its arguments are C strings): `what` says which.
        case nulCharacter(in: String)
        /// The first word of a line is not a command.
        case unknownCommand(String, suggestion: String?)
        /// A `press` argument is not a key.
        case unknownKey(String, suggestion: String?)
        /// A string has no closing quote on its line.
        case unterminatedString
        /// A backslash escape that strings do not have, or a malformed `\xNN` / `\u{...}`.
        case invalidEscape(String)
        /// A `"` inside an unquoted word.
        case unexpectedQuote
        /// A closing quote or slash directly followed by more text.
        case missingSpaceAfter(String)
        /// A regex has no closing `/` on its line.
        case unterminatedRegex
        /// A regex that does not compile.
        case invalidRegex(pattern: String, reason: String)
        /// Not a duration (`500ms`, `5s`, `1.5s`, `2m`), or zero where a wait needs time.
        case invalidDuration(String)
        /// Not a size (`80x24`).
        case invalidSize(String)
        /// `clock` with something that is not an ISO 8601 date and time.
        case invalidClock(String)
        /// Not a number in the range `expected` describes.
        case invalidNumber(String, expected: String)
        /// Not an upper-case HTTP method.
        case invalidMethod(String)
        /// An `include` that cannot be followed: `reason` says why (outside the flow's folder,
        /// not found, a line that is not a setup line).
        case invalidInclude(written: String, reason: String)
        /// An `include` that leads back to a file that is already being included: the chain of
        /// files, from the first to the repeated one.
        case includeCycle([String])
        /// A stub path that does not start with `/`.
        case invalidRequestPath(String)
        /// A name (variable, snapshot, sandbox file, spy, event) that is not allowed.
        case invalidName(String, reason: String)
        /// A word after `style` that is not an attribute or a color: `reason` says what is allowed.
        case invalidStyle(String, reason: String)
        /// An area (`rows A-B`, `between "X" and "Y"`) that is malformed: `reason` says why.
        case invalidArea(String, reason: String)
        /// The line ends where an argument was needed.
        case missingArgument(command: String, expected: String)
        /// An argument that does not belong there.
        case unexpectedArgument(String, expected: String)
        /// The flow has no `app` line.
        case missingApp
        /// The flow never launches the app.
        case missingLaunch
        /// `launch` comes before `app`.
        case launchBeforeApp
        /// A command that may appear once appears again.
        case duplicate(command: String, subject: String, firstLine: Int)
        /// A setup command (`app`, `env`, `size`, `stub`, `seed`) after `launch`.
        case setupAfterLaunch(command: String)
        /// A command that needs the running app, before `launch`.
        case beforeLaunch(command: String)
        /// A command that needs the running app, after `exit` or `kill` ended it.
        case afterExit(command: String, endedBy: String, line: Int)
        /// A file the flow refers to does not exist.
        case missingFile(written: String, resolved: String)
        /// A quoted JSON argument (`call`, `probe`, `given json`) that is not well-formed JSON.
        case invalidJSON(String, reason: String)
        /// `given json ...` before `launch`: the initial state is a name.
        case givenJSONBeforeLaunch

        // MARK: Runs without a terminal (pipes)

        /// A command that needs a terminal, in a flow that launches with pipes.
        case needsTerminal(command: String)
        /// A command of pipes runs (`stdin`, `stdout`, `stderr`) in a flow that launches in a terminal.
        case needsPipes(command: String)
    }

    /// The message without the position.
    public var message: String {
        switch kind {
        case .unreadableFile(let reason):
            return "cannot read the flow file: \(reason)"
        case .notARegularFile(let path, let type):
            return "cannot read the flow file: \(path) is \(type), not a regular file"
        case .invalidUTF8(let byte, let offset):
            return "the flow file is not valid UTF-8: byte 0x\(TextEscaping.hex(UInt32(byte), width: 2, uppercase: true)) "
                + "at offset \(offset) (save it as UTF-8)"
        case .nulCharacter(let what):
            return "\(what) holds a NUL character (\\0), which a program cannot receive"
        case .unknownCommand(let word, let suggestion):
            return "unknown command \"\(word)\"" + Self.hint(suggestion)
                + (suggestion == nil ? " (commands: \(FlowParser.commandNames.joined(separator: ", ")))" : "")
        case .unknownKey(let word, let suggestion):
            return "unknown key \"\(word)\"" + Self.hint(suggestion)
        case .unterminatedString:
            return "unterminated string (no closing \" on this line)"
        case .invalidEscape(let escape):
            return "invalid escape \"\(escape)\" (strings know \\n \\t \\r \\e \\\" \\\\ \\xNN (00-7F) and \\u{HEX})"
        case .unexpectedQuote:
            return "unexpected \" inside a word (quote the whole argument)"
        case .missingSpaceAfter(let what):
            return "expected a space after the closing \(what)"
        case .unterminatedRegex:
            return "unterminated regex (no closing / on this line; write \\/ for a slash inside it)"
        case .invalidRegex(let pattern, let reason):
            return "invalid regex /\(pattern)/: \(reason)"
        case .invalidDuration(let text):
            return "invalid duration \"\(text)\" (write e.g. 500ms, 5s, 1.5s, 2m; more than zero, at most 24h)"
        case .invalidSize(let text):
            return "invalid size \"\(text)\" (write COLSxROWS, e.g. 80x24, each 1...\(TerminalSize.maximumDimension))"
        case .invalidClock(let text):
            return "invalid clock \"\(text)\" (expected an ISO 8601 date and time such as 2023-11-14T22:13:20Z)"
        case .invalidNumber(let text, let expected):
            return "invalid number \"\(text)\" (expected \(expected))"
        case .invalidMethod(let text):
            return "invalid HTTP method \"\(text)\" (write it in upper case, e.g. GET, POST)"
        case .invalidInclude(let written, let reason):
            return "include \"\(written)\": \(reason)"
        case .includeCycle(let chain):
            return "include cycle: " + chain.joined(separator: " → ")
        case .invalidRequestPath(let text):
            return "invalid request path \"\(text)\" (it must start with /)"
        case .invalidName(let text, let reason):
            return "invalid name \"\(text)\": \(reason)"
        case .invalidStyle(let text, let reason):
            return "invalid style \"\(text)\": \(reason)"
        case .invalidArea(let text, let reason):
            return "invalid area \"\(text)\": \(reason)"
        case .missingArgument(let command, let expected):
            return "\(command): missing \(expected)"
        case .unexpectedArgument(let text, let expected):
            return "unexpected \"\(text)\" (expected \(expected))"
        case .missingApp:
            return "the flow has no app line (add `app PATH` before `launch`)"
        case .missingLaunch:
            return "the flow never launches the app (add `launch` after the setup lines)"
        case .launchBeforeApp:
            return "launch before app (write `app PATH` first)"
        case .duplicate(let command, let subject, let firstLine):
            return "\(command) \(subject) already given on line \(firstLine)"
        case .setupAfterLaunch(let command):
            return "\(command) must come before launch"
        case .beforeLaunch(let command):
            return "\(command) needs the running app: put it after launch"
        case .afterExit(let command, let endedBy, let line):
            return "\(command) needs the running app, but \(endedBy) on line \(line) ended it"
        case .missingFile(let written, let resolved):
            return "file \"\(written)\" not found (looked at \(resolved))"
        case .invalidJSON(let text, let reason):
            return "invalid JSON \(FlowStringLiteral.quote(text)): \(reason) (a quoted argument holds JSON: "
                + "\"{\\\"id\\\": 1}\", \"\\\"text\\\"\", \"null\"; a bare word names a JSON file)"
        case .givenJSONBeforeLaunch:
            return "given json before launch: the initial state is a name (`given error`); "
                + "a whole state can be given after launch"
        // Runs without a terminal (pipes)
        case .needsTerminal(let command):
            let hint = switch FlowKeyword(rawValue: command) {
            case .expect?, .expectNot?: " (check the output with `stdout contains` or `stdout matches`)"
            case .snapshot?: " (use `stdout snapshot NAME`)"
            default: ""
            }
            return "`\(command)` needs a terminal: this flow launches with pipes" + hint
        case .needsPipes(let command):
            return "`\(command)` needs `launch pipes`: this flow launches in a terminal"
        }
    }

    /// `file:line:column: message`.
    public var description: String { "\(position): \(message)" }

    private static func hint(_ suggestion: String?) -> String {
        suggestion.map { " (did you mean \"\($0)\"?)" } ?? ""
    }
}

/// All the mistakes of a flow file (or of several), reported together before anything runs.
public struct FlowParseErrors: Error, Sendable, Equatable, CustomStringConvertible {
    /// The mistakes, in file and line order.
    public var errors: [FlowParseError]

    /// Creates the list.
    public init(_ errors: [FlowParseError]) {
        self.errors = errors
    }

    /// One error per line, then a count.
    public var description: String {
        let count = errors.count == 1 ? "1 error" : "\(errors.count) errors"
        return (errors.map(\.description) + [count]).joined(separator: "\n")
    }
}
