import Foundation
import HarnessCore
import HarnessSteps

/// Turns a session a user drives by hand into a flow (the core of `harness record`): given each
/// burst of keyboard input with the screen as it was just before it, it writes `type`/`press`/
/// `paste` lines, each preceded by an `expect` of a distinctive line that appeared on the screen
/// since the previous input, and ends with `exit CODE` or `kill`.
///
/// Pure: no terminal, no process. A line is *distinctive* when it is not empty, did not occur
/// anywhere on the previous screen, and is not just the echo of text the user typed (a line
/// ending with a typed line, or part of one); the lowest such line is expected (the latest
/// output in a shell-like program, the status line of a full-screen one). Consecutive typing
/// with no distinctive output in between becomes one `type` line, consecutive keys one `press`.
///
/// For a line-oriented program (a REPL, a shell: one that does not use the alternate screen),
/// the caller passes the text the program printed since the previous input (`output:`), and
/// the recorder writes `expect-output` lines instead: the last distinctive line of output, then
/// the prompt (the unfinished last line) when there is one. They consume the output as
/// pexpect does, so a prompt that looks like the previous one is still waited for.
///
/// ```swift
/// var recorder = FlowRecorder(app: "bc", arguments: ["-q"], size: .init(cols: 80, rows: 24))
/// recorder.input(Array("2+3\r".utf8), screen: [""])
/// recorder.input([0x04], screen: ["2+3", "5"])
/// recorder.finish(.exited(.exited(0)), screen: ["2+3", "5"])
/// print(recorder.flowText)   // app bc -q / size 80x24 / launch / type "2+3" / press enter / expect "5" / press ctrl-d / exit 0
/// ```
public struct FlowRecorder: Sendable {
    /// How the recorded session ended.
    public enum Ending: Sendable, Equatable {
        /// The program ended by itself (a signal N is written as `exit 128+N`).
        case exited(ExitStatus)
        /// The user stopped the recording; the flow ends the program with `kill`.
        case killed
    }

    /// The flow so far, one command per line.
    public internal(set) var commands: [FlowCommand]
    /// The screen at the previous input (or at launch), to tell new lines from old ones.
    var previousScreen: [String]
    /// The lines the user typed, to tell echo from output.
    var typedLines: [String] = [""]
    /// Whether the last command may be extended by more of the same kind.
    var canExtendLast = false

    /// Starts a flow for `app` with `arguments`, launched at `size`; `screen` is what the
    /// terminal showed before the program started (normally nothing).
    public init(app: String, arguments: [String], size: TerminalSize, screen: [String] = []) {
        commands = [
            .app(FlowApp(written: app, arguments: arguments, flowDirectory: "")),
            .size(size),
            .launch,
        ]
        previousScreen = screen
    }

    /// Records one burst of input; `screen` is the screen's lines just before it was sent;
    /// `output`, for a line-oriented program, what it printed since the previous input.
    public mutating func input(_ bytes: [UInt8], screen: [String], output: String? = nil) {
        expectNewText(on: screen, output: output)
        for input in FlowInputDecoder.decode(bytes) {
            switch input {
            case .text(let text):
                typedLines[typedLines.count - 1] += text
                if canExtendLast, case .type(let previous)? = commands.last {
                    commands[commands.count - 1] = .type(previous + text)
                } else {
                    commands.append(.type(text))
                }
            case .key(let key):
                if key == .enter { typedLines.append("") }
                if canExtendLast, case .press(let previous)? = commands.last {
                    commands[commands.count - 1] = .press(previous + [key])
                } else {
                    commands.append(.press([key]))
                }
            case .paste(let text):
                typedLines += text.split(separator: "\n").map(String.init)
                typedLines.append("")
                commands.append(.paste(text))
            }
            canExtendLast = true
        }
    }

    /// Records a resize of the terminal.
    public mutating func resize(to size: TerminalSize, screen: [String], output: String? = nil) {
        expectNewText(on: screen, output: output)
        commands.append(.resize(size))
        canExtendLast = false
    }

    /// Ends the flow: an `expect` of what appeared after the last input, then `exit` or `kill`.
    public mutating func finish(_ ending: Ending, screen: [String], output: String? = nil) {
        expectNewText(on: screen, output: output)
        switch ending {
        case .exited(.exited(let code)): commands.append(.exit(code: code))
        case .exited(.signaled(let signal)): commands.append(.exit(code: 128 + signal))
        case .killed: commands.append(.kill)
        }
        canExtendLast = false
    }

    /// The flow file's text.
    public var flowText: String {
        var lines = ["# Recorded with harness record."]
        lines += commands.map(\.flowText)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Appends `expect` for the lowest distinctive new line of `screen`, if any; with `output`,
    /// `expect-output` lines for what was printed instead.
    mutating func expectNewText(on screen: [String], output: String?) {
        let before = previousScreen.joined(separator: "\n")
        previousScreen = screen
        let typed = typedLines.filter { !$0.isEmpty }
        if let output {
            expectOutput(output, typed: typed)
            return
        }
        let candidates = screen.map { $0.trimmingCharacters(in: .whitespaces) }.filter { line in
            !line.isEmpty && !before.contains(line)
                && !typed.contains { $0.contains(line) || line.hasSuffix($0) }
        }
        guard let line = candidates.last else { return }
        commands.append(.expect(.text(line), within: nil))
        canExtendLast = false
    }

    /// `expect-output` for the last distinctive complete line of `output` and for its unfinished
    /// last line (a prompt), skipping the echo of what the user typed.
    private mutating func expectOutput(_ output: String, typed: [String]) {
        var lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let prompt = output.hasSuffix("\n") ? nil : lines.popLast()
        func distinctive(_ line: String) -> String? {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !typed.contains(where: { $0.contains(trimmed) || trimmed.hasSuffix($0) }) else { return nil }
            return trimmed
        }
        var expected: [String] = []
        if let line = lines.reversed().lazy.compactMap(distinctive).first { expected.append(line) }
        if let prompt, let text = distinctive(prompt), text != expected.last { expected.append(text) }
        for text in expected { commands.append(.expectOutput(.text(text), within: nil)) }
        if !expected.isEmpty { canExtendLast = false }
    }
}
