/// The arguments a user gives `harness swift-test` after `--`, sorted: `--filter` and `--skip`
/// narrow the list (`swift test list` has neither), the run-only options go to the run, the
/// rest (`--skip-build`, `--scratch-path`, `-c release`...) to both.
package struct SwiftTestArguments: Sendable, Hashable {
    /// Every `--filter` pattern.
    package private(set) var filters: [String] = []
    /// Every `--skip` pattern.
    package private(set) var skips: [String] = []
    /// What `swift test list` gets.
    package private(set) var forListing: [String] = []
    /// What `swift test` gets (before the filters and output options the command adds).
    package private(set) var forRunning: [String] = []

    /// Options only `swift test` takes (`swift test list` refuses them); valued ones take the next argument.
    static let runOnlyFlags: Set<String> = ["--parallel", "--no-parallel", "--enable-code-coverage", "--disable-code-coverage",
                                             "--experimental-xunit-message-failure", "--show-codecov-path"]
    static let runOnlyValued: Set<String> = ["--num-workers"]
    /// Options the command sets itself.
    static let reserved: Set<String> = ["--xunit-output", "--event-stream-output-path", "--event-stream-version",
                                        "--experimental-event-stream-output", "--experimental-event-stream-version",
                                        "-l", "--list-tests", "-s", "--specifier"]

    /// Sorts `arguments`.
    /// - Throws: a message for an option the command sets itself, or one without its value.
    package init(_ arguments: [String]) throws(SwiftTestArgumentsError) {
        var index = 0
        func value(of option: String, inline: String?) throws(SwiftTestArgumentsError) -> String {
            if let inline { return inline }
            guard index < arguments.count else { throw .missingValue(option) }
            index += 1
            return arguments[index - 1]
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = argument.hasPrefix("--") ? String(parts[0]) : argument
            let inline = argument.hasPrefix("--") && parts.count == 2 ? String(parts[1]) : nil
            if Self.reserved.contains(name) { throw .reserved(name) }
            switch name {
            case "--filter": filters.append(try value(of: name, inline: inline))
            case "--skip": skips.append(try value(of: name, inline: inline))
            case _ where Self.runOnlyFlags.contains(name):
                forRunning.append(argument)
            case _ where Self.runOnlyValued.contains(name):
                forRunning += inline == nil ? [argument, try value(of: name, inline: nil)] : [argument]
            default:
                forListing.append(argument)
                forRunning.append(argument)
            }
        }
    }

    /// Whether the user said `--parallel` or `--no-parallel`.
    var choosesParallelism: Bool {
        forRunning.contains("--parallel") || forRunning.contains("--no-parallel")
    }
}

/// Arguments after `--` that `harness swift-test` cannot pass on.
package enum SwiftTestArgumentsError: Error, Equatable, CustomStringConvertible {
    /// An option the command sets itself.
    case reserved(String)
    /// An option at the end without its value.
    case missingValue(String)

    package var description: String {
        switch self {
        case .reserved(let option): "\(option) is set by harness swift-test itself (it reads the results from there)"
        case .missingValue(let option): "\(option) needs a value"
        }
    }
}
