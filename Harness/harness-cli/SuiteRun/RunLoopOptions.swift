import Foundation
import HarnessFlows

/// The test loop's options that `harness run` and `harness swift-test` share: `--last-failed`
/// runs only the cases whose latest run failed (read from `--history DIR` when given, else from
/// the `--artifacts` folder's `results.json`), `--repeat-each N` runs each case N times (the
/// second and later named `NAME (repeat 2)`...), and `--fail-on-flaky` makes a flaky case fail
/// the run.
struct RunLoopOptions: Sendable {
    /// The options read here.
    static func options(cases: String) -> [CommandOption] {
        [
            CommandOption(name: "last-failed", value: nil,
                          summary: "runs only the \(cases) whose latest run failed (from --history, else the --artifacts folder)"),
            CommandOption(name: "repeat-each", value: "N", summary: "runs each of the \(cases) N times (finds flaky ones)"),
            CommandOption(name: "fail-on-flaky", value: nil, summary: "a flaky case (failed, then passed) fails the run"),
        ]
    }

    let lastFailed: Bool
    let repeatEach: Int
    let failOnFlaky: Bool

    init(_ parsed: CommandArguments) throws {
        lastFailed = parsed.has("last-failed")
        repeatEach = try parsed.integer("repeat-each", in: 1...1000) ?? 1
        failOnFlaky = parsed.has("fail-on-flaky")
    }

    /// `listed` narrowed by `--last-failed` to the cases whose latest run failed (any of their
    /// repetitions); all of them when there is no earlier run to read.
    /// - Throws: ``CommandError`` when neither a history nor an artifacts folder is given, and
    ///   ``SuiteSourceError`` when the earlier run cannot be read.
    func selecting(_ listed: [String], history: FlowHistory?, artifacts: String?, command: String) throws -> [String] {
        guard lastFailed else { return listed }
        let statuses: [String: FlowStatus]
        if let history {
            do {
                statuses = try history.recentEntries(limit: 1).compactMapValues { $0.last?.status }
            } catch {
                throw SuiteSourceError(message: "\(command): --last-failed cannot read the history in \(history.directory): \(error)", status: 2)
            }
        } else if let artifacts {
            let results = FlowPaths.join(artifacts, RunReportWriter.resultsName)
            guard FileManager.default.fileExists(atPath: results) else {
                HarnessCLI.printLine("No earlier run in \(artifacts) (no \(RunReportWriter.resultsName)): running every case")
                return listed
            }
            do {
                let report = try RunReportWriter.read(folder: artifacts)
                statuses = Dictionary(report.flows.map { ($0.path, $0.status) }, uniquingKeysWith: { _, last in last })
            } catch {
                throw SuiteSourceError(message: "\(command): --last-failed cannot read \(results): \(error)", status: 2)
            }
        } else {
            throw CommandError.usage("--last-failed reads the last run: it needs --history DIR or --artifacts DIR")
        }
        let failed = Set(statuses.filter { $0.value == .failed }.keys.map(Self.withoutRepetition))
        return listed.filter { failed.contains(Self.withoutRepetition($0)) }
    }

    /// `NAME` of `NAME (repeat 2)`.
    static func withoutRepetition(_ name: String) -> String {
        guard name.hasSuffix(")"), let range = name.range(of: " (repeat ", options: .backwards) else { return name }
        return String(name[..<range.lowerBound])
    }
}
