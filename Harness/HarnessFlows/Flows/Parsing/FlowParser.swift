import Foundation
import HarnessCore
import HarnessWire
import TerminalEmulator

/// Reads `.flow` files into checked ``FlowScript`` values, reporting every mistake of a file at
/// once with its line and column.
///
/// ```swift
/// do {
///     let script = try FlowParser.parse(source, file: "login.flow", directory: "/repo/Tests/Flows")
/// } catch {
///     print(error)   // login.flow:7:12: unknown key "entr" (did you mean "enter"?)
/// }
/// ```
public enum FlowParser {
    /// Every command keyword.
    public static let commandNames = [
        "app", "env", "size", "clock", "timeout", "stub", "seed", "launch", "type", "press", "paste", "resize",
        "click", "double-click", "drag", "scroll",
        "expect", "expect-not", "expect-output", "expect-output-not", "wait-stable", "snapshot", "snapshot-transcript",
        "spy", "event", "file", "requests", "exit", "kill",
        // The bridge's calls and the launch options
        "call", "probe", "given", "set", "carrier",
        // Runs without a terminal (pipes)
        "stdin", "stdout", "stderr",
    ]

    /// Parses `source` and checks the order of its commands.
    ///
    /// - Parameters:
    ///   - file: the name used in error positions (usually the path relative to the run root).
    ///   - directory: the flow file's directory, against which relative files are resolved.
    /// - Throws: ``FlowParseErrors`` with every mistake of the file, in line order.
    public static func parse(_ source: String, file: String, directory: String) throws(FlowParseErrors) -> FlowScript {
        var steps: [FlowStep] = []
        var errors: [FlowParseError] = []
        var keywordsWithErrors: Set<String> = []
        let sourceLines = lines(of: source)
        for (offset, text) in sourceLines.enumerated() {
            let scanner = FlowLineScanner(text, file: file, line: offset + 1)
            var parser = LineParser(scanner: scanner, directory: directory)
            do {
                if let step = try parser.parseLine() { steps.append(step) }
            } catch {
                errors.append(error)
                if let keyword = parser.keyword { keywordsWithErrors.insert(keyword) }
            }
        }
        let lineCount = max(1, sourceLines.count)
        errors += FlowOrderChecker.check(steps, file: file, lastLine: lineCount, ignoring: keywordsWithErrors)
        errors = errors.enumerated().sorted {
            ($0.element.position.line, $0.element.position.column, $0.offset) < ($1.element.position.line, $1.element.position.column, $1.offset)
        }.map(\.element)
        if !errors.isEmpty { throw FlowParseErrors(errors) }
        return FlowScript(file: file, directory: directory, steps: steps)
    }

    /// Reads, parses and checks the flow at `path`, including that the files it refers to
    /// (`json`, `seed`, `equals`, `last`) exist.
    ///
    /// - Parameter displayName: the name used in error positions; by default `path` as given.
    public static func load(path: String, displayName: String? = nil) throws(FlowParseErrors) -> FlowScript {
        let name = displayName ?? path
        let absolute = path.hasPrefix("/") ? path : FlowPaths.join(FileManager.default.currentDirectoryPath, path)
        let source: String
        do {
            source = try String(contentsOfFile: absolute, encoding: .utf8)
        } catch {
            throw FlowParseErrors([FlowParseError(.unreadableFile(reason: "\(absolute): \(error.localizedDescription)"),
                                                  at: SourcePosition(file: name, line: 1, column: 1))])
        }
        let script = try parse(source, file: name, directory: FlowPaths.directory(of: absolute))
        let missing = missingFiles(in: script)
        if !missing.isEmpty { throw FlowParseErrors(missing) }
        return script
    }

    /// Errors for every file the script refers to that does not exist.
    public static func missingFiles(in script: FlowScript) -> [FlowParseError] {
        var errors: [FlowParseError] = []
        for step in script.steps {
            var references: [FlowFileReference] = []
            switch step.command {
            case .seed(let file, _), .spyLast(_, let file), .fileEquals(_, let file):
                references = [file]
            case .call(_, let params, let expected):
                references = [params, expected].compactMap { json in
                    if case .file(let file)? = json { return file }
                    return nil
                }
            case .probe(_, .file(let file)), .given(.json(.file(let file))):
                references = [file]
            case .stdin(.file(let file)), .streamCheck(_, .equals(let file)):
                references = [file]
            case .stub(let stub):
                switch stub.response {
                case .respond(_, .json(let file), _): references = [file]
                case .sequence(_, let file?): references = [file]
                default: break
                }
            default: break
            }
            for reference in references where !FileManager.default.fileExists(atPath: reference.absolutePath) {
                errors.append(FlowParseError(.missingFile(written: reference.written, resolved: reference.absolutePath),
                                             at: step.position))
            }
        }
        return errors
    }

