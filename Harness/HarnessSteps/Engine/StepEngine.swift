import Foundation
import HarnessCore
import HarnessSystem

/// The one step engine: runs ``EngineStep``s, whichever front end wrote them, with one set of
/// semantics (waits, snapshot settling, the output cursor, areas, styles, the bridge, files,
/// requests, exit) and one failure message per kind of step.
///
/// `harness run` reaches it through ``FlowExecutor`` (which also launches the flow's app and
/// stub server); a Swift test reaches it through `TerminalApp.run(_:)` with the app it launched:
///
/// ```swift
/// let outcome = await StepEngine.run(steps, app: app, test: SnapshotPlace(filePath: "\(#filePath)", function: #function))
/// ```
public enum StepEngine {
    /// How a list of steps ended.
    public enum Outcome: Sendable, Equatable {
        /// Every step passed.
        case passed
        /// The step at `index` (0-based) failed with `message`: the step's text, what went
        /// wrong, and the screen when it helps (the same text a flow's failure shows).
        case failed(index: Int, message: String)
    }

    /// Runs `steps` in order on the app a Swift test launched (or its piped app), stopping at the
    /// first failure. The app, piped app and stub server stay the test's: nothing is torn down.
    ///
    /// - Parameters:
    ///   - stubServer: the test's stub server, for `requests` checks.
    ///   - test: where snapshot steps keep their references (named after the test).
    ///   - name: the run's name in traces (`Suite/test()`).
    ///   - options: the record mode, artifacts folder and trace collector.
    ///   - journal: the steps go to the app's session journal, for the trace of the test's whole
    ///     `with` (``SessionTraceReport``), instead of a report of their own.
    public static func run(
        _ steps: [EngineStep], app: TerminalApp? = nil, pipedApp: PipedApp? = nil, stubServer: (any RequestJournal)? = nil,
        test: SnapshotPlace, name: String? = nil, options: FlowExecutor.Options = FlowExecutor.Options(), journal: Bool = false
    ) async -> Outcome {
        let name = name ?? SnapshotVerifier.testName(of: test.function)
        var options = options
        let traces = journal ? nil : options.traces ?? options.artifactsDirectory.map { _ in FlowTraceCollector(mode: .on) }
        options.traces = traces
        let run = FlowRun(swiftTest: test, name: name, steps: steps,
                          app: app, pipedApp: pipedApp, stubServer: stubServer, options: options)
        run.journalsSteps = journal
        let started = ContinuousClock.now
        let outcome = await run.execute()  // writes the failure's artifacts under options.artifactsDirectory
        if let folder = options.artifactsDirectory, let traces {
            writeReport(of: run.flow, outcome: outcome, duration: ContinuousClock.now - started, traces: traces, in: folder)
        }
        guard case .failed(let failure) = outcome else { return .passed }
        let index = run.failedIndex ?? max(0, steps.count - 1)
        return .failed(index: index, message: failure.message)
    }

    /// The folder under an artifacts folder where Swift runs leave their reports, one file per
    /// run of steps; ``RunReportWriter/read(folder:)`` merges them when there is no `results.json`.
    public static let swiftReportsFolder = "swift-tests"

    /// Writes the run as a one-flow ``RunReport`` (its trace: steps, screens, requests, bridge
    /// messages, recording) to `<folder>/swift-tests/<name>.<n>.json`, `n` counting the runs of
    /// the same test. Best effort: a report that cannot be written leaves the test's outcome alone.
    public static func writeReport(of flow: FlowFile, outcome: AttemptOutcome, duration: Duration, traces: FlowTraceCollector,
                            in folder: String) {
        let result = FlowResult(flow: flow, attempts: [FlowAttempt(number: 1, duration: duration, outcome: outcome)])
        let report = RunReport(results: [result], traces: traces.traces, title: "Swift tests", caseKind: .tests)
        let directory = FlowPaths.join(folder, swiftReportsFolder)
        let stem = SnapshotVerifier.sanitized(flow.relativePath)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(report) else { return }
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for number in 1...10_000 {
            // Without overwriting: two runs of one test (or two processes) keep both reports.
            let url = URL(fileURLWithPath: FlowPaths.join(directory, "\(stem).\(number).json"))
            if (try? data.write(to: url, options: .withoutOverwriting)) != nil { return }
            if !FileManager.default.fileExists(atPath: url.path) { return }  // not a name clash: give up
        }
    }
}
