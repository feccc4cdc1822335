/// `harness swift-test [options] [-- SWIFT-TEST-ARGUMENTS...]`: one shard of a Swift package's
/// tests (``SwiftTestSuite``) in the sharded-run pipeline of `harness run` (``SuiteRun``): the
/// same shards, JUnit, history and report folder, so that `harness merge-reports` merges Swift
/// shards and flow shards into one report. It lists the tests (`swift test list`), narrows them
/// by the `--filter` and `--skip` given after `--`, runs exactly this shard's part and reads
/// what `swift test` reported (``SwiftTestShardRun``); each test is named `Module.Suite/test()`.
///
/// Exit 0 when nothing failed (also when this shard's part is empty), 1 when a test failed or
/// when the package has no tests or the filters leave none, 2 when the tests could not be
/// listed or `--durations` read, 64 for bad usage, 130 or 143 when SIGINT or SIGTERM
/// interrupted it (after writing the files of the tests that finished: ``RunInterruption``).
enum SwiftTestCommand: Command {
    static let name = "swift-test"
    static let operands = ""
    static let trailingOperands = "[-- SWIFT-TEST-ARGUMENTS...]"
    static let summary = """
        run one shard of a Swift package's tests (swift test);
        `swift` is --swift, else $HARNESS_SWIFT, else swift in PATH
        """
    static let options: [CommandOption] = [
        CommandOption(name: "package-path", value: "DIR", summary: "the package (default: the current folder)"),
        CommandOption(name: "swift", value: "PATH", summary: "the swift executable (default: $HARNESS_SWIFT, else swift in PATH)"),
        CommandOption(name: "tag", value: "NAME", summary: "keeps the Swift Testing tests with this tag (.tags(.NAME)); repeatable: any of them"),
        CommandOption(name: "skip-tag", value: "NAME", summary: "leaves out the tests with this tag; repeatable"),
    ] + SuiteRun.options(cases: "tests") + [
        CommandOption(name: "timeout", value: "DURATION", summary: "ends swift test after this long (default: no limit)"),
    ]

    /// The variable naming the `swift` executable when `--swift` is not given.
    static let swiftVariable = "HARNESS_SWIFT"

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try parse(arguments)
        return try await SuiteRun.run(parsed, command: "harness swift-test") { context in
            try SwiftTestSuite(parsed, context: context)
        }
    }
}
