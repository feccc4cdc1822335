import Foundation
import HarnessCore

extension FlowRecorder {
    /// Starts a flow from its setup lines (`app`, `env`, `size`, `stub`, ..., `launch`), for a
    /// front end that sends steps rather than bytes (`harness mcp`); `screen` is the screen
    /// after the launch, once the front end first saw it.
    public init(setup: [FlowCommand], screen: [String] = []) {
        self.init(app: "", arguments: [], size: TerminalSize(cols: 80, rows: 24), screen: screen)
        commands = setup
    }

    /// Records an input step (`type`, `press`, `paste`, `click`, `scroll`, `hover`, `resize`),
    /// `screen` being the screen's lines just before it was sent: first, unless a wait was
    /// recorded since the previous input, an `expect` of the lowest distinctive line that
    /// appeared since then (as ``input(_:screen:output:)`` chooses), so the flow waits where
    /// the author looked.
    public mutating func step(_ command: FlowCommand, screen: [String]) {
        if screen != previousScreen { expectNewText(on: screen, output: nil) }
        switch command {
        case .type(let text), .paste(let text):
            for character in text {
                if character == "\r" || character == "\n" { typedLines.append("") } else { typedLines[typedLines.count - 1].append(character) }
            }
        case .press(let keys):
            for key in keys where key == .enter { typedLines.append("") }
        default:
            break
        }
        commands.append(command)
        canExtendLast = false
    }

    /// Records a wait or check the author used after an input (`expect`, `expect-gone`,
    /// `wait-stable`, `expect-command`, ...), which passed with `screen` showing: it takes the
    /// place of the `expect` the recorder would have chosen.
    public mutating func wait(_ command: FlowCommand, screen: [String]) {
        commands.append(command)
        previousScreen = screen
        canExtendLast = false
    }

    /// Appends an `expect` of the lowest distinctive line `screen` shows that was not there at
    /// the previous input or wait (nothing when there is none): where a recording ends.
    public mutating func look(at screen: [String]) {
        expectNewText(on: screen, output: nil)
    }
}
