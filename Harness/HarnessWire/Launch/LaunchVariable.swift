/// The environment variables of the launch protocol: the second carrier of the same options
/// as ``LaunchArgument``'s flags, for apps whose command line the harness should not touch
/// (a script run through an interpreter: `python3 tool.py`).
///
/// A launch uses one carrier: the flags or these variables, never both (the host refuses a
/// launch that has both, see docs/PROTOCOL.md section 1). The token is
/// ``LaunchArgument/tokenEnvironmentVariable`` with either carrier.
public enum LaunchVariable {
    /// The base URL of the app's network (`--harness-network`).
    public static let network = "HARNESS_NETWORK"
    /// The app's storage directory (`--harness-storage`).
    public static let storage = "HARNESS_STORAGE"
    /// The bridge's socket path (`--harness-bridge`).
    public static let bridge = "HARNESS_BRIDGE"
    /// The frozen clock (`--harness-clock`).
    public static let clock = "HARNESS_CLOCK"
    /// The initial state's name (`--harness-initial-state`).
    public static let initialState = "HARNESS_INITIAL_STATE"
    /// Every `--harness-set` pair at once, as one JSON object of strings: `{"mode":"fast"}`.
    public static let set = "HARNESS_SET"

    /// Every option variable, in the order of ``LaunchArgument/allFlags`` (not the token).
    public static let all: [String] = [network, storage, bridge, clock, initialState, set]

    /// The variable that carries the same option as `flag`.
    public static func variable(for flag: String) -> String? {
        guard let index = LaunchArgument.allFlags.firstIndex(of: flag) else { return nil }
        return all[index]
    }
}

/// Which carrier the harness puts the launch options in.
public enum LaunchCarrier: String, Sendable, Equatable, CaseIterable {
    /// Flags right after the program path (`--harness-storage DIR`); the default of the Swift API.
    case arguments
    /// ``LaunchVariable`` environment variables; the command line stays as written.
    case environment
}
