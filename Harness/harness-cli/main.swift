import Foundation
import TerminalEmulator

// The `harness` command-line tool. Each subcommand is a `Command`; add one by appending
// it to `HarnessCLI.commands`.

let status = await HarnessCLI.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
