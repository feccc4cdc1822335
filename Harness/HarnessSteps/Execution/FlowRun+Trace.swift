import Foundation
import HarnessCore
import TerminalEmulator

extension FlowRun {
    /// The screen after a step, when the app runs in a terminal (a snapshot: nothing is drawn).
    private var traceScreen: ScreenSnapshot? { app?.session.screen }

    /// A step is about to run.
    package func traceStepBegan() {
        trace?.begin()
        stepStart = Date()
    }

    /// The step passed.
    package func traceStepPassed(_ step: EngineStep) {
        trace?.end(step, result: .passed, screen: traceScreen)
        journal(step, problem: nil)
    }

    /// Records the step in the app's session journal when a Swift test's trace takes it from
    /// there (``journalsSteps``).
    private func journal(_ step: EngineStep, problem: String?) {
        guard journalsSteps, let journal = app?.session.journal ?? pipedApp?.session.journal else { return }
        journal.recordStep(SessionJournal.Entry(
            text: step.text, file: step.position.file, line: step.position.line, start: stepStart ?? Date(), end: Date(),
            problem: problem, screen: app?.session.screen))
    }

    /// The step ended the attempt with `error` (a failure, a skip or a cancellation).
    package func traceStepFailed(_ step: EngineStep?, _ error: any Error) {
        if let step {
            let problem = (error as? FlowStepFailure)?.problem ?? (error is CancellationError ? "cancelled" : "\(error)")
            journal(step, problem: problem)
        }
        guard let trace, let step else { return }
        switch error {
        case let skip as FlowSkip:
            trace.end(step, result: .skipped, problem: skip.reason, screen: traceScreen)
        case let failure as FlowStepFailure:
            trace.end(step, result: .failed, problem: failure.problem, details: failure.details, screen: traceScreen)
        case is CancellationError:
            trace.end(step, result: .failed, problem: "cancelled", screen: traceScreen)
        default:
            trace.end(step, result: .failed, problem: "\(error)", screen: traceScreen)
        }
    }

    /// Hands the attempt's trace to the collector when ``FlowTraceMode`` keeps it: the steps
    /// (lines never reached as `notRun`), the stub requests, the bridge's events and spy
    /// records, and the recording. Call before teardown, while the app and servers are there.
    package func finishTrace(_ outcome: AttemptOutcome) {
        guard let trace, let collector = options.traces, collector.mode.keeps(outcome, attempt: attempt) else { return }
        var steps = trace.steps
        for step in self.steps.dropFirst(steps.count) {
            steps.append(FlowTrace.Step(text: step.text, line: step.position.line, start: 0, duration: 0,
                                        result: .notRun))
        }
        let messages = (Self.bridgeMessages(of: app, trace: trace) + Self.terminalMessages(of: app?.session, trace: trace))
            .sorted { $0.time < $1.time }
        collector.add(FlowTrace(
            path: flow.caseName, attempt: attempt, startDate: trace.startDate, duration: trace.seconds(),
            steps: steps, requests: stubServer.map(trace.requests) ?? [], messages: messages,
            recording: app?.session.recording))
    }

    /// The terminal's notices (synchronized frames released by the limit), timed from the
    /// trace's start: the same lines in a flow's trace and a Swift test's.
    package static func terminalMessages(of session: TerminalSession?, trace: FlowTraceRecorder) -> [FlowTrace.Message] {
        (session?.notices ?? []).map {
            FlowTrace.Message(time: trace.seconds(at: $0.date), kind: .terminal, name: "terminal", value: $0.text)
        }
    }

    /// The bridge's events and spy records, in time order, timed from the trace's start.
    package static func bridgeMessages(of app: TerminalApp?, trace: FlowTraceRecorder) -> [FlowTrace.Message] {
        var messages: [FlowTrace.Message] = []
        if let bridge = app?.connectedBridge {
            let timed = bridge.timedEvents
            let dropped = bridge.droppedEvents
            if dropped.count > 0 {
                // The events kept are the newest: say what went before them.
                messages.append(.init(
                    time: timed.first.map { trace.seconds(at: $0.receivedAt) } ?? 0, kind: .terminal, name: "bridge",
                    value: "\(dropped.count) older events (\(dropped.bytes) bytes) were dropped (output limit)"))
            }
            for (event, date) in timed {
                messages.append(.init(time: trace.seconds(at: date), kind: .event, name: event.name,
                                      value: FlowTrace.Message.clipped(event.value.text)))
            }
            for record in bridge.timedRecords {
                messages.append(.init(time: trace.seconds(at: record.receivedAt), kind: .spy, name: record.spy,
                                      value: FlowTrace.Message.clipped(record.value.text)))
            }
            messages.sort { $0.time < $1.time }
        }
        return messages
    }
}
