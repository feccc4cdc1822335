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
    /// The `--harness-clock` value is not an RFC 3339 date-time (docs/PROTOCOL.md section 1).
    case invalidClock(String)
    /// A `--harness-set` value is not `KEY=VALUE` with a non-empty key.
    case invalidKeyValue(String)
    /// A `--harness-set` key appears twice.
    case duplicateKey(String)
    /// A launch-protocol environment variable is set but empty.
    case emptyVariable(String)
    /// `HARNESS_SET` is not a JSON object of strings with non-empty keys, each key once.
    case invalidSetVariable(String)
    /// Both carriers were used: harness flags in argv and protocol variables in the environment.
    case bothCarriers(flags: [String], variables: [String])

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
            "\(LaunchArgument.clock) value '\(value)' is not a date-time YYYY-MM-DDThh:mm:ss[.fraction](Z|+hh:mm|-hh:mm) such as 2024-05-01T09:30:00Z"
        case .invalidKeyValue(let value): "\(LaunchArgument.set) value '\(value)' is not KEY=VALUE"
        case .duplicateKey(let key): "\(LaunchArgument.set) key '\(key)' is given more than once"
        case .emptyVariable(let name): "launch variable \(name) is set but empty"
        case .invalidSetVariable(let reason):
            "\(LaunchVariable.set) must be a JSON object of strings, e.g. {\"mode\":\"fast\"}: \(reason)"
        case .bothCarriers(let flags, let variables):
            "the launch options came both as flags (\(flags.joined(separator: ", "))) and as environment variables "
                + "(\(variables.joined(separator: ", "))); a launch uses one carrier"
        }
    }
}
