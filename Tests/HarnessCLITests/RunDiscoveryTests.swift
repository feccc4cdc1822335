import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

/// What `harness run` finds and lists: flows through symbolic links (Bazel's runfiles are a
/// tree of them), `--list`, a run that finds nothing, an empty shard.
@Suite struct RunDiscoveryTests {
    /// A flow that passes at once, on pipes.
    static func passing(_ word: String) -> String {
        "app sh -c \"echo \(word)\"\nlaunch pipes\nstdout contains \"\(word)\"\nexit 0\n"
    }

    // MARK: - Symbolic links

    /// `suite/` holds a flow of its own, a link to a flow elsewhere, a link to a folder of
    /// flows elsewhere, a link to itself (a loop) and a link to nothing.
    static func makeLinkedSuite() throws -> FlowFixture {
        let fixture = try FlowFixture()
        try fixture.write(passing("own"), at: "suite/own.flow")
        try fixture.write(passing("linked-file"), at: "elsewhere/file.flow")
        try fixture.write(passing("linked-folder"), at: "elsewhere/folder/deep/inside.flow")
        let links = FileManager.default
        try links.createSymbolicLink(atPath: fixture.folder + "/suite/file-link.flow", withDestinationPath: "../elsewhere/file.flow")
        try links.createSymbolicLink(atPath: fixture.folder + "/suite/folder-link", withDestinationPath: "../elsewhere/folder")
        try links.createSymbolicLink(atPath: fixture.folder + "/suite/loop", withDestinationPath: ".")
        try links.createSymbolicLink(atPath: fixture.folder + "/suite/gone.flow", withDestinationPath: "nowhere.flow")
        return fixture
    }

    @Test func linkedFlowsAndFoldersRunUnderTheirLinksNamesAndALoopIsReportedOnce() async throws {
        let fixture = try Self.makeLinkedSuite()
        defer { fixture.remove() }
        let output = try await runHarness(["run", "suite", "--jobs", "1"], in: fixture.folder)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.hasPrefix("Running 3 flows on 1 worker\n"), "\(output.stdout)")
        for flow in ["suite/own.flow", "suite/file-link.flow", "suite/folder-link/deep/inside.flow"] {
            #expect(output.stdout.contains("✓ \(flow) ("), "\(flow): \(output.stdout)")
        }
        #expect(output.lastLine == "3 passed, 0 failed")
        let loop = "harness run: suite/loop: a symbolic link back to suite, which holds it (a loop): not followed"
        #expect(output.stderr.components(separatedBy: loop).count == 2, "once: \(output.stderr)")
        #expect(output.stderr.contains("harness run: suite/gone.flow: a symbolic link to nothing: skipped"))

