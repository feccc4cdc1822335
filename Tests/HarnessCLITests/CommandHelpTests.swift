import Foundation
import Testing
import TestSupport
@testable import harness

/// `harness help COMMAND`, `harness COMMAND --help` and `-h`: the command's usage and every
/// option, from the table its parser reads.
@Suite struct CommandHelpTests {
    static let names = HarnessCLI.commands.map { $0.name }

    @Test(arguments: names)
    func everyCommandPrintsItsOwnHelp(name: String) async throws {
        let command = try #require(HarnessCLI.commands.first { $0.name == name })
        let help = try await runHarness(["help", name], in: "/")
        #expect(help.status == 0, "\(help.stderr)")
        #expect(help.stdout.hasPrefix("usage: harness \(name)"))
        #expect(help.stdout == command.help + "\n")
        for spelling in [["--help"], ["-h"]] {
            let other = try await runHarness([name] + spelling, in: "/")
            #expect(other.status == 0 && other.stdout == help.stdout, "\(name) \(spelling)")
        }
        // Every option of the table is in the usage line and the options list, and the parser knows it.
        for option in command.options {
            #expect(help.stdout.contains(option.spelling), "\(name): \(option.spelling)")
            #expect(help.stdout.contains("  " + option.spelling) || help.stdout.contains(", " + option.spelling))
            #expect(help.stdout.contains(option.summary))
            if option.value == nil {
                #expect(try command.parse(["--" + option.name]).has(option.name))  // a flag
                #expect(throws: CommandError.self) { try command.parse(["--" + option.name + "=x"]) }
            } else {
                #expect(throws: CommandError.self) { try command.parse(["--" + option.name]) }  // needs a value
            }
            if let value = option.value {
                let parsed = try command.parse(["--" + option.name, value])
                #expect(parsed.value(option.name) == value)
            }
        }
        let unknown = try await runHarness([name, "--no-such-option"], in: "/")
        #expect(unknown.status == 64 && unknown.stderr.contains("unknown option --no-such-option"))
    }

    @Test func helpWithoutACommandListsThemAllAndAnUnknownOneIsAnError() async throws {
        let all = try await runHarness(["help"], in: "/")
        #expect(all.status == 0)
        for command in HarnessCLI.commands { #expect(all.stdout.contains("  harness " + command.usageLine.split(separator: "\n")[0])) }
        let unknown = try await runHarness(["help", "nope"], in: "/")
        #expect(unknown.status == 64 && unknown.stderr.hasPrefix("harness help: unknown subcommand \"nope\""))
    }

    /// After `--` a `--help` is the program's (`harness record -- vim --help`), not the tool's.
    @Test func helpAfterTheSeparatorIsNotTheTools() async throws {
        let output = try await runHarness(["record", "--", "sh", "--help"], in: "/")
        #expect(output.status == 64 && output.stderr.contains("missing --out FILE.flow"))
    }
}
