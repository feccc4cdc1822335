import Foundation
import HarnessCore
import HarnessSystem
import TerminalEmulator

/// The trace of a Swift test's app: its session journal (the waits and inputs it made, with their
/// lines, and the steps the engine ran for it), the requests of the stub servers its steps named,
/// the bridge's events and the recording; written as the one-test report ``StepEngine`` writes,
/// so `harness merge-reports` shows it as it shows a flow.
public enum SessionTraceReport {
    /// Writes the trace of `app`'s session since `startDate` to `<folder>/swift-tests/`, with
    /// the requests of the stub servers its steps named.
    ///
    /// - Parameters:
    ///   - name: the test's name in reports (`Module.Suite/test()`).
    ///   - filePath: the test file.
    ///   - failure: the test's failure, when it failed (a thrown error, or an issue it recorded):
    ///     the failed journal entry is marked, or a last step says it.
    public static func write(
        name: String, filePath: String, app: TerminalApp, startDate: Date, failure: String?, folder: String
    ) {
        let recorder = FlowTraceRecorder(startDate: startDate)
        write(name: name, filePath: filePath, entries: app.session.journal.all, finalScreen: app.session.screen,
              recording: app.session.recording,
              messages: (FlowRun.bridgeMessages(of: app, trace: recorder)
                         + FlowRun.terminalMessages(of: app.session, trace: recorder)).sorted { $0.time < $1.time },
              stubServers: stubServers(of: app.session.journal), recorder: recorder, failure: failure,
              artifacts: FlowArtifacts(), folder: folder)
    }

    /// Writes the trace of a bare terminal session (no app: no bridge, no sandbox).
    public static func write(
        name: String, filePath: String, session: TerminalSession, startDate: Date, failure: String?, folder: String
    ) {
        write(name: name, filePath: filePath, entries: session.journal.all, finalScreen: session.screen,
              recording: session.recording, messages: FlowRun.terminalMessages(of: session, trace: FlowTraceRecorder(startDate: startDate)),
              stubServers: [], recorder: FlowTraceRecorder(startDate: startDate),
              failure: failure, artifacts: FlowArtifacts(), folder: folder)
    }

    /// Writes the trace of a program run with pipes: its waits, and on failure what it wrote to
    /// each stream so far, kept beside the report (`<name>.stdout.txt`, `.stderr.txt`).
    public static func write(
        name: String, filePath: String, pipedApp: PipedApp, startDate: Date, failure: String?, folder: String
    ) {
        var artifacts = FlowArtifacts()
        if failure != nil {
            let stem = SnapshotVerifier.sanitized(name)
            func keep(_ data: Data, _ suffix: String) -> String? {
                let relative = "\(StepEngine.swiftReportsFolder)/\(stem)\(suffix)"
                do {
                    try FileManager.default.createDirectory(atPath: FlowPaths.join(folder, StepEngine.swiftReportsFolder),
                                                            withIntermediateDirectories: true)
                    try data.write(to: URL(fileURLWithPath: FlowPaths.join(folder, relative)), options: .atomic)
                    return relative
                } catch {
                    return nil
                }
            }
            artifacts.stdout = keep(pipedApp.session.standardOutputSoFar, ".stdout.txt")
            artifacts.stderr = keep(pipedApp.session.standardErrorSoFar, ".stderr.txt")
        }
        write(name: name, filePath: filePath, entries: pipedApp.session.journal.all, finalScreen: nil, recording: nil,
              messages: [], stubServers: stubServers(of: pipedApp.session.journal),
              recorder: FlowTraceRecorder(startDate: startDate), failure: failure,
              artifacts: artifacts, folder: folder)
    }

    /// The stub servers the steps on the session named .
    private static func stubServers(of journal: SessionJournal) -> [any RequestJournal] {
        journal.stubServers
    }

    private static func write(
        name: String, filePath: String, entries: [SessionJournal.Entry], finalScreen: ScreenSnapshot?,
        recording: TerminalRecording?, messages: [FlowTrace.Message], stubServers: [any RequestJournal],
        recorder: FlowTraceRecorder, failure: String?, artifacts: FlowArtifacts, folder: String
    ) {
        var steps = entries.map { entry in
            FlowTrace.Step(text: entry.text, line: entry.line ?? 0, start: recorder.seconds(at: entry.start),
                           duration: entry.end.timeIntervalSince(entry.start), result: entry.problem == nil ? .passed : .failed,
                           problem: entry.problem, screen: entry.screen)
        }
        if let failure, !steps.contains(where: { $0.result == .failed }) {
            steps.append(FlowTrace.Step(text: "the test failed", line: 0, start: recorder.seconds(), duration: 0,
                                        result: .failed, problem: failure, screen: finalScreen))
        }
        let requests = stubServers.flatMap(recorder.requests).sorted { $0.time < $1.time }
        let trace = FlowTrace(
            path: name, attempt: 1, startDate: recorder.startDate, duration: recorder.seconds(), steps: steps,
            requests: requests, messages: messages, recording: recording)
        let traces = FlowTraceCollector(mode: .on)
        traces.add(trace)
        let outcome: AttemptOutcome = failure.map { .failed(FlowFailure(message: $0, artifacts: artifacts)) } ?? .passed
        StepEngine.writeReport(of: FlowFile(path: filePath, relativePath: name), outcome: outcome,
                               duration: .seconds(recorder.seconds()), traces: traces, in: folder)
    }
}
