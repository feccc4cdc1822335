import HarnessCore
import HarnessSteps
import TerminalEmulator

/// The commands that send input: keys, text, resizes and the mouse.
extension FlowParser.LineParser {
    /// The largest row or column a mouse command accepts (sizes reach 4096).
    static let largestCell = 4095

    func type() throws(FlowParseError) -> FlowCommand { .type(try argument("the text to type").text) }

    func paste() throws(FlowParseError) -> FlowCommand { .paste(try argument("the text to paste").text) }

    func resize() throws(FlowParseError) -> FlowCommand { .resize(try terminalSize()) }

    func press() throws(FlowParseError) -> FlowCommand {
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
    }

    func click() throws(FlowParseError) -> FlowCommand { .click(try mouseTarget()) }

    func doubleClick() throws(FlowParseError) -> FlowCommand { .doubleClick(try mouseTarget()) }

    func drag() throws(FlowParseError) -> FlowCommand {
        let from = try mouseTarget()
        try word("to")
        return .drag(from: from, to: try mouseTarget())
    }

    func hover() throws(FlowParseError) -> FlowCommand { .hover(try mouseTarget()) }

    /// `focus in|out`.
    func focus() throws(FlowParseError) -> FlowCommand { .focus(try choice("\"in\" or \"out\"")) }

    /// `scroll up|down [N] at TARGET`.
    func scroll() throws(FlowParseError) -> FlowCommand {
        let direction: ScrollDirection = try choice("\"up\" or \"down\"")
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
    func mouseTarget() throws(FlowParseError) -> MouseTarget {
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
}
