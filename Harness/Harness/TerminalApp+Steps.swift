import Foundation
import HarnessCore
import HarnessSteps
import HarnessSystem
import Testing

extension TerminalApp {
    /// Runs `steps` in order on this app with the one ``StepEngine``: each action, then each of
    /// its expectations, waiting event driven, with the flow runner's semantics and messages.
    ///
    /// The first unmet expectation is reported once, at its step's line (Swift Testing or
    /// XCTest), with what was expected next to the screen, and the steps stop by throwing:
    /// under Swift Testing the error `#require` throws (Swift Testing does not report it again),
    /// under XCTest or a failure handler ``AppStepsFailed``. Snapshots are named after the
    /// test: `<test>.<name>`.
    ///
    /// - Parameter stubServer: the test's stub server, which `.requests` checks read.
    public func run(
        _ steps: AppStep..., stubServer: (any RequestJournal)? = nil, filePath: StaticString = #filePath, function: String = #function
    ) async throws {
        try await run(steps, stubServer: stubServer, filePath: filePath, function: function)
    }

    /// The array form of ``run(_:stubServer:filePath:function:)-(AppStep...)``.
    public func run(
        _ steps: [AppStep], stubServer: (any RequestJournal)? = nil, filePath: StaticString = #filePath, function: String = #function
    ) async throws {
        try await AppStepRunner.run(steps, app: self, pipedApp: nil, stubServer: stubServer,
                                    test: SnapshotPlace(filePath: "\(filePath)", function: function))
    }
}

extension PipedApp {
    /// Runs `steps` on this program run with pipes, as ``TerminalApp/run(_:stubServer:filePath:function:)-(AppStep...)``
    /// does: stream checks (`.standardOutput(.contains("a"))`) and `.exit` wait for the program
    /// to end; screen checks fail (there is no screen).
    public func run(
        _ steps: AppStep..., stubServer: (any RequestJournal)? = nil, filePath: StaticString = #filePath, function: String = #function
    ) async throws {
        try await run(steps, stubServer: stubServer, filePath: filePath, function: function)
    }

    /// The array form of ``run(_:stubServer:filePath:function:)-(AppStep...)``.
    public func run(
        _ steps: [AppStep], stubServer: (any RequestJournal)? = nil, filePath: StaticString = #filePath, function: String = #function
    ) async throws {
        try await AppStepRunner.run(steps, app: nil, pipedApp: self, stubServer: stubServer,
                                    test: SnapshotPlace(filePath: "\(filePath)", function: function))
    }
}

/// Turns Swift steps into the engine's, runs them, and reports the first failure at its step.
package enum AppStepRunner {
    /// The test's name in reports, as `harness swift-test` names it: `Module.Suite/test()` under
    /// Swift Testing, `<TestFile>/<test>` otherwise.
    static func reportName(_ test: SnapshotPlace) -> String {
        if let name = runningTestName { return name }
        let file = URL(fileURLWithPath: test.filePath).deletingPathExtension().lastPathComponent
        return "\(file)/\(test.function)"
    }

    /// The running Swift Testing test as `swift test list` names it (`Module.Suite/test()`); nil
    /// outside one.
    package static var runningTestName: String? {
        guard let id = Test.current?.id, !id.nameComponents.isEmpty else { return nil }
        return "\(id.moduleName)." + id.nameComponents.joined(separator: "/")
    }

    static func run(
        _ steps: [AppStep], app: TerminalApp?, pipedApp: PipedApp?, stubServer: (any RequestJournal)?, test: SnapshotPlace
    ) async throws {
        var engineSteps: [EngineStep] = []
        var owner: [Int] = []  // the AppStep of each engine step
        for (index, step) in steps.enumerated() {
            let made = step.engineSteps
            engineSteps += made
            owner += Array(repeating: index, count: made.count)
        }
        // With HARNESS_ARTIFACTS or the .harnessTrace trait, the run leaves the flow runner's trace and artifacts there, for
        // `harness merge-reports`; the test shows as `<TestFile>/<test>()`.
        var options = FlowExecutor.Options()
        options.artifactsDirectory = TraceSwitch.folder
        // On an app of a traced test, the steps join its timeline (the session's journal)
        // instead of leaving a report of their own.
        let sessionJournal = app?.session.journal ?? pipedApp?.session.journal
        let journal = sessionJournal?.isEnabled ?? false
        if journal, let stubServer { sessionJournal?.note(stubServer: stubServer) }
        if journal { options.artifactsDirectory = nil }
        let outcome = await StepEngine.run(engineSteps, app: app, pipedApp: pipedApp, stubServer: stubServer, test: test,
                                           name: reportName(test), options: options, journal: journal)
        guard case .failed(let index, let message) = outcome else { return }
        let step = owner.indices.contains(index) ? owner[index] : steps.count - 1
        let location = steps[step].location
        // Reported once, at the step: under Swift Testing the error thrown is the one `#require`
        // throws, which is not reported again where it surfaces (the `with` line).
        try await FailureReporter.failAndStop(message, at: location,
                                              throwing: AppStepsFailed(step: step + 1, location: location, message: message))
    }
}
