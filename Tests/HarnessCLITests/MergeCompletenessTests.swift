import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

/// `harness merge-reports` proves the run whole from the plans the shards wrote
/// (`harness-plan.json`): a missing shard, a flow run twice or a planned flow run nowhere make
/// it fail naming them, `--allow-partial` writes the report marked incomplete, and `--plan FILE`
/// makes a re-run shard take exactly the part it took the first time. Through the built
/// `harness`, for flows and for Swift tests (a fake `swift`).
@Suite struct MergeCompletenessTests {
    /// Quick flows `f1.flow`...: each prints its name.
    static func makeSuite(_ count: Int) throws -> FlowFixture {
        let fixture = try FlowFixture()
        for index in 1...count {
            try fixture.write("app sh -c \"echo flow-\(index); exec cat\"\nlaunch\nexpect \"flow-\(index)\"\n", at: "suite/f\(index).flow")
        }
        return fixture
    }

    /// Runs `harness ARGUMENTS`, expecting exit 0 (passing flows).
    @discardableResult
    static func run(_ arguments: [String], in folder: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> ProgramOutput {
        let output = try await runHarness(arguments, in: folder)
        #expect(output.status == 0, "\(arguments.joined(separator: " ")):\n\(output.stdout)\(output.stderr)", sourceLocation: sourceLocation)
        return output
    }

    /// The names a shard's report holds.
    static func ran(_ folder: String) throws -> [String] {
        try RunReportWriter.read(folder: folder).flows.map(\.path)
    }

    @Test func aMissingShardFailsTheMergeNamingItsFlowsAndWritesNothing() async throws {
        let fixture = try Self.makeSuite(8)
        defer { fixture.remove() }
        for index in 1...3 {
            try await Self.run(["run", "suite", "--jobs", "2", "--shard", "\(index)/3", "--artifacts", "shard-\(index)"], in: fixture.folder)
        }
        let plan = try #require(try FlowRunPlan.read(folder: fixture.folder + "/shard-1"))
        #expect(plan.count == 3 && plan.shard == 1 && plan.names.count == 8)
        let third = try #require(try FlowRunPlan.read(folder: fixture.folder + "/shard-3")).mine
        try #require(!third.isEmpty, "the hash split gives shard 3 flows")
        #expect(try Self.ran(fixture.folder + "/shard-3") == third, "the plan says what the shard ran")

        let lost = try await runHarness(["merge-reports", "merged", "shard-1", "shard-2"], in: fixture.folder)
        #expect(lost.status == 1)
        #expect(lost.stderr.contains("the run is incomplete"), "\(lost.stderr)")
        #expect(lost.stderr.contains("shard 3/3 is missing (no folder given holds it): its \(third.count) flow\(third.count == 1 ? "" : "s") planned ran nowhere: "
                                     + third.joined(separator: ", ")), "\(lost.stderr)")
        #expect(lost.stderr.contains("nothing written; --allow-partial"))
        #expect(!FileManager.default.fileExists(atPath: fixture.folder + "/merged"), "no report of an incomplete run")

