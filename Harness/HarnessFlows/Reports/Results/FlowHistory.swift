import Foundation
import HarnessCore
import HarnessSteps
import TerminalEmulator

/// `harness run --history DIR`: one small JSON file per run, so the report can show each
/// flow's recent outcomes and durations, and flag flows that flip between pass and fail from
/// run to run (flaky over time, which one run's retries cannot see).
///
/// Files are named `run-<UTC time>-<random>.json`, so runs of parallel shards or machines
/// writing to one shared folder never collide, and a listing sorts them by time.
public struct FlowHistory: Sendable {
    /// The folder of the run files.
    public let directory: String

    /// A history in `directory` (created by the first ``append(_:)``).
    public init(directory: String) {
        self.directory = directory
    }

    /// One run as the history keeps it.
    public struct Run: Sendable, Hashable, Codable {
        /// When the run started.
        public var date: Date
        /// `I/N` when the run was one shard of a suite.
        public var shard: String?
        /// Every flow the run ran.
        public var flows: [Entry]

        public init(date: Date, shard: String? = nil, flows: [Entry]) {
            self.date = date
            self.shard = shard
            self.flows = flows
        }

        /// The run of `results`.
        public init(results: [FlowResult], date: Date, shard: String? = nil) {
            self.init(date: date, shard: shard, flows: results.map { result in
                Entry(path: result.path, status: result.status, seconds: result.duration.flowSeconds,
                      attempts: result.attempts.count, message: result.failureMessage)
            })
        }
    }

    /// One flow in one run.
    public struct Entry: Sendable, Hashable, Codable {
        /// The flow's relative path.
        public var path: String
        /// Its verdict in that run.
        public var status: FlowStatus
        /// The time of all its attempts.
        public var seconds: Double
        /// How many attempts it took.
        public var attempts: Int
        /// The first line of its failure, when it failed or was flaky.
        public var message: String?

        public init(path: String, status: FlowStatus, seconds: Double, attempts: Int, message: String? = nil) {
            self.path = path
            self.status = status
            self.seconds = seconds
            self.attempts = attempts
            self.message = message.map { String($0.prefix { $0 != "\n" }.prefix(300)) }
        }
    }

    /// Writes `run` as a new file; returns its path.
    @discardableResult
    public func append(_ run: Run) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let formatter = DateFormatter.utc("yyyyMMdd'T'HHmmss.SSS'Z'")
        let suffix = UUID().uuidString.prefix(8).lowercased()
        let path = FlowPaths.join(directory, "run-\(formatter.string(from: run.date))-\(suffix).json")
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(run).write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
        return path
    }

    /// Every run of the folder, oldest first (none when the folder does not exist). A file
    /// that is not a run (another tool's, or cut short by a full disk) is an error naming it.
    public func runs() throws -> [Run] {
        guard FileManager.default.fileExists(atPath: directory) else { return [] }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasPrefix("run-") && $0.hasSuffix(".json") }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        var runs: [Run] = []
        for name in names {
            let path = FlowPaths.join(directory, name)
            do {
                runs.append(try decoder.decode(Run.self, from: Data(contentsOf: URL(fileURLWithPath: path))))
            } catch {
                throw FlowDurationsError(path: path, reason: "not a history run file (\(error))")
            }
        }
        return runs.sorted { $0.date < $1.date }
    }

    /// The latest duration of each flow (for `--durations DIR`).
    public func latestDurations() throws -> [String: Double] {
        var durations: [String: Double] = [:]
        for run in try runs() {
            for entry in run.flows where entry.status != .skipped && entry.status != .interrupted { durations[entry.path] = entry.seconds }
        }
        return durations
    }

    /// Each flow's entries in the last `limit` runs that ran it, oldest first.
    public func recentEntries(limit: Int) throws -> [String: [Entry]] {
        var byPath: [String: [Entry]] = [:]
        for run in try runs() {
            for entry in run.flows { byPath[entry.path, default: []].append(entry) }
        }
        return byPath.mapValues { Array($0.suffix(limit)) }
    }

    /// Whether a flow's outcomes flip between passing and failing across runs: its verdict
    /// changed at least twice (pass, fail, pass or fail, pass, fail), or it was flaky within a
    /// run. A flow that broke once and stayed broken, or was fixed once, is not flaky.
    public static func flipsBetweenPassAndFail(_ entries: [Entry]) -> Bool {
        if entries.contains(where: { $0.status == .flaky }) { return true }
        let verdicts = entries.compactMap { entry -> Bool? in
            switch entry.status {
            case .passed: true
            case .failed: false
            case .flaky, .skipped, .interrupted: nil
            }
        }
        let changes = zip(verdicts, verdicts.dropFirst()).filter { $0 != $1 }.count
        return changes >= 2
    }
}
