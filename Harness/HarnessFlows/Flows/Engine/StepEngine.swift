import Foundation
import HarnessCore
import Stubs

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
    public static func run(
        _ steps: [EngineStep], app: TerminalApp? = nil, pipedApp: PipedApp? = nil, stubServer: StubServer? = nil,
        test: SnapshotPlace, name: String? = nil, options: FlowExecutor.Options = FlowExecutor.Options()
    ) async -> Outcome {
        let run = FlowRun(swiftTest: test, name: name ?? SnapshotVerifier.testName(of: test.function), steps: steps,
                          app: app, pipedApp: pipedApp, stubServer: stubServer, options: options)
        let outcome = await run.execute()
        guard case .failed(let failure) = outcome else { return .passed }
        let index = run.failedIndex ?? max(0, steps.count - 1)
        return .failed(index: index, message: failure.message)
    }
}
