import HarnessSystem

/// Runs `body` with the failed waits in it thrown as they are, for a test that examines their
/// errors: as in a front end's scope, a wait that fails does not record its issue at its line
/// (`CallSiteFailures`), so catching its error is not a failure of the test.
public func examiningFailures<T>(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
) async rethrows -> T {
    try await CallSiteFailures.$areReportedAbove.withValue(true, operation: body, isolation: isolation)
}
