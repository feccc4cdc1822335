/// Why the harness launch arguments could not be parsed.
public enum LaunchOptionsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A flag was the last argument and has no value.
    case missingValue(flag: String)
    /// A flag's value is empty.
    case emptyValue(flag: String)
    /// A single-valued flag appears twice.
    case duplicateFlag(flag: String)
    /// A flag starts with `--harness-` but is not one of ``LaunchArgument/allFlags``.
    case unknownFlag(String)
    /// The `--harness-network` value is not an absolute URL with a scheme and host.
    case invalidURL(String)
    /// The `--harness-clock` value is not an ISO 8601 date-time.
    case invalidClock(String)
    /// A `--harness-set` value is not `KEY=VALUE` with a non-empty key.
    case invalidKeyValue(String)
    /// A `--harness-set` key appears twice.
    case duplicateKey(String)

    /// A readable explanation.
    public var description: String {
        switch self {
        case .missingValue(let flag): "launch argument \(flag) needs a value"
        case .emptyValue(let flag): "launch argument \(flag) has an empty value"
        case .duplicateFlag(let flag): "launch argument \(flag) is given more than once"
        case .unknownFlag(let flag):
            "unknown launch argument \(flag); known: \(LaunchArgument.allFlags.joined(separator: ", "))"
        case .invalidURL(let value): "\(LaunchArgument.network) value '\(value)' is not an absolute URL"
        case .invalidClock(let value):
            "\(LaunchArgument.clock) value '\(value)' is not an ISO 8601 date-time such as 2024-05-01T09:30:00Z"
        case .invalidKeyValue(let value): "\(LaunchArgument.set) value '\(value)' is not KEY=VALUE"
        case .duplicateKey(let key): "\(LaunchArgument.set) key '\(key)' is given more than once"
        }
    }
}
