import HarnessSystem

/// The bridge's timeouts in the package's one timeout shape: a `catch let error as any
/// WaitTimeoutCarrying` handles them beside the sessions' and the stub server's.
extension BridgeError: WaitTimeoutCarrying {
    /// The payload of ``neverConnected(timeout:diagnostics:)``, ``notReady(timeout:diagnostics:)``,
    /// ``callTimedOut(name:timeout:diagnostics:)`` and
    /// ``waitTimedOut(what:timeout:received:diagnostics:location:)``; nil for every other case.
    /// `lastSeen` is what arrived (for a spy or event wait) or the diagnostics (the app's
    /// screen, for a `TerminalApp`), shortened.
    public var waitTimeout: WaitTimeout? {
        switch self {
        case .neverConnected(let timeout, let diagnostics):
            WaitTimeout(awaited: "the app to connect to the bridge", timeout: timeout, lastSeen: Self.short(diagnostics))
        case .notReady(let timeout, let diagnostics):
            WaitTimeout(awaited: "the app to say ready on the bridge", timeout: timeout, lastSeen: Self.short(diagnostics))
        case .callTimedOut(let name, let timeout, let diagnostics):
            WaitTimeout(awaited: "the reply to bridge call '\(name)'", timeout: timeout, lastSeen: Self.short(diagnostics))
        case .waitTimedOut(let what, let timeout, let received, _, _):
            WaitTimeout(awaited: what, timeout: timeout, lastSeen: Self.short(received))
        case .setupFailed, .noHost, .authenticationFailed, .versionMismatch, .appExited, .connectionLost, .protocolError,
            .unknownName, .remoteError, .undecodable, .unencodable, .closed, .notLaunched:
            nil
        }
    }

    /// The longest `lastSeen`, in characters; the full text stays in the error's description.
    static let lastSeenLimit = 400

    private static func short(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        guard text.count > lastSeenLimit else { return text }
        return String(text.prefix(lastSeenLimit)) + "…"
    }
}
