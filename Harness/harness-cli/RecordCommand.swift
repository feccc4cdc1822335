import Foundation
import HarnessCore
import HarnessFlows
import HarnessSystem

/// `harness record --out FILE.flow [--size COLSxROWS] -- PROGRAM ARGS...`: runs the program in
/// a pseudo-terminal inside the user's terminal (raw mode, restored on every exit), forwards
/// keys and output, and writes what the user did as a flow (see ``FlowRecorder``). The
/// recording ends when the program exits, or when the user presses Ctrl-] (the flow then
/// ends with `kill`).
enum RecordCommand: Command {
    static let name = "record"
    static let operands = ""
    static let trailingOperands = "-- PROGRAM [ARGS...]"
    static let summary = "run PROGRAM and record what you do as a flow (Ctrl-] stops)"
    static let options: [CommandOption] = [
        CommandOption(name: "out", value: "FILE.flow", summary: "the flow file to write", required: true),
        CommandOption(name: "size", value: "COLSxROWS", summary: "the terminal size (default: your terminal's, else 80x24)"),
    ]

    /// Ctrl-]: ends the recording without passing the key on.
    static let stopByte: UInt8 = 0x1D

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try parse(arguments)
        guard let out = parsed.value("out"), !out.isEmpty else { throw CommandError.usage("missing --out FILE.flow") }
        let command = parsed.afterSeparator ?? parsed.positional
        guard let program = command.first, !program.isEmpty else {
            throw CommandError.usage("missing the program to record (after --)")
        }
        if parsed.afterSeparator != nil, !parsed.positional.isEmpty {
            throw CommandError.usage("unexpected \(parsed.positional[0].debugDescription) before --")
        }
        let input: Int32 = 0
        let output: Int32 = 1
        let fixedSize = try parsed.value("size").map { text throws(CommandError) -> TerminalSize in
            guard let size = TerminalSize(parsing: text) else {
                throw .usage("--size \(text.debugDescription): expected COLSxROWS such as 80x24")
            }
            return size
        }
        let size = fixedSize ?? UserTerminal.size(of: output).map { TerminalSize(cols: $0.columns, rows: $0.rows) }
            ?? UserTerminal.size(of: input).map { TerminalSize(cols: $0.columns, rows: $0.rows) }
            ?? TerminalSize(cols: 80, rows: 24)
        let outPath = FlowPaths.join(FileManager.default.currentDirectoryPath, out)

        let session: TerminalSession
        do {
            var configuration = TerminalSession.Configuration(
                executable: program, arguments: Array(command.dropFirst()),
                size: size, defaultTimeout: .seconds(86_400))
            configuration.onOutput = { bytes in UserTerminal.writeAll(output, bytes) }
            session = try TerminalSession.launch(configuration)
        } catch {
            throw CommandError.failure("\(error)")
        }
        let state = RecordingState(recorder: FlowRecorder(
            app: flowAppPath(program, flowFile: outPath), arguments: Array(command.dropFirst()), size: size))

        let savedMode = UserTerminal.isTerminal(input) ? try? UserTerminal.makeRaw(input) : nil
        let restore = { if let savedMode { UserTerminal.restore(savedMode) } }
        let wake = try UserTerminal.makePipe()
        StandardStreams.writeError(TextEscaping.console("harness record: recording \(program) to \(out); Ctrl-] stops") + "\r\n")

        var sources: [any DispatchSourceProtocol] = []
        for signalNumber in UserTerminal.stopSignals {
            UserTerminal.ignoreSignal(signalNumber)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { state.end(.killed) }
            source.resume()
            sources.append(source)
        }
        if fixedSize == nil, UserTerminal.isTerminal(output) {
            UserTerminal.ignoreSignal(UserTerminal.windowChangeSignal)
            let source = DispatchSource.makeSignalSource(signal: UserTerminal.windowChangeSignal, queue: .global())
            source.setEventHandler {
                guard let newSize = UserTerminal.size(of: output) else { return }
                let flowSize = TerminalSize(cols: newSize.columns, rows: newSize.rows)
                let output = state.printedOutput(of: session)
                state.withRecorder { $0.resize(to: flowSize, screen: session.screen.lines, output: output) }
                try? session.resize(cols: newSize.columns, rows: newSize.rows)
            }
            source.resume()
            sources.append(source)
        }

