import HarnessSystem
import HarnessWire

/// Everything that can go wrong on the test side of the bridge.
///
/// Cases that a test would want to debug carry `diagnostics`: whatever the
/// listener's diagnostics closure returned when the error happened (the lead
/// wires it to the app's last screen and exit status).
public enum BridgeError: Error, Sendable, CustomStringConvertible, SourceLocatedError {
    /// The private directory or the listening socket could not be created.
    case setupFailed(String)
    /// No app connected to the bridge within the timeout.
    case neverConnected(timeout: Duration, diagnostics: String?)
    /// The app wrote to its terminal while it had not connected to the bridge: it has no
    /// harness host, since a host connects before the app's first output (docs/PROTOCOL.md,
    /// section 5). Known at the first byte, not after a timeout.
    case noHost(diagnostics: String?)
    /// The app connected but did not say ready within the timeout.
    case notReady(timeout: Duration, diagnostics: String?)
    /// The app's hello had a missing or wrong token (or was not a hello); it was refused.
    case authenticationFailed(reason: String, diagnostics: String?)
    /// The app speaks another protocol version; it was refused.
    case versionMismatch(app: Int, harness: Int)
    /// The app process exited; `during` names the call or wait that was pending.
    case appExited(status: String, during: String?, diagnostics: String?)
    /// The connection ended without a known exit (the app closed it or a socket error).
    case connectionLost(reason: String, during: String?, diagnostics: String?)
    /// The app sent bytes that are not valid frames (too large, malformed); the connection was dropped.
    case protocolError(WireError, diagnostics: String?)
    /// A call got no reply within the timeout.
    case callTimedOut(name: String, timeout: Duration, diagnostics: String?)
    /// A wait for events or spy calls timed out; `received` says what did arrive.
    case waitTimedOut(what: String, timeout: Duration, received: String, diagnostics: String?,
                      location: SourceSite? = nil)
    /// The app exposes nothing called `name`; `available` lists what it does expose.
    case unknownName(String, available: [String])
    /// The app's probe or handler failed (code from the protocol, message from the app).
    case remoteError(name: String, code: String, message: String)
    /// A value from the app does not decode as the expected type.
    case undecodable(type: String, json: String, detail: String)
    /// Params could not be encoded as JSON (or are larger than a frame).
    case unencodable(type: String, detail: String)
    /// The bridge was closed by the test.
    case closed
    /// The app was launched without a bridge (`launchProtocol` is not `.bridge`).
    case notLaunched(launchProtocol: String)

    /// A readable explanation, with diagnostics appended when present, after the place the
    /// wait was written when known (`Tests/LoginTests.swift:42: timed out ...`).
    public var description: String {
        guard case .waitTimedOut(_, _, _, _, let location?) = self else { return failureMessage }
        return "\(location.fileID):\(location.line): " + failureMessage
    }

    /// Where the wait was written, when known (the test framework glue records the failure there).
    public var failureSite: SourceSite? {
        guard case .waitTimedOut(_, _, _, _, let location) = self else { return nil }
        return location
    }

    /// This error with the place the wait was written, when it is a wait's error without one.
    func at(_ location: SourceCodeLocation) -> BridgeError {
        guard case .waitTimedOut(let what, let timeout, let received, let diagnostics, nil) = self else { return self }
        return .waitTimedOut(what: what, timeout: timeout, received: received, diagnostics: diagnostics, location: location.site)
    }

    /// The explanation without the place the wait was written.
    public var failureMessage: String {
        switch self {
        case .setupFailed(let reason):
            return "cannot set up the bridge: \(reason)"
        case .neverConnected(let timeout, let diagnostics):
            return "the app never connected to the bridge within \(timeout)" + Self.format(diagnostics)
        case .noHost(let diagnostics):
            return "the app wrote to its terminal before connecting to the bridge, so it never will: it links no harness host "
                + "(a host connects before the app's first output)" + Self.format(diagnostics)
        case .notReady(let timeout, let diagnostics):
            return "the app connected to the bridge but did not say ready within \(timeout)" + Self.format(diagnostics)
        case .authenticationFailed(let reason, let diagnostics):
            return "the bridge refused the app: \(reason)" + Self.format(diagnostics)
        case .versionMismatch(let app, let harness):
            return "the app speaks bridge protocol version \(app), the harness speaks \(harness)"
        case .appExited(let status, let during, let diagnostics):
            return "the app exited (\(status))" + Self.during(during) + Self.format(diagnostics)
        case .connectionLost(let reason, let during, let diagnostics):
            return "the bridge connection was lost: \(reason)" + Self.during(during) + Self.format(diagnostics)
        case .protocolError(let error, let diagnostics):
            return "the bridge connection was dropped: \(error)" + Self.format(diagnostics)
        case .callTimedOut(let name, let timeout, let diagnostics):
            return "bridge call '\(name)' got no reply within \(timeout)" + Self.format(diagnostics)
        case .waitTimedOut(let what, let timeout, let received, let diagnostics, _):
            return "timed out after \(timeout) waiting for \(what); received: \(received)" + Self.format(diagnostics)
        case .unknownName(let name, let available):
            return "the app exposes nothing named '\(name)'; available: "
                + (available.isEmpty ? "(none)" : available.joined(separator: ", "))
        case .remoteError(let name, let code, let message):
            return "bridge call '\(name)' failed in the app (\(code)): \(message)"
        case .undecodable(let type, let json, let detail):
            return "value does not decode as \(type): \(detail)\nJSON: \(json)"
        case .unencodable(let type, let detail):
            return "params of type \(type) cannot be sent: \(detail)"
        case .closed:
            return "the bridge is closed"
        case .notLaunched(let launchProtocol):
            return "the app was launched without a bridge (launch protocol .\(launchProtocol)); "
                + "set `launch.launchProtocol = .bridge` to reach its spies, probes and events"
        }
    }

    private static func during(_ what: String?) -> String {
        what.map { " during \($0)" } ?? ""
    }

    private static func format(_ diagnostics: String?) -> String {
        guard let diagnostics, !diagnostics.isEmpty else { return "" }
        return "\n" + diagnostics
    }
}
