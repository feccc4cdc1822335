import HarnessSystem
import HarnessWire

/// Why the app's host could not join the harness's bridge. The app carries on without it.
public enum HarnessHostError: Error, Sendable, CustomStringConvertible {
    /// The socket could not be connected.
    case connectFailed(path: String, SystemError)
    /// The hello/welcome exchange failed (timeout, closed, malformed).
    case handshakeFailed(String)
    /// The harness refused the hello (wrong token, version mismatch).
    case refused(code: String, reason: String)
    /// The harness answered the hello with something other than welcome or refused.
    case unexpectedMessage(String)

    /// A readable explanation.
    public var description: String {
        switch self {
        case .connectFailed(let path, let error): "cannot connect to the harness bridge at \(path): \(error)"
        case .handshakeFailed(let reason): "bridge handshake failed: \(reason)"
        case .refused(let code, let reason): "the harness refused the bridge (\(code)): \(reason)"
        case .unexpectedMessage(let type): "the harness answered hello with '\(type)'"
        }
    }
}