        // Keys: from the user's terminal to the program, recorded with the screen before them.
        let reader = Thread {
            while let bytes = UserTerminal.readOrWake(input, wake: wake.read), !bytes.isEmpty {
                if let stop = bytes.firstIndex(of: stopByte) {
                    let before = Array(bytes[..<stop])
                    if !before.isEmpty { forward(before, to: session, state: state) }
                    state.end(.killed)
                    return
                }
                forward(bytes, to: session, state: state)
            }
        }
        reader.start()
        Task {
            let status = (try? await session.waitForExit(timeout: .seconds(86_400))) ?? .exited(-1)
            state.end(.exited(status))
        }

        let ending = await state.ending()
        if ending == .killed { session.terminate() }
        UserTerminal.writeAll(wake.write, [0])
        for source in sources { source.cancel() }
        restore()

        let finalOutput = state.printedOutput(of: session)
        let text = state.withRecorder { recorder -> String in
            recorder.finish(ending, screen: session.screen.lines, output: finalOutput)
            return recorder.flowText
        }
        session.terminate()
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: outPath), options: .atomic)
        } catch {
            throw CommandError.failure("cannot write \(outPath): \(error.localizedDescription)")
        }
        let steps = text.split(separator: "\n").count - 1
        StandardStreams.writeError("\r\n" + TextEscaping.console("harness record: wrote \(steps) lines to \(out)") + "\n")
        return 0
    }

    /// Records the input and sends it on.
    private static func forward(_ bytes: [UInt8], to session: TerminalSession, state: RecordingState) {
        let output = state.printedOutput(of: session)
        state.withRecorder { $0.input(bytes, screen: session.screen.lines, output: output) }
        try? session.send(bytes)
    }

    /// The program as the flow's `app` line writes it: a bare name stays (looked up in `PATH`),
    /// a path becomes relative to the flow file's folder.
    static func flowAppPath(_ program: String, flowFile: String) -> String {
        guard program.contains("/") else { return program }
        let absolute = FlowPaths.join(FileManager.default.currentDirectoryPath, program)
        return relativePath(absolute, from: FlowPaths.directory(of: flowFile))
    }

    /// `path` relative to `directory` (both absolute and normalized), with `..` as needed.
    static func relativePath(_ path: String, from directory: String) -> String {
        let target = path.split(separator: "/").map(String.init)
        let base = directory.split(separator: "/").map(String.init)
        var common = 0
        while common < target.count, common < base.count, target[common] == base[common] { common += 1 }
        let parts = Array(repeating: "..", count: base.count - common) + target[common...]
        let joined = parts.joined(separator: "/")
        return joined.hasPrefix("..") || joined.contains("/") ? joined : "./" + joined
    }
}

/// The recorder and the end of the recording, shared by the key reader, the signal handlers
/// and the command.
private final class RecordingState: Sendable {
    private struct State {
        var recorder: FlowRecorder
        var result: FlowRecorder.Ending?
        var waiter: CheckedContinuation<FlowRecorder.Ending, Never>?
        /// Whether the program has shown the alternate screen: a full-screen program, recorded
        /// with screen `expect` lines from then on.
        var fullScreen = false
    }

    private let state: Locked<State>

    init(recorder: FlowRecorder) { state = Locked(State(recorder: recorder)) }

    /// For a line-oriented program (the alternate screen never shown so far), what it printed
    /// since the previous call (the session's output cursor moves past it); nil otherwise.
    func printedOutput(of session: TerminalSession) -> String? {
        let alternate = session.modes.alternateScreen
        let lineOriented = state.withLock { state -> Bool in
            if alternate { state.fullScreen = true }
            return !state.fullScreen
        }
        return lineOriented ? session.consumeOutput() : nil
    }

    /// Runs `body` on the recorder, under the lock.
    func withRecorder<Result>(_ body: (inout FlowRecorder) -> Result) -> Result {
        state.withLock { body(&$0.recorder) }
    }

    /// Ends the recording (the first call wins).
    func end(_ ending: FlowRecorder.Ending) {
        let waiter = state.withLock { state -> CheckedContinuation<FlowRecorder.Ending, Never>? in
            guard state.result == nil else { return nil }
            state.result = ending
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: ending)
    }

    /// Waits until the recording ends.
    func ending() async -> FlowRecorder.Ending {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> FlowRecorder.Ending? in
                if let result = state.result { return result }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
