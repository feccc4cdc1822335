import HarnessSystem

/// A session's timeout carries the package's one timeout payload: what the wait awaited, its
/// limit, and the last rows of the screen it checked.
extension TerminalSessionError: WaitTimeoutCarrying {
    /// The payload of ``timeout(_:)``; nil for every other case.
    public var waitTimeout: WaitTimeout? {
        guard case .timeout(let failure) = self else { return nil }
        return WaitTimeout(awaited: failure.awaitedAndMiss, timeout: failure.limit, lastSeen: failure.lastSeen)
    }
}
