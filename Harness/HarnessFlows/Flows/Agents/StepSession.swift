import Foundation
import HarnessCore
import HarnessSteps
import HarnessSystem
import HarnessWire
import Stubs
import TerminalEmulator

/// The step engine driven one step at a time, for a front end that decides each step after
/// seeing the last one's result (`harness mcp`, where an agent is the author): a flow whose lines
/// arrive one by one. The setup lines launch the program exactly as a flow's would (the same
/// sandbox, hermetic environment, stub server and launch protocol); each later line runs with
/// the same code, waits and failure messages as the line in a flow; ``close()`` tears everything
/// down and hands the timeline to the trace collector, so the session's report reads like a
/// flow's.
///
/// ```swift
/// let session = try await StepSession.launch(setup: ["app bc -q", "size 80x24"], name: "agent/1",
///                                            directory: "/tmp", options: options)
/// let result = await session.perform("type \"2+3\\r\"")      // .passed
/// let wait = await session.perform("expect \"5\" within 2s")  // .failed(message:) like a flow's
/// let status = await session.close()
/// ```
///
/// Steps run one at a time, in the order they were asked for (a gate serializes them); reading
/// ``terminal`` or ``stubServer`` needs no turn.
package final class StepSession: @unchecked Sendable {
    // @unchecked: `run` (a FlowRun, used from one task at a time) is only touched between
    // `gate.enter()` and `gate.leave()`, which admit one caller at a time in arrival order.
    private let run: FlowRun
    private let gate = StepGate()
    private let started = ContinuousClock.now
    private var nextLine: Int
    private var closedStatus: ExitStatus??

    /// How a step ended.
    package enum Result: Sendable, Equatable {
        /// It passed.
        case passed
        /// It failed: the step's text, what went wrong, and the screen, as a flow prints it.
        case failed(message: String)
    }

    /// The program's terminal session (nil for a program launched with pipes).
    package let terminal: TerminalSession?
    /// The app in its terminal, with its bridge when it has one.
    private let app: TerminalApp?
    /// The program launched with pipes (`launch pipes`), if so.
    package let piped: PipedSession?
    /// The session's stub server, when its setup has `stub` lines.
    package let stubServer: StubServer?
    /// The setup lines as parsed (`app`, `env`, `size`, `stub`, ..., and `launch`).
    package let setup: [FlowCommand]
    /// The folder relative paths in the setup are read from (the flow's folder).
    package let directory: String

    private init(run: FlowRun, setup: [FlowCommand], directory: String) {
        self.run = run
        self.terminal = run.app?.session
        self.app = run.app
        self.piped = run.pipedApp?.session
        self.stubServer = run.stubServer as? StubServer
        self.setup = setup
        self.directory = directory
        self.nextLine = setup.count + 1
    }

    /// Why a session could not be launched: a setup line that does not parse, a file it names
    /// that is missing, a program that is not installed or did not start.
    package struct LaunchFailure: Error, CustomStringConvertible {
        /// What a flow would print.
        package var description: String
    }

    /// Parses the setup lines (a flow's lines before `launch`; `launch` or `launch pipes` is
    /// added unless present), then launches the program as a flow's `launch` does.
    ///
    /// - Parameters:
    ///   - name: the session's name in traces and reports (its `flow` path).
    ///   - directory: the folder relative files are read from and the program runs in.
    ///   - options: the default wait limit, the artifacts folder, the environment, the traces.
    ///   - bridge: launches with the bridge whatever the setup needs.
    package static func launch(setup lines: [String], name: String, directory: String, options: FlowExecutor.Options,
                               bridge: Bool = false) async throws(LaunchFailure) -> StepSession {
        var source = lines
        if !lines.contains(where: { $0.hasPrefix("launch") }) { source.append("launch") }
        let launchCount = source.count
        if bridge { source.append("call __harness.session") }  // never run: it only asks for the bridge
        let script: FlowScript
        do {
            script = try FlowParser.parse(source.joined(separator: "\n"), file: name, directory: directory)
        } catch {
            throw LaunchFailure(description: "\(error)")
        }
        let missing = FlowParser.missingFiles(in: script)
        if !missing.isEmpty { throw LaunchFailure(description: missing.map(\.description).joined(separator: "\n")) }
        let flow = FlowFile(path: FlowPaths.join(directory, name + ".flow"), relativePath: name)
        let run = FlowRun(script: script, flow: flow, attempt: 1, options: options)
        let steps = script.steps.prefix(launchCount).map(EngineStep.init)
        for step in steps {
            run.traceStepBegan()
            do {
                try await TraceSwitch.$isInsideStep.withValue(true) { try await run.perform(step) }
                run.traceStepPassed(step)
            } catch {
                run.traceStepFailed(step, error)
                var failure = run.failure(error, at: step)
                if let skip = error as? FlowSkip { failure.message = "\(step.text): \(skip.reason)" }
                run.finishTrace(.failed(failure))
                await run.tearDown(failed: false)
                if let folder = options.artifactsDirectory, let traces = options.traces {
                    StepEngine.writeReport(of: flow, outcome: .failed(failure), duration: .zero, traces: traces, in: folder)
                }
                throw LaunchFailure(description: failure.message)
            }
        }
        return StepSession(run: run, setup: steps.compactMap { if case .command(let command) = $0.body { command } else { nil } },
                           directory: directory)
    }

    /// Parses one flow line (`expect "42" within 5s`, `press ctrl-c`) and runs it as a flow
    /// runs that line. A line that does not parse fails with the parser's message.
    package func perform(_ line: String) async -> Result {
        await gate.enter()
        defer { gate.leave() }
        let number = nextLine
        nextLine += 1
        let step: FlowStep
        do {
            let scanner = FlowLineScanner(Substring(line), file: run.flow.relativePath, line: number)
            guard let parsed = try FlowParser.LineParser(scanner: scanner, directory: directory).parseLine() else {
                return .failed(message: "an empty step")
            }
            step = parsed
        } catch {
            return .failed(message: "\(error)")
        }
        if closedStatus != nil { return .failed(message: "\(line): the session is closed") }
        let engineStep = EngineStep(step)
        run.traceStepBegan()
        do {
            try await TraceSwitch.$isInsideStep.withValue(true) { try await run.perform(engineStep) }
            run.traceStepPassed(engineStep)
            return .passed
        } catch {
            run.traceStepFailed(engineStep, error)
            return .failed(message: run.failure(error, at: engineStep).message)
        }
    }

    /// The command a line parses to, or the parser's message: what ``perform(_:)`` would run.
    package func parse(_ line: String) -> Swift.Result<FlowCommand, LaunchFailure> {
        let scanner = FlowLineScanner(Substring(line), file: "step", line: 1)
        do {
            guard let step = try FlowParser.LineParser(scanner: scanner, directory: directory).parseLine() else {
                return .failure(LaunchFailure(description: "an empty step"))
            }
            return .success(step.command)
        } catch {
            return .failure(LaunchFailure(description: "\(error)"))
        }
    }

    /// The JSON text of the reply to the last `call` step, if any.
    package var lastReply: String? {
        get async {
            await gate.enter()
            defer { gate.leave() }
            return run.lastReply?.text
        }
    }

    /// The JSON text of each call the app's spy `name` recorded, in order; nil without a bridge.
    package func spyRecords(_ name: String) -> [String]? {
        guard let bridge = app?.connectedBridge else { return nil }
        return bridge.timedRecords.filter { $0.spy == name }.map(\.value.text)
    }

    /// Records a step that only read the session (the screen, the requests) in the timeline,
    /// so the report shows when the front end looked.
    package func noteRead(_ text: String) async {
        await gate.enter()
        defer { gate.leave() }
        guard closedStatus == nil, let trace = run.trace else { return }
        let number = nextLine
        nextLine += 1
        trace.begin()
        let step = EngineStep(.check { _ in nil }, text: text, position: SourcePosition(file: run.flow.relativePath, line: number, column: 1))
        trace.end(step, result: .passed, screen: terminal?.screen)
    }

    /// Ends the program (unless it ended), the stub server and the sandbox, and writes the
    /// session's report under the artifacts folder when there is one; returns the program's
    /// exit status. Idempotent.
    @discardableResult
    package func close() async -> ExitStatus? {
        await gate.enter()
        defer { gate.leave() }
        if let closedStatus { return closedStatus }
        let status = terminal.map { $0.exitStatus ?? $0.terminate() } ?? piped.map { $0.exitStatus ?? $0.terminate() }
        run.finishTrace(.passed)
        await run.tearDown(failed: false)
        if let folder = run.options.artifactsDirectory, let traces = run.options.traces {
            StepEngine.writeReport(of: run.flow, outcome: .passed, duration: ContinuousClock.now - started, traces: traces, in: folder)
        }
        closedStatus = .some(status)
        return status
    }
}

/// Admits one caller at a time, in arrival order (an asynchronous mutex for ``StepSession``).
private final class StepGate: Sendable {
    private let state = Locked<(busy: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    /// Waits for the turn.
    func enter() async {
        await withCheckedContinuation { (turn: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.busy { state.waiting.append(turn); return false }
                state.busy = true
                return true
            }
            if now { turn.resume() }
        }
    }

    /// Hands the turn to the next caller.
    func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty { state.busy = false; return nil }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
