import Foundation

/// What the user asked the `todo` executable to do, parsed from its arguments.
public struct TodoCommandLine: Equatable, Sendable {
    /// The sub-command.
    public enum Command: Equatable, Sendable {
        /// The full-screen list (the default).
        case interactive
        /// `todo list [--json]`: print the todos and exit, for scripts and pipes.
        case list(json: Bool)
        /// `--help`.
        case help
        /// `--version`.
        case version
    }

    /// The version `--version` prints.
    public static let version = "0.1.0"

    /// The sub-command.
    public var command: Command
    /// `--api-url`: the todo service's base URL.
    public var apiURL: URL?
    /// `--storage`: the folder the list is saved in.
    public var storage: String?

    /// Creates a parsed command line.
    public init(command: Command = .interactive, apiURL: URL? = nil, storage: String? = nil) {
        self.command = command
        self.apiURL = apiURL
        self.storage = storage
    }

    /// The help text (`todo --help`, and on stderr after a usage error).
    public static let usage = """
        Usage: todo [--api-url URL] [--storage DIR]
               todo list [--json] [--api-url URL]
               todo --help | --version

        A terminal todo list: loads the todos over HTTP, shows them sorted by title,
        and saves them to disk.

        Options:
          --api-url URL   the todo service (default: \(TodoAPI.defaultBaseURL.absoluteString))
          --storage DIR   where todos.json is saved
                          (default: $XDG_DATA_HOME/todo, else ~/.local/share/todo)
          --json          with `list`: print JSON instead of lines
          --help          show this help
          --version       show the version

        Keys: Enter or Space activates the button; arrows, j/k, PgUp/PgDn, Home/End
        scroll the list; q quits.
        """

    /// Parses the arguments after the program name.
    public static func parse(_ arguments: [String]) throws(TodoArgumentError) -> TodoCommandLine {
        var result = TodoCommandLine()
        var json = false
        var sawList = false
        var index = 0

        func value(for flag: String, inline: String?) throws(TodoArgumentError) -> String {
            if let inline { return inline }
            index += 1
            guard index < arguments.count else { throw .missingValue(flag: flag) }
            return arguments[index]
        }

        while index < arguments.count {
            let argument = arguments[index]
            var flag = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            switch flag {
            case "--help", "-h":
                return TodoCommandLine(command: .help)
            case "--version":
                return TodoCommandLine(command: .version)
            case "--api-url":
                let text = try value(for: flag, inline: inline)
                guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                      scheme == "http" || scheme == "https", url.host != nil
                else { throw .invalidURL(text) }
                result.apiURL = url
            case "--storage":
                let path = try value(for: flag, inline: inline)
                guard !path.isEmpty else { throw .missingValue(flag: flag) }
                result.storage = path
            case "--json":
                json = true
            case "list":
                guard !sawList else { throw .unexpectedArgument(argument) }
                sawList = true
            default:
                if argument.hasPrefix("-") { throw .unknownFlag(argument) }
                throw .unexpectedArgument(argument)
            }
            index += 1
        }
        if json && !sawList { throw .unknownFlag("--json (it goes with `todo list`)") }
        if sawList { result.command = .list(json: json) }
        return result
    }

    /// The folder todos are saved in: `--storage`, else `$XDG_DATA_HOME/todo`, else `~/.local/share/todo`.
    public static func storageDirectory(storage: String?, environment: [String: String]) -> URL {
        if let storage { return URL(fileURLWithPath: storage, isDirectory: true) }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("todo", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".local/share/todo", isDirectory: true)
    }

    /// Whether the UI may use color: not when `NO_COLOR` is set (non-empty) or `TERM` is `dumb`.
    public static func usesColor(environment: [String: String]) -> Bool {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }
}

/// A command line `todo` does not understand; the app prints it with the usage and exits 64.
public enum TodoArgumentError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A flag that does not exist.
    case unknownFlag(String)
    /// A flag that needs a value was last.
    case missingValue(flag: String)
    /// `--api-url` is not an http(s) URL with a host.
    case invalidURL(String)
    /// A word that is neither a flag nor `list`.
    case unexpectedArgument(String)

    public var description: String {
        switch self {
        case .unknownFlag(let flag): "unknown option \(flag)"
        case .missingValue(let flag): "\(flag) needs a value"
        case .invalidURL(let text): "--api-url needs an http or https URL with a host, not \"\(text)\""
        case .unexpectedArgument(let argument): "unexpected argument \"\(argument)\""
        }
    }
}
