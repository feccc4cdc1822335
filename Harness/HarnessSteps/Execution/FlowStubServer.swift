import HarnessSystem

/// The stub server of a flow with `stub`, `requests` or `expect-request` lines, as the flow
/// front end starts it (``FlowExecutor/Options/stubServers``): its journal, and what those
/// lines and a failure's list of unmatched requests ask of it. The step module matches no
/// request itself, so it needs no stub server of its own.
public protocol FlowStubServer: RequestJournal {
    /// Returns once a request matching `method path` and `match` arrived, or `timeout` passed
    /// (or the task was cancelled).
    func waitForRequest(method: String, path: String, match: FlowRequestMatch, timeout: Duration) async

    /// Nil when the journal holds exactly `count` requests matching `method path` and `match`
    /// (at least one when `count` is nil); else how many it holds and the server's explanation
    /// (every request received, the closest ones with how they differ). Throws when a
    /// condition cannot be read (a `body json` file that is not JSON).
    func requestCountFailure(method: String, path: String, match: FlowRequestMatch, count: Int?) throws -> (actual: Int, details: String)?

    /// The lines a failure adds about the requests no route matched: each request and the
    /// closest routes with how they differ. Empty when every request matched.
    var unmatchedRequestLines: [String] { get }

    /// How many requests are not answered in full yet (a delayed answer counts until it is
    /// sent; a hang does not; one begun and not complete counts), after the server read what its
    /// clients sent so far: while one is, the screen has not settled.
    func pendingAnswerCountAfterReading() async -> Int

    /// Returns once no answer is pending, or when the task is cancelled; event driven.
    func waitUntilNoPendingAnswer() async
}