        // The folder itself through a link: the names are the link's.
        try FileManager.default.createSymbolicLink(atPath: fixture.folder + "/runfiles", withDestinationPath: "suite")
        let listed = try await runHarness(["run", "runfiles", "--list"], in: fixture.folder)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout == "runfiles/file-link.flow\nrunfiles/folder-link/deep/inside.flow\nrunfiles/own.flow\n")
    }

    /// A file reached by two paths runs once, under the first name in order.
    @Test func aFlowReachedByTwoPathsRunsOnce() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write(Self.passing("one"), at: "suite/a/one.flow")
        try FileManager.default.createSymbolicLink(atPath: fixture.folder + "/suite/b", withDestinationPath: "a")
        let listed = try await runHarness(["run", "suite", "suite/a/one.flow", "--list"], in: fixture.folder)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout == "suite/a/one.flow\n")
    }

    // MARK: - --list

    /// Six flows, one of them left out by `--filter`, and the durations of an earlier run (one
    /// flow as long as the others together) for `--durations`.
    static func makeListSuite() throws -> FlowFixture {
        let fixture = try FlowFixture()
        let names = (1...6).map { "flow-\($0)" }
        for name in names { try fixture.write(passing(name), at: "many/\(name).flow") }
        try fixture.write(passing("left-out"), at: "many/left-out.flow")
        var cases = names.map { JUnitTestCase(classname: "many", name: $0, file: "many/\($0).flow", time: 1, result: .passed) }
        cases[0].time = 5
        try JUnitWriter.write(JUnitReport(name: "earlier", suites: [JUnitTestSuite(name: "earlier", cases: cases)]),
                              to: fixture.folder + "/earlier.xml")
        return fixture
    }

    /// `--list` prints exactly the flows the same command then runs, shard by shard, after the
    /// filter and the durations' plan; the shards' lists are disjoint and cover the suite.
    @Test(arguments: 1...5)
    func listPrintsWhatEachShardRuns(count: Int) async throws {
        let fixture = try Self.makeListSuite()
        defer { fixture.remove() }
        var listedByShard: [[String]] = []
        for index in 1...count {
            let options = ["--filter", "flow-", "--durations", "earlier.xml", "--shard", "\(index)/\(count)"]
            let listed = try await runHarness(["run", "many"] + options + ["--list"], in: fixture.folder)
            #expect(listed.status == 0, "\(listed.stderr)")
            let paths = listed.stdout.split(separator: "\n").map(String.init)
            #expect(!FileManager.default.fileExists(atPath: fixture.folder + "/junit-\(index).xml"))
            let ran = try await runHarness(["run", "many"] + options + ["--junit", "junit-\(index).xml"], in: fixture.folder)
            #expect(ran.status == 0, "\(ran.stdout)\(ran.stderr)")
            let report = try JUnitReader.read(path: fixture.folder + "/junit-\(index).xml")
            #expect(report.suites.flatMap(\.cases).compactMap(\.file).sorted() == paths, "shard \(index)/\(count)")
            listedByShard.append(paths)
        }
        let all = listedByShard.flatMap { $0 }
        #expect(all.sorted() == (1...6).map { "many/flow-\($0).flow" })
        if count == 2 { #expect(listedByShard.contains(["many/flow-1.flow"])) }  // balanced by the durations
    }

    @Test func listRunsNothing() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write("app sh -c \"touch ran\"\nlaunch pipes\nexit 0\n", at: "suite/touch.flow")
        let listed = try await runHarness(["run", "suite", "--list", "--junit", "j.xml", "--artifacts", "a"], in: fixture.folder)
        #expect(listed.status == 0 && listed.stdout == "suite/touch.flow\n", "\(listed.stderr)")
        for path in ["suite/ran", "j.xml", "a"] { #expect(!FileManager.default.fileExists(atPath: fixture.folder + "/" + path), "\(path)") }
    }

    // MARK: - Nothing to run

    @Test(arguments: [
        (["run", "empty"], "harness run: no flows found under empty\n"),
        (["run", "empty", "suite/notes.txt.d"], "harness run: no flows found under empty suite/notes.txt.d\n"),
        (["run", "suite", "--filter", "nothing-matches"], "harness run: no flows found under suite matching --filter \"nothing-matches\"\n"),
        (["run", "empty", "--shard", "1/2"], "harness run: no flows found under empty\n"),
        (["run", "empty", "--list"], "harness run: no flows found under empty\n"),
    ])
    func aRunThatFindsNoFlowFails(arguments: [String], message: String) async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write(Self.passing("one"), at: "suite/one.flow")
        try fixture.write("not a flow", at: "empty/notes.txt")
        try fixture.write("not a flow either", at: "suite/notes.txt.d/x.txt")
        let output = try await runHarness(arguments, in: fixture.folder)
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr == message)
    }

    /// More shards than flows: the shards without one pass and say why they ran nothing.
    @Test func anEmptyShardOfANonEmptyPlanPassesAndSaysSo() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write(Self.passing("only"), at: "suite/only.flow")
        let own = FlowShard.shardIndex(of: "suite/only.flow", count: 3)
        let other = own % 3 + 1
        let output = try await runHarness(["run", "suite", "--shard", "\(other)/3", "--junit", "j.xml"], in: fixture.folder)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("Running 0 flows on 1 worker, shard \(other)/3\nShard \(other)/3 is empty: the 1 flow found belongs to other shards\n"),
                "\(output.stdout)")
        #expect(output.lastLine == "0 passed, 0 failed")
        #expect(try JUnitReader.read(path: fixture.folder + "/j.xml").tests == 0)
        let listed = try await runHarness(["run", "suite", "--shard", "\(other)/3", "--list"], in: fixture.folder)
        #expect(listed.status == 0 && listed.stdout.isEmpty)
        #expect(listed.stderr == "Shard \(other)/3 is empty: the 1 flow found belongs to other shards\n")
        let mine = try await runHarness(["run", "suite", "--shard", "\(own)/3"], in: fixture.folder)
        #expect(mine.status == 0 && mine.lastLine == "1 passed, 0 failed")
    }
}
