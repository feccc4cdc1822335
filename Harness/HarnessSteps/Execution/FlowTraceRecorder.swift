import Foundation
import HarnessSystem
import HarnessCore
import TerminalEmulator

/// Records one attempt's steps as they run (times, results, the screen after each) for a
/// ``FlowTrace``. Used by ``FlowRun`` from its one task when the run collects traces.
package final class FlowTraceRecorder {
    /// The origin of the trace's times.
    package let startDate: Date
    /// The steps so far.
    private(set) var steps: [FlowTrace.Step] = []
    private var stepStart: Date?

    package init(startDate: Date = Date()) {
        self.startDate = startDate
    }

    /// Seconds since the start.
    package func seconds(at date: Date = Date()) -> Double { date.timeIntervalSince(startDate) }

    /// A step begins.
    package func begin() {
        stepStart = Date()
    }

    /// The step begun last ended with `result`; `screen` is the screen after it.
    package func end(_ step: EngineStep, result: FlowTrace.StepResult, problem: String? = nil, details: String? = nil,
             screen: ScreenSnapshot?) {
        let now = Date()
        let start = stepStart ?? now
        stepStart = nil
        steps.append(FlowTrace.Step(
            text: step.text, line: step.position.line, start: seconds(at: start),
            duration: now.timeIntervalSince(start), result: result, problem: problem, details: details, screen: screen))
    }

    /// The requests of `journal`, with what answered each, timed from the start.
    package func requests(_ journal: any RequestJournal) -> [FlowTrace.Request] {
        journal.journaledRequests.map { request in
            FlowTrace.Request(time: seconds(at: request.receivedAt), method: request.method, target: request.target,
                              status: request.status, delay: request.delay?.flowSeconds)
        }
    }
}
