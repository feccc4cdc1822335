// The one shape of a timeout in the package: every module's timeout error carries it.

/// What a wait that ran out of time awaited, for how long, and what it saw last.
///
/// Each module's timeout error (`TerminalSessionError.timeout`, `PipedSessionError.timeout`,
/// `BridgeError.callTimedOut`/`.waitTimedOut`/`.neverConnected`/`.notReady`,
/// `WaitTimeoutError` of the stub server) answers ``WaitTimeoutCarrying/waitTimeout``, so
/// one `catch` handles them all:
///
/// ```swift
/// do { try await work() } catch let error as any WaitTimeoutCarrying {
///     if let timeout = error.waitTimeout { print(timeout.awaited, timeout.lastSeen ?? "") }
/// }
/// ```
public struct WaitTimeout: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the wait waited for (`text "Ready"`, `a request matching GET /todos`).
    public let awaited: String
    /// How long it waited (nil: it had no limit and ended for another reason).
    public let timeout: Duration?
    /// What it saw last, short (the screen, the replies received, the requests journaled).
    public let lastSeen: String?

    public init(awaited: String, timeout: Duration?, lastSeen: String? = nil) {
        self.awaited = awaited
        self.timeout = timeout
        self.lastSeen = lastSeen
    }

    public var description: String {
        "timed out" + (timeout.map { " after \($0)" } ?? "") + " waiting for \(awaited)"
            + (lastSeen.map { "; last seen: \($0)" } ?? "")
    }
}

/// An error that may be a timeout: ``waitTimeout`` is its payload then, nil otherwise.
public protocol WaitTimeoutCarrying: Error {
    /// The timeout this error reports, or nil when it reports something else.
    var waitTimeout: WaitTimeout? { get }
}

extension WaitTimeout: WaitTimeoutCarrying {
    public var waitTimeout: WaitTimeout? { self }
}
