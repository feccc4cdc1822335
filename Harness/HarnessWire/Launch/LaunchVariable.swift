/// The environment variables of the launch protocol: the second carrier of the same options
/// as ``LaunchArgument``'s flags, for apps whose command line the harness should not touch
/// (a script run through an interpreter: `python3 tool.py`).
///
/// A launch uses one carrier: the flags or these variables, never both (the host refuses a
/// launch that has both, see docs/PROTOCOL.md section 1). The token is
/// ``LaunchArgument/tokenEnvironmentVariable`` with either carrier.
public enum LaunchVariable {
    /// `HARNESS_NETWORK`: the base URL of the app's network (`--harness-network`).
    public static let network = named(LaunchArgument.network)
    /// `HARNESS_STORAGE`: the app's storage directory (`--harness-storage`).
    public static let storage = named(LaunchArgument.storage)
    /// `HARNESS_BRIDGE`: the bridge's socket path (`--harness-bridge`).
    public static let bridge = named(LaunchArgument.bridge)
    /// `HARNESS_CLOCK`: the frozen clock (`--harness-clock`).
    public static let clock = named(LaunchArgument.clock)
    /// `HARNESS_INITIAL_STATE`: the initial state's name (`--harness-initial-state`).
    public static let initialState = named(LaunchArgument.initialState)
    /// `HARNESS_SET`: every `--harness-set` pair at once, as one JSON object of strings: `{"mode":"fast"}`.
    public static let set = named(LaunchArgument.set)

    /// Every option variable, in the order of ``LaunchArgument/allFlags`` (not the token).
    public static let all: [String] = LaunchArgument.allFlags.map(named)

    /// The variable that carries the same option as `flag`.
    public static func variable(for flag: String) -> String? {
        LaunchArgument.allFlags.contains(flag) ? named(flag) : nil
    }

    /// A flag's variable: `HARNESS_` and the flag's name in capitals, `-` written `_`
    /// (`--harness-initial-state` is `HARNESS_INITIAL_STATE`).
    private static func named(_ flag: String) -> String {
        "HARNESS_" + flag.dropFirst(LaunchArgument.prefix.count).uppercased().replacing("-", with: "_")
    }
}

/// Which carrier the harness puts the launch options in.
public enum LaunchCarrier: String, Sendable, Equatable, CaseIterable {
    /// Flags right after the program path (`--harness-storage DIR`); the default of the Swift API.
    case arguments
    /// ``LaunchVariable`` environment variables; the command line stays as written.
    case environment
}
