import HarnessSystem

/// A piped session's timeouts carry the package's one timeout payload: the program's exit as
/// what was awaited, the limit, and the tails of both outputs.
extension PipedSessionError: WaitTimeoutCarrying {
    /// The payload of ``timeout(executable:after:standardOutputTail:standardErrorTail:location:)`` and of
    /// ``outputStillOpen(executable:status:after:standardOutputTail:standardErrorTail:location:)`` (the
    /// wait ran out of time there too, the program exited but its output stayed open); nil
    /// for every other case.
    public var waitTimeout: WaitTimeout? {
        switch self {
        case .timeout(let executable, let after, let outputTail, let errorTail, _):
            return WaitTimeout(
                awaited: "\(executable) to exit", timeout: after, lastSeen: Self.lastSeen(outputTail, errorTail))
        case .outputStillOpen(let executable, let status, let after, let outputTail, let errorTail, _):
            return WaitTimeout(
                awaited: "the output of \(executable) to end", timeout: after,
                lastSeen: "it \(status); " + Self.lastSeen(outputTail, errorTail))
        default:
            return nil
        }
    }

    /// Both tails on one line, each cut to its last 100 characters.
    private static func lastSeen(_ outputTail: String, _ errorTail: String) -> String {
        [outputTail, errorTail].map { $0.count > 100 ? "…" + $0.suffix(99) : Substring($0) }.joined(separator: "; ")
    }
}
