import Foundation
import HarnessCore
import HarnessFlows
import HarnessSystem
import TerminalEmulator

/// One program an agent launched through `harness mcp`: the step engine's session that runs it
/// (``StepSession``), and what `save_flow` needs to write it as a flow (a ``FlowRecorder``
/// fed with the steps that passed).
final class AgentSession: Sendable {
    /// The id `launch` returned (`s1`, `s2`, ...).
    let id: String
    /// The engine's session.
    let steps: StepSession
    /// The folder the session runs in and reads relative files from.
    let directory: String
    /// What the agent did so far, as a flow; whether it closed the session, and how it ended.
    private let state: Locked<State>

    private struct State {
        var recorder: FlowRecorder
        var outputRead = 0
        var ending: FlowRecorder.Ending?
    }

    init(id: String, steps: StepSession) {
        self.id = id
        self.steps = steps
        self.directory = steps.directory
        state = Locked(State(recorder: FlowRecorder(setup: steps.setup, screen: steps.terminal?.screen.lines ?? [])))
    }

    /// The screen now (nil for a program launched with pipes).
    var screen: ScreenSnapshot? { steps.terminal?.screen }

    /// Runs an input line (`type`, `press`, ...) and records it for `save_flow` when it passed.
    func input(_ line: String) async -> StepSession.Result {
        let before = screen?.lines ?? []
        let result = await steps.perform(line)
        if result == .passed, case .success(let command) = steps.parse(line) {
            state.withLock { $0.recorder.step(command, screen: before) }
        }
        return result
    }

    /// Runs a wait line (`expect`, `wait-stable`, ...) and records it for `save_flow` when it passed.
    func wait(_ line: String) async -> StepSession.Result {
        let result = await steps.perform(line)
        if result == .passed, case .success(let command) = steps.parse(line) {
            let after = screen?.lines ?? []
            state.withLock { $0.recorder.wait(command, screen: after) }
        }
        return result
    }

    /// What the program printed since the previous call (the whole stream the first time).
    func newOutput() -> String {
        let all: String
        if let terminal = steps.terminal {
            all = terminal.output
        } else if let piped = steps.piped {
            all = String(decoding: piped.standardOutputSoFar + piped.standardErrorSoFar, as: UTF8.self)
        } else {
            all = ""
        }
        return state.withLock { state in
            let start = min(state.outputRead, all.count)
            state.outputRead = all.count
            return String(all.dropFirst(start))
        }
    }

    /// Ends the session; `save_flow` then ends the flow with `exit CODE` when the program had
    /// ended by itself, else with `kill`.
    func close() async -> ExitStatus? {
        let ended = steps.terminal?.exitStatus ?? steps.piped?.exitStatus
        let status = await steps.close()
        state.withLock { state in
            if state.ending == nil { state.ending = ended.map { .exited($0) } ?? .killed }
        }
        return status
    }

    /// The session as a flow's text: what ``FlowRecorder`` made of its steps, with an `expect`
    /// of what appeared since the last input, and its ending when it was closed. Files the
    /// setup names are written relative to `folder`, the flow's.
    func flowText(in folder: String) -> String {
        let screen = screen?.lines ?? []
        let recorder = state.withLock { state in
            var recorder = state.recorder
            if let ending = state.ending { recorder.finish(ending, screen: screen) } else { recorder.look(at: screen) }
            return recorder
        }
        var lines = ["# Saved by harness mcp from session \(id)."]
        lines += recorder.commands.map { Self.relocated($0, from: directory, to: folder) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `command`'s line with its relative paths (the app's, a stub's JSON file) rewritten from
    /// `directory` to `folder`.
    static func relocated(_ command: FlowCommand, from directory: String, to folder: String) -> String {
        let text = command.flowText
        guard directory != folder else { return text }
        switch command {
        case .app(let app) where app.written.contains("/") && !app.written.hasPrefix("/") && !app.written.hasPrefix("$"):
            let moved = RecordCommand.relativePath(FlowPaths.join(directory, app.written), from: folder)
            return ([ "app", FlowCommand.word(moved)] + app.arguments.map(FlowCommand.word)).joined(separator: " ")
        case .stub, .seed:
            return relocatedFiles(in: text, from: directory, to: folder)
        default:
            return text
        }
    }

    /// A setup line with each `json FILE` or `seed FILE` path made relative to `folder`.
    private static func relocatedFiles(in line: String, from directory: String, to folder: String) -> String {
        var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        for index in words.indices.dropFirst() where ["json", "seed"].contains(words[index - 1]) {
            let path = words[index]
            guard !path.hasPrefix("/"), !path.hasPrefix("\""), !path.hasPrefix("$") else { continue }
            words[index] = RecordCommand.relativePath(FlowPaths.join(directory, path), from: folder)
        }
        return words.joined(separator: " ")
    }
}

/// The sessions of one `harness mcp` server, by id.
final class AgentSessions: Sendable {
    private let table = Locked<(next: Int, sessions: [String: AgentSession])>((1, [:]))

    /// A fresh id (`s1`, `s2`, ...).
    func newID() -> String {
        table.withLock { table in
            defer { table.next += 1 }
            return "s\(table.next)"
        }
    }

    /// Adds a launched session.
    func add(_ session: AgentSession) { table.withLock { $0.sessions[session.id] = session } }

    /// The session with `id`, if any.
    func session(_ id: String) -> AgentSession? { table.withLock { $0.sessions[id] } }

    /// Closes every session (the client went away).
    func closeAll() async {
        let sessions = table.withLock { Array($0.sessions.values) }
        for session in sessions { _ = await session.close() }
    }
}
