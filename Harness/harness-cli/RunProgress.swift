import Dispatch
import Foundation
import HarnessCore
import HarnessFlows
import HarnessSystem

/// What `harness run` prints while its flows run: one line per finished flow with its place
/// (`[12/500] ✓ a.flow (0.42s)`, ``FlowProgressReporter``), and, when standard output is a
/// terminal, a live status line under them (``FlowRunStatus``: what is running, the time so far,
/// the time left), redrawn in place as flows start and finish and every second, and erased
/// before the run's summary. Without a terminal (a pipe, a CI log) it prints the lines only,
/// never an escape sequence.
final class RunProgress: Sendable {
    private struct State {
        var status: FlowRunStatus
        /// Whether the status line is on the screen (the cursor at its end).
        var shown = false
        var stopped = false
        var timer: DispatchSourceTimer?
    }

    private let state: Locked<State>
    private let total: Int
    private let live: Bool
    private let start = ContinuousClock.now

    /// The erase of the status line: back to its start, clear the line.
    static let erase = "\r\u{1B}[2K"

    /// Progress of a run of `names` on `workers`; `durations` (seconds by name) feed the
    /// estimate; `terminal`: whether standard output is a terminal (the live line).
    init(names: [String], workers: Int, durations: [String: Double], terminal: Bool) {
        total = names.count
        live = terminal
        state = Locked(State(status: FlowRunStatus(names: names, workers: workers, durations: durations)))
        guard terminal else { return }
        // The time so far moves on between flows: redraw every second (a display refresh,
        // nothing waits on it).
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [weak self] in self?.redraw() }
        state.withLock { $0.timer = timer }
        timer.resume()
    }

    /// An attempt at `name` started.
    func started(_ name: String) {
        let time = seconds
        update { state in
            state.status.started(name, at: time)
            return ""
        }
    }

    /// `result`'s flow finished: its line, above the status line.
    func flowFinished(_ result: FlowResult) {
        finished(result, place: nil)
    }

    /// `result` finished, the `place`-th of `total` results (a source whose results outnumber
    /// its names: the cases of a parameterized test).
    func finished(_ result: FlowResult, place: (number: Int, total: Int)?) {
        update { state in
            state.status.finished(result.path, seconds: result.duration.flowReportSeconds)
            let (number, of) = place ?? (state.status.done, total)
            return FlowProgressReporter.line(for: result, place: number, total: of) + "\n"
        }
    }

    /// Erases the status line and stops redrawing it (before anything else is printed).
    func stop() {
        state.withLock { state in
            guard !state.stopped else { return }
            state.stopped = true
            state.timer?.cancel()
            state.timer = nil
            if state.shown { StandardStreams.writeOutput(Self.erase) }
            state.shown = false
        }
    }

    /// The failures, the flaky flows and the summary line.
    func runFinished(_ results: [FlowResult]) {
        stop()
        HarnessCLI.printLine(FlowProgressReporter.summary(of: results))
    }

    private var seconds: Double { (ContinuousClock.now - start).flowReportSeconds }

    private func redraw() { update { _ in "" } }

    /// Changes the state, then writes, in one piece and under the lock (so a redraw never cuts a
    /// line): the status line erased, `change`'s text, the status line drawn again.
    private func update(_ change: (inout State) -> String) {
        let time = seconds
        state.withLock { state in
            // What the flows bring (names, failure messages) is shown escaped; only the
            // status line's own erase sequence reaches the terminal.
            let text = TextEscaping.console(change(&state))
            guard live else {
                if !text.isEmpty { StandardStreams.writeOutput(text) }
                return
            }
            guard !state.stopped else {
                if !text.isEmpty { StandardStreams.writeOutput(text) }
                return
            }
            let width = UserTerminal.size(of: 1)?.columns ?? 80
            var out = state.shown ? Self.erase : ""
            out += text + TextEscaping.console(state.status.line(at: time, width: width))
            state.shown = true
            StandardStreams.writeOutput(out)
        }
    }
}
