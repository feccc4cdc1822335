import HarnessSystem

/// A verification failed: how many requests matched, what was received, and the closest requests.
public struct StubVerificationError: Error, Sendable, CustomStringConvertible, SourceLocatedError {
    /// What was verified.
    public let pattern: RequestPattern
    /// The expected count.
    public let expected: RequestCount
    /// How many journaled requests matched.
    public let actualCount: Int
    /// Every journaled request at the time.
    public let received: [RecordedRequest]
    /// Where the `verify` that failed was written, when known (the test framework glue records
    /// the failure there).
    public var failureSite: SourceSite?
    /// The route of each stub the server had when the verification failed, so a request's
    /// answering stub reads `stub GET /todos` rather than its generated id.
    var stubRoutes: [StubID: String] = [:]

    /// Creates the error.
    public init(pattern: RequestPattern, expected: RequestCount, actualCount: Int, received: [RecordedRequest]) {
        self.pattern = pattern
        self.expected = expected
        self.actualCount = actualCount
        self.received = received
    }

    /// The message: expectation, every received request, and a near-miss report.
    public var description: String { failureMessage }

    /// The message: expectation, every received request, and a near-miss report.
    public var failureMessage: String {
        var lines = [
            "Expected \(expected) request(s) matching \(pattern), but \(actualCount) matched.",
            "",
            "Received \(received.count) request(s):",
        ]
        if received.isEmpty { lines.append("  (none)") }
        for request in received.prefix(50) {
            lines.append("  \(pattern.matches(request) ? "✓" : "✗") \(request.description(naming: stubRoutes))")
        }
        if received.count > 50 { lines.append("  … \(received.count - 50) more") }
        let misses = received.filter { !pattern.matches($0) }
            .map { ($0, pattern.distance(to: $0)) }
            .sorted { $0.1 < $1.1 }
            .prefix(3)
        if !misses.isEmpty {
            lines.append("")
            lines.append("Closest requests that did not match:")
            for (index, miss) in misses.enumerated() {
                lines.append("  \(index + 1). \(miss.0.description(naming: stubRoutes))")
                for difference in pattern.differences(from: miss.0) { lines.append("      ✗ \(difference)") }
            }
        }
        return lines.joined(separator: "\n")
    }
}
