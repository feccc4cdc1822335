import HarnessSteps
/// The commands of runs without a terminal (`launch pipes`): `stdin`, `stdout`, `stderr`.
extension FlowParser.LineParser {
    /// `stdin "text"` (a bare word works too) or `stdin file PATH`.
    func stdin() throws(FlowParseError) -> FlowCommand {
        let first = try argument("the input text (\"...\") or \"file PATH\"")
        if !first.quoted, first.text == "file" {
            return .stdin(.file(reference(try argument("the input file"))))
        }
        return .stdin(.text(first.text))
    }

    /// `stdout CHECK` or `stderr CHECK` (the keyword says which stream).
    func streamCheck() throws(FlowParseError) -> FlowCommand {
        .streamCheck(keyword == .stderr ? .stderr : .stdout, try streamCheckArguments())
    }

    /// The part of a `stdout` or `stderr` line after the stream's name.
    private func streamCheckArguments() throws(FlowParseError) -> FlowStreamCheck {
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
            return .snapshot(name: try snapshotName())
        default:
            let suggestion = FlowSuggestion.closest(to: kind.text, in: ["contains", "matches", "equals", "empty", "snapshot"])
            throw scanner.error(.unexpectedArgument(kind.text, expected: kinds + (suggestion.map { "; did you mean \"\($0)\"?" } ?? "")),
                                column: kind.column)
        }
    }
}
