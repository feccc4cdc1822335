import HarnessWire

/// What ``HarnessHost/start(arguments:environment:appName:handshakeTimeout:)`` found and did.
public struct HarnessLaunch: Sendable {
    /// The harness options, or `nil` when the app was launched without harness flags.
    public let options: LaunchOptions?
    /// The app's own arguments: argv without the harness flags (program path first).
    public let remainingArguments: [String]
    /// The connected host, or `nil` when there is no bridge (or it could not connect).
    public let host: HarnessHost?
    /// Why `host` is `nil` although a bridge was requested.
    public let bridgeError: HarnessHostError?
}
