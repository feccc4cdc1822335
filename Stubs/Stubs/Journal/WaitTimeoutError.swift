/// `waitForRequest(matching:timeout:)` ran out of time or its server stopped.
public struct WaitTimeoutError: Error, Sendable, CustomStringConvertible {
    /// What was awaited.
    public let pattern: RequestPattern
    /// The timeout.
    public let timeout: Duration
    /// Every journaled request when the wait ended.
    public let received: [RecordedRequest]
    /// True when the server stopped before the timeout.
    public let serverStopped: Bool

    /// The message, with a near-miss report over the received requests.
    public var description: String {
        let reason = serverStopped ? "the server stopped" : "no request arrived within \(timeout)"
        let report = StubVerificationError(pattern: pattern, expected: .atLeast(1), actualCount: 0, received: received)
        return "Waiting for a request matching \(pattern) failed: \(reason).\n\n" + report.description
    }
}
