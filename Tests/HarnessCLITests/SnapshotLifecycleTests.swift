import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

/// The snapshot lifecycle (docs/SNAPSHOTS.md, "Lifecycle"): runs of flows and of Swift tests
/// keep a ledger of the references they used; `harness snapshots` lists and prunes the unused
/// ones, never one whose owner did not run; the report shows a changed snapshot beside its
/// reference with the command that accepts it; `harness snapshots accept` accepts it.
@Suite struct SnapshotLifecycleTests {
    /// A flow without a terminal whose standard output is the snapshot `NAME`.
    static func pipesFlow(printing text: String, snapshot name: String, failingFirst: Bool = false) -> String {
        """
        app printf "\(text)"
        launch pipes
        \(failingFirst ? "stdout contains \"never printed\"\n" : "")stdout snapshot \(name)
        exit 0

        """
    }

    /// The lines of `harness snapshots` that name references (`  PATH: REASON`), as paths.
    static func listed(_ output: String) -> [String] {
        output.split(separator: "\n").filter { $0.hasPrefix("  ") }
            .map { String($0.dropFirst(2).prefix { $0 != ":" }) }.sorted()
    }

    @Test func aFilteredRunCallsUnusedOnlyWhatItsFlowsLeftOrWhatLostItsFlowAndPruneRemovesThat() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write(Self.pipesFlow(printing: "apple", snapshot: "out"), at: "suite/a.flow")
        try fixture.write(Self.pipesFlow(printing: "pear", snapshot: "out"), at: "suite/b.flow")
        try fixture.write(Self.pipesFlow(printing: "fig", snapshot: "out", failingFirst: true), at: "suite/c.flow")
        try fixture.write("apple", at: "suite/__Snapshots__/a/a.out.txt")
        try fixture.write("old\n", at: "suite/__Snapshots__/a/a.old.txt")
        try fixture.write("<svg/>\n", at: "suite/__Snapshots__/a/a.old.svg")
        try fixture.write("pear", at: "suite/__Snapshots__/b/b.out.txt")
        try fixture.write("stale\n", at: "suite/__Snapshots__/b/b.stale.txt")
        try fixture.write("fig", at: "suite/__Snapshots__/c/c.out.txt")
        try fixture.write("later\n", at: "suite/__Snapshots__/c/c.later.txt")
        try fixture.write("gone\n", at: "suite/__Snapshots__/gone/gone.idle.txt")

