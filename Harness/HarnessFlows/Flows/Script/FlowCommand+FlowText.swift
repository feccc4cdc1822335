import HarnessCore
import TerminalEmulator

extension FlowCommand {
    /// The command as a line of a flow file (what failure messages quote and recorders write).
    ///
    /// Parsing the line gives back an equal command, except that file references are written as
    /// they were given (`json fixtures/todos.json`).
    public var flowText: String {
        switch self {
        case .app(let app):
            return (["app", Self.word(app.written)] + app.arguments.map(Self.word)).joined(separator: " ")
        case .env(let name, let value):
            return "env \(name)=\(value.isEmpty ? "" : Self.word(value))"
        case .size(let size):
            return "size \(size)"
        case .clock(let date):
            return "clock \(FlowClock.format(date))"
        case .timeout(let duration):
            return "timeout \(FlowDurationParser.format(duration))"
        case .stub(let stub):
            return "stub \(stub.method) \(Self.word(stub.path)) \(stub.response.flowText)"
        case .seed(let file, let name):
            return "seed \(Self.word(file.written)) as \(Self.word(name))"
        case .launch:
            return "launch"
        case .type(let text):
            return "type \(FlowStringLiteral.quote(text))"
        case .press(let keys):
            return "press " + keys.map(Self.keyWord).joined(separator: " ")
        case .paste(let text):
            return "paste \(FlowStringLiteral.quote(text))"
        case .resize(let size):
            return "resize \(size)"
        case .click(let target):
            return "click \(Self.target(target))"
        case .doubleClick(let target):
            return "double-click \(Self.target(target))"
        case .drag(let from, let to):
            return "drag \(Self.target(from)) to \(Self.target(to))"
        case .scroll(let direction, let count, let target):
            return "scroll \(direction)" + (count == 1 ? "" : " \(count)") + " at \(Self.target(target))"
        case .expect(let pattern, let within, let area, let style):
            return "expect \(pattern)" + (area.map { " in \(Self.areaText($0))" } ?? "")
                + (style.map { " style \($0)" } ?? "")
                + (within.map { " within \(FlowDurationParser.format($0))" } ?? "")
        case .expectNot(let pattern):
            return "expect-not \(pattern)"
        case .expectOutput(let pattern, let within):
            return "expect-output \(pattern)" + (within.map { " within \(FlowDurationParser.format($0))" } ?? "")
        case .expectOutputNot(let pattern):
            return "expect-output-not \(pattern)"
        case .waitStable(let duration):
            return "wait-stable \(FlowDurationParser.format(duration))"
        case .snapshot(let name, let area):
            return "snapshot \(name)" + (area.map { " \(Self.areaText($0))" } ?? "")
        case .snapshotTranscript(let name):
            return "snapshot-transcript \(name)"
        case .spyCount(let name, let count):
            return "spy \(name) count \(count)"
        case .spyLast(let name, let file):
            return "spy \(name) last \(Self.word(file.written))"
        case .eventSequence(let name, let values):
            return "event \(name) sequence " + values.map(Self.listElement).joined(separator: ",")
        case .fileExists(let name):
            return "file \(Self.word(name)) exists"
        case .fileMissing(let name):
            return "file \(Self.word(name)) missing"
        case .fileEquals(let name, let file):
            return "file \(Self.word(name)) equals \(Self.word(file.written))"
        case .requestCount(let method, let path, let count):
            return "requests \(method) \(Self.word(path)) count \(count)"
        case .exit(let code):
            return "exit \(code)"
        case .kill:
            return "kill"
        case .call(let name, let params, let expected):
            return "call \(Self.word(name))" + (params.map { " \($0)" } ?? "") + (expected.map { " equals \($0)" } ?? "")
        case .probe(let name, let expected):
            return "probe \(Self.word(name)) equals \(expected)"
        case .given(.name(let name)):
            return "given \(name == "json" ? FlowStringLiteral.quote(name) : Self.word(name))"
        case .given(.json(let json)):
            return "given json \(json)"
        case .set(let key, let value):
            return "set \(key)=\(value.isEmpty ? "" : Self.word(value))"
        case .carrier(let carrier):
            return "carrier \(carrier.rawValue)"
        // Runs without a terminal (pipes)
        case .stdin(let input):
            return input.flowText
        case .launchPipes:
            return "launch pipes"
        case .streamCheck(let stream, let check):
            return "\(stream.rawValue) \(check.flowText)"
        }
    }

    /// An area as flows write it: `rows 2-10`, `rows 2-10 cols 0-39`,
    /// `between "Todos" and "q quit"` (then `exclusive` when the anchors are left out).
    static func areaText(_ area: ScreenArea) -> String {
        switch area {
        case .rows(let rows):
            return "rows " + rangeText(rows.lowerBound, rows.upperBound)
        case .rectangle(let region):
            return "rows " + rangeText(region.row, region.row + region.height - 1)
                + " cols " + rangeText(region.col, region.col + region.width - 1)
        case let .between(start, end, inclusive):
            return "between \(FlowStringLiteral.quote(start)) and \(FlowStringLiteral.quote(end))" + (inclusive ? "" : " exclusive")
        }
    }

    private static func rangeText(_ first: Int, _ last: Int) -> String { first == last ? "\(first)" : "\(first)-\(last)" }

    /// `text` as a bare word when the parser reads it back unchanged, else as a quoted string.
    static func word(_ text: String) -> String {
        let plain = !text.isEmpty && !text.hasPrefix("#")
            && text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F && $0 != "\"" && $0 != "\\" }
        return plain ? text : FlowStringLiteral.quote(text)
    }

    /// A mouse target as the mouse commands read it: `"text"` (always quoted) or `ROW,COL`.
    static func target(_ target: MouseTarget) -> String {
        switch target {
        case .text(let text): return FlowStringLiteral.quote(text)
        case .cell(let row, let col): return "\(row),\(col)"
        }
    }

    /// A list element (`sequence`): a bare word without commas, else a quoted string.
    static func listElement(_ text: String) -> String {
        text.contains(",") ? FlowStringLiteral.quote(text) : word(text)
    }

    /// A key as `press` reads it: its name, quoted when it is a character the parser would
    /// read differently (`#` starts a comment, `"` a string).
    static func keyWord(_ key: Key) -> String {
        if case .character(let character) = key, "#\"\\".contains(character) {
            return FlowStringLiteral.quote(String(character))
        }
        return key.name
    }
}

extension FlowStubResponse {
    /// The part of a `stub` line after the path.
    public var flowText: String {
        switch self {
        case .hang:
            return "hang"
        case .close:
            return "close"
        case .sequence(let statuses, let json):
            return "sequence " + statuses.map(String.init).joined(separator: ",")
                + (json.map { " json \(FlowCommand.word($0.written))" } ?? "")
        case .respond(let status, let body, let delay):
            var text = "\(status)"
            switch body {
            case .empty: break
            case .json(let file): text += " json \(FlowCommand.word(file.written))"
            case .text(let body): text += " text \(FlowStringLiteral.quote(body))"
            }
            if let delay { text += " delay \(FlowDurationParser.format(delay))" }
            return text
        }
    }
}
