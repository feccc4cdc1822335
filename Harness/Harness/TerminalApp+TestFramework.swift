import Foundation
import HarnessCore
import HarnessSteps
import HarnessSystem

/// The test framework's side of the core's launches and scopes (`TerminalApp.launch`/`with`,
/// `TerminalSession.launch`/`withSession`, `PipedApp.launch`): the running test's hooks.
extension TestFrameworkGlue: TestFrameworkGlueProviding {
    package static func hooks(filePath: String, function: String) -> any TestFrameworkHooks {
        RunningTestHooks(filePath: filePath, function: function)
    }
}

extension PipedApp {
    /// Launches the program with pipes, runs `body`, and always closes it (as failed when the
    /// test failed); like `TerminalApp.with`, when the test failed while the app ran (`body`
    /// threw, or the test recorded a failure) its ``failureArtifacts()`` (standard output and
    /// error so far, exit status) are kept and attached, a failed wait is reported at its own
    /// line, and in a traced test its waits become the test's timeline.
    ///
    /// ```swift
    /// try await PipedApp.with(launch) { app in
    ///     let output = try await app.session.waitForExit()
    ///     #expect(output.standardOutput == "3 todos\n")
    /// }
    /// ```
    @discardableResult
    public static func with<R>(
        _ launch: AppLaunch,
        standardInput: PipedSession.StandardInput = .empty,
        filePath: StaticString = #filePath,
        function: String = #function,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (PipedApp) async throws -> R
    ) async throws -> R {
        let app = try launchApp(launch, standardInput: standardInput)
        let hooks = RunningTestHooks(filePath: "\(filePath)", function: function)
        if hooks.traceScope != nil { app.session.journal.enable() }
        let (outcome, issueRecorded) = await hooks.run(isolation: isolation) { try await body(app) }
        let failure: String? = switch outcome {
        case .failure(let error): "\(error)"
        case .success: issueRecorded ? "the test recorded a failure while the app was open" : nil
        }
        hooks.traceScope?.write(app, failure: failure)
        if failure != nil {
            HarnessArtifacts.keep(app.failureArtifacts(), filePath: "\(filePath)", function: function, hooks: hooks)
        }
        await app.closed(failed: failure != nil)
        do { return try outcome.get() } catch { try await FailureReporter.rethrowAtItsLine(error) }
    }
}
