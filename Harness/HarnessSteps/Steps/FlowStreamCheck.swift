/// One of the two outputs of a `launch pipes` run, as a flow names it.
public enum FlowStream: String, Sendable, Hashable, CaseIterable {
    /// Standard output.
    case stdout
    /// Standard error.
    case stderr
}

/// What a `stdout` or `stderr` line checks about the whole stream, once the program exited.
public enum FlowStreamCheck: Sendable, Equatable {
    /// `contains "text"`: the text appears somewhere in the stream.
    case contains(String)
    /// `matches /regex/`: an `NSRegularExpression` pattern (checked at parse time, `^` and `$`
    /// at every line) matches somewhere in the stream; `\/` in the flow file is already `/`.
    case matches(String)
    /// `equals FILE`: the stream has exactly the file's bytes.
    case equals(FlowFileReference)
    /// `empty`: the program wrote nothing there.
    case empty
    /// `snapshot NAME`: the stream's text equals the reference `__Snapshots__/<flow>/<flow>.<NAME>.txt`.
    case snapshot(name: String)

    /// The check as a flow file writes it after the stream's name.
    public var flowText: String {
        switch self {
        case .contains(let text): "contains \(FlowStringLiteral.quote(text))"
        case .matches(let pattern): "matches \(FlowTextPattern.regex(pattern))"
        case .equals(let file): "equals \(FlowCommand.word(file.written))"
        case .empty: "empty"
        case .snapshot(let name): "snapshot \(name)"
        }
    }
}

/// The `stdin` line: what a `launch pipes` run reads on its standard input.
public enum FlowStandardInput: Sendable, Equatable {
    /// `stdin "text"`: the text's UTF-8 bytes, then end of file.
    case text(String)
    /// `stdin file PATH`: the file's bytes, then end of file.
    case file(FlowFileReference)

    /// The line as a flow file writes it.
    public var flowText: String {
        FlowCommand.stdin(self).flowText
    }
}
