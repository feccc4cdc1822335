import Foundation
import HarnessCore
import HarnessSteps
import TerminalEmulator

/// `--shard I/N --durations FILE`: shards balanced by how long each flow took before.
///
/// It plans names, whatever they name: flows by relative path (`harness run`), or Swift tests
/// as `swift test list` names them (`harness swift-test`).
///
/// The hash split of ``FlowShard`` ignores durations, so one shard can draw several of the
/// slowest flows and finish long after the others. With earlier durations the plan packs the
/// flows longest first, each into the shard with the least work so far (the greedy LPT rule,
/// within 4/3 of the best split). Flows without a known duration (new ones) keep their hash
/// shard and count as the average known flow, so the known ones are packed around them.
///
/// Every machine computes the same plan from the same flows and durations: the order is fixed
/// (duration, then path) and ties go to the lowest shard.
///
/// ```swift
/// let durations = try FlowDurations.load(path: "previous/junit.xml")
/// let plan = FlowShardPlan(flows: flows.map(\.relativePath), count: 4, durations: durations)
/// let mine = flows.filter { plan.shard(of: $0.relativePath) == 2 }
/// ```
public struct FlowShardPlan: Sendable, Hashable {
    /// The number of shards.
    public let count: Int
    /// Each flow's shard (1...count), by relative path.
    public let assignment: [String: Int]
    /// The expected work of each shard in seconds (index 0 is shard 1): known durations plus
    /// the average known duration for each flow without one.
    public let expectedLoads: [Double]

    /// Plans `flows` (relative paths) into `count` shards using `durations` (seconds by path).
    public init(flows: [String], count: Int, durations: [String: Double]) {
        let count = max(count, 1)
        let unique = Array(Set(flows))
        let known = unique.compactMap { path in durations[path].map { (path, max($0, 0)) } }
            .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        let average = known.isEmpty ? 1 : known.reduce(0) { $0 + $1.1 } / Double(known.count)
        var loads = [Double](repeating: 0, count: count)
        var assignment: [String: Int] = [:]
        for path in unique.sorted() where durations[path] == nil {
            let shard = FlowShard.shardIndex(of: path, count: count)
            assignment[path] = shard
            loads[shard - 1] += average
        }
        for (path, duration) in known {
            var lightest = 0
            for shard in 1..<count where loads[shard] < loads[lightest] { lightest = shard }
            assignment[path] = lightest + 1
            loads[lightest] += duration
        }
        self.count = count
        self.assignment = assignment
        self.expectedLoads = loads
    }

    /// The shard of a flow: planned, or by hash for a path the plan did not see.
    public func shard(of relativePath: String) -> Int {
        assignment[relativePath] ?? FlowShard.shardIndex(of: relativePath, count: count)
    }

    /// The longest shard's expected work over the average shard's: 1 is a perfect split.
    public var imbalance: Double {
        let mean = expectedLoads.reduce(0, +) / Double(count)
        return mean > 0 ? (expectedLoads.max() ?? 0) / mean : 1
    }
}

/// Earlier durations of flows, in seconds by relative path, read from a JUnit report written
/// by `harness run --junit` (or merged from shards) or from a `--history` folder.
public enum FlowDurations {
    /// Reads `path`: a JUnit XML file, or a history folder (the latest duration of each flow).
    /// `naming` gives a JUnit case's name in the result (by default its flow's path); a history
    /// keeps names as they were run.
    public static func load(path: String, naming: (JUnitTestCase) -> String = flowPath(of:)) throws -> [String: Double] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FlowDurationsError(path: path, reason: "no such file or folder")
        }
        if isDirectory.boolValue {
            return try FlowHistory(directory: path).latestDurations()
        }
        do {
            return durations(in: try JUnitReader.read(path: path), naming: naming)
        } catch {
            throw FlowDurationsError(path: path, reason: "\(error)")
        }
    }

    /// The time of every test case, by `naming` (by default its flow's relative path).
    public static func durations(in report: JUnitReport, naming: (JUnitTestCase) -> String = flowPath(of:)) -> [String: Double] {
        var result: [String: Double] = [:]
        for suite in report.suites {
            for testCase in suite.cases {
                result[naming(testCase)] = testCase.time
            }
        }
        return result
    }

    /// The relative path of a case's flow: the `file` attribute when present, else the class
    /// name's folders (dots) and the case name (`a.b` + `c` = `a/b/c.flow`).
    public static func flowPath(of testCase: JUnitTestCase) -> String {
        if let file = testCase.file, !file.isEmpty { return file }
        let folder = testCase.classname == "flows" ? "" : testCase.classname.replacingOccurrences(of: ".", with: "/") + "/"
        return folder + testCase.name + (testCase.name.hasSuffix(".flow") ? "" : ".flow")
    }
}

/// A `--durations` source that cannot be read.
public struct FlowDurationsError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String { "--durations \(path): \(reason)" }
}