    /// The lines of `source`, split on LF with a trailing CR removed (so CRLF files work).
    static func lines(of source: String) -> [Substring] {
        var result: [Substring] = []
        var lineStart = source.unicodeScalars.startIndex
        let scalars = source.unicodeScalars
        var index = scalars.startIndex
        func append(upTo end: String.UnicodeScalarView.Index) {
            var lineEnd = end
            if lineEnd > lineStart, scalars[scalars.index(before: lineEnd)] == "\r" {
                lineEnd = scalars.index(before: lineEnd)
            }
            result.append(Substring(scalars[lineStart..<lineEnd]))
        }
        while index < scalars.endIndex {
            if scalars[index] == "\n" {
                append(upTo: index)
                lineStart = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        if lineStart < scalars.endIndex { append(upTo: scalars.endIndex) }
        return result
    }
}

/// Parses the command of one line.
private struct LineParser {
    var scanner: FlowLineScanner
    let directory: String
    /// The command keyword once recognised (to silence follow-up order errors).
    var keyword: String?

    init(scanner: FlowLineScanner, directory: String) {
        self.scanner = scanner
        self.directory = directory
    }

    mutating func parseLine() throws(FlowParseError) -> FlowStep? {
        guard let word = try scanner.nextArgument() else { return nil }
        let position = SourcePosition(file: scanner.file, line: scanner.line, column: word.column)
        guard !word.quoted, FlowParser.commandNames.contains(word.text) else {
            let suggestion = FlowSuggestion.closest(to: word.text, in: FlowParser.commandNames)
            throw scanner.error(.unknownCommand(word.text, suggestion: suggestion), column: word.column)
        }
        keyword = word.text
        let command = try parseCommand(word.text)
        try expectEnd()
        return FlowStep(command: command, position: position)
    }

    // MARK: - Commands

    private mutating func parseCommand(_ keyword: String) throws(FlowParseError) -> FlowCommand {
        switch keyword {
        case "app":
            let path = try argument("the program's path")
            var arguments: [String] = []
            while let argument = try scanner.nextArgument() { arguments.append(argument.text) }
            return .app(FlowApp(written: path.text, arguments: arguments, flowDirectory: directory))
        case "env":
            return try parseEnv()
        case "size":
            return .size(try size())
        case "resize":
            return .resize(try size())
        case "clock":
            let argument = try argument("an ISO 8601 date and time, e.g. 2023-11-14T22:13:20Z")
            guard let date = FlowClock.parse(argument.text) else {
                throw scanner.error(.invalidClock(argument.text), column: argument.column)
            }
            return .clock(date)
        case "timeout":
            return .timeout(try duration("a duration", allowZero: false))
        case "stub":
            return .stub(try parseStub())
        case "seed":
            let file = try argument("the file to seed")
            try word("as")
            let name = try sandboxName(try argument("the name in the sandbox (`as NAME`)"))
            return .seed(file: reference(file), name: name)
        case "launch":
            return try parseLaunch()
        case "type":
            return .type(try argument("the text to type").text)
        case "paste":
            return .paste(try argument("the text to paste").text)
        case "press":
            var keys: [Key] = []
            while let argument = try scanner.nextArgument() {
                guard let key = try? Key(parsing: argument.text) else {
                    let suggestion = FlowSuggestion.closest(to: argument.text, in: Key.commonNames)
                    throw scanner.error(.unknownKey(argument.text, suggestion: suggestion), column: argument.column)
                }
                keys.append(key)
            }
            guard !keys.isEmpty else { throw missing("one or more keys") }
            return .press(keys)
        case "click":
            return .click(try mouseTarget())
        case "double-click":
            return .doubleClick(try mouseTarget())
        case "drag":
            let from = try mouseTarget()
            try word("to")
            return .drag(from: from, to: try mouseTarget())
        case "scroll":
            return try parseScroll()
        case "expect":
            return try parseExpect()
        case "expect-output":
            let pattern = try pattern()
            var within: Duration?
            if let next = try scanner.nextArgument() {
                guard !next.quoted, next.text == "within" else {
                    throw scanner.error(.unexpectedArgument(next.text, expected: "\"within DURATION\" or the end of the line"),
                                        column: next.column)
                }
                within = try duration("a duration after within", allowZero: false)
            }
            return .expectOutput(pattern, within: within)
        case "expect-not":
            return .expectNot(try pattern())
        case "expect-output-not":
            return .expectOutputNot(try pattern())
        case "wait-stable":
            return .waitStable(try duration("how long the screen must stay unchanged", allowZero: false))
        case "snapshot", "snapshot-transcript":
            let name = try argument("the snapshot's name")
            guard !name.text.isEmpty, name.text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }),
                  !name.text.hasPrefix(".")
            else {
                throw scanner.error(.invalidName(name.text, reason: "a snapshot name uses letters, digits, - _ and ."),
                                    column: name.column)
            }
            guard keyword == "snapshot" else { return .snapshotTranscript(name: name.text) }
            return .snapshot(name: name.text, area: scanner.isAtEnd() ? nil : try area())
        case "spy":
            let name = try identifier("the spy's name")
            let mode = try argument("\"count N\" or \"last FILE.json\"")
            switch (mode.quoted, mode.text) {
            case (false, "count"): return .spyCount(name: name, count: try count())
            case (false, "last"): return .spyLast(name: name, file: reference(try argument("the JSON file")))
            default:
                throw scanner.error(.unexpectedArgument(mode.text, expected: "\"count\" or \"last\""), column: mode.column)
            }
        case "event":
            let name = try identifier("the event's name")
            try word("sequence")
            guard let values = try scanner.nextList() else { throw missing("the values, comma-separated") }
            return .eventSequence(name: name, values: values.map(\.text))
        case "file":
            let name = try sandboxName(try argument("the file's name in the sandbox"))
            let mode = try argument("\"exists\", \"missing\" or \"equals FILE\"")
            switch (mode.quoted, mode.text) {
            case (false, "exists"): return .fileExists(name: name)
            case (false, "missing"): return .fileMissing(name: name)
            case (false, "equals"): return .fileEquals(name: name, file: reference(try argument("the expected file")))
            default:
                throw scanner.error(.unexpectedArgument(mode.text, expected: "\"exists\", \"missing\" or \"equals\""), column: mode.column)
            }
        case "requests":
            let method = try method()
            let path = try requestPath()
            try word("count")
            return .requestCount(method: method, path: path, count: try count())
        case "exit":
            let code = try argument("the expected exit status")
            guard let value = Int32(code.text), (0...255).contains(value), code.text.allSatisfy(\.isASCIIDigit) else {
                throw scanner.error(.invalidNumber(code.text, expected: "an exit status 0...255"), column: code.column)
            }
            return .exit(code: value)
        case "kill":
            return .kill
        case "call":
            let name = try identifier("the name of a probe or handler")
            var params: FlowJSON?
            var expected: FlowJSON?
            if let next = try scanner.nextArgument() {
                if !next.quoted, next.text == "equals" {
                    expected = try json(try argument("the expected reply: \"JSON\" or FILE.json"))
                } else {
                    params = try json(next)
                    if let after = try scanner.nextArgument() {
                        guard !after.quoted, after.text == "equals" else {
                            throw scanner.error(.unexpectedArgument(after.text, expected: "\"equals JSON\" or the end of the line"),
                                                column: after.column)
                        }
                        expected = try json(try argument("the expected reply: \"JSON\" or FILE.json"))
                    }
                }
            }
            return .call(name: name, params: params, expected: expected)
        case "probe":
            let name = try identifier("the probe's name")
            try word("equals")
            return .probe(name: name, expected: try json(try argument("the expected value: \"JSON\" or FILE.json")))
        case "given":
            let first = try argument("a state's name, or json \"JSON\" / json FILE.json")
            if !first.quoted, first.text == "json" {
                return .given(.json(try json(try argument("the state: \"JSON\" or FILE.json"))))
            }
            guard !first.text.isEmpty else {
                throw scanner.error(.unexpectedArgument("\"\"", expected: "a non-empty state name"), column: first.column)
            }
            return .given(.name(first.text))
        case "set":
            let (key, value) = try assignment(
                "KEY=VALUE", nameRule: "a key uses letters, digits, _, - and .",
                isValidName: { name in !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_-.".contains($0)) } })
            return .set(key: key, value: value)
        case "carrier":
            let argument = try argument("arguments or environment")
            guard !argument.quoted, let carrier = LaunchCarrier(rawValue: argument.text) else {
                throw scanner.error(.unexpectedArgument(argument.text, expected: "arguments or environment"), column: argument.column)
            }
            return .carrier(carrier)
        case "stdin":
            return try parseStandardInput()
        case "stdout":
            return .streamCheck(.stdout, try parseStreamCheck())
        case "stderr":
            return .streamCheck(.stderr, try parseStreamCheck())
        default:
            throw scanner.error(.unknownCommand(keyword, suggestion: nil), column: 1)
        }
    }

    private mutating func parseEnv() throws(FlowParseError) -> FlowCommand {
        _ = scanner.isAtEnd()  // skips the spaces before the name
        let start = scanner.index
        let (name, value) = try assignment(
            "NAME=VALUE", nameRule: "a variable name uses letters, digits and _, not starting with a digit",
            isValidName: { name in
                guard let first = name.first, first == "_" || (first.isASCII && first.isLetter) else { return false }
                return name.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
            })
        // The bridge's token is made fresh for each launch and only the harness may set it: a
        // flow's own value would silently replace it, and the app's host would be refused.
        guard name != LaunchArgument.tokenEnvironmentVariable else {
            throw scanner.error(.invalidName(name, reason: "the harness sets the bridge token for each launch; a flow cannot set it"),
                                at: start)
        }
        // The launch options' variables are the harness's too (the environment carrier).
        if LaunchVariable.all.contains(name) {
            throw scanner.error(.invalidName(name, reason: "the harness sets \(name) (the launch protocol's environment "
                                             + "carrier); use the flow's stub, seed, clock, given and set lines"),
                                at: start)
        }
        return .env(name: name, value: value)
    }

    /// `NAME=VALUE` (`env`, `set`): the name up to the first `=`, then a bare word or a string,
    /// possibly empty.
    private mutating func assignment(
        _ expected: String, nameRule: String, isValidName: (String) -> Bool
    ) throws(FlowParseError) -> (String, String) {
        guard !scanner.isAtEnd() else { throw missing(expected) }
        let start = scanner.index
        let name = scanner.readRaw(until: "=")
        guard scanner.current == "=" else {
            throw scanner.error(.unexpectedArgument(name, expected: expected), at: start)
        }
        guard isValidName(name) else {
            throw scanner.error(.invalidName(name, reason: nameRule), at: start)
        }
        scanner.index += 1
        let value: String
        if scanner.current == "\"" {
            value = try scanner.readString()
            try scanner.requireSeparator(after: "quote", allowComma: false)
        } else if scanner.current == nil || scanner.current == " " || scanner.current == "\t" {
            value = ""
        } else {
            value = try scanner.nextArgument()?.text ?? ""
        }
        return (name, value)
    }

    /// A JSON argument: a quoted string holding JSON (checked now), or a bare word naming a file.
    private func json(_ argument: FlowArgument) throws(FlowParseError) -> FlowJSON {
        guard argument.quoted else { return .file(reference(argument)) }
        do {
            _ = try RawJSON(validating: Data(argument.text.utf8))
        } catch {
            throw scanner.error(.invalidJSON(argument.text, reason: "\(error)"), column: argument.column)
        }
        return .inline(argument.text)
    }

    private mutating func parseStub() throws(FlowParseError) -> FlowStub {
        let method = try method()
        let path = try requestPath()
        let kind = try argument("a status, hang, close or sequence")
        let response: FlowStubResponse
        switch (kind.quoted, kind.text) {
        case (false, "hang"): response = .hang
        case (false, "close"): response = .close
        case (false, "sequence"):
            guard let elements = try scanner.nextList() else { throw missing("the statuses, comma-separated") }
            var statuses: [Int] = []
            for element in elements { statuses.append(try status(element)) }
            var json: FlowFileReference?
            if let next = try scanner.nextArgument() {
                guard !next.quoted, next.text == "json" else {
                    throw scanner.error(.unexpectedArgument(next.text, expected: "\"json FILE\" or the end of the line"),
                                        column: next.column)
                }
                guard statuses.contains(where: { (200...299).contains($0) }) else {
                    throw scanner.error(.unexpectedArgument("json", expected: "no body: the sequence has no 2xx status"),
                                        column: next.column)
                }
                json = reference(try argument("the JSON file"))
            }
            response = .sequence(statuses: statuses, json: json)
        default:
            let status = try status(kind)
            var body = FlowStubBody.empty
            var delay: Duration?
            var seenBody = false
            while let option = try scanner.nextArgument() {
                switch (option.quoted, option.text) {
                case (false, "json") where !seenBody:
                    body = .json(reference(try argument("the JSON file")))
                    seenBody = true
                case (false, "text") where !seenBody:
                    body = .text(try argument("the text of the body").text)
                    seenBody = true
                case (false, "delay") where delay == nil:
                    delay = try duration("a duration after delay", allowZero: true)
                default:
                    let expected = seenBody ? "\"delay DURATION\" or the end of the line"
                        : "\"json FILE\", \"text \"...\"\", \"delay DURATION\" or the end of the line"
                    throw scanner.error(.unexpectedArgument(option.text, expected: expected), column: option.column)
                }
            }
            response = .respond(status: status, body: body, delay: delay)
        }
        return FlowStub(method: method, path: path, response: response)
    }

    // MARK: - Styles and areas

    /// `expect PATTERN [in AREA] [style ATTRIBUTES...] [within DURATION]`, the options in any order.
    private mutating func parseExpect() throws(FlowParseError) -> FlowCommand {
        scanner.skipSpaces()
        let patternColumn = scanner.index + 1
        let pattern = try pattern()
        var within: Duration?
        var area: ScreenArea?
        var style: TextStyle?
        while let next = try scanner.nextArgument() {
            switch (next.quoted, next.text) {
            case (false, "within") where within == nil:
                within = try duration("a duration after within", allowZero: false)
            case (false, "in") where area == nil:
                area = try self.area()
            case (false, "style") where style == nil:
                style = try parseStyle()
            default:
                let options = [("in AREA", area == nil), ("style ATTRIBUTES", style == nil), ("within DURATION", within == nil)]
                    .filter(\.1).map { "\"\($0.0)\"" }
                throw scanner.error(.unexpectedArgument(next.text, expected: (options + ["the end of the line"]).joined(separator: ", ")),
                                    column: next.column)
            }
        }
        if area != nil || style != nil, case .text(let text) = pattern, text.contains("\n") {
            throw scanner.error(.unexpectedArgument(FlowStringLiteral.quote(text), expected: "text on one row: `in` and `style` check one row"),
                                column: patternColumn)
        }
        return .expect(pattern, within: within, area: area, style: style)
    }

    /// The words after `style`, up to `in`, `within` or the end of the line: `bold`, `dim`,
    /// `italic`, `underline`, `blink`, `inverse`, `hidden`, `strikethrough` (each also as
    /// `not-NAME`), `plain`, `fg=COLOR`, `bg=COLOR`.
    private mutating func parseStyle() throws(FlowParseError) -> TextStyle {
        var style = TextStyle()
        var seen: [String: Int] = [:]
        let words = TextStyle.attributeNames + TextStyle.attributeNames.map { "not-" + $0 } + ["plain", "fg=", "bg="]
        while true {
            let saved = scanner
            guard let word = try scanner.nextArgument() else { break }
            if !word.quoted, word.text == "in" || word.text == "within" {
                scanner = saved
                break
            }
            guard !word.quoted else {
                throw scanner.error(.invalidStyle(word.text, reason: "write attributes and colors as bare words (bold fg=red)"),
                                    column: word.column)
            }
            let text = word.text
            let subject = text.hasPrefix("not-") ? String(text.dropFirst(4))
                : text.contains("=") ? String(text.prefix(while: { $0 != "=" })) : text
            if let first = seen[subject] {
                throw scanner.error(.invalidStyle(text, reason: "\(subject) is already given at column \(first)"), column: word.column)
            }
            seen[subject] = word.column
            if text == "plain" {
                guard seen.count == 1 else {
                    throw scanner.error(.invalidStyle(text, reason: "plain sets every attribute and color; write it first"),
                                        column: word.column)
                }
                style = .plain
            } else if text.hasPrefix("fg=") || text.hasPrefix("bg=") {
                let name = String(text.dropFirst(3))
                guard let color = TerminalColor(styleName: name) else {
                    let suggestion = FlowSuggestion.closest(to: name, in: ["default"] + BasicColor.allCases.map(\.name))
                    throw scanner.error(.invalidStyle(text, reason: "unknown color \"\(name)\""
                        + (suggestion.map { " (did you mean \"\($0)\"?)" } ?? "")
                        + "; colors are default, black, red, green, yellow, blue, magenta, cyan, white, bright-NAME, "
                        + "a palette number 0-255 or #rrggbb"), column: word.column)
                }
                if text.hasPrefix("fg=") { style.foreground = color } else { style.background = color }
            } else if !text.contains("="), let updated = style.setting(subject, to: !text.hasPrefix("not-")) {
                style = updated
            } else {
                let suggestion = FlowSuggestion.closest(to: text, in: words)
                throw scanner.error(.invalidStyle(text, reason: "unknown attribute"
                    + (suggestion.map { " (did you mean \"\($0)\"?)" } ?? "")
                    + "; attributes are \(TextStyle.attributeNames.joined(separator: ", ")), each also as not-NAME, "
                    + "plain, fg=COLOR and bg=COLOR"), column: word.column)
            }
        }
        guard !seen.isEmpty else { throw missing("attributes after style (bold, not-italic, fg=red, ...)") }
        return style
    }

    /// `rows A-B` (or `rows A`), optionally followed by `cols C-D`, or
    /// `between "START" and "END" [exclusive]`; rows and columns 0-based, ranges inclusive.
    private mutating func area() throws(FlowParseError) -> ScreenArea {
        let kind = try argument("an area: rows A-B or between \"TEXT\" and \"TEXT\"")
        switch (kind.quoted, kind.text) {
        case (false, "rows"):
            let rows = try range("rows")
            let saved = scanner
            if let next = try scanner.nextArgument(), !next.quoted, next.text == "cols" {
                let cols = try range("cols")
                return .rectangle(ScreenRegion(row: rows.lowerBound, col: cols.lowerBound, width: cols.count, height: rows.count))
            }
            scanner = saved
            return .rows(rows)
        case (false, "between"):
            let start = try anchor("the text of the first row")
            try word("and")
            let end = try anchor("the text of the last row")
            let saved = scanner
            if let next = try scanner.nextArgument(), !next.quoted, next.text == "exclusive" {
                return .between(start: start, end: end, inclusive: false)
            }
            scanner = saved
            return .between(start: start, end: end, inclusive: true)
        default:
            throw scanner.error(.invalidArea(kind.text, reason: "write rows A-B (0-based, e.g. rows 2-10), rows A-B cols C-D, "
                + "or between \"TEXT\" and \"TEXT\""), column: kind.column)
        }
    }

    /// `A-B` or `A`: 0-based, `A` at most `B`, each at most 9999.
    private mutating func range(_ what: String) throws(FlowParseError) -> ClosedRange<Int> {
        let argument = try argument("the \(what), A-B (0-based, inclusive)")
        let parts = argument.text.split(separator: "-", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { part -> Int? in
            guard !part.isEmpty, part.count <= 4, part.allSatisfy(\.isASCIIDigit) else { return nil }
            return Int(part)
        }
        guard !argument.quoted, (1...2).contains(parts.count), numbers.count == parts.count else {
            throw scanner.error(.invalidArea(argument.text, reason: "\(what) are written A-B or A, 0-based numbers up to 9999"),
                                column: argument.column)
        }
        guard numbers[0] <= numbers[numbers.count - 1] else {
            throw scanner.error(.invalidArea(argument.text, reason: "the first of the \(what) comes after the last"),
                                column: argument.column)
        }
        return numbers[0]...numbers[numbers.count - 1]
    }

    private mutating func anchor(_ expected: String) throws(FlowParseError) -> String {
        let argument = try argument(expected)
        guard !argument.text.isEmpty, !argument.text.contains("\n") else {
            throw scanner.error(.invalidArea(argument.text, reason: "an anchor is non-empty text on one row"), column: argument.column)
        }
        return argument.text
    }

    // MARK: - Mouse

    /// The largest row or column a mouse command accepts (sizes reach 4096).
    static let largestCell = 4095

    /// `scroll up|down [N] at TARGET`.
    private mutating func parseScroll() throws(FlowParseError) -> FlowCommand {
        let way = try argument("\"up\" or \"down\"")
        guard !way.quoted, let direction = ScrollDirection(rawValue: way.text) else {
            throw scanner.error(.unexpectedArgument(way.text, expected: "\"up\" or \"down\""), column: way.column)
        }
        var count = 1
        let next = try argument("\"at\" and where to scroll, or a count")
        if next.quoted || next.text != "at" {
            guard !next.quoted, next.text.allSatisfy(\.isASCIIDigit), next.text.count <= 4, let value = Int(next.text), value >= 1 else {
                throw scanner.error(.invalidNumber(next.text, expected: "a count of wheel notches 1...9999, or \"at\""),
                                    column: next.column)
            }
            count = value
            try word("at")
        }
        return .scroll(direction, count: count, at: try mouseTarget())
    }

    /// `"text"` (quoted, not empty) or `ROW,COL` (0-based, as on the screen).
    private mutating func mouseTarget() throws(FlowParseError) -> MouseTarget {
        let expected = "\"text\" (quoted) or a 0-based cell ROW,COL such as 3,10"
        let target = try argument(expected)
        if target.quoted {
            guard !target.text.isEmpty else {
                throw scanner.error(.unexpectedArgument("\"\"", expected: "non-empty text"), column: target.column)
            }
            return .text(target.text)
        }
        let parts = target.text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
              parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isASCIIDigit) }),
              let row = Int(parts[0]), let col = Int(parts[1])
        else {
            throw scanner.error(.unexpectedArgument(target.text, expected: expected), column: target.column)
        }
        guard row <= Self.largestCell, col <= Self.largestCell else {
            throw scanner.error(.invalidNumber(target.text, expected: "a row and a column 0...\(Self.largestCell)"),
                                column: target.column)
        }
        return .cell(row: row, col: col)
    }

