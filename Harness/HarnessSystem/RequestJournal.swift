import Foundation

/// A server that journals the HTTP requests it receives (the stub server): what the step engine,
/// the traces and the artifacts read of it, so that they need not know its type.
///
/// `Stubs`' `StubServer` conforms; a flow's `stub` lines start one through the factory the flow
/// front end gives the step engine, and a Swift test hands its own to `app.run(_:stubServer:)`.
public protocol RequestJournal: AnyObject, Sendable {
    /// Where the server listens (the base of the app's network).
    var baseURL: URL { get }
    /// The requests received so far, in order, each with what answered it.
    var journaledRequests: [JournaledRequest] { get }
    /// The journal as a JSON array, one object per request (the `.journal.json` artifact).
    func journalJSON() -> Data
    /// Checks that exactly `count` requests `method target` arrived (the path exact, and each query
    /// parameter written after `?`); for a `count` of 1 or more, first waits up to `timeout` for
    /// one. Nil when the count is right, else the count received and the journal's explanation.
    func checkRequestCount(method: String, target: String, count: Int, timeout: Duration) async -> (actual: Int, details: String)?
    /// Stops the server (idempotent).
    func stop()
    /// Stops the server and returns once it stopped, without blocking the caller's thread.
    func stopped() async
}

extension RequestJournal {
    /// Stops the server (``stop()``); a journal whose stop does not block needs no more.
    public func stopped() async { stop() }
}

/// One request of a ``RequestJournal``: when it came, what it asked, and what answered it.
public struct JournaledRequest: Sendable, Hashable {
    /// When it was received.
    public var receivedAt: Date
    /// Its method.
    public var method: String
    /// Its target (path and query).
    public var target: String
    /// The answer: a status code (`200`), `404` when no stub matched, or `hang`, `closed`,
    /// `reset`, `garbage`, `?` for answers without a status.
    public var status: String
    /// The delay before the answer, when the stub delays it.
    public var delay: Duration?

    /// Creates an entry.
    public init(receivedAt: Date, method: String, target: String, status: String, delay: Duration? = nil) {
        (self.receivedAt, self.method, self.target, self.status, self.delay) = (receivedAt, method, target, status, delay)
    }
}
