/// A subcommand of the `harness` tool.
protocol Command {
    /// The word that selects it (`harness NAME ...`).
    static var name: String { get }
    /// The operands written before the options in the usage line (`PATHS...`, `OUT IN...`).
    static var operands: String { get }
    /// What comes after the options in the usage line (`-- PROGRAM [ARGS...]`); default none.
    static var trailingOperands: String { get }
    /// What it does, in a line or two, for the usage text and the help.
    static var summary: String { get }
    /// Every option its parser accepts, in the order the help lists them.
    static var options: [CommandOption] { get }
    /// More help after the options (`harness run` lists the commands of a flow file); default none.
    static var helpDetails: String { get }
    /// Runs with the arguments after the name; returns the exit status.
    /// - Throws: `CommandError` for bad usage or input.
    static func run(_ arguments: [String]) async throws -> Int32
}

extension Command {
    static var trailingOperands: String { "" }
    static var helpDetails: String { "" }

    /// `arguments` split by this command's option table.
    static func parse(_ arguments: [String]) throws(CommandError) -> CommandArguments {
        try CommandArguments(arguments, options: options)
    }

    /// The usage line: `run PATHS... [--jobs N] [--retries N] ...`, wrapped at 100 columns.
    static var usageLine: String {
        var words = [name]
        if !operands.isEmpty { words.append(operands) }
        words += options.map { $0.required ? $0.spelling : "[\($0.spelling)]" }
        if !trailingOperands.isEmpty { words.append(trailingOperands) }
        let indent = String(repeating: " ", count: name.count + 1)
        var lines: [String] = []
        var line = ""
        for word in words {
            if line.isEmpty {
                line = lines.isEmpty ? word : indent + word
            } else if line.count + 1 + word.count > 92 {
                lines.append(line)
                line = indent + word
            } else {
                line += " " + word
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// The entry of `harness --help` (printed after `  harness `): the usage line, then the
    /// summary indented below it.
    static var synopsis: String {
        usageLine.replacingOccurrences(of: "\n", with: "\n          ") + "\n"
            + summary.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n")
    }

    /// `harness help NAME`: the usage, the summary, every option with what it does, and
    /// ``helpDetails``.
    static var help: String {
        var text = "usage: harness " + usageLine.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: 15)) + "\n\n" + summary
        if !options.isEmpty {
            let width = options.map { optionLabel($0).count }.max() ?? 0
            text += "\n\nOptions:"
            for option in options {
                let label = optionLabel(option)
                text += "\n  " + label + String(repeating: " ", count: width - label.count + 2) + option.summary
            }
        }
        if !helpDetails.isEmpty { text += "\n\n" + helpDetails }
        return text
    }

    /// `--size COLSxROWS` or `-s, --size COLSxROWS`.
    private static func optionLabel(_ option: CommandOption) -> String {
        (option.short.map { "-\($0), " } ?? "") + option.spelling
    }
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