    // MARK: - Runs without a terminal (pipes)

    /// `launch` or `launch pipes`.
    private mutating func parseLaunch() throws(FlowParseError) -> FlowCommand {
        guard let mode = try scanner.nextArgument() else { return .launch }
        guard !mode.quoted, mode.text == "pipes" else {
            throw scanner.error(.unexpectedArgument(mode.text, expected: "\"pipes\" or the end of the line"), column: mode.column)
        }
        return .launchPipes
    }

    /// `stdin "text"` (a bare word works too) or `stdin file PATH`.
    private mutating func parseStandardInput() throws(FlowParseError) -> FlowCommand {
        let first = try argument("the input text (\"...\") or \"file PATH\"")
        if !first.quoted, first.text == "file" {
            return .stdin(.file(reference(try argument("the input file"))))
        }
        return .stdin(.text(first.text))
    }

    /// The part of a `stdout` or `stderr` line after the stream's name.
    private mutating func parseStreamCheck() throws(FlowParseError) -> FlowStreamCheck {
        let kinds = "\"contains\", \"matches\", \"equals\", \"empty\" or \"snapshot\""
        let kind = try argument(kinds)
        switch (kind.quoted, kind.text) {
        case (false, "contains"):
            let text = try argument("the text to look for")
            guard !text.text.isEmpty else {
                throw scanner.error(.unexpectedArgument("\"\"", expected: "non-empty text"), column: text.column)
            }
            return .contains(text.text)
        case (false, "matches"):
            guard !scanner.isAtEnd() else { throw missing("a /regex/") }
            guard scanner.current == "/" else {
                let other = try argument("a /regex/")
                throw scanner.error(.unexpectedArgument(other.text, expected: "a /regex/"), column: other.column)
            }
            guard case .regex(let pattern) = try pattern() else { throw missing("a /regex/") }
            return .matches(pattern)
        case (false, "equals"):
            return .equals(reference(try argument("the expected file")))
        case (false, "empty"):
            return .empty
        case (false, "snapshot"):
            let name = try argument("the snapshot's name")
            guard !name.text.isEmpty, !name.text.hasPrefix("."),
                  name.text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
            else {
                throw scanner.error(.invalidName(name.text, reason: "a snapshot name uses letters, digits, - _ and ."),
                                    column: name.column)
            }
            return .snapshot(name: name.text)
        default:
            let suggestion = FlowSuggestion.closest(to: kind.text, in: ["contains", "matches", "equals", "empty", "snapshot"])
            throw scanner.error(.unexpectedArgument(kind.text, expected: kinds + (suggestion.map { "; did you mean \"\($0)\"?" } ?? "")),
                                column: kind.column)
        }
    }

