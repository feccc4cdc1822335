/// One prompt of a shell that marks its prompts with OSC 133 (shell integration, as iTerm2,
/// VS Code, kitty and WezTerm read them), and the command run from it.
///
/// The marks: `ESC ] 133 ; A` where the prompt starts, `B` where the command line starts,
/// `C` where the command's output starts (the command runs), `D [; STATUS]` when it finished,
/// each ended by BEL or ST. A bash or zsh prompt that emits them is in docs/FLOWS.md,
/// "Shell integration".
///
/// Lines are numbered as the transcript numbers them: row `r` of a snapshot is line
/// `scrolledOffCount + r`, so a line keeps its number while it scrolls off.
public struct ShellCommand: Sendable, Hashable {
    /// Where a command is.
    public enum Phase: Sendable, Hashable, CustomStringConvertible {
        /// The prompt is being drawn (A).
        case prompt
        /// The command line is being typed (B).
        case input
        /// The command runs (C).
        case running
        /// The command finished (D), or a new prompt or command started without a D.
        case finished

        public var description: String {
            switch self {
            case .prompt: "prompt"
            case .input: "input"
            case .running: "running"
            case .finished: "finished"
            }
        }
    }

    /// 0 for the first prompt (or command) the terminal saw, then 1, 2...: every one is
    /// counted, also those no longer kept.
    public let number: Int
    /// Where it is now.
    public internal(set) var phase: Phase
    /// The line of the A mark (nil when none came).
    public internal(set) var promptLine: Int?
    /// The line of the B mark (nil when none came).
    public internal(set) var inputLine: Int?
    /// The line of the C mark (nil when none came).
    public internal(set) var outputLine: Int?
    /// The line of the D mark (nil when none came).
    public internal(set) var endLine: Int?
    /// The command line as the screen showed it from the B mark to the C mark (rows joined by
    /// line breaks, blanks at both ends trimmed); nil without both marks, or when the B mark's
    /// row had scrolled off.
    public internal(set) var commandText: String?
    /// The status the D mark carried (`ESC ] 133 ; D ; 3`); nil while it runs, when the D mark
    /// carried none or no number, or when a new prompt came without a D.
    public internal(set) var exitStatus: Int?
    /// The column of the B mark, where the command line starts.
    var inputColumn = 0

    /// Whether a command ran from this prompt (a C mark came).
    public var ran: Bool { outputLine != nil }

    /// `"(exit 3)" finished with status 3`, `"sleep 9" running`: for failure messages.
    public var summary: String {
        let name = commandText.map { $0.debugDescription } ?? "command \(number)"
        switch phase {
        case .finished: return name + (exitStatus.map { " finished with status \($0)" } ?? " finished without a status")
        default: return "\(name) \(phase)"
        }
    }
}
