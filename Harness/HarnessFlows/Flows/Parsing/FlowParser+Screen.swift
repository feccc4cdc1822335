import HarnessCore
import HarnessSteps
import TerminalEmulator

/// The screen's commands: pattern commands and their options (areas, styles, limits),
/// `wait-stable` and the snapshots.
extension FlowParser.LineParser {
    /// `PATTERN` followed by the options `accepted` (`in AREA`, `style ATTRIBUTES...`,
    /// `within DURATION`) in any order, each at most once.
    func patternArguments(_ accepted: FlowKeyword.PatternOptions) throws(FlowParseError) -> FlowKeyword.PatternArguments {
        scanner.skipSpaces()
        let patternColumn = scanner.index + 1
        var arguments = FlowKeyword.PatternArguments(pattern: try pattern())
        while let next = try scanner.nextArgument() {
            switch (next.quoted, next.text) {
            case (false, "within") where accepted.contains(.within) && arguments.within == nil:
                arguments.within = try duration("a duration after within", allowZero: false)
            case (false, "in") where accepted.contains(.area) && arguments.area == nil:
                arguments.area = try area()
            case (false, "style") where accepted.contains(.style) && arguments.style == nil:
                arguments.style = try style()
            case (false, "for") where accepted.contains(.during) && arguments.during == nil:
                arguments.during = try duration("a duration after for", allowZero: false)
            default:
                let open: [(String, FlowKeyword.PatternOptions, Bool)] = [
                    ("in AREA", .area, arguments.area == nil), ("style ATTRIBUTES", .style, arguments.style == nil),
                    ("within DURATION", .within, arguments.within == nil), ("for DURATION", .during, arguments.during == nil),
                ]
                let options = open.filter { accepted.contains($0.1) && $0.2 }.map { "\"\($0.0)\"" }
                throw scanner.error(.unexpectedArgument(next.text, expected: (options + ["the end of the line"]).joined(separator: ", ")),
                                    column: next.column)
            }
        }
        if arguments.area != nil || arguments.style != nil, case .text(let text) = arguments.pattern, text.contains("\n") {
            throw scanner.error(.unexpectedArgument(FlowStringLiteral.quote(text), expected: "text on one row: `in` and `style` check one row"),
                                column: patternColumn)
        }
        return arguments
    }

    /// `wait-stable DURATION [in AREA]`.
    func waitStable() throws(FlowParseError) -> FlowCommand {
        let quiet = try duration("how long the screen must stay unchanged", allowZero: false)
        guard !scanner.isAtEnd() else { return .waitStable(quiet) }
        try word("in")
        let area = try area()
        try expectEnd()
        return .waitStable(quiet, area: area)
    }

    /// `expect-command [within DURATION]`.
    func expectCommand() throws(FlowParseError) -> FlowCommand {
        guard !scanner.isAtEnd() else { return .expectCommand(within: nil) }
        try word("within")
        let within = try duration("a duration after within", allowZero: false)
        try expectEnd()
        return .expectCommand(within: within)
    }

    /// `command-status N`: 0-255.
    func commandStatus() throws(FlowParseError) -> FlowCommand {
        let argument = try argument("an exit status 0-255")
        guard !argument.quoted, (1...3).contains(argument.text.count), argument.text.allSatisfy(\.isASCIIDigit),
              let status = Int(argument.text), (0...255).contains(status) else {
            throw scanner.error(.invalidNumber(argument.text, expected: "an exit status 0-255"), column: argument.column)
        }
        try expectEnd()
        return .commandStatus(status)
    }

    /// `snapshot NAME [AREA]`.
    func snapshot() throws(FlowParseError) -> FlowCommand {
        let name = try snapshotName()
        return .snapshot(name: name, area: scanner.isAtEnd() ? nil : try area())
    }

    func snapshotTranscript() throws(FlowParseError) -> FlowCommand { .snapshotTranscript(name: try snapshotName()) }

    /// The words after `style`, up to `in`, `within`, `for` or the end of the line: `bold`, `dim`,
    /// `italic`, `underline`, `blink`, `inverse`, `hidden`, `strikethrough` (each also as
    /// `not-NAME`), `plain`, `fg=COLOR`, `bg=COLOR`, `link=URI`, `not-link`.
    func style() throws(FlowParseError) -> TextStyle {
        var style = TextStyle()
        var seen: [String: Int] = [:]
        let words = TextStyle.attributeNames + TextStyle.attributeNames.map { "not-" + $0 } + ["plain", "fg=", "bg=", "link=", "not-link"]
        while true {
            let saved = scanner
            guard let word = try scanner.nextArgument() else { break }
            if !word.quoted, word.text == "in" || word.text == "within" || word.text == "for" {
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
            } else if text == "not-link" || text.hasPrefix("link=") {
                let uri = text == "not-link" ? "" : String(text.dropFirst(5))
                guard text == "not-link" || !uri.isEmpty else {
                    throw scanner.error(.invalidStyle(text, reason: "write link=URI (the OSC 8 hyperlink's URI), or not-link"),
                                        column: word.column)
                }
                style.link = uri
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
                    + "plain, fg=COLOR, bg=COLOR, link=URI and not-link"), column: word.column)
            }
        }
        guard !seen.isEmpty else { throw missing("attributes after style (bold, not-italic, fg=red, ...)") }
        return style
    }

    /// `rows A-B` (or `rows A`), optionally followed by `cols C-D`, or
    /// `between "START" and "END" [exclusive]`; rows and columns 0-based, ranges inclusive.
    func area() throws(FlowParseError) -> ScreenArea {
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
    func range(_ what: String) throws(FlowParseError) -> ClosedRange<Int> {
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

    func anchor(_ expected: String) throws(FlowParseError) -> String {
        let argument = try argument(expected)
        guard !argument.text.isEmpty, !argument.text.contains("\n") else {
            throw scanner.error(.invalidArea(argument.text, reason: "an anchor is non-empty text on one row"), column: argument.column)
        }
        return argument.text
    }
}
