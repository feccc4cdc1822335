import HarnessSystem

/// A session's timeout carries the package's one timeout payload: what the wait awaited, its
/// limit, and the last rows of the screen it saw.
extension TerminalSessionError: WaitTimeoutCarrying {
    /// The payload of ``timeout(waitingFor:after:screen:lastBytes:output:location:)``; nil for
    /// every other case.
    public var waitTimeout: WaitTimeout? {
        guard case .timeout(let waitingFor, let after, let screen, _, let output, _) = self else { return nil }
        return WaitTimeout(awaited: waitingFor, timeout: after, lastSeen: Self.lastSeen(screen: screen, output: output))
    }

    /// The last three non-blank rows of a framed screen (`screen: row / row / row`), or the
    /// end of the output when the screen is blank; at most 200 characters.
    static func lastSeen(screen framed: String, output: String) -> String {
        let rows = framed.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { $0.hasPrefix("│") && $0.hasSuffix("│") }
            .map { row -> String in
                var text = String(row.dropFirst().dropLast())
                while text.last == " " { text.removeLast() }
                return text
            }
            .filter { !$0.isEmpty }
        let seen = rows.isEmpty
            ? "output: " + (output.isEmpty ? "(none)" : output.split(separator: "\n").suffix(3).joined(separator: " / "))
            : "screen: " + rows.suffix(3).joined(separator: " / ")
        return seen.count > 200 ? "…" + seen.suffix(199) : seen
    }
}
