import Foundation
import TerminalEmulator

// The `harness` command-line tool. Each subcommand is a `Command`; add one by appending
// it to `HarnessCLI.commands`.

// A closed standard output (`| head -1`, a pager) must not end a run before its reports.
StandardStreams.ignoreBrokenPipes()
let status = await HarnessCLI.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
