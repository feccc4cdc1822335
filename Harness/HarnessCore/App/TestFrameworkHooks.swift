/// What the test framework running a ``TerminalApp/with(_:filePath:function:isolation:_:)`` (or
/// another launch or scope of the core) lends it: whether the test recorded a failure while the
/// app was open, where a failure's files are attached, and whether and how the test is traced.
///
/// The core links no test framework, so it cannot ask Swift Testing or XCTest itself: the
/// `Harness` module implements this for both and hands it over through ``TestFrameworkGlue``,
/// found at run time. Without the glue (a program that imports only `HarnessCore`), a failure
/// is a body that throws and nothing is traced.
package protocol TestFrameworkHooks: Sendable {
    /// Whether the running test is traced (``TraceSwitch``): the journals of what it launches
    /// record, and ``finished(_:failure:)`` writes their timelines.
    var isTraced: Bool { get }

    /// Runs `body` on `isolation` and returns how it ended, and whether the running test recorded
    /// a failure (not a known issue, not a warning) while it ran.
    func run<R>(
        isolation: isolated (any Actor)?,
        _ body: () async throws -> R
    ) async -> (outcome: Result<R, any Error>, issueRecorded: Bool)

    /// Attaches `files` to the running test, each named `prefix.NAME`.
    func attach(_ files: [HarnessArtifacts.File], prefix: String)

    /// The body is over, the app still open: `failure` says how the test failed, nil when it did
    /// not (a trace of the whole `with` is written here).
    func finished(_ app: TerminalApp, failure: String?)

    /// The same for a terminal session (its scope ended, or it was terminated).
    func finished(_ session: TerminalSession, failure: String?)

    /// The same for a piped app.
    func finished(_ app: PipedApp, failure: String?)
}

/// The type the test framework glue makes conform to ``TestFrameworkGlueProviding``: a dynamic
/// cast finds it at run time (as ``CallSiteFailures`` finds its recorder), so the core's one
/// `launch`, `with` and `withSession` report to the test framework when a test runs, and
/// nothing has to install the glue first.
package struct TestFrameworkGlue {
    /// The glue's hooks for a launch or scope written in `filePath`'s `function`, when the
    /// process links the glue.
    static func hooks(filePath: String, function: String) -> (any TestFrameworkHooks)? {
        provider?.hooks(filePath: filePath, function: function)
    }

    /// The glue's conformance (a dynamic cast, cheap beside a launch).
    private static var provider: (any TestFrameworkGlueProviding.Type)? {
        (TestFrameworkGlue.self as Any.Type) as? any TestFrameworkGlueProviding.Type
    }
}

/// The test framework glue's side of ``TestFrameworkGlue``.
package protocol TestFrameworkGlueProviding {
    /// The hooks for a launch or scope written in `filePath`'s `function` of the running test.
    static func hooks(filePath: String, function: String) -> any TestFrameworkHooks
}

extension TestFrameworkHooks {
    /// What a failure says in the timeline of an app or session closed as failed.
    static var closedAsFailed: String { "the app was closed as failed (close(failed: true))" }

    /// Makes what a test launched outside a scope leave its timeline when it closes, when the
    /// test is traced.
    func trace(_ app: TerminalApp) {
        guard isTraced else { return }
        app.session.journal.enable()
        app.onClose { app, failed in finished(app, failure: failed ? Self.closedAsFailed : nil) }
    }

    /// The same for a piped app.
    func trace(_ app: PipedApp) {
        guard isTraced else { return }
        app.session.journal.enable()
        app.onClose { app, failed in finished(app, failure: failed ? Self.closedAsFailed : nil) }
    }
}
