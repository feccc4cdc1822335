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

    /// Parses and removes the harness flags from `arguments` (a whole argv), or reads the same
    /// options from the launch variables of `environment` (``LaunchVariable``).
    ///
    /// A launch uses one carrier: flags and variables together are ``LaunchOptionsError/bothCarriers(flags:variables:)``.
    /// The token is read from `environment[LaunchArgument.tokenEnvironmentVariable]` only
    /// when at least one option is present; without any the result's `options` is `nil` and
    /// `remainingArguments == arguments`.
    public static func parse(
        arguments: [String],
        environment: [String: String]
    ) throws(LaunchOptionsError) -> ParsedLaunchArguments {
        var options = LaunchOptions()
        var remaining: [String] = []
        var seen: [String] = []
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
                // The next argument is the value whatever it is, even `--` or `--harness-...`.
                value = arguments[index + 1]
                index += 2
            }
            guard LaunchArgument.allFlags.contains(flag) else { throw .unknownFlag(flag) }
            guard !value.isEmpty else { throw .emptyValue(flag: flag) }
            if flag != LaunchArgument.set {
                guard !seen.contains(flag) else { throw .duplicateFlag(flag: flag) }
            }
            if !seen.contains(flag) { seen.append(flag) }
            try options.apply(flag: flag, value: value)
        }
        let variables = LaunchVariable.all.filter { environment[$0] != nil }
        if !seen.isEmpty, !variables.isEmpty { throw .bothCarriers(flags: seen, variables: variables) }
        if seen.isEmpty {
            guard !variables.isEmpty else { return ParsedLaunchArguments(options: nil, remainingArguments: arguments) }
            try options.applyEnvironment(environment)
        }
        options.bridgeToken = environment[LaunchArgument.tokenEnvironmentVariable]
        return ParsedLaunchArguments(options: options, remainingArguments: seen.isEmpty ? arguments : remaining)
    }

    /// Reads the options from the launch variables (``LaunchVariable``) of `environment`.
    private mutating func applyEnvironment(_ environment: [String: String]) throws(LaunchOptionsError) {
        for (flag, name) in zip(LaunchArgument.allFlags, LaunchVariable.all) {
            guard let value = environment[name] else { continue }
            guard !value.isEmpty else { throw .emptyVariable(name) }
            if flag == LaunchArgument.set {
                for (key, pairValue) in try Self.parseSetVariable(value) { values[key] = pairValue }
            } else {
                try apply(flag: flag, value: value)
            }
        }
    }

    /// The pairs of a `HARNESS_SET` value: a JSON object of strings, keys non-empty and unique.
    static func parseSetVariable(_ text: String) throws(LaunchOptionsError) -> [String: String] {
        let data = Data(text.utf8)
        let duplicate: String?
        do {
            let bytes = [UInt8](data)
            duplicate = try bytes.withUnsafeBufferPointer { (buffer) throws(WireError) -> String? in
                var scanner = JSONScanner(buffer)
                _ = try scanner.scanTopLevelObject()
                return scanner.firstDuplicateKey
            }
        } catch {
            throw .invalidSetVariable("\(error)")
        }
        if let duplicate { throw .duplicateKey(duplicate) }
        guard let pairs = try? JSONDecoder().decode([String: String].self, from: data) else {
            throw .invalidSetVariable("a value is not a string")
        }
        if pairs.keys.contains("") { throw .invalidSetVariable("a key is empty") }
        return pairs
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
            guard let date = LaunchClock.parse(value) else { throw .invalidClock(value) }
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
        if let frozenClock { result += [LaunchArgument.clock, LaunchClock.format(frozenClock)] }
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

    /// The environment variables that carry these options with the environment carrier
    /// (``LaunchVariable``), the token included; `HARNESS_SET` is a JSON object with sorted keys.
    public var environmentCarrier: [String: String] {
        var result = environment
        if let networkBaseURL { result[LaunchVariable.network] = networkBaseURL.absoluteString }
        if let storageDirectory { result[LaunchVariable.storage] = storageDirectory }
        if let bridgeSocketPath { result[LaunchVariable.bridge] = bridgeSocketPath }
        if let frozenClock { result[LaunchVariable.clock] = LaunchClock.format(frozenClock) }
        if let initialState { result[LaunchVariable.initialState] = initialState }
        if !values.isEmpty {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            result[LaunchVariable.set] = String(decoding: (try? encoder.encode(values)) ?? Data("{}".utf8), as: UTF8.self)
        }
        return result
    }

    // MARK: - Clock format

    /// Parses a clock as the protocol allows it (``LaunchClock/parse(_:)``).
    static func parseClock(_ text: String) -> Date? { LaunchClock.parse(text) }

    /// Formats a date as the harness writes clocks (``LaunchClock/format(_:)``).
    static func formatClock(_ date: Date) -> String { LaunchClock.format(date) }
}
