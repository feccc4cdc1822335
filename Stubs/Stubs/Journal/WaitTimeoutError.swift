import HarnessSystem

/// `waitForRequest(matching:timeout:)` ran out of time or its server stopped.
///
/// A timeout carries the package's one timeout payload (``waitTimeout``): the pattern awaited,
/// the timeout and the last requests journaled; it is nil when the server stopped instead.
public struct WaitTimeoutError: WaitTimeoutCarrying, SourceLocatedError, Sendable, CustomStringConvertible {
    /// What was awaited.
    public let pattern: RequestPattern
    /// The timeout.
    public let timeout: Duration
    /// Every journaled request when the wait ended.
    public let received: [RecordedRequest]
    /// True when the server stopped before the timeout.
    public let serverStopped: Bool
    /// Where the wait was written, when known (the test framework glue records the failure there).
    public var failureSite: SourceSite?

    /// The message, with a near-miss report over the received requests.
    public var description: String { failureMessage }

    /// The message, with a near-miss report over the received requests.
    public var failureMessage: String {
        let reason = serverStopped ? "the server stopped" : "no request arrived within \(timeout)"
        let report = StubVerificationError(pattern: pattern, expected: .atLeast(1), actualCount: 0, received: received)
        return "Waiting for a request matching \(pattern) failed: \(reason).\n\n" + report.description
    }

    /// The timeout as every module reports it (nil when the server stopped): `lastSeen` lists
    /// the last 5 requests journaled, oldest first (`#1 GET /todo (no stub matched)`), or says
    /// none was.
    public var waitTimeout: WaitTimeout? {
        guard !serverStopped else { return nil }
        let shown = received.suffix(5).map(\.description)
        let lastSeen = received.isEmpty
            ? "no request journaled"
            : (received.count > shown.count ? "… \(received.count - shown.count) more, " : "") + shown.joined(separator: ", ")
        return WaitTimeout(awaited: "a request matching \(pattern)", timeout: timeout, lastSeen: lastSeen)
    }
}
