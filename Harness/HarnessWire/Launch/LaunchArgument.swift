/// The names of the launch arguments and environment variables of the harness protocol.
///
/// Every flag takes exactly one value, written either as the next argument
/// (`--harness-network http://127.0.0.1:8080`) or joined with `=`
/// (`--harness-network=http://127.0.0.1:8080`). All flags share the reserved
/// prefix `--harness-`; an unknown flag with that prefix is an error, so typos
/// are caught. Scanning stops at a bare `--`. The secret token never appears in
/// argv: it travels in the environment variable ``tokenEnvironmentVariable``.
public enum LaunchArgument {
    /// The prefix every harness flag starts with.
    public static let prefix = "--harness-"
    /// The base URL of the app's network (a stub server), e.g. `http://127.0.0.1:49152`.
    public static let network = "--harness-network"
    /// The app's storage directory (a fresh sandbox per launch).
    public static let storage = "--harness-storage"
    /// The path of the bridge's Unix socket.
    public static let bridge = "--harness-bridge"
    /// A frozen clock as an ISO 8601 date-time, e.g. `2024-05-01T09:30:00Z`.
    public static let clock = "--harness-clock"
    /// The name of the state the app starts in, e.g. `error`.
    public static let initialState = "--harness-initial-state"
    /// A free-form `KEY=VALUE` pair; repeatable.
    public static let set = "--harness-set"
    /// The environment variable that carries the bridge's secret token (hex).
    public static let tokenEnvironmentVariable = "HARNESS_BRIDGE_TOKEN"

    /// Every flag the protocol defines.
    public static let allFlags: [String] = [network, storage, bridge, clock, initialState, set]
}
