import Foundation

/// The result of parsing an argv: the harness options, if any, and the app's own arguments.
public struct ParsedLaunchArguments: Sendable, Equatable {
    /// The harness options, or `nil` when argv carries no harness flag.
    public var options: LaunchOptions?
    /// argv without the harness flags, in order (the program path stays first).
    public var remainingArguments: [String]
}

extension LaunchOptions {
    // MARK: - Parsing (app side)

    /// Parses and removes the harness flags from `arguments` (a whole argv).
    ///
    /// The token is read from `environment[LaunchArgument.tokenEnvironmentVariable]`
    /// only when at least one harness flag is present; without any flag the result's
    /// `options` is `nil` and `remainingArguments == arguments`.
    public static func parse(
        arguments: [String],
        environment: [String: String]
    ) throws(LaunchOptionsError) -> ParsedLaunchArguments {
        var options = LaunchOptions()
        var remaining: [String] = []
        var seen: Set<String> = []
        var found = false
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" {
                remaining.append(contentsOf: arguments[index...])
                break
            }
            guard argument.hasPrefix(LaunchArgument.prefix) else {
                remaining.append(argument)
                index += 1
                continue
            }
            let flag: String
            let value: String
            if let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
                index += 1
            } else {
                flag = argument
                guard LaunchArgument.allFlags.contains(flag) else { throw .unknownFlag(flag) }
                guard index + 1 < arguments.endIndex else { throw .missingValue(flag: flag) }
                value = arguments[index + 1]
                index += 2
            }
            guard LaunchArgument.allFlags.contains(flag) else { throw .unknownFlag(flag) }
            guard !value.isEmpty else { throw .emptyValue(flag: flag) }
            if flag != LaunchArgument.set {
                guard seen.insert(flag).inserted else { throw .duplicateFlag(flag: flag) }
            }
            found = true
            try options.apply(flag: flag, value: value)
        }
        guard found else { return ParsedLaunchArguments(options: nil, remainingArguments: arguments) }
        options.bridgeToken = environment[LaunchArgument.tokenEnvironmentVariable]
        return ParsedLaunchArguments(options: options, remainingArguments: remaining)
    }

    private mutating func apply(flag: String, value: String) throws(LaunchOptionsError) {
        switch flag {
        case LaunchArgument.network:
            guard let url = URL(string: value), url.scheme != nil, url.host != nil else {
                throw .invalidURL(value)
            }
            networkBaseURL = url
        case LaunchArgument.storage:
            storageDirectory = value
        case LaunchArgument.bridge:
            bridgeSocketPath = value
        case LaunchArgument.clock:
            guard let date = Self.parseClock(value) else { throw .invalidClock(value) }
            frozenClock = date
        case LaunchArgument.initialState:
            initialState = value
        default:  // LaunchArgument.set
            guard let equals = value.firstIndex(of: "="), equals != value.startIndex else {
                throw .invalidKeyValue(value)
            }
            let key = String(value[..<equals])
            guard values[key] == nil else { throw .duplicateKey(key) }
            values[key] = String(value[value.index(after: equals)...])
        }
    }

    // MARK: - Building (test side)

    /// The argv flags that carry these options (never the token), to put after the program path.
    public var arguments: [String] {
        var result: [String] = []
        if let networkBaseURL { result += [LaunchArgument.network, networkBaseURL.absoluteString] }
        if let storageDirectory { result += [LaunchArgument.storage, storageDirectory] }
        if let bridgeSocketPath { result += [LaunchArgument.bridge, bridgeSocketPath] }
        if let frozenClock { result += [LaunchArgument.clock, Self.formatClock(frozenClock)] }
        if let initialState { result += [LaunchArgument.initialState, initialState] }
        for key in values.keys.sorted() {
            result += [LaunchArgument.set, "\(key)=\(values[key]!)"]
        }
        return result
    }

    /// The environment variables that carry the secret parts of these options (the token).
    public var environment: [String: String] {
        guard let bridgeToken else { return [:] }
        return [LaunchArgument.tokenEnvironmentVariable: bridgeToken]
    }

    // MARK: - Clock format

    /// Parses an ISO 8601 date-time with or without fractional seconds.
    static func parseClock(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    /// Formats a date as ISO 8601 in UTC, with milliseconds when it has a fraction.
    static func formatClock(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        let seconds = date.timeIntervalSince1970
        formatter.formatOptions =
            seconds == seconds.rounded() ? [.withInternetDateTime] : [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