    // MARK: - Arguments

    private func missing(_ expected: String) -> FlowParseError {
        scanner.error(.missingArgument(command: keyword ?? "", expected: expected), at: scanner.index)
    }

    private mutating func argument(_ expected: String) throws(FlowParseError) -> FlowArgument {
        guard let argument = try scanner.nextArgument() else { throw missing(expected) }
        return argument
    }

    private mutating func word(_ expected: String) throws(FlowParseError) {
        let argument = try argument("\"\(expected)\"")
        guard !argument.quoted, argument.text == expected else {
            throw scanner.error(.unexpectedArgument(argument.text, expected: "\"\(expected)\""), column: argument.column)
        }
    }

    private mutating func expectEnd() throws(FlowParseError) {
        if let extra = try scanner.nextArgument() {
            throw scanner.error(.unexpectedArgument(extra.text, expected: "the end of the line"), column: extra.column)
        }
    }

    private mutating func size() throws(FlowParseError) -> TerminalSize {
        let argument = try argument("a size COLSxROWS")
        guard let size = TerminalSize(parsing: argument.text) else {
            throw scanner.error(.invalidSize(argument.text), column: argument.column)
        }
        return size
    }

    private mutating func duration(_ expected: String, allowZero: Bool) throws(FlowParseError) -> Duration {
        let argument = try argument(expected)
        guard let duration = FlowDurationParser.parse(argument.text), allowZero || duration > .zero else {
            throw scanner.error(.invalidDuration(argument.text), column: argument.column)
        }
        return duration
    }