        let whole = try await Self.run(["merge-reports", "merged", "shard-1", "shard-2", "shard-3"], in: fixture.folder)
        #expect(whole.stdout.contains("Merged 3 reports: 8 passed, 0 failed\n"), "\(whole.stdout)")
        #expect(!whole.stderr.contains("incomplete"), "\(whole.stderr)")
        let page = try String(contentsOfFile: fixture.folder + "/merged/index.html", encoding: .utf8)
        #expect(page.contains("Run passed") && !page.contains("Run incomplete"))
        #expect(try RunReportWriter.read(folder: fixture.folder + "/merged").incomplete == nil)
    }

    @Test func shardsPlannedFromDifferentDurationsRunAFlowTwiceAndAnotherNowhere() async throws {
        let fixture = try Self.makeSuite(4)
        defer { fixture.remove() }
        // f1 longest in one history, f4 in the other: the longest goes alone into shard 1.
        for (name, longest) in [("h1", "suite/f1.flow"), ("h2", "suite/f4.flow")] {
            let flows = (1...4).map { "suite/f\($0).flow" }.map { FlowHistory.Entry(path: $0, status: .passed, seconds: $0 == longest ? 10 : 1, attempts: 1) }
            try FlowHistory(directory: fixture.folder + "/" + name).append(FlowHistory.Run(date: Date(), flows: flows))
        }
        try await Self.run(["run", "suite", "--shard", "1/2", "--durations", "h1", "--artifacts", "shard-1"], in: fixture.folder)
        try await Self.run(["run", "suite", "--shard", "2/2", "--durations", "h2", "--artifacts", "shard-2"], in: fixture.folder)
        #expect(try Self.ran(fixture.folder + "/shard-1") == ["suite/f1.flow"])
        #expect(try Self.ran(fixture.folder + "/shard-2") == ["suite/f1.flow", "suite/f2.flow", "suite/f3.flow"])

        let merged = try await runHarness(["merge-reports", "merged", "shard-1", "shard-2"], in: fixture.folder)
        #expect(merged.status == 1)
        #expect(merged.stderr.contains("the shards split the suite differently"), "\(merged.stderr)")
        #expect(merged.stderr.contains("1 flow planned ran nowhere: suite/f4.flow (shard "), "\(merged.stderr)")
        #expect(merged.stderr.contains("suite/f1.flow ran in 2 shards: 1/2 (shard-1), 2/2 (shard-2)"), "\(merged.stderr)")
    }

    @Test func aFlowLostFromAShardsReportIsNamed() async throws {
        let fixture = try Self.makeSuite(4)
        defer { fixture.remove() }
        for index in 1...2 {
            try await Self.run(["run", "suite", "--shard", "\(index)/2", "--artifacts", "shard-\(index)"], in: fixture.folder)
        }
        // A report that lost a flow (as a shard cut short while writing would leave it).
        let folder = try ["shard-1", "shard-2"].first { try !Self.ran(fixture.folder + "/" + $0).isEmpty }!
        var report = try RunReportWriter.read(folder: fixture.folder + "/" + folder)
        let lost = report.flows.removeFirst().path
        try RunReportWriter.write(report, toFolder: fixture.folder + "/" + folder)

        let merged = try await runHarness(["merge-reports", "merged", "shard-1", "shard-2"], in: fixture.folder)
        #expect(merged.status == 1)
        #expect(merged.stderr.contains("1 flow planned ran nowhere: \(lost) (shard \(folder.suffix(1))/2)"), "\(merged.stderr)")
    }

    @Test func allowPartialWritesTheReportMarkedIncompleteOnThePageAndInTheJUnit() async throws {
        let fixture = try Self.makeSuite(6)
        defer { fixture.remove() }
        for index in 1...2 {
            try await Self.run(["run", "suite", "--shard", "\(index)/2", "--artifacts", "shard-\(index)"], in: fixture.folder)
        }
        let missing = try #require(try FlowRunPlan.read(folder: fixture.folder + "/shard-2")).mine
        try #require(!missing.isEmpty)
        let merged = try await runHarness(["merge-reports", "merged", "shard-1", "--allow-partial"], in: fixture.folder)
        #expect(merged.status == 1, "incomplete is a failure, written or not")
        #expect(merged.stdout.contains("(INCOMPLETE: 1 problem above)"), "\(merged.stdout)")
        #expect(merged.stderr.contains("shard 2/2 is missing"))

        // The page: no verdict on the whole run, and what is missing.
        let page = try String(contentsOfFile: fixture.folder + "/merged/index.html", encoding: .utf8)
        #expect(page.contains("<p class=\"verdict bad incomplete\">Run incomplete: \(6 - missing.count) passed, 0 failed in what arrived</p>"),
                "\(page.prefix(3000))")
        #expect(page.contains("<li>harness run suite ") && page.contains("shard 2/2 is missing"))
        #expect(page.contains(missing.joined(separator: ", ")))
        #expect(page.contains("<title>Flow run — incomplete: "))
        let report = try RunReportWriter.read(folder: fixture.folder + "/merged")
        #expect(report.incomplete?.count == 1)

        // The JUnit: a failing case CI shows, and a property.
        let junit = try JUnitReader.read(path: fixture.folder + "/merged/junit.xml")
        let suite = try #require(junit.suites.first { $0.name == JUnitReport.completenessSuite })
        #expect(suite.properties.contains(JUnitProperty(name: "incomplete", value: "true")))
        guard case .failure(let failure) = suite.cases.first?.result else {
            Issue.record("no failing completeness case: \(suite)")
            return
        }
        #expect(failure.type == "IncompleteRun")
        #expect(failure.message.hasPrefix("the run is incomplete: harness run suite "))
        #expect(failure.body.contains(missing.joined(separator: ", ")))
        #expect(junit.failures == 1 && junit.tests == report.flows.count + 1, "all flows passed; the run still fails")
    }

    @Test func aReRunShardWithThePlanTakesTheSamePartWhateverTheHistorySaysNow() async throws {
        let fixture = try Self.makeSuite(6)
        defer { fixture.remove() }
        let names = (1...6).map { "suite/f\($0).flow" }
        // H: last night's history, f1 the longest ... f6 the shortest.
        func history(_ folder: String, _ seconds: (Int) -> Double) throws {
            let flows = names.enumerated().map { FlowHistory.Entry(path: $1, status: .passed, seconds: seconds($0), attempts: 1) }
            try FlowHistory(directory: fixture.folder + "/" + folder).append(FlowHistory.Run(date: Date(), flows: flows))
        }
        try history("history", { Double(60 - 10 * $0) })
        for index in 1...3 {
            try await Self.run(["run", "suite", "--shard", "\(index)/3", "--durations", "history", "--artifacts", "shard-\(index)"],
                               in: fixture.folder)
        }
        let first = try (1...3).map { try Self.ran(fixture.folder + "/shard-\($0)") }
        // The merge saves tonight's durations into the same history (H'): what a re-run restores.
        try await Self.run(["merge-reports", "merged", "shard-1", "shard-2", "shard-3", "--history", "history"], in: fixture.folder)
        #expect(try FlowHistory(directory: fixture.folder + "/history").runs().count == 2)

        // Re-run shard 2 with H' and the first run's plan (any shard's): the same part.
        let again = try await Self.run(
            ["run", "suite", "--shard", "2/3", "--durations", "history", "--plan", "shard-1/harness-plan.json", "--artifacts", "rerun-2"],
            in: fixture.folder)
        #expect(again.stdout.contains("shard 2/3, split as planned in \(fixture.folder)/shard-1/harness-plan.json"), "\(again.stdout)")
        #expect(try Self.ran(fixture.folder + "/rerun-2") == first[1])
        let plans = try ["shard-2", "rerun-2"].map { try #require(try FlowRunPlan.read(folder: fixture.folder + "/" + $0)) }
        #expect(plans[0].identity == plans[1].identity && plans[1].split == "reused")
        try await Self.run(["merge-reports", "merged", "shard-1", "rerun-2", "shard-3"], in: fixture.folder)

        // Without the plan, other durations split otherwise (f1 far the longest: alone in shard
        // 1), as a re-run that restored a newer history would; with the plan, the part stays.
        try history("newer", { $0 == 0 ? 100 : 1 })
        let drifted = try await Self.run(["run", "suite", "--shard", "2/3", "--durations", "newer", "--artifacts", "drift-2"], in: fixture.folder)
        #expect(try Self.ran(fixture.folder + "/drift-2") != first[1], "\(drifted.stdout)")
        try await Self.run(["run", "suite", "--shard", "2/3", "--durations", "newer", "--plan", "shard-3", "--artifacts", "kept-2"],
                           in: fixture.folder)
        #expect(try Self.ran(fixture.folder + "/kept-2") == first[1])
    }

    @Test func aPlanThatDoesNotFitIsRefused() async throws {
        let fixture = try Self.makeSuite(3)
        defer { fixture.remove() }
        try await Self.run(["run", "suite", "--shard", "1/2", "--artifacts", "shard-1"], in: fixture.folder)
        let noShard = try await runHarness(["run", "suite", "--plan", "shard-1"], in: fixture.folder)
        #expect(noShard.status == 64 && noShard.stderr.contains("--plan splits the suite as an earlier shard did: it needs --shard"))
        let otherCount = try await runHarness(["run", "suite", "--shard", "1/3", "--plan", "shard-1"], in: fixture.folder)
        #expect(otherCount.status == 2)
        #expect(otherCount.stderr.contains("the plan splits the suite into 2 shards, --shard says 3"), "\(otherCount.stderr)")
        try fixture.write("app sh -c \"echo new; exec cat\"\nlaunch\nexpect \"new\"\n", at: "suite/new.flow")
        let changed = try await runHarness(["run", "suite", "--shard", "2/2", "--plan", "shard-1/harness-plan.json"], in: fixture.folder)
        #expect(changed.status == 2)
        #expect(changed.stderr.contains("the suite changed since the plan was made (not in the plan: suite/new.flow)"), "\(changed.stderr)")
        let none = try await runHarness(["run", "suite", "--shard", "2/2", "--plan", "nowhere.json"], in: fixture.folder)
        #expect(none.status == 2 && none.stderr.contains("--plan \(fixture.folder)/nowhere.json: no such file"), "\(none.stderr)")
    }

    // MARK: - Swift tests

    @Test func swiftShardsMergedGetTheSameProofAndTheSamePlanReuse() async throws {
        let tests = (1...9).map { "FakeTests.Suite/case\($0)()" }
        let fake = try FakeSwift(tests: tests)
        defer { fake.remove() }
        let folder = fake.folder.path
        let swift = ["swift-test", "--swift", fake.executable, "--package-path", fake.package]
        for index in 1...3 {
            try await Self.run(swift + ["--shard", "\(index)/3", "--artifacts", "swift-\(index)"], in: folder)
        }
        let third = try #require(try FlowRunPlan.read(folder: folder + "/swift-3")).mine
        try #require(!third.isEmpty)
        let plan = try #require(try FlowRunPlan.read(folder: folder + "/swift-1"))
        #expect(plan.command == "harness swift-test" && plan.names == tests.sorted())

        let lost = try await runHarness(["merge-reports", "merged", "swift-1", "swift-2"], in: folder)
        #expect(lost.status == 1)
        #expect(lost.stderr.contains("harness swift-test suite \(plan.shortSuite) (9 tests planned, 3 shards): shard 3/3 is missing"), "\(lost.stderr)")
        #expect(lost.stderr.contains("planned ran nowhere: " + third.joined(separator: ", ")), "\(lost.stderr)")

        // A re-run of shard 3 with the first run's plan, whatever the durations say.
        let durations = try SwiftTestShardTests.durationsFile(in: fake.folder)
        try await Self.run(swift + ["--shard", "3/3", "--durations", durations, "--plan", "swift-1", "--artifacts", "rerun-3"], in: folder)
        #expect(try Self.ran(folder + "/rerun-3") == third)
        try await Self.run(["merge-reports", "merged", "swift-1", "swift-2", "rerun-3"], in: folder)
    }
}
