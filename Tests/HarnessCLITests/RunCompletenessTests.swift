import Foundation
import Testing
@testable import HarnessFlows
@testable import HarnessSteps

/// ``RunCompleteness`` and ``FlowRunPlan`` without running anything: the shards' plans and the
/// names their reports hold, and the problems the merge names.
@Suite struct RunCompletenessTests {
    static let names = ["a.flow", "b.flow", "c.flow", "d.flow", "e.flow", "f.flow"]

    /// The plans of a 3-shard split of ``names`` (by hash), one per shard.
    static func plans(count: Int = 3, durations: [String: Double] = [:]) throws -> [FlowRunPlan] {
        try (1...count).map { FlowRunPlan(command: "harness run", names: names, shard: try FlowShard(index: $0, count: count), durations: durations) }
    }

    /// Each shard's folder with its plan, having run exactly its part.
    static func whole(_ plans: [FlowRunPlan]) -> [RunCompleteness.Part] {
        plans.map { .init(folder: "shard-\($0.shard)", plan: $0, ran: $0.mine) }
    }

    @Test func everyShardOnceWithItsFlowsIsComplete() throws {
        let plans = try Self.plans()
        #expect(plans.map(\.suite).allSatisfy { $0 == plans[0].suite })
        #expect(plans.map(\.identity).allSatisfy { $0 == plans[0].identity })
        #expect(plans.flatMap(\.mine).sorted() == Self.names, "the shards' parts cover the suite once")
        let check = RunCompleteness(Self.whole(plans))
        #expect(check.isComplete, "\(check.problems)")
        #expect(check.unchecked.isEmpty)
    }

    /// Each broken merge and the words its problem must hold.
    enum Broken: String, CaseIterable {
        case shardMissing, shardWithoutReport, shardTwice, flowLost, flowTwice, flowUnplanned, otherSplit
    }

    @Test(arguments: Broken.allCases)
    func aBrokenMergeIsNamed(_ broken: Broken) throws {
        let plans = try Self.plans()
        var parts = Self.whole(plans)
        let third = plans[2].mine, first = plans[0].mine
        try #require(!third.isEmpty && !first.isEmpty, "the hash split leaves shard 1 and 3 flows")
        let expected: [String]
        switch broken {
        case .shardMissing:
            parts.remove(at: 2)
            expected = ["shard 3/3 is missing", "ran nowhere: " + third.joined(separator: ", ")]
        case .shardWithoutReport:
            parts[2].ran = nil
            expected = ["shard 3/3 has no report (shard-3 holds its plan", "ran nowhere: " + third.joined(separator: ", ")]
        case .shardTwice:
            parts.append(.init(folder: "shard-1-again", plan: plans[0], ran: first))
            expected = ["shard 1/3 was given 2 times: shard-1, shard-1-again", "\(first[0]) ran in 2 shards: 1/3 (shard-1), 1/3 (shard-1-again)"]
        case .flowLost:
            parts[0].ran = Array(first.dropFirst())
            expected = ["1 flow planned ran nowhere: \(first[0]) (shard 1/3)"]
        case .flowTwice:
            parts[2].ran = third + [first[0]]
            expected = ["\(first[0]) ran in 2 shards: 1/3 (shard-1), 3/3 (shard-3)"]
        case .flowUnplanned:
            parts[1].ran = (parts[1].ran ?? []) + ["new.flow"]
            expected = ["shard 2/3 (shard-2) ran 1 flow not in its plan: new.flow"]
        case .otherSplit:
            // Shard 3 planned from other durations: another identity, the same suite.
            let other = try FlowRunPlan(command: "harness run", names: Self.names, shard: FlowShard(index: 3, count: 3),
                                        durations: Dictionary(uniqueKeysWithValues: Self.names.enumerated().map { ($1, Double($0 + 1)) }))
            try #require(other.identity != plans[2].identity && other.suite == plans[2].suite)
            parts[2] = .init(folder: "shard-3", plan: other, ran: other.mine)
            expected = ["the shards split the suite differently", "--plan FILE"]
        }
        let check = RunCompleteness(parts)
        #expect(!check.isComplete)
        let text = check.problems.joined(separator: "\n")
        for words in expected {
            #expect(text.contains(words), "\(broken): \(words.debugDescription) not in:\n\(text)")
        }
    }

    @Test func shardsOfTwoSuitesAreCheckedApartAndAFolderWithoutAPlanIsUnchecked() throws {
        let flows = try Self.plans()
        let tests = try (1...2).map {
            FlowRunPlan(command: "harness swift-test", names: ["M.S/a()", "M.S/b()", "M.S/c()"], shard: try FlowShard(index: $0, count: 2), durations: [:])
        }
        var parts = Self.whole(flows) + tests.map { .init(folder: "swift-\($0.shard)", plan: $0, ran: $0.mine) }
        parts.append(.init(folder: "traces", plan: nil, ran: ["Other/test()"]))
        let whole = RunCompleteness(parts)
        #expect(whole.isComplete, "\(whole.problems)")
        #expect(whole.unchecked == ["traces"])
        parts.removeAll { $0.folder == "swift-2" }
        let lost = RunCompleteness(parts).problems
        #expect(lost.count == 1)
        #expect(lost.first?.hasPrefix("harness swift-test suite \(tests[0].shortSuite) (3 tests planned, 2 shards): shard 2/2 is missing") == true, "\(lost)")
    }

    @Test func aReusedPlanKeepsTheSplitAndRefusesAnotherSuiteOrCount() throws {
        let first = try FlowRunPlan(command: "harness run", names: Self.names, shard: FlowShard(index: 1, count: 3),
                                    durations: ["a.flow": 9, "b.flow": 1])
        let again = try first.reused(for: FlowShard(index: 2, count: 3), names: Self.names.reversed(), file: "p.json")
        #expect(again.identity == first.identity && again.shard == 2 && again.split == "reused")
        #expect(throws: FlowRunPlanError.otherCount(file: "p.json", planned: 3, given: 4)) {
            try first.reused(for: FlowShard(index: 2, count: 4), names: Self.names, file: "p.json")
        }
        #expect(throws: FlowRunPlanError.otherSuite(file: "p.json", added: ["g.flow"], removed: ["a.flow"])) {
            try first.reused(for: FlowShard(index: 2, count: 3), names: Array(Self.names.dropFirst()) + ["g.flow"], file: "p.json")
        }
    }

    @Test func aPlanFileIsReadBackAndAnEditedOneRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plan-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plan = try FlowRunPlan(command: "harness run", names: Self.names, shard: FlowShard(index: 2, count: 3), durations: [:])
        let path = try plan.write(toFolder: folder)
        #expect(try FlowRunPlan.read(folder: folder) == plan)
        #expect(try FlowRunPlan.read(path: folder) == plan, "a shard's folder names its plan")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let moved = text.replacingOccurrences(of: "\"a.flow\" : \(plan.assignment["a.flow"]!)",
                                              with: "\"a.flow\" : \(plan.assignment["a.flow"]! % 3 + 1)")
        try #require(moved != text)
        try moved.write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            try FlowRunPlan.read(path: path)
        } throws: { error in
            "\(error)".contains("the plan does not add up")
        }
        #expect(try FlowRunPlan.read(folder: folder + "/none") == nil)
    }
}
