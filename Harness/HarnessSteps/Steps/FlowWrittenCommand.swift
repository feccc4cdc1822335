import HarnessCore
import TerminalEmulator

/// A command as a flow file writes it: its keyword, its arguments as written, and the files
/// beside the flow that they name. Made by ``FlowCommand/written``, one switch that gives the
/// keyword (``FlowCommand/keyword``), the printed line (``FlowCommand/flowText``) and the files
/// the loader checks (``FlowParser/missingFiles(in:)``).
package struct FlowWrittenCommand {
    /// The keyword.
    package let keyword: FlowKeyword
    /// The arguments, each as written (quoted where needed).
    package private(set) var arguments: [String]
    /// The files beside the flow that the arguments name, in order.
    package private(set) var files: [FlowFileReference] = []

    package init(_ keyword: FlowKeyword, _ arguments: String...) {
        self.keyword = keyword
        self.arguments = arguments
    }

    /// The line: the keyword, then the arguments.
    package var text: String { ([keyword.rawValue] + arguments).joined(separator: " ") }

    /// Adds arguments as they are.
    package func raw(_ words: String...) -> Self { raw(words) }

    /// Adds arguments as they are.
    package func raw(_ words: [String]) -> Self {
        var line = self
        line.arguments += words
        return line
    }

    /// Adds text as a bare word when the parser reads it back unchanged, else quoted.
    package func word(_ text: String) -> Self { raw(FlowCommand.word(text)) }

    /// Adds each text as ``word(_:)`` does.
    package func words(_ texts: [String]) -> Self { raw(texts.map(FlowCommand.word)) }

    /// Adds text as a quoted string.
    package func quoted(_ text: String) -> Self { raw(FlowStringLiteral.quote(text)) }

    /// Adds a file argument (as written) and records the file.
    package func file(_ file: FlowFileReference) -> Self { word(file.written).naming(file) }

    /// Records a file the arguments name without adding an argument.
    package func naming(_ file: FlowFileReference?) -> Self {
        var line = self
        if let file { line.files.append(file) }
        return line
    }

    /// Adds a JSON argument when given (recording its file when it names one).
    package func json(_ json: FlowJSON?) -> Self {
        guard let json else { return self }
        if case .file(let file) = json { return raw(json.description).naming(file) }
        return raw(json.description)
    }

    /// Adds a pattern and its options, in the canonical order `in`, `style`, `within`, `for`.
    package func pattern(
        _ pattern: FlowTextPattern, area: ScreenArea? = nil, style: TextStyle? = nil, within: Duration? = nil, during: Duration? = nil
    ) -> Self {
        raw(pattern.description)
            .raw(area.map { ["in", FlowCommand.areaText($0)] } ?? [])
            .raw(style.map { ["style", "\($0)"] } ?? [])
            .raw(within.map { ["within", FlowDurationParser.format($0)] } ?? [])
            .raw(during.map { ["for", FlowDurationParser.format($0)] } ?? [])
    }

    /// Adds what a stub route answers (the part of a `stub` line after the path).
    package func stubResponse(_ response: FlowStubResponse) -> Self {
        switch response {
        case .respond(_, .json(let file), _), .sequence(_, let file?): raw(response.flowText).naming(file)
        default: raw(response.flowText)
        }
    }
}
