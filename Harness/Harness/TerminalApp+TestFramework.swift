import Foundation
import HarnessCore
import HarnessSteps

extension TerminalApp {
    /// Launches the app, runs `body`, and always closes it; keeps what a failure needs to be
    /// understood whenever the test failed while the app was open.
    ///
    /// The test failed when `body` threw, or when the running test recorded a failure while
    /// `body` ran: an `#expect`, an `XCTAssert`, a harness assertion or a step that does not
    /// throw. Then, before the app is closed, its ``failureArtifacts()`` (the recording as
    /// asciicast, the screen as framed text and as SVG, the bridge events) are written to
    /// `.build/harness-artifacts/<TestFile>/<test>/` (or `$HARNESS_ARTIFACTS/<TestFile>/<test>/`),
    /// attached to the test (`swift test --attachments-path DIR` copies them to `DIR`, named
    /// `<TestFile>.<test>.screen.svg` and so on; XCTest attaches them on Darwin), and the
    /// sandbox is kept if `HARNESS_KEEP_SANDBOX=1`.
    ///
    /// Known issues (`withKnownIssue`) and warnings are not failures. A failure recorded before
    /// `with` began or after it returned, or from a detached task, is not seen.
    ///
    /// ```swift
    /// try await TerminalApp.with(launch) { app in
    ///     try app.press(.enter)
    ///     try await app.waitFor(text: "Todos (7)")
    ///     #expect(app.screen.contains("milk"))   // fails: the screen and recording are kept
    /// }
    /// ```
    @discardableResult
    public static func with<R>(
        _ launch: AppLaunch,
        filePath: StaticString = #filePath,
        function: String = #function,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (TerminalApp) async throws -> R
    ) async throws -> R {
        let hooks = RunningTestHooks(filePath: "\(filePath)", function: function)
        do {
            guard hooks.traceScope != nil else {
                return try await with(launch, filePath: filePath, function: function, hooks: hooks, isolation: isolation, body)
            }
            // Traced (HARNESS_ARTIFACTS or .harnessTrace): the session's journal records the body's
            // waits and inputs and the steps it runs, and the whole `with` becomes one timeline
            // (RunningTestHooks.finished). Untraced, the journal stays empty.
            return try await SessionJournal.$isRecording.withValue(true) {
                try await with(launch, filePath: filePath, function: function, hooks: hooks, isolation: isolation, body)
            }
        } catch {
            // A failed wait (or `verify`) is reported at its own line, once.
            try await FailureReporter.rethrowAtItsLine(error)
        }
    }

    /// Launches the app, as `HarnessCore`'s `launch` does; in a traced test (`HARNESS_ARTIFACTS`
    /// or `.harnessTrace`) its session's journal records the test's waits, inputs and steps,
    /// and closing the app writes the test's timeline (`close(failed: true)` marks it failed).
    /// (The app of a `TerminalApp.with` is launched by the `with`, which writes its timeline.)
    public static func launch(
        _ launch: AppLaunch, filePath: StaticString = #filePath, function: String = #function
    ) async throws -> TerminalApp {
        let app = try await launchApp(launch)
        if let scope = HarnessTrace.Scope(filePath: "\(filePath)", function: function) {
            app.session.journal.enable()
            app.onClose { app, failed in scope.write(app, failure: failed ? HarnessTrace.Scope.closedAsFailed : nil) }
        }
        return app
    }
}

extension PipedApp {
    /// Launches the program with pipes, as `HarnessCore`'s `launch` does; in a traced test
    /// (`HARNESS_ARTIFACTS` or `.harnessTrace`) its waits and steps are recorded, and closing it
    /// writes the test's timeline (with, when `close(failed: true)`, what it wrote so far).
    public static func launch(
        _ launch: AppLaunch, standardInput: PipedSession.StandardInput = .empty,
        filePath: StaticString = #filePath, function: String = #function
    ) throws -> PipedApp {
        let app = try launchApp(launch, standardInput: standardInput)
        if let scope = HarnessTrace.Scope(filePath: "\(filePath)", function: function) {
            app.session.journal.enable()
            app.onClose { app, failed in scope.write(app, failure: failed ? HarnessTrace.Scope.closedAsFailed : nil) }
        }
        return app
    }
}

extension TerminalSession {
    /// Launches the program, as `HarnessCore`'s `launch` does; in a traced test
    /// (`HARNESS_ARTIFACTS` or `.harnessTrace`) its waits and inputs are recorded, and
    /// ``terminate(grace:)`` writes the test's timeline.
    public static func launch(
        _ configuration: Configuration, filePath: StaticString = #filePath, function: String = #function
    ) throws -> TerminalSession {
        let session = try launchSession(configuration)
        if let scope = HarnessTrace.Scope(filePath: "\(filePath)", function: function) {
            session.journal.enable()
            session.onTerminate { session in scope.write(session, failure: nil) }
        }
        return session
    }

    /// Launches the program, runs `body`, and always terminates the program afterwards, as
    /// `HarnessCore`'s `withSession` does. When the test failed while the session was open
    /// (`body` threw, or the test recorded a failure), its ``failureArtifacts()`` (recording,
    /// screen as text and SVG) are kept and attached as `TerminalApp.with` keeps an app's; a
    /// failed wait is reported at its own line; in a traced test the session's waits and inputs
    /// become the test's timeline.
    public static func withSession<Result>(
        _ configuration: Configuration,
        filePath: StaticString = #filePath,
        function: String = #function,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (TerminalSession) async throws -> Result
    ) async throws -> Result {
        let session = try await launched(configuration)
        let hooks = RunningTestHooks(filePath: "\(filePath)", function: function)
        if hooks.traceScope != nil { session.journal.enable() }
        let (outcome, issueRecorded) = await hooks.run(isolation: isolation) { try await body(session) }
        let failure: String? = switch outcome {
        case .failure(let error): "\(error)"
        case .success: issueRecorded ? "the test recorded a failure while the session was open" : nil
        }
        hooks.traceScope?.write(session, failure: failure)
        if failure != nil {
            HarnessArtifacts.keep(session.failureArtifacts(), filePath: "\(filePath)", function: function, hooks: hooks)
        }
        await session.terminated()
        do { return try outcome.get() } catch { try await FailureReporter.rethrowAtItsLine(error) }
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
