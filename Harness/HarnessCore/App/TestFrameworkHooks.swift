/// What the test framework running a ``TerminalApp/with(_:filePath:function:isolation:_:)`` lends
/// it: whether the test recorded a failure while the app was open, and where a failure's files
/// are attached.
///
/// The core links no test framework, so it cannot ask Swift Testing or XCTest itself: the
/// `Harness` module implements this for both and passes it from its own `TerminalApp.with`, the
/// one a test that imports `Harness` calls. Without hooks (a program that imports only
/// `HarnessCore`), a failure is a body that throws.
package protocol TestFrameworkHooks: Sendable {
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
}
