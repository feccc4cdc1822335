import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

/// Balanced shards (`--durations`), `--shard auto`, and the run history.
@Suite struct FlowShardPlanTests {
    /// 240 flows with skewed durations: most take 1-3 s, one in ten 20-60 s, a few minutes.
    /// Drawn from a fixed linear congruential generator, so every run sees the same suite.
    static func skewedSuite(count: Int = 240) -> [String: Double] {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var durations: [String: Double] = [:]
        for flow in 0..<count {
            let roll = next()
            let seconds = roll < 0.02 ? 120 + 180 * next() : roll < 0.12 ? 20 + 40 * next() : 1 + 2 * next()
            durations["suite/area-\(flow % 7)/flow-\(flow).flow"] = seconds
        }
        return durations
    }

    /// Max over mean of the shards' total durations when flows go to `shard(path)`.
    static func imbalance(_ durations: [String: Double], count: Int, shard: (String) -> Int) -> Double {
        var loads = [Double](repeating: 0, count: count)
        for (path, seconds) in durations { loads[shard(path) - 1] += seconds }
        return loads.max()! / (loads.reduce(0, +) / Double(count))
    }

    @Test(arguments: [2, 4, 8])
    func earlierDurationsBalanceSkewedSuitesFarBetterThanTheHash(shards: Int) {
        let durations = Self.skewedSuite()
        let plan = FlowShardPlan(flows: Array(durations.keys), count: shards, durations: durations)
        let balanced = Self.imbalance(durations, count: shards) { plan.shard(of: $0) }
        let hashed = Self.imbalance(durations, count: shards) { FlowShard.shardIndex(of: $0, count: shards) }
        #expect(balanced < 1.1, "balanced \(balanced), hash \(hashed)")
        #expect(balanced < hashed)
        #expect(abs(plan.imbalance - balanced) < 1e-9)
    }

    @Test func everyFlowGetsExactlyOneShardWhateverTheOrderOfDiscovery() {
        let durations = Self.skewedSuite(count: 50)
        let flows = Array(durations.keys) + ["new/one.flow", "new/two.flow"]
        let plan = FlowShardPlan(flows: flows, count: 3, durations: durations)
        let again = FlowShardPlan(flows: flows.reversed(), count: 3, durations: durations)
        #expect(plan == again)
        #expect(Set(plan.assignment.keys) == Set(flows))
        #expect(plan.assignment.values.allSatisfy { (1...3).contains($0) })
        // A flow without a duration keeps its hash shard.
        #expect(plan.shard(of: "new/one.flow") == FlowShard.shardIndex(of: "new/one.flow", count: 3))
    }

    @Test func longestFirstIntoTheLightestShard() {
        let durations = ["a.flow": 10.0, "b.flow": 7, "c.flow": 5, "d.flow": 4, "e.flow": 3]
        let plan = FlowShardPlan(flows: Array(durations.keys), count: 2, durations: durations)
        // 10 -> 1; 7 -> 2; 5 -> 2 (12); 4 -> 1 (14); 3 -> 2 (15).
        #expect(plan.assignment == ["a.flow": 1, "b.flow": 2, "c.flow": 2, "d.flow": 1, "e.flow": 2])
        #expect(plan.expectedLoads == [14, 15])
    }

    // MARK: - --shard auto

    static let autoCases: [([String: String], String, String)] = [
        (["HARNESS_SHARD_INDEX": "2", "HARNESS_SHARD_TOTAL": "4"], "auto", "2/4"),
        (["CI_NODE_INDEX": "3", "CI_NODE_TOTAL": "3"], "auto", "3/3"),
        (["BUILDKITE_PARALLEL_JOB": "0", "BUILDKITE_PARALLEL_JOB_COUNT": "5"], "auto", "1/5"),
        (["JOB_COMPLETION_INDEX": "4"], "auto/5", "5/5"),
        (["JOB_COMPLETION_INDEX": "0", "HARNESS_SHARD_TOTAL": "2"], "auto", "1/2"),
        (["TEST_SHARD_INDEX": "0", "TEST_TOTAL_SHARDS": "3"], "auto", "1/3"),
        (["CIRCLE_NODE_INDEX": "1", "CIRCLE_NODE_TOTAL": "2"], "auto", "2/2"),
        ([:], "2/3", "2/3"),
    ]

    @Test(arguments: autoCases)
    func autoReadsTheCIsOwnVariables(environment: [String: String], argument: String, expected: String) throws {
        #expect(try FlowShard(argument: argument, environment: environment).description == expected)
    }

