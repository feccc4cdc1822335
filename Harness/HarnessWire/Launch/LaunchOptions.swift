import Foundation

/// What the harness tells an app at launch: where its network, storage and
/// bridge are, an optional frozen clock and initial state, and free-form values.
///
/// The test side builds one and turns it into ``arguments`` and ``environment``;
/// the app side gets it back from ``parse(arguments:environment:)``.
///
/// ```swift
/// var options = LaunchOptions()
/// options.networkBaseURL = URL(string: "http://127.0.0.1:8080")
/// options.initialState = "error"
/// let argv = ["todo"] + options.arguments   // token goes to options.environment
/// ```
public struct LaunchOptions: Codable, Sendable, Equatable {
    /// The base URL of the network the app must use (`--harness-network`).
    public var networkBaseURL: URL?
    /// The directory the app must store its data in (`--harness-storage`).
    public var storageDirectory: String?
    /// The path of the bridge's Unix socket (`--harness-bridge`).
    public var bridgeSocketPath: String?
    /// The secret that authenticates the app on the bridge (environment only).
    public var bridgeToken: String?
    /// The time the app must show instead of the real clock (`--harness-clock`).
    public var frozenClock: Date?
    /// The named state the app starts in (`--harness-initial-state`).
    public var initialState: String?
    /// Free-form key/values (`--harness-set KEY=VALUE`, repeatable).
    public var values: [String: String]

    /// Creates options; everything is optional.
    public init(
        networkBaseURL: URL? = nil,
        storageDirectory: String? = nil,
        bridgeSocketPath: String? = nil,
        bridgeToken: String? = nil,
        frozenClock: Date? = nil,
        initialState: String? = nil,
        values: [String: String] = [:]
    ) {
        self.networkBaseURL = networkBaseURL
        self.storageDirectory = storageDirectory
        self.bridgeSocketPath = bridgeSocketPath
        self.bridgeToken = bridgeToken
        self.frozenClock = frozenClock
        self.initialState = initialState
        self.values = values
    }
}
