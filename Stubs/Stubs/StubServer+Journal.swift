import Foundation
import HarnessSystem

extension StubServer {
    /// Every request received since start or the last `clearRequests()`/`reset()`, oldest first.
    /// Admin API requests are not journaled.
    public var requests: [RecordedRequest] { core.journal }

    /// The journaled requests matching `pattern`, oldest first.
    public func requests(matching pattern: RequestPattern) -> [RecordedRequest] {
        requests.filter(pattern.matches)
    }

    /// The journaled requests no stub answered.
    public var unmatchedRequests: [RecordedRequest] { requests.filter { $0.stubID == nil } }

    /// Empties the journal (stubs stay).
    public func clearRequests() { core.clearJournal() }

    /// The near-miss report for `request` against the current stubs (what an unmatched request gets).
    public func nearMissReport(for request: RecordedRequest) -> NearMissReport {
        core.nearMissReport(for: request)
    }

    /// The failure of a verification, or nil when the journal satisfies it. Pure: no side effect.
    public func verificationFailure(_ pattern: RequestPattern, count: RequestCount = .atLeast(1)) -> StubVerificationError? {
        let journal = requests
        let matched = journal.filter(pattern.matches).count
        if count.isSatisfied(by: matched) { return nil }
        var failure = StubVerificationError(pattern: pattern, expected: count, actualCount: matched, received: journal)
        failure.stubRoutes = core.stubRoutes
        return failure
    }

    /// Throws a `StubVerificationError` (listing what was received, with the closest requests and
    /// how they differ) unless the journal holds `count` requests matching `pattern`. The error
    /// carries the caller's place, where a test that imports `Harness` reports it.
    ///
    /// ```swift
    /// try server.verify(.get("/todos"), count: .exactly(2))
    /// ```
    public func verify(
        _ pattern: RequestPattern, count: RequestCount = .atLeast(1),
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) throws {
        guard var failure = verificationFailure(pattern, count: count) else { return }
        failure.failureSite = SourceSite(fileID: fileID, filePath: filePath, line: line, column: column)
        throw failure
    }

    /// Waits until a request matching `pattern` is journaled (or returns the first one already
    /// journaled). Event driven: the server resumes the waiter when it journals the request.
    ///
    /// - Throws: `WaitTimeoutError` after `timeout` or when the server stops (with what was
    ///   received), `CancellationError` when the task is cancelled.
    public func waitForRequest(
        matching pattern: RequestPattern = .any, timeout: Duration = .seconds(10),
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async throws -> RecordedRequest {
        try await CallSiteFailures.reporting(filePath) {
            do {
                return try await core.waitForRequest(matching: pattern, timeout: timeout)
            } catch var error as WaitTimeoutError {
                error.failureSite = SourceSite(fileID: fileID, filePath: filePath, line: line, column: column)
                throw error
            }
        }
    }
}
