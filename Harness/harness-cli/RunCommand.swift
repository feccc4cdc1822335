import HarnessFlows

/// `harness run PATHS... [options]`: discovers, parses and runs flows (``FlowSuite``) in the
/// sharded-run pipeline (``SuiteRun``); prints a line per flow and a summary; writes JUnit and
/// artifacts. Exit 0 when nothing failed, 1 when a flow failed or no flow was found, 2 when a
/// path does not exist or flows could not be parsed (nothing ran), 64 for bad usage, 130 or 143
/// when SIGINT or SIGTERM interrupted it (after writing the files of what finished:
/// ``RunInterruption``). Under Bazel it follows the test protocol (``BazelTestEnvironment``);
/// `--list` prints the flows instead of running them; `--watch` runs them again as their files
/// change (``FlowWatch``).
enum RunCommand: Command {
    static let name = "run"
    static let operands = "PATHS..."
    static let summary = "run the .flow files under PATHS (folders or files)"
    static let options: [CommandOption] = FlowSuite.options + SuiteRun.options(cases: "flows") + [
        CommandOption(name: "trace", value: "on|off|retain-on-failure",
                      summary: "on: every flow's timeline and recording in --artifacts; off (default): failed and flaky ones"),
        CommandOption(name: "gif", value: nil,
                      summary: "writes each flow's recording as an animated GIF, <flow>.gif in --artifacts (needs GNU Unifont)"),
        CommandOption(name: "list", value: nil,
                      summary: "prints the flows the run would run (after --filter, --shard, --durations), one path a line; runs nothing"),
    ]

    /// After the options, `harness run --help` lists every command of a flow file (the keyword table).
    static var helpDetails: String { "Commands of a .flow file (docs/FLOWS.md):\n\(FlowKeyword.commandList)" }

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try parse(arguments)
        let source = { (context: SuiteRunContext) in try FlowSuite(parsed, context: context) }
        if parsed.has("watch") { return try await FlowWatch.run(parsed, command: "harness run", source: source) }
        return try await SuiteRun.run(parsed, command: "harness run", listOnly: parsed.has("list"), source: source)
    }
}
