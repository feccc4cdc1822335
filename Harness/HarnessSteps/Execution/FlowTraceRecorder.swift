import Foundation
import Stubs
import HarnessCore
import TerminalEmulator

/// Records one attempt's steps as they run (times, results, the screen after each) for a
/// ``FlowTrace``. Used by ``FlowRun`` from its one task when the run collects traces.
package final class FlowTraceRecorder {
    /// The origin of the trace's times.
    package let startDate: Date
    /// The steps so far.
    private(set) var steps: [FlowTrace.Step] = []
    /// What each registered stub answers, for the status and delay of its requests.
    package var stubAnswers: [StubID: FlowStubResponse] = [:]
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

    /// The requests of `journal` with the status and delay of the stub that answered each (a
    /// sequence stub's answer is found by counting the requests it answered before).
    /// Stubs a Swift test registered itself (not by a `stub` line) are read from `stubs`.
    package func requests(_ journal: [RecordedRequest], stubs: [StubSummary] = []) -> [FlowTrace.Request] {
        let behaviours = Dictionary(stubs.map { ($0.id, $0.behaviour) }, uniquingKeysWith: { first, _ in first })
        var uses: [StubID: Int] = [:]
        return journal.map { request in
            var status = "404"
            var delay: Double?
            if let id = request.stubID {
                let index = uses[id, default: 0]
                uses[id] = index + 1
                switch stubAnswers[id] {
                case .respond(let code, _, let wait)?:
                    status = String(code)
                    delay = wait?.flowSeconds
                case .hang?: status = "hang"
                case .close?: status = "closed"
                case .sequence(let statuses, _)?:
                    status = statuses.isEmpty ? "?" : String(statuses[min(index, statuses.count - 1)])
                case nil:
                    if let answer = behaviours[id]?.answer(forUse: index) {
                        status = answer.status
                        delay = answer.delay?.flowSeconds
                    } else {
                        status = "?"
                    }
                }
            }
            return FlowTrace.Request(time: seconds(at: request.receivedAt), method: request.method, target: request.target,
                                     status: status, delay: delay)
        }
    }
}