    private mutating func count() throws(FlowParseError) -> Int {
        let argument = try argument("a count")
        guard argument.text.allSatisfy(\.isASCIIDigit), argument.text.count <= 9, let value = Int(argument.text) else {
            throw scanner.error(.invalidNumber(argument.text, expected: "a count 0 or more"), column: argument.column)
        }
        return value
    }

    private func status(_ argument: FlowArgument) throws(FlowParseError) -> Int {
        guard argument.text.count == 3, argument.text.allSatisfy(\.isASCIIDigit), let value = Int(argument.text),
              (100...599).contains(value)
        else {
            throw scanner.error(.invalidNumber(argument.text, expected: "an HTTP status 100...599"), column: argument.column)
        }
        return value
    }

    private mutating func method() throws(FlowParseError) -> String {
        let argument = try argument("an HTTP method")
        guard !argument.text.isEmpty, argument.text.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            throw scanner.error(.invalidMethod(argument.text), column: argument.column)
        }
        return argument.text
    }

    private mutating func requestPath() throws(FlowParseError) -> String {
        let argument = try argument("a request path")
        guard argument.text.hasPrefix("/") else {
            throw scanner.error(.invalidRequestPath(argument.text), column: argument.column)
        }
        return argument.text
    }

    private mutating func identifier(_ expected: String) throws(FlowParseError) -> String {
        let argument = try argument(expected)
        guard !argument.text.isEmpty, !argument.text.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw scanner.error(.invalidName(argument.text, reason: "a name has no spaces"), column: argument.column)
        }
        return argument.text
    }

    private func sandboxName(_ argument: FlowArgument) throws(FlowParseError) -> String {
        let parts = argument.text.split(separator: "/", omittingEmptySubsequences: false)
        guard !argument.text.isEmpty, !argument.text.hasPrefix("/"),
              parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." })
        else {
            throw scanner.error(.invalidName(argument.text, reason: "a sandbox file is a relative path without . or .. parts"),
                                column: argument.column)
        }
        return argument.text
    }

    private func reference(_ argument: FlowArgument) -> FlowFileReference {
        FlowFileReference(written: argument.text, directory: directory)
    }

    private mutating func pattern() throws(FlowParseError) -> FlowTextPattern {
        guard !scanner.isAtEnd() else { throw missing("\"text\" or /regex/") }
        if scanner.current == "/" {
            let column = scanner.index + 1
            let pattern = try scanner.readRegex()
            guard !pattern.isEmpty else {
                throw scanner.error(.invalidRegex(pattern: pattern, reason: "the pattern is empty"), column: column)
            }
            do {
                _ = try NSRegularExpression(pattern: pattern, options: [])
            } catch {
                throw scanner.error(.invalidRegex(pattern: pattern, reason: "it does not compile"), column: column)
            }
            return .regex(pattern)
        }
        let argument = try argument("\"text\" or /regex/")
        guard !argument.text.isEmpty else {
            throw scanner.error(.unexpectedArgument("\"\"", expected: "non-empty text"), column: argument.column)
        }
        return .text(argument.text)
    }
}
