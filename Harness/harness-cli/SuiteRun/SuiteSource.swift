import Foundation
import HarnessCore
import HarnessFlows

/// A suite that the sharded-run pipeline (``SuiteRun``) takes its cases from: the flow files of
/// `harness run` (``FlowSuite``) and a package's Swift tests for `harness swift-test`
/// (``SwiftTestSuite``). The pipeline does what every suite shares (signals, Bazel's protocol,
/// the shard and its plan, the snapshot ledgers, progress, JUnit, the history, the report); a
/// source says only what its cases are and how they run.
///
/// A new source (agents' recorded sessions, say) needs two members, every other one has a
/// default:
///
/// ```swift
/// struct RecordedSessionSuite: SuiteSource {
///     var folder: String
///     /// Every case, by a name that stays the same from run to run (shards split by it).
///     mutating func list() async throws -> [String] { try sessionNames(in: folder) }
///     /// Runs `selected`, calls `progress` as cases start and finish, and returns one result
///     /// each; when the task is cancelled, the rest are marked `.interrupted` with `interruption()`.
///     func run(_ selected: [String], progress: RunProgress,
///              interruption: @escaping @Sendable () -> String) async -> [FlowResult] { ... }
/// }
/// ```
///
/// and a command of a few lines: its own options, then
/// `SuiteRun.run(parsed, command: "harness NAME") { context in RecordedSessionSuite(...) }`.
/// `list()` throws ``SuiteSourceError`` to end the run with a message and a status, or
/// ``CommandError`` for bad usage.
protocol SuiteSource: Sendable {
    /// What a case is called in the shared lines (`flow`, `test`).
    var caseNoun: String { get }
    /// The name of the suite in the JUnit file (`<testsuite name=...>`).
    var junitSuiteName: String { get }
    /// The type of a failure in the JUnit file (`<failure type=...>`).
    var junitFailureType: String { get }
    /// How many cases run at once, for the live status line under the progress lines; nil when
    /// the source prints output of its own while it runs (then no status line is drawn).
    var jobs: Int? { get }

    /// Every case of the suite, by name, after the source's own filters; found before anything
    /// runs. An empty suite is an error the source throws (a run that tests nothing must not pass).
    mutating func list() async throws -> [String]
    /// Earlier durations (seconds by case name) read from `--durations PATH`: a JUnit file or
    /// a history folder.
    func durations(from path: String, for names: [String]) throws -> [String: Double]
    /// Gets the run of `selected` ready before anything runs (flows are parsed here);
    /// throws ``SuiteSourceError``.
    mutating func prepare(_ selected: [String]) throws
    /// The artifacts folders whose snapshot ledgers the run starts afresh.
    func snapshotLedgers(for selected: [String]) -> [URL]
    /// The lines that start a run of `selected` of `listed` cases; `shard` is
    /// `, shard 2/3` and the balance note, or empty.
    func startLines(selected: Int, listed: Int, shard: String) -> [String]
    /// What is said when this shard has none of the `listed` cases.
    func emptyShardLine(_ shard: FlowShard, listed: Int) -> String
    /// Runs `selected` (see the example above).
    func run(_ selected: [String], progress: RunProgress, interruption: @escaping @Sendable () -> String) async -> [FlowResult]
    /// Writes in the snapshot ledgers which cases ran and whether they passed.
    func recordSnapshots(_ results: [FlowResult]) throws
    /// The run report for the artifacts `folder`, with what the cases left there (traces); the
    /// pipeline adds the history and the snapshot changes.
    func report(_ results: [FlowResult], folder: String, startedAt: Date, wallSeconds: Double, shard: String?) throws -> RunReport
    /// Removes what the source made for the run only (temporary folders), once the files are written.
    func cleanUp()
}

extension SuiteSource {
    var caseNoun: String { "case" }
    var junitSuiteName: String { "harness" }
    /// `FlowFailure` for flows, `TestFailure` for tests.
    var junitFailureType: String { caseNoun.prefix(1).uppercased() + caseNoun.dropFirst() + "Failure" }
    var jobs: Int? { nil }
    func durations(from path: String, for names: [String]) throws -> [String: Double] { try FlowDurations.load(path: path) }
    mutating func prepare(_ selected: [String]) throws {}
    func snapshotLedgers(for selected: [String]) -> [URL] { [] }
    func recordSnapshots(_ results: [FlowResult]) throws {}
    func cleanUp() {}

    func startLines(selected: Int, listed: Int, shard: String) -> [String] {
        ["Running \(selected) of \(listed) \(caseNoun)\(listed == 1 ? "" : "s")\(shard)"]
    }

    func emptyShardLine(_ shard: FlowShard, listed: Int) -> String {
        "Shard \(shard) is empty: the \(listed) \(caseNoun)\(listed == 1 ? "" : "s") found belong\(listed == 1 ? "s" : "") to other shards"
    }

    func report(_ results: [FlowResult], folder: String, startedAt: Date, wallSeconds: Double, shard: String?) throws -> RunReport {
        RunReport(results: results, startedAt: startedAt, wallSeconds: wallSeconds, shard: shard)
    }
}

/// Why a source cannot list or prepare its cases: the line said on standard error, and the
/// exit status (2 when nothing could be run, 1 when there is nothing to run).
struct SuiteSourceError: Error, CustomStringConvertible {
    let message: String
    let status: Int32
    var description: String { message }
}

/// What every source is told when it is made: the command's settings shared by all suites.
struct SuiteRunContext: Sendable {
    /// The command's name in messages (`harness run`).
    let command: String
    /// The folder the command runs in; relative paths of the command line are under it.
    let currentDirectory: String
    /// The command's environment.
    let environment: [String: String]
    /// The artifacts folder (`--artifacts`, else Bazel's undeclared outputs), absolute.
    let artifacts: String?
    /// How many times each case runs (`--repeat-each`, 1 without it): the source names the
    /// second and later runs ``FlowFile/caseName`` does.
    var repeatEach = 1
    /// With `harness run --watch`: what the runs know of the files each case reads.
    var watched: WatchedFlows?
}
