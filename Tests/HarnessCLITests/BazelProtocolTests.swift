import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

/// `harness run` as a Bazel test (docs/NIGHTLY.md, "Bazel"), with the variables Bazel sets
/// given by hand, and `--shard auto` with every CI's variables. Scripts/bazel-check.sh runs the
/// same under a real Bazel.
@Suite struct BazelProtocolTests {
    /// Every variable `--shard auto` reads, so that the CI running these tests does not choose.
    static let shardVariables = FlowShard.ciVariables.flatMap { [$0.index] + ($0.total.map { [$0] } ?? []) } + ["HARNESS_SHARD_TOTAL"]

    static let autoCases: [([String: String], String, String)] = [
        (["TEST_SHARD_INDEX": "0", "TEST_TOTAL_SHARDS": "3"], "auto", "1/3"),
        (["TEST_SHARD_INDEX": "2", "TEST_TOTAL_SHARDS": "3"], "auto", "3/3"),
        (["CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "2"], "auto", "1/2"),
        (["CIRCLE_NODE_INDEX": "3", "CIRCLE_NODE_TOTAL": "4"], "auto", "4/4"),
        (["HARNESS_SHARD_INDEX": "2", "HARNESS_SHARD_TOTAL": "4"], "auto", "2/4"),
        (["CI_NODE_INDEX": "3", "CI_NODE_TOTAL": "3"], "auto", "3/3"),
        (["BUILDKITE_PARALLEL_JOB": "1", "BUILDKITE_PARALLEL_JOB_COUNT": "5"], "auto", "2/5"),
        (["JOB_COMPLETION_INDEX": "4"], "auto/5", "5/5"),
        // The harness's own variables first, then Bazel's: a Bazel test on a CircleCI machine runs Bazel's shard.
        (["HARNESS_SHARD_INDEX": "1", "HARNESS_SHARD_TOTAL": "2", "TEST_SHARD_INDEX": "1", "TEST_TOTAL_SHARDS": "2"], "auto", "1/2"),
        (["TEST_SHARD_INDEX": "1", "TEST_TOTAL_SHARDS": "2", "CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "2"], "auto", "2/2"),
    ]

    /// `--shard auto` with each CI's variables lists the same flows as the shard they name, and
    /// touches `TEST_SHARD_STATUS_FILE` only when it took Bazel's shard.
    @Test(arguments: autoCases)
    func shardAutoReadsEachCIsVariables(variables: [String: String], argument: String, expected: String) async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        for index in 1...12 { try fixture.write(RunDiscoveryTests.passing("f\(index)"), at: "many/f\(index).flow") }
        var environment = variables
        environment["TEST_SHARD_STATUS_FILE"] = fixture.folder + "/test.shard"
        let auto = try await runHarness(["run", "many", "--list", "--shard", argument], in: fixture.folder,
                                        environment: environment, removing: Self.shardVariables)
        let explicit = try await runHarness(["run", "many", "--list", "--shard", expected], in: fixture.folder, removing: Self.shardVariables)
        #expect(auto.status == 0 && explicit.status == 0, "\(auto.stderr)\(explicit.stderr)")
        #expect(auto.stdout == explicit.stdout)
        let tookBazels = FlowShard.autoVariable(in: variables) == FlowShard.bazelIndexVariable
        #expect(FileManager.default.fileExists(atPath: fixture.folder + "/test.shard") == tookBazels)
    }

    /// A flow that passes, one that fails, one whose program leaves a file in its `TMPDIR`, and
    /// one whose snapshot has no reference yet.
    static func makeSuite() throws -> FlowFixture {
        let fixture = try FlowFixture()
        try fixture.write(RunDiscoveryTests.passing("fine"), at: "runfiles/suite/pass.flow")
        try fixture.write("""
            app sh -c "echo 'what it says'; exec cat"
            launch
            timeout 200ms
            expect "what it never says"
            """, at: "runfiles/suite/fail.flow")
        try fixture.write("app sh -c \"touch $$TMPDIR/tmp-was-here\"\nlaunch pipes\nexit 0\n", at: "runfiles/suite/tmp.flow")
        try fixture.write("app sh -c \"echo new\"\nlaunch pipes\nexit 0\nstdout snapshot new\n", at: "runfiles/suite/snapshot.flow")
        for folder in ["outputs", "tmp"] {
            try FileManager.default.createDirectory(atPath: fixture.folder + "/bazel/" + folder, withIntermediateDirectories: true)
        }
        return fixture
    }

    /// What Bazel sets for shard `index` of `total` of `//flows:suite`, in `fixture`'s `bazel/`.
    static func bazelEnvironment(_ fixture: FlowFixture, index: Int = 0, total: Int = 1) -> [String: String] {
        let bazel = fixture.folder + "/bazel"
        return [
            "TEST_SRCDIR": fixture.folder + "/runfiles", "TEST_TARGET": "//flows:suite",
            "TEST_TMPDIR": bazel + "/tmp", "TEST_UNDECLARED_OUTPUTS_DIR": bazel + "/outputs",
            "XML_OUTPUT_FILE": bazel + "/test.xml", "TEST_SHARD_STATUS_FILE": bazel + "/test.shard",
            "TEST_SHARD_INDEX": "\(index)", "TEST_TOTAL_SHARDS": "\(total)",
        ]
    }

    /// Under Bazel: JUnit to `XML_OUTPUT_FILE`, the report and artifacts to
    /// `TEST_UNDECLARED_OUTPUTS_DIR` (and where Bazel keeps them said), temporary files in
    /// `TEST_TMPDIR`, no reference recorded in the runfiles tree, the shard confirmed.
    @Test func bazelsVariablesPlaceEveryFileTheRunWrites() async throws {
        let fixture = try Self.makeSuite()
        defer { fixture.remove() }
        let bazel = fixture.folder + "/bazel"
        let output = try await runHarness(
            ["run", "suite", "--shard", "auto"], in: fixture.folder + "/runfiles",
            environment: Self.bazelEnvironment(fixture), removing: Self.shardVariables + ["HARNESS_RECORD", "CI", "TMPDIR"])
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.hasPrefix("Running 4 flows"), "\(output.stdout)")
        #expect(output.lastLine == "2 passed, 2 failed", "\(output.stdout)")

        let report = try JUnitReader.read(path: bazel + "/test.xml")
        #expect(report.tests == 4 && report.failures == 2)
        for file in ["index.html", "results.json", "suite/fail.cast", "suite/fail.screen.txt"] {
            #expect(FileManager.default.fileExists(atPath: bazel + "/outputs/" + file), "\(file)")
        }
        #expect(output.stdout.contains("Artifacts: \(bazel)/outputs/index.html\n"))
        #expect(output.stdout.contains("Bazel keeps TEST_UNDECLARED_OUTPUTS_DIR after the test: bazel-testlogs/flows/suite/test.outputs/outputs.zip\n"))
        #expect(FileManager.default.fileExists(atPath: bazel + "/tmp/tmp-was-here"))
        #expect(FileManager.default.fileExists(atPath: bazel + "/test.shard"))
        // Record mode `never`: the missing reference fails the flow and nothing is written beside it.
        #expect(output.stdout.contains("✗ suite/snapshot.flow"), "\(output.stdout)")
        #expect(!FileManager.default.fileExists(atPath: fixture.folder + "/runfiles/suite/__Snapshots__"))
    }

    /// Relative `--junit` and `--artifacts` are inside `TEST_UNDECLARED_OUTPUTS_DIR` (the
    /// current folder is the read-only runfiles tree); Bazel's shard names where Bazel keeps them.
    @Test func relativeOutputsGoToTheUndeclaredOutputs() async throws {
        let fixture = try Self.makeSuite()
        defer { fixture.remove() }
        let bazel = fixture.folder + "/bazel"
        let shard = FlowShard.shardIndex(of: "suite/pass.flow", count: 3)
        let output = try await runHarness(
            ["run", "suite/pass.flow", "--junit", "mine.xml", "--artifacts", "mine", "--shard", "auto"], in: fixture.folder + "/runfiles",
            environment: Self.bazelEnvironment(fixture, index: shard - 1, total: 3), removing: Self.shardVariables)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(try JUnitReader.read(path: bazel + "/outputs/mine.xml").tests == 1)
        #expect(!FileManager.default.fileExists(atPath: bazel + "/test.xml"))
        #expect(FileManager.default.fileExists(atPath: bazel + "/outputs/mine/index.html"))
        #expect(output.stdout.contains("bazel-testlogs/flows/suite/shard_\(shard)_of_3/test.outputs/outputs.zip"))
        #expect(!FileManager.default.fileExists(atPath: fixture.folder + "/runfiles/mine.xml"))
    }

    /// Bazel's tests run without `HOME`: the harness needs none and the program gets none.
    @Test func aMissingHomeIsNotAnError() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write("app sh -c \"echo home=$${HOME-unset}\"\nlaunch pipes\nexit 0\nstdout contains \"home=unset\"\n", at: "suite/home.flow")
        let output = try await runHarness(["run", "suite", "--artifacts", "out"], in: fixture.folder, removing: ["HOME"])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.lastLine == "1 passed, 0 failed")
        #expect(FileManager.default.fileExists(atPath: fixture.folder + "/out/index.html"))
    }
}
