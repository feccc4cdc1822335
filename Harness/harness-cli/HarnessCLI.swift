import Foundation

/// Dispatches `harness <subcommand> ...` to a `Command`, printing usage on errors.
enum HarnessCLI {
    /// Every subcommand, in the order usage lists them.
    static var commands: [any Command.Type] {
        [RunCommand.self, SwiftTestCommand.self, MergeReportsCommand.self, MergeJUnitCommand.self, ReplayCommand.self, RecordCommand.self, ScreenCommand.self]
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
            print(usage)
            return 0
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            printError("unknown subcommand \(name.debugDescription)\n\(usage)")
            return 64
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
    /// standard error and reach a pipe as they happen).
    static func printLine(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