    static let autoErrors: [([String: String], String, String)] = [
        ([:], "auto", "--shard auto: none of HARNESS_SHARD_INDEX, TEST_SHARD_INDEX, CI_NODE_INDEX"),
        (["JOB_COMPLETION_INDEX": "1"], "auto", "JOB_COMPLETION_INDEX is set but not the number of shards; pass --shard auto/N"),
        (["CI_NODE_INDEX": "x", "CI_NODE_TOTAL": "2"], "auto", #"CI_NODE_INDEX="x" is not a number"#),
        (["TEST_SHARD_INDEX": "3", "TEST_TOTAL_SHARDS": "3"], "auto", "--shard 4/3: I must be between 1 and N"),
        (["CIRCLE_NODE_INDEX": "0"], "auto", "CIRCLE_NODE_INDEX is set but not the number of shards"),
        (["BUILDKITE_PARALLEL_JOB": "5", "BUILDKITE_PARALLEL_JOB_COUNT": "5"], "auto", "--shard 6/5: I must be between 1 and N"),
        ([:], "auto/", #"--shard "auto/": expected I/N"#),
    ]

    @Test(arguments: autoErrors)
    func autoExplainsWhatIsMissing(environment: [String: String], argument: String, message: String) {
        #expect {
            try FlowShard(argument: argument, environment: environment)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    // MARK: - Durations and history

    static func result(_ path: String, seconds: Int, _ outcomes: [AttemptOutcome]) -> FlowResult {
        FlowResult(flow: FlowFile(path: "/r/" + path, relativePath: path), attempts: outcomes.enumerated().map {
            FlowAttempt(number: $0.offset + 1, duration: .seconds(seconds), outcome: $0.element)
        })
    }

    @Test func durationsComeFromAJUnitReportOfAnEarlierRun() throws {
        let report = JUnitReport(results: [
            Self.result("top.flow", seconds: 3, [.passed]),
            Self.result("sub/dir/deep.flow", seconds: 5, [.failed(FlowFailure(message: "x")), .passed]),
        ])
        let durations = FlowDurations.durations(in: report)
        #expect(durations == ["top.flow": 3, "sub/dir/deep.flow": 10])
        // Reports of other tools have no file attribute: the path is rebuilt from the class name.
        var foreign = report
        for index in foreign.suites[0].cases.indices { foreign.suites[0].cases[index].file = nil }
        #expect(FlowDurations.durations(in: foreign) == durations)
    }

    @Test func theHistoryKeepsEachRunAndFlagsFlowsThatFlip() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let folder = temporary.path
        let history = FlowHistory(directory: folder + "/history")
        #expect(try history.runs().isEmpty)
        let failure = AttemptOutcome.failed(FlowFailure(message: "expect \"x\": timed out\nscreen..."))
        let runs: [[FlowResult]] = [
            [Self.result("steady.flow", seconds: 1, [.passed]), Self.result("flips.flow", seconds: 2, [.passed])],
            [Self.result("steady.flow", seconds: 1, [.passed]), Self.result("flips.flow", seconds: 2, [failure])],
            [Self.result("steady.flow", seconds: 4, [.passed]), Self.result("flips.flow", seconds: 3, [.passed])],
        ]
        for (offset, results) in runs.enumerated() {
            try history.append(FlowHistory.Run(results: results, date: Date(timeIntervalSince1970: Double(offset) * 60)))
        }
        let stored = try history.runs()
        #expect(stored.count == 3)
        #expect(stored[1].flows.first { $0.path == "flips.flow" }?.message == "expect \"x\": timed out")
        #expect(try history.latestDurations() == ["steady.flow": 4, "flips.flow": 3])
        let recent = try history.recentEntries(limit: 2)
        #expect(recent["flips.flow"]?.map(\.status) == [.failed, .passed])
        let all = try history.recentEntries(limit: 10)
        #expect(FlowHistory.flipsBetweenPassAndFail(all["flips.flow"]!))
        #expect(!FlowHistory.flipsBetweenPassAndFail(all["steady.flow"]!))
        // Broken once and still broken, or fixed once: not flaky.
        let entry = { (status: FlowStatus) in FlowHistory.Entry(path: "p", status: status, seconds: 1, attempts: 1) }
        #expect(!FlowHistory.flipsBetweenPassAndFail([entry(.passed), entry(.failed), entry(.failed)]))
        #expect(!FlowHistory.flipsBetweenPassAndFail([entry(.failed), entry(.passed)]))
        #expect(FlowHistory.flipsBetweenPassAndFail([entry(.passed), entry(.flaky)]))
        // A stray file in the folder is an error that names it, not a silently shorter history.
        try Data("{".utf8).write(to: URL(fileURLWithPath: folder + "/history/run-broken.json"))
        #expect { try history.runs() } throws: { "\($0)".contains("run-broken.json") }
    }
}
