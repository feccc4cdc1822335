import HarnessCore
import TerminalEmulator

extension FlowCommand {
    /// The command as a line of a flow file (what failure messages quote and recorders write).
    ///
    /// Parsing the line gives back an equal command, except that file references are written as
    /// they were given (`json fixtures/todos.json`).
    public var flowText: String { written.text }

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
    package static func word(_ text: String) -> String {
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
        let name = key.name
        if name.contains(where: { "#\"\\".contains($0) }) { return FlowStringLiteral.quote(name) }
        return name
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
