import Foundation
import HarnessCore

/// Dispatches `harness <subcommand> ...` to a `Command`, printing usage on errors.
enum HarnessCLI {
    /// Every subcommand, in the order usage lists them.
    static var commands: [any Command.Type] {
        [RunCommand.self, SwiftTestCommand.self, MergeReportsCommand.self, MergeJUnitCommand.self, ReplayCommand.self, RenderCommand.self, RecordCommand.self, ScreenCommand.self, MCPCommand.self,
         SnapshotsCommand.self]
    }

    static var usage: String {
        "usage:\n" + commands.map { "  harness \($0.synopsis)" }.joined(separator: "\n")
    }

    /// Runs the tool with the arguments after the program name; returns the exit status.
    static func run(_ arguments: [String]) async -> Int32 {
        guard let name = arguments.first else {
            printError("missing subcommand\n\(usage)")
            return 64
        }
        if name == "--help" || name == "-h" || name == "help" {
            // `harness help COMMAND`: that command's help; `harness help`: every command.
            guard arguments.count > 1 else {
                printLine(usage)
                return 0
            }
            guard arguments.count == 2, let command = commands.first(where: { $0.name == arguments[1] }) else {
                printError("harness help: unknown subcommand \(arguments.dropFirst().joined(separator: " ").debugDescription)\n\(usage)")
                return 64
            }
            printLine(command.help)
            return 0
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            printError("unknown subcommand \(name.debugDescription)\n\(usage)")
            return 64
        }
        // The sessions' output limit comes from the environment (``OutputLimit``): a value
        // that is not a size is an error before anything runs, never a silent default.
        if let limit = ProcessInfo.processInfo.environment[OutputLimit.environmentVariable] {
            do { _ = try OutputLimit.parse(limit) } catch {
                printError("harness \(name): \(OutputLimit.environmentVariable): \(error)")
                return 64
            }
        }
        // `harness COMMAND --help` (or -h) before any `--`: the command's help, nothing run.
        let beforeSeparator = arguments.dropFirst().prefix { $0 != "--" }
        if beforeSeparator.contains("--help") || beforeSeparator.contains("-h") {
            printLine(command.help)
            return 0
        }
        do {
            return try await command.run(Array(arguments.dropFirst()))
        } catch let error as CommandError {
            switch error {
            case .usage: printError("harness \(name): \(error)\n\(usage)")
            case .failure: printError("harness \(name): \(error)")
            }
            return error.exitStatus
        } catch {
            printError("harness \(name): \(error)")
            return 1
        }
    }

    /// Writes a line to standard output at once (unbuffered, so lines keep their order with
    /// standard error and reach a pipe as they happen); nothing once standard output is closed.
    /// Control characters in it (a flow's name, a program's words in a failure) are shown
    /// escaped (``TextEscaping/console(_:)``), never sent to the user's terminal.
    static func printLine(_ line: String) {
        StandardStreams.writeOutput(TextEscaping.console(line) + "\n")
    }

    /// Writes a message and a line feed to standard error, control characters escaped as
    /// ``printLine(_:)`` does.
    static func printError(_ message: String) {
        StandardStreams.writeError(TextEscaping.console(message) + "\n")
    }
}