        // a and c run (c fails before its snapshot); b does not run.
        let filtered = try await runHarness(["run", "suite", "--filter", "^suite/(a|c)\\.flow$", "--artifacts", "out"], in: fixture.folder)
        #expect(filtered.status == 1, "\(filtered.stdout)\n\(filtered.stderr)")
        let list = try await runHarness(["snapshots", "suite", "--run", "out"], in: fixture.folder)
        #expect(list.status == 1, "\(list.stdout)\n\(list.stderr)")
        #expect(Self.listed(list.stdout) == [
            "suite/__Snapshots__/a/a.old.svg", "suite/__Snapshots__/a/a.old.txt", "suite/__Snapshots__/gone/gone.idle.txt",
        ], "\(list.stdout)")
        #expect(list.stdout.contains("suite/__Snapshots__/a/a.old.txt: suite/a.flow ran and passed without it"))
        #expect(list.stdout.contains("gone.idle.txt: no gone.flow or gone.swift beside its __Snapshots__ any more"))
        #expect(list.stdout.contains("3 unused, 1 used, 4 not judged (their flow or test did not run and pass) of 8 references"),
                "\(list.stdout)")

        let prune = try await runHarness(["snapshots", "suite", "--run", "out", "--prune"], in: fixture.folder)
        #expect(prune.status == 0, "\(prune.stdout)\n\(prune.stderr)")
        let left = try SnapshotReview.references(under: [fixture.folder + "/suite"]).map { String($0.dropFirst(fixture.folder.count + 1)) }
        #expect(left == [
            "suite/__Snapshots__/a/a.out.txt", "suite/__Snapshots__/b/b.out.txt", "suite/__Snapshots__/b/b.stale.txt",
            "suite/__Snapshots__/c/c.later.txt", "suite/__Snapshots__/c/c.out.txt",
        ])
        #expect(!FileManager.default.fileExists(atPath: fixture.folder + "/suite/__Snapshots__/gone"))

        // Once b has run (and c passes), their leftovers are unused too.
        try fixture.write(Self.pipesFlow(printing: "fig", snapshot: "out"), at: "suite/c.flow")
        let full = try await runHarness(["run", "suite", "--artifacts", "out"], in: fixture.folder)
        #expect(full.status == 0, "\(full.stdout)\n\(full.stderr)")
        let again = try await runHarness(["snapshots", "suite", "--run", "out"], in: fixture.folder)
        #expect(Self.listed(again.stdout) == ["suite/__Snapshots__/b/b.stale.txt", "suite/__Snapshots__/c/c.later.txt"], "\(again.stdout)")
    }

    @Test func shardsTogetherJudgeWhatNoneOfThemAloneMay() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        for name in ["a", "b", "c", "d"] {
            try fixture.write(Self.pipesFlow(printing: name, snapshot: "out"), at: "suite/\(name).flow")
            try fixture.write(name, at: "suite/__Snapshots__/\(name)/\(name).out.txt")
            try fixture.write("x\n", at: "suite/__Snapshots__/\(name)/\(name).stale.txt")
        }
        for index in 1...2 {
            let shard = try await runHarness(["run", "suite", "--shard", "\(index)/2", "--artifacts", "shard\(index)"], in: fixture.folder)
            #expect(shard.status == 0, "\(shard.stdout)\n\(shard.stderr)")
        }
        let one = try await runHarness(["snapshots", "suite", "--run", "shard1"], in: fixture.folder)
        let both = try await runHarness(["snapshots", "suite", "--run", "shard1", "--run", "shard2"], in: fixture.folder)
        let stale = ["a", "b", "c", "d"].map { "suite/__Snapshots__/\($0)/\($0).stale.txt" }
        #expect(Self.listed(both.stdout) == stale, "\(both.stdout)")
        // One shard alone judges only the flows it ran.
        let ranInOne = try RunReportWriter.read(folder: fixture.folder + "/shard1").flows.map { $0.path }
        let expected = ranInOne.map { path in
            let name = String(path.dropFirst("suite/".count).dropLast(".flow".count))
            return "suite/__Snapshots__/\(name)/\(name).stale.txt"
        }.sorted()
        #expect(ranInOne.count < 4)
        #expect(Self.listed(one.stdout) == expected, "\(one.stdout)")
    }

    @Test func aScreenSnapshotThatChangedIsShownSideBySideAndAcceptedByTheReportsCommand() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        func flow(_ word: String) -> String {
            """
            app sh -c "printf '\(word)'; exec cat"
            size 20x3
            launch
            expect "\(word)"
            timeout 300ms
            snapshot greeting

            """
        }
        try fixture.write(flow("hello"), at: "suite/hi.flow")
        try fixture.write(Self.pipesFlow(printing: "pear", snapshot: "out"), at: "suite/other.flow")
        try fixture.write("apple", at: "suite/__Snapshots__/other/other.out.txt")
        let record = try await runHarness(["run", "suite", "--record", "missing"], in: fixture.folder)
        #expect(record.status == 1, "recording fails: \(record.stdout)")
        let reference = fixture.folder + "/suite/__Snapshots__/hi/hi.greeting.txt"
        let expected = try String(contentsOfFile: reference, encoding: .utf8)
        #expect(expected.contains("hello"))

        try fixture.write(flow("howdy"), at: "suite/hi.flow")
        let failed = try await runHarness(["run", "suite", "--artifacts", "out"], in: fixture.folder)
        #expect(failed.status == 1, "\(failed.stdout)\n\(failed.stderr)")
        let report = try RunReportWriter.read(folder: fixture.folder + "/out")
        let change = try #require(report.flows.first { $0.path == "suite/hi.flow" }?.snapshots?.first)
        #expect(change.reference == "suite/__Snapshots__/hi/hi.greeting.txt")
        #expect(change.expected == expected)
        #expect(change.actual.contains("howdy"))
        #expect(change.expectedSVG?.contains("hello") == true && change.actualSVG?.contains("howdy") == true)
        #expect(change.acceptCommand == "harness snapshots accept --run out suite/__Snapshots__/hi/hi.greeting.txt")
        let page = try String(contentsOfFile: fixture.folder + "/out/index.html", encoding: .utf8)
        #expect(page.contains("<code class=\"accept-command\">harness snapshots accept --run out suite/__Snapshots__/hi/hi.greeting.txt</code>"))

        if HeadlessChromium.isInstalled {
            let dom = try await HeadlessChromium.dumpDOM(of: fixture.folder + "/out/index.html")
            let section = try #require(RunReportBrowserTests.element(in: dom, from: "<div class=\"snapshot-change\"", to: "<p class=\"accept\">"))
            let sides = RunReportBrowserTests.elements(in: section, from: "<div class=\"side ", to: "</pre></div>")
            #expect(sides.count == 2)
            // Each picture an image of its SVG, then the text.
            #expect(sides.first?.contains("Expected") == true && sides.first?.contains("hello") == true)
            #expect(sides.last?.contains("Actual") == true && sides.last?.contains("howdy") == true)
            let pictures = sides.compactMap { $0.firstMatch(of: /<img alt="[a-z]+ picture" src="data:image\/svg\+xml;base64,([^"]*)">/) }
                .compactMap { Data(base64Encoded: String($0.1)).map { String(decoding: $0, as: UTF8.self) } }
            #expect(pictures.count == 2 && pictures[0].contains("hello") && pictures[1].contains("howdy"))
        }

        // The report's command, run as it is written, accepts that snapshot and no other.
        let words = change.acceptCommand.split(separator: " ").map(String.init)
        #expect(words.first == "harness")
        let otherBefore = try String(contentsOfFile: fixture.folder + "/suite/__Snapshots__/other/other.out.txt", encoding: .utf8)
        let accept = try await runHarness(Array(words.dropFirst()), in: fixture.folder)
        #expect(accept.status == 0, "\(accept.stdout)\n\(accept.stderr)")
        #expect(accept.stdout.contains("  suite/__Snapshots__/hi/hi.greeting.txt (and its .svg)"), "\(accept.stdout)")
        #expect(try String(contentsOfFile: reference, encoding: .utf8) == change.actual)
        #expect(try String(contentsOfFile: fixture.folder + "/suite/__Snapshots__/hi/hi.greeting.svg", encoding: .utf8).contains("howdy"))
        #expect(try String(contentsOfFile: fixture.folder + "/suite/__Snapshots__/other/other.out.txt", encoding: .utf8) == otherBefore)

        // Now it passes; accepting everything left takes the other flow's change.
        let pass = try await runHarness(["run", "suite/hi.flow"], in: fixture.folder)
        #expect(pass.status == 0, "\(pass.stdout)\n\(pass.stderr)")
        let rest = try await runHarness(["snapshots", "accept", "--run", "out"], in: fixture.folder)
        #expect(rest.stdout.contains("Accepting 1 snapshot") && rest.stdout.contains("other.out.txt"), "\(rest.stdout)")
        #expect(try String(contentsOfFile: fixture.folder + "/suite/__Snapshots__/other/other.out.txt", encoding: .utf8) == "pear")
        let nothing = try await runHarness(["snapshots", "accept", "--run", "out"], in: fixture.folder)
        #expect(nothing.status == 0 && nothing.stdout.contains("Nothing to accept"), "\(nothing.stdout)")
    }

    @Test func acceptByFlowNameAndBadNamesOrRuns() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write(Self.pipesFlow(printing: "pear", snapshot: "out"), at: "suite/one.flow")
        try fixture.write(Self.pipesFlow(printing: "fig", snapshot: "out"), at: "suite/two.flow")
        try fixture.write("apple", at: "suite/__Snapshots__/one/one.out.txt")
        try fixture.write("apple", at: "suite/__Snapshots__/two/two.out.txt")
        let failed = try await runHarness(["run", "suite", "--artifacts", "out"], in: fixture.folder)
        #expect(failed.status == 1)

        let unknown = try await runHarness(["snapshots", "accept", "three", "--run", "out"], in: fixture.folder)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no changed snapshot of \"three\" in out; the runs left:\n  suite/__Snapshots__/one/one.out.txt"),
                "\(unknown.stderr)")
        let noLedger = try await runHarness(["snapshots", "--run", "suite"], in: fixture.folder)
        #expect(noLedger.status == 1 && noLedger.stderr.contains("no snapshot ledger in"), "\(noLedger.stderr)")
        let noFolder = try await runHarness(["snapshots", "--run", "nowhere"], in: fixture.folder)
        #expect(noFolder.status == 64 && noFolder.stderr.contains("--run \(fixture.folder)/nowhere: no such folder"))

        let one = try await runHarness(["snapshots", "accept", "one", "--run", "out"], in: fixture.folder)
        #expect(one.status == 0, "\(one.stderr)")
        #expect(try String(contentsOfFile: fixture.folder + "/suite/__Snapshots__/one/one.out.txt", encoding: .utf8) == "pear")
        #expect(try String(contentsOfFile: fixture.folder + "/suite/__Snapshots__/two/two.out.txt", encoding: .utf8) == "apple")
    }

    /// Two flows named `login` in two folders keep their actual snapshots apart (they mirror
    /// the references' places), so each is accepted into its own reference.
    @Test func sameNamedFlowsInTwoFoldersKeepTheirActualSnapshotsApart() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write(Self.pipesFlow(printing: "pear", snapshot: "out"), at: "suite/a/login.flow")
        try fixture.write(Self.pipesFlow(printing: "fig", snapshot: "out"), at: "suite/b/login.flow")
        for folder in ["a", "b"] { try fixture.write("apple", at: "suite/\(folder)/__Snapshots__/login/login.out.txt") }
        let failed = try await runHarness(["run", "suite", "--artifacts", "out", "--jobs", "1"], in: fixture.folder)
        #expect(failed.status == 1 && failed.lastLine == "0 passed, 2 failed", "\(failed.stdout)\(failed.stderr)")
        for (folder, word) in [("a", "pear"), ("b", "fig")] {
            let actual = fixture.folder + "/out/suite/\(folder)/__Snapshots__/login/login.out.txt"
            #expect((try? String(contentsOfFile: actual, encoding: .utf8)) == word, "\(actual)")
        }
        let accept = try await runHarness(["snapshots", "accept", "--run", "out"], in: fixture.folder)
        #expect(accept.status == 0, "\(accept.stdout)\(accept.stderr)")
        #expect(try String(contentsOfFile: fixture.folder + "/suite/a/__Snapshots__/login/login.out.txt", encoding: .utf8) == "pear")
        #expect(try String(contentsOfFile: fixture.folder + "/suite/b/__Snapshots__/login/login.out.txt", encoding: .utf8) == "fig")
    }

    // MARK: - Swift tests

    @Test func aSwiftTestsFailureIsAcceptedFromItsArtifactsFolder() throws {
        let folder = try TemporaryDirectory(prefix: "snapshot-lifecycle")
        defer { folder.remove() }
        let references = URL(fileURLWithPath: folder.path + "/Tests/__Snapshots__/Owner")
        let artifacts = URL(fileURLWithPath: folder.path + "/artifacts")
        try folder.write("old\n", at: "Tests/__Snapshots__/Owner/aSwiftTestsFailureIsAcceptedFromItsArtifactsFolder.line.txt")
        let message = verifySnapshot(of: "new", as: .lines, named: "line", record: .never,
                                     snapshotDirectory: references, artifactsDirectory: artifacts)
        #expect(message?.contains("does not match its reference") == true)

        let entries = try #require(SnapshotLedger.entries(inArtifacts: artifacts))
        let entry = try #require(entries.first)
        #expect(entries.count == 1 && entry.outcome == .failed)
        #expect(entry.owner.function == "aSwiftTestsFailureIsAcceptedFromItsArtifactsFolder")
        #expect(entry.owner.file == "\(#filePath)")
        #expect(entry.owner.label.map(SnapshotLedger.Owner.swiftTestListName(ofStreamID:))
                == "HarnessCLITests.SnapshotLifecycleTests/aSwiftTestsFailureIsAcceptedFromItsArtifactsFolder()")
        let review = SnapshotReview(ledgers: [entries])
        let change = try #require(review.changes.first)
        #expect(review.changes.count == 1)
        #expect(change.reference == references.path + "/aSwiftTestsFailureIsAcceptedFromItsArtifactsFolder.line.txt")
        #expect(try String(contentsOfFile: change.actual, encoding: .utf8) == "new\n")
    }

    @Test func aSwiftTestsChangeIsAcceptedByTheCommand() async throws {
        let folder = try TemporaryDirectory(prefix: "snapshot-lifecycle")
        defer { folder.remove() }
        let references = URL(fileURLWithPath: folder.path + "/Tests/__Snapshots__/Owner")
        let artifacts = URL(fileURLWithPath: folder.path + "/artifacts")
        let name = "aSwiftTestsChangeIsAcceptedByTheCommand"
        try folder.write("old\n", at: "Tests/__Snapshots__/Owner/\(name).line.txt")
        try folder.write("kept\n", at: "Tests/__Snapshots__/Owner/\(name).other.txt")
        #expect(verifySnapshot(of: "new", as: .lines, named: "line", record: .never, snapshotDirectory: references,
                               artifactsDirectory: artifacts) != nil)
        #expect(verifySnapshot(of: "changed", as: .lines, named: "other", record: .never, snapshotDirectory: references,
                               artifactsDirectory: artifacts) != nil)
        let accept = try await runHarness(["snapshots", "accept", "\(name).line", "--run", "artifacts"], in: folder.path)
        #expect(accept.status == 0, "\(accept.stdout)\n\(accept.stderr)")
        #expect(try String(contentsOfFile: references.path + "/\(name).line.txt", encoding: .utf8) == "new\n")
        #expect(try String(contentsOfFile: references.path + "/\(name).other.txt", encoding: .utf8) == "kept\n")
        // A comparison that matches afterwards leaves nothing to accept for it.
        #expect(verifySnapshot(of: "kept", as: .lines, named: "other", record: .never, snapshotDirectory: references,
                               artifactsDirectory: artifacts) == nil)
        let rest = try await runHarness(["snapshots", "accept", "--run", "artifacts"], in: folder.path)
        #expect(rest.stdout.contains("Nothing to accept"), "\(rest.stdout)")
    }

    @Test func swiftTestRecordsTheTestsThatRanSoOnlyTheirReferencesAreJudged() async throws {
        let swift = try FakeSwift(tests: ["FakeTests.Suite/loaded()", "FakeTests.Suite/other()", "FakeTests.Suite/alsoRan()"])
        defer { swift.remove() }
        let package = swift.package
        try swift.folder.write("// the tests\n", at: "package/Tests/FakeTests/Fake.swift")
        for file in ["loaded.1.txt", "other.1.txt", "alsoRan.screen.txt"] {
            try swift.folder.write("x\n", at: "package/Tests/FakeTests/__Snapshots__/Fake/\(file)")
        }
        let run = try await runHarness(["swift-test", "--swift", swift.executable, "--package-path", package, "--artifacts", "out",
                                        "--", "--filter", "loaded|alsoRan"], in: swift.folder.path)
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        // The fake tests compared nothing: the two that ran left theirs unused; other() did not run.
        let list = try await runHarness(["snapshots", "package/Tests", "--run", "out"], in: swift.folder.path)
        #expect(Self.listed(list.stdout) == [
            "package/Tests/FakeTests/__Snapshots__/Fake/alsoRan.screen.txt", "package/Tests/FakeTests/__Snapshots__/Fake/loaded.1.txt",
        ], "\(list.stdout)\n\(list.stderr)")
        #expect(list.stdout.contains("loaded.1.txt: FakeTests.Suite/loaded() ran and passed without it"))
    }
}
