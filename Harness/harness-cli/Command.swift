/// A subcommand of the `harness` tool.
protocol Command {
    /// The word that selects it (`harness NAME ...`).
    static var name: String { get }
    /// One line for the usage text.
    static var synopsis: String { get }
    /// Runs with the arguments after the name; returns the exit status.
    /// - Throws: `CommandError` for bad usage or input.
    static func run(_ arguments: [String]) async throws -> Int32
}

/// Why a command could not run.
enum CommandError: Error, CustomStringConvertible {
    /// Bad arguments (exit 64, EX_USAGE); the message says which.
    case usage(String)
    /// The input could not be used (exit 1).
    case failure(String)

    var description: String {
        switch self {
        case let .usage(message), let .failure(message): return message
        }
    }

    /// The exit status for this error.
    var exitStatus: Int32 {
        switch self {
        case .usage: return 64
        case .failure: return 1
        }
    }
}
