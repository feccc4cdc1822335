import Foundation
import HarnessCore
import Stubs

/// The trace of a Swift test's whole `TerminalApp.with`: its session journal (the waits and
/// inputs it made, with their lines, and the steps the engine ran for it), the requests of the
/// stub servers it used, the bridge's events and the recording; written as the one-test report
/// ``StepEngine`` writes, so `harness merge-reports` shows it as it shows a flow.
public enum SessionTraceReport {
    /// Writes the trace of `app`'s session since `startDate` to `<folder>/swift-tests/`.
    ///
    /// - Parameters:
    ///   - name: the test's name in reports (`Module.Suite/test()`).
    ///   - filePath: the test file, which names the failure's artifacts.
    ///   - failure: the test's failure, when it failed (a thrown error, or an issue it recorded):
    ///     the failed journal entry is marked, or a last step says it.
    public static func write(
        name: String, filePath: String, app: TerminalApp, stubServers: [StubServer], startDate: Date,
        failure: String?, folder: String
    ) {
        let recorder = FlowTraceRecorder(startDate: startDate)
        var steps = app.session.journal.all.map { entry in
            FlowTrace.Step(text: entry.text, line: entry.line ?? 0, start: recorder.seconds(at: entry.start),
                           duration: entry.end.timeIntervalSince(entry.start), result: entry.problem == nil ? .passed : .failed,
                           problem: entry.problem, screen: entry.screen)
        }
        if let failure, !steps.contains(where: { $0.result == .failed }) {
            let now = Date()
            steps.append(FlowTrace.Step(text: "the test failed", line: 0, start: recorder.seconds(at: now), duration: 0,
                                        result: .failed, problem: failure, screen: app.session.screen))
        }
        let requests = stubServers.flatMap { recorder.requests($0.requests, stubs: $0.stubs) }.sorted { $0.time < $1.time }
        let flow = FlowFile(path: filePath, relativePath: name)
        let trace = FlowTrace(
            path: name, attempt: 1, startDate: startDate, duration: recorder.seconds(), steps: steps, requests: requests,
            messages: FlowRun.bridgeMessages(of: app, trace: recorder), recording: app.session.recording)
        let traces = FlowTraceCollector(mode: .on)
        traces.add(trace)
        let outcome: AttemptOutcome = failure.map { .failed(FlowFailure(message: $0)) } ?? .passed
        StepEngine.writeReport(of: flow, outcome: outcome, duration: .seconds(recorder.seconds()), traces: traces, in: folder)
    }
}
